/** Release gates: from trial outcomes and each verifier's gate rule to a decision and the run's exit code. */

import type { Assessment } from "../record/assessment";
import type { TrialStatus } from "../record/trial-record";

/** What the gates read of a trial: a trial record, a results.json row, or a streaming run's slim outcome. */
export interface GateTrial {
  /** Needed only to match a human gate's reviews. */
  trial_id?: string;
  case_id: string;
  status: TrialStatus;
  assessments: ReadonlyArray<Pick<Assessment, "verifier" | "status">>;
}
import { wilsonInterval } from "../stats/rates";
import { humanGate, isHumanGate, type HumanGateSummary, type HumanVerdicts } from "./human";

/** A gate rule for one verifier. */
export interface GateRule {
  required: boolean;
  /** Minimum pass rate over a case's repetitions (0..1). Default 1. */
  min_pass_rate: number;
  /** Compare the 95% Wilson lower bound instead of the raw rate. */
  wilson: boolean;
  /** Human gates only: the least number of trials with a passed or failed human verdict (default 1). */
  min_reviewed?: number;
  /** Human gates only: the least share of the run's trials with a passed or failed human verdict (default 0). */
  min_reviewed_share?: number;
}

export type GateConfig = Record<string, GateRule>;

export interface CaseGateResult {
  case_id: string;
  trials: number;
  passes: number;
  /** Trials where the verifier did not produce a verdict (not run, error, infrastructure error). */
  missing: number;
  /** Of `missing`: trials where the verifier itself raised an error (an evaluation defect, not infrastructure). */
  verifier_errors: number;
  pass_rate: number;
  compared_rate: number;
  ok: boolean;
}

export interface GateResult {
  verifier: string;
  rule: GateRule;
  ok: boolean;
  /** True when the gate failed only because of infrastructure errors (no evidence of a real failure). */
  blocked_by_infrastructure: boolean;
  /**
   * True when the gate failed only for want of verdicts and at least one was missing because the verifier
   * itself raised an error (a broken package verifier or clause): an evaluation defect, never infrastructure.
   */
  blocked_by_verifier_error: boolean;
  /** Trials with a substantive verdict (passed, failed, inconclusive): 0 for a judge that did not run offline. */
  verdicts: number;
  message: string;
  /** Per case; empty for a human gate, which is decided over the run's reviewed trials. */
  cases: CaseGateResult[];
  /** Human gates (`human.*`): what the reviews said and whether there were enough of them. */
  human?: HumanGateSummary;
}

/**
 * What the gates decided: `pass` (exit 0), `fail` (exit 1: a required gate truly failed), `evaluation_error`
 * (exit 4: only verifier errors — a defect of the evaluation package — stand between the run and a decision),
 * `infrastructure` (exit 3: only infrastructure errors do).
 */
export type GateVerdict = "pass" | "fail" | "evaluation_error" | "infrastructure";

export const EXIT_CODES: Readonly<Record<GateVerdict, 0 | 1 | 3 | 4>> = { pass: 0, fail: 1, infrastructure: 3, evaluation_error: 4 };

export interface GateDecision {
  ok: boolean;
  decision: GateVerdict;
  exit_code: 0 | 1 | 3 | 4;
  gates: GateResult[];
  message: string;
}

/**
 * Decide release gates from trial records. Pure and fail-closed: an empty run fails; a required verifier
 * that did not run counts as not passed; an infrastructure error counts as not passed. Advisory gates are
 * reported but never decide. Human gates (`human.*`) read `human`, the trials' human verdicts; without it
 * (a run that just ended) they are not assessed, and a required one keeps the run from passing.
 */
export function evaluateGates(records: readonly GateTrial[], config: GateConfig, human: HumanVerdicts | null = null): GateDecision {
  if (records.length === 0) {
    return { ok: false, decision: "fail", exit_code: 1, gates: [], message: "no trials ran: an empty run cannot pass its gates" };
  }
  const byCase = new Map<string, GateTrial[]>();
  for (const r of records) {
    const group = byCase.get(r.case_id);
    if (group) group.push(r);
    else byCase.set(r.case_id, [r]);
  }

  const gates: GateResult[] = Object.entries(config)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([verifier, rule]) => {
      if (isHumanGate(verifier)) return humanGate(verifier, rule, records, human);
      let substantive = 0;
      const cases = [...byCase.entries()].map(([case_id, trials]): CaseGateResult => {
        let passes = 0;
        let missing = 0;
        let verifier_errors = 0;
        for (const t of trials) {
          const a = t.assessments.find((x) => x.verifier === verifier);
          if (a && (a.status === "passed" || a.status === "failed" || a.status === "inconclusive")) substantive++;
          if (t.status === "infrastructure_error" || !a || a.status === "not_run" || a.status === "error") {
            missing++;
            // A verifier that raised (or is absent from a trial that ran) is the evaluation's defect.
            if (t.status !== "infrastructure_error" && (!a || a.status === "error")) verifier_errors++;
          } else if (a.status === "passed" || a.status === "not_applicable") passes++;
        }
        const pass_rate = passes / trials.length;
        // A case has at least one trial, so its Wilson interval exists.
        const compared_rate = rule.wilson ? wilsonInterval(passes, trials.length)!.low : pass_rate;
        // Stryker disable next-line EqualityOperator: equivalent, a rate never lands exactly on the 1e-12 tolerance below the minimum
        return { case_id, trials: trials.length, passes, missing, verifier_errors, pass_rate, compared_rate, ok: compared_rate >= rule.min_pass_rate - 1e-12 };
      });
      const failing = cases.filter((c) => !c.ok);
      // Would the case pass if every missing verdict had been a pass? Then only missing verdicts blocked it:
      // verifier errors (the evaluation's defect) when any were among them, else infrastructure errors.
      // (A failing case without missing verdicts fails this too: its best rate is the rate that failed.)
      const onlyMissing =
        failing.length > 0 &&
        failing.every((c) => {
          const best = c.passes + c.missing;
          const rate = rule.wilson ? wilsonInterval(best, c.trials)!.low : best / c.trials;
          // Stryker disable next-line EqualityOperator: equivalent, a rate never lands exactly on the 1e-12 tolerance below the minimum
          return rate >= rule.min_pass_rate - 1e-12;
        });
      const blocked_by_verifier_error = onlyMissing && failing.some((c) => c.verifier_errors > 0);
      const blocked_by_infrastructure = onlyMissing && !blocked_by_verifier_error;
      const ok = failing.length === 0;
      const what = rule.wilson ? "Wilson lower bound" : "pass rate";
      const message = ok
        ? `${verifier}: every case's ${what} >= ${rule.min_pass_rate}`
        : `${verifier}: ${failing.length} case(s) below ${what} ${rule.min_pass_rate}: ${failing
            .slice(0, 5)
            .map((c) => `${c.case_id} ${c.passes}/${c.trials}${c.missing ? ` (${c.missing} without a verdict${c.verifier_errors ? `, ${c.verifier_errors} of them by a verifier error` : ""})` : ""}`)
            .join(", ")}${failing.length > 5 ? ", …" : ""}`;
      return { verifier, rule, ok, blocked_by_infrastructure, blocked_by_verifier_error, verdicts: substantive, message, cases };
    });

  const required = gates.filter((g) => g.rule.required);
  if (required.length === 0) {
    return { ok: false, decision: "fail", exit_code: 1, gates, message: "no required verifier is configured: nothing can pass the gates" };
  }
  const failed = required.filter((g) => !g.ok);
  if (failed.length === 0) return { ok: true, decision: "pass", exit_code: 0, gates, message: `all ${required.length} required gate(s) passed` };
  // A real failure is a decision whatever else went wrong; otherwise a verifier error (fix the package)
  // outranks infrastructure errors (retry), since retrying cannot mend a broken verifier. A human gate
  // awaiting reviews decides last: it is no failure of the target, yet nothing may pass without it (exit 1).
  const awaiting = failed.filter((g) => g.human && g.human.status !== "assessed");
  const decision: GateVerdict = failed.some((g) => !g.blocked_by_infrastructure && !g.blocked_by_verifier_error && !awaiting.includes(g))
    ? "fail"
    : failed.some((g) => g.blocked_by_verifier_error)
      ? "evaluation_error"
      : failed.some((g) => g.blocked_by_infrastructure)
        ? "infrastructure"
        : "fail";
  const waits = awaiting.length
    ? `required human gate(s) ${awaiting.map((g) => g.verifier).join(", ")} await reviews: review the trials (reviews.jsonl), then decide again with \`crashlab gates <run-dir>\``
    : "";
  const realFailures = failed.length - awaiting.length;
  const message = {
    fail: realFailures === 0 ? `no pass decision yet: ${waits}` : `${realFailures} required gate(s) failed${waits ? `; ${waits}` : ""}`,
    evaluation_error: `verifier errors prevented a decision on ${failed.filter((g) => g.blocked_by_verifier_error).length} required gate(s): a verifier or clause of the evaluation package is broken (see each trial's assessment)${waits ? `; ${waits}` : ""}`,
    infrastructure: `infrastructure errors prevented a decision on ${realFailures} required gate(s)${waits ? `; ${waits}` : ""}`,
  }[decision];
  return { ok: false, decision, exit_code: EXIT_CODES[decision], gates, message };
}
