/**
 * Fisher's exact test for a 2×2 table — the right test for pass counts of a few repetitions, where a
 * normal approximation would be wrong. Two-sided: the probability, under the hypergeometric law of equal
 * rates, of every table with the same margins at most as likely as the one observed.
 */
const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials[i] = logFactorials[i - 1]! + Math.log(i);
  return logFactorials[n]!;
}

/** P(table) for a = passes in group 1 given margins (row1 = a + b, row2 = c + d, col1 = a + c). */
function logHypergeometric(a: number, row1: number, row2: number, col1: number): number {
  const n = row1 + row2;
  const b = row1 - a;
  const c = col1 - a;
  const d = row2 - c;
  return logFactorial(row1) + logFactorial(row2) + logFactorial(col1) + logFactorial(n - col1) - logFactorial(n) - logFactorial(a) - logFactorial(b) - logFactorial(c) - logFactorial(d);
}

/**
 * Two-sided p-value of [[passA, failA], [passB, failB]]. 1 when a group is empty or every trial had the
 * same outcome (nothing to tell apart).
 */
export function fisherExact(passA: number, failA: number, passB: number, failB: number): number {
  const row1 = passA + failA;
  const row2 = passB + failB;
  const col1 = passA + passB;
  if (row1 === 0 || row2 === 0) return 1;
  const observed = logHypergeometric(passA, row1, row2, col1);
  let p = 0;
  for (let a = Math.max(0, col1 - row2); a <= Math.min(row1, col1); a++) {
    const lp = logHypergeometric(a, row1, row2, col1);
    // Tables as likely as the observed one count too (relative tolerance for rounding).
    if (lp <= observed + 1e-7) p += Math.exp(lp);
  }
  return Math.min(1, p);
}
