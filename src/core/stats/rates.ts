/** Reporting statistics, docs/gates.md. */

export interface Interval {
  low: number;
  high: number;
}

/** 95% Wilson score interval for `passes` out of `n` (null when n = 0). */
export function wilsonInterval(passes: number, n: number, z = 1.959963984540054): Interval | null {
  if (n === 0) return null;
  const p = passes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Binomial coefficient as a float (exact for the small n of repetitions). */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  // Stryker disable next-line MethodExpression,ArithmeticOperator: equivalent, C(n, k) = C(n, n − k) and the shorter loop is only quicker
  const steps = Math.min(k, n - k);
  for (let i = 1; i <= steps; i++) result = (result * (n - i + 1)) / i;
  return result;
}

/** pass^k = C(c, k) / C(n, k): the chance that k trials drawn without replacement all pass. Undefined (null) when n < k. */
export function passHatK(passes: number, n: number, k: number): number | null {
  if (n < k || k < 1) return null;
  return choose(passes, k) / choose(n, k);
}

/** Percentile by linear interpolation between closest ranks; null for no values. */
export function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}
