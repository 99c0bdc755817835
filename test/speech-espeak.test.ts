import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { rms, speechIntervals } from "../src/core/audio";
import {
  ESPEAK_MODEL,
  ESPEAK_VOICE_FOR_OPENAI_VOICE,
  EspeakSynthesizer,
  SpeechError,
  resolveEspeakVoice,
  type SynthesizedSpeech,
} from "../src/core/speech";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SENTENCE = "Book a table for Maya on August 6 at 7 p.m. for two.";

const seconds = (speech: SynthesizedSpeech) => speech.samples.length / speech.sampleRate;
const voicedMs = (speech: SynthesizedSpeech) =>
  speechIntervals(speech.samples, speech.sampleRate).reduce((total, interval) => total + interval.end_ms - interval.start_ms, 0);
const digest = (samples: Int16Array) => createHash("sha256").update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)).digest("hex");

async function rejection(work: Promise<unknown>): Promise<SpeechError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpeechError);
  return error as SpeechError;
}

describe("EspeakSynthesizer", () => {
  it("speaks a scenario sentence as 24 kHz mono PCM16 of plausible duration and loudness", async () => {
    const speech = await new EspeakSynthesizer().synthesize(SENTENCE);
    expect(speech.sampleRate).toBe(24_000);
    expect(speech.samples).toBeInstanceOf(Int16Array);
    expect(speech.provider).toBe("espeak-ng");
    expect(speech.model).toBe(ESPEAK_MODEL);
    expect(speech.voice).toBe("en-us+f3"); // the contract's default persona voice, "coral"
    expect(seconds(speech)).toBeGreaterThan(1.5);
    expect(seconds(speech)).toBeLessThan(6);
    expect(rms(speech.samples)).toBeGreaterThan(1000); // well above the voicing threshold of 220
    // Mostly voiced by the rule, as a spoken sentence is; and not one unbroken tone.
    expect(voicedMs(speech)).toBeGreaterThan(0.6 * seconds(speech) * 1000);
    expect(speechIntervals(speech.samples, 24_000).length).toBeGreaterThan(1);
  });

  it("is deterministic: the same text and voice give identical samples, whatever was spoken before", async () => {
    const coral = new EspeakSynthesizer({ voice: "coral" });
    const first = await coral.synthesize(SENTENCE);
    await new EspeakSynthesizer({ voice: "en-gb" }).synthesize("Something else entirely, said in another voice.");
    await coral.synthesize("Could you make that eight o'clock instead?");
    const again = await coral.synthesize(SENTENCE);
    const [concurrentA, concurrentB] = await Promise.all([coral.synthesize(SENTENCE), new EspeakSynthesizer().synthesize(SENTENCE)]);
    for (const other of [again, concurrentA, concurrentB]) {
      expect(other.samples.length).toBe(first.samples.length);
      expect(digest(other.samples)).toBe(digest(first.samples));
    }
  });

  it("gives the same samples in a fresh process", async () => {
    const here = await new EspeakSynthesizer({ voice: "marin" }).synthesize(SENTENCE);
    const moduleUrl = pathToFileURL(join(root, "src/core/speech/espeak.ts")).href;
    const script = [
      `const { EspeakSynthesizer } = await import(${JSON.stringify(moduleUrl)});`,
      `const { createHash } = await import("node:crypto");`,
      `const s = new EspeakSynthesizer({ voice: "marin" });`,
      `await s.synthesize("A different line first, to move the engine along.");`,
      `const { samples } = await s.synthesize(${JSON.stringify(SENTENCE)});`,
      `process.stdout.write(createHash("sha256").update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)).digest("hex"));`,
    ].join("\n");
    const child = execFileSync(join(root, "node_modules/.bin/tsx"), ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
    expect(child.trim()).toBe(digest(here.samples));
  });

  it("gives different audio for different texts and different voices", async () => {
    const coral = new EspeakSynthesizer({ voice: "coral" });
    const a = await coral.synthesize(SENTENCE);
    const b = await coral.synthesize("Book a table for Maya on August 7 at 7 p.m. for two.");
    const c = await new EspeakSynthesizer({ voice: "cedar" }).synthesize(SENTENCE);
    expect(digest(b.samples)).not.toBe(digest(a.samples));
    expect(digest(c.samples)).not.toBe(digest(a.samples));
    expect(c.voice).toBe("en-us+m2");
  });

  it("maps every OpenAI voice name to an English espeak voice that speaks", async () => {
    const espeakVoices = Object.values(ESPEAK_VOICE_FOR_OPENAI_VOICE);
    expect(Object.keys(ESPEAK_VOICE_FOR_OPENAI_VOICE).sort()).toEqual(
      ["alloy", "ash", "ballad", "cedar", "coral", "echo", "fable", "marin", "nova", "onyx", "sage", "shimmer", "verse"],
    );
    expect(espeakVoices.every((voice) => voice.startsWith("en-"))).toBe(true);
    const digests = new Set<string>();
    for (const [name, espeakVoice] of Object.entries(ESPEAK_VOICE_FOR_OPENAI_VOICE)) {
      const synthesizer = new EspeakSynthesizer({ voice: name });
      expect(synthesizer.requestedVoice).toBe(name);
      expect(synthesizer.voice).toBe(espeakVoice);
      const speech = await synthesizer.synthesize("Table for two, please.");
      expect(speech.voice).toBe(espeakVoice);
      expect(rms(speech.samples)).toBeGreaterThan(1000);
      digests.add(digest(speech.samples));
    }
    expect(digests.size).toBe(espeakVoices.length); // every persona voice sounds different
  });

  it("resolves voice names deterministically", () => {
    expect(resolveEspeakVoice("coral")).toBe("en-us+f3");
    expect(resolveEspeakVoice(" Marin ")).toBe("en-us+f2");
    expect(resolveEspeakVoice("en-us")).toBe("en-us");
    expect(resolveEspeakVoice("EN-US")).toBe("en-us");
    expect(resolveEspeakVoice("en-gb")).toBe("en-gb-x-rp");
    expect(resolveEspeakVoice("en-gb+f2")).toBe("en-gb-x-rp+f2");
    expect(resolveEspeakVoice("en-us+m4")).toBe("en-us+m4");
  });

  it("rejects a voice espeak does not have, saying which names work", async () => {
    for (const voice of ["xx-nowhere", "en-us+nosuchvariant"]) {
      const error = await rejection(new EspeakSynthesizer({ voice }).synthesize(SENTENCE));
      expect(error.code).toBe("unknown_voice");
      expect(error.message).toContain(`"${voice}"`);
      expect(error.message).toContain("coral");
    }
    expect(() => new EspeakSynthesizer({ voice: "two words" })).toThrow(SpeechError);
  });

  it("rejects text with nothing to say", async () => {
    const synthesizer = new EspeakSynthesizer();
    expect((await rejection(synthesizer.synthesize(""))).code).toBe("empty_text");
    expect((await rejection(synthesizer.synthesize("  \n\t"))).code).toBe("empty_text");
    expect((await rejection(synthesizer.synthesize("..."))).code).toBe("no_speech");
    expect((await rejection(synthesizer.synthesize("a".repeat(4097)))).code).toBe("text_too_long");
  });

  it("speaks markup-like text as written instead of obeying it", async () => {
    const synthesizer = new EspeakSynthesizer();
    const plain = await synthesizer.synthesize("bold text");
    const tagged = await synthesizer.synthesize("<b>bold</b> text");
    // Read as SSML, the tags would vanish and both would be the same audio.
    expect(digest(tagged.samples)).not.toBe(digest(plain.samples));
    expect(tagged.samples.length).toBeGreaterThan(plain.samples.length);
    const pause = await synthesizer.synthesize('a <break time="5s"/> b');
    expect(seconds(pause)).toBeLessThan(5);
  });

  it("honours an already-aborted signal", async () => {
    const controller = new AbortController();
    controller.abort(new Error("trial cancelled"));
    await expect(new EspeakSynthesizer().synthesize(SENTENCE, { signal: controller.signal })).rejects.toThrow("trial cancelled");
  });

  it("names the installed engine build as its model", () => {
    const pkg = JSON.parse(readFileSync(join(root, "node_modules/@echogarden/espeak-ng-emscripten/package.json"), "utf8")) as { version: string };
    expect(ESPEAK_MODEL).toBe(`espeak-ng-emscripten@${pkg.version}`);
  });

  it("keeps the GPL engine behind espeak.ts: no other file imports it", () => {
    const importers: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith(".d.ts")) {
          if (/(?:from|import)\s*\(?\s*["']@echogarden\/espeak-ng-emscripten["']/.test(readFileSync(path, "utf8"))) importers.push(relative(root, path));
        }
      }
    };
    for (const folder of ["src", "crashlab", "examples", "bench"]) {
      try {
        walk(join(root, folder));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
    expect(importers).toEqual(["src/core/speech/espeak.ts"]);
  });
});
