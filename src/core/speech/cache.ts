/**
 * A disk cache in front of any synthesizer, so the same caller line is synthesized once (free and
 * fast offline, paid and slow live) and every repetition of a case hears the same input.
 *
 * Only caller audio is ever cached: it is the input of a trial, fixed before the target speaks. Target
 * or judge responses must never go through a cache like this, or repetitions would stop being samples.
 *
 * An entry is `<key>.wav` (canonical PCM16 mono 24 kHz) plus `<key>.json` (the key fields and the WAV's
 * sha256). Both are written to a temporary file and renamed into place, WAV first, so the sidecar is the
 * commit marker: a crash leaves either no entry or one that fails its checksum and is rebuilt.
 */
import { createHash, randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pcm16FromBytes } from "../audio/pcm";
import { pcm16Wav, readWav } from "../audio/wav";
import { SPEECH_SAMPLE_RATE, SpeechError, type SpeechService, type SpeechSynthesizer, type SynthesizedSpeech, type SynthesizeOptions } from "./synthesizer";

/** Bump when the entry layout or the meaning of a key field changes: old entries then simply miss. */
export const SPEECH_CACHE_FORMAT_VERSION = 1;
export const DEFAULT_SPEECH_CACHE_DIR = ".audio_cache";

/** Everything that decides the audio; the key is a hash of exactly these. */
export interface SpeechCacheKeyFields {
  format_version: number;
  text: string;
  provider: string;
  model: string;
  voice: string;
  sample_rate: number;
  /** Only when the synthesizer has instructions, so keys of synthesizers without them stay as above. */
  instructions?: string;
}

/** sha256 (hex) over the key fields as JSON with sorted keys. */
export function speechCacheKey(fields: SpeechCacheKeyFields): string {
  const sorted = Object.fromEntries(
    Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return createHash("sha256").update(JSON.stringify(sorted)).digest("hex");
}

interface Sidecar extends SpeechCacheKeyFields {
  key: string;
  samples: number;
  wav_sha256: string;
}

export interface CachedSynthesizerOptions {
  /** Directory the cache lives under (the evaluation package root). */
  root: string;
  /** Cache directory, absolute or relative to `root`; default ".audio_cache". */
  directory?: string;
  /** Synthesize again and overwrite entries instead of reading them. */
  refresh?: boolean;
}

export interface SpeechCacheStats {
  hits: number;
  /** Calls that reached the inner synthesizer (misses, refreshes and rebuilds). */
  misses: number;
  /** Entries found unreadable (torn, edited, checksum mismatch) and synthesized again. */
  rebuilt: number;
}

export class CachedSynthesizer implements SpeechSynthesizer {
  readonly directory: string;
  readonly refresh: boolean;
  readonly stats: SpeechCacheStats = { hits: 0, misses: 0, rebuilt: 0 };
  /** Concurrent requests for one key share one synthesis (repetitions start together). */
  readonly #inFlight = new Map<string, Promise<SynthesizedSpeech>>();
  /**
   * With `refresh`, the keys rebuilt so far: each is rebuilt once, and later requests (repetitions, or a
   * trial after a real-time run made its line ahead) read the rebuilt entry, so every repetition of a case
   * still hears the same input.
   */
  readonly #refreshed = new Set<string>();

  constructor(
    readonly inner: SpeechSynthesizer,
    options: CachedSynthesizerOptions,
  ) {
    this.directory = resolve(options.root, options.directory ?? DEFAULT_SPEECH_CACHE_DIR);
    this.refresh = options.refresh ?? false;
  }

  get provider(): string {
    return this.inner.provider;
  }
  get model(): string {
    return this.inner.model;
  }
  get voice(): string {
    return this.inner.voice;
  }
  get instructions(): string | undefined {
    return this.inner.instructions;
  }
  get service(): SpeechService | undefined {
    return this.inner.service;
  }

  keyFields(text: string): SpeechCacheKeyFields {
    const fields: SpeechCacheKeyFields = {
      format_version: SPEECH_CACHE_FORMAT_VERSION,
      text,
      provider: this.inner.provider,
      model: this.inner.model,
      voice: this.inner.voice,
      sample_rate: SPEECH_SAMPLE_RATE,
    };
    if (this.inner.instructions !== undefined) fields.instructions = this.inner.instructions;
    return fields;
  }

  /** The WAV and sidecar paths of the entry for `text`. */
  entryPaths(text: string): { wav: string; sidecar: string } {
    const key = speechCacheKey(this.keyFields(text));
    return { wav: join(this.directory, `${key}.wav`), sidecar: join(this.directory, `${key}.json`) };
  }

  async synthesize(text: string, opts: SynthesizeOptions = {}): Promise<SynthesizedSpeech> {
    opts.signal?.throwIfAborted();
    const fields = this.keyFields(text);
    const key = speechCacheKey(fields);
    let flight = this.#inFlight.get(key);
    if (!flight) {
      flight = this.#lookup(key, fields).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, flight);
    }
    return copy(await abortable(flight, opts.signal));
  }

  /**
   * The shared work for one key. It runs without any one caller's signal so that caller aborting does
   * not fail the others; an abandoned synthesis still completes and lands in the cache.
   */
  async #lookup(key: string, fields: SpeechCacheKeyFields): Promise<SynthesizedSpeech> {
    const paths = { wav: join(this.directory, `${key}.wav`), sidecar: join(this.directory, `${key}.json`) };
    if (!this.refresh || this.#refreshed.has(key)) {
      const found = await this.#read(key, fields, paths);
      if (found !== "missing" && found !== "corrupt") {
        this.stats.hits++;
        return found;
      }
      if (found === "corrupt") this.stats.rebuilt++;
    }
    this.stats.misses++;
    const speech = await this.inner.synthesize(fields.text);
    this.#check(speech);
    await this.#write(key, fields, speech.samples, paths);
    this.#refreshed.add(key);
    return speech;
  }

  async #read(key: string, fields: SpeechCacheKeyFields, paths: { wav: string; sidecar: string }): Promise<SynthesizedSpeech | "missing" | "corrupt"> {
    const sidecarText = await this.#readOrNull(paths.sidecar, "utf8");
    if (sidecarText === null) return "missing";
    const wavBytes = await this.#readOrNull(paths.wav);
    if (wavBytes === null) return "corrupt";
    try {
      const sidecar = JSON.parse(sidecarText) as Partial<Sidecar>;
      const expected: Partial<Sidecar> = { ...fields, key };
      for (const [name, value] of Object.entries(expected)) if (sidecar[name as keyof Sidecar] !== value) return "corrupt";
      if (sidecar.instructions !== fields.instructions) return "corrupt";
      if (sidecar.wav_sha256 !== sha256(wavBytes)) return "corrupt";
      const wav = readWav(wavBytes, paths.wav);
      const canonical = wav.format === "pcm" && wav.bitsPerSample === 16 && wav.channels === 1 && wav.sampleRate === SPEECH_SAMPLE_RATE;
      if (!canonical || wav.truncated || wav.frames !== sidecar.samples || wav.frames === 0) return "corrupt";
      return { samples: pcm16FromBytes(wav.data), sampleRate: SPEECH_SAMPLE_RATE, provider: fields.provider, model: fields.model, voice: fields.voice };
    } catch {
      return "corrupt"; // unparsable sidecar or WAV: the entry is rebuilt, and counted in stats.rebuilt
    }
  }

  async #readOrNull(path: string): Promise<Buffer | null>;
  async #readOrNull(path: string, encoding: "utf8"): Promise<string | null>;
  async #readOrNull(path: string, encoding?: "utf8"): Promise<Buffer | string | null> {
    try {
      return encoding ? await readFile(path, encoding) : await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw this.#unusable(`cannot read ${path}`, error);
    }
  }

  /** A synthesizer must return what it declared, or the key would describe audio it is not. */
  #check(speech: SynthesizedSpeech): void {
    const problems = [
      speech.sampleRate !== SPEECH_SAMPLE_RATE && `sampleRate ${speech.sampleRate}`,
      !(speech.samples instanceof Int16Array) && "samples that are not an Int16Array",
      speech.provider !== this.inner.provider && `provider "${speech.provider}" (declared "${this.inner.provider}")`,
      speech.model !== this.inner.model && `model "${speech.model}" (declared "${this.inner.model}")`,
      speech.voice !== this.inner.voice && `voice "${speech.voice}" (declared "${this.inner.voice}")`,
    ].filter(Boolean);
    if (problems.length > 0) throw new Error(`synthesizer ${this.inner.provider} returned ${problems.join(", ")}; refusing to cache it`);
  }

  async #write(key: string, fields: SpeechCacheKeyFields, samples: Int16Array, paths: { wav: string; sidecar: string }): Promise<void> {
    const wav = pcm16Wav(samples, SPEECH_SAMPLE_RATE);
    const sidecar: Sidecar = { ...fields, key, samples: samples.length, wav_sha256: sha256(wav) };
    try {
      await mkdir(this.directory, { recursive: true, mode: 0o700 });
      await writeAtomically(paths.wav, wav);
      await writeAtomically(paths.sidecar, Buffer.from(`${JSON.stringify(sidecar, null, 2)}\n`));
    } catch (error) {
      throw this.#unusable(`cannot write the caller-audio cache entry ${paths.sidecar}`, error);
    }
  }

  #unusable(what: string, error: unknown): SpeechError {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    return new SpeechError(
      "cache_unusable",
      this.inner.provider,
      `${what} (${reason}); make ${this.directory} a writable directory, or point the speech cache elsewhere`,
      undefined,
      { cause: error },
    );
  }
}

/**
 * Temp files being written right now. If the process exits mid-write (a run stopped by a second signal),
 * they are removed on the way out, so the cache never keeps a stray temporary file. Process-wide by nature.
 */
const pendingTemps = new Set<string>();
let removeOnExit = false;
function trackTemp(path: string): void {
  pendingTemps.add(path);
  if (removeOnExit) return;
  removeOnExit = true;
  process.on("exit", () => {
    for (const temp of pendingTemps) rmSync(temp, { force: true });
  });
}

/** Temp file in the same directory (0600), flushed, then renamed over the target: readers see all or nothing. */
async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  trackTemp(temp);
  try {
    const file = await open(temp, "wx", 0o600);
    try {
      await file.chmod(0o600); // exact, whatever the umask
      await file.writeFile(bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  } finally {
    pendingTemps.delete(temp);
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Each caller owns its samples: callers sharing a synthesis never share one mutable array. */
function copy(speech: SynthesizedSpeech): SynthesizedSpeech {
  return { ...speech, samples: speech.samples.slice() };
}

function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolvePromise, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolvePromise(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
