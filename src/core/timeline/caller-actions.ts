/** A RUN caller's utterances labelled after the fact (OPENING, SPEAK, BACKCHANNEL, INTERRUPT, STOP) from the recording. */

import { isBackchannelPhrase, saysGoodbye } from "../language/cues";
import { clipMerged, type Interval, mergeIntervals } from "./intervals";
import type { CallerAction, CallerUtterance } from "./segments";
import { TimelineInputError } from "./errors";

/**
 * Caller actions labelled after the fact ( "interruptions and backchannels … are inferred
 * from the recorded interaction after the run"). Nobody schedules turns during a RUN conversation; once it
 * is over, each caller utterance is labelled from what the recording shows — when the caller spoke
 * relative to the assistant's voice, and what the words were — and the labels drive the metrics
 * (response opportunities, yield, backchannel selectivity).
 *
 * Rules, first match wins:
 * 1. OPENING — the caller spoke first and this is their first utterance.
 * 2. STOP — a goodbye ("bye", "have a great day", or nothing but thanks) with nothing substantive after it
 *    from the caller: the caller closing the call.
 * 3. BACKCHANNEL — a backchannel phrase (the persona's own, or a few acknowledgement words: cues.ts) said
 *    while the assistant's voice was on: the caller listening, not taking the floor. The same "Yes." said
 *    into silence after a question is an answer (SPEAK).
 * 4. INTERRUPT — the caller's onset falls strictly inside the assistant's voiced speech (a.start < onset <
 *    a.end): the caller talked over the assistant. Onsets exactly at the assistant's start (simultaneous)
 *    or end (the assistant had stopped) are not interruptions, matching yield opportunities.
 * 5. SPEAK — anything else: the caller took a free floor.
 *
 * The onset and end are those of the utterance's voiced audio when the caller's voiced intervals are given
 * (as docs/audio-and-metrics.md segments are built), else the utterance's own times. Deterministic: labels depend only on the input.
 */

/** One caller utterance as recorded: what was said and when (its audio's window on the trial timeline). */
export interface RecordedCallerUtterance {
  text: string;
  start_ms: number;
  end_ms: number;
}

export interface CallerActionInput {
  /** The caller's utterances in time order, windows not overlapping. */
  utterances: readonly RecordedCallerUtterance[];
  /** The assistant's voiced intervals (from its channel of the conversation). */
  assistantVoiced: readonly Interval[];
  /** The caller's voiced intervals; when given, each utterance is measured by its voiced audio. */
  callerVoiced?: readonly Interval[];
  /** The caller opened the conversation (caller-first); false when the assistant spoke first. */
  callerSpokeFirst: boolean;
  /** The persona's backchannel phrases (`persona.backchannels`). */
  backchannels?: readonly string[];
}

export interface LabelledCallerUtterance extends RecordedCallerUtterance {
  action: CallerAction;
  /** Why, in a few words (for --verbose and reports). */
  reason: string;
}

/** Label every caller utterance OPENING, SPEAK, BACKCHANNEL, INTERRUPT or STOP (rules above). Pure. */
export function labelCallerActions(input: CallerActionInput): LabelledCallerUtterance[] {
  const assistant = mergeIntervals(input.assistantVoiced, "assistantVoiced");
  const callerVoiced = input.callerVoiced ? mergeIntervals(input.callerVoiced, "callerVoiced") : null;
  let previousEnd = -Infinity;
  const measured = input.utterances.map((u, i) => {
    if (!Number.isFinite(u.start_ms) || !Number.isFinite(u.end_ms) || u.end_ms < u.start_ms)
      throw new TimelineInputError(`utterances[${i}]`, `needs finite start_ms <= end_ms, got [${u.start_ms}, ${u.end_ms})`);
    if (u.start_ms < previousEnd)
      throw new TimelineInputError(`utterances[${i}]`, `starts at ${u.start_ms} ms, before the previous utterance ends (${previousEnd} ms); list caller utterances in time order`);
    previousEnd = u.end_ms;
    const voiced = callerVoiced ? clipMerged(callerVoiced, { start_ms: u.start_ms, end_ms: u.end_ms }) : [];
    return voiced.length > 0 ? { onset: voiced[0]!.start_ms, end: voiced[voiced.length - 1]!.end_ms } : { onset: u.start_ms, end: u.end_ms };
  });
  const backchannel = input.utterances.map((u) => isBackchannelPhrase(u.text, input.backchannels));

  // The closing: goodbyes at the end, with only backchannels or further goodbyes after them.
  const closing = new Set<number>();
  for (let i = input.utterances.length - 1; i >= 0; i--) {
    if (saysGoodbye(input.utterances[i]!.text)) closing.add(i);
    else if (!backchannel[i]) break;
  }

  const speakingAt = (t: number) => assistant.find((a) => a.start_ms < t && t < a.end_ms);
  const overlapping = (from: number, to: number) => assistant.find((a) => a.start_ms < to && from < a.end_ms);
  const span = (a: Interval) => `[${Math.round(a.start_ms)}, ${Math.round(a.end_ms)}) ms`;

  return input.utterances.map((u, i): LabelledCallerUtterance => {
    const { onset, end } = measured[i]!;
    const label = (action: CallerAction, reason: string) => ({ text: u.text, start_ms: u.start_ms, end_ms: u.end_ms, action, reason });
    if (i === 0 && input.callerSpokeFirst) return label("OPENING", "the caller opened the conversation");
    if (closing.has(i)) return label("STOP", `a goodbye (${JSON.stringify(saysGoodbye(u.text))}) closing the call`);
    const over = overlapping(onset, end);
    if (backchannel[i] && over) return label("BACKCHANNEL", `a backchannel phrase while the assistant spoke ${span(over)}`);
    const talkedOver = speakingAt(onset);
    if (talkedOver) return label("INTERRUPT", `began at ${Math.round(onset)} ms while the assistant spoke ${span(talkedOver)}`);
    return label("SPEAK", "took the floor while the assistant was silent");
  });
}

/**
 * The labelled utterances as docs/audio-and-metrics.md annotations for `callerSegments`: each utterance owns the caller audio
 * inside its own window (audio between utterances — an echo tail, an inserted cough — belongs to none).
 */
export function callerAnnotations(labelled: readonly LabelledCallerUtterance[]): CallerUtterance[] {
  return labelled.map((u) => ({ action: u.action, start_ms: u.start_ms, end_ms: u.end_ms, text: u.text }));
}

/** The labelled utterances as the record's user turns (`Turn` with its `action`); merge them with the assistant's turns by start. */
export function callerTurns(labelled: readonly LabelledCallerUtterance[]): Array<{ role: "user"; text: string; start_ms: number; end_ms: number; action: CallerAction }> {
  return labelled.map((u) => ({ role: "user", text: u.text, start_ms: u.start_ms, end_ms: u.end_ms, action: u.action }));
}
