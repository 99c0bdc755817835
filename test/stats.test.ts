import { describe, expect, it } from "vitest";
import { choose, passHatK, percentile, wilsonInterval } from "../src/core/stats/rates";

describe("statistics", () => {
  it("Wilson interval matches worked values", () => {
    // 5/5: centre = (1 + 3.8415/10) / (1 + 3.8415/5) = 1.38415/1.76829 = 0.78276; half = 1.96*sqrt(0 + 3.8415/100)/1.76829 = 0.21724
    const all = wilsonInterval(5, 5)!;
    expect(all.low).toBeCloseTo(0.5655, 3);
    expect(all.high).toBeCloseTo(1, 6);
    // 0/5 mirrors it.
    const none = wilsonInterval(0, 5)!;
    expect(none.low).toBeCloseTo(0, 6);
    expect(none.high).toBeCloseTo(0.4345, 3);
    // 3/5 is symmetric around the Wilson centre 0.5655…: [0.2307, 0.8824]
    const some = wilsonInterval(3, 5)!;
    expect(some.low).toBeCloseTo(0.2307, 3);
    expect(some.high).toBeCloseTo(0.8824, 3);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it("pass^k = C(c,k)/C(n,k), undefined when n < k", () => {
    expect(choose(5, 2)).toBe(10);
    expect(passHatK(5, 5, 5)).toBe(1);
    expect(passHatK(4, 5, 1)).toBeCloseTo(0.8, 12);
    expect(passHatK(4, 5, 2)).toBeCloseTo(6 / 10, 12);
    expect(passHatK(4, 5, 5)).toBe(0);
    expect(passHatK(3, 3, 5)).toBeNull();
  });

  it("C(n, k) is 1 for k = 0 and 0 outside 0..n; pass^0 is undefined", () => {
    expect(choose(5, 0)).toBe(1);
    expect(choose(5, 5)).toBe(1);
    expect(choose(5, -1)).toBe(0);
    expect(choose(5, 6)).toBe(0);
    expect(passHatK(5, 5, 0)).toBeNull();
  });

  it("percentiles interpolate between ranks", () => {
    expect(percentile([10, 20, 30, 40], 0.5)).toBe(25);
    expect(percentile([10, 20, 30, 40, 50], 0.9)).toBe(46);
    expect(percentile([], 0.5)).toBeNull();
  });

  it("percentiles sort the values first: durations arrive in trial order", () => {
    // Sorted: 100, 200, 300, 900 → p50 = 250, p90 = 300 + 0.7 × 600 = 720.
    expect(percentile([900, 100, 300, 200], 0.5)).toBe(250);
    expect(percentile([900, 100, 300, 200], 0.9)).toBeCloseTo(720, 9);
    // Numeric order, not text order: 9 < 10 < 100.
    expect(percentile([100, 9, 10], 0.5)).toBe(10);
  });
});
