import { describe, expect, it } from "vitest";
import { speechIntervals } from "../src/core/audio/speech";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import { loadWebrtcVad, webrtcDetectorName, webrtcSpeechIntervals } from "../src/core/walk/webrtc-vad";
import { RATE, whiteNoise } from "./walk-signal";

/** Speech between one second of silence on either side. */
async function paddedSpeech(text: string): Promise<{ samples: Int16Array; speechMs: [number, number] }> {
  const speech = (await new EspeakSynthesizer().synthesize(text)).samples;
  const samples = new Int16Array(speech.length + 2 * RATE);
  samples.set(speech, RATE);
  return { samples, speechMs: [1000, 1000 + (speech.length * 1000) / RATE] };
}

const covered = (intervals: Array<{ start_ms: number; end_ms: number }>, from: number, to: number) =>
  intervals.reduce((sum, i) => sum + Math.max(0, Math.min(i.end_ms, to) - Math.max(i.start_ms, from)), 0);

describe("WebRTC voice activity detector", () => {
  it("finds synthesized speech and nothing in the silence around it", async () => {
    const { samples, speechMs } = await paddedSpeech("Book a table for Maya on August sixth at seven p.m. for two.");
    const intervals = await webrtcSpeechIntervals(samples, RATE);
    const [from, to] = speechMs;
    expect(covered(intervals, from, to) / (to - from)).toBeGreaterThan(0.7);
    expect(covered(intervals, 0, from - 100)).toBe(0);
    expect(covered(intervals, to + 400, (samples.length * 1000) / RATE)).toBe(0);
    // Same output shape as the RMS rule: ordered, non-overlapping, on 20 ms frame edges.
    for (const [i, interval] of intervals.entries()) {
      expect(interval.start_ms % 20).toBe(0);
      expect(interval.end_ms).toBeGreaterThan(interval.start_ms);
      if (i > 0) expect(interval.start_ms).toBeGreaterThan(intervals[i - 1]!.end_ms);
    }
  });

  it("reports no speech in digital silence", async () => {
    expect(await webrtcSpeechIntervals(new Int16Array(3 * RATE), RATE)).toEqual([]);
  });

  it("in its most aggressive mode rejects steady noise that the RMS rule calls speech", async () => {
    const noise = whiteNoise(4, 3000); // RMS ≈ 1730, far above the RMS rule's 220
    expect(covered(speechIntervals(noise, RATE), 0, 4000)).toBe(4000);
    const vad = await loadWebrtcVad();
    const voiced = vad.frames(noise, RATE, { mode: 3 });
    expect(voiced.length).toBe(200);
    expect(voiced.filter(Boolean).length / voiced.length).toBeLessThan(0.1);
  });

  it("works at its native rates without resampling and names itself with its mode", async () => {
    const { samples } = await paddedSpeech("What time does the restaurant close?");
    const vad = await loadWebrtcVad();
    const at24 = vad.frames(samples, RATE);
    const at48 = vad.frames(Int16Array.from({ length: samples.length * 2 }, (_, i) => samples[i >> 1]!), 48_000);
    expect(at48.length).toBe(at24.length);
    const agree = at24.filter((v, i) => v === at48[i]).length / at24.length;
    expect(agree).toBeGreaterThan(0.85);
    expect(() => vad.frames(samples, RATE, { mode: 4 as never })).toThrow(/mode must be 0, 1, 2 or 3/);
    expect(webrtcDetectorName(3)).toBe("webrtc-vad/fvad-wasm@0.2.0 mode 3");
  });
});
