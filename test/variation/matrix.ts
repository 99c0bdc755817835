import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PLAN } from "../../crashlab/evaluations";
import type { TrialRecord } from "../../src/core/record/trial-record";
import { run, type RunOptions } from "../../src/core/run/run";
import { variantTarget, type Mode, type Probe, type Variant } from "./variants";

/** Running variants over the bundled cases and reading each trial's verdict into one matrix row. */

export interface Cell {
  variant: string;
  kind: "correct" | "fault";
  case_id: string;
  case_kind: "crawl" | "run";
  mode: Mode;
  seed: number;
  status: TrialRecord["status"];
  /** Failed checks (required or not), failed grading dimensions and failed package verifiers, by id. */
  failed: string[];
  /** The check a fault must trip here (faults only). */
  intended?: string;
  /** correct: passed; fault: failed with `intended` among `failed`. */
  ok: boolean;
  duration_ms: number;
  /** From the end of each caller turn to the start of the assistant turn right after it. */
  answer_gaps_ms: number[];
}

function answerGaps(record: TrialRecord): number[] {
  const gaps: number[] = [];
  record.turns.forEach((t, i) => {
    const next = record.turns[i + 1];
    if (t.role === "user" && next?.role === "assistant") gaps.push(Math.round(next.start_ms - t.end_ms));
  });
  return gaps;
}

export function failedChecks(record: TrialRecord): string[] {
  // grounded_relay_order is a dimension of the outcome, reported beside the checks.
  const ids = [
    ...record.checks.filter((c) => c.status === "failed").map((c) => c.id),
    ...Object.entries(record.dimensions).filter(([, d]) => d.status === "failed").map(([id]) => id),
    ...record.assessments.filter((a) => a.status === "failed").map((a) => a.verifier),
  ];
  return [...new Set(ids)].sort();
}

/** Run one variant's cells (one run per seed and mode, its cases two at a time, virtual time). */
export async function runVariant(variant: Variant, probe: Probe, options: RunOptions): Promise<Cell[]> {
  const cells: Cell[] = [];
  for (const group of variant.cells) {
    const seed = group.seed ?? 1;
    for (const mode of group.modes) {
      const name = `variant_${variant.id}`;
      const plan = { ...PLAN, targets: { [name]: variantTarget(variant, seed, probe) }, default_target: name };
      const result = await run(plan, { ...options, target: name, seed, concurrency: 2, selection: { ids: group.cases }, target_settings: { delegation: mode } });
      for (const record of result.records) {
        const case_kind = record.case_id.startsWith("run_") ? "run" : "crawl";
        const failed = failedChecks(record);
        const intended = variant.kind === "fault" ? variant.intended?.[case_kind] : undefined;
        const ok = variant.kind === "correct" ? record.status === "passed" : record.status === "failed" && intended !== undefined && failed.includes(intended);
        cells.push({ variant: variant.id, kind: variant.kind, case_id: record.case_id, case_kind, mode, seed, status: record.status, failed, ...(intended ? { intended } : {}), ok, duration_ms: record.duration_ms, answer_gaps_ms: answerGaps(record) });
      }
    }
  }
  return cells;
}

export interface MatrixSummary {
  correct: number;
  false_fails: number;
  false_fail_rate: number;
  faults: number;
  misses: number;
  miss_rate: number;
  wall_ms: number;
}

export function summarize(cells: Cell[], wall_ms: number): MatrixSummary {
  const correct = cells.filter((c) => c.kind === "correct");
  const faults = cells.filter((c) => c.kind === "fault");
  const false_fails = correct.filter((c) => !c.ok).length;
  const misses = faults.filter((c) => !c.ok).length;
  const rate = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 1000) / 1000);
  return { correct: correct.length, false_fails, false_fail_rate: rate(false_fails, correct.length), faults: faults.length, misses, miss_rate: rate(misses, faults.length), wall_ms };
}

/** The matrix as markdown: one row per variant × case × mode. */
export function renderMatrix(cells: Cell[], summary: MatrixSummary, notes: string[] = []): string {
  const lines = [
    "# Variation suite",
    "",
    `false fails ${summary.false_fails}/${summary.correct} (rate ${summary.false_fail_rate}); misses ${summary.misses}/${summary.faults} (rate ${summary.miss_rate}); wall ${(summary.wall_ms / 1000).toFixed(1)} s`,
    ...notes,
    "",
    "| variant | case | mode | seed | verdict | expected | failed checks |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const c of cells) {
    const expected = c.kind === "correct" ? "pass" : `fail on ${c.intended ?? "?"}`;
    const verdict = c.ok ? (c.kind === "correct" ? "passed" : "caught") : c.kind === "correct" ? `FALSE FAIL (${c.status})` : `MISSED (${c.status})`;
    lines.push(`| ${c.variant} | ${c.case_id} | ${c.mode} | ${c.seed} | ${verdict} | ${expected} | ${c.failed.join(", ") || "—"} |`);
  }
  return `${lines.join("\n")}\n`;
}

/** Write the matrix (markdown and JSON) under the OS temp dir; returns the markdown's path. */
export function writeMatrix(cells: Cell[], summary: MatrixSummary, notes: string[] = []): string {
  const dir = join(tmpdir(), "crashlab-variation");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "matrix.json"), `${JSON.stringify({ summary, notes, cells }, null, 2)}\n`);
  const path = join(dir, "matrix.md");
  writeFileSync(path, renderMatrix(cells, summary, notes));
  return path;
}
