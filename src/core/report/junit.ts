/** junit.xml: one testsuite per case and one testcase per trial, so CI systems show a run's trials. */

import type { Assessment } from "../record/assessment";
import type { TrialRecord } from "../record/trial-record";
import type { Interruption } from "../run/run";

function esc(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");
}

/** What a JUnit testcase shows of a trial (a trial record or a results.json row). */
export interface JunitTrial {
  trial_id: string;
  case_id: string;
  status: string;
  wall_ms: number;
  error: { stage: string; message: string } | null;
  assessments: ReadonlyArray<Pick<Assessment, "verifier" | "status" | "required" | "rationale">>;
}

/**
 * JUnit XML: one testsuite per case, one testcase per trial (`case#rep`), so CI systems show repeats apart.
 * Trials an interrupted run never finished are testcases marked skipped, with the reason.
 */
export function junitXml(runId: string, records: readonly TrialRecord[], interruption: Interruption | null = null): string {
  const trials = records.map((r): JunitTrial => ({ ...r, wall_ms: r.wall.duration_ms }));
  const order = [...new Set(trials.map((t) => t.case_id))];
  const lines: string[] = [];
  junitLines(
    runId,
    trials.map((t) => t.status),
    order.map((case_id) => ({ case_id, trials: () => trials.filter((t) => t.case_id === case_id) })),
    interruption,
    (line) => lines.push(line),
  );
  return lines.join("\n") + "\n";
}

/**
 * The XML line by line, reading one case's trials at a time (`trials()` may read them from the journal),
 * so a run of any size is written without holding its trials. `statuses` are every finished trial's.
 */
export function junitLines(
  runId: string,
  statuses: readonly string[],
  cases: ReadonlyArray<{ case_id: string; trials: () => Iterable<JunitTrial> }>,
  interruption: Interruption | null,
  emit: (line: string) => void,
): void {
  const skippedByCase = new Map<string, Interruption["not_run"]>();
  for (const t of interruption?.not_run ?? []) skippedByCase.set(t.case_id, [...(skippedByCase.get(t.case_id) ?? []), t]);
  const count = (s: string) => statuses.filter((x) => x === s).length;
  const skippedTotal = interruption?.not_run.length ?? 0;
  emit(`<?xml version="1.0" encoding="UTF-8"?>`);
  emit(`<testsuites name="crashlab ${esc(runId)}" tests="${statuses.length + skippedTotal}" failures="${count("failed") + count("inconclusive")}" errors="${count("infrastructure_error")}" skipped="${skippedTotal}">`);
  const order = [...cases];
  // Cases with only skipped trials come after those with finished ones, in the order they were listed.
  for (const caseId of skippedByCase.keys()) if (!order.some((c) => c.case_id === caseId)) order.push({ case_id: caseId, trials: () => [] });
  for (const { case_id: caseId, trials } of order) {
    const skipped = skippedByCase.get(caseId) ?? [];
    const body: string[] = [];
    let n = 0;
    let failures = 0;
    let errors = 0;
    let time = 0;
    for (const t of trials()) {
      n++;
      if (t.status === "failed" || t.status === "inconclusive") failures++;
      if (t.status === "infrastructure_error") errors++;
      time += t.wall_ms;
      body.push(`    <testcase classname="${esc(caseId)}" name="${esc(t.trial_id)}" time="${(t.wall_ms / 1000).toFixed(3)}">`);
      const failing = t.assessments.filter((a) => a.required && a.status !== "passed" && a.status !== "not_applicable");
      const detail = failing.map((a) => `${a.verifier} ${a.status}: ${a.rationale}`).join("\n");
      if (t.status === "failed") body.push(`      <failure message="${esc(failing[0]?.rationale ?? "failed")}">${esc(detail)}</failure>`);
      else if (t.status === "inconclusive") body.push(`      <failure type="inconclusive" message="${esc(failing[0]?.rationale ?? "inconclusive")}">${esc(detail)}</failure>`);
      else if (t.status === "infrastructure_error") body.push(`      <error type="${esc(t.error?.stage ?? "infrastructure")}" message="${esc(t.error?.message ?? "")}"/>`);
      body.push(`    </testcase>`);
    }
    emit(`  <testsuite name="${esc(caseId)}" tests="${n + skipped.length}" failures="${failures}" errors="${errors}" skipped="${skipped.length}" time="${(time / 1000).toFixed(3)}">`);
    for (const line of body) emit(line);
    for (const t of skipped)
      for (const line of [`    <testcase classname="${esc(caseId)}" name="${esc(t.trial_id)}" time="0.000">`, `      <skipped message="${esc(`not run (${t.reason}): the run was interrupted by ${interruption!.signal}`)}"/>`, `    </testcase>`]) emit(line);
    emit(`  </testsuite>`);
  }
  emit(`</testsuites>`);
}
