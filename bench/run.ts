/**
 * `pnpm bench`: every tinybench suite, then whole-run timings of the bundled package, reported as rates
 * and ratios (these machines are shared and noisy: compare ratios, not absolutes). Never part of the tests.
 */
import { PLAN } from "../crashlab/evaluations";
import { run } from "crashlab/alpha";
import { benchAudio } from "./audio.bench";
import { benchSpeech } from "./speech.bench";
import { benchTimeline } from "./timeline.bench";
import { benchWorld } from "./world.bench";

interface Row {
  name: string;
  ops_per_s?: number;
  mean_ms?: number;
  x_realtime?: number;
}

const fmt = (x: number | undefined, digits = 0) => (x === undefined ? "" : x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }));

function print(title: string, rows: Row[]): void {
  console.log(`\n${title}`);
  const w = Math.max(...rows.map((r) => r.name.length));
  console.log(`  ${"benchmark".padEnd(w)}  ${"ops/s".padStart(12)}  ${"mean ms".padStart(10)}  ${"× real time".padStart(12)}`);
  for (const r of rows) console.log(`  ${r.name.padEnd(w)}  ${fmt(r.ops_per_s).padStart(12)}  ${fmt(r.mean_ms, 3).padStart(10)}  ${fmt(r.x_realtime, 1).padStart(12)}`);
}

/** A whole run of the bundled package: trials per second and how much faster than its own timeline it ran. */
async function wholeRun(target: string, repetitions: number): Promise<Row> {
  const started = performance.now();
  const result = await run(PLAN, { target, repetitions, concurrency: 1 });
  const wall = performance.now() - started;
  if (!result.decision.ok) throw new Error(`bench run of ${target} did not pass its gates: ${result.decision.message}`);
  const timeline = result.records.reduce((sum, r) => sum + r.duration_ms, 0);
  return { name: `run ${target}: ${result.records.length} trials`, ops_per_s: (result.records.length / wall) * 1000, mean_ms: wall / result.records.length, x_realtime: timeline / wall };
}

const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);
if (want("world")) print("world engine (restaurant)", await benchWorld());
if (want("audio")) print("audio core", await benchAudio());
if (want("speech")) print("caller speech (espeak-ng, offline)", await benchSpeech());
if (want("timeline")) print("timeline metrics", await benchTimeline());
if (want("run")) print("whole runs (virtual time, concurrency 1)", [await wholeRun("text_restaurant", 5)]);
