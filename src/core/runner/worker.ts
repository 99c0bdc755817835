/**
 * The trial worker thread's side: load the package, rebuild the run the main thread resolved from the
 * request — its settings turned into engine options by the function the main thread used, never from a
 * command line — say ready, then run each trial handed over and send it back stored.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { GitState } from "../provenance/digest";
import { redactor, type Redact } from "../services/redact";
import { conversationLine } from "../report/console";
import { rebuildRun, trialContext } from "../run/run";
import { runTrial } from "../trial/index";
import { planWithDatasets } from "../package/datasets";
import { loadPackage } from "../package/load";
import { engineOptions } from "./engine";
import type { RunRequest } from "./request";
import { storeTrial, type StoredTrial } from "./store-trial";

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
  | { type: "done"; stored: StoredTrial }
  /** The trial ran but could not be stored (its artifacts could not be written). */
  | { type: "lost"; trial_id: string; message: string };

export async function serveTrials(alpha: Record<string, unknown>): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error("serveTrials runs in a worker thread");
  const request = workerData as RunRequest;
  let runOne: (trial_id: string, run: WorkerRun) => Promise<StoredTrial>;
  try {
    runOne = await prepare(request, alpha, (text) => port.postMessage({ type: "line", text } satisfies FromWorker));
  } catch (error) {
    port.postMessage({ type: "load_failed", message: String((error as Error)?.message ?? error) } satisfies FromWorker);
    port.close();
    return;
  }
  port.on("message", (message: ToWorker) => {
    runOne(message.trial_id, message.run).then(
      (stored) => port.postMessage({ type: "done", stored } satisfies FromWorker),
      (error: unknown) => port.postMessage({ type: "lost", trial_id: message.trial_id, message: String((error as Error)?.message ?? error) } satisfies FromWorker),
    );
  });
  port.postMessage({ type: "ready" } satisfies FromWorker);
}

async function prepare(request: RunRequest, alpha: Record<string, unknown>, line: (text: string) => void): Promise<(trial_id: string, run: WorkerRun) => Promise<StoredTrial>> {
  const { settings } = request;
  const pkg = await loadPackage(request.package.file, alpha, request.package.cache_dir);
  const plan = settings.data.length > 0 ? planWithDatasets(pkg.plan, settings.data, request.cwd, pkg.file) : pkg.plan;
  const where = { package_dir: pkg.dir, package_digest: request.package.digest, ...(request.package.identity ? { package_identity: request.package.identity } : {}), cwd: request.cwd, conversations: request.conversations };
  const options = engineOptions(settings, request.credentials, where, settings.verbose ? (l) => line(conversationLine(l)) : undefined);
  const resolved = rebuildRun(plan, options, request.run);
  const specs = new Map(resolved.trials.map((t) => [t.trial_id, t]));
  const redact = request.secrets.reduce<Redact>((inner, layer) => { const outer = redactor(layer); return (text) => outer(inner(text)); }, (text) => text);
  const tags = Object.fromEntries(resolved.trials.map((t) => [t.case.id, t.case.tags]));
  return async (trial_id, run) => {
    const spec = specs.get(trial_id);
    if (!spec) throw new Error(`the worker's run has no trial ${trial_id}: it was not in the run request`);
    const { record, media, catalog, reference } = await runTrial(trialContext(plan, options, resolved, spec, run.git));
    return storeTrial(record, media, catalog, { runDir: run.runDir, redact, artifacts: settings.artifacts, tags, verbose: settings.verbose }, reference);
  };
}
