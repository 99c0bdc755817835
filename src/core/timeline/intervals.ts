/** Spans on the trial timeline and their arithmetic: merge, union, subtract, intersect. */

import { TimelineInputError } from "./errors";

/** A span on the trial timeline, in ms since the trial started; `end_ms` is exclusive. */
export interface Interval {
  start_ms: number;
  end_ms: number;
}

function checkInterval(interval: Interval, field: string, index: number): void {
  const { start_ms, end_ms } = interval;
  if (!Number.isFinite(start_ms) || !Number.isFinite(end_ms)) {
    throw new TimelineInputError(`${field}[${index}]`, `interval bounds must be finite numbers, got [${start_ms}, ${end_ms})`);
  }
  if (end_ms < start_ms) {
    throw new TimelineInputError(`${field}[${index}]`, `interval ends before it starts: [${start_ms}, ${end_ms}); swap or fix the bounds`);
  }
}

/**
 * Sorted, disjoint intervals. Two intervals merge only when they overlap or touch (docs/audio-and-metrics.md): [0,10) and
 * [10,20) become [0,20), while [0,10) and [11,20) stay apart. Empty intervals carry no time and
 * are dropped.
 */
export function mergeIntervals(intervals: readonly Interval[], field = "intervals"): Interval[] {
  intervals.forEach((interval, i) => checkInterval(interval, field, i));
  const sorted = intervals
    .filter((interval) => interval.end_ms > interval.start_ms)
    .map((interval) => ({ start_ms: interval.start_ms, end_ms: interval.end_ms }))
    .sort((a, b) => a.start_ms - b.start_ms);
  const merged: Interval[] = [];
  for (const next of sorted) {
    const last = merged[merged.length - 1];
    if (last && next.start_ms <= last.end_ms) last.end_ms = Math.max(last.end_ms, next.end_ms);
    else merged.push(next);
  }
  return merged;
}

/** The union of any number of interval lists, merged. */
export function unionIntervals(...lists: readonly (readonly Interval[])[]): Interval[] {
  return mergeIntervals(lists.flat());
}

/** Union of `a` minus union of `b`: the time covered by `a` and not by `b`. */
export function subtractIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const from = mergeIntervals(a, "a");
  const cut = mergeIntervals(b, "b");
  const result: Interval[] = [];
  let j = 0;
  for (const interval of from) {
    let cursor = interval.start_ms;
    // Skip cuts that end before this interval; they cannot matter for later intervals either.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only, the loop below passes over spent cuts without effect
    while (j < cut.length && cut[j]!.end_ms <= cursor) j++;
    let k = j;
    // Stryker disable next-line EqualityOperator: equivalent, a cut starting at the interval's end leaves the same remainder either way
    while (k < cut.length && cut[k]!.start_ms < interval.end_ms) {
      const c = cut[k]!;
      if (c.start_ms > cursor) result.push({ start_ms: cursor, end_ms: c.start_ms });
      cursor = Math.max(cursor, c.end_ms);
      k++;
    }
    if (cursor < interval.end_ms) result.push({ start_ms: cursor, end_ms: interval.end_ms });
  }
  return result;
}

/** Intersection of two interval lists (each merged first). */
export function intersectIntervals(a: readonly Interval[], b: readonly Interval[]): Interval[] {
  const x = mergeIntervals(a, "a");
  const y = mergeIntervals(b, "b");
  const result: Interval[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const start = Math.max(x[i]!.start_ms, y[j]!.start_ms);
    const end = Math.min(x[i]!.end_ms, y[j]!.end_ms);
    if (end > start) result.push({ start_ms: start, end_ms: end });
    // Stryker disable next-line EqualityOperator: equivalent, on equal ends the other list's next interval starts at or after both
    if (x[i]!.end_ms < y[j]!.end_ms) i++;
    else j++;
  }
  return result;
}

/**
 * The parts of already merged intervals (sorted, disjoint, as `mergeIntervals` returns them) that
 * fall inside `window`. Binary search keeps per-window clipping cheap on long timelines.
 */
export function clipMerged(merged: readonly Interval[], window: Interval): Interval[] {
  let lo = 0;
  let hi = merged.length;
  // The search only saves time: the scan below drops whatever lies outside the window by itself.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only, see above
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only, see above
    if (merged[mid]!.end_ms <= window.start_ms) lo = mid + 1;
    else hi = mid;
  }
  const result: Interval[] = [];
  // Stryker disable next-line ConditionalExpression,EqualityOperator: speed only, an interval past the window clips to nothing
  for (let i = lo; i < merged.length && merged[i]!.start_ms < window.end_ms; i++) {
    const start = Math.max(merged[i]!.start_ms, window.start_ms);
    const end = Math.min(merged[i]!.end_ms, window.end_ms);
    if (end > start) result.push({ start_ms: start, end_ms: end });
  }
  return result;
}

/** Total time covered, counting overlaps once. */
export function totalLength(intervals: readonly Interval[]): number {
  return mergeIntervals(intervals).reduce((sum, interval) => sum + (interval.end_ms - interval.start_ms), 0);
}

/** The longest uninterrupted covered span (after merging); 0 when nothing is covered. */
export function maxEpisode(intervals: readonly Interval[]): number {
  return mergeIntervals(intervals).reduce((max, interval) => Math.max(max, interval.end_ms - interval.start_ms), 0);
}
