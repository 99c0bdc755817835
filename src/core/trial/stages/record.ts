/** The record stage: the trial record drafted from what was observed and graded, then finished with its verdict. */

import { buildEvidenceCatalog } from "../../judge/evidence";
import { provenanceDigest, targetDigest } from "../../provenance/digest";
import { modelProvenance } from "../../provenance/models";
import type { Assessment } from "../../record/assessment";
import { TRIAL_RECORD_VERSION, trialStatus, type CallerInputRecord, type TrialRecord } from "../../record/trial-record";
import type { AgentEvent } from "../../target/types";
import { actualTurns } from "../../verify/turns";
import type { Json } from "../../world/types";
import { backendUsage } from "../audio-metrics";
import type { CallerAudio, ReferenceTranscript, TrialMedia, TrialResult } from "../context";
import type { TrialState } from "../state";
import type { Observation } from "./measure";
import type { Verification } from "./verify";

/** The record before its verdict: what verifiers read. */
export type DraftRecord = Omit<TrialRecord, "assessments" | "status">;

/** What reached the target as the caller: as the record states it, and the exact bytes (or text) the provenance digest covers. */
export interface DeliveredInput {
  record: CallerInputRecord;
  digest_input: string | Uint8Array;
}

/** Record, first half: everything observed, graded and measured, as data; nothing live. */
export function draftRecord(trial: TrialState, input: DeliveredInput, observed: Observation, verification: Verification): DraftRecord {
  const { ctx, spec, scenario, usage, limits } = trial;
  const c = trial.case;
  trial.logAudioFrames(); // the per-chunk audio counts join the log before the record takes it
  const { turns, delegations } = observed;
  const tools = trial.tools;
  const error = trial.error;
  const descriptor = ctx.target.describe();
  const provenance = provenanceDigest({
    package_digest: ctx.package_digest,
    crashlab_version: ctx.crashlab_version,
    target: targetDigest(ctx.target, () => ({ descriptor, session: ctx.target.session() })),
    scenario,
    input: input.digest_input,
    seed: spec.seed,
    limits,
    git: ctx.git,
    models: modelProvenance(descriptor, trial.agentEvents),
  });
  const frontendSeconds = [...trial.agentEvents].reverse().find((e): e is Extract<AgentEvent, { type: "usage" }> => e.type === "usage")?.seconds;
  return {
    record_version: TRIAL_RECORD_VERSION,
    trial_id: spec.trial_id,
    case_id: c.id,
    repetition: spec.repetition,
    scenario_id: scenario.id,
    case_kind: c.kind,
    target: ctx.target_name,
    seed: spec.seed,
    error,
    ...(trial.cleanupErrors.length ? { cleanup_errors: [...trial.cleanupErrors] } : {}),
    wall: { started_at: trial.wall.started_at, duration_ms: Date.now() - trial.wall.start_ms },
    duration_ms: trial.clock.now(),
    turns,
    delegations,
    tool_executions: tools,
    input: input.record,
    world: {
      name: c.world.name,
      version: c.world.version,
      initial: observed.world.initial,
      final: observed.world.final,
      diff: observed.world.diff,
      events: [...observed.world.events],
      view: observed.world.view,
      ...(observed.world.reported_by ? { reported_by: observed.world.reported_by } : {}),
    },
    events: trial.events,
    dimensions: verification.dimensions,
    checks: verification.checks,
    ...(verification.procedure ? { procedure: verification.procedure } : {}),
    ...(trial.reported ? { reported_evidence: trial.reported.summary(tools) } : {}),
    metrics: {
      task: {
        task_completed: !error && verification.checks.every((ch) => !ch.required || ch.status !== "failed"),
        semantic_quality: { score: null, dimensions: {} },
        tool_accuracy: verification.tool_accuracy,
        tool_calls: { actual: tools.length, expected: scenario.expected.tools.required.length },
        delegation_accuracy: verification.delegation_accuracy,
        delegations: { actual: delegations.length, expected: scenario.expected.golden_path?.delegations ?? null, policy: scenario.expected.delegation },
        turns: { actual: actualTurns(c.kind, turns), expected: scenario.expected.golden_path?.turns ?? null },
        ...(c.kind === "run" ? { procedure_adherence: verification.procedure?.adherence ?? null } : {}),
      },
      audio: observed.audio,
      consumption: { frontend: { audio_duration_ms: frontendSeconds === undefined ? null : frontendSeconds * 1000 }, backend: backendUsage(trial.agentEvents) },
    },
    limits: { config: limits, usage },
    provenance,
    artifacts: {},
  };
}

/** Record, second half: the verdict, plus the audio and the evidence catalog the artifact writer needs. */
export function finishRecord(trial: TrialState, draft: DraftRecord, assessments: Assessment[], observed: Observation, caller: CallerAudio | null): TrialResult {
  const record: TrialRecord = { ...draft, status: trialStatus(draft.error, assessments), assessments };
  const media: TrialMedia | null = observed.placed && caller ? { input_pcm: caller.pcm, caller_start_ms: caller.start_ms, assistant: observed.placed, sample_rate: 24_000 } : null;
  const context = trial.scenario.input.context;
  const facts = trial.ctx.facts;
  const catalog = buildEvidenceCatalog(record, { ...(context ? { context } : {}), ...(facts ? { facts } : {}) });
  return { record, media, catalog, reference: referenceTranscript(record, trial.scenario.input.text) };
}

/** The reference transcript of what reached the target as the caller (evaluator-side; never sent). */
function referenceTranscript(record: TrialRecord, text: string): ReferenceTranscript {
  switch (record.input.kind) {
    case "synthetic":
      return { source: "synthesized", text };
    case "recording":
      return { source: "reviewed", text };
    case "text":
      return { source: "text", text };
    case "simulated": {
      const lines = (record.conversation?.utterances ?? []).map((u) => u.text);
      return { source: "caller_lines", text: lines.join("\n"), lines };
    }
  }
}

