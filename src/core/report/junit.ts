import type { TrialRecord } from "../run/record";

function esc(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");
}

/** JUnit XML: one testsuite per case, one testcase per trial (`case#rep`), so CI systems show repeats apart. */
export function junitXml(runId: string, records: readonly TrialRecord[]): string {
  const byCase = new Map<string, TrialRecord[]>();
  for (const r of records) byCase.set(r.case_id, [...(byCase.get(r.case_id) ?? []), r]);
  const count = (s: string) => records.filter((r) => r.status === s).length;
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="crashlab ${esc(runId)}" tests="${records.length}" failures="${count("failed") + count("inconclusive")}" errors="${count("infrastructure_error")}">`,
  ];
  for (const [caseId, trials] of byCase) {
    const failures = trials.filter((t) => t.status === "failed" || t.status === "inconclusive").length;
    const errors = trials.filter((t) => t.status === "infrastructure_error").length;
    const time = trials.reduce((s, t) => s + t.wall.duration_ms, 0) / 1000;
    lines.push(`  <testsuite name="${esc(caseId)}" tests="${trials.length}" failures="${failures}" errors="${errors}" time="${time.toFixed(3)}">`);
    for (const t of trials) {
      lines.push(`    <testcase classname="${esc(caseId)}" name="${esc(t.trial_id)}" time="${(t.wall.duration_ms / 1000).toFixed(3)}">`);
      const failing = t.assessments.filter((a) => a.required && a.status !== "passed" && a.status !== "not_applicable");
      const detail = failing.map((a) => `${a.verifier} ${a.status}: ${a.rationale}`).join("\n");
      if (t.status === "failed") lines.push(`      <failure message="${esc(failing[0]?.rationale ?? "failed")}">${esc(detail)}</failure>`);
      else if (t.status === "inconclusive") lines.push(`      <failure type="inconclusive" message="${esc(failing[0]?.rationale ?? "inconclusive")}">${esc(detail)}</failure>`);
      else if (t.status === "infrastructure_error") lines.push(`      <error type="${esc(t.error?.stage ?? "infrastructure")}" message="${esc(t.error?.message ?? "")}"/>`);
      lines.push(`    </testcase>`);
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return lines.join("\n") + "\n";
}
