/** The trial record schema (docs/results.md): everything verifiers, reporters and gates read of a trial. */

import { z } from "zod";
import { Assessment, OutcomeCheck } from "./assessment";

/**
 * The trial record (docs/results.md): everything verifiers, reporters and gates need, and
 * nothing live. Every time is on the trial's own timeline (ms since the trial started), except
 * `wall`, which the determinism check ignores. A contract every layer reads, so it sits at the bottom:
 * this folder imports nothing of ours.
 */
export const TRIAL_RECORD_VERSION = "1.0";

const json = z.json();

/**
 * A path of an artifact, relative to its run folder: segments joined by `/`, none empty, `.` or `..`, no
 * leading `/`, backslash, colon or control character. Anything else could name a file outside the folder
 * (docs/results.md, "Artifact paths").
 */
export const ARTIFACT_PATH = /^(?!\.{1,2}(?:\/|$))[^/\\:\x00-\x1f\x7f]+(?:\/(?!\.{1,2}(?:\/|$))[^/\\:\x00-\x1f\x7f]+)*$/;
export const ArtifactPath = z.string().max(1024).regex(ARTIFACT_PATH, "expected a plain relative path inside the run folder (segments joined by /, no '..', '.', empty segment, leading /, backslash, colon or control character)");

export const TrialStatus = z.enum(["passed", "failed", "inconclusive", "infrastructure_error"]);
export type TrialStatus = z.infer<typeof TrialStatus>;

export const TrialError = z.strictObject({
  stage: z.string(),
  message: z.string(),
});
export type TrialError = z.infer<typeof TrialError>;

export const DimensionStatus = z.enum(["passed", "failed", "not_applicable", "not_assessed"]);
export const Dimension = z.strictObject({
  status: DimensionStatus,
  rationale: z.string(),
  evidence_ids: z.array(z.string()),
});
export type Dimension = z.infer<typeof Dimension>;

export const ToolExecution = z.strictObject({
  call_id: z.string(),
  name: z.string(),
  /** Parsed arguments; null when the target sent something that is not a JSON object. */
  arguments: z.record(z.string(), json).nullable(),
  raw_arguments: z.string(),
  status: z.enum(["completed", "failed"]),
  output: json.optional(),
  error: z.strictObject({ code: z.string(), message: z.string() }).optional(),
  requested_ms: z.number(),
  completed_ms: z.number(),
  delegation_id: z.string().optional(),
  /** The world event this call produced, when it reached the world. */
  world_seq: z.number().optional(),
  /**
   * "target": the target executed this call itself and reported it (a client-delegation service,
   * docs/remote-assistant.md); absent: the harness executed it against crashlab's world and observed it.
   */
  reported_by: z.literal("target").optional(),
});
export type ToolExecution = z.infer<typeof ToolExecution>;

export const Delegation = z.strictObject({
  delegation_id: z.string(),
  target: z.enum(["client", "responses"]),
  created_ms: z.number(),
  /** When the backend's content became available to the frontend. */
  content_ms: z.number().optional(),
  completed_ms: z.number().optional(),
});
export type Delegation = z.infer<typeof Delegation>;

/** What a caller utterance did; RUN labels its user turns after the fact (CRAWL and WALK leave it out) (docs/audio-and-metrics.md). */
export const CallerActionLabel = z.enum(["OPENING", "SPEAK", "BACKCHANNEL", "INTERRUPT", "STOP"]);

export const Turn = z.strictObject({
  role: z.enum(["user", "assistant"]),
  text: z.string(),
  start_ms: z.number(),
  end_ms: z.number(),
  action: CallerActionLabel.optional(),
});
export type Turn = z.infer<typeof Turn>;

/** One line of events/<trial>.jsonl: harness, world and target events on one timeline. */
export const LoggedEvent = z.strictObject({
  at_ms: z.number(),
  source: z.enum(["harness", "target", "world"]),
  type: z.string(),
  data: json,
});
export type LoggedEvent = z.infer<typeof LoggedEvent>;

export const TokenUsageSchema = z.strictObject({
  total: z.number(),
  input: z.strictObject({ cached: z.number(), cache_write: z.number(), text: z.number(), audio: z.number() }),
  output: z.strictObject({ text: z.number(), audio: z.number(), reasoning: z.number() }),
});

export const TaskMetrics = z.strictObject({
  task_completed: z.boolean(),
  semantic_quality: z.strictObject({ score: z.number().nullable(), dimensions: z.record(z.string(), z.number().nullable()) }),
  tool_accuracy: z.number(),
  tool_calls: z.strictObject({ actual: z.number(), expected: z.number() }),
  delegation_accuracy: z.number(),
  /**
   * `expected`: the golden path's count when the scenario gives one, else null; `policy`: the scenario's
   * delegation policy. Records written before the count held the policy in `expected`; they still read.
   */
  delegations: z.union([z.strictObject({ actual: z.number(), expected: z.number().nullable(), policy: z.string() }), z.strictObject({ actual: z.number(), expected: z.string() })]),
  turns: z.strictObject({ actual: z.number(), expected: z.number().nullable() }),
  /** RUN: passed required procedure steps ÷ required steps; null without a procedure. Absent in CRAWL and WALK. */
  procedure_adherence: z.number().nullable().optional(),
});
export type TaskMetrics = z.infer<typeof TaskMetrics>;

export const ConsumptionMetrics = z.strictObject({
  frontend: z.strictObject({ audio_duration_ms: z.number().nullable() }),
  /** Backend tokens, with `per_model` always (`unknown` for responses that named no model). */
  backend: TokenUsageSchema.extend({ per_model: z.record(z.string(), TokenUsageSchema).optional() }).nullable(),
});

export const Metrics = z.strictObject({
  task: TaskMetrics,
  /** Audio metrics; null for text-level targets, which produce no audio (docs/audio-and-metrics.md). */
  audio: z.record(z.string(), json).nullable(),
  consumption: ConsumptionMetrics,
});
export type Metrics = z.infer<typeof Metrics>;

export const Limits = z.strictObject({
  time_ms: z.number().int().positive(),
  turns: z.number().int().positive(),
  tool_calls: z.number().int().positive(),
  provider_requests: z.number().int().positive(),
});
export type Limits = z.infer<typeof Limits>;

export const LimitUsage = z.strictObject({
  time_ms: z.number(),
  turns: z.number(),
  tool_calls: z.number(),
  provider_requests: z.number(),
  /** The first limit that was hit, if any. */
  exceeded: z.enum(["time_ms", "turns", "tool_calls", "provider_requests"]).nullable(),
});
export type LimitUsage = z.infer<typeof LimitUsage>;

/** The models asked for, the ones the service reported serving, and where they differ (docs/results.md, "Provenance"). */
export const ModelProvenance = z.strictObject({
  requested: z.strictObject({ model: z.string().nullable(), backend_model: z.string().nullable(), endpoint: z.string().nullable() }),
  observed: z.strictObject({ model: z.array(z.string()), backend_model: z.array(z.string()), served_by: z.array(z.string()) }),
  mismatches: z.array(z.string()),
});

export const Provenance = z.strictObject({
  digest: z.string(),
  parts: z.strictObject({
    package: z.string(),
    crashlab_version: z.string(),
    target: z.string(),
    scenario: z.string(),
    input: z.string(),
    seed: z.number(),
    limits: z.string(),
  }),
  /**
   * The target digest's parts, each a sha256: `crashlab compare` names the ones that differ. This field,
   * `git.repositories` and `models` are written on every trial; records from before them still read.
   */
  target_parts: z.strictObject({
    instructions: z.string(),
    tools: z.string(),
    model: z.string(),
    voice: z.string(),
    delegation: z.string(),
    endpoint: z.string(),
    settings: z.string(),
  }).optional(),
  git: z.strictObject({
    /** The commit of the repository holding the package folder. */
    commit: z.string().nullable(),
    /** Whether any file that ran differs from its commit, in any repository; null without git. */
    dirty: z.boolean().nullable(),
    /** Every repository holding a file that ran: root (relative to the package's repository), commit, dirty, the changed files. */
    repositories: z.array(z.strictObject({ root: z.string(), commit: z.string().nullable(), dirty: z.boolean().nullable(), changed: z.array(z.string()) })).optional(),
  }),
  models: ModelProvenance.optional(),
  node: z.string(),
  platform: z.string(),
});
export type Provenance = z.infer<typeof Provenance>;

/** What reached the target as the caller: text, synthesized speech (with its synthesizer), or a recording. */
export const CallerInputRecord = z.strictObject({
  /** text (text-level), synthetic (CRAWL speech), recording (WALK), simulated (RUN: a simulated caller's whole side of the call). */
  kind: z.enum(["text", "synthetic", "recording", "simulated"]),
  /** sha256 of the exact bytes (or text) delivered. */
  sha256: z.string(),
  duration_ms: z.number().nullable(),
  /** Remote or cached speech also names its endpoint and where its key came from (never the key). */
  speech: z.strictObject({ provider: z.string(), model: z.string(), voice: z.string(), endpoint: z.string().optional(), credential: z.string().optional() }).optional(),
  /** RUN: who the simulated caller was (offline or live, voice, models); never a secret. */
  caller: z.record(z.string(), json).optional(),
  recording: z
    .strictObject({
      id: z.string(),
      /** As the dataset declares it: relative to the dataset file. */
      path: z.string(),
      /** The dataset file, relative to the evaluation package's folder (its file name when the package is unknown). */
      dataset: z.string(),
      condition: z.string(),
      metadata: z.record(z.string(), z.json()),
    })
    .optional(),
});
export type CallerInputRecord = z.infer<typeof CallerInputRecord>;

/** What one simulated-caller line does, as the caller meant it (src/core/caller/types.ts `CallerAct`). */
const factValue = z.union([z.string(), z.number(), z.boolean()]);
export const CallerActRecord = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("request") }),
  z.strictObject({ kind: z.literal("give"), field: z.string(), value: factValue }),
  z.strictObject({ kind: z.literal("correct"), field: z.string(), value: factValue }),
  z.strictObject({ kind: z.literal("confirm") }),
  z.strictObject({ kind: z.literal("decline") }),
  z.strictObject({ kind: z.literal("ask") }),
  z.strictObject({ kind: z.literal("interrupt") }),
  z.strictObject({ kind: z.literal("backchannel") }),
  z.strictObject({ kind: z.literal("repeat_request") }),
  z.strictObject({ kind: z.literal("end") }),
]);
/** What the caller took the assistant's turn to ask (src/core/caller/types.ts `HeardAsk`). */
export const HeardAskRecord = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("fields"), fields: z.array(z.string()) }),
  z.strictObject({ kind: z.literal("go_ahead"), action: z.string().nullable() }),
  z.strictObject({ kind: z.literal("question") }),
]);

/**
 * RUN: how the conversation went, as the harness saw it — who opened, the caller, the relay's media
 * statistics, what ended it, and the caller's agenda as it progressed.
 */
export const ConversationRecord = z.strictObject({
  opens: z.enum(["caller", "assistant"]),
  relay: z.strictObject({
    frames: z.number().int(),
    caller_frames: z.number().int(),
    underflow_frames: z.number().int(),
    dry_spells: z.number().int(),
    max_buffered_ms: z.number(),
    reserve_wait_ms: z.number(),
    lag_events: z.number().int(),
    max_lag_ms: z.number(),
    total_lag_ms: z.number(),
    /** How late each tick ran, in whole ms: `[ms, ticks]` pairs, ascending (a lag percentile reads from it). */
    tick_lag_histogram: z.array(z.tuple([z.number().int(), z.number().int()])),
    queue_max: z.number().int(),
  }),
  completion: z.strictObject({
    by: z.enum(["rule", "observer"]),
    /** Live: the completion observer's model and usage (the harness's, never added to the target's). */
    observer: z.strictObject({ model: z.string(), calls: z.number().int(), failures: z.number().int(), input_tokens: z.number(), output_tokens: z.number() }).optional(),
    ended: z.enum(["complete", "duration_limit", "no_opening", "stopped", "failed"]),
    outcome: z.enum(["resolved", "refused", "unresolved"]).nullable(),
    reason: z.string(),
    fired_ms: z.number().nullable(),
  }),
  agenda: z.array(z.strictObject({ id: z.string(), status: z.enum(["done", "pending"]), at_ms: z.number().nullable() })),
  utterances: z.array(
    z.strictObject({
      text: z.string(),
      intent: z.string(),
      agenda_item: z.string().nullable(),
      start_ms: z.number(),
      end_ms: z.number().nullable(),
      /** The offline caller's acts for this line (absent for the live caller, which keeps no agenda). */
      acts: z.array(CallerActRecord).optional(),
      /** What the offline caller took the assistant's turn before this line to ask; null: nothing. */
      heard: HeardAskRecord.nullable().optional(),
    }),
  ),
});
export type ConversationRecord = z.infer<typeof ConversationRecord>;

/** One RFC 6902 operation, as world patches and diffs are written. */
export const JsonPatchOperation = z.strictObject({
  op: z.enum(["add", "remove", "replace", "move", "copy", "test"]),
  path: z.string(),
  value: json.optional(),
  from: z.string().optional(),
});
export type JsonPatchOperation = z.infer<typeof JsonPatchOperation>;

/**
 * A causal world event as the record keeps it (docs/worlds.md): one per operation the world
 * performed, typed so a package verifier reads `operation`, `outcome` or `cause.call_id` without a cast.
 */
export const WorldEventRecord = z.strictObject({
  seq: z.number().int(),
  at_ms: z.number(),
  operation: z.string(),
  kind: z.enum(["read", "write"]),
  args: json,
  outcome: z.enum(["ok", "error"]),
  result: json.optional(),
  error: z.strictObject({ code: z.string(), message: z.string(), details: json.optional() }).optional(),
  patches: z.array(JsonPatchOperation),
  cause: z.strictObject({ trial: z.string(), delegation_id: z.string().optional(), call_id: z.string().optional() }),
  /** "target": derived from a call and state snapshot the target reported; absent: crashlab's world performed it. */
  reported_by: z.literal("target").optional(),
});
export type WorldEventRecord = z.infer<typeof WorldEventRecord>;

/** One procedure step as graded (docs/grading.md, RUN): its verdict, why, and the evidence ids it rests on. */
export const ProcedureStepResult = z.strictObject({
  id: z.string(),
  kind: z.string(),
  required: z.boolean(),
  critical: z.boolean(),
  status: z.enum(["passed", "failed"]),
  rationale: z.string(),
  evidence_ids: z.array(z.string()),
  /** When the step was done (the moment later steps are ordered after); null when it has no moment. */
  at_ms: z.number().nullable(),
});
export type ProcedureStepResult = z.infer<typeof ProcedureStepResult>;

export const ProcedureResult = z.strictObject({
  id: z.string(),
  /** Passed required steps ÷ required steps; null when no step is required. */
  adherence: z.number().nullable(),
  steps: z.array(ProcedureStepResult),
});
export type ProcedureResult = z.infer<typeof ProcedureResult>;

export const TrialRecord = z.strictObject({
  record_version: z.literal(TRIAL_RECORD_VERSION),
  trial_id: z.string(),
  case_id: z.string(),
  repetition: z.number().int().positive(),
  scenario_id: z.string(),
  case_kind: z.string(),
  target: z.string(),
  seed: z.number(),
  status: TrialStatus,
  error: TrialError.nullable(),
  /**
   * Failures after the target had already failed on its own (a limit hit, a response timeout): e.g. the
   * session could not be closed cleanly. Recorded beside the outcome, never instead of it; absent when none.
   */
  cleanup_errors: z.array(TrialError).optional(),
  /** Wall-clock facts: excluded from determinism comparisons. */
  wall: z.strictObject({ started_at: z.string(), duration_ms: z.number() }),
  duration_ms: z.number(),
  input: CallerInputRecord,
  turns: z.array(Turn),
  delegations: z.array(Delegation),
  tool_executions: z.array(ToolExecution),
  world: z.strictObject({
    name: z.string(),
    version: z.string(),
    initial: json,
    final: json,
    diff: z.array(JsonPatchOperation),
    events: z.array(WorldEventRecord),
    view: z.record(z.string(), json),
    /** "target": `final` (and the events and diff) are the state the target reported, not crashlab's world (docs/grading.md). */
    reported_by: z.literal("target").optional(),
  }),
  events: z.array(LoggedEvent),
  /** RUN only: the conversation as the harness saw it. */
  conversation: ConversationRecord.optional(),
  /**
   * Present when the target reported its own evidence (a client-delegation service, docs/remote-assistant.md):
   * its tool calls and state are the target's word, not crashlab's observation. `initial_state`: whether the
   * service received the scenario's initial state (it accepts fixtures) or had to be provisioned by its owner.
   */
  reported_evidence: z
    .strictObject({
      by: z.literal("target"),
      tool_calls: z.number().int(),
      state_snapshots: z.number().int(),
      initial_state: z.enum(["applied", "not_accepted", "not_needed"]),
    })
    .optional(),
  dimensions: z.record(z.string(), Dimension),
  /** Outcome checks (docs/grading.md). */
  checks: z.array(OutcomeCheck),
  /** The scenario's procedure, step by step (RUN); absent when the scenario has none. */
  procedure: ProcedureResult.optional(),
  metrics: Metrics,
  assessments: z.array(Assessment),
  limits: z.strictObject({ config: Limits, usage: LimitUsage }),
  provenance: Provenance,
  artifacts: z.record(z.string(), ArtifactPath),
});
export type TrialRecord = z.infer<typeof TrialRecord>;

/** passed | failed | inconclusive | infrastructure_error, from the required assessments. */
export function trialStatus(error: TrialError | null, assessments: ReadonlyArray<Pick<Assessment, "required" | "status">>): TrialStatus {
  if (error) return "infrastructure_error";
  const required = assessments.filter((a) => a.required);
  if (required.some((a) => a.status === "failed")) return "failed";
  if (required.some((a) => a.status === "inconclusive" || a.status === "error" || a.status === "not_run")) return "inconclusive";
  return "passed";
}
