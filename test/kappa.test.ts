import { describe, expect, it } from "vitest";
import { cohensKappa } from "../src/core/stats/kappa";

describe("Cohen's kappa with the Fleiss–Cohen–Everitt interval", () => {
  it("matches a hand-worked 2×2 table", () => {
    // Judge rows, people columns, n = 10: both passed 6, judge passed/people failed 1, judge failed/people passed 1, both failed 2.
    // p_o = (6 + 2)/10 = 0.8. Margins: judge 0.7/0.3, people 0.7/0.3, so p_e = 0.7·0.7 + 0.3·0.3 = 0.58.
    // κ = (0.8 − 0.58)/(1 − 0.58) = 0.22/0.42 = 0.5238095.
    // FCE 1969: A = 0.6·[1 − 1.4·0.4761905]² + 0.2·[1 − 0.6·0.4761905]² = 0.6·0.3333333² + 0.2·0.7142857² = 0.1687075
    //           B = 0.4761905²·(0.1·(0.7 + 0.3)² + 0.1·(0.3 + 0.7)²) = 0.2267574·0.2 = 0.0453515
    //           C = [0.5238095 − 0.58·0.4761905]² = 0.2476190² = 0.0613152
    // Var = (A + B − C)/(10·0.42²) = 0.1527438/1.764 = 0.0865894; SE = 0.2942608.
    // 95% CI: 0.5238095 ∓ 1.959964·0.2942608 = [−0.0529311, 1.1005502], clipped above to 1.
    const k = cohensKappa({ pp: 6, pf: 1, fp: 1, ff: 2 });
    expect(k.n).toBe(10);
    expect(k.agreement).toBeCloseTo(0.8, 12);
    expect(k.chance).toBeCloseTo(0.58, 12);
    expect(k.kappa).toBeCloseTo(0.5238095, 6);
    expect(k.se).toBeCloseTo(0.2942608, 6);
    expect(k.ci95![0]).toBeCloseTo(-0.0529311, 6);
    expect(k.ci95![1]).toBe(1);
  });

  it("gives the interval widths docs/review.md quotes at kappa 0.6 (balanced margins, 80% agreement)", () => {
    // p_ii = 0.4, p_ij = 0.1, margins 0.5: p_e = 0.5, κ = 0.6. A = 2·0.4·(1 − 0.4)² = 0.288, B = 0.16·0.2·1 = 0.032,
    // C = (0.6 − 0.2)² = 0.16; Var = 0.16/(n·0.25) = 0.64/n, SE = 0.8/√n.
    const width = (n: number) => {
      const k = cohensKappa({ pp: 0.4 * n, pf: 0.1 * n, fp: 0.1 * n, ff: 0.4 * n });
      expect(k.kappa).toBeCloseTo(0.6, 12);
      expect(k.se).toBeCloseTo(0.8 / Math.sqrt(n), 12);
      return k.ci95!;
    };
    expect(width(20)[0]).toBeCloseTo(0.2494, 4);
    expect(width(20)[1]).toBeCloseTo(0.9506, 4);
    expect(width(50)[0]).toBeCloseTo(0.3783, 4);
    expect(width(50)[1]).toBeCloseTo(0.8217, 4);
    expect(width(100)[0]).toBeCloseTo(0.4432, 4);
    expect(width(100)[1]).toBeCloseTo(0.7568, 4);
  });

  it("is undefined (null, never NaN) without pairs or when both raters gave one and the same class", () => {
    expect(cohensKappa({ pp: 0, pf: 0, fp: 0, ff: 0 })).toEqual({ n: 0, agreement: null, chance: null, kappa: null, se: null, ci95: null });
    expect(cohensKappa({ pp: 7, pf: 0, fp: 0, ff: 0 })).toEqual({ n: 7, agreement: 1, chance: 1, kappa: null, se: null, ci95: null });
    expect(cohensKappa({ pp: 0, pf: 0, fp: 0, ff: 3 })).toMatchObject({ agreement: 1, kappa: null, ci95: null });
  });

  it("is 0 when one rater gives a single class and the other varies, and 1 with a zero-width interval when they always agree", () => {
    // The judge passes all 4; people pass 3: p_o = 0.75 = p_e, so κ = 0.
    expect(cohensKappa({ pp: 3, pf: 1, fp: 0, ff: 0 }).kappa).toBeCloseTo(0, 12);
    const perfect = cohensKappa({ pp: 3, pf: 0, fp: 0, ff: 2 });
    expect(perfect.kappa).toBe(1);
    expect(perfect.ci95).toEqual([1, 1]);
    // Always disagreeing with balanced margins: p_o = 0, p_e = 0.5, κ = −1.
    expect(cohensKappa({ pp: 0, pf: 2, fp: 2, ff: 0 }).kappa).toBe(-1);
  });
});
