/**
 * Live caller speech from OpenAI's speech endpoint (POST /v1/audio/speech). `response_format: "pcm"`
 * returns raw 24 kHz mono PCM16 little-endian, which is already the transport format: no decoding,
 * no resampling.
 */
import { staticDefault } from "../settings/schema";
import OpenAI from "openai";
import { pcm16FromBytes } from "../audio/pcm";
import { urlForDisplay } from "../services/redact";
import { serviceClientOptions, splitServiceUrl, type AuthHeader } from "../services/auth";
import {
  DEFAULT_CALLER_VOICE,
  SPEECH_SAMPLE_RATE,
  SpeechError,
  requireSpeakableText,
  type SpeechService,
  type SpeechSynthesizer,
  type SynthesizedSpeech,
  type SynthesizeOptions,
} from "./synthesizer";

export const OPENAI_SPEECH_PROVIDER = "openai";
export const DEFAULT_OPENAI_SPEECH_MODEL = staticDefault("tts_model");
/** The caller's default voice. */
export const DEFAULT_OPENAI_SPEECH_VOICE = DEFAULT_CALLER_VOICE;
/** Spelled out rather than left to the SDK, which would otherwise read OPENAI_BASE_URL behind our back. */
export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";
/**
 * The built-in voices the speech endpoint documents (custom voices are objects with an id, which this
 * client does not send); `crashlab run --live --voice` accepts exactly these.
 */
export const OPENAI_SPEECH_VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "onyx", "nova", "sage", "shimmer", "verse", "marin", "cedar"] as const;
/** The endpoint's documented input limit, in characters. */
export const OPENAI_SPEECH_MAX_TEXT_LENGTH = 4096;

export interface OpenAISpeechOptions {
  /** The speech endpoint's own key; may be empty only for a custom `baseURL` (which then gets no credential). */
  apiKey: string;
  /** The header the key travels in: `Authorization: Bearer` (default) or Azure's `api-key`. */
  authHeader?: AuthHeader;
  /** The API base the client appends `/audio/speech` to; Azure's deployment form may carry `?api-version=…`. */
  baseURL?: string;
  model?: string;
  voice?: string;
  /** Where the key came from (`OPENAI_API_KEY`, `env:NAME`, `none`), recorded with each input; default `none`. */
  credential?: string;
  /** Speaking style (accent, pace, emotion); not supported by tts-1 models. */
  instructions?: string;
  /** Retries of 408/409/429/5xx and connection failures, with the SDK's backoff; default 2. */
  maxRetries?: number;
  /** Per-request timeout; default 60 s (speech for one turn takes seconds, not the SDK's 10 minutes). */
  timeoutMs?: number;
}

export class OpenAISpeechSynthesizer implements SpeechSynthesizer {
  readonly provider = OPENAI_SPEECH_PROVIDER;
  readonly model: string;
  readonly voice: string;
  readonly instructions?: string;
  /** Where requests go (recorded so a run says which endpoint spoke for the caller). */
  readonly baseURL: string;
  readonly service: SpeechService;
  readonly #client: OpenAI;

  constructor(options: OpenAISpeechOptions) {
    if (!options.apiKey && options.baseURL === undefined) {
      throw new SpeechError("missing_api_key", OPENAI_SPEECH_PROVIDER, "no API key; set OPENAI_API_KEY or run offline (espeak-ng caller speech)");
    }
    this.model = options.model ?? DEFAULT_OPENAI_SPEECH_MODEL;
    this.voice = options.voice ?? DEFAULT_OPENAI_SPEECH_VOICE;
    if (options.instructions !== undefined) this.instructions = options.instructions;
    // Recorded and shown in messages without its query string.
    this.baseURL = splitServiceUrl(options.baseURL ?? DEFAULT_OPENAI_BASE_URL).base;
    this.service = { endpoint: this.baseURL, credential: options.credential ?? (options.apiKey ? "given" : "none") };
    this.#client = new OpenAI(
      serviceClientOptions({
        url: options.baseURL ?? DEFAULT_OPENAI_BASE_URL,
        auth: options.apiKey ? { key: options.apiKey, header: options.authHeader ?? "authorization" } : null,
        maxRetries: options.maxRetries ?? 2,
        timeoutMs: options.timeoutMs ?? 60_000,
      }),
    );
  }

  async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<SynthesizedSpeech> {
    requireSpeakableText(text, OPENAI_SPEECH_PROVIDER, OPENAI_SPEECH_MAX_TEXT_LENGTH);
    opts.signal?.throwIfAborted();
    let bytes: Uint8Array;
    let contentType: string;
    try {
      const response = await this.#client.audio.speech.create(
        {
          model: this.model,
          voice: this.voice,
          input: text,
          response_format: "pcm",
          ...(this.instructions !== undefined ? { instructions: this.instructions } : {}),
        },
        opts.signal ? { signal: opts.signal } : undefined,
      );
      contentType = response.headers.get("content-type") ?? "";
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      opts.signal?.throwIfAborted(); // a caller's abort surfaces as the caller's own reason
      throw this.#describe(error);
    }
    if (/json|text\//i.test(contentType)) {
      throw this.#badAudio(`answered with ${contentType} instead of PCM audio: ${new TextDecoder().decode(bytes.subarray(0, 200))}`);
    }
    if (bytes.byteLength === 0) throw this.#badAudio("returned no audio");
    if (bytes.byteLength % 2 !== 0) throw this.#badAudio(`returned ${bytes.byteLength} bytes, not whole PCM16 samples (the response was cut off)`);
    return { samples: pcm16FromBytes(bytes), sampleRate: SPEECH_SAMPLE_RATE, provider: this.provider, model: this.model, voice: this.voice };
  }

  #badAudio(detail: string): SpeechError {
    return new SpeechError("bad_audio", OPENAI_SPEECH_PROVIDER, `${urlForDisplay(`${this.baseURL}/audio/speech`)} ${detail}`);
  }

  /** SDK errors → SpeechError saying what to fix; the API key never appears in a message. */
  #describe(error: unknown): SpeechError {
    const at = urlForDisplay(`${this.baseURL}/audio/speech`);
    const cause = { cause: error };
    if (error instanceof OpenAI.APIConnectionTimeoutError) {
      return new SpeechError("timeout", OPENAI_SPEECH_PROVIDER, `${at} did not answer in time; retry, or raise the speech timeout`, undefined, cause);
    }
    if (error instanceof OpenAI.APIConnectionError) {
      return new SpeechError("network", OPENAI_SPEECH_PROVIDER, `cannot reach ${at} (${error.message}); check the network and the base URL`, undefined, cause);
    }
    if (!(error instanceof OpenAI.APIError) || error.status === undefined) {
      return new SpeechError("provider_error", OPENAI_SPEECH_PROVIDER, `request to ${at} failed: ${String(error)}`, undefined, cause);
    }
    const status = error.status;
    const said = serverMessage(error);
    const request = error.requestID ? ` (request ${error.requestID})` : "";
    if (status === 401 || status === 403) {
      return new SpeechError(
        "unauthorized",
        OPENAI_SPEECH_PROVIDER,
        `${at} refused the API key with HTTP ${status}: ${said}${request}; check the key named for this endpoint (OPENAI_API_KEY for OpenAI's own) and that it may use ${this.model}`,
        status,
        cause,
      );
    }
    if (status === 429) {
      return new SpeechError("rate_limited", OPENAI_SPEECH_PROVIDER, `${at} rate-limited the request (HTTP 429): ${said}${request}; lower concurrency or retry later`, status, cause);
    }
    if (status >= 500) {
      return new SpeechError("provider_error", OPENAI_SPEECH_PROVIDER, `${at} failed with HTTP ${status}: ${said}${request}; retry later`, status, cause);
    }
    return new SpeechError(
      "request_rejected",
      OPENAI_SPEECH_PROVIDER,
      `${at} rejected model "${this.model}" / voice "${this.voice}" with HTTP ${status}: ${said}${request}; check the persona voice and the speech model`,
      status,
      cause,
    );
  }
}

/** The server's own explanation when its error body has one, else the SDK's summary. */
function serverMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === "string" && body.message) return body.message;
  return error.message;
}
