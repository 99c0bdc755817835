import { describe, expect, it } from "vitest";
import { rms, speechIntervals } from "../src/core/audio";

const FRAME = 480; // 20 ms at 24 kHz

/** A track of 20 ms frames, each a constant-magnitude square wave (±level), so its RMS is exactly `level`. */
function frames(...levels: number[]): Int16Array {
  const out = new Int16Array(levels.length * FRAME);
  levels.forEach((level, f) => {
    for (let i = 0; i < FRAME; i++) out[f * FRAME + i] = i % 2 === 0 ? level : -level;
  });
  return out;
}

describe("rms", () => {
  it("is the root mean square in PCM16 units", () => {
    expect(rms(Int16Array.from([3, -4, 3, -4]))).toBeCloseTo(Math.sqrt(12.5), 12);
    expect(rms(Int16Array.from([220, -220]))).toBe(220);
    expect(rms(new Int16Array(0))).toBe(0);
  });
});

describe("speechIntervals (docs/audio-and-metrics.md rule)", () => {
  it("treats RMS exactly 220 as voiced and 219 as not", () => {
    expect(speechIntervals(frames(220), 24_000)).toEqual([{ start_ms: 0, end_ms: 20 }]);
    expect(speechIntervals(frames(219), 24_000)).toEqual([]);
  });

  it("decides on RMS, not on peak: a frame with RMS just under 220 but large peaks is silent", () => {
    const frame = new Int16Array(FRAME);
    frame[0] = 4818; // sqrt(4818² / 480) ≈ 219.9
    expect(rms(frame)).toBeLessThan(220);
    expect(speechIntervals(frame, 24_000)).toEqual([]);
    frame[0] = 4820; // ≈ 220.0004
    expect(speechIntervals(frame, 24_000)).toEqual([{ start_ms: 0, end_ms: 20 }]);
  });

  it("joins contiguous voiced frames and splits on a single silent frame", () => {
    const track = frames(0, 500, 300, 220, 219, 1000, 0, 0, 400);
    expect(speechIntervals(track, 24_000)).toEqual([
      { start_ms: 20, end_ms: 80 },
      { start_ms: 100, end_ms: 120 },
      { start_ms: 160, end_ms: 180 },
    ]);
  });

  it("counts a final partial frame, judged on its own samples, ending at the last sample", () => {
    const track = new Int16Array(FRAME + 120);
    track.set(frames(0));
    for (let i = FRAME; i < track.length; i++) track[i] = i % 2 === 0 ? 300 : -300; // 5 ms at RMS 300
    expect(speechIntervals(track, 24_000)).toEqual([{ start_ms: 20, end_ms: 25 }]);

    const continuing = new Int16Array(2 * FRAME + 240);
    continuing.set(frames(0, 500));
    continuing.fill(500, 2 * FRAME);
    expect(speechIntervals(continuing, 24_000)).toEqual([{ start_ms: 20, end_ms: 50 }]);
  });

  it("uses frames of the given rate and length and the given threshold", () => {
    const at16k = Int16Array.from({ length: 16_000 }, (_, i) => (i >= 3200 && i < 4800 ? 1000 : 0)); // 200–300 ms
    expect(speechIntervals(at16k, 16_000)).toEqual([{ start_ms: 200, end_ms: 300 }]);
    expect(speechIntervals(frames(250, 250), 24_000, { threshold: 300 })).toEqual([]);
    expect(speechIntervals(frames(250, 0), 24_000, { frameMs: 10 })).toEqual([{ start_ms: 0, end_ms: 20 }]);
  });

  it("finds nothing in empty or silent audio", () => {
    expect(speechIntervals(new Int16Array(0), 24_000)).toEqual([]);
    expect(speechIntervals(new Int16Array(24_000), 24_000)).toEqual([]);
  });
});
