/** The results.json schema: the run, its gates and summary, and one row per trial. */

import { z } from "zod";
import { Limits, TrialRecord } from "../record/trial-record";

/** results.json, versioned. Exported as JSON Schema too (`crashlab schema`, docs/results.schema.json). */
export const RESULTS_VERSION = "1.0";

const IntervalSchema = z.strictObject({ low: z.number(), high: z.number() }).nullable();
const Pct = z.strictObject({ p50: z.number().nullable(), p90: z.number().nullable() });

export const GateRuleSchema = z.strictObject({
  required: z.boolean(),
  min_pass_rate: z.number().min(0).max(1),
  wilson: z.boolean(),
  /** Human gates (`human.*`) only: the least number of reviewed trials, and the least share of the run's trials. */
  min_reviewed: z.number().int().min(0).optional(),
  min_reviewed_share: z.number().min(0).max(1).optional(),
});

/** A human gate's standing: what the reviews said and whether there were enough of them (docs/review.md). */
const HumanGateSchema = z.strictObject({
  status: z.enum(["not_assessed", "too_few_reviews", "assessed"]),
  reviewed_verifier: z.string(),
  trials: z.number(),
  reviewed: z.number(),
  passes: z.number(),
  failures: z.number(),
  unsure: z.number(),
  min_reviewed: z.number(),
  min_reviewed_share: z.number(),
  pass_rate: z.number().nullable(),
  compared_rate: z.number().nullable(),
});

/** One row per trial: the trial record without its bulky evidence (events, world, turns stay in the artifacts). */
export const ResultsTrial = TrialRecord.pick({
  trial_id: true,
  case_id: true,
  repetition: true,
  scenario_id: true,
  case_kind: true,
  target: true,
  seed: true,
  status: true,
  error: true,
  cleanup_errors: true,
  duration_ms: true,
  input: true,
  metrics: true,
  dimensions: true,
  checks: true,
  procedure: true,
  reported_evidence: true,
  assessments: true,
  limits: true,
  provenance: true,
  artifacts: true,
}).extend({ started_at: z.string(), wall_ms: z.number(), tags: z.array(z.string()) });

export const ResultsFile = z.strictObject({
  results_version: z.literal(RESULTS_VERSION),
  run: z.strictObject({
    run_id: z.string(),
    plan: z.string(),
    target: z.string(),
    target_descriptor: z.record(z.string(), z.json()),
    seed: z.number(),
    repetitions: z.number().int().positive(),
    concurrency: z.number().int().positive(),
    real_time: z.boolean(),
    started_at: z.string(),
    finished_at: z.string(),
    crashlab_version: z.string(),
    package_digest: z.string(),
    limits: Limits,
    /** True when the run stopped (a signal) before every selected trial finished: it has no pass decision. */
    interrupted: z.boolean(),
    /** The signal that interrupted the run (SIGINT, SIGTERM, SIGHUP), or null. */
    interrupted_by: z.string().nullable(),
    /** Selected trials that have no record, with why: never started, or abandoned at a second signal. */
    not_run: z.array(z.strictObject({ trial_id: z.string(), case_id: z.string(), reason: z.enum(["not started", "abandoned while running"]) })),
    /** Cases with at least one trial not run. */
    cases_not_run: z.array(z.string()),
    not_started: z.number().int().min(0),
  }),
  gates: z.strictObject({
    config: z.record(z.string(), GateRuleSchema),
    ok: z.boolean(),
    /** pass (0), fail (1), infrastructure (3), evaluation_error (4: a verifier of the package raised), interrupted (129/130/143). */
    decision: z.enum(["pass", "fail", "infrastructure", "evaluation_error", "interrupted"]),
    exit_code: z.union([z.literal(0), z.literal(1), z.literal(3), z.literal(4), z.literal(129), z.literal(130), z.literal(143)]),
    message: z.string(),
    results: z.array(
      z.strictObject({
        verifier: z.string(),
        rule: GateRuleSchema,
        ok: z.boolean(),
        blocked_by_infrastructure: z.boolean(),
        blocked_by_verifier_error: z.boolean(),
        verdicts: z.number(),
        message: z.string(),
        cases: z.array(
          z.strictObject({
            case_id: z.string(),
            trials: z.number(),
            passes: z.number(),
            missing: z.number(),
            verifier_errors: z.number(),
            pass_rate: z.number(),
            compared_rate: z.number(),
            ok: z.boolean(),
          }),
        ),
        human: HumanGateSchema.optional(),
      }),
    ),
  }),
  summary: z.strictObject({
    trials: z.number(),
    by_status: z.strictObject({ passed: z.number(), failed: z.number(), inconclusive: z.number(), infrastructure_error: z.number() }),
    pass_rate: z.number().nullable(),
    wilson_95: IntervalSchema,
    errors_by_stage: z.record(z.string(), z.number()),
    cases: z.array(
      z.strictObject({
        case_id: z.string(),
        trials: z.number(),
        passes: z.number(),
        failures: z.number(),
        inconclusive: z.number(),
        infrastructure_errors: z.number(),
        pass_rate: z.number(),
        wilson_95: IntervalSchema,
        pass_hat_k: z.record(z.string(), z.number().nullable()),
        duration_ms: Pct,
        response_latency_ms: Pct,
      }),
    ),
    conditions: z.array(
      z.strictObject({
        condition: z.string(),
        trials: z.number(),
        passes: z.number(),
        pass_rate: z.number().nullable(),
        wilson_95: IntervalSchema,
        infrastructure_errors: z.number(),
      }),
    ),
    judge: z.strictObject({
      judged: z.number(),
      requests: z.number(),
      latency_ms: z.number(),
      tokens: z.strictObject({ input: z.number(), cached: z.number(), cache_write: z.number(), output: z.number(), reasoning: z.number(), total: z.number() }),
      cost_usd: z.number().nullable(),
      unpriced: z.number(),
    }),
  }),
  trials: z.array(ResultsTrial),
});
export type ResultsFile = z.infer<typeof ResultsFile>;

export function resultsJsonSchema(): unknown {
  return z.toJSONSchema(ResultsFile, { target: "draft-2020-12" });
}
