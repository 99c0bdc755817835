/**
 * WALK condition benchmarks: each §8 preset applied to 10 s of speech-like caller audio, with the
 * bundled second speaker and asides (synthesized once, before timing). `x_realtime` is how many
 * times faster than the audio's own duration a preset runs on one core; the target for `realistic`
 * is at least 200×. Run alone with `pnpm tsx bench/walk.bench.ts`.
 */
import { pathToFileURL } from "node:url";
import { Bench } from "tinybench";
import { synthesizeBackgroundSpeaker, synthesizeNonDirectedUtterances } from "../src/core/walk/condition-assets";
import { applyCondition, CONDITION_PRESETS } from "../src/core/walk/conditions";

export interface BenchResult {
  name: string;
  mean_ms: number;
  x_realtime: number;
}

const SECONDS = 10;
const RATE = 24_000;

/** 1.5 s of a noisy 180 Hz buzz, then 1.2 s of near-silence, repeated: room for coughs and asides. */
function speechLike(): Int16Array {
  let seed = 0x2545f491;
  const noise = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
  return Int16Array.from({ length: RATE * SECONDS }, (_, i) => {
    const voiced = (i / RATE) % 2.7 < 1.5;
    return voiced ? Math.round(6000 * Math.sin((2 * Math.PI * 180 * i) / RATE) + 1500 * noise()) : Math.round(40 * noise());
  });
}

export async function benchWalk(): Promise<BenchResult[]> {
  const caller = speechLike();
  const background = await synthesizeBackgroundSpeaker();
  const nonDirected = await synthesizeNonDirectedUtterances();
  const bench = new Bench({ time: 500, warmupTime: 100 });
  for (const preset of CONDITION_PRESETS) {
    bench.add(`${preset} on 10 s`, () => void applyCondition(caller, { preset, seed: 41, background, nonDirected }));
  }
  await bench.run();
  return bench.tasks.map((task) => {
    const result = task.result;
    if (result.state !== "completed") throw new Error(`benchmark "${task.name}" did not complete (${result.state})`);
    const meanMs = result.latency.mean;
    return { name: task.name, mean_ms: Math.round(meanMs * 1000) / 1000, x_realtime: Math.round((SECONDS * 1000) / meanMs) };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rows = await benchWalk();
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`  ${"preset".padEnd(width)}  ${"mean ms".padStart(9)}  ${"× real time".padStart(12)}`);
  for (const r of rows) console.log(`  ${r.name.padEnd(width)}  ${r.mean_ms.toFixed(3).padStart(9)}  ${r.x_realtime.toLocaleString("en-US").padStart(12)}`);
}
