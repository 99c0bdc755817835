/**
 * Timing verifiers: checks on how the assistant behaved in time, read from the §4 metrics the measure
 * stage recorded (never from a live session). They sit beside the §5 outcome checks, which say what was
 * done; these say whether it was done as a good conversational partner would.
 */
import type { TrialRecord } from "../record/trial-record";
import type { YieldOpportunity } from "../timeline/metrics";
import { defineVerifier, type Verdict } from "./verifier";

/**
 * The caller's interruptions the assistant did not yield to (§4: it stops within 2000 ms of the caller's
 * onset, a pause under 700 ms counting as the same speech). Null when the record has no audio metrics.
 */
export function unyieldedInterruptions(record: Pick<TrialRecord, "metrics">): Interruption[] | null {
  const audio = record.metrics.audio;
  if (!audio || !Array.isArray(audio.yield_opportunities)) return null;
  return (audio.yield_opportunities as unknown as YieldOpportunity[]).filter(isInterruption).filter((o) => !o.yielded);
}

export type Interruption = YieldOpportunity & { kind: "yield" };

/** The measure stage gives every INTERRUPT kind "yield" (only a BACKCHANNEL is a "backchannel"); the kind test narrows the type. */
function isInterruption(o: YieldOpportunity): o is Interruption {
  return o.action === "INTERRUPT" && o.kind === "yield";
}

/** The caller turn (`utt.user.<n>`) whose words the interruption started, for the verdict's evidence. */
function callerEvidence(record: Pick<TrialRecord, "turns">, at_ms: number): string[] {
  const callers = record.turns.filter((t) => t.role === "user");
  const i = callers.findIndex((t) => t.start_ms <= at_ms + 500 && at_ms <= t.end_ms);
  return i < 0 ? [] : [`utt.user.${i + 1}`];
}

/**
 * yields_to_interruption: in a conversation, when the caller cuts in, the assistant stops talking. Not
 * applicable to single requests (CRAWL, WALK) or to conversations in which the caller never interrupted.
 */
export const yieldsToInterruption = defineVerifier({
  id: "yields_to_interruption",
  version: "1.0",
  kind: "deterministic",
  description: "When the caller interrupts, the assistant stops speaking within 2000 ms (docs/audio-and-metrics.md, yield)",
  required: true,
  assess({ record }): Verdict {
    const audio = record.metrics.audio;
    if (!record.conversation) return { status: "not_applicable", rationale: "not a conversation", evidence_ids: [] };
    const missed = unyieldedInterruptions(record);
    if (missed === null) return { status: "not_applicable", rationale: "no audio metrics were recorded", evidence_ids: [] };
    const interruptions = (audio!.yield_opportunities as unknown as YieldOpportunity[]).filter(isInterruption);
    if (interruptions.length === 0) return { status: "not_applicable", rationale: "the caller never interrupted the assistant", evidence_ids: [] };
    if (missed.length === 0) {
      return {
        status: "passed",
        score: 1,
        rationale: `yielded to ${interruptions.length} interruption(s), after ${interruptions.map((o) => `${o.delay_ms} ms`).join(", ")}`,
        evidence_ids: interruptions.flatMap((o) => callerEvidence(record, o.caller_start_ms)),
      };
    }
    return {
      status: "failed",
      score: (interruptions.length - missed.length) / interruptions.length,
      rationale: missed.map((o) => `kept talking ${o.delay_ms} ms after the caller cut in at ${o.caller_start_ms} ms`).join("; "),
      evidence_ids: missed.flatMap((o) => callerEvidence(record, o.caller_start_ms)),
    };
  },
});
