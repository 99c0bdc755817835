/** A trial's interaction metrics (docs/audio-and-metrics.md): response rate and latency, yielding, backchannels. */

import { TimelineInputError } from "./errors";
import { clipMerged, type Interval, maxEpisode, mergeIntervals, subtractIntervals, totalLength, unionIntervals } from "./intervals";
import type { CallerAction, CallerSegment } from "./segments";
import { percentile } from "../stats/rates";
import { staticDefault } from "../settings/schema";

export const METRICS_VERSION = "2.0";
/** The default deadline of the response-latency check: an answer later than this after a caller turn is late. */
export const DEFAULT_RESPONSE_DEADLINE_MS = staticDefault("response_deadline_ms");
/** An interrupted assistant yields when it stops within this long of the caller's onset (docs/audio-and-metrics.md). */
export const YIELD_WINDOW_MS = 2000;
/** A pause in the assistant's speech shorter than this is not a stop: it resumed (see `resumedEnd`). */
export const YIELD_RESUME_MS = 700;
/** Over a backchannel the assistant is right to keep talking at least this long past its onset (docs/audio-and-metrics.md). */
export const BACKCHANNEL_CONTINUE_MS = 1000;

/**
 * When a delegation was active. Either its creation and the moment nothing was left open
 * (`null`: still open when the observation ended), or explicit active intervals (see delegation.ts).
 */
export type DelegationWindow =
  | { created_ms: number; active_until_ms: number | null }
  | { intervals: readonly Interval[] };

/** Which clock the delegation lifecycle times were read from. */
export type DelegationTimingSource = "receive_clock" | "server_offset";

export interface InteractionInput {
  /** Caller segments (segments.ts), on the same timeline as everything else. */
  caller: readonly CallerSegment[];
  /** The assistant's voiced intervals; merged, they are the assistant segments of docs/audio-and-metrics.md. */
  assistantVoiced: readonly Interval[];
  /** Assistant turn windows (e.g. from transcript grouping); only used for the speaking-duration maximum. */
  assistantTurns?: readonly Interval[];
  delegations?: readonly DelegationWindow[];
  /** When the observation ended; stretched to the last observed audio if that ran later. */
  observationEndMs: number;
  /** After a caller turn, an answer later than this is late (default DEFAULT_RESPONSE_DEADLINE_MS). */
  response_deadline_ms?: number;
  delegationTiming?: DelegationTimingSource;
}

export type ExclusionReason = "backchannel" | "caller_closing" | "assistant_active_at_request_end";
export type MissReason = "next_eligible_request" | "deadline_expired";
export type CensorReason = "observation_ended_before_deadline";

/** The fate of one caller segment as a response opportunity (docs/audio-and-metrics.md). */
export type ResponseOpportunity = {
  utterance: number;
  action: CallerAction;
  request_end_ms: number;
} & (
  | { outcome: "excluded"; reason: ExclusionReason }
  | { outcome: "answered"; response_start_ms: number; latency_ms: number }
  | { outcome: "missed"; reason: MissReason; late_latency_ms: number | null }
  | { outcome: "censored"; reason: CensorReason }
);

/** One yield opportunity (docs/audio-and-metrics.md): a caller onset while the assistant was speaking. */
export type YieldOpportunity = {
  utterance: number;
  action: CallerAction;
  caller_start_ms: number;
  assistant_start_ms: number;
  assistant_end_ms: number;
} & (
  | { kind: "yield"; delay_ms: number; yielded: boolean }
  | { kind: "backchannel"; outcome: "continued" | "false_yield" }
);

export interface InteractionMetrics {
  metrics_version: typeof METRICS_VERSION;
  response_deadline_ms: number;
  timing_source: {
    speech: "voiced_audio";
    assistant_turns: "assistant_turns" | "assistant_segments";
    delegation: DelegationTimingSource;
  };
  response_rate: number | null;
  response_latency_ms: number | null;
  caller_turn_count: number;
  response_eligible_count: number;
  response_censored_count: number;
  response_excluded_count: number;
  /** Missed requests that were answered after the deadline; a subset of no_response_count. */
  response_late_count: number;
  response_total: number;
  response_count: number;
  /** Missed requests: response_total − response_count. */
  no_response_count: number;
  exclusion_reasons: Record<ExclusionReason, number>;
  missed_reasons: Record<MissReason, number>;
  late_response_latencies_ms: number[];
  /**
   * Measured, beside the fields (which stay as the contract defines them, for comparability): the
   * latency of every request that got an answer, timely or late, in caller order. A late answer is slow,
   * not absent, so it is measured here rather than left blank.
   */
  response_latencies_ms: number[];
  /** Mean, P90 (linear interpolation) and largest of `response_latencies_ms`; null when nothing was answered. */
  response_latency_mean_ms: number | null;
  response_latency_p90_ms: number | null;
  response_latency_max_ms: number | null;
  /** Requests that got no answer at all, not even a late one: the only ones truly missed. */
  unanswered_count: number;
  opportunities: ResponseOpportunity[];
  interruption_count: number;
  interruption_rate: number | null;
  yield_rate: number | null;
  yield_count: number;
  no_yield_count: number;
  selectivity_backchannel: number | null;
  backchannel_continue_count: number;
  false_yield_count: number;
  yield_opportunities: YieldOpportunity[];
  speaking_duration_ms: { cumulative: number; maximum: number };
  floor_hold_silence_ms: { cumulative: number; maximum: number };
}

const expectsResponse = (action: CallerAction) => action !== "BACKCHANNEL" && action !== "STOP";

/** Index of the first assistant segment starting at or after `t` (segments sorted and disjoint). */
function firstStartingAtOrAfter(segments: readonly Interval[], t: number): number {
  let lo = 0;
  let hi = segments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid]!.start_ms < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The assistant segment a with a.start < t <= a.end, if any (at most one: segments are disjoint). */
function activeAt(segments: readonly Interval[], t: number): Interval | undefined {
  const before = segments[firstStartingAtOrAfter(segments, t) - 1];
  return before && t <= before.end_ms ? before : undefined;
}

function exclusionOf(u: CallerSegment, assistant: readonly Interval[]): ExclusionReason | null {
  if (u.action === "BACKCHANNEL") return "backchannel";
  if (u.action === "STOP") return "caller_closing";
  if (activeAt(assistant, u.end_ms)) return "assistant_active_at_request_end";
  return null;
}

/** Response opportunities, in caller order (docs/audio-and-metrics.md). */
function responseOpportunities(
  caller: readonly CallerSegment[],
  assistant: readonly Interval[],
  deadlineMs: number,
  observationEndMs: number,
): ResponseOpportunity[] {
  const exclusions = caller.map((u) => exclusionOf(u, assistant));
  return caller.map((u, i): ResponseOpportunity => {
    const base = { utterance: u.utterance, action: u.action, request_end_ms: u.end_ms };
    const excluded = exclusions[i];
    if (excluded) return { ...base, outcome: "excluded", reason: excluded };

    let nextIndex = i + 1;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, past the end exclusions[] is undefined and stops the loop too
    while (nextIndex < caller.length && exclusions[nextIndex]) nextIndex++;
    const next = caller[nextIndex];
    const response = assistant[firstStartingAtOrAfter(assistant, u.end_ms)];
    const answer = response && (!next || response.start_ms <= next.start_ms) ? response : undefined;
    const latency = answer ? answer.start_ms - u.end_ms : null;

    if (answer && latency! <= deadlineMs) {
      return { ...base, outcome: "answered", response_start_ms: answer.start_ms, latency_ms: roundMs(latency!) };
    }
    // "The next caller segment" read as the next non-excluded one: that is the request the reason
    // is named after, and the same segment that closed the response window above.
    if (next && next.start_ms < u.end_ms + deadlineMs) {
      // Stryker disable next-line ConditionalExpression: equivalent, an answer before the next request is within the deadline, so here latency is always null
      return { ...base, outcome: "missed", reason: "next_eligible_request", late_latency_ms: latency === null ? null : roundMs(latency) };
    }
    if (observationEndMs >= u.end_ms + deadlineMs) {
      return { ...base, outcome: "missed", reason: "deadline_expired", late_latency_ms: latency === null ? null : roundMs(latency) };
    }
    return { ...base, outcome: "censored", reason: "observation_ended_before_deadline" };
  });
}

/** Interruptions: distinct assistant segment starts inside [start, end) of a caller's voiced audio (docs/audio-and-metrics.md). */
function interruptionCount(caller: readonly CallerSegment[], assistant: readonly Interval[]): number {
  const interrupting = new Set<number>();
  for (const u of caller) {
    if (!expectsResponse(u.action)) continue;
    for (const voiced of u.voiced) {
      for (let k = firstStartingAtOrAfter(assistant, voiced.start_ms); k < assistant.length; k++) {
        if (assistant[k]!.start_ms >= voiced.end_ms) break;
        interrupting.add(k);
      }
    }
  }
  return interrupting.size;
}

/** Yield opportunities. A segment starting with or before the caller's onset is not interrupted by it (docs/audio-and-metrics.md). */
function yieldOpportunities(caller: readonly CallerSegment[], assistant: readonly Interval[]): YieldOpportunity[] {
  const opportunities: YieldOpportunity[] = [];
  for (const u of caller) {
    if (u.action === "STOP") continue;
    // Segments are disjoint and never touch, so only the last one starting before u can qualify.
    const at = firstStartingAtOrAfter(assistant, u.start_ms) - 1;
    const first = assistant[at];
    if (!first || !(u.start_ms < first.end_ms || (u.action === "INTERRUPT" && u.start_ms === first.end_ms))) continue;
    const a = { start_ms: first.start_ms, end_ms: resumedEnd(assistant, at) };
    const base = {
      utterance: u.utterance,
      action: u.action,
      caller_start_ms: u.start_ms,
      assistant_start_ms: a.start_ms,
      assistant_end_ms: a.end_ms,
    };
    if (u.action === "BACKCHANNEL") {
      const continued = a.end_ms > u.end_ms || a.end_ms >= u.start_ms + BACKCHANNEL_CONTINUE_MS;
      opportunities.push({ ...base, kind: "backchannel", outcome: continued ? "continued" : "false_yield" });
    } else {
      const delay = a.end_ms - u.start_ms;
      opportunities.push({ ...base, kind: "yield", delay_ms: roundMs(delay), yielded: delay <= YIELD_WINDOW_MS });
    }
  }
  return opportunities;
}

/**
 * Where the interrupted speech really stopped: voiced intervals split speech at every pause between words
 * and sentences, so a voice that talks straight through a cut-in would look as if it stopped at its next
 * pause. Speech that resumes within YIELD_RESUME_MS is the same speech; the yield delay runs to the end
 * of that chain.
 */
function resumedEnd(assistant: readonly Interval[], index: number): number {
  let end = assistant[index]!.end_ms;
  for (let i = index + 1; i < assistant.length && assistant[i]!.start_ms - end < YIELD_RESUME_MS; i++) end = assistant[i]!.end_ms;
  return end;
}

function delegationIntervals(delegations: readonly DelegationWindow[], observationEndMs: number): Interval[] {
  return delegations.flatMap((d, i): Interval[] => {
    if ("intervals" in d) return [...d.intervals];
    const end = d.active_until_ms ?? Math.max(d.created_ms, observationEndMs);
    if (end < d.created_ms) {
      throw new TimelineInputError(
        `delegations[${i}]`,
        `active_until_ms (${end}) is before created_ms (${d.created_ms}); use null for a delegation still open at the end`,
      );
    }
    return [{ start_ms: d.created_ms, end_ms: end }];
  });
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

/**
 * Reported timings are rounded once, here where they are made, to a thousandth of a millisecond: sample
 * positions at 24 kHz are 1/24 ms apart, so this keeps every sample distinct and drops float noise
 * (`2104.666666666666` → `2104.667`, `4019.9999999999995` → `4020`).
 */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** The measured latency fields of every answered request (see `InteractionMetrics.response_latencies_ms`). */
function measuredLatencies(latencies: number[]) {
  return {
    response_latencies_ms: latencies,
    response_latency_mean_ms: latencies.length === 0 ? null : roundMs(latencies.reduce((s, l) => s + l, 0) / latencies.length),
    response_latency_p90_ms: latencies.length === 0 ? null : roundMs(percentile(latencies, 0.9)!),
    response_latency_max_ms: latencies.length === 0 ? null : Math.max(...latencies),
  };
}

/**
 * The latency a reader shows for one trial's audio metrics: the mean of every answered request, late ones
 * included; for records made before that was measured, the mean of timely answers. Null without audio
 * or without any answer.
 */
export function measuredLatencyMs(audio: Readonly<Record<string, unknown>> | null | undefined): number | null {
  if (!audio) return null;
  const measured = audio.response_latency_mean_ms;
  if (typeof measured === "number") return measured;
  if ("response_latency_mean_ms" in audio) return null;
  return typeof audio.response_latency_ms === "number" ? audio.response_latency_ms : null;
}

/**
 * Interaction metrics (metrics_version "2.0") over one timeline. Pure: the result is plain JSON (docs/audio-and-metrics.md).
 * Assistant segments are the merged assistant voiced intervals; caller segments come from
 * `callerSegments`. With no caller segments (a transcript-only caller), every response metric is null.
 */
export function computeInteractionMetrics(input: InteractionInput): InteractionMetrics {
  const deadline = input.response_deadline_ms ?? DEFAULT_RESPONSE_DEADLINE_MS;
  if (!(deadline >= 0)) throw new TimelineInputError("response_deadline_ms", `must be a non-negative number of ms, got ${deadline}`);
  if (!Number.isFinite(input.observationEndMs)) {
    throw new TimelineInputError("observationEndMs", `must be a finite number of ms, got ${input.observationEndMs}`);
  }
  const assistant = mergeIntervals(input.assistantVoiced, "assistantVoiced");
  const caller = [...input.caller].sort((a, b) => a.start_ms - b.start_ms || a.utterance - b.utterance);
  const callerSpeech = mergeIntervals(caller.flatMap((u) => u.voiced), "caller.voiced");
  // The observation lasted at least as long as the audio it observed.
  const observationEndMs = Math.max(
    input.observationEndMs,
    assistant[assistant.length - 1]?.end_ms ?? -Infinity,
    callerSpeech[callerSpeech.length - 1]?.end_ms ?? -Infinity,
  );

  const opportunities = responseOpportunities(caller, assistant, deadline, observationEndMs);
  const answered = opportunities.flatMap((o) => (o.outcome === "answered" ? [o.latency_ms] : []));
  const missed = opportunities.flatMap((o) => (o.outcome === "missed" ? [o] : []));
  const late = missed.flatMap((o) => (o.late_latency_ms === null ? [] : [o.late_latency_ms]));
  const count = (pick: (o: ResponseOpportunity) => boolean) => opportunities.filter(pick).length;
  const measured = opportunities.flatMap((o) => (o.outcome === "answered" ? [o.latency_ms] : o.outcome === "missed" && o.late_latency_ms !== null ? [o.late_latency_ms] : []));
  const responseTotal = answered.length + missed.length;

  const interruptions = interruptionCount(caller, assistant);

  const yields = yieldOpportunities(caller, assistant);
  // Stryker disable next-line ConditionalExpression: equivalent, only a yield opportunity has `yielded`
  const yielded = yields.filter((y) => y.kind === "yield" && y.yielded).length;
  const notYielded = yields.filter((y) => y.kind === "yield" && !y.yielded).length;
  // Stryker disable next-line ConditionalExpression: equivalent, only a backchannel opportunity has an `outcome`
  const continued = yields.filter((y) => y.kind === "backchannel" && y.outcome === "continued").length;
  // Stryker disable next-line ConditionalExpression: equivalent, only a backchannel opportunity has an `outcome`
  const falseYields = yields.filter((y) => y.kind === "backchannel" && y.outcome === "false_yield").length;

  // Speaking duration: the maximum is per assistant turn; without turns each segment is a turn (docs/audio-and-metrics.md).
  const turns = input.assistantTurns ?? null;
  turns?.forEach((turn, i) => void mergeIntervals([turn], `assistantTurns[${i}]`)); // validates the bounds
  const speakingMaximum = turns
    ? turns.reduce((max, turn) => Math.max(max, totalLength(clipMerged(assistant, turn))), 0)
    : maxEpisode(assistant);

  // Floor-hold silence: delegation-active time with neither side speaking (docs/audio-and-metrics.md).
  const active = unionIntervals(delegationIntervals(input.delegations ?? [], observationEndMs));
  const silence = subtractIntervals(active, unionIntervals(assistant, callerSpeech));

  return {
    metrics_version: METRICS_VERSION,
    response_deadline_ms: deadline,
    timing_source: {
      speech: "voiced_audio",
      assistant_turns: turns ? "assistant_turns" : "assistant_segments",
      delegation: input.delegationTiming ?? "receive_clock",
    },
    response_rate: ratio(answered.length, responseTotal),
    response_latency_ms: answered.length === 0 ? null : roundMs(answered.reduce((s, l) => s + l, 0) / answered.length),
    caller_turn_count: caller.length,
    response_eligible_count: count((o) => o.outcome !== "excluded"),
    response_censored_count: count((o) => o.outcome === "censored"),
    response_excluded_count: count((o) => o.outcome === "excluded"),
    response_late_count: late.length,
    response_total: responseTotal,
    response_count: answered.length,
    no_response_count: missed.length,
    // The outcome test is redundant where no other outcome has a reason of that name (equivalent mutants).
    exclusion_reasons: {
      // Stryker disable next-line ConditionalExpression: equivalent, only an exclusion has the reason "backchannel"
      backchannel: count((o) => o.outcome === "excluded" && o.reason === "backchannel"),
      // Stryker disable next-line ConditionalExpression: equivalent, only an exclusion has the reason "caller_closing"
      caller_closing: count((o) => o.outcome === "excluded" && o.reason === "caller_closing"),
      // Stryker disable next-line ConditionalExpression: equivalent, only an exclusion has the reason "assistant_active_at_request_end"
      assistant_active_at_request_end: count((o) => o.outcome === "excluded" && o.reason === "assistant_active_at_request_end"),
    },
    missed_reasons: {
      next_eligible_request: missed.filter((o) => o.reason === "next_eligible_request").length,
      deadline_expired: missed.filter((o) => o.reason === "deadline_expired").length,
    },
    late_response_latencies_ms: late,
    ...measuredLatencies(measured),
    unanswered_count: missed.length - late.length,
    opportunities,
    interruption_count: interruptions,
    interruption_rate: ratio(interruptions, responseTotal),
    yield_rate: ratio(yielded, yielded + notYielded),
    yield_count: yielded,
    no_yield_count: notYielded,
    selectivity_backchannel: ratio(continued, continued + falseYields),
    backchannel_continue_count: continued,
    false_yield_count: falseYields,
    yield_opportunities: yields,
    speaking_duration_ms: { cumulative: roundMs(totalLength(assistant)), maximum: roundMs(speakingMaximum) },
    floor_hold_silence_ms: { cumulative: roundMs(totalLength(silence)), maximum: roundMs(maxEpisode(silence)) },
  };
}
