/** Caller utterances placed on the timeline by their voiced audio, each with what the caller meant by it. */

import { TimelineInputError } from "./errors";
import { clipMerged, type Interval, mergeIntervals } from "./intervals";

/** What the caller meant by an utterance (docs/audio-and-metrics.md). */
export type CallerAction = "OPENING" | "SPEAK" | "BACKCHANNEL" | "INTERRUPT" | "STOP";

/**
 * One caller utterance as annotated by whoever produced the caller audio (the CRAWL synthesizer,
 * a WALK recording, the RUN caller simulator). The window [start_ms, end_ms) says which of the
 * caller's voiced audio belongs to it; an omitted bound is open, so a single-turn trial is just
 * `[{ action: "SPEAK" }]`: one utterance owning all caller audio.
 */
export interface CallerUtterance {
  action: CallerAction;
  start_ms?: number;
  end_ms?: number;
  text?: string;
}

/**
 * A caller utterance placed on the timeline by its voiced audio: from its first to its last voiced
 * interval inside its window. `voiced` keeps the pauses, because interruption counting looks at
 * voiced audio only (docs/audio-and-metrics.md).
 */
export interface CallerSegment {
  /** Index of the utterance in the annotation list. */
  utterance: number;
  action: CallerAction;
  start_ms: number;
  end_ms: number;
  voiced: Interval[];
  text?: string;
}

/**
 * Caller segments from utterance annotations and the caller's voiced intervals. Voiced audio is
 * clipped to each utterance's window; an utterance with no voiced audio inside its window is
 * dropped (a transcript-only caller yields no segments, hence null response metrics).
 *
 * Utterances must be listed in time order with windows that do not overlap (touching is fine);
 * otherwise the same audio would count for two utterances.
 */
export function callerSegments(utterances: readonly CallerUtterance[], callerVoiced: readonly Interval[]): CallerSegment[] {
  const voiced = mergeIntervals(callerVoiced, "callerVoiced");
  const segments: CallerSegment[] = [];
  let previousEnd = -Infinity;
  utterances.forEach((utterance, i) => {
    for (const bound of ["start_ms", "end_ms"] as const) {
      const value = utterance[bound];
      if (value !== undefined && !Number.isFinite(value)) {
        throw new TimelineInputError(`utterances[${i}].${bound}`, `must be a finite number of ms or omitted (open), got ${value}`);
      }
    }
    const start = utterance.start_ms ?? -Infinity;
    const end = utterance.end_ms ?? Infinity;
    if (end < start) {
      throw new TimelineInputError(`utterances[${i}]`, `window ends (${end} ms) before it starts (${start} ms)`);
    }
    if (start < previousEnd) {
      throw new TimelineInputError(
        `utterances[${i}]`,
        `window starts at ${start} ms, before the previous utterance's window ends (${previousEnd} ms); ` +
          "list utterances in time order and give every utterance except the first a start_ms and every one except the last an end_ms",
      );
    }
    previousEnd = end;
    if (voiced.length === 0) return;
    // An open bound reaches as far as the voiced audio does.
    const lo = Number.isFinite(start) ? start : Math.min(voiced[0]!.start_ms, end);
    const hi = Number.isFinite(end) ? end : Math.max(lo, voiced[voiced.length - 1]!.end_ms);
    const inside = clipMerged(voiced, { start_ms: lo, end_ms: hi });
    if (inside.length === 0) return;
    segments.push({
      utterance: i,
      action: utterance.action,
      start_ms: inside[0]!.start_ms,
      end_ms: inside[inside.length - 1]!.end_ms,
      voiced: inside,
      ...(utterance.text !== undefined ? { text: utterance.text } : {}),
    });
  });
  return segments;
}
