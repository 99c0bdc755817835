import { parentPort, workerData } from "node:worker_threads";
import type { GitState } from "../provenance/digest";
import { redactor, type Redact } from "../report/redact";
import { resolveRun, trialContext } from "../run/run";
import { runTrial } from "../trial/index";
import type { ConversationLine } from "../trial/context";
import { planWithDatasets } from "./dataset-plan";
import { loadPackage } from "./load-package";
import { resolveOptions, type RawRunArgs } from "./options";
import { callerSpeech, conversationLine, conversationSettings, runOptionsOf } from "./run-settings";
import { settleTrial, type SettledTrial } from "./trial-output";

/**
 * What a trial worker is given to rebuild the run the main thread resolved: a PLAN holds closures
 * (targets, worlds, verifiers), so it cannot cross threads; the worker loads the same package file with
 * the same command line and datasets and resolves the same run, then runs the trials it is handed.
 */
export interface WorkerSetup {
  /** The package's evaluations file, as the main thread found it. */
  file: string;
  /** Where the main thread cached the package's transpiled code (workers load it from there). */
  cacheDir?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** The run's command line, parsed (a resumed run's own). */
  cli: RawRunArgs;
  /** The selected case ids after --last-failed chose them. */
  ids: string[];
  package_digest: string;
  /** The secrets to redact, in the layers the main thread applies them (the command line's, then the PLAN's). */
  secrets: string[][];
}

/** Where the run writes and the package's git state: known once the run folder exists (after the workers load). */
export interface WorkerRun {
  runDir: string;
  git: GitState;
}

/** Main thread → worker: run this trial. */
export type ToWorker = { type: "trial"; trial_id: string; run: WorkerRun };

/** Worker → main thread. */
export type FromWorker =
  | { type: "ready" }
  | { type: "load_failed"; message: string }
  /** A --verbose conversation line, as it happens. */
  | { type: "line"; text: string }
  | { type: "done"; settled: SettledTrial }
  /** The trial ran but could not be settled (its artifacts could not be written). */
  | { type: "lost"; trial_id: string; message: string };

/** The worker thread's side: load, resolve, say ready, then run each trial handed over and send it back settled. */
export async function serveTrials(alpha: Record<string, unknown>): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error("serveTrials runs in a worker thread");
  const setup = workerData as WorkerSetup;
  let runOne: (trial_id: string, run: WorkerRun) => Promise<SettledTrial>;
  try {
    runOne = await prepare(setup, alpha, (line) => port.postMessage({ type: "line", text: conversationLine(line) } satisfies FromWorker));
  } catch (error) {
    port.postMessage({ type: "load_failed", message: String((error as Error)?.message ?? error) } satisfies FromWorker);
    port.close();
    return;
  }
  port.on("message", (message: ToWorker) => {
    runOne(message.trial_id, message.run).then(
      (settled) => port.postMessage({ type: "done", settled } satisfies FromWorker),
      (error: unknown) => port.postMessage({ type: "lost", trial_id: message.trial_id, message: String((error as Error)?.message ?? error) } satisfies FromWorker),
    );
  });
  port.postMessage({ type: "ready" } satisfies FromWorker);
}

/** The run as the main thread resolved it, rebuilt here; returns how to run and settle one trial of it. */
async function prepare(setup: WorkerSetup, alpha: Record<string, unknown>, onLine: (line: ConversationLine) => void): Promise<(trial_id: string, run: WorkerRun) => Promise<SettledTrial>> {
  const pkg = await loadPackage(setup.file, alpha, setup.cacheDir);
  const plan = setup.cli.data && setup.cli.data.length > 0 ? planWithDatasets(pkg.plan, setup.cli.data, setup.cwd, pkg.file) : pkg.plan;
  const options = resolveOptions(setup.cli, plan.defaults, setup.env);
  options.ids = setup.ids;
  const runOptions = runOptionsOf(options, pkg.dir);
  const resolved = resolveRun(plan, runOptions);
  const specs = new Map(resolved.trials.map((t) => [t.trial_id, t]));
  const conversation = resolved.trials.some((t) => t.case.kind === "run") ? { ...conversationSettings(options, pkg.dir, setup.cwd), ...(options.verbose ? { onLine } : {}) } : undefined;
  const full = { ...runOptions, package: { dir: pkg.dir, digest: setup.package_digest }, speech: callerSpeech(options.speech, options.services.speech, pkg.dir), ...(conversation ? { conversation } : {}) };
  const redact = setup.secrets.reduce<Redact>((inner, layer) => { const outer = redactor(layer); return (text) => outer(inner(text)); }, (text) => text);
  const tags = Object.fromEntries(resolved.trials.map((t) => [t.case.id, t.case.tags]));
  return async (trial_id, run) => {
    const spec = specs.get(trial_id);
    if (!spec) throw new Error(`the worker's run has no trial ${trial_id}: the package resolved differently in the worker thread`);
    const { record, media, catalog } = await runTrial(trialContext(plan, full, resolved, spec, run.git));
    return settleTrial(record, media, catalog, { runDir: run.runDir, redact, artifacts: options.artifacts, tags, verbose: options.verbose });
  };
}
