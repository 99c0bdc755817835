import type { TrialRecord } from "../record/trial-record";
import type { Interruption } from "../run/run";

function esc(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");
}

/**
 * JUnit XML: one testsuite per case, one testcase per trial (`case#rep`), so CI systems show repeats apart.
 * Trials an interrupted run never finished are testcases marked skipped, with the reason.
 */
export function junitXml(runId: string, records: readonly TrialRecord[], interruption: Interruption | null = null): string {
  const byCase = new Map<string, { trials: TrialRecord[]; skipped: Interruption["not_run"] }>();
  const entry = (caseId: string) => byCase.get(caseId) ?? byCase.set(caseId, { trials: [], skipped: [] }).get(caseId)!;
  for (const r of records) entry(r.case_id).trials.push(r);
  for (const t of interruption?.not_run ?? []) entry(t.case_id).skipped.push(t);
  const count = (s: string) => records.filter((r) => r.status === s).length;
  const skippedTotal = interruption?.not_run.length ?? 0;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="crashlab ${esc(runId)}" tests="${records.length + skippedTotal}" failures="${count("failed") + count("inconclusive")}" errors="${count("infrastructure_error")}" skipped="${skippedTotal}">`,
  ];
  for (const [caseId, { trials, skipped }] of byCase) {
    const failures = trials.filter((t) => t.status === "failed" || t.status === "inconclusive").length;
    const errors = trials.filter((t) => t.status === "infrastructure_error").length;
    const time = trials.reduce((s, t) => s + t.wall.duration_ms, 0) / 1000;
    lines.push(`  <testsuite name="${esc(caseId)}" tests="${trials.length + skipped.length}" failures="${failures}" errors="${errors}" skipped="${skipped.length}" time="${time.toFixed(3)}">`);
    for (const t of trials) {
      lines.push(`    <testcase classname="${esc(caseId)}" name="${esc(t.trial_id)}" time="${(t.wall.duration_ms / 1000).toFixed(3)}">`);
      const failing = t.assessments.filter((a) => a.required && a.status !== "passed" && a.status !== "not_applicable");
      const detail = failing.map((a) => `${a.verifier} ${a.status}: ${a.rationale}`).join("\n");
      if (t.status === "failed") lines.push(`      <failure message="${esc(failing[0]?.rationale ?? "failed")}">${esc(detail)}</failure>`);
      else if (t.status === "inconclusive") lines.push(`      <failure type="inconclusive" message="${esc(failing[0]?.rationale ?? "inconclusive")}">${esc(detail)}</failure>`);
      else if (t.status === "infrastructure_error") lines.push(`      <error type="${esc(t.error?.stage ?? "infrastructure")}" message="${esc(t.error?.message ?? "")}"/>`);
      lines.push(`    </testcase>`);
    }
    for (const t of skipped)
      lines.push(`    <testcase classname="${esc(caseId)}" name="${esc(t.trial_id)}" time="0.000">`, `      <skipped message="${esc(`not run (${t.reason}): the run was interrupted by ${interruption!.signal}`)}"/>`, `    </testcase>`);
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return lines.join("\n") + "\n";
}
