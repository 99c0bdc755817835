import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readWav } from "../src/core/audio";
import {
  CachedSynthesizer,
  EspeakSynthesizer,
  SPEECH_CACHE_FORMAT_VERSION,
  SpeechError,
  speechCacheKey,
  type SpeechSynthesizer,
  type SynthesizedSpeech,
} from "../src/core/speech";

/**
 * A synthesizer whose audio is a function of text, voice and how many times it has been called, so a
 * test can tell a cached answer (old call number) from a fresh one.
 */
class CountingSynthesizer implements SpeechSynthesizer {
  readonly provider = "fake";
  calls: string[] = [];
  gate?: Promise<void>;
  constructor(
    readonly model = "fake-1",
    readonly voice = "coral",
    readonly instructions?: string,
  ) {}
  async synthesize(text: string): Promise<SynthesizedSpeech> {
    this.calls.push(text);
    const call = this.calls.length;
    await this.gate;
    const samples = Int16Array.from({ length: 2400 + text.length }, (_, i) => ((i * 37 + text.charCodeAt(i % text.length) * 11 + call * 1000) % 20_000) - 10_000);
    return { samples, sampleRate: 24_000, provider: this.provider, model: this.model, voice: this.voice };
  }
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "speech-cache-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const TEXT = "Book a table for Maya on August 6 at 7 p.m. for two.";
const same = (a: Int16Array, b: Int16Array) => a.length === b.length && a.every((v, i) => v === b[i]);

describe("CachedSynthesizer", () => {
  it("serves a repeated line from disk without calling the inner synthesizer", async () => {
    const inner = new CountingSynthesizer();
    const cache = new CachedSynthesizer(inner, { root });
    const first = await cache.synthesize(TEXT);
    const second = await cache.synthesize(TEXT);
    const third = await new CachedSynthesizer(inner, { root }).synthesize(TEXT); // a later run, same disk
    expect(inner.calls).toEqual([TEXT]);
    expect(same(second.samples, first.samples)).toBe(true);
    expect(same(third.samples, first.samples)).toBe(true);
    expect(second).toMatchObject({ sampleRate: 24_000, provider: "fake", model: "fake-1", voice: "coral" });
    expect(cache.stats).toEqual({ hits: 1, misses: 1, rebuilt: 0 });
    expect(second.samples).not.toBe(first.samples); // each caller owns its array
  });

  it("stores a canonical 24 kHz mono PCM16 WAV and a sidecar with the key fields under <root>/.audio_cache", async () => {
    const inner = new CountingSynthesizer();
    const cache = new CachedSynthesizer(inner, { root });
    const speech = await cache.synthesize(TEXT);
    expect(cache.directory).toBe(join(root, ".audio_cache"));
    const { wav, sidecar } = cache.entryPaths(TEXT);
    const key = speechCacheKey(cache.keyFields(TEXT));
    expect(wav).toBe(join(root, ".audio_cache", `${key}.wav`));
    expect(readdirSync(cache.directory).sort()).toEqual([`${key}.json`, `${key}.wav`]);

    const bytes = readFileSync(wav);
    const audio = readWav(bytes);
    expect(audio).toMatchObject({ sampleRate: 24_000, channels: 1, bitsPerSample: 16, format: "pcm", frames: speech.samples.length, truncated: false });
    expect(bytes.byteLength).toBe(44 + speech.samples.length * 2);

    expect(JSON.parse(readFileSync(sidecar, "utf8"))).toEqual({
      format_version: SPEECH_CACHE_FORMAT_VERSION,
      text: TEXT,
      provider: "fake",
      model: "fake-1",
      voice: "coral",
      sample_rate: 24_000,
      key,
      samples: speech.samples.length,
      wav_sha256: createHash("sha256").update(bytes).digest("hex"),
    });
  });

  it("keys entries by sha256 over the sorted key fields", () => {
    const fields = { format_version: 1, text: "Hi.", provider: "espeak-ng", model: "m", voice: "en-us", sample_rate: 24_000 };
    const expected = createHash("sha256")
      .update('{"format_version":1,"model":"m","provider":"espeak-ng","sample_rate":24000,"text":"Hi.","voice":"en-us"}')
      .digest("hex");
    expect(speechCacheKey(fields)).toBe(expected);
    const key = speechCacheKey(fields);
    const changed = [
      { ...fields, text: "Hi!" },
      { ...fields, voice: "en-gb-x-rp" },
      { ...fields, model: "m2" },
      { ...fields, provider: "openai" },
      { ...fields, sample_rate: 16_000 },
      { ...fields, format_version: 2 },
      { ...fields, instructions: "Whisper." },
    ].map(speechCacheKey);
    expect(new Set([key, ...changed]).size).toBe(changed.length + 1);
  });

  it("misses when the voice, the model, the text or the instructions change", async () => {
    const coral = new CountingSynthesizer("fake-1", "coral");
    await new CachedSynthesizer(coral, { root }).synthesize(TEXT);
    const variants = [
      new CountingSynthesizer("fake-1", "marin"),
      new CountingSynthesizer("fake-2", "coral"),
      new CountingSynthesizer("fake-1", "coral", "Speak slowly."),
    ];
    for (const inner of variants) {
      await new CachedSynthesizer(inner, { root }).synthesize(TEXT);
      expect(inner.calls).toEqual([TEXT]);
    }
    await new CachedSynthesizer(coral, { root }).synthesize("Make it eight o'clock.");
    expect(coral.calls).toEqual([TEXT, "Make it eight o'clock."]);
    expect(readdirSync(join(root, ".audio_cache")).filter((f) => f.endsWith(".wav"))).toHaveLength(5);
  });

  it("rebuilds entries with refresh: true, and later reads get the rebuilt audio", async () => {
    const inner = new CountingSynthesizer();
    const original = await new CachedSynthesizer(inner, { root }).synthesize(TEXT);
    const refreshing = new CachedSynthesizer(inner, { root, refresh: true });
    const rebuilt = await refreshing.synthesize(TEXT);
    expect(inner.calls).toHaveLength(2);
    expect(same(rebuilt.samples, original.samples)).toBe(false);
    expect(refreshing.stats).toEqual({ hits: 0, misses: 1, rebuilt: 0 });
    // Rebuilt once: the next request of the same synthesizer (a repetition) hears the rebuilt audio.
    const repeated = await refreshing.synthesize(TEXT);
    expect(inner.calls).toHaveLength(2);
    expect(same(repeated.samples, rebuilt.samples)).toBe(true);
    expect(refreshing.stats).toEqual({ hits: 1, misses: 1, rebuilt: 0 });
    const later = await new CachedSynthesizer(inner, { root }).synthesize(TEXT);
    expect(inner.calls).toHaveLength(2);
    expect(same(later.samples, rebuilt.samples)).toBe(true);
  });

  it("rebuilds a corrupt entry instead of failing", async () => {
    const corruptions: Array<[string, (paths: { wav: string; sidecar: string }) => void]> = [
      ["WAV cut off mid-write", ({ wav }) => writeFileSync(wav, readFileSync(wav).subarray(0, 300))],
      ["WAV header garbage", ({ wav }) => writeFileSync(wav, Buffer.from("this is not a wav file at all"))],
      ["one sample changed", ({ wav }) => {
        const bytes = readFileSync(wav);
        bytes[100] = bytes[100]! ^ 0xff;
        writeFileSync(wav, bytes);
      }],
      ["sidecar not JSON", ({ sidecar }) => writeFileSync(sidecar, "{ half a sidecar")],
      ["sidecar for another text", ({ sidecar }) => {
        const data = JSON.parse(readFileSync(sidecar, "utf8")) as Record<string, unknown>;
        writeFileSync(sidecar, JSON.stringify({ ...data, text: "something else" }));
      }],
      ["WAV missing", ({ wav }) => rmSync(wav)],
    ];
    for (const [what, corrupt] of corruptions) {
      const inner = new CountingSynthesizer();
      const dir = `cache-${corruptions.findIndex(([name]) => name === what)}`;
      const good = await new CachedSynthesizer(inner, { root, directory: dir }).synthesize(TEXT);
      const cache = new CachedSynthesizer(inner, { root, directory: dir });
      corrupt(cache.entryPaths(TEXT));
      const rebuilt = await cache.synthesize(TEXT);
      expect({ what, calls: inner.calls.length, stats: cache.stats }).toEqual({ what, calls: 2, stats: { hits: 0, misses: 1, rebuilt: 1 } });
      expect(rebuilt.samples.length).toBe(good.samples.length);
      // The rebuilt entry is whole again: a new reader hits it.
      const reader = new CachedSynthesizer(inner, { root, directory: dir });
      expect(same((await reader.synthesize(TEXT)).samples, rebuilt.samples)).toBe(true);
      expect(reader.stats.hits).toBe(1);
    }
  });

  it("treats a WAV without its sidecar (a crash between the two renames) as not cached", async () => {
    const inner = new CountingSynthesizer();
    const cache = new CachedSynthesizer(inner, { root });
    await cache.synthesize(TEXT);
    rmSync(cache.entryPaths(TEXT).sidecar);
    writeFileSync(join(cache.directory, "leftover.wav.1234.tmp"), "partial");
    const again = new CachedSynthesizer(inner, { root });
    await again.synthesize(TEXT);
    expect(inner.calls).toHaveLength(2);
    expect(again.stats).toEqual({ hits: 0, misses: 1, rebuilt: 0 });
    expect(existsSync(again.entryPaths(TEXT).sidecar)).toBe(true);
  });

  it("writes files 0600 in a 0700 directory and leaves no temporary files", async () => {
    const cache = new CachedSynthesizer(new CountingSynthesizer(), { root });
    await cache.synthesize(TEXT);
    await cache.synthesize("Another line.");
    expect(statSync(cache.directory).mode & 0o777).toBe(0o700);
    const files = readdirSync(cache.directory);
    expect(files).toHaveLength(4);
    expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
    for (const file of files) expect(statSync(join(cache.directory, file)).mode & 0o777).toBe(0o600);
  });

  it("writes nothing when the inner synthesizer fails, or returns audio that is not what it declared", async () => {
    const failing: SpeechSynthesizer = {
      provider: "fake",
      model: "fake-1",
      voice: "coral",
      synthesize: () => Promise.reject(new SpeechError("provider_error", "fake", "down")),
    };
    await expect(new CachedSynthesizer(failing, { root }).synthesize(TEXT)).rejects.toThrow("down");
    const wrongRate: SpeechSynthesizer = {
      ...failing,
      synthesize: async () => ({ samples: new Int16Array(100), sampleRate: 16_000 as 24_000, provider: "fake", model: "fake-1", voice: "coral" }),
    };
    await expect(new CachedSynthesizer(wrongRate, { root }).synthesize(TEXT)).rejects.toThrow("sampleRate 16000");
    expect(existsSync(join(root, ".audio_cache")) ? readdirSync(join(root, ".audio_cache")) : []).toEqual([]);
  });

  it("shares one synthesis between concurrent requests for the same line", async () => {
    const inner = new CountingSynthesizer();
    let open!: () => void;
    inner.gate = new Promise<void>((resolve) => (open = resolve));
    const cache = new CachedSynthesizer(inner, { root });
    const pending = [cache.synthesize(TEXT), cache.synthesize(TEXT), cache.synthesize(TEXT)];
    await new Promise((resolve) => setTimeout(resolve, 10));
    open();
    const results = await Promise.all(pending);
    expect(inner.calls).toEqual([TEXT]);
    expect(same(results[1]!.samples, results[0]!.samples)).toBe(true);
    results[0]!.samples[0] = 12_345;
    expect(results[1]!.samples[0]).not.toBe(12_345);
  });

  it("lets a caller abort its wait while the synthesis still completes into the cache", async () => {
    const inner = new CountingSynthesizer();
    let open!: () => void;
    inner.gate = new Promise<void>((resolve) => (open = resolve));
    const cache = new CachedSynthesizer(inner, { root });
    const controller = new AbortController();
    const pending = cache.synthesize(TEXT, { signal: controller.signal });
    controller.abort(new Error("trial cancelled"));
    await expect(pending).rejects.toThrow("trial cancelled");
    open();
    inner.gate = undefined;
    await cache.synthesize(TEXT); // joins or hits, never a second synthesis
    expect(inner.calls).toEqual([TEXT]);
  });

  it("says which directory is unusable when the cache cannot be created", async () => {
    const blocker = join(root, "not-a-directory");
    writeFileSync(blocker, "a file where the cache should go");
    const cache = new CachedSynthesizer(new CountingSynthesizer(), { root, directory: join(blocker, "cache") });
    const error = await cache.synthesize(TEXT).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpeechError);
    expect((error as SpeechError).code).toBe("cache_unusable");
    expect((error as SpeechError).message).toContain(join(blocker, "cache"));
  });

  it("caches real espeak-ng speech: a hit returns the identical samples", async () => {
    let calls = 0;
    const espeak = new EspeakSynthesizer({ voice: "marin" });
    const counted: SpeechSynthesizer = {
      provider: espeak.provider,
      model: espeak.model,
      voice: espeak.voice,
      synthesize: (text, opts) => (calls++, espeak.synthesize(text, opts)),
    };
    const first = await new CachedSynthesizer(counted, { root }).synthesize(TEXT);
    const cached = await new CachedSynthesizer(counted, { root }).synthesize(TEXT);
    expect(calls).toBe(1);
    expect(cached).toMatchObject({ provider: "espeak-ng", voice: "en-us+f2", sampleRate: 24_000 });
    expect(same(cached.samples, first.samples)).toBe(true);
  });
});
