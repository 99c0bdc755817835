/**
 * `pnpm bench`: every tinybench suite, then whole-run timings of the bundled package, reported as rates
 * and ratios (these machines are shared and noisy: compare ratios, not absolutes). Never part of the tests.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLAN } from "../crashlab/evaluations";
import { CachedSynthesizer, EspeakSynthesizer, run, type RunOptions } from "crashlab/alpha";
import { benchAudio } from "./audio.bench";
import { benchReport } from "./report.bench";
import { benchSpeech } from "./speech.bench";
import { benchTimeline } from "./timeline.bench";
import { benchWalk } from "./walk.bench";
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

const speech = new CachedSynthesizer(new EspeakSynthesizer(), { root: mkdtempSync(join(tmpdir(), "crashlab-bench-")) });

/** A whole run of the bundled package: trials per second and how much faster than its own timeline it ran. */
async function wholeRun(target: string, repetitions: number, extra: RunOptions = {}): Promise<Row> {
  const started = performance.now();
  const result = await run(PLAN, { target, repetitions, concurrency: 1, speech, ...extra });
  const wall = performance.now() - started;
  if (!result.decision.ok) throw new Error(`bench run of ${target} did not pass its gates: ${result.decision.message}`);
  const timeline = result.records.reduce((sum, r) => sum + r.duration_ms, 0);
  const label = `${target}${extra.real_time ? " (real time)" : ""}${extra.selection?.ids ? ` ${extra.selection.ids.join(",")}` : ""}`;
  if (extra.real_time) {
    // Pacing health in real time: lag events and the worst lag, and wall time against the audio timeline.
    const pacing = result.records.flatMap((r) => r.events.filter((e) => e.type === "audio.pacing").map((e) => e.data as { lag_events: number; max_lag_ms: number; chunks: number }));
    const lagEvents = pacing.reduce((n, p) => n + p.lag_events, 0);
    const maxLag = Math.max(0, ...pacing.map((p) => p.max_lag_ms));
    const chunks = pacing.reduce((n, p) => n + p.chunks, 0);
    console.log(`  real-time pacing: ${chunks} chunks, ${lagEvents} lag events, max lag ${maxLag.toFixed(1)} ms; wall/timeline = ${(wall / timeline).toFixed(3)}`);
  }
  return { name: `run ${label}: ${result.records.length} trials`, ops_per_s: (result.records.length / wall) * 1000, mean_ms: wall / result.records.length, x_realtime: timeline / wall };
}

const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);
if (want("world")) print("world engine (restaurant)", await benchWorld());
if (want("audio")) print("audio core", await benchAudio());
if (want("speech")) print("caller speech (espeak-ng, offline)", await benchSpeech());
if (want("walk")) print("WALK acoustic conditions (10 s of audio)", await benchWalk());
if (want("timeline")) print("timeline metrics", await benchTimeline());
if (want("run")) {
  const rows = [await wholeRun("text_restaurant", 5), await wholeRun("restaurant", 1), await wholeRun("restaurant", 5)];
  print("whole runs (virtual time, concurrency 1; × real time = trial timelines ÷ wall time)", rows);
}
if (want("realtime")) print("real-time pacing (wall clock)", [await wholeRun("restaurant", 1, { real_time: true, selection: { ids: ["restaurant_003", "restaurant_008", "restaurant_024"] } })]);
if (want("report")) {
  const r = await benchReport(2000);
  if (r) {
    console.log(`\nreport.html at ${r.trials.toLocaleString("en-US")} trials (CRAWL and WALK with audio; Debian chromium, headless)`);
    console.log(`  built from the run folder in ${(r.build_ms / 1000).toFixed(1)} s (${(r.build_ms / r.trials).toFixed(1)} ms per trial)`);
    console.log(`  size ${(r.bytes / 1e6).toFixed(1)} MB (${Math.round(r.bytes / r.trials).toLocaleString("en-US")} bytes per trial, no audio inside)`);
    console.log(`  load to a drawn overview and list (median of 3): ${Math.round(r.load_ms)} ms · search over the list: ${Math.round(r.search_ms)} ms · open one trial's viewer: ${Math.round(r.open_trial_ms)} ms`);
  }
}
