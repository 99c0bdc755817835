/** Transcript turns: transcript fragments grouped per speaker into turns on the trial timeline. */

import { TimelineInputError } from "./errors";
import { type Interval, mergeIntervals } from "./intervals";
import type { PlacedAssistantAudio, PlacedAudioSpan } from "../audio/playback";

export type SpeakerRole = "user" | "assistant";

/** One transcript delta as received: its own audio-time span, and when the harness received it. */
export interface TranscriptFragment {
  role: SpeakerRole;
  text: string;
  start_ms: number;
  end_ms: number;
  received_ms: number;
}

export interface TranscriptTurn {
  role: SpeakerRole;
  text: string;
  start_ms: number;
  end_ms: number;
}

/** Fragments less than this far apart join one group (docs/audio-and-metrics.md). */
export const TRANSCRIPT_GROUP_GAP_MS = 500;

/** Settle = max(600 ms, 2 × chunk_ms) (docs/audio-and-metrics.md). */
export function settleMs(chunkMs: number): number {
  return Math.max(600, 2 * chunkMs);
}

export interface TranscriptGroupingOptions {
  /**
   * The moment the grouping is evaluated. Omitted: the observation is over and every group is a
   * turn. Given: a role's last group is a turn only once `settle` has passed since its last
   * fragment arrived and since that role's last voiced audio ended; until then it is `growing`.
   */
  nowMs?: number;
  settleMs?: number;
  /** Voiced intervals per role, for the settle rule. */
  voiced?: Partial<Record<SpeakerRole, readonly Interval[]>>;
}

export interface TranscriptGrouping {
  /** Settled turns of both roles, by start time. */
  turns: TranscriptTurn[];
  /** Groups that may still grow (at most one per role). */
  growing: TranscriptTurn[];
}

interface Group {
  role: SpeakerRole;
  texts: string[];
  start_ms: number;
  end_ms: number;
  last_received_ms: number;
}

const toTurn = (g: Group): TranscriptTurn => ({
  role: g.role,
  text: g.texts.join("").replace(/\s+/g, " ").trim(),
  start_ms: g.start_ms,
  end_ms: g.end_ms,
});

/**
 * Transcript grouping, per role. Fragments are ordered by their start; a fragment whose start is
 * less than 500 ms after the group's end so far (or inside it) joins the group. A group followed by
 * a later group of the same role is closed; only the last group of a role waits for `settle`.
 */
export function groupTranscript(
  fragments: readonly TranscriptFragment[],
  options: TranscriptGroupingOptions = {},
): TranscriptGrouping {
  const settle = options.settleMs ?? settleMs(20);
  const turns: TranscriptTurn[] = [];
  const growing: TranscriptTurn[] = [];
  for (const role of ["user", "assistant"] as const) {
    const own = fragments
      .map((fragment, index) => ({ fragment, index }))
      // At a given moment, only the fragments received so far exist.
      .filter(({ fragment }) => fragment.role === role && (options.nowMs === undefined || fragment.received_ms <= options.nowMs))
      .sort((a, b) => a.fragment.start_ms - b.fragment.start_ms || a.fragment.received_ms - b.fragment.received_ms || a.index - b.index);
    const groups: Group[] = [];
    for (const { fragment, index } of own) {
      if (!(fragment.end_ms >= fragment.start_ms)) {
        throw new TimelineInputError(`fragments[${index}]`, `ends (${fragment.end_ms} ms) before it starts (${fragment.start_ms} ms)`);
      }
      const last = groups[groups.length - 1];
      if (last && fragment.start_ms - last.end_ms < TRANSCRIPT_GROUP_GAP_MS) {
        last.texts.push(fragment.text);
        last.end_ms = Math.max(last.end_ms, fragment.end_ms);
        last.last_received_ms = Math.max(last.last_received_ms, fragment.received_ms);
      } else {
        groups.push({
          role,
          texts: [fragment.text],
          start_ms: fragment.start_ms,
          end_ms: fragment.end_ms,
          last_received_ms: fragment.received_ms,
        });
      }
    }
    const last = groups[groups.length - 1];
    if (last && options.nowMs !== undefined) {
      const voiced = mergeIntervals(options.voiced?.[role] ?? [], `voiced.${role}`);
      const lastVoicedEnd = voiced[voiced.length - 1]?.end_ms ?? -Infinity;
      const settled = options.nowMs >= last.last_received_ms + settle && options.nowMs >= lastVoicedEnd + settle;
      if (!settled) growing.push(toTurn(groups.pop()!));
    }
    turns.push(...groups.map(toTurn));
  }
  const byStart = (a: TranscriptTurn, b: TranscriptTurn) => a.start_ms - b.start_ms || (a.role === b.role ? 0 : a.role === "user" ? -1 : 1);
  return { turns: turns.sort(byStart), growing: growing.sort(byStart) };
}

/** One assistant audio delta as received (PCM16 samples, already decoded). */
export interface AssistantAudioDelta {
  received_ms: number;
  samples: Int16Array;
}

/** Where one delta landed on the timeline; `sample_offset` indexes the track. */
export type { PlacedAssistantAudio, PlacedAudioSpan } from "../audio/playback";

/**
 * Assistant audio has no timestamps, so each delta (in arrival order) is placed at
 * max(end of the previous delta, its receive time). Placement is done in whole samples so that
 * back-to-back deltas stay exactly contiguous; a receive time is rounded up to the next sample
 * because audio cannot play before it arrived.
 */
export function placeAssistantAudio(deltas: readonly AssistantAudioDelta[], sampleRate: number): PlacedAssistantAudio {
  if (!(sampleRate > 0)) throw new TimelineInputError("sampleRate", `must be a positive number of Hz, got ${sampleRate}`);
  const spans: PlacedAudioSpan[] = [];
  let cursor = 0;
  deltas.forEach((delta, i) => {
    if (!(delta.received_ms >= 0)) {
      throw new TimelineInputError(`deltas[${i}].received_ms`, `must be a non-negative ms on the trial timeline, got ${delta.received_ms}`);
    }
    const offset = Math.max(cursor, Math.ceil((delta.received_ms * sampleRate) / 1000));
    cursor = offset + delta.samples.length;
    spans.push({
      start_ms: (offset * 1000) / sampleRate,
      end_ms: (cursor * 1000) / sampleRate,
      sample_offset: offset,
      sample_count: delta.samples.length,
    });
  });
  const track = new Int16Array(cursor);
  spans.forEach((span, i) => track.set(deltas[i]!.samples, span.sample_offset));
  return { spans, track };
}
