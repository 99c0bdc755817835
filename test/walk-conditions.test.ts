import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { speechIntervals } from "../src/core/audio/speech";
import { pcm16Wav } from "../src/core/audio/wav";
import { readBackgroundSpeech } from "../src/core/walk/condition-assets";
import { applyCondition, ConditionError, CONDITION_PRESETS, PRESET_DEFAULTS, type ConditionInput, type ConditionPreset } from "../src/core/walk/conditions";
import { mulawDecode, mulawEncode } from "../src/core/walk/mulaw";
import { bandEnergyFraction, correlationAt, RATE, rmsOf, speechLike, toneAmplitude, tones, whiteNoise } from "./walk-signal";

/** Stand-ins for the bundled assets, so these tests need no speech engine. */
const BACKGROUND = tones([300, 450], 700, 1.5); // peak ≈ 1400, normalized to 6000 by the condition
const UTTERANCES = [tones([220], 4000, 0.5), tones([260], 4000, 0.6)];
const assets = { background: BACKGROUND, nonDirected: UTTERANCES };

const sha = (samples: Int16Array) => createHash("sha256").update(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength)).digest("hex");

function apply(samples: Int16Array, preset: ConditionPreset, seed = 41, overrides: ConditionInput["overrides"] = {}) {
  return applyCondition(samples, { preset, seed, overrides, ...assets });
}

describe("G.711 μ-law", () => {
  it("matches the standard's worked values", () => {
    expect(mulawEncode(0)).toBe(0xff);
    expect(mulawDecode(0xff)).toBe(0);
    expect(mulawEncode(32767)).toBe(0x80);
    expect(mulawEncode(-32768)).toBe(0x00);
    expect(mulawDecode(0x80)).toBe(32124);
    expect(mulawDecode(0x00)).toBe(-32124);
    expect(mulawEncode(1000)).toBe(0xce);
    expect(mulawDecode(0xce)).toBe(988);
    expect(mulawEncode(-1000)).toBe(0x4e);
    expect(mulawDecode(0x4e)).toBe(-988);
  });

  it("every code but negative zero survives decode then encode, and decoded values are fixed points", () => {
    for (let byte = 0; byte < 256; byte++) {
      const value = mulawDecode(byte);
      expect(mulawDecode(mulawEncode(value))).toBe(value);
      if (byte !== 0x7f) expect(mulawEncode(value)).toBe(byte); // 0x7f is −0, which encodes as +0 (0xff)
    }
  });
});

describe("clean", () => {
  it("returns the recording unchanged, with no effects recorded", () => {
    const input = speechLike(3);
    const result = apply(input, "clean");
    expect(sha(result.samples)).toBe(sha(input));
    expect(result.settings).toEqual({ preset: "clean", seed: 41, sample_rate_hz: 24_000 });
    expect(result.observations).toMatchObject({ frames: 150, lost_frames: 0, events: [], clipped_samples: 0 });
  });
});

describe("noisy (uniform white noise of amplitude round(noise_rms × √3))", () => {
  it("adds noise of the default RMS 1200, uniformly spread up to amplitude 2078", () => {
    const silence = new Int16Array(10 * RATE);
    const { samples, settings } = apply(silence, "noisy");
    expect(settings.noise).toEqual({ rms: 1200, amplitude: 2078, distribution: "uniform" });
    expect(rmsOf(samples)).toBeGreaterThan(1200 * 0.98);
    expect(rmsOf(samples)).toBeLessThan(1200 * 1.02);
    const peak = samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak).toBeLessThanOrEqual(2078);
    expect(peak).toBeGreaterThan(2070);
    // Uniform: half the samples lie within half the amplitude.
    const inner = samples.filter((v) => Math.abs(v) <= 1039).length / samples.length;
    expect(inner).toBeGreaterThan(0.49);
    expect(inner).toBeLessThan(0.51);
  });

  it("adds the noise on top of the caller and honours --noise-rms", () => {
    const caller = speechLike(10);
    const { samples, settings } = apply(caller, "noisy", 41, { noise_rms: 120 });
    expect(settings.noise?.amplitude).toBe(208);
    const residual = samples.map((v, i) => v - caller[i]!);
    expect(rmsOf(residual)).toBeGreaterThan(120 * 0.98);
    expect(rmsOf(residual)).toBeLessThan(120 * 1.02);
  });
});

describe("telephony (docs/audio-and-metrics.md: 300 Hz / 3.4 kHz one-pole stages ×2, ×1.8, 8 kHz sample-and-hold, μ-law)", () => {
  /** chain computed independently: RC one-pole stages in float, gain, every third sample. */
  function channelReference(input: Int16Array): number[] {
    const dt = 1 / RATE;
    let x = Array.from(input, Number);
    for (let s = 0; s < 2; s++) {
      const rc = 1 / (2 * Math.PI * 300);
      const a = rc / (rc + dt);
      const y: number[] = [];
      x.forEach((v, i) => y.push(a * ((i > 0 ? y[i - 1]! : 0) + v - (i > 0 ? x[i - 1]! : 0))));
      x = y;
    }
    for (let s = 0; s < 2; s++) {
      const rc = 1 / (2 * Math.PI * 3400);
      const alpha = dt / (rc + dt);
      let y = 0;
      x = x.map((v) => (y = y + alpha * (v - y)));
    }
    const points: number[] = [];
    for (let k = 0; k < x.length; k += 3) {
      const v = Math.max(-32768, Math.min(32767, Math.round(x[k]! * 1.8)));
      points.push(mulawDecode(mulawEncode(v)));
    }
    return points;
  }

  it("carries exact μ-law values at 8 kHz, each held for three 24 kHz samples", () => {
    const input = speechLike(2);
    const { samples, settings } = apply(input, "telephony");
    expect(settings.telephony).toEqual({ high_pass_hz: 300, low_pass_hz: 3400, stages: 2, gain: 1.8, channel_rate_hz: 8000, codec: "G.711 mu-law" });
    const reference = channelReference(input);
    expect(samples.length).toBe(input.length);
    for (let k = 0; k < samples.length; k += 3) {
      const point = samples[k]!;
      expect(mulawDecode(mulawEncode(point))).toBe(point);
      expect(point).toBe(reference[k / 3]);
      expect(samples[k + 1]).toBe(point);
      expect(samples[k + 2]).toBe(point);
    }
  });

  it("keeps nearly all channel energy between 300 Hz and 4 kHz and passes the speech band at the expected gain", () => {
    const channel = (input: Int16Array) => {
      const out = apply(input, "telephony").samples;
      return Array.from({ length: 1 << 14 }, (_, k) => out[3 * k + 3000]!); // the 8 kHz points, past the filters' start-up
    };
    for (const frequencies of [[500], [1000], [2000], [500, 1000, 2000]]) {
      expect(bandEnergyFraction(channel(tones(frequencies, 3000, 2.2)), 8000, 300, 4000)).toBeGreaterThan(0.99);
    }
    // Broadband input: most of what the channel carries lies in the voice band.
    expect(bandEnergyFraction(channel(whiteNoise(2.2, 6000)), 8000, 300, 4000)).toBeGreaterThan(0.9);

    // A 1 kHz tone comes through at 1.8 × the four stages' gain × the hold's gain; 100 Hz is cut hard.
    const gainAt = (f: number) => {
      const w = (2 * Math.PI * f) / RATE;
      const z = { re: Math.cos(w), im: -Math.sin(w) }; // z⁻¹
      const abs = (re: number, im: number) => Math.hypot(re, im);
      const dt = 1 / RATE;
      const rcH = 1 / (2 * Math.PI * 300);
      const a = rcH / (rcH + dt);
      const hp = (a * abs(1 - z.re, -z.im)) / abs(1 - a * z.re, -a * z.im);
      const rcL = 1 / (2 * Math.PI * 3400);
      const alpha = dt / (rcL + dt);
      const lp = alpha / abs(1 - (1 - alpha) * z.re, -(1 - alpha) * z.im);
      const hold = Math.abs(Math.sin((3 * w) / 2) / (3 * Math.sin(w / 2)));
      return 1.8 * hp * hp * lp * lp * hold;
    };
    const measured = (f: number) => {
      const out = apply(tones([f], 4000, 2), "telephony").samples;
      return toneAmplitude(out, f, RATE, 12_000, 48_000) / 4000;
    };
    expect(measured(1000)).toBeCloseTo(gainAt(1000), 2);
    expect(measured(100)).toBeCloseTo(gainAt(100), 2);
    expect(measured(100) / measured(1000)).toBeLessThan(0.15);
  });
});

describe("background_speech (docs/audio-and-metrics.md: second speaker peak-normalized to 6000, looped, gain 0.65)", () => {
  it("mixes the looped, normalized speaker at 0.65 from a seeded offset", () => {
    const caller = speechLike(4);
    const { samples, settings } = apply(caller, "background_speech");
    const peak = BACKGROUND.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const normalized = Array.from(BACKGROUND, (v) => Math.round((v * 6000) / peak));
    expect(Math.max(...normalized)).toBe(6000);
    const offset = Math.round((settings.background_speech!.offset_ms * RATE) / 1000);
    expect(settings.background_speech).toMatchObject({ gain: 0.65, peak: 6000, source_ms: 1500 });
    for (let i = 0; i < caller.length; i++) {
      expect(samples[i]).toBe(Math.round(caller[i]! + 0.65 * normalized[(offset + i) % normalized.length]!) + 0); // + 0: no −0
    }
    // Alone (silent caller), the mixed speaker peaks at 0.65 × 6000.
    const alone = apply(new Int16Array(4 * RATE), "background_speech").samples;
    expect(alone.reduce((m, v) => Math.max(m, Math.abs(v)), 0)).toBe(3900);
  });

  it("honours --background-gain and an authorized WAV at another rate and channel count", () => {
    const silent = new Int16Array(3 * RATE);
    expect(apply(silent, "background_speech", 41, { background_gain: 0.2 }).samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0)).toBe(1200);

    const dir = mkdtempSync(join(tmpdir(), "walk-bg-"));
    const stereo16k = new Int16Array(2 * 16_000);
    for (let i = 0; i < 16_000; i++) stereo16k[2 * i] = stereo16k[2 * i + 1] = Math.round(3000 * Math.sin((2 * Math.PI * 400 * i) / 16_000));
    writeFileSync(join(dir, "other.wav"), pcm16Wav(stereo16k, 16_000, 2));
    const background = readBackgroundSpeech(join(dir, "other.wav"));
    expect(background.length).toBe(RATE); // 1 s, resampled to 24 kHz and mixed down to mono
    expect(toneAmplitude(background, 400, RATE, 2400, 21_600)).toBeCloseTo(3000, -2);
    const mixed = applyCondition(silent, { preset: "background_speech", seed: 1, background }).samples;
    expect(mixed.reduce((m, v) => Math.max(m, Math.abs(v)), 0)).toBe(3900);
  });

  it("needs a second speaker and refuses a silent or unreadable one", () => {
    expect(() => applyCondition(speechLike(1), { preset: "background_speech", seed: 1 })).toThrow(/no background speech was given/);
    expect(() => applyCondition(speechLike(1), { preset: "background_speech", seed: 1, background: new Int16Array(100) })).toThrow(/digital silence/);
    const dir = mkdtempSync(join(tmpdir(), "walk-bg-"));
    writeFileSync(join(dir, "u8.wav"), new Uint8Array(Buffer.from("RIFF$\u0000\u0000\u0000WAVEfmt \u0010\u0000\u0000\u0000\u0001\u0000\u0001\u0000@\u001f\u0000\u0000@\u001f\u0000\u0000\u0001\u0000\u0008\u0000data\u0000\u0000\u0000\u0000", "latin1")));
    expect(() => readBackgroundSpeech(join(dir, "u8.wav"))).toThrow(/u8\.wav is a mono 8 kHz 8-bit unsigned PCM WAV; it must be 16-bit signed PCM/);
    expect(() => readBackgroundSpeech(join(dir, "missing.wav"))).toThrow(/missing\.wav: file not found; check --background-speech/);
  });
});

describe("echo (docs/audio-and-metrics.md: the caller delayed 120 ms at decay 0.35)", () => {
  it("adds one copy scaled by 0.35 at 120 ms", () => {
    const caller = speechLike(3, 400, 300);
    const { samples, settings } = apply(caller, "echo");
    expect(settings.echo).toEqual({ delay_ms: 120, decay: 0.35 });
    for (let i = 0; i < caller.length; i++) {
      expect(samples[i]).toBe(Math.round(caller[i]! + (i >= 2880 ? 0.35 * caller[i - 2880]! : 0)) + 0);
    }
    const residual = samples.map((v, i) => v - caller[i]!);
    const lags = [0, 1440, 2400, 2879, 2880, 2881, 3360, 5760];
    const correlations = lags.map((lag) => correlationAt(residual, caller, lag));
    expect(correlations[lags.indexOf(2880)]).toBeCloseTo(0.35, 2);
    for (const [i, lag] of lags.entries()) if (lag !== 2880) expect(Math.abs(correlations[i]!)).toBeLessThan(0.35);
  });

  it("honours --echo-delay-ms and --echo-decay", () => {
    const caller = whiteNoise(2, 4000);
    const { samples } = apply(caller, "echo", 41, { echo_delay_ms: 90, echo_decay: 0.5 });
    const residual = samples.map((v, i) => v - caller[i]!);
    expect(correlationAt(residual, caller, 2160)).toBeCloseTo(0.5, 2);
    expect(Math.abs(correlationAt(residual, caller, 2880))).toBeLessThan(0.02);
  });
});

describe("packet_loss (docs/audio-and-metrics.md: 20 ms frames dropped with probability 0.08 in bursts of 2, as zeros)", () => {
  const FRAME = 480;
  function lossPattern(input: Int16Array, output: Int16Array): boolean[] {
    const lost: boolean[] = [];
    for (let f = 0; f * FRAME < input.length; f++) {
      const frame = output.subarray(f * FRAME, (f + 1) * FRAME);
      const original = input.subarray(f * FRAME, (f + 1) * FRAME);
      const zero = frame.every((v) => v === 0);
      if (!zero) expect(Array.from(frame)).toEqual(Array.from(original)); // a kept frame is untouched
      lost.push(zero);
    }
    return lost;
  }
  const runs = (lost: boolean[]) => {
    const out: number[] = [];
    let run = 0;
    for (const l of [...lost, false]) {
      if (l) run++;
      else if (run > 0) {
        out.push(run);
        run = 0;
      }
    }
    return out;
  };

  it("zeroes whole frames at the configured rate, in bursts, over five minutes", () => {
    const input = new Int16Array(5 * 60 * RATE).fill(1000); // 15,000 frames, none of them silent
    for (const seed of [1, 2, 3]) {
      const { samples, settings, observations } = apply(input, "packet_loss", seed);
      const lost = lossPattern(input, samples);
      const rate = lost.filter(Boolean).length / lost.length;
      expect(rate).toBeGreaterThan(0.08 - 0.012);
      expect(rate).toBeLessThan(0.08 + 0.012);
      expect(runs(lost).every((r) => r % 2 === 0)).toBe(true); // bursts of 2 (two bursts can abut)
      expect(runs(lost).filter((r) => r === 2).length).toBeGreaterThan(runs(lost).length * 0.8);
      expect(observations.frames).toBe(15_000);
      expect(observations.lost_frames).toBe(lost.filter(Boolean).length);
      expect(observations.lost_frame_runs.reduce((n, [, count]) => n + count, 0)).toBe(observations.lost_frames);
      expect(settings.packet_loss).toMatchObject({ rate: 0.08, burst_frames: 2, frame_ms: 20 });
    }
  });

  it("honours --packet-loss-rate and --packet-loss-burst, and a rate of 0 loses nothing", () => {
    const input = new Int16Array(5 * 60 * RATE).fill(-700);
    const { samples } = apply(input, "packet_loss", 9, { packet_loss_rate: 0.2, packet_loss_burst: 3 });
    const lost = lossPattern(input, samples);
    const rate = lost.filter(Boolean).length / lost.length;
    expect(rate).toBeGreaterThan(0.2 - 0.015);
    expect(rate).toBeLessThan(0.2 + 0.015);
    expect(runs(lost).every((r) => r % 3 === 0)).toBe(true);
    expect(sha(apply(input, "packet_loss", 9, { packet_loss_rate: 0 }).samples)).toBe(sha(input));
  });
});

describe("realistic (docs/audio-and-metrics.md: telephony + noise 500 + background 0.4 + echo 0.25 + loss 0.04 + coughs and asides)", () => {
  it("records every component with its default", () => {
    const { settings } = apply(speechLike(6), "realistic");
    expect(settings.telephony?.gain).toBe(1.8);
    expect(settings.noise).toMatchObject({ rms: 500, amplitude: 866 });
    expect(settings.background_speech).toMatchObject({ gain: 0.4, peak: 6000 });
    expect(settings.echo).toEqual({ delay_ms: 120, decay: 0.25 });
    expect(settings.packet_loss).toMatchObject({ rate: 0.04, burst_frames: 1 });
    expect(settings.events).toMatchObject({ cough_every_ms: 3200, non_directed_every_ms: 4600, non_directed_utterances: 2 });
  });

  it("with every added component at zero it is exactly the telephony preset", () => {
    const caller = speechLike(4);
    const off = { noise_rms: 0, background_gain: 0, echo_decay: 0, packet_loss_rate: 0, cough_every_ms: 0, non_directed_every_ms: 0 };
    expect(sha(apply(caller, "realistic", 5, off).samples)).toBe(sha(apply(caller, "telephony", 5).samples));
  });

  it("adds the line noise after the telephone channel and drops frames last, as zeros", () => {
    const caller = speechLike(60);
    const off = { background_gain: 0, echo_decay: 0, cough_every_ms: 0, non_directed_every_ms: 0 };
    const phone = apply(caller, "telephony").samples;
    const noisy = apply(caller, "realistic", 41, { ...off, packet_loss_rate: 0 }).samples;
    const residual = noisy.map((v, i) => v - phone[i]!);
    expect(rmsOf(residual)).toBeGreaterThan(490);
    expect(rmsOf(residual)).toBeLessThan(510);
    const { samples, observations } = apply(caller, "realistic", 41, off);
    expect(observations.lost_frames / observations.frames).toBeGreaterThan(0.04 - 0.01);
    expect(observations.lost_frames / observations.frames).toBeLessThan(0.04 + 0.01);
    for (const [first, count] of observations.lost_frame_runs) {
      expect(samples.subarray(first * 480, (first + count) * 480).every((v) => v === 0)).toBe(true);
    }
  });

  it("inserts coughs and non-directed utterances only where the caller is silent", () => {
    const caller = speechLike(60);
    const speech = speechIntervals(caller, RATE);
    const { observations } = apply(caller, "realistic");
    const coughs = observations.events.filter((e) => e.kind === "cough");
    const asides = observations.events.filter((e) => e.kind === "non_directed");
    // 60 s: about 60/3.2 coughs and 60/4.6 asides are due; the 1.2 s pauses hold most of them.
    expect(coughs.length + observations.skipped_events.filter((e) => e.kind === "cough").length).toBeGreaterThanOrEqual(18);
    expect(coughs.length).toBeGreaterThan(10);
    expect(asides.length).toBeGreaterThan(6);
    for (const event of observations.events) {
      for (const s of speech) expect(event.end_ms <= s.start_ms || event.start_ms >= s.end_ms).toBe(true);
      expect(Math.abs(event.start_ms - event.due_ms)).toBeLessThanOrEqual((event.kind === "cough" ? 3200 : 4600) / 2);
    }
    for (let i = 1; i < observations.events.length; i++) expect(observations.events[i]!.start_ms).toBeGreaterThanOrEqual(observations.events[i - 1]!.end_ms);
    // A recording that is all speech has no room: every event is skipped, with the reason.
    const talkative = apply(speechLike(8, 8000, 1), "realistic");
    expect(talkative.observations.events).toEqual([]);
    expect(talkative.observations.skipped_events.length).toBeGreaterThan(0);
    expect(talkative.observations.skipped_events[0]!.reason).toMatch(/no \d+ ms silence/);
  });

  it("puts the events' sound where the events are recorded", () => {
    const caller = speechLike(30);
    const off = { noise_rms: 0, background_gain: 0, echo_decay: 0, packet_loss_rate: 0 };
    const withEvents = apply(caller, "realistic", 41, off);
    const without = apply(caller, "realistic", 41, { ...off, cough_every_ms: 0, non_directed_every_ms: 0 }).samples;
    const difference = withEvents.samples.map((v, i) => v - without[i]!);
    let inside = 0;
    let total = 0;
    const spans = withEvents.observations.events.map((e) => [e.start_ms * 24, (e.end_ms + 30) * 24] as const); // + the filters' ring-out
    difference.forEach((d, i) => {
      total += d * d;
      if (spans.some(([a, b]) => i >= a && i < b)) inside += d * d;
    });
    expect(withEvents.observations.events.length).toBeGreaterThan(5);
    expect(inside / total).toBeGreaterThan(0.99);
  });

  it("needs utterances for its non-directed speech unless they are turned off", () => {
    const caller = speechLike(3);
    expect(() => applyCondition(caller, { preset: "realistic", seed: 1, background: BACKGROUND })).toThrow(ConditionError);
    expect(() => applyCondition(caller, { preset: "realistic", seed: 1, background: BACKGROUND })).toThrow(/non_directed_every_ms \(--non-directed-every-ms\) to 0/);
    expect(applyCondition(caller, { preset: "realistic", seed: 1, background: BACKGROUND, overrides: { non_directed_every_ms: 0 } }).samples.length).toBe(caller.length);
  });
});

describe("determinism (docs/audio-and-metrics.md)", () => {
  const caller = speechLike(6);
  it.each(CONDITION_PRESETS)("%s: same seed gives identical bytes", (preset) => {
    expect(sha(apply(caller, preset, 1234).samples)).toBe(sha(apply(caller, preset, 1234).samples));
  });

  it("different seeds give different bytes for every preset that draws random numbers", () => {
    for (const preset of ["noisy", "background_speech", "packet_loss", "realistic"] as const) {
      expect(sha(apply(caller, preset, 1).samples), preset).not.toBe(sha(apply(caller, preset, 2).samples));
    }
  });

  it("presets without randomness give the same bytes for every seed", () => {
    for (const preset of ["clean", "telephony", "echo"] as const) {
      expect(sha(apply(caller, preset, 1).samples), preset).toBe(sha(apply(caller, preset, 2).samples));
    }
  });

  it("keeps each effect's randomness separate: the loss pattern does not move with the noise level", () => {
    const a = apply(caller, "realistic", 7, { noise_rms: 100 }).observations.lost_frame_runs;
    const b = apply(caller, "realistic", 7, { noise_rms: 900 }).observations.lost_frame_runs;
    expect(a).toEqual(b);
  });
});

describe("overrides and inputs", () => {
  it("refuses out-of-range overrides, naming the field and its flag", () => {
    const caller = speechLike(1);
    const cases: Array<[ConditionInput["overrides"], RegExp]> = [
      [{ noise_rms: -1 }, /noise_rms \(--noise-rms\) must be a PCM16 RMS from 0 to 10000, got -1/],
      [{ echo_decay: 1.5 }, /echo_decay \(--echo-decay\) must be a decay from 0 to 1, got 1.5/],
      [{ echo_delay_ms: 0 }, /echo_delay_ms \(--echo-delay-ms\) must be a delay from 1 to 2000 ms/],
      [{ packet_loss_rate: 1 }, /packet_loss_rate \(--packet-loss-rate\) must be a rate from 0 up to \(not including\) 1/],
      [{ packet_loss_burst: 1.5 }, /packet_loss_burst \(--packet-loss-burst\) must be a whole number of frames/],
      [{ background_gain: Number.NaN }, /background_gain \(--background-gain\) must be a gain from 0 to 4, got NaN/],
      [{ cough_every_ms: 100 }, /cough_every_ms \(--cough-every-ms\) must be 0 \(off\) or an interval from 500/],
      [{ loudness: 3 } as never, /unknown condition override "loudness"/],
    ];
    for (const [overrides, message] of cases) {
      expect(() => apply(caller, "realistic", 1, overrides)).toThrow(message);
    }
    expect(() => applyCondition(caller, { preset: "underwater" as ConditionPreset, seed: 1 })).toThrow(/unknown condition "underwater"; use one of clean, noisy, telephony/);
    expect(() => applyCondition(caller, { preset: "noisy", seed: 1.5 })).toThrow(/seed must be a whole number/);
  });

  it("ignores overrides a preset does not read, and records only the effects applied", () => {
    const caller = speechLike(2);
    const plain = apply(caller, "noisy");
    const extra = apply(caller, "noisy", 41, { echo_decay: 0.9, packet_loss_rate: 0.5 });
    expect(sha(extra.samples)).toBe(sha(plain.samples));
    expect(Object.keys(extra.settings).sort()).toEqual(["noise", "preset", "sample_rate_hz", "seed"]);
    expect(Object.keys(PRESET_DEFAULTS.realistic).sort()).toEqual(
      ["background_gain", "cough_every_ms", "echo_decay", "echo_delay_ms", "noise_rms", "non_directed_every_ms", "packet_loss_burst", "packet_loss_rate"].sort(),
    );
  });

  it("stays within int16 and counts what it clipped", () => {
    const loud = tones([1000], 30_000, 1);
    const { samples, observations } = apply(loud, "noisy", 1, { noise_rms: 3000 });
    expect(observations.clipped_samples).toBeGreaterThan(0);
    expect(samples.every((v) => v >= -32768 && v <= 32767)).toBe(true);
    expect(samples.some((v) => v === 32767)).toBe(true);
  });
});
