/**
 * Audio room benchmarks: chunking, the §2 speech rule, resampling and pacing overhead, each on 10 s of
 * audio. `x_realtime` is how many times faster than the audio's own duration the work runs.
 * Run alone with `pnpm tsx bench/audio.bench.ts`.
 */
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { AudioPacer, chunkPcm, pcm16ToBytes, resamplePcm16, speechIntervals } from "../src/core/audio";
import { VirtualClock } from "../src/core/time/clock";
// The resampler before the polyphase rewrite (the oracle of its exactness test), timed beside it.
import { referenceResamplePcm16 } from "../test/resample-reference";

export interface BenchResult {
  name: string;
  ops_per_s?: number;
  mean_ms?: number;
  x_realtime?: number;
}

const SECONDS = 10;

/** Speech-like test audio: 300 ms bursts of a noisy 180 Hz buzz separated by 200 ms pauses, fixed seed. */
function speechLike(rate: number): Int16Array {
  let seed = 0x2545f491;
  const noise = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  return Int16Array.from({ length: rate * SECONDS }, (_, i) => {
    const voiced = (i / rate) % 0.5 < 0.3;
    return voiced ? Math.round(6000 * Math.sin((2 * Math.PI * 180 * i) / rate) + 1500 * noise()) : Math.round(40 * noise());
  });
}

export async function benchAudio(): Promise<BenchResult[]> {
  const audio24k = speechLike(24_000);
  const bytes24k = pcm16ToBytes(audio24k);
  const audio22k = speechLike(22_050);
  // One assistant utterance as espeak-ng returns it: the per-call costs (building the filter) show here.
  const utterance22k = audio22k.subarray(0, Math.round(22_050 * 1.5));
  const chunks = chunkPcm(bytes24k);

  const bench = new Bench({ time: 500, warmupTime: 100 });
  bench
    .add("chunk 10 s into 20 ms chunks", () => void chunkPcm(bytes24k))
    .add("speech intervals on 10 s", () => void speechIntervals(audio24k, 24_000))
    .add("resample 10 s 22,050 → 24,000", () => void resamplePcm16(audio22k, 22_050, 24_000))
    .add("resample 10 s 22,050 → 24,000 (previous implementation)", () => void referenceResamplePcm16(audio22k, 22_050, 24_000))
    .add("resample 1.5 s utterance 22,050 → 24,000", () => void resamplePcm16(utterance22k, 22_050, 24_000))
    .add("resample 1.5 s utterance 22,050 → 24,000 (previous implementation)", () => void referenceResamplePcm16(utterance22k, 22_050, 24_000))
    .add("pace 10 s (500 chunks) on a VirtualClock", async () => {
      const pacer = new AudioPacer({ clock: new VirtualClock() });
      await pacer.play(chunks, () => {});
    });
  await bench.run();

  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`benchmark "${task.name}" did not complete (${result.state})`);
    const meanMs = result.latency.mean;
    if (task.name.startsWith("pace")) {
      // Report per chunk: the cost the pacer adds to each 20 ms of audio.
      const perChunk = meanMs / chunks.length;
      return { name: "pacing overhead per chunk (VirtualClock)", ops_per_s: round(1000 / perChunk), mean_ms: round(perChunk, 6), x_realtime: round(20 / perChunk) };
    }
    const seconds = task.name.includes("1.5 s") ? 1.5 : SECONDS;
    return { name: task.name, ops_per_s: round(1000 / meanMs), mean_ms: round(meanMs, 4), x_realtime: round((seconds * 1000) / meanMs) };
  });
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await benchAudio());
}
