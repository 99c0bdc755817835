import { describe, expect, it } from "vitest";
import { clipMerged } from "../src/core/timeline/intervals";
import {
  intersectIntervals,
  maxEpisode,
  mergeIntervals,
  subtractIntervals,
  TimelineInputError,
  totalLength,
  unionIntervals,
} from "../src/core/timeline";

const iv = (start_ms: number, end_ms: number) => ({ start_ms, end_ms });

describe("mergeIntervals", () => {
  it("merges touching and overlapping intervals but keeps a 1 ms gap apart", () => {
    // [0,10) touches [10,20) → [0,20); [15,25) overlaps → [0,25); [26,30) is 1 ms away → separate.
    expect(mergeIntervals([iv(26, 30), iv(10, 20), iv(0, 10), iv(15, 25)])).toEqual([iv(0, 25), iv(26, 30)]);
  });

  it("drops empty intervals and does not let them bridge a gap", () => {
    // [8,8) is empty: it carries no time, so only [0,5) and [12,20) remain.
    expect(mergeIntervals([iv(0, 5), iv(8, 8), iv(12, 20)])).toEqual([iv(0, 5), iv(12, 20)]);
  });

  it("keeps a contained interval inside its container", () => {
    expect(mergeIntervals([iv(0, 100), iv(20, 30)])).toEqual([iv(0, 100)]);
  });

  it("rejects an inverted interval with a typed error naming it", () => {
    expect(() => mergeIntervals([iv(0, 5), iv(9, 3)], "assistantVoiced")).toThrow(TimelineInputError);
    expect(() => mergeIntervals([iv(0, 5), iv(9, 3)], "assistantVoiced")).toThrow(/assistantVoiced\[1\]/);
  });
});

describe("union, subtract, intersect, length, episode", () => {
  it("unions several lists", () => {
    expect(unionIntervals([iv(0, 10)], [iv(10, 12), iv(30, 40)], [])).toEqual([iv(0, 12), iv(30, 40)]);
  });

  it("subtracts the union of B from the union of A", () => {
    // A = [0,10) ∪ [20,30); B = [5,25) → [0,5) ∪ [25,30).
    expect(subtractIntervals([iv(0, 10), iv(20, 30)], [iv(5, 25)])).toEqual([iv(0, 5), iv(25, 30)]);
    // B touching A's edges removes nothing: [0,10) − ([−5,0) ∪ [10,15)) = [0,10).
    expect(subtractIntervals([iv(0, 10)], [iv(-5, 0), iv(10, 15)])).toEqual([iv(0, 10)]);
    // Several holes in one interval: [0,100) − ([10,20) ∪ [30,40)) = [0,10) ∪ [20,30) ∪ [40,100).
    expect(subtractIntervals([iv(0, 100)], [iv(30, 40), iv(10, 20)])).toEqual([iv(0, 10), iv(20, 30), iv(40, 100)]);
    // B covers A entirely → nothing left; B empty → A merged.
    expect(subtractIntervals([iv(0, 10)], [iv(0, 10)])).toEqual([]);
    expect(subtractIntervals([iv(5, 10), iv(0, 5)], [])).toEqual([iv(0, 10)]);
  });

  it("intersects two lists", () => {
    // [0,10) ∪ [20,30) with [5,25) → [5,10) ∪ [20,25).
    expect(intersectIntervals([iv(0, 10), iv(20, 30)], [iv(5, 25)])).toEqual([iv(5, 10), iv(20, 25)]);
    expect(intersectIntervals([iv(0, 10)], [iv(10, 20)])).toEqual([]);
  });

  it("clips merged intervals to a window", () => {
    // [0,10) ∪ [20,30) ∪ [40,50) within [5,45) → [5,10) ∪ [20,30) ∪ [40,45); a window in a gap → nothing.
    const merged = [iv(0, 10), iv(20, 30), iv(40, 50)];
    expect(clipMerged(merged, iv(5, 45))).toEqual([iv(5, 10), iv(20, 30), iv(40, 45)]);
    expect(clipMerged(merged, iv(10, 20))).toEqual([]);
  });

  it("counts overlapping time once and finds the longest episode", () => {
    // [0,10) ∪ [5,15) = [0,15) → 15; plus [20,22) → 17 in total; longest episode 15.
    expect(totalLength([iv(0, 10), iv(5, 15), iv(20, 22)])).toBe(17);
    expect(maxEpisode([iv(0, 10), iv(5, 15), iv(20, 22)])).toBe(15);
    // Touching pieces are one episode: [0,4) + [4,9) = 9.
    expect(maxEpisode([iv(0, 4), iv(4, 9), iv(20, 27)])).toBe(9);
    expect(totalLength([])).toBe(0);
    expect(maxEpisode([])).toBe(0);
  });
});

describe("interval input errors say which interval and what is wrong", () => {
  it("a bound that is not a finite number", () => {
    expect(() => mergeIntervals([iv(0, Infinity)])).toThrow("intervals[0]: interval bounds must be finite numbers, got [0, Infinity)");
    expect(() => mergeIntervals([iv(0, 5), iv(Number.NaN, 10)], "callerVoiced")).toThrow("callerVoiced[1]: interval bounds must be finite numbers, got [NaN, 10)");
  });

  it("an interval that ends before it starts", () => {
    expect(() => mergeIntervals([iv(9, 3)])).toThrow("intervals[0]: interval ends before it starts: [9, 3); swap or fix the bounds");
  });

  it("names the side of a subtraction or intersection that is wrong", () => {
    expect(() => subtractIntervals([iv(5, 1)], [])).toThrow(/^a\[0\]: /);
    expect(() => subtractIntervals([], [iv(5, 1)])).toThrow(/^b\[0\]: /);
    expect(() => intersectIntervals([iv(5, 1)], [])).toThrow(/^a\[0\]: /);
    expect(() => intersectIntervals([], [iv(5, 1)])).toThrow(/^b\[0\]: /);
  });
});

describe("intersections and clipping, worked examples", () => {
  it("one long interval overlapping two short ones gives both overlaps", () => {
    // Caller [0,10) against assistant [2,4) and [6,8): both overlaps count.
    expect(intersectIntervals([iv(0, 10)], [iv(2, 4), iv(6, 8)])).toEqual([iv(2, 4), iv(6, 8)]);
    expect(intersectIntervals([iv(2, 4), iv(6, 8)], [iv(0, 10)])).toEqual([iv(2, 4), iv(6, 8)]);
  });

  it("a window with no width holds no audio", () => {
    expect(clipMerged([iv(0, 10)], iv(5, 5))).toEqual([]);
  });
});
