import { describe, expect, it } from "vitest";
import {
  clipInt16,
  decodePcmBase64,
  encodePcmBase64,
  floatToPcm16,
  interleaveStereo,
  mixPcm16,
  pcm16BytesForMs,
  pcm16DurationMs,
  pcm16FromBytes,
  pcm16ToBytes,
  placePcm16,
  pcm16ToFloat,
  zeroFillTo,
} from "../src/core/audio";

describe("PCM16 bytes ↔ samples", () => {
  it("decodes little-endian regardless of host, including at an odd byte offset", () => {
    const host = Uint8Array.of(0xaa, 0x01, 0x00, 0xfe, 0xff, 0x00, 0x80, 0xff, 0x7f);
    expect([...pcm16FromBytes(host.subarray(1))]).toEqual([1, -2, -32768, 32767]);
    expect([...pcm16FromBytes(new Uint8Array(0))]).toEqual([]);
  });

  it("encodes little-endian and round-trips a view into a larger array", () => {
    const samples = Int16Array.from([0, 1, -1, 256, -32768, 32767]);
    expect([...pcm16ToBytes(samples.subarray(2, 4))]).toEqual([0xff, 0xff, 0x00, 0x01]);
    expect(pcm16FromBytes(pcm16ToBytes(samples))).toEqual(samples);
  });

  it("returns copies, not views", () => {
    const bytes = Uint8Array.of(1, 0, 2, 0);
    const samples = pcm16FromBytes(bytes);
    bytes[0] = 9;
    expect(samples[0]).toBe(1);
  });

  it("rejects an odd byte length", () => {
    expect(() => pcm16FromBytes(new Uint8Array(3))).toThrow(/even byte length, got 3/);
  });
});

describe("float ↔ int16", () => {
  it("scales, rounds and clips", () => {
    expect([...floatToPcm16([0, 1, -1, 0.5, -0.5, 2, -3, Number.NaN])]).toEqual([0, 32767, -32768, 16384, -16384, 32767, -32768, 0]);
    expect([...pcm16ToFloat(Int16Array.from([-32768, 0, 16384]))]).toEqual([-1, 0, 0.5]);
    expect([clipInt16(40_000), clipInt16(-40_000), clipInt16(1.6), clipInt16(-1.4)]).toEqual([32767, -32768, 2, -1]);
  });
});

describe("mixing and layout", () => {
  it("mixes with gain and clipping to the longer length", () => {
    const base = Int16Array.from([1000, 30_000, -30_000]);
    const overlay = Int16Array.from([100, 10_000, -10_000, 400, 500]);
    expect([...mixPcm16(base, overlay)]).toEqual([1100, 32767, -32768, 400, 500]);
    expect([...mixPcm16(base, overlay, 0.5)]).toEqual([1050, 32767, -32768, 200, 250]);
  });

  it("interleaves two mono tracks into stereo, padding the shorter", () => {
    expect([...interleaveStereo(Int16Array.from([1, 2, 3]), Int16Array.from([-1]))]).toEqual([1, -1, 2, 0, 3, 0]);
    expect([...interleaveStereo(Int16Array.from([]), Int16Array.from([5, 6]))]).toEqual([0, 5, 0, 6]);
  });

  it("zero-fills to a length without truncating", () => {
    expect([...zeroFillTo(Int16Array.from([7, 8]), 4)]).toEqual([7, 8, 0, 0]);
    expect([...zeroFillTo(Int16Array.from([7, 8, 9]), 2)]).toEqual([7, 8, 9]);
  });
});

describe("durations", () => {
  it("converts between bytes and milliseconds", () => {
    expect(pcm16DurationMs(960)).toBe(20);
    expect(pcm16DurationMs(48_000)).toBe(1000);
    expect(pcm16DurationMs(3840, 24_000, 2)).toBe(40);
    expect(pcm16DurationMs(882, 22_050)).toBe(20);
    expect(pcm16BytesForMs(20)).toBe(960);
    expect(pcm16BytesForMs(20, 16_000)).toBe(640);
    expect(pcm16BytesForMs(10, 24_000, 2)).toBe(960);
  });
});

describe("base64 chunks", () => {
  it("round-trips bytes, including a view at an offset", () => {
    const host = Uint8Array.from({ length: 965 }, (_, i) => (i * 37) & 0xff);
    const chunk = host.subarray(5);
    const b64 = encodePcmBase64(chunk);
    expect(b64).toBe(Buffer.from(chunk).toString("base64"));
    const back = decodePcmBase64(b64);
    expect(back).toEqual(chunk);
    expect(back.byteOffset).toBe(0);
    expect(encodePcmBase64(Uint8Array.of(1, 0, 255, 127))).toBe("AQD/fw==");
  });

  it("decodes a long payload", () => {
    const long = Uint8Array.from({ length: 480_000 }, (_, i) => (i * 31) & 0xff); // 10 s at 24 kHz
    const back = decodePcmBase64(encodePcmBase64(long));
    expect(back.length).toBe(long.length);
    expect(Buffer.compare(back, long)).toBe(0); // toEqual walks 480k elements slowly
  });

  it("rejects corrupt base64 instead of silently skipping characters", () => {
    expect(() => decodePcmBase64("AQD/fw=")).toThrow(/not valid base64/);
    expect(() => decodePcmBase64("AQ D/fw==")).toThrow(/not valid base64/);
    expect(() => decodePcmBase64("AQ!/fw==")).toThrow(/not valid base64/);
    expect(decodePcmBase64("")).toEqual(new Uint8Array(0));
  });
});

describe("concatPcm", () => {
  it("joins byte and sample chunks into one buffer of the same kind", async () => {
    const { concatPcm } = await import("../src/core/audio/pcm");
    const bytes = concatPcm([Uint8Array.of(1, 2), Uint8Array.of(), Uint8Array.of(3)]);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect([...bytes]).toEqual([1, 2, 3]);
    const samples = concatPcm([Int16Array.of(-1, 300), Int16Array.of(-32768)]);
    expect(samples).toBeInstanceOf(Int16Array);
    expect([...samples]).toEqual([-1, 300, -32768]);
    expect(concatPcm([])).toEqual(new Uint8Array(0));
  });

  it("Buffer chunks give a plain Uint8Array, never the deprecated `new Buffer(n)`", async () => {
    const { concatPcm } = await import("../src/core/audio/pcm");
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => warnings.push(w.code ?? w.name);
    process.on("warning", onWarning);
    const joined = concatPcm([Buffer.from([1, 2]), Buffer.from([3, 4])]);
    await new Promise((r) => setImmediate(r));
    process.off("warning", onWarning);
    expect(Buffer.isBuffer(joined)).toBe(false);
    expect([...joined]).toEqual([1, 2, 3, 4]);
    expect(warnings).not.toContain("DEP0005");
  });
});

describe("placePcm16", () => {
  it("writes PCM16 LE bytes into a track at a sample offset, at any byte offset of the source, as pcm16FromBytes reads them", () => {
    const samples = Int16Array.from([1, -2, 32767, -32768, 300]);
    const backing = new Uint8Array(1 + samples.length * 2);
    backing.set(pcm16ToBytes(samples), 1); // an odd byteOffset: no Int16Array view could be taken
    const bytes = backing.subarray(1);
    const track = new Int16Array(9).fill(7);
    expect(placePcm16(track, bytes, 3)).toBe(5);
    expect([...track]).toEqual([7, 7, 7, 1, -2, 32767, -32768, 300, 7]);
    expect([...track.subarray(3, 8)]).toEqual([...pcm16FromBytes(bytes)]);
  });

  it("refuses an odd byte count and audio that would run past the track", () => {
    expect(() => placePcm16(new Int16Array(4), new Uint8Array(3), 0)).toThrow(/even byte length/);
    expect(() => placePcm16(new Int16Array(4), new Uint8Array(6), 2)).toThrow(/do not fit at 2 in a track of 4/);
    expect(() => placePcm16(new Int16Array(4), new Uint8Array(2), -1)).toThrow(/do not fit/);
  });
});
