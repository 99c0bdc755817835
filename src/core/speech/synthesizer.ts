/**
 * The one interface every caller-speech source sits behind (CRAWL: text → synthetic speech). Whatever the
 * engine produces internally, what leaves a synthesizer is the transport format of docs/audio-and-metrics.md: mono PCM16 at
 * 24,000 Hz, so nothing downstream ever converts rates or channels for caller speech.
 */

import { staticDefault } from "../settings/schema";

/** The rate caller audio travels at; the only rate a synthesizer returns. */
export const SPEECH_SAMPLE_RATE = 24_000;

/**
 * The voice a caller speaks with when none is named, whichever synthesizer speaks: the persona default of
 * the datasets (dataset/schema.ts, which imports nothing of ours, spells it again).
 */
export const DEFAULT_CALLER_VOICE = staticDefault("voice");

export interface SynthesizedSpeech {
  /** Mono PCM16 samples at `sampleRate`. */
  samples: Int16Array;
  sampleRate: typeof SPEECH_SAMPLE_RATE;
  /** Which engine, model and voice actually produced the samples (recorded with the trial's input). */
  provider: string;
  model: string;
  voice: string;
}

export interface SpeechService {
  endpoint: string;
  credential: string;
}

export interface SynthesizeOptions {
  signal?: AbortSignal;
}

export interface SpeechSynthesizer {
  readonly provider: string;
  readonly model: string;
  /** The voice as the engine knows it (for espeak-ng, the espeak voice the requested name mapped to). */
  readonly voice: string;
  /**
   * Speaking-style instructions that change the audio for the same voice (OpenAI `instructions`).
   * Absent when the engine has none; when present it is part of the cache key.
   */
  readonly instructions?: string;
  /** A remote engine's endpoint and where its key came from (`OPENAI_API_KEY`, `env:NAME`, `none`): recorded with the input, never the key. */
  readonly service?: SpeechService;
  synthesize(text: string, opts?: SynthesizeOptions): Promise<SynthesizedSpeech>;
}

export type SpeechErrorCode =
  | "empty_text"
  | "text_too_long"
  | "unknown_voice"
  | "no_speech"
  | "missing_api_key"
  | "unauthorized"
  | "rate_limited"
  | "request_rejected"
  | "provider_error"
  | "network"
  | "timeout"
  | "bad_audio"
  | "engine_failed"
  | "cache_unusable"
  | "not_cached";

/** Caller speech could not be produced; the message names the provider and says what to change. */
export class SpeechError extends Error {
  override readonly name = "SpeechError";
  constructor(
    readonly code: SpeechErrorCode,
    readonly provider: string,
    message: string,
    /** HTTP status when a remote provider answered with an error. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${provider} speech: ${message}`, options);
  }
}

/** Rejects text that cannot become caller speech, before any engine is loaded or request is sent. */
export function requireSpeakableText(text: string, provider: string, maxLength: number): void {
  if (typeof text !== "string" || text.trim() === "") {
    throw new SpeechError("empty_text", provider, "caller text is empty; give the scenario an input.text with words to say");
  }
  if (text.length > maxLength) {
    throw new SpeechError(
      "text_too_long",
      provider,
      `caller text is ${text.length} characters, more than the ${maxLength} this synthesizer takes; split the turn into shorter utterances`,
    );
  }
}
