/**
 * Offline caller speech from espeak-ng compiled to WebAssembly (no network, no system binary), so the
 * bundled package runs without an API key. espeak-ng is GPL-3.0: this is the only file that imports
 * it, and it is loaded lazily, only when offline speech is actually used.
 *
 * Determinism, which the engine does not give by itself: it seeds its random generator (used by the
 * breathy voice variants) from the wall clock when it starts, and it carries state from one utterance
 * into the next (the same text spoken twice in a row differs sample by sample). So the engine starts
 * under a fixed clock, and every synthesis first restores the module's memory to the snapshot taken
 * right after start-up. Same text and voice → the same samples, in any order, in any process.
 *
 * (This build is espeak-ng compiled by Emscripten with wasm2js: plain JavaScript, no .wasm file.)
 */
import type { EspeakModule, EspeakWorker } from "@echogarden/espeak-ng-emscripten";
import { concatPcm } from "../audio/pcm";
import { resamplePcm16 } from "../audio/resample";
import { speechIntervals } from "../audio/speech";
import {
  DEFAULT_CALLER_VOICE,
  SPEECH_SAMPLE_RATE,
  SpeechError,
  requireSpeakableText,
  type SpeechSynthesizer,
  type SynthesizedSpeech,
  type SynthesizeOptions,
} from "./synthesizer";

export const ESPEAK_PROVIDER = "espeak-ng";
/**
 * The pinned engine build (a test checks it against the installed package). A new build may sound
 * different, so it is a different model and a different cache key.
 */
export const ESPEAK_MODEL = "espeak-ng-emscripten@0.3.5";
/** The caller's default voice, as the OpenAI synthesizer's: both synthesizers default alike. */
export const DEFAULT_ESPEAK_REQUESTED_VOICE = DEFAULT_CALLER_VOICE;
/** Longest caller text accepted, in UTF-16 units; the same limit as OpenAI speech. */
export const ESPEAK_MAX_TEXT_LENGTH = 4096;

/**
 * OpenAI voice names (what personas name) → an English espeak voice of similar character, so a
 * scenario written for live speech runs offline unchanged and each persona keeps a distinct voice.
 */
export const ESPEAK_VOICE_FOR_OPENAI_VOICE: Readonly<Record<string, string>> = {
  alloy: "en-us",
  ash: "en-us+m3",
  ballad: "en-gb-x-rp+m2",
  cedar: "en-us+m2",
  coral: "en-us+f3",
  echo: "en-us+m1",
  fable: "en-gb-x-rp",
  marin: "en-us+f2",
  nova: "en-us+f4",
  onyx: "en-us+m7",
  sage: "en-us+f1",
  shimmer: "en-us+f5",
  verse: "en-us+m4",
};

/** espeak looks voices up by file name; "en-gb" has none, its Received Pronunciation voice is the usual meaning. */
const ESPEAK_ALIASES: Readonly<Record<string, string>> = { "en-gb": "en-gb-x-rp" };
const VOICE_NAME = /^[a-z0-9_/-]+(\+[a-z0-9_-]+)?$/i;
const VARIANTS_DIR = "/usr/share/espeak-ng-data/voices/!v";

/**
 * The espeak voice a requested name means: an OpenAI voice name maps through the table above, anything
 * else is taken as an espeak voice ("en-us", "en-gb", "en-us+f2"). Pure, so a voice is known (and part of
 * the cache key) before the engine loads; whether espeak has it is checked at synthesis.
 */
export function resolveEspeakVoice(requested: string): string {
  const name = requested.trim().toLowerCase();
  const mapped = ESPEAK_VOICE_FOR_OPENAI_VOICE[name];
  if (mapped) return mapped;
  if (!VOICE_NAME.test(name)) throw unknownVoice(requested);
  const [base, variant] = name.split("+") as [string, string | undefined];
  const voice = ESPEAK_ALIASES[base] ?? base;
  return variant ? `${voice}+${variant}` : voice;
}

function unknownVoice(requested: string, detail = "espeak-ng has no such voice"): SpeechError {
  return new SpeechError(
    "unknown_voice",
    ESPEAK_PROVIDER,
    `voice "${requested}": ${detail}; use an OpenAI voice name (${Object.keys(ESPEAK_VOICE_FOR_OPENAI_VOICE).join(", ")}) ` +
      `or an espeak voice such as "en-us", "en-gb" or "en-us+f2"`,
  );
}

/**
 * Whether espeak-ng can speak with `requested` (an OpenAI voice name or an espeak voice), asked before
 * a run starts so an unknown voice is a usage error rather than a failure of every trial. OpenAI names
 * are known without starting the engine; anything else starts it (once per process) and asks it.
 */
export async function checkEspeakVoice(requested: string): Promise<void> {
  const voice = resolveEspeakVoice(requested);
  if (ESPEAK_VOICE_FOR_OPENAI_VOICE[requested.trim().toLowerCase()]) return;
  (await loadEngine()).check(voice, requested);
}

/**
 * Start the engine now (once per process) rather than at the first synthesis: starting takes a few
 * hundred milliseconds of CPU, which in a real-time run must not land inside a trial that paces audio.
 */
export async function startEspeak(): Promise<void> {
  await loadEngine();
}

export interface EspeakSynthesizerOptions {
  /** An OpenAI voice name (mapped, see ESPEAK_VOICE_FOR_OPENAI_VOICE) or an espeak voice; default "coral". */
  voice?: string;
}

export class EspeakSynthesizer implements SpeechSynthesizer {
  readonly provider = ESPEAK_PROVIDER;
  readonly model = ESPEAK_MODEL;
  /** The espeak voice used, e.g. "en-us+f3" for "coral". */
  readonly voice: string;
  /** The name asked for, before mapping. */
  readonly requestedVoice: string;

  constructor(options: EspeakSynthesizerOptions = {}) {
    this.requestedVoice = options.voice ?? DEFAULT_ESPEAK_REQUESTED_VOICE;
    this.voice = resolveEspeakVoice(this.requestedVoice);
  }

  async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<SynthesizedSpeech> {
    requireSpeakableText(text, ESPEAK_PROVIDER, ESPEAK_MAX_TEXT_LENGTH);
    opts.signal?.throwIfAborted();
    const engine = await loadEngine();
    opts.signal?.throwIfAborted();
    const native = engine.render(text, this.voice, this.requestedVoice);
    const samples = resamplePcm16(native, engine.sampleRate, SPEECH_SAMPLE_RATE);
    if (speechIntervals(samples, SPEECH_SAMPLE_RATE).length === 0) {
      throw new SpeechError(
        "no_speech",
        ESPEAK_PROVIDER,
        `"${text.slice(0, 80)}" produced no audible speech (no 20 ms frame reaches RMS 220); the caller text needs words, not only punctuation or symbols`,
      );
    }
    return { samples, sampleRate: SPEECH_SAMPLE_RATE, provider: this.provider, model: this.model, voice: this.voice };
  }
}

interface EspeakEngine {
  /** espeak's native rate (22,050 Hz for this build). */
  sampleRate: number;
  /** Synchronous from start to end, so calls can never interleave: the module is not re-entrant. */
  render(text: string, voice: string, requestedVoice: string): Int16Array;
  /** Throws the unknown_voice SpeechError when the engine has no such voice or variant. */
  check(voice: string, requestedVoice: string): void;
}

let engine: Promise<EspeakEngine> | undefined;

/** One engine per process, started on first use; a failed start is forgotten so the next call retries. */
function loadEngine(): Promise<EspeakEngine> {
  engine ??= startEngine().catch((error: unknown) => {
    engine = undefined;
    throw new SpeechError("engine_failed", ESPEAK_PROVIDER, `the embedded espeak-ng engine failed to start: ${String(error)}`, undefined, {
      cause: error,
    });
  });
  return engine;
}

/**
 * Longest escaped UTF-8 text (plus its terminator) the engine is handed: 4096 UTF-16 units become at
 * most 5 bytes each ("&" → "&amp;"; no character takes more than 3 bytes per unit).
 */
const TEXT_BUFFER_BYTES = ESPEAK_MAX_TEXT_LENGTH * 5 + 64;

async function startEngine(): Promise<EspeakEngine> {
  const { default: createEspeakModule } = await import("@echogarden/espeak-ng-emscripten");
  const module = await createEspeakModule();
  const worker = withFixedClock(() => new module.eSpeakNGWorker()); // seeds its generator from time()
  const sampleRate = worker.get_samplerate();
  const variants = new Set(module.FS.readdir(VARIANTS_DIR).filter((name) => !name.startsWith(".")).map((name) => name.toLowerCase()));

  // The bindings copy string arguments into one scratch buffer they malloc and grow on demand, and
  // keep its address on the JavaScript side. Grow it to its final size now (an unknown voice name of
  // that length is simply refused), so no later call mallocs or frees behind a memory restore.
  worker.set_voice("x".repeat(TEXT_BUFFER_BYTES));
  if (worker.set_voice("en-us") !== 0) throw new Error('the bundled voice data has no "en-us" voice');
  const pristine = module.HEAPU8.slice();

  const check = (voice: string, requestedVoice: string) => {
    const [, variant] = voice.split("+");
    if (variant && !variants.has(variant)) throw unknownVoice(requestedVoice, `espeak-ng has no voice variant "+${variant}"`);
    restore(module, pristine);
    if (withFixedClock(() => worker.set_voice(voice)) !== 0) throw unknownVoice(requestedVoice);
  };
  return {
    sampleRate,
    check,
    render(text, voice, requestedVoice) {
      const [, variant] = voice.split("+");
      if (variant && !variants.has(variant)) throw unknownVoice(requestedVoice, `espeak-ng has no voice variant "+${variant}"`);
      const markup = escapeMarkup(text);
      if (Buffer.byteLength(markup, "utf8") + 1 > TEXT_BUFFER_BYTES) {
        throw new SpeechError("text_too_long", ESPEAK_PROVIDER, `caller text is too long once encoded; split the turn into shorter utterances`);
      }
      restore(module, pristine);
      if (withFixedClock(() => worker.set_voice(voice)) !== 0) throw unknownVoice(requestedVoice);
      try {
        return concatPcm(withFixedClock(() => collect(worker, markup)));
      } catch (error) {
        engine = undefined; // a trap inside the engine leaves it unusable: start afresh next time
        throw new SpeechError("engine_failed", ESPEAK_PROVIDER, `espeak-ng failed while speaking: ${String(error)}`, undefined, { cause: error });
      }
    },
  };
}

/** What the engine reads as the current time (the Unix epoch). */
const ENGINE_CLOCK_MS = 0;

/**
 * Runs synchronous engine code with Date.now fixed, so the wall clock never reaches the audio. The
 * engine reads time through Date.now; because `run` is synchronous, no other code can run (and see the
 * fixed clock) before it is put back.
 */
function withFixedClock<T>(run: () => T): T {
  const now = Date.now;
  Date.now = () => ENGINE_CLOCK_MS;
  try {
    return run();
  } finally {
    Date.now = now;
  }
}

/** Back to the state right after start-up (memory that grew since then is above the restored heap and unused). */
function restore(module: EspeakModule, pristine: Uint8Array): void {
  module.HEAPU8.set(pristine);
}

function collect(worker: EspeakWorker, markup: string): Int16Array[] {
  const chunks: Int16Array[] = [];
  worker.synthesize(markup, (samples) => {
    if (samples && samples.length > 0) chunks.push(samples);
    return false; // true would stop synthesis
  });
  return chunks;
}

/** This build reads its input as SSML: escape it so caller text is spoken as written, never as markup. */
function escapeMarkup(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

