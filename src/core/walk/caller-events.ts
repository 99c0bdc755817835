/**
 * The realistic preset's caller-side events (docs/audio-and-metrics.md): coughs and non-directed utterances (the caller
 * speaking to someone in the room, away from the phone). Each is due at a seeded phase plus a
 * multiple of its interval, and is placed only in the caller's silences: the nearest slot to its due
 * time that clears every speech interval (and every event already placed) by a guard, or skipped when
 * no such slot lies within half an interval. Times snap to whole milliseconds so records stay short.
 *
 * Coughs are synthesized here: a band-limited noise burst with a fast attack and exponential decay.
 * Non-directed utterances are real speech supplied by the caller of `applyCondition` (see
 * condition-assets.ts), turned down and muffled as if spoken away from the microphone.
 */
import { speechIntervals } from "../audio/speech";
import { highPassInPlace, lowPassInPlace } from "./one-pole";
import type { SeededRandom } from "./seeded-random";

export type CallerEventKind = "cough" | "non_directed";

export interface CallerEvent {
  kind: CallerEventKind;
  /** When the schedule wanted it. */
  due_ms: number;
  start_ms: number;
  end_ms: number;
  /** Non-directed utterances: which of the supplied utterances was used. */
  utterance?: number;
}

export interface SkippedCallerEvent {
  kind: CallerEventKind;
  due_ms: number;
  reason: string;
}

interface Span {
  start: number;
  end: number;
}

const RATE = 24_000;
const SAMPLES_PER_MS = RATE / 1000;
/** Silence kept between an inserted event and the caller's speech (or another event). */
export const EVENT_GUARD_MS = 80;
/** Cough loudness range (peak, PCM16) and length range. */
export const COUGH_PEAK = { min: 5250, max: 7000 } as const;
export const COUGH_LENGTH_MS = { min: 180, max: 300 } as const;
/** Non-directed speech: turned down to this peak and muffled above this frequency. */
export const NON_DIRECTED_PEAK = 3500;
export const NON_DIRECTED_LOW_PASS_HZ = 2500;

/** The caller's speech (docs/audio-and-metrics.md RMS rule), widened by the guard: where no event may go. */
export function callerBusySpans(samples: Int16Array): Span[] {
  return speechIntervals(samples, RATE).map((s) => ({ start: Math.floor(s.start_ms) - EVENT_GUARD_MS, end: Math.ceil(s.end_ms) + EVENT_GUARD_MS }));
}

export interface ScheduleRequest {
  kind: CallerEventKind;
  everyMs: number;
  durationMs: number;
  /** Spans already taken (caller speech, earlier events); events placed here are added to it. */
  busy: Span[];
  rng: SeededRandom;
  /** The sound of the k-th event, and which utterance it is (non-directed only). */
  eventAt: (k: number) => { sound: Float64Array; utterance?: number };
}

export interface PlacedCallerEvent {
  event: CallerEvent;
  sound: Float64Array;
}

/** Place the events of one kind; returns what was placed (with its sound) and what could not be. */
export function scheduleCallerEvents(request: ScheduleRequest): { placed: PlacedCallerEvent[]; skipped: SkippedCallerEvent[] } {
  const { kind, everyMs, durationMs, busy, rng, eventAt } = request;
  const placed: PlacedCallerEvent[] = [];
  const skipped: SkippedCallerEvent[] = [];
  const phase = rng.next() * everyMs;
  for (let k = 0; ; k++) {
    const due = Math.round(phase + k * everyMs);
    if (due >= durationMs) break;
    const { sound, utterance } = eventAt(k);
    const lengthMs = Math.ceil(sound.length / SAMPLES_PER_MS);
    const start = nearestFreeStart(due, lengthMs, durationMs, busy, everyMs / 2);
    if (start === undefined) {
      skipped.push({ kind, due_ms: due, reason: `no ${lengthMs} ms silence (${EVENT_GUARD_MS} ms clear of speech and other events) within ${Math.round(everyMs / 2)} ms of the due time` });
      continue;
    }
    const event: CallerEvent = { kind, due_ms: due, start_ms: start, end_ms: start + lengthMs };
    if (utterance !== undefined) event.utterance = utterance;
    placed.push({ event, sound });
    busy.push({ start: start - EVENT_GUARD_MS, end: start + lengthMs + EVENT_GUARD_MS });
  }
  return { placed, skipped };
}

/** The start closest to `due` where [start, start + length) fits inside the recording and clear of `busy`. */
function nearestFreeStart(due: number, length: number, duration: number, busy: Span[], maxShift: number): number | undefined {
  const sorted = [...busy].sort((a, b) => a.start - b.start);
  let best: number | undefined;
  let bestDistance = Infinity;
  let gapStart = 0;
  const consider = (gapEnd: number) => {
    const latest = Math.min(gapEnd, duration) - length;
    if (latest >= gapStart) {
      const start = Math.min(Math.max(due, gapStart), latest);
      const distance = Math.abs(start - due);
      if (distance < bestDistance) {
        best = start;
        bestDistance = distance;
      }
    }
  };
  for (const span of sorted) {
    consider(span.start);
    gapStart = Math.max(gapStart, span.end);
  }
  consider(duration);
  return bestDistance <= maxShift ? best : undefined;
}

/** A cough: white noise shaped to 250–1,800 Hz, 8 ms attack, exponential decay, seeded length and level. */
export function coughSound(rng: SeededRandom): Float64Array {
  const lengthMs = COUGH_LENGTH_MS.min + Math.floor(rng.next() * (COUGH_LENGTH_MS.max - COUGH_LENGTH_MS.min + 1));
  const peak = COUGH_PEAK.min + rng.next() * (COUGH_PEAK.max - COUGH_PEAK.min);
  const n = lengthMs * SAMPLES_PER_MS;
  const sound = new Float64Array(n);
  for (let i = 0; i < n; i++) sound[i] = 2 * rng.next() - 1;
  highPassInPlace(sound, 250, RATE);
  lowPassInPlace(sound, 1800, RATE);
  lowPassInPlace(sound, 1800, RATE);
  const attack = 8 * SAMPLES_PER_MS;
  const decay = n / 4;
  let max = 0;
  for (let i = 0; i < n; i++) {
    sound[i] = sound[i]! * (i < attack ? i / attack : Math.exp(-(i - attack) / decay));
    max = Math.max(max, Math.abs(sound[i]!));
  }
  const scale = max > 0 ? peak / max : 0;
  for (let i = 0; i < n; i++) sound[i] = sound[i]! * scale;
  return sound;
}

const offAxisCache = new WeakMap<Int16Array, Float64Array>();

/** An utterance as heard from across the room: muffled, then turned down to NON_DIRECTED_PEAK. Cached per input. */
export function offAxisSpeech(utterance: Int16Array): Float64Array {
  let shaped = offAxisCache.get(utterance);
  if (!shaped) {
    shaped = Float64Array.from(utterance);
    lowPassInPlace(shaped, NON_DIRECTED_LOW_PASS_HZ, RATE);
    let max = 0;
    for (let i = 0; i < shaped.length; i++) max = Math.max(max, Math.abs(shaped[i]!));
    const scale = max > 0 ? NON_DIRECTED_PEAK / max : 0;
    for (let i = 0; i < shaped.length; i++) shaped[i] = shaped[i]! * scale;
    offAxisCache.set(utterance, shaped);
  }
  return shaped;
}

/** Add `sound` into `into` starting at `startMs` (cut at the end of `into`). */
export function addAt(into: Float64Array, sound: Float64Array, startMs: number): void {
  const at = startMs * SAMPLES_PER_MS;
  const end = Math.min(into.length, at + sound.length);
  for (let i = at; i < end; i++) into[i] = into[i]! + sound[i - at]!;
}
