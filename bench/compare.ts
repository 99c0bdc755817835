/**
 * `pnpm bench compare <git-ref>`: the default offline run of this tree against the same run of another
 * commit, in paired rounds. The other commit is built in a temporary git worktree; each round runs both
 * builds' `crashlab run --repetitions 5` back to back (which goes first alternates round by round), the
 * first round only warms caches and is discarded, and every run must exit 0. Per build it prints the median
 * and spread of wall time, CPU, peak RSS and the audio timeline covered per second of wall, and the ratio
 * previous ÷ current with a bootstrap interval over the paired rounds (bench/compare-stats.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { BOOTSTRAP_RESAMPLES, pairedRatio, spread, verdict, type PairedRatio, type Spread } from "./compare-stats";

const here = resolve(import.meta.dirname, "..");

export const USAGE = `usage: pnpm bench compare <git-ref> [--rounds N] [--repetitions N] [--dry-run]

  Builds <git-ref> in a temporary git worktree, then alternates whole default runs of it and of this tree
  (node dist/cli.js run --repetitions N --quiet), N rounds of both; the first round is a warm-up and is
  discarded. Prints each build's median and spread of wall time, CPU, peak RSS and × audio timeline, and
  the wall and CPU ratios previous ÷ current with a 95% percentile-bootstrap interval over the paired rounds.

  --rounds N       rounds of both builds, the warm-up included (default 5, at least 2)
  --repetitions N  --repetitions of each run (default 5, the README's default run)
  --dry-run        resolve the ref and print what would be built and run; build and run nothing`;

export interface CompareOptions {
  ref: string;
  rounds: number;
  repetitions: number;
  dryRun: boolean;
}

/** A failure the user can act on; `exitCode` 2 for a bad command line or ref, 1 for a build or run that failed. */
export class CompareError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

function count(flag: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new CompareError(`${flag} takes a whole number of at least ${min}, not "${text}"\n\n${USAGE}`, 2);
  return Number(text);
}

/** The command line after `compare`; null when it asks for help. */
export function parseCompareArgs(argv: string[]): CompareOptions | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { rounds: { type: "string" }, repetitions: { type: "string" }, "dry-run": { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    throw new CompareError(`${(error as Error).message}\n\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) return null;
  if (positionals.length === 0) throw new CompareError(`give the git ref to compare this tree with (a branch, a tag or a commit, e.g. main)\n\n${USAGE}`, 2);
  if (positionals.length > 1) throw new CompareError(`one git ref only, not ${positionals.map((p) => `"${p}"`).join(" ")}\n\n${USAGE}`, 2);
  return {
    ref: positionals[0]!,
    rounds: count("--rounds", values.rounds, 5, 2),
    repetitions: count("--repetitions", values.repetitions, 5, 1),
    dryRun: values["dry-run"] ?? false,
  };
}

export type BuildName = "previous" | "current";

export interface ComparePlan {
  repo: string;
  previous: { ref: string; sha: string; short: string; subject: string };
  current: { sha: string; short: string; dirty: boolean; label: string; dist: "fresh" | "stale" | "missing" };
  rounds: number;
  repetitions: number;
  /** Which build runs first in each round (1-based; round 1 is the warm-up). */
  order: BuildName[][];
  runArgs: string[];
}

function git(repo: string, args: string[]): string {
  return execFileSync("git", args, { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** Newest modification time of the files under `dir` (0 when it does not exist). */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const s = statSync(path);
    latest = Math.max(latest, s.isDirectory() ? newest(path) : s.mtimeMs);
  }
  return latest;
}

/** Whether `dist/cli.js` is older than what it is built from (src/, the build config, package.json). */
export function distState(root: string): "fresh" | "stale" | "missing" {
  const cli = join(root, "dist", "cli.js");
  if (!existsSync(cli)) return "missing";
  const inputs = Math.max(newest(join(root, "src")), ...["tsup.config.ts", "package.json"].map((f) => (existsSync(join(root, f)) ? statSync(join(root, f)).mtimeMs : 0)));
  return inputs > statSync(cli).mtimeMs ? "stale" : "fresh";
}

/** Resolves the ref and this tree's state; touches nothing. */
export function planCompare(options: CompareOptions, repo = here): ComparePlan {
  let sha: string;
  try {
    sha = git(repo, ["rev-parse", "--verify", "--quiet", `${options.ref}^{commit}`]);
  } catch {
    throw new CompareError(`"${options.ref}" is not a commit in ${repo} (git rev-parse found none): give a branch, a tag or a commit hash, e.g. main or ${git(repo, ["rev-parse", "--short", "HEAD"])}`, 2);
  }
  const head = git(repo, ["rev-parse", "HEAD"]);
  const dirty = git(repo, ["status", "--porcelain"]) !== "";
  const short = (s: string) => s.slice(0, 7);
  const order: BuildName[][] = [];
  for (let round = 1; round <= options.rounds; round++) order.push(round % 2 === 1 ? ["previous", "current"] : ["current", "previous"]);
  return {
    repo,
    previous: { ref: options.ref, sha, short: short(sha), subject: git(repo, ["log", "-1", "--format=%s", sha]) },
    current: { sha: head, short: short(head), dirty, label: dirty ? `${short(head)} + changes` : short(head), dist: distState(repo) },
    rounds: options.rounds,
    repetitions: options.repetitions,
    order,
    runArgs: ["run", "--repetitions", String(options.repetitions), "--quiet"],
  };
}

export function describePlan(plan: ComparePlan): string[] {
  const p = plan.previous;
  const lines = [
    `previous: ${p.ref === p.short ? p.short : `${p.ref} (${p.short})`} "${p.subject.length > 72 ? `${p.subject.slice(0, 72)}…` : p.subject}", built in a temporary git worktree (pnpm install --frozen-lockfile --offline, online if that fails; pnpm build)`,
    `current:  this tree, ${plan.repo} at ${plan.current.label}; dist/ ${plan.current.dist === "fresh" ? "is up to date" : `is ${plan.current.dist}: pnpm build runs here first`}`,
  ];
  if (p.sha === plan.current.sha && !plan.current.dirty) lines.push("both are the same commit: an A/A comparison, which shows this machine's noise");
  lines.push(`each run: node dist/cli.js ${plan.runArgs.join(" ")} --results-dir <temporary folder>, from its own tree`);
  plan.order.forEach((o, i) => lines.push(`round ${i + 1}${i === 0 ? " (warm-up, discarded)" : ""}: ${o.join(", then ")}`));
  return lines;
}

export interface RunMeasure {
  build: BuildName;
  round: number;
  wall_ms: number;
  user_ms: number;
  system_ms: number;
  peak_rss_mb: number;
  timeline_ms: number;
  trials: number;
  statuses: Record<string, number>;
}

/** What crashlab's exit codes mean (docs/cli.md, "Exit codes"). */
const EXIT_MEANING: Record<number, string> = {
  1: "a required gate failed",
  2: "input error",
  3: "infrastructure errors only",
  4: "a verifier error of the package",
  129: "interrupted",
  130: "interrupted",
  143: "interrupted",
};

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

const TAIL = 4000;

/** Everything a compare holds that must not outlive it: the worktree, the temporary folder, the child running now. */
class Session {
  base: string | null = null;
  worktree: string | null = null;
  child: ChildProcess | null = null;
  interrupted: NodeJS.Signals | null = null;

  constructor(readonly repo: string) {}

  /** Runs a command in its own process group (so a signal reaches all it started), keeping its output's tail. */
  exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Exit> {
    this.checkInterrupt();
    return new Promise((done, fail) => {
      const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      this.child = child;
      let output = "";
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString("utf8")).slice(-TAIL);
      };
      child.stdout!.on("data", keep);
      child.stderr!.on("data", keep);
      child.on("error", (error) => {
        this.child = null;
        fail(new CompareError(`could not start ${command}: ${error.message}`));
      });
      child.on("close", (code, signal) => {
        this.child = null;
        done({ code, signal, output });
      });
    }).then((exit) => {
      this.checkInterrupt();
      return exit as Exit;
    });
  }

  checkInterrupt(): void {
    if (this.interrupted) throw new Interrupted(this.interrupted);
  }

  kill(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone already.
    }
  }

  /** Synchronous, so it also runs from a signal handler and on exit; safe to call more than once. */
  cleanup(): void {
    this.kill("SIGKILL");
    let removed = true;
    if (this.worktree) {
      try {
        git(this.repo, ["worktree", "remove", "--force", this.worktree]);
      } catch {
        removed = false; // its folder goes below; then prune forgets it
      }
      this.worktree = null;
    }
    if (this.base) {
      rmSync(this.base, { recursive: true, force: true });
      this.base = null;
    }
    if (!removed) {
      try {
        git(this.repo, ["worktree", "prune"]);
      } catch {
        // Nothing left to prune.
      }
    }
  }
}

class Interrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted (${signal})`);
  }
}

const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** The environment for a nested pnpm: without the outer `pnpm bench`'s package and script variables. */
function nestedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(npm_package_|npm_lifecycle_|PNPM_SCRIPT_SRC_DIR$|INIT_CWD$)/.test(k)) env[k] = v;
  return env;
}

function failure(what: string, exit: Exit): CompareError {
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited ${exit.code}`;
  return new CompareError(`${what} ${how}. The last of its output:\n${exit.output.trimEnd()}`);
}

/** Builds `sha` in a worktree under `session.base`; returns the worktree's path. */
async function buildPrevious(session: Session, plan: ComparePlan, log: (line: string) => void): Promise<string> {
  const tree = join(session.base!, "build");
  log(`building ${plan.previous.short} in a temporary worktree (${tree})`);
  const add = await session.exec("git", ["worktree", "add", "--detach", tree, plan.previous.sha], session.repo);
  if (add.code !== 0) throw failure(`git worktree add for ${plan.previous.short}`, add);
  session.worktree = tree;
  // --ignore-scripts: the package's own `prepare` is the same tsup build that follows; dependencies run no
  // install scripts under pnpm 10 unless allowed, and patches apply either way.
  const install = ["install", "--frozen-lockfile", "--ignore-scripts"];
  let installed = await session.exec("pnpm", [...install, "--offline"], tree, nestedEnv());
  if (installed.code !== 0) {
    log("  an offline install lacked packages; installing from the registry");
    installed = await session.exec("pnpm", install, tree, nestedEnv());
    if (installed.code !== 0) throw failure(`pnpm install in the worktree of ${plan.previous.short}`, installed);
  }
  const built = await session.exec("pnpm", ["build"], tree, nestedEnv());
  if (built.code !== 0) throw failure(`pnpm build of ${plan.previous.short}`, built);
  if (!existsSync(join(tree, "dist", "cli.js"))) throw new CompareError(`pnpm build of ${plan.previous.short} left no dist/cli.js: that commit cannot run \`crashlab run\``);
  return tree;
}

interface Results {
  trials: Array<{ status: string; duration_ms: number }>;
}

/** One whole run of a build, measured from outside; a run that does not exit 0 ends the comparison. */
async function measure(session: Session, plan: ComparePlan, build: BuildName, round: number, root: string, label: string): Promise<RunMeasure> {
  const out = join(session.base!, `run-${round}-${build}`);
  const usageFile = join(session.base!, `usage-${round}-${build}.json`);
  const args = ["--require", join(here, "bench", "usage.cjs"), join(root, "dist", "cli.js"), ...plan.runArgs, "--results-dir", out];
  const started = performance.now();
  const exit = await session.exec(process.execPath, args, root, { ...process.env, CRASHLAB_BENCH_USAGE_FILE: usageFile, OPENAI_API_KEY: "" });
  const wall_ms = performance.now() - started;
  const what = `round ${round}: the run of ${label} (node dist/cli.js ${plan.runArgs.join(" ")} in ${root})`;
  if (exit.code !== 0) {
    const meaning = exit.code !== null && EXIT_MEANING[exit.code] ? ` (${EXIT_MEANING[exit.code]})` : "";
    const e = failure(what, exit);
    const gates = exit.code === 1 || exit.code === 3 || exit.code === 4 ? "Every run must pass its gates: a faster build that fails them is no win. " : "";
    throw new CompareError(`${e.message.replace(/exited (\d+)\./, `exited $1${meaning}.`)}\n${gates}Fix that run, then compare again.`);
  }
  if (!existsSync(usageFile)) throw new CompareError(`${what} exited 0 but wrote no resource usage (bench/usage.cjs): it may have left by a path that skips Node's exit event`);
  const usage = JSON.parse(readFileSync(usageFile, "utf8")) as { userCPUTime: number; systemCPUTime: number; maxRSS: number };
  const runDir = existsSync(out) ? readdirSync(out).map((d) => join(out, d)).find((d) => existsSync(join(d, "results.json"))) : undefined;
  if (!runDir) throw new CompareError(`${what} exited 0 but left no results.json under ${out}`);
  const results = JSON.parse(readFileSync(join(runDir, "results.json"), "utf8")) as Results;
  rmSync(out, { recursive: true, force: true });
  rmSync(usageFile, { force: true });
  const statuses: Record<string, number> = {};
  for (const t of results.trials) statuses[t.status] = (statuses[t.status] ?? 0) + 1;
  return {
    build,
    round,
    wall_ms,
    user_ms: usage.userCPUTime / 1000,
    system_ms: usage.systemCPUTime / 1000,
    peak_rss_mb: usage.maxRSS / 1024,
    timeline_ms: results.trials.reduce((n, t) => n + t.duration_ms, 0),
    trials: results.trials.length,
    statuses,
  };
}

export interface BuildSummary {
  runs: number;
  trials: number;
  statuses: Record<string, number>;
  timeline_s: number;
  wall_s: Spread;
  user_s: Spread;
  system_s: Spread;
  cpu_s: Spread;
  peak_rss_mb: Spread;
  x_timeline: Spread;
}

export interface CompareSummary {
  previous: BuildSummary;
  current: BuildSummary;
  wall: PairedRatio;
  cpu: PairedRatio;
  /** Rounds whose two runs held different trial counts or timelines (the builds ran different suites). */
  same_work: boolean;
}

function summarizeBuild(runs: RunMeasure[]): BuildSummary {
  const s = (f: (r: RunMeasure) => number) => spread(runs.map(f));
  return {
    runs: runs.length,
    trials: runs[0]!.trials,
    statuses: runs[0]!.statuses,
    timeline_s: runs[0]!.timeline_ms / 1000,
    wall_s: s((r) => r.wall_ms / 1000),
    user_s: s((r) => r.user_ms / 1000),
    system_s: s((r) => r.system_ms / 1000),
    cpu_s: s((r) => (r.user_ms + r.system_ms) / 1000),
    peak_rss_mb: s((r) => r.peak_rss_mb),
    x_timeline: s((r) => r.timeline_ms / r.wall_ms),
  };
}

/** The measured rounds (the warm-up already left out), paired by round. */
export function summarize(measured: RunMeasure[]): CompareSummary {
  const rounds = [...new Set(measured.map((m) => m.round))].sort((a, b) => a - b);
  const pick = (build: BuildName) => rounds.map((round) => measured.find((m) => m.round === round && m.build === build)!);
  const previous = pick("previous");
  const current = pick("current");
  return {
    previous: summarizeBuild(previous),
    current: summarizeBuild(current),
    wall: pairedRatio(
      previous.map((m) => m.wall_ms),
      current.map((m) => m.wall_ms),
    ),
    cpu: pairedRatio(
      previous.map((m) => m.user_ms + m.system_ms),
      current.map((m) => m.user_ms + m.system_ms),
    ),
    same_work: measured.every((m) => m.trials === measured[0]!.trials && m.timeline_ms === measured[0]!.timeline_ms),
  };
}

/** Fewer measured rounds than this print the ratio without an interval (the default 5 rounds give 4). */
export const MIN_ROUNDS_FOR_INTERVAL = 3;
/** Fewer measured rounds than this give an interval too narrow to claim on (it spans at most the rounds' own range). */
const CLAIM_ROUNDS = 8;

const f = (x: number, digits: number) => x.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The summary as the command prints it. */
/** The 1-minute load average when the comparison started and the highest seen after a round. */
export interface MachineLoad {
  cores: number;
  at_start: number;
  max_after_round: number;
}

/** A warning when the machine was not quiet: other work then moves the numbers more than a change does. */
export function loadWarning(load: MachineLoad): string | null {
  // The comparison's own run keeps every core busy: a load of about the core count is its own.
  const busy = load.at_start > 1 || load.max_after_round > load.cores + 1;
  if (!busy) return null;
  return `  the machine was not quiet (load average ${load.at_start.toFixed(1)} at the start, up to ${load.max_after_round.toFixed(1)} after a round, on ${load.cores} cores; the runs themselves account for about ${load.cores}): other work moved these numbers; measure again when it is idle`;
}

export function formatSummary(plan: ComparePlan, s: CompareSummary, load?: MachineLoad): string[] {
  const names: Record<BuildName, string> = { previous: `previous ${plan.previous.short}`, current: `current ${plan.current.label}` };
  const w = Math.max(...Object.values(names).map((n) => n.length));
  const lines: string[] = [];
  const measured = s.previous.runs;
  lines.push(`\n${measured} measured rounds per build (round 1 was the warm-up): median [min–max] (IQR q1–q3)`);
  const rows: Array<[string, (b: BuildSummary) => Spread, number]> = [
    ["wall (s)", (b) => b.wall_s, 1],
    ["user CPU (s)", (b) => b.user_s, 1],
    ["system CPU (s)", (b) => b.system_s, 1],
    ["peak RSS (MB)", (b) => b.peak_rss_mb, 0],
    ["× audio timeline", (b) => b.x_timeline, 0],
  ];
  for (const [metric, pick, digits] of rows) {
    lines.push(`  ${metric}`);
    for (const build of ["previous", "current"] as const) {
      const v = pick(s[build]);
      lines.push(`    ${names[build].padEnd(w)}  ${f(v.median, digits).padStart(7)}  [${f(v.min, digits)}–${f(v.max, digits)}]  (IQR ${f(v.q1, digits)}–${f(v.q3, digits)})`);
    }
  }
  for (const build of ["previous", "current"] as const) {
    const b = s[build];
    lines.push(`  ${names[build].padEnd(w)}  ${b.trials} trials (${Object.entries(b.statuses).map(([k, n]) => `${n} ${k}`).join(", ")}), ${f(b.timeline_s, 0)} s of audio timeline per run; CPU ÷ wall ${f(b.cpu_s.median / b.wall_s.median, 2)}`);
  }
  lines.push(`  every run exited 0 (its gates passed): ${2 * measured + 2} runs, warm-up included`);
  const warning = load ? loadWarning(load) : null;
  if (warning) lines.push(warning);
  if (!s.same_work) lines.push("  the builds ran different work (trial counts or timelines differ): compare their × audio timeline, not their wall time");
  const rounds = `${measured} paired round${measured === 1 ? "" : "s"}`;
  const enough = measured >= MIN_ROUNDS_FOR_INTERVAL;
  const ratio = (name: string, r: PairedRatio) =>
    `${name} previous ÷ current: ${f(r.median, 3)} (median of ${rounds}${enough ? `; ${Math.round(r.confidence * 100)}% interval ${f(r.low, 3)}–${f(r.high, 3)}` : ""}); per round ${r.per_round.map((x) => f(x, 3)).join(", ")}`;
  lines.push("");
  for (const [name, measure, r] of [["wall", "wall time", s.wall], ["CPU (user + system)", "CPU", s.cpu]] as const) {
    lines.push(ratio(name, r));
    if (enough) lines.push(`  → ${verdict(r, measure)}${measured < CLAIM_ROUNDS ? ` (from ${rounds}: a hint, not a claim)` : ""}`);
  }
  if (!enough) lines.push(`  (no interval from ${rounds}: it takes ${MIN_ROUNDS_FOR_INTERVAL} measured rounds at least, --rounds ${MIN_ROUNDS_FOR_INTERVAL + 1})`);
  else
    lines.push(
      `  (intervals: percentile bootstrap over the paired rounds, ${BOOTSTRAP_RESAMPLES.toLocaleString("en-US")} resamples of whole rounds, fixed seed${measured < CLAIM_ROUNDS ? `; from ${rounds} an interval cannot reach past the smallest and largest per-round ratio and is too narrow: --rounds 9 or more for a claim` : ""})`,
    );
  return lines;
}

/** `pnpm bench compare …`; resolves to the process's exit code. */
export async function compare(argv: string[], log: (line: string) => void = (l) => console.log(l), warn: (line: string) => void = (l) => console.error(l)): Promise<number> {
  let options: CompareOptions | null;
  let plan: ComparePlan;
  try {
    options = parseCompareArgs(argv);
    if (!options) {
      log(USAGE);
      return 0;
    }
    plan = planCompare(options);
  } catch (error) {
    if (!(error instanceof CompareError)) throw error;
    warn(`pnpm bench compare: ${error.message}`);
    return error.exitCode;
  }
  for (const line of describePlan(plan)) log(line);
  if (options.dryRun) return 0;

  const session = new Session(plan.repo);
  const onSignal = (signal: NodeJS.Signals) => {
    if (session.interrupted) {
      session.cleanup();
      process.exit(SIGNAL_EXIT[signal] ?? 1);
    }
    session.interrupted = signal;
    warn(`\npnpm bench compare: ${signal}: stopping the command under way, then removing the temporary worktree and folders (again to stop at once)`);
    session.kill("SIGTERM");
    setTimeout(() => session.kill("SIGKILL"), 3000).unref();
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  for (const s of signals) process.on(s, onSignal);
  const onExit = () => session.cleanup();
  process.on("exit", onExit);
  try {
    const load: MachineLoad = { cores: availableParallelism(), at_start: loadavg()[0]!, max_after_round: 0 };
    log(`load average ${loadavg().map((l) => l.toFixed(2)).join(" / ")} on ${load.cores} cores, node ${process.version}`);
    session.base = mkdtempSync(join(tmpdir(), "crashlab-bench-compare-"));
    if (plan.current.dist !== "fresh") {
      log(`building the current tree (dist/ is ${plan.current.dist})`);
      const built = await session.exec("pnpm", ["build"], plan.repo, nestedEnv());
      if (built.code !== 0) throw failure("pnpm build of the current tree", built);
    }
    const roots: Record<BuildName, string> = { previous: await buildPrevious(session, plan, log), current: plan.repo };
    const labels: Record<BuildName, string> = { previous: plan.previous.short, current: plan.current.label };
    const measured: RunMeasure[] = [];
    for (const [i, order] of plan.order.entries()) {
      const round = i + 1;
      const parts: string[] = [];
      for (const build of order) {
        const m = await measure(session, plan, build, round, roots[build], labels[build]);
        if (round > 1) measured.push(m);
        parts.push(`${labels[build]} ${f(m.wall_ms / 1000, 1)} s (${f(m.timeline_ms / m.wall_ms, 0)}×, CPU ${f((m.user_ms + m.system_ms) / 1000, 1)} s, RSS ${f(m.peak_rss_mb, 0)} MB)`);
      }
      const now = loadavg()[0]!;
      if (round > 1) load.max_after_round = Math.max(load.max_after_round, now);
      log(`round ${round}/${plan.rounds}${round === 1 ? " (warm-up, discarded)" : ""}: ${parts.join("; ")}; load ${now.toFixed(2)}`);
    }
    for (const line of formatSummary(plan, summarize(measured), load)) log(line);
    return 0;
  } catch (error) {
    if (error instanceof Interrupted) return SIGNAL_EXIT[error.signal] ?? 1;
    if (!(error instanceof CompareError)) throw error;
    warn(`pnpm bench compare: ${error.message}`);
    return error.exitCode;
  } finally {
    session.cleanup();
    process.off("exit", onExit);
    for (const s of signals) process.off(s, onSignal);
  }
}
