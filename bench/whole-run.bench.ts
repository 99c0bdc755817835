/**
 * `pnpm bench run`: the bundled suite × 5 as a user runs it (`crashlab run --repetitions 5`, default
 * settings, the built dist/cli.js in a child process), measured from outside: wall time, the sum of the
 * trials' audio timelines and their ratio, user and system CPU against wall time (how many cores the run
 * used), and peak RSS. A second, profiled run (the same built CLI, `--cpu-prof`, every thread) splits the
 * CPU per trial by stage, each frame mapped back to its source file through dist/'s source maps. Profiling
 * slows a run down, so the shares come from the second run and the times from the first. The machine is
 * shared: the load average is printed beside the figures.
 *
 * Why the built CLI and not the sources through tsx: tsx keeps function names by wrapping every function
 * it creates in a `__name` call (an `Object.defineProperty`), so code that makes closures per audio frame
 * looked several times dearer in a tsx profile than it is in dist/, where no such call exists.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { SourceMap } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(import.meta.dirname, "..");

export interface WholeRun {
  args: string[];
  trials: number;
  statuses: Record<string, number>;
  wall_ms: number;
  timeline_ms: number;
  user_ms: number;
  system_ms: number;
  peak_rss_mb: number;
  exit_code: number;
  load_before: number[];
}

interface Results {
  trials: Array<{ status: string; duration_ms: number }>;
}

function readRun(resultsDir: string): Results {
  const runDir = join(resultsDir, readdirSync(resultsDir)[0]!);
  return JSON.parse(readFileSync(join(runDir, "results.json"), "utf8")) as Results;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** One `crashlab run` child with the built CLI; its CPU and peak memory from its own resource usage at exit. */
export function measureWholeRun(args: string[]): WholeRun {
  const out = mkdtempSync(join(tmpdir(), "crashlab-bench-run-"));
  const usageFile = join(out, "usage.json");
  const load_before = loadavg().map(round2);
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--require", join(repo, "bench", "usage.cjs"), join(repo, "dist", "cli.js"), "run", ...args, "--quiet", "--results-dir", join(out, "results")], {
    cwd: repo,
    env: { ...process.env, CRASHLAB_BENCH_USAGE_FILE: usageFile, OPENAI_API_KEY: "" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const wall_ms = performance.now() - started;
  const usage = JSON.parse(readFileSync(usageFile, "utf8")) as { userCPUTime: number; systemCPUTime: number; maxRSS: number };
  const results = readRun(join(out, "results"));
  rmSync(out, { recursive: true, force: true });
  const statuses: Record<string, number> = {};
  for (const t of results.trials) statuses[t.status] = (statuses[t.status] ?? 0) + 1;
  return {
    args,
    trials: results.trials.length,
    statuses,
    wall_ms,
    timeline_ms: results.trials.reduce((n, t) => n + t.duration_ms, 0),
    user_ms: usage.userCPUTime / 1000,
    system_ms: usage.systemCPUTime / 1000,
    peak_rss_mb: usage.maxRSS / 1024,
    exit_code: child.status ?? -1,
    load_before,
  };
}

/**
 * Where a sample's CPU goes: the first frame from the leaf upward whose source file belongs to a stage
 * (a native leaf such as JSON.parse or writev counts for the code that called it).
 */
const STAGES: Array<[string, RegExp]> = [
  ["loading code (startup)", /\/(tsx|esbuild|jiti)@|node:internal\/modules|\/get-tsconfig@/],
  ["language layer (compromise parses, spoken values, claims)", /\/compromise@|\/src\/core\/language\//],
  ["simulator speech (espeak-ng, resampling)", /espeak-ng-emscripten|\/src\/core\/speech\/|\/src\/core\/audio\/resample\.ts|\/src\/core\/simulator\/voice\.ts/],
  ["wire (ws framing, JSON, base64, protocol checks)", /\/ws@|\/zod@|\/src\/core\/(live|simulator|gpt-live-target)\/|node:net|node:internal\/(stream_base_commons|net)|node:internal\/streams/],
  ["artifacts, journal and report (files, WAV, gzip)", /\/src\/core\/(report|journal|files)\/|node:zlib|node:internal\/fs|node:fs|\/src\/core\/audio\/wav\.ts/],
  ["caller audio (synthesis lookup, chunks, pacing, conditions, RUN caller)", /\/src\/core\/(audio|walk|caller)\/|\/src\/core\/trial\/(single-turn\/(deliver|caller-input)|conversation\/)/],
  ["the package (offline policy, world, datasets)", /\/examples\/|\/crashlab\/|\/src\/core\/(world|dataset)\/|\/immer@|\/fast-json-patch@/],
  ["grading and metrics (checks, judge, gates, timeline)", /\/src\/core\/(verify|judge|gate|timeline|record|trial)\//],
  ["run and CLI", /\/src\/core\/(run|runner|cli|provenance|target)\/|\/src\/cli\.ts/],
];

export interface StageBreakdown {
  total_ms: number;
  stages: Array<{ stage: string; ms: number }>;
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

/**
 * A frame's source file: for a frame in a built file that has a source map beside it (dist/*.js.map), the
 * file the map names for that position; any other frame as it is.
 */
export function frameSource(frame: CallFrame, maps = new Map<string, SourceMap | null>()): string {
  if (!frame.url.startsWith("file://") || !frame.url.endsWith(".js")) return frame.url;
  let map = maps.get(frame.url);
  if (map === undefined) {
    const file = `${fileURLToPath(frame.url)}.map`;
    map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, "utf8"))) : null;
    maps.set(frame.url, map);
  }
  const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string } | undefined;
  if (!entry?.originalSource) return frame.url;
  const original = entry.originalSource.startsWith("file://") ? fileURLToPath(entry.originalSource) : resolve(dirname(fileURLToPath(frame.url)), entry.originalSource);
  return pathToFileURL(original).href;
}

/** Self time of every thread's profile in `dir`, attributed to stages. */
export function stageBreakdown(dir: string): StageBreakdown {
  const maps = new Map<string, SourceMap | null>();
  const totals = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
      nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
      samples: number[];
      timeDeltas: number[];
    };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const sourceOf = new Map(profile.nodes.map((n) => [n.id, frameSource(n.callFrame, maps)]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const stageOf = new Map<number, string>();
    const classify = (id: number): string => {
      const known = stageOf.get(id);
      if (known) return known;
      const name = byId.get(id)!.callFrame.functionName;
      let stage = name === "(garbage collector)" ? "garbage collection" : name === "(idle)" ? "idle" : "";
      for (let at: number | undefined = id; !stage && at !== undefined; at = parent.get(at)) {
        const url = sourceOf.get(at)!;
        if (url) stage = STAGES.find(([, re]) => re.test(url))?.[0] ?? "";
      }
      stage ||= "other (native, unattributed)";
      stageOf.set(id, stage);
      return stage;
    };
    profile.samples.forEach((id, i) => {
      const us = profile.timeDeltas[i + 1] ?? 0;
      const stage = classify(id);
      totals.set(stage, (totals.get(stage) ?? 0) + us / 1000);
      if (stage !== "idle") total += us / 1000;
    });
  }
  return { total_ms: total, stages: [...totals].map(([stage, ms]) => ({ stage, ms })).sort((a, b) => b.ms - a.ms) };
}

/** The profiled pass: the built CLI, all threads profiled; frames are named by source file through dist/'s maps. */
export function profileWholeRun(args: string[]): { breakdown: StageBreakdown; trials: number } {
  const out = mkdtempSync(join(tmpdir(), "crashlab-bench-profile-"));
  const profiles = join(out, "profiles");
  spawnSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", profiles, join(repo, "dist", "cli.js"), "run", ...args, "--quiet", "--results-dir", join(out, "results")], {
    cwd: repo,
    env: { ...process.env, OPENAI_API_KEY: "" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const trials = readRun(join(out, "results")).trials.length;
  const breakdown = stageBreakdown(profiles);
  rmSync(out, { recursive: true, force: true });
  return { breakdown, trials };
}

export function printWholeRun(r: WholeRun, profile: { breakdown: StageBreakdown; trials: number } | null): void {
  const cpu = r.user_ms + r.system_ms;
  console.log(`\ncrashlab run ${r.args.join(" ")} (the bundled suite, offline, default settings; built CLI in a child process)`);
  console.log(`  load average before ${r.load_before.join(" / ")} on ${availableParallelism()} cores`);
  console.log(`  ${r.trials} trials (${Object.entries(r.statuses).map(([k, n]) => `${n} ${k}`).join(", ")}), exit ${r.exit_code}`);
  console.log(`  wall ${(r.wall_ms / 1000).toFixed(1)} s for ${(r.timeline_ms / 1000).toFixed(0)} s of audio timelines: ${(r.timeline_ms / r.wall_ms).toFixed(0)}× faster than the audio`);
  console.log(`  CPU: user ${(r.user_ms / 1000).toFixed(1)} s + system ${(r.system_ms / 1000).toFixed(1)} s = ${(cpu / r.wall_ms).toFixed(2)} × wall (cores in use); ${(cpu / r.trials).toFixed(0)} ms per trial`);
  console.log(`  peak RSS ${r.peak_rss_mb.toFixed(0)} MB`);
  if (!profile) return;
  const { breakdown, trials } = profile;
  console.log(`  CPU per trial by stage (a profiled run of the built CLI, every thread, frames mapped to their sources: ${(breakdown.total_ms / trials).toFixed(0)} ms per trial busy, the profiler's own cost included)`);
  for (const s of breakdown.stages) {
    const share = s.stage === "idle" ? "" : `${((100 * s.ms) / breakdown.total_ms).toFixed(0).padStart(3)}%`;
    console.log(`    ${(s.ms / trials).toFixed(1).padStart(7)} ms  ${share.padStart(4)}  ${s.stage}`);
  }
}
