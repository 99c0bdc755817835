/**
 * An in-memory cache in front of a deterministic synthesizer: the same text in the same voice is
 * synthesized once per process and then copied out. The local GPT-Live simulator speaks through one: its
 * voice (espeak-ng) is a fixed function of text, voice and engine build, and the simulator is the stand-in
 * the harness talks to, not a target under evaluation, so replaying its speech changes no measurement —
 * it only keeps a reply's synthesis (tens of milliseconds of CPU) off the thread that paces every
 * session's audio. Never put a target's or a judge's live responses behind it.
 */
import { CachedSynthesizer } from "./cache";
import { EspeakSynthesizer } from "./espeak";
import type { SpeechSynthesizer, SynthesizedSpeech, SynthesizeOptions } from "./synthesizer";

/**
 * Default bound: 4 M samples (8 MB of PCM16), about 3 minutes of speech at 24 kHz. Small on purpose: many
 * replies are said once (each booking has its own reservation number), and a larger bound only fills up
 * with them, so a long run's memory grew with its trial count (64 MB here once took a 1,120-trial run 25%
 * above a 140-trial one). The replies heard again and again stay, being the most recently used.
 */
export const DEFAULT_MEMO_SAMPLES = 4 * 1024 * 1024;

export class MemoSynthesizer implements SpeechSynthesizer {
  /** Entries in least-recently-used order (a Map iterates in insertion order; a hit re-inserts). */
  readonly #entries = new Map<string, Promise<SynthesizedSpeech>>();
  readonly #sizes = new Map<string, number>();
  #samples = 0;
  readonly stats = { hits: 0, misses: 0 };

  constructor(
    readonly inner: Pick<SpeechSynthesizer, "synthesize" | "provider" | "model" | "voice">,
    readonly maxSamples = DEFAULT_MEMO_SAMPLES,
  ) {}

  get provider(): string {
    return this.inner.provider;
  }
  get model(): string {
    return this.inner.model;
  }
  get voice(): string {
    return this.inner.voice;
  }

  async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<SynthesizedSpeech> {
    opts.signal?.throwIfAborted();
    let entry = this.#entries.get(text);
    if (entry) {
      this.stats.hits++;
      this.#entries.delete(text);
      this.#entries.set(text, entry);
    } else {
      this.stats.misses++;
      // The synthesis is shared, so it is not aborted by one caller's signal; a failure is not kept.
      entry = this.inner.synthesize(text);
      this.#entries.set(text, entry);
      entry.then(
        (speech) => this.#admit(text, entry!, speech.samples.length),
        () => {
          if (this.#entries.get(text) === entry) this.#entries.delete(text);
        },
      );
    }
    const speech = await entry;
    opts.signal?.throwIfAborted();
    return { ...speech, samples: speech.samples.slice() };
  }

  #admit(text: string, entry: Promise<SynthesizedSpeech>, samples: number): void {
    if (this.#entries.get(text) !== entry) return;
    this.#sizes.set(text, samples);
    this.#samples += samples;
    for (const [old] of this.#entries) {
      if (this.#samples <= this.maxSamples) break;
      const size = this.#sizes.get(old);
      if (size === undefined) continue; // still being synthesized
      this.#entries.delete(old);
      this.#sizes.delete(old);
      this.#samples -= size;
    }
  }
}

const espeakVoices = new Map<string, MemoSynthesizer>();

/**
 * One memoized espeak-ng voice per process and cache folder (its output depends on nothing but text and
 * voice); with `cacheRoot`, also kept on disk in `<cacheRoot>/.audio_cache/` like caller speech, so the
 * next run reads it instead of synthesizing it.
 */
export function memoizedEspeak(voice: string, cacheRoot?: string): MemoSynthesizer {
  const key = JSON.stringify([voice, cacheRoot ?? null]);
  let memo = espeakVoices.get(key);
  if (!memo) {
    const espeak = new EspeakSynthesizer({ voice });
    espeakVoices.set(key, (memo = new MemoSynthesizer(cacheRoot === undefined ? espeak : new CachedSynthesizer(espeak, { root: cacheRoot }))));
  }
  return memo;
}
