/**
 * The resampler as it was before the polyphase rewrite (one kernel table per call, bounds checked per
 * tap), kept verbatim as the oracle that test/audio-resample-polyphase.test.ts compares against.
 */
import { clipInt16 } from "../src/core/audio/pcm";

/** Zero crossings of the sinc on each side of the centre; 16 keeps the passband flat across speech. */
const ZERO_CROSSINGS = 16;
/** Cutoff as a fraction of the lower Nyquist, leaving room for the window's transition band. */
const ROLLOFF = 0.95;
/** Above this many distinct phases a precomputed table costs more than computing each kernel. */
const MAX_TABLE_PHASES = 4096;

export function referenceResamplePcm16(samples: Int16Array, fromRate: number, toRate: number): Int16Array {
  for (const [name, rate] of [["fromRate", fromRate], ["toRate", toRate]] as const) {
    if (!Number.isInteger(rate) || rate <= 0) throw new RangeError(`${name} must be a positive integer, got ${rate}`);
  }
  if (fromRate === toRate) return samples.slice();
  const outLength = Math.round((samples.length * toRate) / fromRate);
  const out = new Int16Array(outLength);
  if (samples.length === 0) return out;

  // Output sample j sits at input position j × from / to = (j × down) / up, in lowest terms.
  const divisor = gcd(fromRate, toRate);
  const up = toRate / divisor;
  const down = fromRate / divisor;
  const cutoff = ROLLOFF * Math.min(1, toRate / fromRate);
  const halfWidth = Math.ceil(ZERO_CROSSINGS / cutoff); // in input samples
  const taps = 2 * halfWidth;
  const table = up <= MAX_TABLE_PHASES ? kernelTable(up, taps, halfWidth, cutoff) : undefined;
  const kernel = new Float64Array(taps);

  for (let j = 0; j < outLength; j++) {
    const position = j * down;
    const base = Math.floor(position / up);
    const phase = position - base * up;
    let weights: Float64Array = kernel;
    let offset = 0; // start of this phase's weights in `weights`
    if (table) {
      weights = table;
      offset = phase * taps;
    } else {
      fillKernel(kernel, 0, taps, phase / up, halfWidth, cutoff);
    }
    // Tap t reads input sample base - halfWidth + 1 + t; samples outside the input are silence.
    const first = base - halfWidth + 1;
    const tStart = Math.max(0, -first);
    const tEnd = Math.min(taps, samples.length - first);
    let acc = 0;
    for (let t = tStart; t < tEnd; t++) acc += samples[first + t]! * weights[offset + t]!;
    out[j] = clipInt16(acc);
  }
  return out;
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
