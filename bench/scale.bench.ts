/**
 * Whole `crashlab run` processes, measured from outside: peak RSS (memory must not grow with the number
 * of trials: the journal releases each one) and the bytes each run leaves on disk, per trial.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..");

export interface ScaleRow {
  label: string;
  trials: number;
  peak_rss_mb: number;
  wall_s: number;
  bytes: number;
  bytes_per_trial: number;
  exit_code: number;
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const s = statSync(path);
    total += s.isDirectory() ? folderBytes(path) : s.size;
  }
  return total;
}

/**
 * A copy of the bundled package (crashlab/ and the examples it imports) in a fresh folder, so the run
 * starts with an empty `.audio_cache/` beside it: runs compared with each other then start alike (a run
 * that finds its speech cached synthesizes nothing and holds less).
 */
function freshPackageCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "crashlab-scale-package-"));
  for (const folder of ["crashlab", "examples"]) cpSync(join(repo, folder), join(dir, folder), { recursive: true });
  symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/**
 * One `crashlab run` child (the built dist/cli.js) with its peak RSS and its run folder's size; with
 * `cold`, run from a fresh copy of the package, with nothing in its speech cache.
 */
export function measureRun(label: string, args: string[], cold = false): ScaleRow {
  const out = mkdtempSync(join(tmpdir(), "crashlab-scale-"));
  const rssFile = join(out, "rss");
  const cwd = cold ? freshPackageCopy() : repo;
  const started = performance.now();
  const child = spawnSync(process.execPath, ["--require", join(repo, "bench", "max-rss.cjs"), join(repo, "dist", "cli.js"), "run", ...args, "--quiet", "--results-dir", join(out, "results")], {
    cwd,
    env: { ...process.env, CRASHLAB_BENCH_RSS_FILE: rssFile, OPENAI_API_KEY: "" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const wall = performance.now() - started;
  const runDir = join(out, "results", readdirSync(join(out, "results"))[0]!);
  const results = JSON.parse(readFileSync(join(runDir, "results.json"), "utf8")) as { trials: unknown[] };
  const bytes = folderBytes(runDir);
  const row: ScaleRow = {
    label,
    trials: results.trials.length,
    peak_rss_mb: Number(readFileSync(rssFile, "utf8")) / 1024,
    wall_s: wall / 1000,
    bytes,
    bytes_per_trial: bytes / Math.max(1, results.trials.length),
    exit_code: child.status ?? -1,
  };
  rmSync(out, { recursive: true, force: true });
  if (cold) rmSync(cwd, { recursive: true, force: true });
  return row;
}

export function printScale(title: string, rows: ScaleRow[]): void {
  console.log(`\n${title}`);
  for (const r of rows)
    console.log(
      `  ${r.label.padEnd(44)} ${String(r.trials).padStart(5)} trials  peak RSS ${r.peak_rss_mb.toFixed(0).padStart(4)} MB  ${r.wall_s.toFixed(0).padStart(4)} s  on disk ${(r.bytes / 1e6).toFixed(1).padStart(7)} MB (${Math.round(r.bytes_per_trial / 1000).toLocaleString("en-US")} kB per trial)  exit ${r.exit_code}`,
    );
}
