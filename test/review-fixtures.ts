/** Run folders for the review tests: a real results.json row (test/fixtures/review/results.json) cloned into the trials a test needs. */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { ResultsFile } from "../src/core/record/results";

const base = JSON.parse(readFileSync(resolve(import.meta.dirname, "fixtures/review/results.json"), "utf8")) as ResultsFile;

export interface FixtureTrial {
  id: string;
  case?: string;
  status?: "passed" | "failed" | "inconclusive" | "infrastructure_error";
  /** The judge's verdict per semantic verifier (others: not_run). */
  judge?: Record<string, "passed" | "failed" | "inconclusive" | "error" | "not_run" | "not_applicable">;
  digest?: string;
  /** A WALK recording's acoustic condition. */
  condition?: string;
}

export interface FixtureRun {
  run_id?: string;
  started_at?: string;
  trials: FixtureTrial[];
  /** Gate rules added to the run's configuration (outcome required, two semantic clauses advisory). */
  gates?: ResultsFile["gates"]["config"];
  /** reviews.jsonl's text, as is. */
  reviews?: string;
  interrupted?: boolean;
}

const SEMANTIC = ["semantic.task_understanding", "semantic.context_fidelity"];

export function resultsOf(run: FixtureRun): ResultsFile {
  const row = base.trials[0]!;
  const trials = run.trials.map((t) => {
    const status = t.status ?? "passed";
    const assessments = [
      { ...row.assessments.find((a) => a.verifier === "outcome")!, status: status === "passed" ? "passed" : status === "failed" ? "failed" : status === "inconclusive" ? "inconclusive" : "not_run" },
      ...SEMANTIC.map((verifier) => ({ ...row.assessments.find((a) => a.verifier === "semantic.task_understanding")!, verifier, status: t.judge?.[verifier] ?? "not_run" })),
    ];
    return {
      ...row,
      trial_id: t.id,
      case_id: t.case ?? t.id.split("#")[0]!,
      status,
      error: status === "infrastructure_error" ? { stage: "session", message: "refused" } : null,
      assessments,
      input: t.condition ? { ...row.input, recording: { id: "r1", path: "r1.wav", dataset: "walk.json", condition: t.condition, metadata: {} } } : row.input,
      provenance: { ...row.provenance, digest: t.digest ?? `digest-of-${t.id}` },
    };
  });
  const config = {
    outcome: { required: true, min_pass_rate: 1, wilson: false },
    "semantic.task_understanding": { required: false, min_pass_rate: 1, wilson: false },
    "semantic.context_fidelity": { required: false, min_pass_rate: 1, wilson: false },
    ...run.gates,
  };
  return ResultsFile.parse({
    ...base,
    run: {
      ...base.run,
      run_id: run.run_id ?? "run-a",
      started_at: run.started_at ?? "2026-01-01T10:00:00.000Z",
      interrupted: run.interrupted ?? false,
      interrupted_by: run.interrupted ? "SIGINT" : null,
    },
    gates: { ...base.gates, config, ...(run.interrupted ? { decision: "interrupted", exit_code: 130, ok: false } : {}) },
    trials,
  });
}

/** Write a run folder (results.json and, if given, reviews.jsonl) under `parent`; returns its path. */
export function writeRun(parent: string, run: FixtureRun): string {
  const results = resultsOf(run);
  const dir = join(parent, results.run.run_id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "results.json"), JSON.stringify(results, null, 1));
  if (run.reviews !== undefined) writeFileSync(join(dir, "reviews.jsonl"), run.reviews);
  return dir;
}

export const tmp = () => mkdtempSync(join(tmpdir(), "crashlab-review-"));

/** One review line (`at` fixed unless given). */
export function line(trial_id: string, verifier: string, verdict: "passed" | "failed" | "unsure", reviewer = "ana", extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ trial_id, verifier, verdict, reviewer, note: "", at: "2026-01-02T09:00:00Z", ...extra }) + "\n";
}

export async function cli(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}
