/**
 * Sample-rate conversion for speech: a Blackman-windowed sinc interpolator whose cutoff drops to the
 * output Nyquist when downsampling, so nothing above it folds back as aliasing. The output length is
 * exactly round(n × to / from), and the result depends only on the input (no state, no randomness),
 * so converted caller audio is byte-for-byte reproducible.
 */
import { clipInt16 } from "./pcm";

/** Zero crossings of the sinc on each side of the centre; 16 keeps the passband flat across speech. */
const ZERO_CROSSINGS = 16;
/** Cutoff as a fraction of the lower Nyquist, leaving room for the window's transition band. */
const ROLLOFF = 0.95;
/** Above this many distinct phases a precomputed table costs more than computing each kernel. */
const MAX_TABLE_PHASES = 4096;

/** A polyphase filter for one rate pair, built once and kept (a run uses a handful of pairs). */
interface PolyphaseFilter {
  /** Output sample j sits at input position (j × down) / up. */
  up: number;
  down: number;
  halfWidth: number;
  taps: number;
  cutoff: number;
  /** `taps` weights per phase, phase-major; undefined above MAX_TABLE_PHASES (each kernel is then computed). */
  table: Float64Array | undefined;
}

const filters = new Map<string, PolyphaseFilter>();
/** Tables of unusual pairs can reach megabytes: keep the most recently built few. */
const MAX_FILTERS = 8;

function filterFor(fromRate: number, toRate: number): PolyphaseFilter {
  const key = `${fromRate}>${toRate}`;
  let filter = filters.get(key);
  if (!filter) {
    const divisor = gcd(fromRate, toRate);
    const up = toRate / divisor;
    const down = fromRate / divisor;
    const cutoff = ROLLOFF * Math.min(1, toRate / fromRate);
    const halfWidth = Math.ceil(ZERO_CROSSINGS / cutoff); // in input samples
    const taps = 2 * halfWidth;
    const table = up <= MAX_TABLE_PHASES ? kernelTable(up, taps, halfWidth, cutoff) : undefined;
    filter = { up, down, halfWidth, taps, cutoff, table };
    if (filters.size >= MAX_FILTERS) filters.delete(filters.keys().next().value!);
    filters.set(key, filter);
  }
  return filter;
}

export function resamplePcm16(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  for (const [name, rate] of [["fromRate", fromRate], ["toRate", toRate]] as const) {
    if (!Number.isInteger(rate) || rate <= 0) throw new RangeError(`${name} must be a positive integer, got ${rate}`);
  }
  if (fromRate === toRate) return samples.slice();
  const outLength = Math.round((samples.length * toRate) / fromRate);
  const out = new Int16Array(outLength);
  if (samples.length === 0) return out;
  const filter = filterFor(fromRate, toRate);
  if (filter.table) convolvePolyphase(samples, out, filter, filter.table);
  else convolveComputed(samples, out, filter);
  return out;
}

/**
 * The table path. The input is copied once into a float buffer with halfWidth zeros on each side, so
 * every output sample is one branch-free dot product of `taps` weights, and the phase steps by `down`
 * with no division. Each sum runs over the same taps in the same order as before (the padding adds
 * exact zeros), so the output is bit-identical to computing each kernel; what makes it fast is working
 * on four output samples at once, whose independent sums the processor overlaps instead of waiting on
 * one chain of additions.
 */
function convolvePolyphase(samples: Int16Array, out: Int16Array, filter: PolyphaseFilter, table: Float64Array): void {
  const { up, down, halfWidth, taps } = filter;
  const padded = new Float64Array(samples.length + 2 * halfWidth);
  for (let i = 0; i < samples.length; i++) padded[halfWidth + i] = samples[i]!;
  // Output j reads padded[base_j + 1 + t] × table[phase_j × taps + t], base_j = floor(j × down / up).
  let base = 0;
  let phase = 0;
  const step = () => {
    phase += down;
    while (phase >= up) {
      phase -= up;
      base++;
    }
  };
  let j = 0;
  for (; j + 4 <= out.length; j += 4) {
    const f0 = base + 1, o0 = phase * taps;
    step();
    const f1 = base + 1, o1 = phase * taps;
    step();
    const f2 = base + 1, o2 = phase * taps;
    step();
    const f3 = base + 1, o3 = phase * taps;
    step();
    let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    for (let t = 0; t < taps; t++) {
      a0 += padded[f0 + t]! * table[o0 + t]!;
      a1 += padded[f1 + t]! * table[o1 + t]!;
      a2 += padded[f2 + t]! * table[o2 + t]!;
      a3 += padded[f3 + t]! * table[o3 + t]!;
    }
    out[j] = clipInt16(a0);
    out[j + 1] = clipInt16(a1);
    out[j + 2] = clipInt16(a2);
    out[j + 3] = clipInt16(a3);
  }
  for (; j < out.length; j++) {
    const first = base + 1, offset = phase * taps;
    step();
    let acc = 0;
    for (let t = 0; t < taps; t++) acc += padded[first + t]! * table[offset + t]!;
    out[j] = clipInt16(acc);
  }
}

/** Rate pairs with too many phases to tabulate: each output sample computes its own kernel. */
function convolveComputed(samples: Int16Array, out: Int16Array, filter: PolyphaseFilter): void {
  const { up, down, halfWidth, taps, cutoff } = filter;
  const kernel = new Float64Array(taps);
  for (let j = 0; j < out.length; j++) {
    const position = j * down;
    const base = Math.floor(position / up);
    const phase = position - base * up;
    fillKernel(kernel, 0, taps, phase / up, halfWidth, cutoff);
    // Tap t reads input sample base - halfWidth + 1 + t; samples outside the input are silence.
    const first = base - halfWidth + 1;
    const tStart = Math.max(0, -first);
    const tEnd = Math.min(taps, samples.length - first);
    let acc = 0;
    for (let t = tStart; t < tEnd; t++) acc += samples[first + t]! * kernel[t]!;
    out[j] = clipInt16(acc);
  }
}

function kernelTable(phases: number, taps: number, halfWidth: number, cutoff: number): Float64Array {
  const table = new Float64Array(phases * taps);
  for (let p = 0; p < phases; p++) fillKernel(table, p * taps, taps, p / phases, halfWidth, cutoff);
  return table;
}

/**
 * Weights (written to `into` from `at`) for an output point `fraction` of the way from input sample
 * `base` to `base + 1`, over the taps base - halfWidth + 1 … base + halfWidth. Normalised to sum to 1 so a constant signal stays
 * exactly constant (no DC ripple between phases).
 */
function fillKernel(into: Float64Array, at: number, taps: number, fraction: number, halfWidth: number, cutoff: number): void {
  let sum = 0;
  for (let t = 0; t < taps; t++) {
    const x = t - halfWidth + 1 - fraction; // distance from the output point, in input samples
    const w = Math.abs(x) >= halfWidth ? 0 : cutoff * sinc(cutoff * x) * blackman(x / halfWidth);
    into[at + t] = w;
    sum += w;
  }
  for (let t = 0; t < taps; t++) into[at + t] = into[at + t]! / sum;
}

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

/** Blackman window over [-1, 1]. */
function blackman(u: number): number {
  return 0.42 + 0.5 * Math.cos(Math.PI * u) + 0.08 * Math.cos(2 * Math.PI * u);
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
