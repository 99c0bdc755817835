/**
 * Cohen's kappa for two raters and two classes (the semantic judge and people, passed or failed), with
 * the large-sample standard error of Fleiss, Cohen & Everitt (1969) — the one that does not assume kappa
 * is 0 — and a 95% Wald interval, kappa ± 1.96 SE, clipped to [-1, 1].
 */

/** A 2×2 table of paired verdicts: rows the first rater (the judge), columns the second (people). */
export interface PairTable {
  /** Both passed. */
  pp: number;
  /** The judge passed, people failed. */
  pf: number;
  /** The judge failed, people passed. */
  fp: number;
  /** Both failed. */
  ff: number;
}

export interface KappaEstimate {
  n: number;
  /** Observed agreement p_o; null without pairs. */
  agreement: number | null;
  /** Chance agreement p_e from the two raters' margins; null without pairs. */
  chance: number | null;
  /** (p_o − p_e) / (1 − p_e); null without pairs or when p_e = 1 (both raters gave one class only). */
  kappa: number | null;
  se: number | null;
  ci95: [number, number] | null;
}

const Z95 = 1.959963984540054;

export function cohensKappa(t: PairTable): KappaEstimate {
  const n = t.pp + t.pf + t.fp + t.ff;
  if (n === 0) return { n, agreement: null, chance: null, kappa: null, se: null, ci95: null };
  const p = [
    [t.pp / n, t.pf / n],
    [t.fp / n, t.ff / n],
  ] as const;
  const row = [p[0][0] + p[0][1], p[1][0] + p[1][1]];
  const col = [p[0][0] + p[1][0], p[0][1] + p[1][1]];
  const po = p[0][0] + p[1][1];
  const pe = row[0]! * col[0]! + row[1]! * col[1]!;
  // Both raters used one and the same class: agreement is certain by chance, kappa is 0/0.
  if (1 - pe < 1e-12) return { n, agreement: po, chance: pe, kappa: null, se: null, ci95: null };
  const kappa = (po - pe) / (1 - pe);
  // Fleiss, Cohen & Everitt (1969), eq. 13: Var = [A + B − C] / (n (1 − p_e)²), with
  // A = Σ_i p_ii [1 − (p_i. + p_.i)(1 − κ)]², B = (1 − κ)² Σ_{i≠j} p_ij (p_.i + p_j.)², C = [κ − p_e (1 − κ)]².
  let a = 0;
  for (const i of [0, 1]) a += p[i]![i]! * (1 - (row[i]! + col[i]!) * (1 - kappa)) ** 2;
  const b = (1 - kappa) ** 2 * (p[0][1] * (col[0]! + row[1]!) ** 2 + p[1][0] * (col[1]! + row[0]!) ** 2);
  const c = (kappa - pe * (1 - kappa)) ** 2;
  // Rounding can leave a hair below 0 when the table is perfect.
  const se = Math.sqrt(Math.max(0, (a + b - c) / (n * (1 - pe) ** 2)));
  return { n, agreement: po, chance: pe, kappa, se, ci95: [Math.max(-1, kappa - Z95 * se), Math.min(1, kappa + Z95 * se)] };
}
