/** The assessment schema: one verifier's verdict on one trial, which is all the gates read. */

import { z } from "zod";

/**
 * The assessment (docs/results.md): one verifier's verdict on one trial, with the outcome checks
 * it is made of and, for semantic verifiers, the judge's provenance. Gates read assessments only.
 */

export const AssessmentStatus = z.enum(["passed", "failed", "inconclusive", "not_applicable", "not_run", "error"]);
export type AssessmentStatus = z.infer<typeof AssessmentStatus>;

export const OutcomeCheck = z.strictObject({
  id: z.string(),
  status: z.enum(["passed", "failed", "not_applicable"]),
  required: z.boolean(),
  rationale: z.string(),
  evidence_ids: z.array(z.string()),
});
export type OutcomeCheck = z.infer<typeof OutcomeCheck>;

/**
 * Provenance of a semantic judgement: who judged, with what settings, which clause version, over which
 * evidence, at what latency, tokens and estimated cost. Kept apart from the target's consumption.
 */
export const JudgeProvenance = z.strictObject({
  /** The model asked for; `observed_models` are what the provider reported. */
  model: z.string(),
  observed_models: z.array(z.string()),
  settings: z.strictObject({
    reasoning_effort: z.string().nullable(),
    repetitions: z.number().int().positive(),
    /** Base URL of a Responses-compatible server; null for the OpenAI API. */
    endpoint: z.string().nullable(),
    timeout_ms: z.number(),
    max_retries: z.number().int().min(0),
    /** Where the key sent to the judge came from (`OPENAI_API_KEY`, `env:NAME`, `none`); never the key. */
    credential: z.string(),
  }),
  clause: z.strictObject({ id: z.string(), version: z.string() }),
  /** The evidence ids handed to the judge (its whole catalog for this clause). */
  offered_evidence_ids: z.array(z.string()),
  latency_ms: z.number(),
  tokens: z.strictObject({ input: z.number(), cached: z.number(), cache_write: z.number(), output: z.number(), reasoning: z.number(), total: z.number() }),
  /** Estimated from the price table; null when the model has no price. */
  cost_usd: z.number().nullable(),
  /** Why the judgement is inconclusive (a reason code); null otherwise. */
  reason: z.string().nullable(),
  /** task_understanding's explicit task-completion decision; null for other clauses or without a verdict. */
  task_completed: z.boolean().nullable(),
  votes: z.array(
    z.strictObject({
      outcome: z.enum(["pass", "fail", "inconclusive"]),
      reason: z.string().nullable(),
      score: z.number().nullable(),
      latency_ms: z.number(),
      response_id: z.string().nullable(),
    }),
  ),
});
export type JudgeProvenance = z.infer<typeof JudgeProvenance>;

/** Contract 5: one verifier's verdict on one trial. */
export const Assessment = z.strictObject({
  verifier: z.string(),
  version: z.string(),
  kind: z.enum(["deterministic", "semantic"]),
  status: AssessmentStatus,
  required: z.boolean(),
  score: z.number().nullable().optional(),
  rationale: z.string(),
  evidence_ids: z.array(z.string()),
  /** Sub-checks, for verifiers made of several (the outcome assessment of docs/grading.md). */
  checks: z.array(OutcomeCheck).optional(),
  /** Semantic verifiers: the judge's provenance and cost (docs/verifiers-and-clauses.md). */
  judge: JudgeProvenance.optional(),
  /**
   * Where the verifier's code came from: `crashlab` (built in, of the crashlab version the provenance
   * names), `package` (the file that defines it, relative to the package's repository, and that file's
   * sha256), or `unknown` (defined outside any file the package loaded).
   */
  source: z.strictObject({ origin: z.enum(["crashlab", "package", "unknown"]), file: z.string().nullable(), sha256: z.string().nullable() }).optional(),
});
export type Assessment = z.infer<typeof Assessment>;
