import { readdirSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chunkPcm } from "../src/core/audio";
import { readWav } from "../src/core/audio/wav";
import { chunkFingerprint } from "../src/core/simulator";

/**
 * The simulator recognizes caller audio by chunk fingerprints: two different chunks with one fingerprint
 * would make it hear the wrong words. Checked on every 20 ms chunk of the bundled recordings (real speech
 * and its silences) and on chunks that differ in a single sample.
 */
describe("chunkFingerprint", () => {
  const dir = join(import.meta.dirname, "..", "crashlab", "data", "audio");
  const chunks = readdirSync(dir)
    .filter((f) => f.endsWith(".wav"))
    .flatMap((f) => {
      const wav = readWav(readFileSync(join(dir, f)), f);
      return chunkPcm(wav.data.subarray(0, wav.frames * 2));
    });

  it("gives distinct chunks of the bundled recordings distinct fingerprints, and equal chunks equal ones", () => {
    expect(chunks.length).toBeGreaterThan(5_000);
    const byContent = new Map<string, number>();
    const byFingerprint = new Map<number, string>();
    for (const chunk of chunks) {
      const content = createHash("sha256").update(chunk).digest("hex");
      const fingerprint = chunkFingerprint(chunk);
      expect(Number.isSafeInteger(fingerprint)).toBe(true);
      if (byContent.has(content)) expect(byContent.get(content)).toBe(fingerprint);
      byContent.set(content, fingerprint);
      const seen = byFingerprint.get(fingerprint);
      if (seen !== undefined) expect(seen, "two different chunks share a fingerprint").toBe(content);
      byFingerprint.set(fingerprint, content);
    }
    // The recordings hold repeated chunks (digital silence), so the comparison above was exercised both ways.
    expect(byContent.size).toBeLessThan(chunks.length);
    expect(byFingerprint.size).toBe(byContent.size);
  });

  it("changes when any one sample changes, by the smallest step, anywhere in the chunk", () => {
    const base = chunks.find((c) => c.some((b) => b !== 0))!;
    const seen = new Set([chunkFingerprint(base)]);
    for (let at = 0; at < base.length; at += 2) {
      const copy = Uint8Array.from(base);
      copy[at] = (copy[at]! + 1) & 0xff;
      seen.add(chunkFingerprint(copy));
    }
    expect(seen.size).toBe(base.length / 2 + 1);
  });

  it("tells apart chunks of different lengths that hold the same leading bytes", () => {
    const zeros = new Uint8Array(960);
    expect(chunkFingerprint(zeros)).not.toBe(chunkFingerprint(zeros.subarray(0, 958)));
    expect(chunkFingerprint(zeros.subarray(0, 3))).not.toBe(chunkFingerprint(zeros.subarray(0, 2)));
  });
});
