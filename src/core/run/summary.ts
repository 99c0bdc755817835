/** A run's summary: per-case and per-run statistics (docs/gates.md). */

import { passHatK, percentile, wilsonInterval, type Interval } from "../stats/rates";
import { judgeUsageTotals, type JudgeUsageTotals } from "../judge/verifiers";
import { conditionBreakdown, type ConditionRate } from "../walk/breakdown";
import type { Assessment } from "../record/assessment";
import type { TrialStatus } from "../record/trial-record";
import { measuredLatencyMs } from "../timeline/metrics";

/** What the summary reads of a trial: a trial record, a results.json row, or the slim outcome a streaming run keeps. */
export interface SummaryTrial {
  case_id: string;
  status: TrialStatus;
  error: { stage: string } | null;
  duration_ms: number;
  metrics: { audio: Readonly<Record<string, unknown>> | null };
  input: { recording?: { condition: string } | undefined };
  assessments: ReadonlyArray<Pick<Assessment, "judge">>;
}

export interface CaseSummary {
  case_id: string;
  trials: number;
  passes: number;
  failures: number;
  inconclusive: number;
  infrastructure_errors: number;
  pass_rate: number;
  wilson_95: Interval | null;
  /** pass^k for k = 1..trials (docs/gates.md); a k above the trial count is undefined and left out. */
  pass_hat_k: Record<string, number | null>;
  duration_ms: { p50: number | null; p90: number | null };
  /** Over the case's trials, each trial's mean latency of every answered request, late answers included. */
  response_latency_ms: { p50: number | null; p90: number | null };
}

export interface RunSummary {
  trials: number;
  by_status: Record<TrialStatus, number>;
  pass_rate: number | null;
  wilson_95: Interval | null;
  /** Infrastructure errors by stage: counted and reported, never dropped. */
  errors_by_stage: Record<string, number>;
  cases: CaseSummary[];
  /** WALK: pass rates per acoustic condition of the recordings (empty without recordings). */
  conditions: ConditionRate[];
  /** The semantic judge's own usage and estimated cost, never added to the target's consumption. */
  judge: JudgeUsageTotals;
}

/** Per-case and per-run statistics, docs/gates.md. Infrastructure errors count as trials that did not pass. */
export function summarize(records: readonly SummaryTrial[]): RunSummary {
  const by_status: Record<TrialStatus, number> = { passed: 0, failed: 0, inconclusive: 0, infrastructure_error: 0 };
  const errors_by_stage: Record<string, number> = {};
  const byCase = new Map<string, SummaryTrial[]>();
  for (const r of records) {
    by_status[r.status]++;
    if (r.error) errors_by_stage[r.error.stage] = (errors_by_stage[r.error.stage] ?? 0) + 1;
    // Pushed, not copied: a copy per trial made the grouping quadratic in a case's repetitions.
    const group = byCase.get(r.case_id);
    if (group) group.push(r);
    else byCase.set(r.case_id, [r]);
  }
  const cases = [...byCase.entries()].map(([case_id, trials]): CaseSummary => {
    const n = trials.length;
    const passes = trials.filter((t) => t.status === "passed").length;
    const pass_hat_k: Record<string, number | null> = {};
    for (let k = 1; k <= n; k++) pass_hat_k[String(k)] = passHatK(passes, n, k);
    // Measured latencies: a trial answered only late shows its slow answers, never a blank.
    const latencies = trials.map((t) => measuredLatencyMs(t.metrics.audio)).filter((x): x is number => x !== null);
    const durations = trials.map((t) => t.duration_ms);
    return {
      case_id,
      trials: n,
      passes,
      failures: trials.filter((t) => t.status === "failed").length,
      inconclusive: trials.filter((t) => t.status === "inconclusive").length,
      infrastructure_errors: trials.filter((t) => t.status === "infrastructure_error").length,
      pass_rate: passes / n,
      wilson_95: wilsonInterval(passes, n),
      pass_hat_k,
      duration_ms: { p50: percentile(durations, 0.5), p90: percentile(durations, 0.9) },
      response_latency_ms: { p50: percentile(latencies, 0.5), p90: percentile(latencies, 0.9) },
    };
  });
  return {
    trials: records.length,
    by_status,
    pass_rate: records.length ? by_status.passed / records.length : null,
    wilson_95: wilsonInterval(by_status.passed, records.length),
    errors_by_stage,
    cases,
    conditions: conditionBreakdown(records.filter((r) => r.input.recording).map((r) => ({ condition: r.input.recording!.condition, status: r.status }))),
    judge: judgeUsageTotals(records.flatMap((r) => r.assessments)),
  };
}
