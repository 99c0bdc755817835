/**
 * Resolved run settings turned into what the engine runs with — services and their keys, the target's
 * settings, the judge, audio, limits, gates, selection, caller speech and RUN conversations — in one
 * function, the same in the main thread and in every trial worker, so a trial runs alike wherever it
 * runs. And the checks that read several settings at once, made once in the main thread before anything
 * runs (`checkSettings`); each names a setting as its source gave it.
 */
import { resolve } from "node:path";
import { DEFAULT_LIVE_CALLER, LiveCaller } from "../caller/live-caller";
import { OfflineCaller } from "../caller/offline-caller";
import { readInputFile } from "../dataset/input-file";
import { GPT_LIVE_URL } from "../gpt-live-target/adapter";
import type { JudgeSettings } from "../judge/judge";
import { GPT_LIVE_VOICES } from "../live/protocol";
import { MAX_VIRTUAL_CONCURRENCY, virtualConcurrencyRefusal, type RunOptions } from "../run/run";
import type { PackageIdentity } from "../provenance/package-files";
import { OPENAI_API_BASE_URL } from "../services/auth";
import { CLIENT_SERVICE_TOKEN_ENV } from "../services/client-service";
import { resolveServices, type ResolvedServices, type SettingName } from "../services/endpoints";
import { SettingsError } from "../settings/errors";
import { displayName, type Resolution } from "../settings/resolve";
import { liveCaller, settingEntries, type RunSettings } from "../settings/schema";
import { CachedSynthesizer, CacheOnlySynthesizer, EspeakSynthesizer, OPENAI_SPEECH_PROVIDER, OpenAISpeechSynthesizer } from "../speech/index";
import { resolveEspeakVoice } from "../speech/espeak";
import { OPENAI_SPEECH_VOICES } from "../speech/openai-tts";
import type { TargetSettings } from "../target/settings";
import { CompletionObserver } from "../trial/conversation/completion-observer";
import type { ConversationLine, ConversationSettings } from "../trial/context";

/** Credentials by variable (the shell's and the env file's): never recorded, never in a digest. */
export type Credentials = Readonly<Record<string, string | undefined>>;

/** Where the engine runs a run's trials: the package's folder and digest, the folder relative paths mean something in. */
export interface EngineWhere {
  package_dir?: string;
  package_digest: string;
  /** What of the package ran (its files, lockfile, dependencies, git state), computed once in the main thread. */
  package_identity?: PackageIdentity;
  cwd: string;
  /** Whether the run holds RUN conversations (their settings are built only then). */
  conversations: boolean;
}

/** The folder caller speech (and the simulator's voice) is cached under: beside the package, or the working folder. */
export const speechCacheRoot = (where: Pick<EngineWhere, "package_dir" | "cwd">) => (where.package_dir ? resolve(where.package_dir, "..") : where.cwd);

/** The engine's options for a run with these settings; `onLine` hears RUN conversations as they unfold (--verbose). */
export function engineOptions(settings: RunSettings, credentials: Credentials, where: EngineWhere, onLine?: (line: ConversationLine) => void, name: SettingName = displayName): RunOptions {
  const services = resolveServices(settings, credentials, name);
  const conversation = where.conversations ? { ...conversationSettings(settings, services, where, name), ...(onLine ? { onLine } : {}) } : undefined;
  const s = settings;
  return {
    ...(s.target !== undefined ? { target: s.target } : {}),
    target_settings: targetSettings(s, services, where, credentials),
    audio: { chunk_ms: s.chunk_ms, response_timeout_ms: Math.round(s.response_timeout_seconds * 1000) },
    repetitions: s.repetitions,
    concurrency: s.concurrency,
    seed: s.seed,
    max_trials: s.max_trials,
    selection: { ids: s.example, tags: s.tag, conditions: s.condition, where: s.where, max_examples: s.max_examples },
    speech_detector: s.speech_detector,
    ...(s.log_audio_events ? { log_audio_events: true } : {}),
    response_deadline_ms: s.response_deadline_ms,
    judge: judgeSettings(s, services),
    real_time: s.real_time,
    // Unset limits and gate overrides leave the PLAN's (and each case's) own.
    limits: {
      ...(s.trial_timeout_seconds !== undefined ? { time_ms: Math.round(s.trial_timeout_seconds * 1000) } : {}),
      ...(s.max_turns !== undefined ? { turns: s.max_turns } : {}),
      ...(s.max_tool_calls !== undefined ? { tool_calls: s.max_tool_calls } : {}),
      ...(s.max_provider_requests !== undefined ? { provider_requests: s.max_provider_requests } : {}),
    },
    gates: {
      ...(s.require.length > 0 ? { require: s.require } : {}),
      ...(s.advisory.length > 0 ? { advisory: s.advisory } : {}),
      ...(s.min_pass_rate !== undefined ? { min_pass_rate: s.min_pass_rate } : {}),
      ...(s.wilson !== undefined ? { wilson: s.wilson } : {}),
    },
    ...(s.run_name !== undefined ? { run_name: s.run_name } : {}),
    package: { ...(where.package_dir ? { dir: where.package_dir } : {}), digest: where.package_digest, ...(where.package_identity ? { identity: where.package_identity } : {}) },
    speech: callerSpeech(s, s.voice, services.speech, speechCacheRoot(where)),
    ...(conversation ? { conversation } : {}),
  };
}

/** The settings a PLAN's target is built with: its Live endpoint and key, the backend, models, time; every run setting under `run`. */
function targetSettings(s: RunSettings, services: ResolvedServices, where: EngineWhere, credentials: Credentials): Partial<TargetSettings> {
  const { live, responses, client_service } = services;
  // A target may name its own client-delegation service (gptLiveTarget's client_service): the run's token is for it.
  const ownServiceToken = s.assistant === "client" && !client_service ? credentials[CLIENT_SERVICE_TOKEN_ENV]?.trim() : undefined;
  return {
    mode: live.kind === "remote" ? "live" : "offline",
    real_time: s.real_time,
    delegation: s.assistant,
    model: s.model,
    backend_model: s.backend_model,
    ...(live.kind === "remote" && live.endpoint ? { endpoint: live.endpoint } : {}),
    ...(live.kind === "remote" && live.key ? { api_key: live.key } : {}),
    ...(live.kind === "remote" && live.header === "api-key" ? { api_key_header: live.header } : {}),
    client_backend: responses.kind === "remote" ? "responses" : "policy",
    ...(responses.kind === "remote" && responses.endpoint ? { responses_base_url: responses.endpoint } : {}),
    ...(responses.kind === "remote" && responses.key ? { responses_api_key: responses.key } : {}),
    ...(responses.kind === "remote" && responses.header === "api-key" ? { responses_api_key_header: responses.header } : {}),
    ...(client_service ? { client_service: { endpoint: client_service.endpoint, token: client_service.token } } : ownServiceToken ? { client_service: { token: ownServiceToken } } : {}),
    credentials: {
      live: live.kind === "remote" ? live.credential : "none",
      responses: responses.kind === "remote" ? responses.credential : "none",
      ...(client_service ? { client_service: client_service.credential } : ownServiceToken ? { client_service: CLIENT_SERVICE_TOKEN_ENV } : {}),
    },
    // The local simulator keeps its voice beside the caller's speech cache (its speech is no result).
    ...(live.kind === "remote" ? {} : { simulator_speech_cache: speechCacheRoot(where) }),
    run: s,
  };
}

/** The semantic judge: on with --live (unless --no-judge) or with --judge; never invented offline. */
function judgeSettings(s: RunSettings, services: ResolvedServices): JudgeSettings | null {
  const judge = services.judge;
  if (!s.judge || !judge) return null;
  return {
    model: s.judge_model,
    ...(s.judge_reasoning_effort !== undefined ? { reasoning_effort: s.judge_reasoning_effort } : {}),
    repetitions: s.judge_repetitions,
    max_retries: s.judge_retries,
    timeout_ms: Math.round(s.judge_timeout_seconds * 1000),
    ...(judge.endpoint ? { endpoint: judge.endpoint } : {}),
    ...(judge.key ? { api_key: judge.key } : {}),
    ...(judge.header === "api-key" ? { api_key_header: "api-key" as const } : {}),
    credential: judge.credential,
  };
}

/**
 * Caller speech for audio targets: embedded espeak-ng, OpenAI(-compatible) speech at its own endpoint with
 * its own key, or a replay of cached OpenAI speech; cached under `root` in `.audio_cache/` (caller audio is
 * input, so caching it is right).
 */
function callerSpeech(s: RunSettings, voice: string, service: ResolvedServices["speech"], root: string): CachedSynthesizer {
  const inner =
    service.provider === "openai"
      ? new OpenAISpeechSynthesizer({
          apiKey: service.key ?? "",
          authHeader: service.header,
          credential: service.credential,
          ...(service.endpoint !== undefined ? { baseURL: service.endpoint } : {}),
          model: s.tts_model,
          voice,
        })
      : service.provider === "cache"
        ? new CacheOnlySynthesizer(OPENAI_SPEECH_PROVIDER, s.tts_model, voice)
        : new EspeakSynthesizer({ voice });
  return new CachedSynthesizer(inner, { root, refresh: s.refresh_audio && service.provider !== "cache" });
}

/**
 * How RUN conversations are held: the simulated caller (offline: deterministic, agenda-driven, speaking
 * with the run's caller speech in its persona's voice or --caller-voice; its speech cached like CRAWL's),
 * the maximum duration, who opens (--assistant-opening-prompt FILE: the assistant), and the caller-side
 * condition.
 */
function conversationSettings(s: RunSettings, services: ResolvedServices, where: EngineWhere, name: SettingName): ConversationSettings {
  const voices = new Map<string, CachedSynthesizer>();
  const root = speechCacheRoot(where);
  const synthesizer = (voice: string) => voices.get(voice) ?? voices.set(voice, callerSpeech(s, voice, services.speech, root)).get(voice)!;
  let prompt: string | undefined;
  if (s.assistant_opening_prompt !== undefined) {
    const file = resolve(where.cwd, s.assistant_opening_prompt);
    const label = name("assistant_opening_prompt");
    try {
      prompt = readInputFile(file, 64 * 1024).toString("utf8").replace(/^\uFEFF/, "").trim();
    } catch (error) {
      throw new SettingsError(`${label} ${(error as Error).message}; give a text file (at most 64 KiB) with what the assistant is asked to open the call with`);
    }
    if (!prompt) throw new SettingsError(`${label} ${file} is empty; write the instruction that asks the assistant to open the call`);
  }
  if (s.condition.length > 1) throw new SettingsError(`RUN applies one acoustic condition to the simulated caller's speech; give one ${name("condition")} (got ${s.condition.join(", ")})`);
  // A live caller is its own GPT-Live session (OpenAI's, or --caller-endpoint) with that endpoint's own
  // key; its completion observer asks a small model at its own Responses endpoint when the call is over
  // (none, or --no-semantic-drain: the rule decides).
  const { caller, completion } = services;
  return {
    caller: (persona) => {
      const voice = s.caller_voice ?? persona.voice;
      return caller.kind === "live"
        ? new LiveCaller({
            url: caller.endpoint ?? GPT_LIVE_URL,
            apiKey: caller.key ?? null,
            authHeader: caller.header,
            voice,
            ...DEFAULT_LIVE_CALLER,
            credential: caller.credential,
            completion: completion && s.semantic_drain ? { endpoint: completion.endpoint ?? OPENAI_API_BASE_URL, credential: completion.credential } : null,
          })
        : new OfflineCaller({ voice, synthesizer });
    },
    ...(caller.kind === "live" && completion && s.semantic_drain
      ? { observer: () => new CompletionObserver({ model: s.completion_model, apiKey: completion.key ?? "", authHeader: completion.header, ...(completion.endpoint !== undefined ? { baseURL: completion.endpoint } : {}) }) }
      : {}),
    ...(s.max_duration_seconds !== undefined ? { max_duration_ms: Math.round(s.max_duration_seconds * 1000) } : {}),
    ...(prompt ? { assistant_opening_prompt: prompt } : {}),
    ...(s.condition[0] ? { condition: { preset: s.condition[0] } } : {}),
  };
}

/** The judge's settings besides whether it runs: every setting --help lists under the judge. */
const judgeTuning = () => settingEntries().flatMap(([key, s]) => (s.section === "judge" && key !== "judge" ? [key] : []));

/**
 * The checks that read several settings at once, made once before anything runs: contradictions, values
 * the chosen engine cannot use, and settings given on the command line (or in code) that would do nothing
 * (a config file or a PLAN may hold defaults for runs they do not apply to). Every service is resolved
 * here too, so a bad endpoint or a missing key is refused now, not in a trial.
 */
export function checkSettings(resolution: Resolution, credentials: Credentials): void {
  const s = resolution.settings;
  const name = (key: string) => resolution.sources[key]?.label ?? displayName(key);
  const chosen = (key: string) => resolution.sources[key]?.kind === "flag" || resolution.sources[key]?.kind === "code";
  if (s.live && !credentials.OPENAI_API_KEY?.trim()) throw new SettingsError("--live needs OPENAI_API_KEY in the environment or the env file (without --live, runs use the local GPT-Live simulator)");
  const services = resolveServices(s, credentials, name);
  if (s.listen && s.concurrency > 1 && chosen("concurrency")) throw new SettingsError(`--listen plays one conversation at a time: it cannot be combined with ${name("concurrency")} above 1`);
  if (!s.real_time && s.concurrency > MAX_VIRTUAL_CONCURRENCY)
    throw new SettingsError(`${virtualConcurrencyRefusal(s.concurrency)}${resolution.sources.concurrency?.kind === "flag" ? "" : ` (concurrency: ${name("concurrency")})`}`);
  if (chosen("tts_model") && s.speech === "espeak") throw new SettingsError(`${name("tts_model")} applies to OpenAI caller speech (--live, --speech openai or --speech cache); caller speech here is espeak-ng`);
  if (s.speech !== "espeak" && !(OPENAI_SPEECH_VOICES as readonly string[]).includes(s.voice))
    throw new SettingsError(`${name("voice")} "${s.voice}" is not an OpenAI speech voice; with ${s.live && !chosen("speech") ? "--live" : `--speech ${s.speech}`} use one of ${OPENAI_SPEECH_VOICES.join(", ")}`);
  if (s.speech === "espeak") espeakVoice(name("voice"), s.voice);
  const live = liveCaller((key) => (s as unknown as Record<string, never>)[key]);
  if (chosen("completion_endpoint") && !live) throw new SettingsError(`${name("completion_endpoint")} applies to a live simulated caller (--live or --caller-endpoint); the offline caller's calls end by the completion rule`);
  if (chosen("completion_model") && !services.completion)
    throw new SettingsError(
      live
        ? `${name("completion_model")} needs a Responses endpoint to ask: --live (OpenAI's) or --completion-endpoint URL; without one the completion rule decides`
        : `${name("completion_model")} applies to a live simulated caller (--live or --caller-endpoint); offline, the completion rule decides and there is no model to ask`,
    );
  if (!live && chosen("semantic_drain")) throw new SettingsError(`${name("semantic_drain")} applies to a live simulated caller (--live or --caller-endpoint); offline runs always use the completion rule`);
  if (s.caller_voice !== undefined) {
    if (live && !GPT_LIVE_VOICES.includes(s.caller_voice)) throw new SettingsError(`${name("caller_voice")} "${s.caller_voice}" is not a GPT-Live voice; with a live caller use one of ${GPT_LIVE_VOICES.join(", ")}`);
    if (!live) espeakVoice(name("caller_voice"), s.caller_voice);
  }
  // An endpoint from the environment or a file is a default for client-delegation runs; one chosen for this run must apply to it.
  if (chosen("assistant_endpoint") && s.assistant !== "client")
    throw new SettingsError(`${name("assistant_endpoint")} is the service that answers client delegations: add --assistant client (this run uses ${s.assistant} delegation, where the Live service runs the backend)`);
  if (!s.judge && judgeTuning().some(chosen)) throw new SettingsError("judge settings were given but the judge is off: add --judge (offline runs do not call a judge unless asked)");
}

function espeakVoice(label: string, voice: string): void {
  try {
    resolveEspeakVoice(voice);
  } catch (error) {
    throw new SettingsError(`${label}: ${(error as Error).message}`);
  }
}
