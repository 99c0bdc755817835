/**
 * `run()` for library callers: the same runner `crashlab run` uses. Without `results_dir` it runs in memory
 * and returns every record; with it, it writes the run folder the CLI writes — run.json, the journal,
 * artifacts, results.json, junit.xml, report.html — and can resume it (`resume`).
 */
import { resolve } from "node:path";
import { readRunMeta, planDigest, RunMetaError } from "../journal/run-meta";
import { redactShapes } from "../services/redact";
import type { ArtifactPolicy } from "../report/artifacts";
import { DEFAULT_ARTIFACT_POLICY } from "../report/artifacts";
import { resolveRun, resolvedRunData, run as runInMemory, type RunOptions, type RunResult } from "../run/run";
import type { Plan } from "../run/plan";
import { CRASHLAB_VERSION } from "../version";
import { execute, type RunReporter } from "./execute";
import { RunSession } from "./session";

export interface LibraryRunOptions extends RunOptions {
  /** Write a run folder under this folder, as `crashlab run --results-dir` does. */
  results_dir?: string;
  /** Finish the run in this folder (one an earlier `run()` of the same plan and options wrote). */
  resume?: string;
  /** Which trials keep their audio in the folder (default: as `crashlab run`). */
  artifacts?: ArtifactPolicy;
  /** Told as the run begins, as each trial ends and once the outputs exist. */
  reporters?: RunReporter[];
}

export interface FolderRunResult extends RunResult {
  /** The run folder; `records` is empty: the trials are in its results.json. */
  run_dir: string;
  results: string;
  report: string;
}

export async function run(plan: Plan, options: LibraryRunOptions & { results_dir: string }): Promise<FolderRunResult>;
export async function run(plan: Plan, options: LibraryRunOptions & { resume: string }): Promise<FolderRunResult>;
export async function run(plan: Plan, options?: LibraryRunOptions): Promise<RunResult>;
export async function run(plan: Plan, options: LibraryRunOptions = {}): Promise<RunResult | FolderRunResult> {
  if (options.results_dir === undefined && options.resume === undefined) return runInMemory(plan, options);
  const resolved = resolveRun(plan, options);
  const package_digest = options.package?.digest ?? "unknown";
  const descriptor = resolved.target.describe();
  // The library's plan digest: what decides what each trial does, as the CLI's covers its settings.
  const plan_digest = planDigest({
    crashlab_version: CRASHLAB_VERSION,
    package_digest,
    target: resolved.target_name,
    target_descriptor: descriptor,
    trials: resolved.trials.map((t) => [t.trial_id, t.seed]),
    limits: resolved.limits,
    gates: resolved.gate_config,
    target_settings: { ...resolved.target_settings, api_key: undefined },
    audio: options.audio ?? null,
    speech_detector: options.speech_detector ?? null,
    response_deadline_ms: options.response_deadline_ms ?? null,
    judge: options.judge ? { model: options.judge.model, reasoning_effort: options.judge.reasoning_effort, repetitions: options.judge.repetitions } : null,
  });
  let resume = null;
  if (options.resume !== undefined) {
    const dir = resolve(options.resume);
    const meta = readRunMeta(dir);
    if (meta.plan_digest !== plan_digest)
      throw new RunMetaError(`${dir}: its run was started with another plan or other options (plan digest ${meta.plan_digest.slice(0, 19)}… is now ${plan_digest.slice(0, 19)}…); resume it with the plan and options it started with, or start a new run`);
    resume = { dir, meta };
    resolved.run_id = meta.run_id;
  }
  const data = resolvedRunData(resolved);
  const session = RunSession.open({
    results_dir: resolve(options.results_dir ?? "results"),
    run_id: resolved.run_id,
    plan_digest,
    package_digest,
    seed: resolved.seed,
    trials: data.trials,
    shard: null,
    gate_config: resolved.gate_config,
    argv: [],
    resume,
  });
  try {
    const { result, outputs, report } = await execute({
      plan,
      options,
      resolved,
      session,
      artifacts: options.artifacts ?? DEFAULT_ARTIFACT_POLICY,
      verbose: false,
      redact: redactShapes,
      reporters: options.reporters ?? [],
      results: {
        concurrency: resolved.concurrency,
        real_time: options.real_time ?? false,
        package_digest,
        target_descriptor: descriptor,
        limits: resolved.limits,
        case_tags: Object.fromEntries(resolved.trials.map((t) => [t.case.id, t.case.tags])),
      },
    });
    return { ...result, records: [], run_dir: session.dir, results: outputs.results, report };
  } finally {
    session.close();
  }
}
