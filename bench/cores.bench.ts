/**
 * `pnpm bench cores [repetitions]`: whole `crashlab run` processes (the built dist/cli.js) of the bundled
 * suite at --concurrency 1 (one thread) and at the default (one worker thread per core), measured from
 * outside with `/usr/bin/time -v`: wall time, CPU time (user + sys) ÷ wall — how many cores the run kept
 * busy — peak RSS, and the audio timeline covered per second of wall time.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..");

export interface CoresRow {
  label: string;
  trials: number;
  concurrency: number;
  wall_s: number;
  user_s: number;
  sys_s: number;
  peak_rss_mb: number;
  timeline_s: number;
  exit_code: number;
}

/** `/usr/bin/time -v` reports "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:45.12". */
function clock(text: string): number {
  return text
    .trim()
    .split(":")
    .reduce((sum, part) => sum * 60 + Number(part), 0);
}

export function measureCores(label: string, args: string[]): CoresRow {
  if (!existsSync("/usr/bin/time")) throw new Error("pnpm bench cores needs /usr/bin/time (Debian: apt-get install -y time)");
  if (!existsSync(join(repo, "dist", "cli.js"))) throw new Error("pnpm bench cores runs dist/cli.js: run `pnpm build` first");
  const out = mkdtempSync(join(tmpdir(), "crashlab-cores-"));
  const child = spawnSync("/usr/bin/time", ["-v", process.execPath, join(repo, "dist", "cli.js"), "run", ...args, "--quiet", "--results-dir", join(out, "results")], {
    cwd: repo,
    env: { ...process.env, OPENAI_API_KEY: "" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const field = (name: string) => {
    const line = child.stderr.split("\n").find((l) => l.trim().startsWith(name));
    if (!line) throw new Error(`/usr/bin/time printed no "${name}":\n${child.stderr.slice(-2000)}`);
    return line.slice(line.lastIndexOf(": ") + 2);
  };
  const runDir = join(out, "results", readdirSync(join(out, "results"))[0]!);
  const results = JSON.parse(readFileSync(join(runDir, "results.json"), "utf8")) as { run: { concurrency: number }; trials: Array<{ duration_ms: number }> };
  const row: CoresRow = {
    label,
    trials: results.trials.length,
    concurrency: results.run.concurrency,
    wall_s: clock(field("Elapsed (wall clock) time")),
    user_s: Number(field("User time (seconds)")),
    sys_s: Number(field("System time (seconds)")),
    peak_rss_mb: Number(field("Maximum resident set size (kbytes)")) / 1024,
    timeline_s: results.trials.reduce((sum, t) => sum + t.duration_ms, 0) / 1000,
    exit_code: child.status ?? -1,
  };
  rmSync(out, { recursive: true, force: true });
  return row;
}

export function benchCores(repetitions: number): CoresRow[] {
  const reps = ["--repetitions", String(repetitions)];
  return [measureCores(`--repetitions ${repetitions} --concurrency 1`, [...reps, "--concurrency", "1"]), measureCores(`--repetitions ${repetitions} (default concurrency)`, reps)];
}

export function printCores(rows: CoresRow[]): void {
  console.log(`\nwhole bundled suite, one thread against worker threads (crashlab run, offline, virtual time; ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(2)).join(" / ")})`);
  for (const r of rows) {
    const cpu = r.user_s + r.sys_s;
    console.log(
      `  ${r.label.padEnd(40)} ${String(r.trials).padStart(4)} trials  concurrency ${r.concurrency}  wall ${r.wall_s.toFixed(1).padStart(6)} s  user+sys ${cpu.toFixed(1).padStart(6)} s  (user+sys)÷wall ${(cpu / r.wall_s).toFixed(2)}  peak RSS ${r.peak_rss_mb.toFixed(0).padStart(4)} MB  audio timeline ÷ wall ${(r.timeline_s / r.wall_s).toFixed(0)}×  exit ${r.exit_code}`,
    );
  }
  if (rows.length === 2) console.log(`  wall at concurrency 1 ÷ wall at the default: ${(rows[0]!.wall_s / rows[1]!.wall_s).toFixed(2)}`);
}
