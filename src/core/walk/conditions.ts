/**
 * Acoustic conditions (docs/audio-and-metrics.md): the seven presets and their overrides, applied to a caller recording.
 * Output stays mono PCM16 at 24 kHz and as long as the input; every random choice comes from a
 * stream seeded by (seed, effect), so the same seed gives the same bytes. Presets without randomness
 * (clean, telephony, echo) give the same bytes for every seed.
 *
 * The realistic preset composes the others in the order sound travels: caller-side events (coughs,
 * non-directed speech) and the second speaker in the room, the echo, the telephone channel, line
 * noise, then packet loss last, so a lost frame is exact zeros as docs/audio-and-metrics.md says.
 */
import { clipInt16 } from "../audio/pcm";
import { Condition } from "../dataset/schema";
import { addAt, callerBusySpans, coughSound, offAxisSpeech, scheduleCallerEvents, COUGH_LENGTH_MS, COUGH_PEAK, EVENT_GUARD_MS, NON_DIRECTED_LOW_PASS_HZ, NON_DIRECTED_PEAK, type CallerEvent, type SkippedCallerEvent } from "./caller-events";
import { mulawRoundTripTable } from "./mulaw";
import { highPassInPlace, lowPassInPlace } from "./one-pole";
import { seededRandom } from "./seeded-random";
import { UserError } from "../user-error";

export const CONDITION_PRESETS = Condition.options;
export type ConditionPreset = (typeof CONDITION_PRESETS)[number];

/** The rate every condition works at and returns: the transport rate. */
export const CONDITION_SAMPLE_RATE = 24_000;
/** Packet loss drops whole 20 ms frames (docs/audio-and-metrics.md). */
export const LOSS_FRAME_MS = 20;
const FRAME_SAMPLES = (CONDITION_SAMPLE_RATE * LOSS_FRAME_MS) / 1000;

/** Every parameter a user may override (docs/audio-and-metrics.md). The background file itself is an input, not a number. */
export interface ConditionOverrides {
  noise_rms?: number;
  background_gain?: number;
  echo_delay_ms?: number;
  echo_decay?: number;
  packet_loss_rate?: number;
  packet_loss_burst?: number;
  /** 0 turns coughs off. */
  cough_every_ms?: number;
  /** 0 turns non-directed utterances off. */
  non_directed_every_ms?: number;
}
export type ConditionOverride = keyof ConditionOverrides;

/** Telephony channel, fixed (docs/audio-and-metrics.md). */
export const TELEPHONY = { high_pass_hz: 300, low_pass_hz: 3400, stages: 2, gain: 1.8, channel_rate_hz: 8000, codec: "G.711 mu-law" } as const;
/** Background speech: the second speaker is peak-normalized to this before mixing (docs/audio-and-metrics.md). */
export const BACKGROUND_PEAK = 6000;

/** Defaults per preset; exactly the overrides a preset reads are listed for it (docs/audio-and-metrics.md). */
export const PRESET_DEFAULTS: Readonly<Record<ConditionPreset, Readonly<ConditionOverrides>>> = {
  clean: {},
  noisy: { noise_rms: 1200 },
  telephony: {},
  background_speech: { background_gain: 0.65 },
  echo: { echo_delay_ms: 120, echo_decay: 0.35 },
  packet_loss: { packet_loss_rate: 0.08, packet_loss_burst: 2 },
  realistic: {
    noise_rms: 500,
    background_gain: 0.4,
    echo_delay_ms: 120,
    echo_decay: 0.25,
    packet_loss_rate: 0.04,
    packet_loss_burst: 1,
    cough_every_ms: 3200,
    non_directed_every_ms: 4600,
  },
};

/** The overrides a preset reads (any other override has no effect on it). */
export function presetOverrides(preset: ConditionPreset): ConditionOverride[] {
  return Object.keys(PRESET_DEFAULTS[preset]) as ConditionOverride[];
}

/** Whether a preset mixes in a second speaker (and so needs `background`). */
export function presetUsesBackground(preset: ConditionPreset): boolean {
  return PRESET_DEFAULTS[preset].background_gain !== undefined;
}

/** Whether a preset with these overrides inserts non-directed utterances (and so needs `nonDirected`). */
export function presetUsesNonDirected(preset: ConditionPreset, overrides: ConditionOverrides = {}): boolean {
  const every = overrides.non_directed_every_ms ?? PRESET_DEFAULTS[preset].non_directed_every_ms;
  return every !== undefined && every > 0;
}

/** Valid range of each override; the message names the field and its CLI flag. */
const OVERRIDE_RULES: Record<ConditionOverride, { flag: string; check: (v: number) => boolean; range: string }> = {
  noise_rms: { flag: "--noise-rms", check: (v) => v >= 0 && v <= 10_000, range: "a PCM16 RMS from 0 to 10000" },
  background_gain: { flag: "--background-gain", check: (v) => v >= 0 && v <= 4, range: "a gain from 0 to 4" },
  echo_delay_ms: { flag: "--echo-delay-ms", check: (v) => v >= 1 && v <= 2000, range: "a delay from 1 to 2000 ms" },
  echo_decay: { flag: "--echo-decay", check: (v) => v >= 0 && v <= 1, range: "a decay from 0 to 1" },
  packet_loss_rate: { flag: "--packet-loss-rate", check: (v) => v >= 0 && v < 1, range: "a rate from 0 up to (not including) 1" },
  packet_loss_burst: { flag: "--packet-loss-burst", check: (v) => Number.isInteger(v) && v >= 1 && v <= 50, range: "a whole number of frames from 1 to 50" },
  cough_every_ms: { flag: "--cough-every-ms", check: (v) => v === 0 || (v >= 500 && v <= 600_000), range: "0 (off) or an interval from 500 to 600000 ms" },
  non_directed_every_ms: { flag: "--non-directed-every-ms", check: (v) => v === 0 || (v >= 500 && v <= 600_000), range: "0 (off) or an interval from 500 to 600000 ms" },
};

/** The CLI flag of each override, for messages that talk to command-line users. */
export const OVERRIDE_FLAGS: Readonly<Record<ConditionOverride, string>> = Object.fromEntries(
  Object.entries(OVERRIDE_RULES).map(([key, rule]) => [key, rule.flag]),
) as Record<ConditionOverride, string>;

export type ConditionErrorCode = "unknown_preset" | "bad_seed" | "bad_override" | "missing_background" | "missing_utterances" | "bad_background";

/** A condition that cannot be applied as asked; the message says what to change. */
export class ConditionError extends UserError {
  override readonly name = "ConditionError";
  constructor(
    readonly code: ConditionErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function requirePreset(preset: string): ConditionPreset {
  if (!(CONDITION_PRESETS as readonly string[]).includes(preset)) {
    throw new ConditionError("unknown_preset", `unknown condition "${preset}"; use one of ${CONDITION_PRESETS.join(", ")}`);
  }
  return preset as ConditionPreset;
}

/** Every override checked against its range; unknown keys are refused. */
export function validateOverrides(overrides: ConditionOverrides): void {
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const rule = OVERRIDE_RULES[key as ConditionOverride];
    if (!rule) throw new ConditionError("bad_override", `unknown condition override "${key}"; known: ${Object.keys(OVERRIDE_RULES).join(", ")}`);
    if (typeof value !== "number" || !Number.isFinite(value) || !rule.check(value)) {
      throw new ConditionError("bad_override", `${key} (${rule.flag}) must be ${rule.range}, got ${String(value)}`);
    }
  }
}

/** The effect parameters actually applied, recorded beside each generated recording (docs/audio-and-metrics.md). */
export interface ConditionSettings {
  preset: ConditionPreset;
  seed: number;
  sample_rate_hz: number;
  events?: {
    cough_every_ms: number;
    cough_peak: { min: number; max: number };
    cough_length_ms: { min: number; max: number };
    non_directed_every_ms: number;
    non_directed_peak: number;
    non_directed_low_pass_hz: number;
    non_directed_utterances: number;
    guard_ms: number;
  };
  background_speech?: { gain: number; peak: number; source_ms: number; offset_ms: number };
  echo?: { delay_ms: number; decay: number };
  telephony?: typeof TELEPHONY;
  noise?: { rms: number; amplitude: number; distribution: "uniform" };
  packet_loss?: { rate: number; burst_frames: number; frame_ms: number; burst_start_probability: number };
}

/** What happened to this recording (docs/audio-and-metrics.md): frames, lost frames, inserted events. */
export interface ConditionObservations {
  /** 20 ms frames in the recording (the last may be shorter). */
  frames: number;
  lost_frames: number;
  /** Runs of lost frames as [first frame, count]. */
  lost_frame_runs: Array<[number, number]>;
  events: CallerEvent[];
  skipped_events: SkippedCallerEvent[];
  /** Samples that exceeded the int16 range and were clipped. */
  clipped_samples: number;
}

export interface ConditionInput {
  preset: ConditionPreset;
  seed: number;
  overrides?: ConditionOverrides;
  /** The second speaker (mono 24 kHz, any level: it is peak-normalized). Needed by background_speech and realistic. */
  background?: Int16Array;
  /** Short utterances (mono 24 kHz) used, in turn, as non-directed speech by realistic. */
  nonDirected?: readonly Int16Array[];
}

export interface ConditionResult {
  /** Mono PCM16 at 24 kHz, as long as the input. */
  samples: Int16Array;
  settings: ConditionSettings;
  observations: ConditionObservations;
}

/** Apply one preset (with overrides) to mono 24 kHz caller samples. docs/audio-and-metrics.md. */
export function applyCondition(samples: Int16Array, input: ConditionInput): ConditionResult {
  const preset = requirePreset(input.preset);
  const { seed } = input;
  if (!Number.isSafeInteger(seed)) throw new ConditionError("bad_seed", `the condition seed must be a whole number, got ${String(seed)}`);
  const overrides = input.overrides ?? {};
  validateOverrides(overrides);
  const p = { ...PRESET_DEFAULTS[preset] };
  for (const key of presetOverrides(preset)) if (overrides[key] !== undefined) (p as Record<string, number>)[key] = overrides[key]!;

  const n = samples.length;
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = samples[i]!;
  const settings: ConditionSettings = { preset, seed, sample_rate_hz: CONDITION_SAMPLE_RATE };
  const observations: ConditionObservations = {
    frames: Math.ceil(n / FRAME_SAMPLES),
    lost_frames: 0,
    lost_frame_runs: [],
    events: [],
    skipped_events: [],
    clipped_samples: 0,
  };

  if (p.cough_every_ms !== undefined || p.non_directed_every_ms !== undefined) {
    settings.events = insertCallerEvents(x, samples, seed, p.cough_every_ms ?? 0, p.non_directed_every_ms ?? 0, input.nonDirected, observations);
  }
  if (p.background_gain !== undefined) settings.background_speech = mixBackground(x, input.background, p.background_gain, seed);
  if (p.echo_delay_ms !== undefined && p.echo_decay !== undefined) settings.echo = addEcho(x, p.echo_delay_ms, p.echo_decay);
  if (preset === "telephony" || preset === "realistic") {
    observations.clipped_samples += telephoneChannel(x);
    settings.telephony = TELEPHONY;
  }
  if (p.noise_rms !== undefined) settings.noise = addNoise(x, p.noise_rms, seed);
  if (p.packet_loss_rate !== undefined && p.packet_loss_burst !== undefined) {
    settings.packet_loss = dropFrames(x, p.packet_loss_rate, p.packet_loss_burst, seed, observations);
  }

  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const v = x[i]!;
    if (v > 32_767.5 || v < -32_768.5) observations.clipped_samples++;
    out[i] = clipInt16(v);
  }
  return { samples: out, settings, observations };
}

/** Realistic: coughs and non-directed utterances, only where the caller is silent (caller-events.ts). */
function insertCallerEvents(
  x: Float64Array,
  caller: Int16Array,
  seed: number,
  coughEveryMs: number,
  nonDirectedEveryMs: number,
  utterances: readonly Int16Array[] | undefined,
  observations: ConditionObservations,
): NonNullable<ConditionSettings["events"]> {
  const durationMs = Math.floor((caller.length * 1000) / CONDITION_SAMPLE_RATE);
  const busy = callerBusySpans(caller);
  const record = ({ placed, skipped }: ReturnType<typeof scheduleCallerEvents>) => {
    for (const { event, sound } of placed) addAt(x, sound, event.start_ms);
    observations.events.push(...placed.map((p) => p.event));
    observations.skipped_events.push(...skipped);
  };
  if (nonDirectedEveryMs > 0) {
    if (!utterances || utterances.length === 0 || utterances.some((u) => u.length === 0)) {
      throw new ConditionError(
        "missing_utterances",
        "the realistic condition inserts non-directed speech but no utterances were given; pass nonDirected (synthesizeNonDirectedUtterances()) or set non_directed_every_ms (--non-directed-every-ms) to 0",
      );
    }
    const pick = seededRandom(seed, "non_directed.pick");
    const first = Math.floor(pick.next() * utterances.length);
    const shaped = utterances.map((u) => offAxisSpeech(u));
    const result = scheduleCallerEvents({
      kind: "non_directed",
      everyMs: nonDirectedEveryMs,
      durationMs,
      busy,
      rng: seededRandom(seed, "non_directed.schedule"),
      eventAt: (k) => {
        const utterance = (first + k) % utterances.length;
        return { sound: shaped[utterance]!, utterance };
      },
    });
    record(result);
  }
  if (coughEveryMs > 0) {
    const soundRng = seededRandom(seed, "cough.sound");
    record(
      scheduleCallerEvents({
        kind: "cough",
        everyMs: coughEveryMs,
        durationMs,
        busy,
        rng: seededRandom(seed, "cough.schedule"),
        eventAt: () => ({ sound: coughSound(soundRng) }),
      }),
    );
  }
  observations.events.sort((a, b) => a.start_ms - b.start_ms);
  observations.skipped_events.sort((a, b) => a.due_ms - b.due_ms);
  return {
    cough_every_ms: coughEveryMs,
    cough_peak: { ...COUGH_PEAK },
    cough_length_ms: { ...COUGH_LENGTH_MS },
    non_directed_every_ms: nonDirectedEveryMs,
    non_directed_peak: NON_DIRECTED_PEAK,
    non_directed_low_pass_hz: NON_DIRECTED_LOW_PASS_HZ,
    non_directed_utterances: nonDirectedEveryMs > 0 ? utterances!.length : 0,
    guard_ms: EVENT_GUARD_MS,
  };
}

/** Background speech: normalized to BACKGROUND_PEAK, looped from a seeded offset, mixed at `gain` (docs/audio-and-metrics.md). */
function mixBackground(x: Float64Array, background: Int16Array | undefined, gain: number, seed: number): NonNullable<ConditionSettings["background_speech"]> {
  if (!background || background.length === 0) {
    throw new ConditionError("missing_background", "this condition mixes in a second speaker but no background speech was given; pass background (the bundled speaker or an authorized WAV)");
  }
  const normalized = normalizedBackground(background);
  const length = normalized.length;
  const offset = Math.floor(seededRandom(seed, "background.offset").next() * length);
  for (let i = 0, j = offset; i < x.length; i++, j = j + 1 === length ? 0 : j + 1) x[i] = x[i]! + gain * normalized[j]!;
  return {
    gain,
    peak: BACKGROUND_PEAK,
    source_ms: round3((length * 1000) / CONDITION_SAMPLE_RATE),
    offset_ms: round3((offset * 1000) / CONDITION_SAMPLE_RATE),
  };
}

const normalizedCache = new WeakMap<Int16Array, Int16Array>();

/** The second speaker scaled so its peak is exactly BACKGROUND_PEAK (cached: the same asset is mixed many times). */
export function normalizedBackground(background: Int16Array): Int16Array {
  let normalized = normalizedCache.get(background);
  if (!normalized) {
    let peak = 0;
    for (let i = 0; i < background.length; i++) peak = Math.max(peak, Math.abs(background[i]!));
    if (peak === 0) throw new ConditionError("bad_background", "the background speech is digital silence; use a recording with audible speech");
    const scale = BACKGROUND_PEAK / peak;
    normalized = new Int16Array(background.length);
    for (let i = 0; i < background.length; i++) normalized[i] = Math.round(background[i]! * scale);
    normalizedCache.set(background, normalized);
  }
  return normalized;
}

/** Echo: one reflection, the signal delayed and scaled, added to itself (docs/audio-and-metrics.md). */
function addEcho(x: Float64Array, delayMs: number, decay: number): NonNullable<ConditionSettings["echo"]> {
  const delay = Math.round((delayMs * CONDITION_SAMPLE_RATE) / 1000);
  // Backwards, so each x[i − delay] read is still the dry signal.
  for (let i = x.length - 1; i >= delay; i--) x[i] = x[i]! + decay * x[i - delay]!;
  return { delay_ms: delayMs, decay };
}

/**
 * Telephony: two 300 Hz high-pass and two 3,400 Hz low-pass one-pole stages, ×1.8, then the 8 kHz
 * channel: every third sample is μ-law encoded and decoded and held for three samples. Returns how
 * many channel samples clipped.
 */
function telephoneChannel(x: Float64Array): number {
  for (let s = 0; s < TELEPHONY.stages; s++) highPassInPlace(x, TELEPHONY.high_pass_hz, CONDITION_SAMPLE_RATE);
  for (let s = 0; s < TELEPHONY.stages; s++) lowPassInPlace(x, TELEPHONY.low_pass_hz, CONDITION_SAMPLE_RATE);
  const table = mulawRoundTripTable();
  const factor = CONDITION_SAMPLE_RATE / TELEPHONY.channel_rate_hz;
  let clipped = 0;
  for (let k = 0; k < x.length; k += factor) {
    const v = x[k]! * TELEPHONY.gain;
    if (v > 32_767.5 || v < -32_768.5) clipped += Math.min(factor, x.length - k);
    const held = table[clipInt16(v) + 32_768]!;
    for (let i = k; i < k + factor && i < x.length; i++) x[i] = held;
  }
  return clipped;
}

/** Noisy: uniform white noise of amplitude round(rms × √3), whose RMS is `rms` (docs/audio-and-metrics.md). */
function addNoise(x: Float64Array, rms: number, seed: number): NonNullable<ConditionSettings["noise"]> {
  const amplitude = Math.round(rms * Math.sqrt(3));
  const rng = seededRandom(seed, "noise");
  for (let i = 0; i < x.length; i++) x[i] = x[i]! + (2 * rng.next() - 1) * amplitude;
  return { rms, amplitude, distribution: "uniform" };
}

/**
 * Packet loss: 20 ms frames dropped (zeroed) in bursts of `burst` frames. A burst starts at a
 * kept frame with probability q = rate / (burst·(1 − rate) + rate), which makes the long-run
 * fraction of lost frames exactly `rate`.
 */
function dropFrames(x: Float64Array, rate: number, burst: number, seed: number, observations: ConditionObservations): NonNullable<ConditionSettings["packet_loss"]> {
  const q = rate === 0 ? 0 : rate / (burst * (1 - rate) + rate);
  const rng = seededRandom(seed, "packet_loss");
  const frames = Math.ceil(x.length / FRAME_SAMPLES);
  let remaining = 0;
  for (let f = 0; f < frames; f++) {
    let lost = false;
    if (remaining > 0) {
      lost = true;
      remaining--;
    } else if (rng.next() < q) {
      lost = true;
      remaining = burst - 1;
    }
    if (!lost) continue;
    x.fill(0, f * FRAME_SAMPLES, Math.min(x.length, (f + 1) * FRAME_SAMPLES));
    observations.lost_frames++;
    const last = observations.lost_frame_runs.at(-1);
    if (last && last[0] + last[1] === f) last[1]++;
    else observations.lost_frame_runs.push([f, 1]);
  }
  return { rate, burst_frames: burst, frame_ms: LOSS_FRAME_MS, burst_start_probability: round6(q) };
}

function round3(v: number): number {
  return Math.round(v * 1000) / 1000;
}
function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
