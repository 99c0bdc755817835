/** What `crashlab vary` prints: the matrix (variant × case × mode → verdict), the rates per operator and overall, the wall time. */
import type { Cell, VaryResult, Verdict } from "./run";

const SHOWN: Record<Verdict, string> = {
  ok: "ok",
  false_fail: "FALSE FAIL",
  miss: "MISS",
  not_acted: "did not act",
  awaiting_check: "awaiting check",
  base_fails: "base fails",
};

const rate = (n: number, of: number) => (of === 0 ? "n/a" : `${((100 * n) / of).toFixed(1)}%`);

function aligned(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ").trimEnd());
}

function expected(c: Cell): string {
  return c.kind === "correct" ? `base's (${c.base.status})` : `fail on ${c.intended ?? "?"}`;
}

/** The whole report as text. `all`: every cell; otherwise the cells that are not ok (the rest are counted). */
export function renderVary(result: VaryResult, options: { all?: boolean } = {}): string {
  const s = result.summary;
  const lines: string[] = [];
  lines.push(`crashlab vary: plan ${result.plan}, target ${result.target}, seed ${result.seed}, modes ${result.modes.join(", ")}`);
  const baseFailed = result.base.filter((b) => b.status !== "passed");
  lines.push(
    `base: ${result.base.length} trial(s), ${result.base.length - baseFailed.length} passed${baseFailed.length ? `; not passed: ${baseFailed.map((b) => `${b.case_id} ${b.mode} ${b.status}${b.failed.length ? ` [${b.failed.join(", ")}]` : ""}`).join("; ")}` : ""}`,
  );
  lines.push("");
  const shown = options.all ? result.cells : result.cells.filter((c) => c.verdict !== "ok");
  lines.push(options.all ? "matrix (every cell):" : `matrix (${shown.length} of ${result.cells.length} cells are not ok; \`--all\` lists every cell):`);
  if (shown.length > 0)
    lines.push(
      ...aligned([
        ["variant", "case", "mode", "verdict", "expected", "failed checks", "note (first change)"],
        ...shown.map((c) => [c.variant, c.case_id, c.mode, SHOWN[c.verdict], expected(c), c.failed.join(", ") || "—", `${c.note}${c.changes[0] ? ` (${c.changes[0]})` : ""}`]),
      ]).map((l) => `  ${l}`),
    );
  lines.push("", "per operator:");
  lines.push(
    ...aligned([
      ["operator", "kind", "cases", "cells", "ok", "false fails", "misses", "rate", "did not act", "awaiting", "base fails"],
      ...result.operators.map((o) => {
        const counted = o.ok + o.false_fails + o.misses;
        const wrong = o.kind === "correct" ? o.false_fails : o.misses;
        return [o.id, o.kind, String(o.applicable_cases), String(o.cells), String(o.ok), o.kind === "correct" ? String(o.false_fails) : "—", o.kind === "fault" ? String(o.misses) : "—", rate(wrong, counted), String(o.not_acted), String(o.awaiting_check), String(o.base_fails)];
      }),
    ]).map((l) => `  ${l}`),
  );
  const none = result.operators.filter((o) => o.applicable_cases === 0).map((o) => o.id);
  if (none.length > 0) lines.push(`  no selected case gives ${none.join(", ")} anything to act on (judged from what the base did): no variant of ${none.length === 1 ? "it" : "them"} ran`);
  lines.push("");
  lines.push(`false fails: ${s.false_fails} of ${s.correct_counted} counted correct cell(s) (${rate(s.false_fails, s.correct_counted)})`);
  lines.push(`misses:      ${s.misses} of ${s.fault_counted} counted fault cell(s) (${rate(s.misses, s.fault_counted)})`);
  const uncounted = [
    s.not_acted ? `${s.not_acted} where the variant did not act` : "",
    s.awaiting_check ? `${s.awaiting_check} awaiting a check the grader does not have yet (${s.awaiting_checks.join(", ")})` : "",
    s.base_fails ? `${s.base_fails} whose base already fails the intended check` : "",
  ].filter(Boolean);
  if (uncounted.length > 0) lines.push(`not counted: ${uncounted.join("; ")}`);
  lines.push(`${s.variants} variant(s), ${s.cells} cell(s) and ${s.base_trials} base trial(s) in ${(s.wall_ms / 1000).toFixed(1)} s`);
  return `${lines.join("\n")}\n`;
}
