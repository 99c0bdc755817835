/**
 * Caller-speech benchmarks: offline espeak-ng synthesis of a typical scenario sentence (engine start,
 * then warm), and the same line served from the speech cache. `x_realtime` is how many times faster than
 * the speech's own duration the work runs. Run alone with `pnpm tsx bench/speech.bench.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech";

export interface BenchResult {
  name: string;
  mean_ms: number;
  x_realtime: number;
}

const SENTENCE = "Hi, I'd like to book a table for Maya on August 6 at 7 p.m. for two, please.";

export async function benchSpeech(): Promise<BenchResult[]> {
  const espeak = new EspeakSynthesizer({ voice: "coral" });
  const startedAt = performance.now();
  const speech = await espeak.synthesize(SENTENCE); // starts the engine: measured once, it happens once per process
  const firstMs = performance.now() - startedAt;
  const audioMs = (speech.samples.length / speech.sampleRate) * 1000;

  const root = mkdtempSync(join(tmpdir(), "speech-bench-"));
  try {
    const cached = new CachedSynthesizer(espeak, { root });
    await cached.synthesize(SENTENCE);

    const bench = new Bench({ time: 1_000, warmupTime: 200 });
    bench
      .add("espeak-ng synthesis, warm engine (24 kHz out)", async () => void (await espeak.synthesize(SENTENCE)))
      .add("speech cache hit (read + verify WAV)", async () => void (await cached.synthesize(SENTENCE)));
    await bench.run();

    const results: BenchResult[] = [{ name: "espeak-ng first call (engine start + synthesis)", mean_ms: round(firstMs), x_realtime: round(audioMs / firstMs) }];
    for (const task of bench.tasks) {
      const result = task.result;
      if (result.state !== "completed") throw new Error(`benchmark "${task.name}" did not complete (${result.state})`);
      const meanMs = result.latency.mean;
      results.push({ name: task.name, mean_ms: round(meanMs, 3), x_realtime: round(audioMs / meanMs) });
    }
    return results;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await benchSpeech());
}
