/** The slim outcome a streaming run keeps of each finished trial: just what the summary and gates read. */

import type { Assessment } from "../record/assessment";
import type { GateTrial } from "../gate/gates";
import type { SummaryTrial } from "./summary";
import type { TrialStatus } from "../record/trial-record";
import { measuredLatencyMs } from "../timeline/metrics";

/**
 * What a streaming run keeps of a finished trial once its row is in the journal: just what the summary
 * and the gates read (a few hundred bytes), so memory does not grow with the trials' evidence.
 */
export interface TrialOutcome extends SummaryTrial, GateTrial {
  trial_id: string;
  status: TrialStatus;
  assessments: Array<Pick<Assessment, "verifier" | "status" | "judge">>;
}

/** The slim outcome of a trial record or a results.json row: both carry these fields, and more. */
export function trialOutcome(t: Omit<TrialOutcome, "assessments"> & { assessments: ReadonlyArray<TrialOutcome["assessments"][number]> }): TrialOutcome {
  const latency = t.metrics.audio?.response_latency_ms;
  const measured = measuredLatencyMs(t.metrics.audio);
  return {
    trial_id: t.trial_id,
    case_id: t.case_id,
    status: t.status,
    error: t.error ? { stage: t.error.stage } : null,
    duration_ms: t.duration_ms,
    metrics: { audio: t.metrics.audio ? { response_latency_ms: typeof latency === "number" ? latency : null, response_latency_mean_ms: measured } : null },
    input: t.input.recording ? { recording: { condition: t.input.recording.condition } } : {},
    assessments: t.assessments.map((a) => ({ verifier: a.verifier, status: a.status, ...(a.judge ? { judge: a.judge } : {}) })),
  };
}
