import { describe, expect, it } from "vitest";
import { resamplePcm16, rms } from "../src/core/audio";

function sine(freq: number, rate: number, seconds: number, amplitude = 10_000): Int16Array {
  return Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.round(amplitude * Math.sin(2 * Math.PI * freq * (i / rate) + 0.3)));
}

/** Sign changes between 50 ms from the start and 50 ms before the end, away from the zero-padded edges. */
function zeroCrossings(samples: Int16Array, rate: number): number {
  const margin = Math.round(rate * 0.05);
  let count = 0;
  for (let i = margin + 1; i < samples.length - margin; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) count++;
  return count;
}

const interior = (samples: Int16Array, rate: number) => samples.subarray(Math.round(rate * 0.05), samples.length - Math.round(rate * 0.05));

describe("resamplePcm16", () => {
  it("gives exactly round(n × to / from) samples for 22,050 → 24,000", () => {
    for (const n of [0, 1, 7, 441, 12_345, 22_050, 220_500]) {
      expect(resamplePcm16(new Int16Array(n), 22_050, 24_000).length).toBe(Math.round((n * 24_000) / 22_050));
    }
    expect(resamplePcm16(new Int16Array(7), 22_050, 24_000).length).toBe(8);
    expect(resamplePcm16(new Int16Array(1001), 48_000, 24_000).length).toBe(501);
  });

  it("preserves a tone's frequency and level when upsampling 22,050 → 24,000", () => {
    for (const freq of [440, 1000, 3000]) {
      const input = sine(freq, 22_050, 1);
      const output = resamplePcm16(input, 22_050, 24_000);
      // 0.9 s of interior at 2 crossings per cycle, measured on both sides.
      expect(Math.abs(zeroCrossings(output, 24_000) - zeroCrossings(input, 22_050))).toBeLessThanOrEqual(1);
      expect(Math.abs(zeroCrossings(output, 24_000) - 2 * freq * 0.9)).toBeLessThanOrEqual(2);
      const ratio = rms(interior(output, 24_000)) / rms(interior(input, 22_050));
      expect(ratio).toBeGreaterThan(0.99);
      expect(ratio).toBeLessThan(1.01);
    }
  });

  it("keeps speech-band tones and removes what would alias when downsampling 48,000 → 24,000", () => {
    const speech = resamplePcm16(sine(3000, 48_000, 0.5), 48_000, 24_000);
    expect(Math.abs(zeroCrossings(speech, 24_000) - 2 * 3000 * 0.4)).toBeLessThanOrEqual(2);
    expect(rms(interior(speech, 24_000))).toBeGreaterThan(0.99 * rms(interior(sine(3000, 48_000, 0.5), 48_000)));

    // 15 kHz is above the 12 kHz output Nyquist: without the low-pass it would fold to 9 kHz at full level.
    const high = resamplePcm16(sine(15_000, 48_000, 0.5), 48_000, 24_000);
    expect(rms(interior(high, 24_000))).toBeLessThan(0.01 * 10_000);
  });

  it("keeps a constant signal exactly constant away from the edges", () => {
    const out = resamplePcm16(new Int16Array(4410).fill(1234), 22_050, 24_000);
    expect(new Set(interior(out, 24_000))).toEqual(new Set([1234]));
  });

  it("handles rates with no small common factor (kernels computed per sample)", () => {
    const input = sine(500, 24_000, 1);
    const output = resamplePcm16(input, 24_000, 22_051);
    expect(output.length).toBe(22_051);
    expect(Math.abs(zeroCrossings(output, 22_051) - 2 * 500 * 0.9)).toBeLessThanOrEqual(2);
  });

  it("is deterministic and clips to int16", () => {
    const loud = Int16Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? 32767 : -32768));
    const a = resamplePcm16(loud, 44_100, 24_000);
    expect(resamplePcm16(loud, 44_100, 24_000)).toEqual(a);
    const square = Int16Array.from({ length: 2205 }, (_, i) => (Math.floor(i / 50) % 2 === 0 ? 32767 : -32768));
    const up = resamplePcm16(square, 22_050, 24_000); // Gibbs overshoot must clip, not wrap
    expect(Math.max(...up)).toBe(32767);
    expect(Math.min(...up)).toBe(-32768);
  });

  it("copies when the rates match and rejects invalid rates", () => {
    const input = Int16Array.from([1, 2, 3]);
    const same = resamplePcm16(input, 24_000, 24_000);
    expect(same).toEqual(input);
    expect(same).not.toBe(input);
    expect(() => resamplePcm16(input, 0, 24_000)).toThrow(/fromRate must be a positive integer/);
    expect(() => resamplePcm16(input, 24_000, 22_050.5)).toThrow(/toRate must be a positive integer/);
  });
});
