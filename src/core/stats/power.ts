/**
 * The power of Fisher's exact test to see a pass-rate drop, and the repetitions that reach a given power
 * (docs/compare.md): the probability, over every pair of pass counts two runs of n_base and n_head
 * trials can give, that the test calls the drop significant — binomial weights, the test's own
 * rejection region, nothing approximated.
 */
import { fisherExact } from "./fisher";

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** Binomial probabilities of 0..n passes at rate p. */
function binomial(n: number, p: number): number[] {
  if (p <= 0) return Array.from({ length: n + 1 }, (_, k) => (k === 0 ? 1 : 0));
  if (p >= 1) return Array.from({ length: n + 1 }, (_, k) => (k === n ? 1 : 0));
  return Array.from({ length: n + 1 }, (_, k) => Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log(1 - p)));
}

/** Pass counts this unlikely are left out of the sum: they cannot move the power's third decimal. */
const NEGLIGIBLE = 1e-9;

/**
 * The probability that two runs, base at rate `pBase` over `nBase` trials and head at `pHead` over
 * `nHead`, give counts where the head is lower and Fisher's two-sided p-value is below `alpha`.
 */
export function fisherPower(nBase: number, nHead: number, pBase: number, pHead: number, alpha: number): number {
  if (nBase < 1 || nHead < 1) return 0;
  const wb = binomial(nBase, pBase);
  const wh = binomial(nHead, pHead);
  let power = 0;
  for (let xb = 0; xb <= nBase; xb++) {
    if (wb[xb]! < NEGLIGIBLE) continue;
    for (let xh = 0; xh <= nHead && xh * nBase < xb * nHead; xh++) {
      if (wh[xh]! < NEGLIGIBLE) continue;
      if (fisherExact(xb, nBase - xb, xh, nHead - xh) < alpha) power += wb[xb]! * wh[xh]!;
    }
  }
  return Math.min(1, power);
}

/** Most repetitions per run the search looks at; past it the answer is "more than" this. */
export const MAX_REPETITIONS = 100;

const needed = new Map<string, number | null>();

/**
 * The fewest repetitions per run (the same in both) at which the test sees a drop from `pBase` to
 * `pBase − drop` with at least `power`; null when even MAX_REPETITIONS do not. Exact tests' power is
 * saw-toothed in n, so this is the first n that reaches it, searched one by one.
 */
export function repetitionsNeeded(pBase: number, drop: number, alpha: number, power: number): number | null {
  const key = `${pBase}|${drop}|${alpha}|${power}`;
  if (needed.has(key)) return needed.get(key)!;
  const pHead = Math.max(0, pBase - drop);
  let found: number | null = null;
  if (pHead < pBase)
    for (let n = 2; n <= MAX_REPETITIONS; n++)
      if (fisherPower(n, n, pBase, pHead, alpha) >= power) {
        found = n;
        break;
      }
  needed.set(key, found);
  return found;
}
