/** Signal tools for the WALK condition tests: test tones, a fixed-seed speech-like signal, an FFT and Goertzel. */

export const RATE = 24_000;

/** Sum of sines, `amplitude` each, `seconds` long at `rate`. */
export function tones(frequencies: number[], amplitude: number, seconds: number, rate = RATE): Int16Array {
  return Int16Array.from({ length: Math.round(seconds * rate) }, (_, i) =>
    Math.round(frequencies.reduce((sum, f) => sum + amplitude * Math.sin((2 * Math.PI * f * i) / rate), 0)),
  );
}

/** A fixed-seed generator (LCG) of uniform values in [-1, 1). */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

/** White noise of peak `amplitude`. */
export function whiteNoise(seconds: number, amplitude: number, seed = 7): Int16Array {
  const next = lcg(seed);
  return Int16Array.from({ length: Math.round(seconds * RATE) }, () => Math.round(next() * amplitude));
}

/**
 * Speech-like caller audio: `speechMs` of a buzzing 180 Hz voice with noise, then `pauseMs` of
 * near-silence, repeated for `seconds`. The voiced parts clear the RMS rule; the pauses do not.
 */
export function speechLike(seconds: number, speechMs = 1500, pauseMs = 1200, seed = 11): Int16Array {
  const next = lcg(seed);
  const period = speechMs + pauseMs;
  return Int16Array.from({ length: Math.round(seconds * RATE) }, (_, i) => {
    const ms = ((i * 1000) / RATE) % period;
    if (ms < speechMs) return Math.round(5000 * Math.sin((2 * Math.PI * 180 * i) / RATE) + 2500 * Math.sin((2 * Math.PI * 720 * i) / RATE) + 1200 * next());
    return Math.round(30 * next());
  });
}

export function rmsOf(values: ArrayLike<number>, from = 0, to = values.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += values[i]! * values[i]!;
  return Math.sqrt(sum / (to - from));
}

/** Power spectrum (bins 0 … n/2 − 1) of a Hann-windowed signal; n must be a power of two. */
export function powerSpectrum(signal: ArrayLike<number>): Float64Array {
  const n = signal.length;
  if ((n & (n - 1)) !== 0) throw new RangeError("FFT length must be a power of two");
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < n; i++) re[i] = signal[i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (n - 1)));
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const step = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(step * k);
        const wi = Math.sin(step * k);
        const a = i + k;
        const b = a + len / 2;
        const vr = re[b]! * wr - im[b]! * wi;
        const vi = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - vr;
        im[b] = im[a]! - vi;
        re[a] = re[a]! + vr;
        im[a] = im[a]! + vi;
      }
    }
  }
  const power = new Float64Array(n / 2);
  for (let k = 0; k < n / 2; k++) power[k] = re[k]! ** 2 + im[k]! ** 2;
  return power;
}

/** Fraction of a signal's energy (DC excluded) between `low` and `high` Hz. */
export function bandEnergyFraction(signal: ArrayLike<number>, rate: number, low: number, high: number): number {
  const power = powerSpectrum(signal);
  const n = power.length * 2;
  let inBand = 0;
  let total = 0;
  for (let k = 1; k < power.length; k++) {
    const f = (k * rate) / n;
    total += power[k]!;
    if (f >= low && f <= high) inBand += power[k]!;
  }
  return inBand / total;
}

/** Amplitude of the `frequency` component (Goertzel over a whole number of periods is exact for a pure tone). */
export function toneAmplitude(signal: ArrayLike<number>, frequency: number, rate: number, from = 0, to = signal.length): number {
  const n = to - from;
  const w = (2 * Math.PI * frequency) / rate;
  const coeff = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  for (let i = from; i < to; i++) {
    const s0 = signal[i]! + coeff * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  return (2 * Math.sqrt(Math.max(0, power))) / n;
}

/** Cross-correlation of `a` against `b` shifted by `lag` samples, as a gain: Σ a[i]·b[i−lag] / Σ b[i−lag]² over the overlap. */
export function correlationAt(a: ArrayLike<number>, b: ArrayLike<number>, lag: number): number {
  let dot = 0;
  let energy = 0;
  for (let i = lag; i < a.length && i - lag < b.length; i++) {
    dot += a[i]! * b[i - lag]!;
    energy += b[i - lag]! * b[i - lag]!;
  }
  return dot / energy;
}
