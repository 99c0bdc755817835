import { describe, expect, it } from "vitest";
import { chunkByteLength, chunkPcm, silenceChunk } from "../src/core/audio";

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i % 251) + 1); // never 0, so padding shows

describe("chunkPcm (docs/audio-and-metrics.md)", () => {
  it("cuts 20 ms at 24 kHz into 960-byte chunks", () => {
    expect(chunkByteLength()).toBe(960);
    const chunks = chunkPcm(bytes(960 * 3));
    expect(chunks.map((c) => c.length)).toEqual([960, 960, 960]);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(bytes(960 * 3)));
  });

  it("zero-pads only the final chunk", () => {
    const input = bytes(960 * 2 + 100);
    const chunks = chunkPcm(input);
    expect(chunks.map((c) => c.length)).toEqual([960, 960, 960]);
    expect(chunks[0]!.includes(0)).toBe(false);
    expect(chunks[1]!.includes(0)).toBe(false);
    expect([...chunks[2]!.subarray(0, 100)]).toEqual([...input.subarray(1920)]);
    expect(chunks[2]!.subarray(100).every((b) => b === 0)).toBe(true);
  });

  it("gives no chunks for no audio and one padded chunk for one sample", () => {
    expect(chunkPcm(new Uint8Array(0))).toEqual([]);
    const [only, ...rest] = chunkPcm(Uint8Array.of(1, 2));
    expect(rest).toEqual([]);
    expect(only!.length).toBe(960);
    expect([...only!.subarray(0, 3)]).toEqual([1, 2, 0]);
  });

  it("returns copies that do not alias the input", () => {
    const input = bytes(960);
    const [chunk] = chunkPcm(input);
    input.fill(0);
    expect(chunk![0]).toBe(1);
  });

  it("honours other rates, lengths and channel counts", () => {
    expect(chunkByteLength({ sampleRate: 16_000 })).toBe(640);
    expect(chunkByteLength({ chunkMs: 40 })).toBe(1920);
    expect(chunkByteLength({ channels: 2 })).toBe(1920);
    expect(chunkPcm(bytes(1000), { sampleRate: 8000, chunkMs: 10 }).map((c) => c.length)).toEqual([160, 160, 160, 160, 160, 160, 160]);
  });

  it("rejects a chunk length that is not whole samples and partial samples in the input", () => {
    expect(() => chunkByteLength({ sampleRate: 22_050, chunkMs: 10 })).toThrow(/220\.5 samples/);
    expect(() => chunkPcm(new Uint8Array(961))).toThrow(/whole frames of 2 bytes, got 961/);
    expect(() => chunkPcm(new Uint8Array(962), { channels: 2 })).toThrow(/whole frames of 4 bytes/);
  });
});

describe("silenceChunk", () => {
  it("is one chunk of zeros", () => {
    const silence = silenceChunk();
    expect(silence.length).toBe(960);
    expect(silence.every((b) => b === 0)).toBe(true);
    expect(silenceChunk({ chunkMs: 40 }).length).toBe(1920);
  });
});
