/**
 * run.json: what a run folder needs to be resumed (or merged with its sibling shards) — its resolved
 * settings (and the command line it was started with, for people), its run id and start, and the plan
 * digest: one sha256 over everything that decides what each trial does (package files, crashlab version,
 * target, the full list of trials with their seeds, limits, gates, and every setting that decides what a
 * trial does or how it is judged). Written before the first trial.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../provenance/digest";
import type { PackageIdentity } from "../provenance/package-files";
import type { RunSettings } from "../settings/schema";
import { writeFileAtomic } from "../files/atomic";
import { readRunFile } from "../run-folder/files";
import { shown } from "../run-folder/text";
import { indexJournal, JOURNAL_FILE, type JournalEntry } from "./journal";
import { UserError } from "../user-error";

export const RUN_META_FILE = "run.json";
export const RUN_META_VERSION = 1;

export interface RunMeta {
  run_meta_version: typeof RUN_META_VERSION;
  run_id: string;
  started_at: string;
  plan_digest: string;
  /** The evaluation package's digest when the run started: every journal row must carry it (or a forced resume's). */
  package_digest?: string;
  /** What that digest covers: every file the package loaded (path relative to `root`, sha256), the lockfile, dependency versions, git state. */
  package?: PackageIdentity;
  /** The run's seed: every trial's seed derives from it, and journal rows are checked against it. */
  seed?: number;
  /** The `crashlab run` arguments it was started with (never a secret: keys come from the environment); what resume rebuilds from when `settings` is absent (folders written before it was stored). */
  argv: string[];
  /** Every setting as resolved when the run started (no key is a setting): what resume runs with. */
  settings?: RunSettings;
  /** The folder `crashlab run` was started in: relative paths in `argv` are relative to it. */
  cwd?: string;
  /** Each time the run was resumed: when, and whether a changed plan was forced. */
  resumes: Array<{ at: string; forced: boolean; plan_digest: string; package_digest?: string }>;
  /** `--shard i/n`: this shard and the trial ids it runs; with `plan_trials`, every trial of the plan in order. */
  shard?: { index: number; count: number; trials: string[] };
  plan_trials?: string[];
}

/** A run folder that cannot be resumed or read as a run: says which and why. */
export class RunMetaError extends UserError {
  override readonly name = "RunMetaError";
}

/** JSON with object keys sorted, so a digest does not depend on the order settings were written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** The plan digest of a run's inputs (see the module comment); the caller leaves secrets out. */
export function planDigest(inputs: Record<string, unknown>): string {
  return `sha256:${sha256(canonical(inputs))}`;
}

export function writeRunMeta(runDir: string, meta: RunMeta): void {
  writeFileAtomic(join(runDir, RUN_META_FILE), JSON.stringify(meta, null, 2) + "\n");
}

export function readRunMeta(runDir: string): RunMeta {
  if (!existsSync(runDir) || !statSync(runDir).isDirectory()) throw new RunMetaError(`${runDir} is not a folder: pass the folder of one run (results/<run-id>), as printed when it started`);
  const file = join(runDir, RUN_META_FILE);
  // Through the run folder's checks: a link out of the folder, a FIFO or a folder in its place is refused.
  const bytes = readRunFile(runDir, RUN_META_FILE, { bytes: 64 << 20, what: "a run.json may hold (it lists the run's trials); it was not written by crashlab — start the run again" });
  if (!bytes)
    throw new RunMetaError(`${runDir} holds no ${RUN_META_FILE}: it is not a run folder, or it was written by a crashlab that could not resume runs — start the run again`);
  let meta: RunMeta;
  try {
    meta = JSON.parse(bytes.toString("utf8")) as RunMeta;
  } catch (error) {
    throw new RunMetaError(`${file} is not valid JSON (${shown((error as Error).message)}); the run folder is damaged — start the run again`);
  }
  if (
    meta?.run_meta_version !== RUN_META_VERSION ||
    typeof meta.run_id !== "string" ||
    typeof meta.started_at !== "string" ||
    typeof meta.plan_digest !== "string" ||
    !Array.isArray(meta.argv) ||
    !meta.argv.every((a) => typeof a === "string") ||
    (meta.settings !== undefined && (typeof meta.settings !== "object" || meta.settings === null || Array.isArray(meta.settings)))
  )
    throw new RunMetaError(`${file} is not a run description this crashlab reads (run_meta_version ${RUN_META_VERSION} with run_id, started_at, plan_digest and argv, and its settings an object); start the run again`);
  // A shard's slice is what merge and resume trust to know which trials belong where: it must add up.
  if (meta.shard !== undefined && meta.shard !== null) {
    const problem = shardProblem(meta.shard, meta.plan_trials);
    if (problem) throw new RunMetaError(`${file}: ${problem}; the run folder was edited or damaged — run that shard again`);
  }
  return { ...meta, shard: meta.shard ?? undefined, resumes: Array.isArray(meta.resumes) ? meta.resumes : [] };
}

/** What is wrong with a run.json's shard and plan_trials, or null. */
function shardProblem(shard: unknown, planTrials: unknown): string | null {
  const ids = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");
  const { index, count, trials } = (typeof shard === "object" && shard !== null ? shard : {}) as Record<string, unknown>;
  const whole = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 1;
  if (!whole(count) || !whole(index) || (index as number) > (count as number) || !ids(trials) || !ids(planTrials))
    return `its shard needs a whole index and count and a list of trial ids, and plan_trials a list of trial ids (the index from 1 to the count; got shard ${JSON.stringify(shard)?.slice(0, 80)})`;
  const plan = new Set(planTrials);
  if (plan.size !== planTrials.length) return `plan_trials lists a trial twice (${planTrials.find((id, i) => planTrials.indexOf(id) !== i)})`;
  const outside = trials.find((id) => !plan.has(id));
  if (outside !== undefined) return `shard.trials names ${outside}, which plan_trials does not list`;
  if (new Set(trials).size !== trials.length) return `shard.trials lists a trial twice (${trials.find((id, i) => trials.indexOf(id) !== i)})`;
  return null;
}

/** The most recent run folder under a results folder (by start time), with its journal's entries; null when there is none. */
export function lastRun(resultsDir: string): { dir: string; meta: RunMeta; entries: JournalEntry[] } | null {
  if (!existsSync(resultsDir)) return null;
  let best: { dir: string; meta: RunMeta } | null = null;
  for (const name of readdirSync(resultsDir)) {
    // A hidden folder is a merge still being written (or killed midway), not a run.
    if (name.startsWith(".")) continue;
    const dir = join(resultsDir, name);
    if (!existsSync(join(dir, RUN_META_FILE))) continue;
    let meta: RunMeta;
    try {
      meta = readRunMeta(dir);
    } catch {
      continue;
    }
    if (!best || meta.started_at > best.meta.started_at) best = { dir, meta };
  }
  return best ? { ...best, entries: indexJournal(join(best.dir, JOURNAL_FILE)).entries } : null;
}
