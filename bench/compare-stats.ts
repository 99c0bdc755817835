/**
 * The statistics of `pnpm bench compare`: a build's spread over its measured rounds (median, min–max,
 * interquartile range) and the ratio between two builds over paired rounds with a percentile-bootstrap
 * interval. Pure functions of the numbers, so they are tested on fixed vectors.
 */
import { percentile } from "../src/core/stats/rates";

export interface Spread {
  n: number;
  median: number;
  min: number;
  max: number;
  /** First and third quartiles (linear interpolation between closest ranks). */
  q1: number;
  q3: number;
}

export function spread(values: readonly number[]): Spread {
  if (values.length === 0) throw new Error("spread of no values");
  const v = [...values];
  return { n: v.length, median: percentile(v, 0.5)!, min: Math.min(...v), max: Math.max(...v), q1: percentile(v, 0.25)!, q3: percentile(v, 0.75)! };
}

/** mulberry32: a small seeded generator, so the same measurements always print the same interval. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface PairedRatio {
  /** previous_i ÷ current_i for each measured round, in round order. */
  per_round: number[];
  /** Median of the per-round ratios: above 1 means the current build took less. */
  median: number;
  /** Percentile-bootstrap interval of that median over the rounds (pairs resampled whole). */
  low: number;
  high: number;
  confidence: number;
  resamples: number;
}

export const BOOTSTRAP_RESAMPLES = 10_000;
const SEED = 0x5eed;

/**
 * The ratio previous ÷ current over paired rounds. Each round ran both builds back to back, so a round's
 * ratio cancels what the machine was doing at that moment; the bootstrap resamples rounds (never the two
 * builds' runs independently), takes each resample's median ratio, and reads the interval off the
 * percentiles of those medians. With few rounds the interval cannot reach past the smallest and largest
 * per-round ratio and is narrower than it should be: more rounds widen what it can show.
 */
export function pairedRatio(previous: readonly number[], current: readonly number[], confidence = 0.95, resamples = BOOTSTRAP_RESAMPLES): PairedRatio {
  if (previous.length !== current.length) throw new Error(`paired ratio needs as many previous as current values (${previous.length} against ${current.length})`);
  if (previous.length === 0) throw new Error("paired ratio of no rounds");
  const ratios = previous.map((p, i) => p / current[i]!);
  const random = seededRandom(SEED);
  const medians: number[] = [];
  const sample = new Array<number>(ratios.length);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < ratios.length; i++) sample[i] = ratios[Math.floor(random() * ratios.length)]!;
    medians.push(percentile(sample, 0.5)!);
  }
  const tail = (1 - confidence) / 2;
  return { per_round: ratios, median: percentile(ratios, 0.5)!, low: percentile(medians, tail)!, high: percentile(medians, 1 - tail)!, confidence, resamples };
}

/** What the interval says, in words (`ratio` is previous ÷ current). */
export function verdict(r: Pick<PairedRatio, "low" | "high">, measure: string): string {
  if (r.low > 1) return `the current build's ${measure} is lower: the whole interval is above 1`;
  if (r.high < 1) return `the current build's ${measure} is higher: the whole interval is below 1`;
  return `no difference shown in ${measure}: the interval includes 1`;
}
