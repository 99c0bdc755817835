/** `crashlab run`'s flags: parsing, their ranges, and resolving each setting (flag, then PLAN defaults, then built-ins). */

import { decimalNumber, oneOf, parseFlags, wholeNumber, type Range } from "./flags";
import { availableParallelism } from "node:os";
import { MAX_VIRTUAL_CONCURRENCY, virtualConcurrencyRefusal, type GateOverrides } from "../run/run";
import type { JudgeReasoningEffort, JudgeSettings } from "../judge/judge";
import { DEFAULT_MAX_TRIALS, MAX_TRIALS_CEILING, SETTING_RANGES, type RunDefaults } from "../run/plan";
import type { AudioSettings } from "../trial/context";
import { resolveEspeakVoice } from "../speech/espeak";
import { GPT_LIVE_VOICES } from "../live/protocol";
import { DEFAULT_OPENAI_SPEECH_MODEL, OPENAI_SPEECH_VOICES } from "../speech/openai-tts";
import { DEFAULT_CALLER_VOICE } from "../speech/synthesizer";
import type { TargetSettings } from "../target/settings";
import type { Limits } from "../record/trial-record";
import { UsageError } from "./usage-error";
import { ARTIFACT_POLICIES, DEFAULT_ARTIFACT_POLICY, type ArtifactPolicy } from "../report/artifacts";
import { checkEndpointUrl, credentialFor, keyHeader } from "./credentials";
import { isOpenAIVoice, resolveServices, type ResolvedServices, type ServicesDefaults, type SpeechProvider } from "./services";

export { UsageError } from "./usage-error";

/**
 * Built-in defaults: the last layer of "CLI, then PLAN defaults, then these". `concurrency` is the
 * real-time (and --listen) default; offline runs default to `offlineConcurrency()`.
 */
export const BUILTIN_DEFAULTS = { repetitions: 1, concurrency: 1, seed: 1, results_dir: "results", max_trials: DEFAULT_MAX_TRIALS } as const;

/**
 * Offline, in virtual time, a trial is pure CPU and trials run in worker threads: by default as many at
 * once as this machine has cores, up to the virtual-time ceiling. Real time keeps one at a time, so a
 * latency figure never depends on how many trials share the machine unless asked.
 */
export function offlineConcurrency(): number {
  return Math.min(availableParallelism(), MAX_VIRTUAL_CONCURRENCY);
}

export const RUN_OPTIONS = {
  package: { type: "string" },
  data: { type: "string", multiple: true },
  repetitions: { type: "string" },
  concurrency: { type: "string" },
  example: { type: "string", multiple: true },
  scenario: { type: "string", multiple: true },
  tag: { type: "string", multiple: true },
  "max-examples": { type: "string" },
  target: { type: "string" },
  seed: { type: "string" },
  "results-dir": { type: "string" },
  artifacts: { type: "string" },
  resume: { type: "string" },
  force: { type: "boolean" },
  "last-failed": { type: "boolean" },
  shard: { type: "string" },
  "run-name": { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean" },
  require: { type: "string", multiple: true },
  advisory: { type: "string", multiple: true },
  "min-pass-rate": { type: "string" },
  wilson: { type: "boolean" },
  "real-time": { type: "boolean" },
  "no-real-time": { type: "boolean" },
  "max-tool-calls": { type: "string" },
  "max-turns": { type: "string" },
  "max-provider-requests": { type: "string" },
  "trial-timeout-seconds": { type: "string" },
  "max-trials": { type: "string" },
  live: { type: "boolean" },
  assistant: { type: "string" },
  endpoint: { type: "string" },
  model: { type: "string" },
  "backend-model": { type: "string" },
  voice: { type: "string" },
  "tts-model": { type: "string" },
  "chunk-ms": { type: "string" },
  "response-timeout-seconds": { type: "string" },
  "refresh-audio": { type: "boolean" },
  condition: { type: "string", multiple: true },
  where: { type: "string", multiple: true },
  "speech-detector": { type: "string" },
  listen: { type: "boolean" },
  "log-audio-events": { type: "boolean" },
  judge: { type: "boolean" },
  "no-judge": { type: "boolean" },
  "judge-model": { type: "string" },
  "judge-reasoning-effort": { type: "string" },
  "judge-repetitions": { type: "string" },
  "judge-endpoint": { type: "string" },
  "judge-api-key-env": { type: "string" },
  "judge-timeout-seconds": { type: "string" },
  "judge-retries": { type: "string" },
  "endpoint-api-key-env": { type: "string" },
  "responses-endpoint": { type: "string" },
  "responses-api-key-env": { type: "string" },
  speech: { type: "string" },
  "speech-endpoint": { type: "string" },
  "speech-api-key-env": { type: "string" },
  "caller-endpoint": { type: "string" },
  "caller-api-key-env": { type: "string" },
  "completion-endpoint": { type: "string" },
  "completion-api-key-env": { type: "string" },
  azure: { type: "boolean" },
  "max-duration-seconds": { type: "string" },
  "assistant-opening-prompt": { type: "string" },
  "caller-voice": { type: "string" },
  "completion-model": { type: "string" },
  "no-semantic-drain": { type: "boolean" },
  "response-deadline-ms": { type: "string" },
  verbose: { type: "boolean" },
  visualize: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export type RawRunArgs = ReturnType<typeof parseRunArgs>;

export function parseRunArgs(argv: string[]) {
  return parseFlags(argv, RUN_OPTIONS).values;
}

/**
 * The accepted range of every numeric run flag (--help and the README state them). Time limits stay
 * below a day so they fit a timer; counts stay at sizes a run can hold in memory.
 */
export const RUN_FLAG_RANGES = {
  repetitions: SETTING_RANGES.repetitions,
  concurrency: SETTING_RANGES.concurrency,
  seed: SETTING_RANGES.seed,
  "max-examples": { min: 0, max: MAX_TRIALS_CEILING },
  "max-trials": SETTING_RANGES.max_trials,
  "min-pass-rate": SETTING_RANGES.min_pass_rate,
  "trial-timeout-seconds": { min: 0.001, max: SETTING_RANGES.time_ms.max / 1000 },
  "response-timeout-seconds": { min: 0.001, max: SETTING_RANGES.time_ms.max / 1000 },
  "max-tool-calls": SETTING_RANGES.tool_calls,
  "max-turns": SETTING_RANGES.turns,
  "max-provider-requests": SETTING_RANGES.provider_requests,
  "chunk-ms": { min: 10, max: 200 },
  "judge-repetitions": { min: 1, max: 15 },
  "judge-retries": { min: 0, max: 10 },
  "judge-timeout-seconds": { min: 0.001, max: 3600 },
  "max-duration-seconds": { min: 1, max: 3600 },
  "response-deadline-ms": { min: 0, max: 600_000 },
} as const satisfies Record<string, Range>;

type NumericFlag = keyof typeof RUN_FLAG_RANGES;

function int(name: NumericFlag, value: string | undefined): number | undefined {
  return value === undefined ? undefined : wholeNumber(`--${name}`, value, RUN_FLAG_RANGES[name]);
}

function decimal(name: NumericFlag, value: string | undefined): number | undefined {
  return value === undefined ? undefined : decimalNumber(`--${name}`, value, RUN_FLAG_RANGES[name]);
}

export interface ResolvedRunOptions {
  package?: string;
  repetitions: number;
  concurrency: number;
  seed: number;
  /** The trial-count ceiling: a run that would have more trials is refused before it starts. */
  max_trials: number;
  target?: string;
  results_dir: string;
  /** Which trials keep their audio (`--artifacts`). */
  artifacts: ArtifactPolicy;
  run_name?: string;
  json: boolean;
  quiet: boolean;
  ids: string[];
  tags: string[];
  conditions: string[];
  where: string[];
  speech_detector: "rms" | "webrtc";
  listen: boolean;
  log_audio_events: boolean;
  /** The semantic judge: on in live runs unless --no-judge, offline only with --judge. */
  judge: JudgeSettings | null;
  max_examples?: number;
  real_time: boolean;
  limits: Partial<Limits>;
  gates: GateOverrides;
  verbose: boolean;
  /** Open report.html in the user's browser when the run ends. */
  visualize: boolean;
  target_settings: Partial<TargetSettings>;
  audio: Partial<AudioSettings>;
  /** Caller speech: espeak-ng, OpenAI(-compatible) speech, or cached OpenAI speech; `voice` is the caller's voice. */
  speech: { provider: SpeechProvider; voice: string; tts_model: string; refresh: boolean };
  /** Every service's endpoint and credential (services.ts); keys are in here and nowhere in the records. */
  services: ResolvedServices;
  /** Response deadline (`--response-deadline-ms`), default 5000 ms (docs/audio-and-metrics.md). */
  response_deadline_ms?: number;
  /** RUN conversations: how long they may last, who opens, the caller's voice, how completion is decided live. */
  conversation: {
    max_duration_ms?: number;
    /** A file whose text asks the assistant to open the call (assistant-first); absent: the caller opens. */
    assistant_opening_prompt_file?: string;
    caller_voice?: string;
    /** Live only: the completion observer's model; `semantic_drain: false` falls back to the rule. */
    completion_model: string;
    semantic_drain: boolean;
  };
}

/** The live completion observer's default model: a small, quick one (it decides "over or not", nothing more). */
export const DEFAULT_COMPLETION_MODEL = "gpt-5.6-luna";

const CONDITIONS = ["clean", "noisy", "telephony", "background_speech", "echo", "packet_loss", "realistic"];

/** The one place that resolves a setting: CLI flag, then the PLAN's defaults, then built-in defaults. */
export function resolveOptions(cli: RawRunArgs, planDefaults: RunDefaults = {}, env: Record<string, string | undefined> = {}): ResolvedRunOptions {
  const apiKey = env.OPENAI_API_KEY?.trim() || undefined;
  if (cli.live && !apiKey) throw new UsageError("--live needs OPENAI_API_KEY in the environment (without --live, runs use the local GPT-Live simulator)");
  const services = resolveServices(cli, planDefaults.services, env);
  const speechProvider = services.speech.provider;
  const liveCaller = services.caller.kind === "live";
  if (cli["real-time"] && cli["no-real-time"]) throw new UsageError("--real-time and --no-real-time contradict each other; pass one");
  const min_pass_rate = decimal("min-pass-rate", cli["min-pass-rate"]);
  const timeout = decimal("trial-timeout-seconds", cli["trial-timeout-seconds"]);
  const limits: Partial<Limits> = {};
  const tc = int("max-tool-calls", cli["max-tool-calls"]);
  const mt = int("max-turns", cli["max-turns"]);
  const mp = int("max-provider-requests", cli["max-provider-requests"]);
  if (tc !== undefined) limits.tool_calls = tc;
  if (mt !== undefined) limits.turns = mt;
  if (mp !== undefined) limits.provider_requests = mp;
  if (timeout !== undefined) limits.time_ms = Math.round(timeout * 1000);
  const assistant = cli.assistant === undefined ? undefined : oneOf("--assistant", cli.assistant, ["responses", "client"] as const);
  const chunkMs = int("chunk-ms", cli["chunk-ms"]);
  if (chunkMs !== undefined && chunkMs % 10 !== 0) throw new UsageError(`--chunk-ms takes a multiple of 10 ms (got ${chunkMs})`);
  const responseTimeout = decimal("response-timeout-seconds", cli["response-timeout-seconds"]);
  const repetitions = int("repetitions", cli.repetitions);
  const concurrency = int("concurrency", cli.concurrency);
  const seed = int("seed", cli.seed);
  const maxExamples = int("max-examples", cli["max-examples"]);
  const maxTrials = int("max-trials", cli["max-trials"]);
  const live = cli.live ?? false;
  const speechDetector = oneOf("--speech-detector", cli["speech-detector"] ?? "rms", ["rms", "webrtc"] as const);
  const listen = cli.listen ?? false;
  if (listen && concurrency !== undefined && concurrency > 1)
    throw new UsageError("--listen plays one conversation at a time: it cannot be combined with --concurrency above 1");
  for (const c of cli.condition ?? []) oneOf("--condition", c, CONDITIONS);
  if (cli["tts-model"] !== undefined && speechProvider === "espeak") throw new UsageError("--tts-model applies to OpenAI caller speech (--live, --speech openai or --speech cache); caller speech here is espeak-ng");
  if (speechProvider !== "espeak" && cli.voice !== undefined && !isOpenAIVoice(cli.voice))
    throw new UsageError(`--voice "${cli.voice}" is not an OpenAI speech voice; with ${cli.speech === undefined && live ? "--live" : `--speech ${speechProvider}`} use one of ${OPENAI_SPEECH_VOICES.join(", ")}`);
  if (speechProvider === "espeak" && cli.voice !== undefined) {
    try {
      resolveEspeakVoice(cli.voice);
    } catch (error) {
      throw new UsageError(`--voice: ${(error as Error).message}`);
    }
  }
  const maxDuration = decimal("max-duration-seconds", cli["max-duration-seconds"]);
  const responseDeadline = int("response-deadline-ms", cli["response-deadline-ms"]);
  if (cli["completion-model"] !== undefined && !services.completion)
    throw new UsageError(
      liveCaller
        ? "--completion-model needs a Responses endpoint to ask: --live (OpenAI's) or --completion-endpoint URL; without one the completion rule decides"
        : "--completion-model applies to a live simulated caller (--live or --caller-endpoint); offline, the completion rule decides and there is no model to ask",
    );
  if (!liveCaller && cli["no-semantic-drain"]) throw new UsageError("--no-semantic-drain applies to a live simulated caller (--live or --caller-endpoint); offline runs always use the completion rule");
  const callerVoice = cli["caller-voice"];
  if (callerVoice !== undefined) {
    if (liveCaller && !GPT_LIVE_VOICES.includes(callerVoice))
      throw new UsageError(`--caller-voice "${callerVoice}" is not a GPT-Live voice; with a live caller use one of ${GPT_LIVE_VOICES.join(", ")}`);
    if (!liveCaller) {
      try {
        resolveEspeakVoice(callerVoice);
      } catch (error) {
        throw new UsageError(`--caller-voice: ${(error as Error).message}`);
      }
    }
  }
  const judge = resolveJudge(cli, live, env, planDefaults.services ?? {}, services.azure);
  // Keys are scoped per service (services.ts): OPENAI_API_KEY only to OpenAI's hosts, and only when the
  // run uses them; a custom endpoint gets exactly the key named for it, or none.
  const { live: liveTarget, responses } = services;
  // Runs against the local simulator default to virtual time (fast, reproducible); a remote Live
  // endpoint — the target's or the caller's — runs on the wall clock.
  const realTime = cli["real-time"] ?? (cli["no-real-time"] ? false : liveTarget.kind === "remote" || liveCaller);
  const runConcurrency = concurrency ?? planDefaults.concurrency ?? (realTime || listen ? BUILTIN_DEFAULTS.concurrency : offlineConcurrency());
  if (!realTime && runConcurrency > MAX_VIRTUAL_CONCURRENCY) throw new UsageError(virtualConcurrencyRefusal(runConcurrency));
  const target_settings: Partial<TargetSettings> = {
    mode: liveTarget.kind === "remote" ? "live" : "offline",
    real_time: realTime,
    ...(assistant ? { delegation: assistant } : {}),
    ...(liveTarget.kind === "remote" && liveTarget.endpoint ? { endpoint: liveTarget.endpoint } : {}),
    ...(cli.model ? { model: cli.model } : {}),
    ...(cli["backend-model"] ? { backend_model: cli["backend-model"] } : {}),
    ...(liveTarget.kind === "remote" && liveTarget.key ? { api_key: liveTarget.key } : {}),
    ...(liveTarget.kind === "remote" && liveTarget.header === "api-key" ? { api_key_header: liveTarget.header } : {}),
    client_backend: responses.kind === "remote" ? "responses" : "policy",
    ...(responses.kind === "remote" && responses.endpoint ? { responses_base_url: responses.endpoint } : {}),
    ...(responses.kind === "remote" && responses.key ? { responses_api_key: responses.key } : {}),
    ...(responses.kind === "remote" && responses.header === "api-key" ? { responses_api_key_header: responses.header } : {}),
    credentials: { live: liveTarget.kind === "remote" ? liveTarget.credential : "none", responses: responses.kind === "remote" ? responses.credential : "none" },
  };
  const audio: Partial<AudioSettings> = {
    ...(chunkMs !== undefined ? { chunk_ms: chunkMs } : {}),
    ...(responseTimeout !== undefined ? { response_timeout_ms: Math.round(responseTimeout * 1000) } : {}),
  };
  return {
    ...(cli.package !== undefined ? { package: cli.package } : {}),
    repetitions: repetitions ?? planDefaults.repetitions ?? BUILTIN_DEFAULTS.repetitions,
    concurrency: runConcurrency,
    seed: seed ?? planDefaults.seed ?? BUILTIN_DEFAULTS.seed,
    max_trials: maxTrials ?? planDefaults.max_trials ?? BUILTIN_DEFAULTS.max_trials,
    ...((cli.target ?? planDefaults.target) !== undefined ? { target: cli.target ?? planDefaults.target } : {}),
    results_dir: cli["results-dir"] ?? planDefaults.results_dir ?? BUILTIN_DEFAULTS.results_dir,
    artifacts: oneOf("--artifacts", cli.artifacts ?? DEFAULT_ARTIFACT_POLICY, ARTIFACT_POLICIES),
    ...(cli["run-name"] !== undefined ? { run_name: cli["run-name"] } : {}),
    json: cli.json ?? false,
    quiet: cli.quiet ?? false,
    ids: [...(cli.example ?? []), ...(cli.scenario ?? [])],
    tags: cli.tag ?? [],
    conditions: cli.condition ?? [],
    where: cli.where ?? [],
    speech_detector: speechDetector,
    listen,
    log_audio_events: cli["log-audio-events"] ?? false,
    judge,
    ...(maxExamples !== undefined ? { max_examples: maxExamples } : {}),
    real_time: realTime,
    verbose: cli.verbose ?? false,
    visualize: cli.visualize ?? false,
    target_settings,
    audio,
    services,
    speech: { provider: speechProvider, voice: cli.voice ?? DEFAULT_CALLER_VOICE, tts_model: cli["tts-model"] ?? DEFAULT_OPENAI_SPEECH_MODEL, refresh: cli["refresh-audio"] ?? false },
    ...(responseDeadline !== undefined ? { response_deadline_ms: responseDeadline } : {}),
    conversation: {
      ...(maxDuration !== undefined ? { max_duration_ms: Math.round(maxDuration * 1000) } : {}),
      ...(cli["assistant-opening-prompt"] !== undefined ? { assistant_opening_prompt_file: cli["assistant-opening-prompt"] } : {}),
      ...(callerVoice !== undefined ? { caller_voice: callerVoice } : {}),
      completion_model: cli["completion-model"] ?? DEFAULT_COMPLETION_MODEL,
      semantic_drain: !cli["no-semantic-drain"],
    },
    limits,
    gates: {
      ...(cli.require ? { require: cli.require } : {}),
      ...(cli.advisory ? { advisory: cli.advisory } : {}),
      ...(min_pass_rate !== undefined ? { min_pass_rate } : {}),
      ...(cli.wilson ? { wilson: true } : {}),
    },
  };
}

const EFFORTS: readonly JudgeReasoningEffort[] = ["none", "minimal", "low", "medium", "high", "xhigh"];

/** Judge settings from the flags: on with --live (unless --no-judge) or with --judge; never invented offline. */
function resolveJudge(cli: RawRunArgs, live: boolean, env: Record<string, string | undefined>, planned: ServicesDefaults, azure: boolean): JudgeSettings | null {
  if (cli.judge && cli["no-judge"]) throw new UsageError("--judge and --no-judge contradict each other; pass one");
  const on = cli["no-judge"] ? false : (cli.judge ?? live);
  const tuning = cli["judge-model"] ?? cli["judge-reasoning-effort"] ?? cli["judge-repetitions"] ?? cli["judge-endpoint"] ?? cli["judge-api-key-env"] ?? cli["judge-timeout-seconds"] ?? cli["judge-retries"];
  if (!on) {
    if (tuning !== undefined) throw new UsageError("judge settings were given but the judge is off: add --judge (offline runs do not call a judge unless asked)");
    return null;
  }
  const effort = cli["judge-reasoning-effort"] === undefined ? undefined : oneOf("--judge-reasoning-effort", cli["judge-reasoning-effort"], EFFORTS);
  const repetitions = int("judge-repetitions", cli["judge-repetitions"]);
  const retries = int("judge-retries", cli["judge-retries"]);
  const timeout = decimal("judge-timeout-seconds", cli["judge-timeout-seconds"]);
  // The endpoint and its key variable come together from the flags, else from the PLAN's defaults.services.judge.
  const fromFlags = cli["judge-endpoint"] !== undefined || cli["judge-api-key-env"] !== undefined;
  const endpoint = fromFlags ? cli["judge-endpoint"] : planned.judge?.endpoint;
  const keyEnv = fromFlags ? cli["judge-api-key-env"] : planned.judge?.api_key_env;
  const where = fromFlags ? "--judge-endpoint" : "PLAN defaults.services.judge.endpoint";
  const keyWhere = fromFlags ? "--judge-api-key-env" : "PLAN defaults.services.judge.api_key_env";
  if (endpoint !== undefined) checkEndpointUrl(where, endpoint, ["http", "https"], "http://127.0.0.1:8080/v1", keyWhere, azure || keyHeader(endpoint, false) === "api-key");
  if (keyEnv !== undefined && endpoint === undefined) throw new UsageError(`${keyWhere} names the key for a custom judge endpoint (${where}); without one the judge is OpenAI's, which takes OPENAI_API_KEY`);
  // OPENAI_API_KEY goes only to OpenAI's own hosts; any other judge endpoint gets the key named for it, or none.
  const credential = credentialFor({ ...(endpoint ? { url: endpoint } : {}), ...(keyEnv ? { namedEnv: keyEnv } : {}), flag: keyWhere, env, allowOpenAIKey: true });
  if (!credential.key && !endpoint) throw new UsageError("--judge needs OPENAI_API_KEY in the environment, or --judge-endpoint pointing at a Responses-compatible server");
  return {
    ...(cli["judge-model"] ? { model: cli["judge-model"] } : {}),
    ...(effort ? { reasoning_effort: effort as JudgeReasoningEffort } : {}),
    ...(repetitions !== undefined ? { repetitions } : {}),
    ...(retries !== undefined ? { max_retries: retries } : {}),
    ...(timeout !== undefined ? { timeout_ms: Math.round(timeout * 1000) } : {}),
    ...(endpoint ? { endpoint } : {}),
    ...(credential.key ? { api_key: credential.key } : {}),
    ...(keyHeader(endpoint, azure) === "api-key" ? { api_key_header: "api-key" as const } : {}),
    credential: credential.source,
  };
}
