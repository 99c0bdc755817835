/**
 * `crashlab run --resume <run-dir>` and `--last-failed`. A resumed run is the same run: the command
 * line stored in its run.json, its id and start; the trials its journal holds are not run again, and
 * results.json, junit.xml and the report are rebuilt from the whole journal. A plan that changed since
 * (package files, target, settings, trial list) is refused unless `--force`.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { indexJournal, JOURNAL_FILE, JournalError, JournalReader } from "../journal/journal";
import { readRunMeta, lastRun, RunMetaError, type RunMeta } from "../journal/run-meta";
import { ResultsTrial } from "../record/results";
import { parseShard } from "../run/shard";
import type { ResolvedRunOptions } from "./options";
import { parseRunArgs, UsageError, type RawRunArgs } from "./options";
import { CRASHLAB_VERSION } from "../version";

/** What may be given beside --resume: how the rest is shown and paced, never what the trials do. */
const WITH_RESUME = new Set(["resume", "force", "quiet", "json", "verbose", "visualize", "concurrency", "listen"]);

export interface Resumption {
  dir: string;
  meta: RunMeta;
  /** Where the resumed run works: the folder the run started in (when it still exists). */
  cwd: string;
  cli: RawRunArgs;
}

/** The run's own command line, with the presentation flags given now laid over it. */
export function resumeArgs(cli: RawRunArgs, cwd: string): Resumption {
  const extra = Object.keys(cli).filter((k) => (cli as Record<string, unknown>)[k] !== undefined && !WITH_RESUME.has(k));
  if (extra.length > 0)
    throw new UsageError(
      `--resume reruns a run with the settings it started with; ${extra.map((k) => `--${k}`).join(", ")} cannot be changed on resume (beside --resume only --force, --concurrency, --quiet, --json, --verbose, --visualize and --listen are taken) — start a new run to change them`,
    );
  const dir = resolve(cwd, cli.resume!);
  const meta = readRunMeta(dir);
  let stored: RawRunArgs;
  try {
    stored = parseRunArgs(meta.argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw new UsageError(`${join(dir, "run.json")}: the command line it stored (${meta.argv.join(" ")}) does not parse: ${error.message}; the run folder was edited or written by another crashlab version — start the run again`);
  }
  if (stored.shard !== undefined) {
    try {
      parseShard(stored.shard);
    } catch (error) {
      throw new UsageError(`${join(dir, "run.json")}: the command line it stored (${meta.argv.join(" ")}) does not parse: ${(error as Error).message}; the run folder was edited or written by another crashlab version — start the run again`);
    }
  }
  checkJournal(dir, meta);
  const shown: Partial<RawRunArgs> = {};
  for (const k of ["quiet", "json", "verbose", "visualize", "concurrency", "listen"] as const) if (cli[k] !== undefined) (shown as Record<string, unknown>)[k] = cli[k];
  // The run goes on in the folder it started in, so its relative paths (--package, --data, the package
  // found without --package, --results-dir) mean what they meant; a folder that is gone leaves this one.
  const started = typeof meta.cwd === "string" && existsSync(meta.cwd) ? meta.cwd : cwd;
  return { dir, meta, cwd: started, cli: { ...stored, ...shown, resume: dir, force: cli.force } };
}

/**
 * The journal's rows, checked before the resumed run writes anything (its run.json comes first): a row
 * that does not parse or lies outside this shard's slice would otherwise be found only after the run
 * folder was changed.
 */
function checkJournal(dir: string, meta: RunMeta): void {
  const file = join(dir, JOURNAL_FILE);
  if (!existsSync(file)) return;
  if (!statSync(file).isFile()) throw new RunMetaError(`${file} is not a file: the run folder is damaged — start the run again`);
  const entries = indexJournal(file).entries;
  const seen = new Set<string>();
  const slice = meta.shard ? new Set(meta.shard.trials) : null;
  const reader = new JournalReader(file);
  try {
    for (const [i, e] of entries.entries()) {
      const at = `${file}, line ${i + 1}`;
      // A trial journaled twice (two writers at once) is not refused: the resume keeps its first row and says so.
      if (seen.has(e.trial_id)) continue;
      seen.add(e.trial_id);
      if (slice && !slice.has(e.trial_id))
        throw new JournalError(`${at}: trial ${e.trial_id} is not in shard ${meta.shard!.index}/${meta.shard!.count}'s slice (run.json's shard.trials); the journal was edited or another shard's rows were copied in — run that shard again`);
      const row = ResultsTrial.safeParse(reader.read(e));
      if (!row.success) {
        const issue = row.error.issues[0]!;
        throw new JournalError(`${at}: the row of ${e.trial_id} does not match this crashlab version's results schema (field ${issue.path.join(".")}: ${issue.message}); the journal was edited or written by another crashlab version — start the run again`);
      }
    }
  } finally {
    reader.close();
  }
}

/** The plan digest's inputs from the resolved settings, secrets left out. */
export function digestInputs(options: ResolvedRunOptions, extra: Record<string, unknown>): Record<string, unknown> {
  const j = options.judge;
  const t = options.target_settings;
  return {
    crashlab_version: CRASHLAB_VERSION,
    ...extra,
    target_settings: { mode: t.mode, delegation: t.delegation, endpoint: t.endpoint, model: t.model, backend_model: t.backend_model, real_time: t.real_time },
    real_time: options.real_time,
    audio: options.audio,
    speech: { provider: options.speech.provider, voice: options.speech.voice, tts_model: options.speech.tts_model },
    // Where each service is reached (never its key): a different endpoint is a different experiment.
    services: Object.fromEntries(
      Object.entries(options.services).map(([name, s]) => [name, s && typeof s === "object" ? { kind: "kind" in s ? s.kind : s.provider, endpoint: "endpoint" in s ? (s.endpoint ?? null) : null } : s]),
    ),
    speech_detector: options.speech_detector,
    response_deadline_ms: options.response_deadline_ms ?? null,
    conditions: options.conditions,
    conversation: options.conversation,
    judge: j ? { model: j.model, reasoning_effort: j.reasoning_effort, repetitions: j.repetitions, max_retries: j.max_retries, timeout_ms: j.timeout_ms, endpoint: j.endpoint } : null,
  };
}

/** The refusal when the plan changed since the run began. */
export function planChanged(meta: RunMeta, now: string): UsageError {
  return new UsageError(
    `the plan of run ${meta.run_id} changed since it started (plan digest ${meta.plan_digest.slice(0, 19)}… is now ${now.slice(0, 19)}…): the package's files, the target, its settings or the trial list differ, so the finished trials and the rest would not be one experiment — start a new run, or pass --force to finish this one with the changed plan (finished trials keep what they recorded)`,
  );
}

/** `--last-failed`: the cases of the most recent run under the results folder with a trial that did not pass. */
export function lastFailedCases(resultsDir: string): { run_id: string; cases: string[] } {
  const last = lastRun(resultsDir);
  if (!last) throw new UsageError(`--last-failed found no earlier run in ${resultsDir} (no folder with a run.json); run once without it first, or point --results-dir at the runs`);
  const cases = [...new Set(last.entries.filter((e) => e.status !== "passed").map((e) => e.case_id))];
  return { run_id: last.meta.run_id, cases };
}
