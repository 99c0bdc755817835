/** The judge stage: every verifier's assessment of the drafted record, the semantic ones first. */

import { semanticQuality, taskUnderstandingOutcome } from "../../judge/verifiers";
import type { Assessment } from "../../record/assessment";
import { grade } from "../../verify/deterministic";
import { runVerifier } from "../../verify/verifier";
import type { TrialState } from "../state";
import type { DraftRecord } from "./record";
import type { Verification } from "./verify";

/**
 * Judge: every verifier's assessment of the drafted record. After an infrastructure error none runs
 * (each is `not_run`, naming the stage). Otherwise the semantic layer runs first: its task_understanding
 * feeds the semantic_outcome check, which the deterministic outcome verifier then reads — so the
 * draft's checks and task metrics are updated here. Partial credit never overrides a deterministic failure.
 */
export async function judge(trial: TrialState, draft: DraftRecord, verification: Verification): Promise<Assessment[]> {
  const { verifiers } = trial.ctx;
  const scenario = trial.scenario;
  const error = draft.error;
  if (error) {
    return verifiers.map(({ verifier, required }) => ({
      verifier: verifier.id,
      version: verifier.version,
      kind: verifier.kind,
      status: "not_run" as const,
      required,
      rationale: `not run: infrastructure error at ${error.stage}`,
      evidence_ids: [],
    }));
  }
  const semantic: Assessment[] = [];
  for (const { verifier, required } of verifiers.filter((v) => v.verifier.kind === "semantic")) semantic.push(await runVerifier(verifier, { record: draft, scenario }, required));
  const understanding = taskUnderstandingOutcome(semantic);
  if (understanding !== undefined) {
    const required = semantic.find((a) => a.verifier === "semantic.task_understanding")!.required;
    draft.checks = grade({ ...verification.input, semantic_task_understanding: understanding, semantic_task_understanding_required: required }).checks;
  }
  draft.metrics.task.semantic_quality = semanticQuality(semantic);
  draft.metrics.task.task_completed = draft.checks.every((ch) => !ch.required || ch.status !== "failed");
  const deterministic: Assessment[] = [];
  for (const { verifier, required } of verifiers.filter((v) => v.verifier.kind !== "semantic")) deterministic.push(await runVerifier(verifier, { record: draft, scenario }, required));
  return [...deterministic, ...semantic];
}
