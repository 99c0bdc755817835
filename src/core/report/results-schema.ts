import { z } from "zod";
import { Assessment, Dimension, LimitUsage, Limits, Metrics, OutcomeCheck, Provenance, TrialError, TrialStatus } from "../run/record";

/** results.json, versioned. Exported as JSON Schema too (`crashlab schema`, docs/results.schema.json). */
export const RESULTS_VERSION = "1.0";

const IntervalSchema = z.strictObject({ low: z.number(), high: z.number() }).nullable();
const Pct = z.strictObject({ p50: z.number().nullable(), p90: z.number().nullable() });

export const GateRuleSchema = z.strictObject({ required: z.boolean(), min_pass_rate: z.number().min(0).max(1), wilson: z.boolean() });

export const ResultsTrial = z.strictObject({
  trial_id: z.string(),
  case_id: z.string(),
  repetition: z.number().int().positive(),
  scenario_id: z.string(),
  case_kind: z.string(),
  target: z.string(),
  seed: z.number(),
  status: TrialStatus,
  error: TrialError.nullable(),
  started_at: z.string(),
  wall_ms: z.number(),
  duration_ms: z.number(),
  metrics: Metrics,
  dimensions: z.record(z.string(), Dimension),
  checks: z.array(OutcomeCheck),
  assessments: z.array(Assessment),
  limits: z.strictObject({ config: Limits, usage: LimitUsage }),
  provenance: Provenance,
  artifacts: z.record(z.string(), z.string()),
});

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
    interrupted: z.boolean(),
    not_started: z.number().int().min(0),
  }),
  gates: z.strictObject({
    config: z.record(z.string(), GateRuleSchema),
    ok: z.boolean(),
    exit_code: z.union([z.literal(0), z.literal(1), z.literal(3)]),
    message: z.string(),
    results: z.array(
      z.strictObject({
        verifier: z.string(),
        rule: GateRuleSchema,
        ok: z.boolean(),
        blocked_by_infrastructure: z.boolean(),
        message: z.string(),
        cases: z.array(
          z.strictObject({
            case_id: z.string(),
            trials: z.number(),
            passes: z.number(),
            missing: z.number(),
            pass_rate: z.number(),
            compared_rate: z.number(),
            ok: z.boolean(),
          }),
        ),
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
  }),
  trials: z.array(ResultsTrial),
});
export type ResultsFile = z.infer<typeof ResultsFile>;

export function resultsJsonSchema(): unknown {
  return z.toJSONSchema(ResultsFile, { target: "draft-2020-12" });
}
