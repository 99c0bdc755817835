/**
 * `pnpm bench [group…]`: every tinybench suite, then whole-run timings of the bundled package, reported as
 * rates and ratios (these machines are shared and noisy: compare ratios, not absolutes). Never part of the tests.
 */
import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { PLAN } from "../crashlab/evaluations";
import { CachedSynthesizer, EspeakSynthesizer } from "crashlab/alpha";
// The engine's in-memory run loop, given live caller speech and callers directly.
import { run, type RunOptions } from "../src/core/run/run";
import { benchAudio } from "./audio.bench";
import { benchCores, printCores } from "./cores.bench";
import { benchConversationsOffline, benchConversationsRealTime, offlineCaller } from "./conversation.bench";
import { benchReport } from "./report.bench";
import { measureRun, printScale } from "./scale.bench";
import { benchSessions, benchSessionsCli, printSessions } from "./sessions.bench";
import { benchSpeech } from "./speech.bench";
import { benchTimeline } from "./timeline.bench";
import { benchWalk } from "./walk.bench";
import { benchLatency, printLatency } from "./latency.bench";
import { measureWholeRun, printWholeRun, profileWholeRun } from "./whole-run.bench";
import { benchWire, printWire } from "./wire.bench";
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

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function printRealTime(rt: Awaited<ReturnType<typeof benchConversationsRealTime>>): void {
  console.log(`\nRUN relay in real time: ${rt.conversations} conversations at once against ${rt.target} (wall clock, offline caller, local simulator)`);
  console.log(`  load average (1/5/15 min) before ${rt.load_before.join(" / ")}, after ${rt.load_after.join(" / ")} on ${availableParallelism()} cores; this process used ${rt.cpu_cores.toFixed(2)} cores`);
  console.log(`  trials: ${Object.entries(rt.statuses).map(([k, n]) => `${n} ${k}`).join(", ")}; wall ${s(rt.wall_ms)} for a longest conversation of ${s(rt.longest_timeline_ms)}`);
  console.log(`  tick lag over ${rt.ticks.toLocaleString("en-US")} ticks of 20 ms: p50 ${rt.p50_ms}–${rt.p50_ms + 1} ms, p99 ${rt.p99_ms}–${rt.p99_ms + 1} ms, max ${rt.max_ms}–${rt.max_ms + 1} ms`);
  console.log(`  pacer lag events (a tick whose deadline had passed): ${rt.lag_events}, worst ${rt.max_lag_ms.toFixed(1)} ms, ${s(rt.total_lag_ms)} in all`);
}

const speech = new CachedSynthesizer(new EspeakSynthesizer(), { root: mkdtempSync(join(tmpdir(), "crashlab-bench-")) });

/**
 * A whole run of the bundled package, RUN conversations included (the offline caller, as `crashlab run`
 * holds them): trials per second and how much faster than its own timeline it ran.
 */
async function wholeRun(target: string, repetitions: number, extra: RunOptions = {}): Promise<Row> {
  const started = performance.now();
  const result = await run(PLAN, { target, repetitions, concurrency: 1, speech, conversation: offlineCaller(), ...extra });
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

const only = process.argv.slice(2).filter((a) => !/^\d+$/.test(a));
/** Numbers on the command line: how many sessions `pnpm bench sessions` holds at once (default 32). */
const counts = process.argv.slice(2).filter((a) => /^\d+$/.test(a)).map(Number);
const want = (name: string) => only.length === 0 || only.includes(name);
if (want("world")) print("world engine (restaurant)", await benchWorld());
if (want("audio")) print("audio core", await benchAudio());
if (want("speech")) print("caller speech (espeak-ng, offline)", await benchSpeech());
if (want("walk")) print("WALK acoustic conditions (10 s of audio)", await benchWalk());
if (want("timeline")) print("timeline metrics", await benchTimeline());
// The bundled suite × 5 as a user runs it (build first: it runs dist/cli.js), then a profiled pass for the stages.
if (want("run")) printWholeRun(measureWholeRun(["--repetitions", "5"]), only.includes("no-profile") ? null : profileWholeRun(["--repetitions", "5"]));
if (want("wire")) {
  const wire = [];
  for (let i = 0; i < 5; i++) wire.push(await benchWire());
  printWire(wire);
}
if (only.includes("run-inprocess")) {
  const rows = [await wholeRun("text_restaurant", 5), await wholeRun("restaurant", 1), await wholeRun("restaurant", 5)];
  print("whole runs in this process (library run(), virtual time, concurrency 1; × real time = trial timelines ÷ wall time)", rows);
}
if (want("realtime")) print("real-time pacing (wall clock)", [await wholeRun("restaurant", 1, { real_time: true, selection: { ids: ["harbor_003", "harbor_008", "harbor_024"] } })]);
if (want("conversation")) {
  const offline = await benchConversationsOffline();
  const w = Math.max(...offline.conversations.map((c) => c.case_id.length));
  console.log(`\nRUN conversations offline (virtual time, concurrency 1, caller speech cached, the assistant's synthesized by the simulator as it goes; × faster = conversation timeline ÷ wall time)`);
  console.log(`  ${"conversation".padEnd(w)}  ${"status".padEnd(8)}  ${"timeline".padStart(9)}  ${"wall".padStart(8)}  ${"× faster".padStart(9)}`);
  for (const c of offline.conversations) console.log(`  ${c.case_id.padEnd(w)}  ${c.status.padEnd(8)}  ${s(c.timeline_ms).padStart(9)}  ${s(c.wall_ms).padStart(8)}  ${fmt(c.x_faster, 1).padStart(9)}`);
  console.log(`  ${"all".padEnd(w)}  ${"".padEnd(8)}  ${s(offline.timeline_ms).padStart(9)}  ${s(offline.wall_ms).padStart(8)}  ${fmt(offline.x_faster, 1).padStart(9)}`);
  console.log(`  first pass, also synthesizing every caller line: ${s(offline.cold.timeline_ms)} of conversation in ${s(offline.cold.wall_ms)} (${fmt(offline.cold.x_faster, 1)}× faster)`);
  printRealTime(await benchConversationsRealTime(8));
}
// Not in a plain `pnpm bench` (another minute of wall clock): the same, with the assistant's speech cached.
if (only.includes("conversation-cached-voice")) printRealTime(await benchConversationsRealTime(8, "restaurant_cached_voice"));
if (want("report")) {
  const r = await benchReport(2000);
  console.log(`\nreport.html at ${r.trials.toLocaleString("en-US")} trials (CRAWL and WALK with audio; ${r.browser}, headless)`);
  console.log(`  built from the run folder in ${(r.build_ms / 1000).toFixed(1)} s (${(r.build_ms / r.trials).toFixed(1)} ms per trial)`);
  console.log(`  size ${(r.bytes / 1e6).toFixed(1)} MB (${Math.round(r.bytes / r.trials).toLocaleString("en-US")} bytes per trial, no audio inside)`);
  console.log(`  load to a drawn overview and list (median of 3): ${Math.round(r.load_ms)} ms · search over the list: ${Math.round(r.search_ms)} ms · open one trial's viewer: ${Math.round(r.open_trial_ms)} ms`);
}
// Whole CLI runs as child processes (build first: they run dist/cli.js). Minutes each: not in a plain `pnpm bench`.
if (only.includes("memory")) {
  // Each from a fresh copy of the package: both start with an empty speech cache, as on a fresh clone.
  const small = measureRun("--tag crawl --repetitions 5", ["--tag", "crawl", "--repetitions", "5"], true);
  const large = measureRun("--tag crawl --repetitions 40", ["--tag", "crawl", "--repetitions", "40"], true);
  printScale("peak memory of whole runs (crashlab run, offline, virtual time, empty speech cache)", [small, large]);
  console.log(`  peak RSS at 40 repetitions ÷ at 5: ${(large.peak_rss_mb / small.peak_rss_mb).toFixed(2)} (target ≤ 1.20)`);
}
// One thread against worker threads, whole CLI runs measured with /usr/bin/time (`pnpm bench cores [repetitions]`, default 5).
if (only.includes("cores")) printCores(benchCores(counts[0] ?? 5));
if (only.includes("disk")) printScale("bytes on disk of the default run (crashlab run --repetitions 5)", [measureRun("--repetitions 5", ["--repetitions", "5"])]);
// Real-time sessions held at once by one process (wall clock, a minute or so each): not in a plain `pnpm bench`.
if (only.includes("sessions")) for (const n of counts.length > 0 ? counts : [32]) printSessions(await benchSessions(n));
// The same through the built CLI (pnpm build first), with the journal, artifacts and report it writes.
if (only.includes("sessions-cli")) for (const n of counts.length > 0 ? counts : [32]) printSessions(benchSessionsCli(n), "crashlab run, child process");
// Recorded latency alone and with others at once, real time (a few minutes): not in a plain `pnpm bench`.
if (only.includes("latency")) printLatency(await benchLatency(counts[0] ?? 8));
