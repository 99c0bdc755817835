/** Building results.json from a run and writing it (with junit.xml), a row at a time. */

import { join } from "node:path";
import type { RunResult } from "../run/run";
import type { TargetDescriptor } from "../target/types";
import { CRASHLAB_VERSION } from "../version";
import { AtomicFileWriter, writeFileAtomic } from "../files/atomic";
import type { TrialRecord } from "../record/trial-record";
import { redactShapes, type Redact } from "../services/redact";
import { junitXml } from "./junit";
import { RESULTS_VERSION, ResultsFile, ResultsTrial } from "../record/results";

export type ResultsTrialRow = ResultsFile["trials"][number];

export interface ResultsContext {
  concurrency: number;
  real_time: boolean;
  package_digest: string;
  target_descriptor: TargetDescriptor;
  limits: RunResult["records"][number]["limits"]["config"];
  /** Each case's tags (the report breaks pass rates down by tag). */
  case_tags?: Readonly<Record<string, readonly string[]>>;
}

/** What results.json says of the run besides its trials. */
export type ResultsHeader = Omit<ResultsFile, "trials">;
const ResultsHeaderSchema = ResultsFile.omit({ trials: true });

type RunOutcome = Pick<RunResult, "run_id" | "plan" | "target" | "seed" | "repetitions" | "started_at" | "finished_at" | "gate_config" | "gates" | "decision" | "interruption" | "summary">;

/** The run, gates and summary parts of results.json, validated against their schema. */
export function resultsHeader(result: RunOutcome, ctx: ResultsContext): ResultsHeader {
  return ResultsHeaderSchema.parse({
    results_version: RESULTS_VERSION,
    run: {
      run_id: result.run_id,
      plan: result.plan,
      target: result.target,
      target_descriptor: JSON.parse(JSON.stringify(ctx.target_descriptor)),
      seed: result.seed,
      repetitions: result.repetitions,
      concurrency: ctx.concurrency,
      real_time: ctx.real_time,
      started_at: result.started_at,
      finished_at: result.finished_at,
      crashlab_version: CRASHLAB_VERSION,
      package_digest: ctx.package_digest,
      limits: ctx.limits,
      interrupted: result.interruption !== null,
      interrupted_by: result.interruption?.signal ?? null,
      not_run: result.interruption?.not_run ?? [],
      cases_not_run: [...new Set((result.interruption?.not_run ?? []).map((t) => t.case_id))],
      not_started: (result.interruption?.not_run ?? []).filter((t) => t.reason === "not started").length,
    },
    gates: {
      config: result.gate_config,
      ok: result.decision.ok,
      decision: result.decision.decision,
      exit_code: result.decision.exit_code,
      message: result.decision.message,
      results: result.gates.gates,
    },
    summary: result.summary,
  });
}

/** One trial's row of results.json (what the journal holds per line), validated against its schema. */
export function resultsRow(r: TrialRecord, tags: readonly string[]): ResultsTrialRow {
  return ResultsTrial.parse({
    trial_id: r.trial_id,
    case_id: r.case_id,
    repetition: r.repetition,
    scenario_id: r.scenario_id,
    case_kind: r.case_kind,
    target: r.target,
    seed: r.seed,
    status: r.status,
    error: r.error,
    ...(r.cleanup_errors ? { cleanup_errors: r.cleanup_errors } : {}),
    started_at: r.wall.started_at,
    wall_ms: r.wall.duration_ms,
    tags: [...tags],
    duration_ms: r.duration_ms,
    input: r.input,
    metrics: r.metrics,
    dimensions: r.dimensions,
    checks: r.checks,
    ...(r.procedure ? { procedure: r.procedure } : {}),
    ...(r.reported_evidence ? { reported_evidence: r.reported_evidence } : {}),
    assessments: r.assessments,
    limits: r.limits,
    provenance: r.provenance,
    artifacts: r.artifacts,
  });
}

/** Build the results.json document and validate it against its own schema before anyone writes it. */
export function buildResults(result: RunResult, ctx: ResultsContext): ResultsFile {
  const header = resultsHeader(result, ctx);
  return ResultsFile.parse({ ...header, trials: result.records.map((r) => resultsRow(r, ctx.case_tags?.[r.case_id] ?? [])) });
}

/**
 * results.json written a row at a time (the rows come from the journal), byte for byte what
 * `JSON.stringify(doc, null, 2)` of the whole document gives, without ever holding the document.
 */
export function writeResultsFile(path: string, header: ResultsHeader, rows: Iterable<ResultsTrialRow>, redact: Redact = redactShapes): void {
  const head = JSON.stringify(header, null, 2);
  const out = new AtomicFileWriter(path);
  try {
    out.write(redact(head.slice(0, -2) + ',\n  "trials": ['));
    let first = true;
    for (const row of rows) {
      const text = JSON.stringify(row, null, 2).replace(/\n/g, "\n    ");
      out.write(redact(`${first ? "" : ","}\n    ${text}`));
      first = false;
    }
    out.write(first ? "]\n}\n" : "\n  ]\n}\n");
    out.commit();
  } catch (error) {
    out.abort();
    throw error;
  }
}

/** results.json and junit.xml, each written atomically. Returns their paths. */
export function writeRunOutputs(runDir: string, doc: ResultsFile, result: RunResult, redact: Redact = redactShapes): { results: string; junit: string } {
  const results = join(runDir, "results.json");
  const junit = join(runDir, "junit.xml");
  writeFileAtomic(results, redact(JSON.stringify(doc, null, 2) + "\n"));
  writeFileAtomic(junit, redact(junitXml(result.run_id, result.records, result.interruption)));
  return { results, junit };
}
