/** People's reviews of a run as the report shows them: the reviews that count, human gates, judge calibration. */

import { calibrate } from "../review/calibrate";
import { humanVerdicts, latestReviews, reviewableVerifiers } from "../review/reviews";
import { decideWithReviews, type RunReviews } from "../review/run-reviews";
import type { ReviewsView } from "./client/data";
import { decisionState, gateView, reportTrial } from "./view-model";

/**
 * People's reviews of a run as the report shows them: the reviews that count, the human gates decided
 * again with them (the same rules as `crashlab gates`), and the judge's calibration on this run's own
 * reviews (as `crashlab calibrate`: carried reviews are never counted there, so no label counts twice).
 */
export function reviewsView(run: RunReviews, carried: boolean): ReviewsView {
  const lean = run.results.trials.map(reportTrial);
  const decision = decideWithReviews(run);
  const calibration = calibrate([{ run_id: run.results.run.run_id, run_dir: "", trials: run.results.trials, verdicts: humanVerdicts(latestReviews(run.own)) }]);
  return {
    reviews: run.latest.map((r) => ({
      trial_id: r.trial_id,
      verifier: r.verifier,
      verdict: r.verdict,
      reviewer: r.reviewer,
      note: r.note,
      at: r.at,
      ...(r.anchor ? { anchor: r.anchor } : {}),
      ...(r.carried_from ? { carried_from: r.carried_from } : {}),
    })),
    reviewable: [...run.scope.verifiers],
    human_gates: decision.gates.filter((g) => g.human).map((g) => gateView(g, lean)),
    decision: decision.gates.some((g) => g.human)
      ? { state: decisionState({ run: run.results.run, gates: { ...run.results.gates, decision: decision.decision } }), exit_code: run.results.run.interrupted ? run.results.gates.exit_code : decision.exit_code, message: decision.message }
      : null,
    calibration: calibration.clauses.map((c) => ({ verifier: c.verifier, n: c.n, agreement: c.agreement, kappa: c.kappa, kappa_ci95: c.kappa_ci95, unsure: c.unsure, judge_inconclusive: c.judge_inconclusive, disagreements: c.disagreements.length })),
    carried,
  };
}

/** A run without reviews.jsonl: nothing reviewed yet, what could be (the gates stay as results.json has them). */
export function emptyReviewsView(gateConfig: Readonly<Record<string, unknown>>): ReviewsView {
  return { reviews: [], reviewable: [...reviewableVerifiers(gateConfig)], human_gates: [], decision: null, calibration: [], carried: false };
}
