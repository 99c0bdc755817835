/** A run's resolved options turned into engine options, caller speech and conversation settings, alike in every thread. */

import { resolve } from "node:path";
import { CachedSynthesizer, CacheOnlySynthesizer, EspeakSynthesizer, OPENAI_SPEECH_PROVIDER, OpenAISpeechSynthesizer } from "../speech/index";
import type { RunOptions } from "../run/run";
import { DEFAULT_LIVE_CALLER, LiveCaller } from "../caller/live-caller";
import { OfflineCaller } from "../caller/offline-caller";
import { GPT_LIVE_URL } from "../gpt-live-target/adapter";
import { OPENAI_API_BASE_URL } from "../services/auth";
import { CompletionObserver } from "../trial/conversation/completion-observer";
import type { ConversationSettings } from "../trial/context";
import { readInputFile } from "../dataset/input-file";
import { UsageError, type ResolvedRunOptions } from "./options";
import type { EngineSetup } from "../runner/request";

/**
 * How a `crashlab run` turns its resolved options into the engine's run options, caller speech and
 * conversation settings. The main thread and every trial worker build them here, from the same options,
 * so a trial runs alike wherever it runs.
 */

/** The engine's options for this run (selection, target settings, limits, gates), from the CLI's. */
export function runOptionsOf(options: ResolvedRunOptions, packageDir: string) {
  return {
    ...(options.target ? { target: options.target } : {}),
    // The local simulator keeps its voice beside the caller's speech cache (its speech is no result).
    target_settings: options.target_settings.mode === "live" ? options.target_settings : { ...options.target_settings, simulator_speech_cache: resolve(packageDir, "..") },
    audio: options.audio,
    repetitions: options.repetitions,
    concurrency: options.concurrency,
    seed: options.seed,
    max_trials: options.max_trials,
    selection: {
      ids: options.ids,
      tags: options.tags,
      conditions: options.conditions,
      where: options.where,
      ...(options.max_examples !== undefined ? { max_examples: options.max_examples } : {}),
    },
    speech_detector: options.speech_detector,
    ...(options.log_audio_events ? { log_audio_events: true } : {}),
    ...(options.response_deadline_ms !== undefined ? { response_deadline_ms: options.response_deadline_ms } : {}),
    judge: options.judge,
    real_time: options.real_time,
    limits: options.limits,
    gates: options.gates,
    ...(options.run_name ? { run_name: options.run_name } : {}),
  } satisfies RunOptions;
}

/**
 * Caller speech for audio targets: embedded espeak-ng, OpenAI(-compatible) speech at its own endpoint with
 * its own key, or a replay of cached OpenAI speech; cached under the package's parent folder in
 * `.audio_cache/` (caller audio is input, so caching it is right).
 */
export function callerSpeech(settings: ResolvedRunOptions["speech"], service: ResolvedRunOptions["services"]["speech"], packageDir: string): CachedSynthesizer {
  const inner =
    service.provider === "openai"
      ? new OpenAISpeechSynthesizer({
          apiKey: service.key ?? "",
          authHeader: service.header,
          credential: service.credential,
          ...(service.endpoint !== undefined ? { baseURL: service.endpoint } : {}),
          model: settings.tts_model,
          voice: settings.voice,
        })
      : service.provider === "cache"
        ? new CacheOnlySynthesizer(OPENAI_SPEECH_PROVIDER, settings.tts_model, settings.voice)
        : new EspeakSynthesizer({ voice: settings.voice });
  return new CachedSynthesizer(inner, { root: resolve(packageDir, ".."), refresh: settings.refresh && service.provider !== "cache" });
}

/**
 * How RUN conversations are held: the simulated caller (offline: deterministic, agenda-driven, speaking
 * with espeak-ng in its persona's voice or --caller-voice; its speech cached like CRAWL's), the maximum
 * duration, who opens (--assistant-opening-prompt FILE: the assistant), and the caller-side condition.
 */
export function conversationSettings(options: ResolvedRunOptions, packageDir: string, cwd: string): ConversationSettings {
  const { conversation } = options;
  const voices = new Map<string, CachedSynthesizer>();
  // The offline caller speaks with the run's caller-speech provider (espeak-ng unless --speech says otherwise).
  const synthesizer = (voice: string) => voices.get(voice) ?? voices.set(voice, callerSpeech({ ...options.speech, voice }, options.services.speech, packageDir)).get(voice)!;
  let prompt: string | undefined;
  if (conversation.assistant_opening_prompt_file !== undefined) {
    const file = resolve(cwd, conversation.assistant_opening_prompt_file);
    try {
      prompt = readInputFile(file, 64 * 1024).toString("utf8").replace(/^\uFEFF/, "").trim();
    } catch (error) {
      throw new UsageError(`--assistant-opening-prompt ${(error as Error).message}; give a text file (at most 64 KiB) with what the assistant is asked to open the call with`);
    }
    if (!prompt) throw new UsageError(`--assistant-opening-prompt ${file} is empty; write the instruction that asks the assistant to open the call`);
  }
  if (options.conditions.length > 1) throw new UsageError(`RUN applies one acoustic condition to the simulated caller's speech; give one --condition (got ${options.conditions.join(", ")})`);
  // A live caller is its own GPT-Live session (OpenAI's, or --caller-endpoint) with that endpoint's own
  // key; its completion observer asks a small model at its own Responses endpoint when the call is over
  // (none, or --no-semantic-drain: the rule decides).
  const { caller, completion } = options.services;
  return {
    caller: (persona) => {
      const voice = conversation.caller_voice ?? persona.voice;
      return caller.kind === "live"
        ? new LiveCaller({
            url: caller.endpoint ?? GPT_LIVE_URL,
            apiKey: caller.key ?? null,
            authHeader: caller.header,
            voice,
            ...DEFAULT_LIVE_CALLER,
            credential: caller.credential,
            completion: completion && conversation.semantic_drain ? { endpoint: completion.endpoint ?? OPENAI_API_BASE_URL, credential: completion.credential } : null,
          })
        : new OfflineCaller({ voice, synthesizer });
    },
    ...(caller.kind === "live" && completion && conversation.semantic_drain
      ? {
          observer: () =>
            new CompletionObserver({ model: conversation.completion_model, apiKey: completion.key ?? "", authHeader: completion.header, ...(completion.endpoint !== undefined ? { baseURL: completion.endpoint } : {}) }),
        }
      : {}),
    ...(conversation.max_duration_ms !== undefined ? { max_duration_ms: conversation.max_duration_ms } : {}),
    ...(prompt ? { assistant_opening_prompt: prompt } : {}),
    ...(options.conditions[0] ? { condition: { preset: options.conditions[0] } } : {}),
  };
}

/**
 * The engine's options for a `crashlab run`, from its resolved settings: the same function in the main
 * thread and in every trial worker, so a trial runs alike wherever it runs.
 */
export const engineSetup: EngineSetup = (settings, where, onLine) => {
  const options = settings as ResolvedRunOptions;
  const conversation = where.conversations ? { ...conversationSettings(options, where.package_dir, where.cwd), ...(onLine ? { onLine } : {}) } : undefined;
  return {
    ...runOptionsOf(options, where.package_dir),
    package: { dir: where.package_dir, digest: where.package_digest, ...(where.package_identity ? { identity: where.package_identity } : {}) },
    speech: callerSpeech(options.speech, options.services.speech, where.package_dir),
    ...(conversation ? { conversation } : {}),
  };
};
