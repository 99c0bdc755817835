/**
 * A run executed into its session's folder: trials in this thread or in worker threads, each finished
 * trial stored (artifacts written), journaled and handed to the reporters; then the outputs — summary,
 * gates, results.json, junit.xml, report.html — built once, from the journal, whatever ran the trials.
 */
import { gitState, type GitState } from "../provenance/digest";
import { writeOutputsFromJournal, type JournalOutputs } from "../report/from-journal";
import type { Redact } from "../services/redact";
import type { ResultsContext } from "../report/results";
import { writeRunReport } from "../report/run-folder";
import type { ArtifactPolicy } from "../report/artifacts";
import { runEach, trialContext, type LoopResult, type ResolvedRun, type RunOptions, type RunResult } from "../run/run";
import type { Plan } from "../run/plan";
import { lostTrial } from "../trial/lost";
import { trialOutcome } from "../run/outcome";
import { runTrial } from "../trial/index";
import type { TrialPool } from "./pool";
import type { RunSession } from "./session";
import { storeTrial, storeTrialPaced, type StoredTrial } from "./store-trial";

/** What watches a run: told as it begins, as each trial ends (after it is journaled), and once its outputs exist. */
export interface RunReporter {
  onRunBegin?(begin: { run_dir: string; run_id: string; total: number; finished_before: number; resumed: boolean }): void;
  onTrialEnd?(trial: StoredTrial, done: number, total: number): void | Promise<void>;
  onRunEnd?(end: { run_dir: string; result: RunResult; outputs: JournalOutputs; report: string }): void | Promise<void>;
}

export interface Execution {
  plan: Plan;
  /** The engine's options (caller speech, conversations, signals…). */
  options: RunOptions;
  resolved: ResolvedRun;
  session: RunSession;
  /** Worker threads to run trials in; absent: this thread. */
  pool?: TrialPool | null;
  artifacts: ArtifactPolicy;
  verbose: boolean;
  redact: Redact;
  reporters: readonly RunReporter[];
  /** The run facts results.json states that the engine does not know (concurrency, digests…). */
  results: ResultsContext;
}

export interface Executed {
  result: RunResult;
  outputs: JournalOutputs;
  report: string;
}

export async function execute(x: Execution): Promise<Executed> {
  const { plan, resolved, session } = x;
  const skip = session.finished;
  const tags = Object.fromEntries(resolved.trials.map((t) => [t.case.id, t.case.tags]));
  const storing = { runDir: session.dir, redact: x.redact, artifacts: x.artifacts, tags, verbose: x.verbose };
  const total = resolved.trials.length;
  for (const r of x.reporters) r.onRunBegin?.({ run_dir: session.dir, run_id: session.meta.run_id, total, finished_before: resolved.trials.filter((t) => skip.has(t.trial_id)).length, resumed: session.meta.resumes.length > 0 });
  const report = async (trial: StoredTrial, done: number, all: number) => {
    session.append(trial.row);
    for (const r of x.reporters) await r.onTrialEnd?.(trial, done, all);
  };
  const options: RunOptions = { ...x.options, keep_records: false, skip };
  const git: GitState = x.options.package?.identity?.git ?? (x.options.package?.dir ? gitState(x.options.package.dir) : { commit: null, dirty: null });
  let loop: LoopResult;
  const pool = x.pool;
  try {
    if (pool) {
      pool.begin({ runDir: session.dir, git });
      loop = await runEach(options, resolved, async (spec) => {
        const pooled = await pool.run(spec.trial_id);
        // A trial its worker lost (the worker died) still ends with a record: infrastructure_error at stage "worker".
        let trial: StoredTrial;
        if ("stored" in pooled) trial = pooled.stored;
        else {
          const lost = await lostTrial(trialContext(plan, options, resolved, spec, git), "worker", pooled.lost);
          trial = storeTrial(lost.record, lost.media, lost.catalog, storing, lost.reference);
        }
        return { outcome: trial.outcome, report: (done, all) => report(trial, done, all) };
      });
    } else {
      // Real time: other sessions' audio ticks run between this trial's files.
      const yieldToOtherSessions = () => new Promise<void>((resolve) => setImmediate(resolve));
      loop = await runEach(options, resolved, async (spec) => {
        const { record, media, catalog, reference } = await runTrial(trialContext(plan, options, resolved, spec, git));
        const outcome = trialOutcome(record);
        return {
          outcome,
          report: async (done, all) => report(options.real_time ? await storeTrialPaced(yieldToOtherSessions, record, media, catalog, storing, reference) : storeTrial(record, media, catalog, storing, reference), done, all),
        };
      });
    }
  } finally {
    session.journal.close();
  }
  // The workers' part is done: they stop (and free their memory) while the outputs are written.
  const stopping = pool?.close();
  // Summary, gates and decision are computed once, from the journal: it holds a resumed run's earlier trials too.
  const header = {
    run_id: session.meta.run_id,
    plan: plan.name,
    target: resolved.target_name,
    seed: resolved.seed,
    repetitions: resolved.repetitions,
    started_at: session.meta.resumes.length > 0 ? session.meta.started_at : loop.started_at,
    finished_at: loop.finished_at,
    gate_config: resolved.gate_config,
  };
  const outputs = writeOutputsFromJournal(session.dir, session.journalPath, resolved.trials.map((t) => t.trial_id), header, loop.interruption, x.results, x.redact);
  // The report is built from the run folder alone, exactly as `crashlab view` would rebuild it.
  const reportFile = await writeRunReport(session.dir, x.redact, true);
  await stopping;
  const result: RunResult = { ...header, records: loop.records, gates: outputs.gates, decision: outputs.decision, interruption: loop.interruption, summary: outputs.summary };
  const executed = { result, outputs, report: reportFile };
  for (const r of x.reporters) await r.onRunEnd?.({ run_dir: session.dir, ...executed });
  return executed;
}
