/** What a verifier is, the built-in outcome verifier, and running one so that a throw is an error, never a pass. */

import type { Scenario } from "../dataset/schema";
import type { TrialRecord } from "../record/trial-record";
import type { Assessment, JudgeProvenance, OutcomeCheck } from "../record/assessment";
import { noteDefinitionSite } from "./source";

/** What a verifier reads: the finished trial record (nothing live) and the evaluator-only scenario. */
export interface VerifierInput {
  record: Omit<TrialRecord, "assessments" | "status">;
  scenario: Scenario;
}

export interface Verdict {
  status: "passed" | "failed" | "inconclusive" | "not_applicable" | "not_run" | "error";
  score?: number | null;
  rationale: string;
  evidence_ids: string[];
  checks?: OutcomeCheck[];
  /** Semantic verifiers: the judge's model, settings, clause, latency, tokens and cost (docs/verifiers-and-clauses.md). */
  judge?: JudgeProvenance;
}

export interface Verifier {
  /** Stable id, used by gates (`--require <id>`) and reports. */
  id: string;
  version: string;
  kind: "deterministic" | "semantic";
  description: string;
  /** Whether the verifier gates by default; PLAN gates and the CLI override it. */
  required: boolean;
  assess(input: VerifierInput): Verdict | Promise<Verdict>;
}

export function defineVerifier(verifier: Verifier): Verifier {
  if (!/^[a-z][a-z0-9_.-]*$/.test(verifier.id)) throw new Error(`verifier id "${verifier.id}" must be lowercase letters, digits, '_', '-', '.'`);
  return noteDefinitionSite(verifier);
}

/** The outcome assessment as a verifier: passes when no required check failed. */
export const OUTCOME_VERIFIER_ID = "outcome";

export const outcomeVerifier: Verifier = defineVerifier({
  id: OUTCOME_VERIFIER_ID,
  version: "1.0",
  kind: "deterministic",
  description: "Outcome assessment: every required check passes (docs/grading.md)",
  required: true,
  assess({ record }) {
    const checks = record.checks;
    const failed = checks.filter((c) => c.required && c.status === "failed");
    return {
      status: failed.length === 0 ? "passed" : "failed",
      rationale: failed.length === 0 ? "no required check failed" : failed.map((c) => `${c.id}: ${c.rationale}`).join(" | "),
      evidence_ids: [...new Set(failed.flatMap((c) => c.evidence_ids))],
      checks,
    };
  },
});

/** Run one verifier; a verifier that throws is a verifier error, never a pass. */
export async function runVerifier(verifier: Verifier, input: VerifierInput, required: boolean): Promise<Assessment> {
  try {
    const verdict = await verifier.assess(input);
    return {
      verifier: verifier.id,
      version: verifier.version,
      kind: verifier.kind,
      status: verdict.status,
      required,
      ...(verdict.score !== undefined ? { score: verdict.score } : {}),
      rationale: verdict.rationale,
      evidence_ids: verdict.evidence_ids,
      ...(verdict.checks ? { checks: verdict.checks } : {}),
      ...(verdict.judge ? { judge: verdict.judge } : {}),
    };
  } catch (error) {
    return {
      verifier: verifier.id,
      version: verifier.version,
      kind: verifier.kind,
      status: "error",
      required,
      rationale: `verifier error: ${(error as Error)?.message ?? String(error)}`,
      evidence_ids: [],
    };
  }
}
