/** What a run prints: a progress line per trial, the end-of-run table, and `--verbose`'s conversation lines. */

import type { GateDecision } from "../gate/gates";
import type { TrialRecord } from "../record/trial-record";
import type { RunSummary } from "../run/summary";
import type { Interruption, RunDecision } from "../run/run";
import type { ConversationLine } from "../trial/context";
import { conversationTranscript } from "./artifacts";

const pct = (x: number | null | undefined) => (x === null || x === undefined ? "  -  " : `${(x * 100).toFixed(0).padStart(3)}%`);
const ms = (x: number | null) => (x === null ? "-" : `${Math.round(x)}`);

const DECISION_LABEL: Record<RunDecision["decision"], string> = {
  pass: "PASS",
  fail: "FAIL",
  infrastructure: "NO DECISION (infrastructure errors)",
  evaluation_error: "NO DECISION (evaluation error)",
  interrupted: "INTERRUPTED",
};

/** What a progress line reads of a trial record. */
export type ProgressRecord = Pick<TrialRecord, "trial_id" | "status" | "error" | "cleanup_errors" | "assessments" | "checks">;

/** One progress line per finished trial: what the user watches during a long run. */
export function progressLine(record: ProgressRecord, done: number, total: number): string {
  const mark = { passed: "PASS", failed: "FAIL", inconclusive: "INCONCLUSIVE", infrastructure_error: "ERROR" }[record.status];
  const width = String(total).length;
  let why = "";
  const beside = record.cleanup_errors?.length ? ` (also: ${record.cleanup_errors.map((e) => `${e.stage}: ${e.message}`).join("; ")})` : "";
  if (record.status === "infrastructure_error") why = ` — ${record.error?.stage}: ${record.error?.message}`;
  else if (record.status !== "passed") {
    const failing = record.assessments.filter((a) => a.required && a.status !== "passed" && a.status !== "not_applicable");
    const checks = failing.flatMap((a) => (a.checks ?? []).filter((c) => c.required && c.status === "failed").map((c) => c.id));
    // Inconclusive and errored verifiers say why (e.g. the judge's reason), failures name their checks.
    const reasons = failing.filter((a) => a.status !== "failed").map((a) => `${a.verifier} ${a.status}: ${a.judge?.reason ? `${a.judge.reason} — ` : ""}${a.rationale.slice(0, 160)}`);
    why = ` — ${failing.filter((a) => a.status === "failed").map((a) => a.verifier).join(", ")}${checks.length ? ` (${checks.join(", ")})` : ""}${reasons.length ? `${failing.some((a) => a.status === "failed") ? "; " : ""}${reasons.join("; ")}` : ""}`;
    // A conversation that never completed says why: the limit it hit, or the response timeout.
    const unfinished = record.checks.find((c) => c.id === "conversation_completed" && c.status === "failed");
    if (unfinished) why += ` — ${unfinished.rationale.slice(0, 200)}`;
  }
  return `[${String(done).padStart(width)}/${total}] ${mark.padEnd(5)} ${record.trial_id}${why}${beside}`;
}

/** The end-of-run table: per case trials, passes, pass rate with its Wilson interval, pass^k; then the gates. */
export function summaryText(
  summary: RunSummary,
  gates: GateDecision,
  decision: RunDecision,
  extra: { run_id: string; target: string; results_dir?: string; interruption?: Interruption | null },
): string {
  const lines: string[] = [];
  const idWidth = Math.max(8, ...summary.cases.map((c) => c.case_id.length));
  lines.push("");
  // Latency is the measured one (late answers included, so never blank when an answer came); "-" means no answer or no audio.
  lines.push(`${"case".padEnd(idWidth)}  trials  pass  rate  wilson95     pass^k  latency p50/p90 ms  errors`);
  for (const c of summary.cases) {
    const k = String(c.trials);
    const w = c.wilson_95 ? `${pct(c.wilson_95.low)}-${pct(c.wilson_95.high).trim()}` : "-";
    lines.push(
      `${c.case_id.padEnd(idWidth)}  ${String(c.trials).padStart(6)}  ${String(c.passes).padStart(4)}  ${pct(c.pass_rate)}  ${w.padEnd(11)}  ${pct(c.pass_hat_k[k]).padStart(6)}  ${`${ms(c.response_latency_ms.p50)}/${ms(c.response_latency_ms.p90)}`.padStart(18)}  ${c.infrastructure_errors || ""}`.trimEnd(),
    );
  }
  const s = summary.by_status;
  lines.push("");
  lines.push(
    `${summary.trials} trials (target ${extra.target}): ${s.passed} passed, ${s.failed} failed, ${s.inconclusive} inconclusive, ${s.infrastructure_error} infrastructure errors` +
      (summary.wilson_95 ? `; pass rate ${pct(summary.pass_rate).trim()} (95% CI ${pct(summary.wilson_95.low).trim()}–${pct(summary.wilson_95.high).trim()})` : ""),
  );
  if (summary.conditions.length) {
    lines.push("");
    lines.push(`${"condition".padEnd(18)}  trials  pass  rate  wilson95`);
    for (const c of summary.conditions) {
      const w = c.wilson_95 ? `${pct(c.wilson_95.low)}-${pct(c.wilson_95.high).trim()}` : "-";
      lines.push(`${c.condition.padEnd(18)}  ${String(c.trials).padStart(6)}  ${String(c.passes).padStart(4)}  ${pct(c.pass_rate)}  ${w}${c.infrastructure_errors ? `  (${c.infrastructure_errors} infrastructure errors)` : ""}`);
    }
  }
  if (summary.judge.judged > 0) {
    const cost = summary.judge.cost_usd === null ? "cost unknown" : `≈ $${summary.judge.cost_usd.toFixed(4)}${summary.judge.unpriced ? ` (+${summary.judge.unpriced} unpriced)` : ""}`;
    lines.push(`judge: ${summary.judge.judged} assessments, ${summary.judge.requests} requests, ${summary.judge.tokens.total} tokens, ${cost} (separate from the target's usage)`);
  }
  const stages = Object.entries(summary.errors_by_stage);
  if (stages.length) lines.push(`infrastructure errors by stage: ${stages.map(([k, v]) => `${k} ${v}`).join(", ")}`);
  const durations = summary.cases.map((c) => c.duration_ms.p50).filter((x): x is number => x !== null);
  if (durations.length) lines.push(`median trial timeline: ${ms(durations.sort((a, b) => a - b)[Math.floor(durations.length / 2)]!)} ms`);
  lines.push("");
  // An advisory verifier that gave no verdict at all (the judge offline) is summarized, not listed as failing.
  const interruption = extra.interruption ?? null;
  if (interruption) {
    const cases = new Set(interruption.not_run.map((t) => t.case_id));
    lines.push(`INTERRUPTED by ${interruption.signal}: ${interruption.not_run.length} trial(s) of ${cases.size} case(s) not run; the gates below cover the finished trials only`);
  }
  const silent = gates.gates.filter((g) => !g.rule.required && g.verdicts === 0);
  for (const g of gates.gates.filter((g) => !silent.includes(g))) lines.push(`gate ${g.rule.required ? "required" : "advisory"} ${g.ok ? "PASS" : "FAIL"}  ${g.message}`);
  if (silent.length) lines.push(`not assessed (advisory, no verdicts): ${silent.map((g) => g.verifier).join(", ")}${silent.some((g) => g.verifier.startsWith("semantic.")) ? " — the semantic judge runs with --live or --judge" : ""}`);
  lines.push(`decision: ${DECISION_LABEL[decision.decision]} (exit ${decision.exit_code}) — ${decision.message}`);
  if (extra.results_dir) lines.push(`results: ${extra.results_dir}`);
  return lines.join("\n");
}

/** `--verbose`, while a conversation unfolds: `  run_x#1  12.34 s  CALLER (interrupt): …`. */
export function conversationLine(line: ConversationLine): string {
  const who = line.speaker === "caller" ? `CALLER${line.label ? ` (${line.label})` : ""}` : "ASSISTANT";
  return `  ${line.trial_id}  ${(line.at_ms / 1000).toFixed(2).padStart(6)} s  ${who}: ${line.text}`;
}

/** `--verbose`: the readable transcript, then each assessment, under the trial's progress line. */
export function verboseTrial(record: TrialRecord): string {
  const indent = (text: string) => text.trimEnd().split("\n").map((l) => `    ${l}`).join("\n");
  const assessments = record.assessments.map((a) => `${a.verifier}: ${a.status} — ${a.rationale}`).join("\n");
  const audio = record.metrics.audio;
  const pacing = record.events.find((e) => e.type === "audio.pacing")?.data as { chunks?: number; lag_events?: number; max_lag_ms?: number } | undefined;
  const timing = audio
    ? `response_latency_ms=${audio.response_latency_ms ?? "null"} response_rate=${audio.response_rate ?? "null"} interruption_rate=${audio.interruption_rate ?? "null"}` +
      (pacing ? ` · audio: ${pacing.chunks} chunks sent, ${pacing.lag_events} pacing lag events, max lag ${pacing.max_lag_ms} ms` : "")
    : "";
  return `${indent(conversationTranscript(record))}\n${indent(assessments)}${timing ? `\n${indent(timing)}` : ""}\n`;
}

