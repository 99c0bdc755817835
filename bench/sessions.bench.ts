/**
 * Many real-time sessions in one process (`pnpm bench sessions [n…]`): `n` single-turn trials of the
 * bundled package at once on the wall clock (concurrency n), each its own GPT-Live session on the local
 * simulator, with the caller's audio paced at its real rate. The caller speech is synthesized once
 * beforehand (virtual time), so what is measured is the harness holding n sessions, not espeak-ng.
 *
 * Per trial, the caller stream's own timeline (chunks × chunk length) is compared with the wall time the
 * stream took, read from its events on the real clock (from `caller_audio.started` to `audio.pacing`);
 * a stream that never fell behind has a ratio of 1. Lag is what the pacer reports: a chunk that went out
 * after its deadline, and by how much. The machine is shared: the load average is part of the result.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { PLAN } from "../crashlab/evaluations";
import type { TrialRecord } from "../src/core/record/trial-record";
import { run } from "../src/core/run/run";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";

export interface SessionsResult {
  /** Sessions at once (the concurrency), and the trials run (whole repetitions of the cases taken). */
  sessions: number;
  trials: number;
  statuses: Record<string, number>;
  /** Σ stream wall ÷ Σ stream timeline, and the worst single stream's ratio. */
  ratio: number;
  worst_ratio: number;
  timeline_ms: number;
  chunks: number;
  lag_events: number;
  max_lag_ms: number;
  /** The whole run: wall time against the longest trial's stream timeline. */
  wall_ms: number;
  longest_timeline_ms: number;
  cpu_cores: number;
  load_before: number[];
  load_after: number[];
}

interface Stream {
  timeline_ms: number;
  wall_ms: number;
  chunks: number;
  lag_events: number;
  max_lag_ms: number;
}

/** The caller stream of one real-time trial, from its events (their `at_ms` is the wall clock here). */
export function callerStream(record: TrialRecord): Stream | null {
  const started = record.events.find((e) => e.type === "caller_audio.started");
  const pacing = record.events.find((e) => e.type === "audio.pacing");
  if (!started || !pacing) return null;
  const data = pacing.data as { chunks: number; lag_events: number; max_lag_ms: number };
  const chunkMs = (started.data as { chunk_ms: number }).chunk_ms;
  return { timeline_ms: data.chunks * chunkMs, wall_ms: pacing.at_ms - started.at_ms, chunks: data.chunks, lag_events: data.lag_events, max_lag_ms: data.max_lag_ms };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export async function benchSessions(sessions: number): Promise<SessionsResult> {
  const singleTurn = PLAN.cases.filter((c) => c.kind !== "run");
  // Enough cases for one trial each, or repetitions of all of them.
  const ids = singleTurn.slice(0, sessions).map((c) => c.id);
  const repetitions = Math.ceil(sessions / ids.length);
  const root = mkdtempSync(join(tmpdir(), "crashlab-bench-sessions-"));
  const speech = new CachedSynthesizer(new EspeakSynthesizer(), { root });
  // The simulator's voice on disk too, as the CLI keeps it: its in-memory cache is bounded (8 MB), and a
  // reply it dropped is then read back, not synthesized again on the thread that paces the sessions.
  const base = { target: "restaurant", speech, selection: { ids }, repetitions, target_settings: { simulator_speech_cache: root } } as const;
  await run(PLAN, { ...base, concurrency: 1 }); // caller speech into the cache, engines started
  const load_before = loadavg().map(round2);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = await run(PLAN, { ...base, concurrency: sessions, real_time: true });
  const wall_ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const streams = result.records.map(callerStream).filter((x): x is Stream => x !== null);
  const statuses: Record<string, number> = {};
  for (const r of result.records) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return summarize(sessions, streams, statuses, wall_ms, (used.user + used.system) / 1000 / wall_ms, load_before);
}

function summarize(sessions: number, streams: Stream[], statuses: Record<string, number>, wall_ms: number, cpu_cores: number, load_before: number[]): SessionsResult {
  const timeline_ms = streams.reduce((n, x) => n + x.timeline_ms, 0);
  return {
    sessions,
    trials: Object.values(statuses).reduce((a, b) => a + b, 0),
    statuses,
    ratio: streams.reduce((n, x) => n + x.wall_ms, 0) / timeline_ms,
    worst_ratio: Math.max(...streams.map((x) => x.wall_ms / x.timeline_ms)),
    timeline_ms,
    chunks: streams.reduce((n, x) => n + x.chunks, 0),
    lag_events: streams.reduce((n, x) => n + x.lag_events, 0),
    max_lag_ms: Math.max(0, ...streams.map((x) => x.max_lag_ms)),
    wall_ms,
    longest_timeline_ms: Math.max(...streams.map((x) => x.timeline_ms)),
    cpu_cores,
    load_before,
    load_after: loadavg().map(round2),
  };
}

/**
 * The same through the CLI as a user runs it (`crashlab run --real-time --concurrency n`, the built
 * dist/cli.js in a child process): journal, artifacts and the report are written as trials end, so their
 * cost on the pacing thread is in the figures. A first run in virtual time fills the speech caches.
 */
export function benchSessionsCli(sessions: number): SessionsResult {
  const repo = resolve(import.meta.dirname, "..");
  const ids = PLAN.cases.filter((c) => c.kind !== "run").slice(0, sessions).map((c) => c.id);
  const repetitions = String(Math.ceil(sessions / ids.length));
  const out = mkdtempSync(join(tmpdir(), "crashlab-bench-sessions-cli-"));
  const cli = (extra: string[]) =>
    spawnSync(process.execPath, [join(repo, "dist", "cli.js"), "run", ...ids.flatMap((id) => ["--example", id]), "--repetitions", repetitions, "--quiet", "--results-dir", join(out, "results"), ...extra], {
      cwd: repo,
      env: { ...process.env, OPENAI_API_KEY: "" },
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
  cli(["--run-name", "warm"]);
  const load_before = loadavg().map(round2);
  const t0 = performance.now();
  const child = cli(["--run-name", "measured", "--real-time", "--concurrency", String(sessions)]);
  const wall_ms = performance.now() - t0;
  const runDir = join(out, "results", readdirSync(join(out, "results")).find((name) => name.startsWith("measured"))!);
  if (child.status !== 0) throw new Error(`crashlab run exited ${child.status}: ${child.stderr.slice(0, 2000)}`);
  const results = JSON.parse(readFileSync(join(runDir, "results.json"), "utf8")) as { trials: Array<{ status: string; artifacts: { events: string } }> };
  const statuses: Record<string, number> = {};
  for (const t of results.trials) statuses[t.status] = (statuses[t.status] ?? 0) + 1;
  const streams = results.trials
    .map((t) => {
      const events = gunzipSync(readFileSync(join(runDir, t.artifacts.events))).toString("utf8").trim().split("\n").map((line) => JSON.parse(line) as TrialRecord["events"][number]);
      return callerStream({ events } as TrialRecord);
    })
    .filter((x): x is Stream => x !== null);
  rmSync(out, { recursive: true, force: true });
  // The child's own CPU is not visible from here; -1 says "not measured".
  return summarize(sessions, streams, statuses, wall_ms, -1, load_before);
}

export function printSessions(r: SessionsResult, how = "library run()"): void {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(`\n${r.sessions} real-time sessions at once, ${r.trials} trials (single-turn cases of the bundled package, local simulator, wall clock; ${how})`);
  console.log(`  load average (1/5/15 min) before ${r.load_before.join(" / ")}, after ${r.load_after.join(" / ")} on ${availableParallelism()} cores${r.cpu_cores >= 0 ? `; this process used ${r.cpu_cores.toFixed(2)} cores` : ""}`);
  console.log(`  trials: ${Object.entries(r.statuses).map(([k, n]) => `${n} ${k}`).join(", ")}`);
  console.log(`  caller streams: ${s(r.timeline_ms)} of audio in ${r.chunks.toLocaleString("en-US")} chunks; wall ÷ timeline ${r.ratio.toFixed(3)} overall, ${r.worst_ratio.toFixed(3)} for the worst stream (target ≤ 1.02)`);
  console.log(`  pacing lag: ${r.lag_events} chunk(s) after their deadline, max ${r.max_lag_ms.toFixed(1)} ms`);
  console.log(`  whole run: ${s(r.wall_ms)} wall for a longest stream of ${s(r.longest_timeline_ms)}`);
}
