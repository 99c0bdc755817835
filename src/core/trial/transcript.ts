/** A trial's transcript events as timeline fragments, for grouping into turns. */

import type { AgentEvent } from "../target/types";
import type { TranscriptFragment } from "../timeline/turns";

/** One transcript event as a timeline fragment (whole-utterance texts get a separating space). */
export function fragmentOf(e: Extract<AgentEvent, { type: "transcript.delta" }>): TranscriptFragment {
  const start = e.start_ms ?? e.at_ms;
  return { role: e.role, text: /^\s/.test(e.text) ? e.text : ` ${e.text}`, start_ms: start, end_ms: Math.max(start, e.end_ms ?? e.at_ms), received_ms: e.at_ms };
}

/** The transcript events of a trial as timeline fragments. */
export function transcriptFragments(events: readonly AgentEvent[]): TranscriptFragment[] {
  return events.filter((e): e is Extract<AgentEvent, { type: "transcript.delta" }> => e.type === "transcript.delta").map(fragmentOf);
}
