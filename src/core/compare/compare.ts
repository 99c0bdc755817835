/**
 * Is the candidate worse than the baseline? Two runs' trials aligned by case: per case and overall, the
 * pass-rate change of the trial status and of every required verifier, each with Fisher's exact test
 * (pass counts of a few repetitions are small), and the P50/P90 changes of response latency (over every
 * answered request, late answers included, when both runs measured it) and duration, and of what the
 * target consumed. Pure: rows in, comparison out.
 */
import { fisherExact } from "../stats/fisher";
import { percentile } from "../stats/rates";

/** What the comparison reads of a trial (a results.json row, reduced while it is read). */
export interface CompareTrial {
  trial_id: string;
  case_id: string;
  status: string;
  /** Verifier id → whether it passed (passed or not applicable count as passed, as the gates count them). */
  verdicts: Record<string, boolean>;
  /** The measured latency of every answered request, late ones included; null: not measured (no audio, or an older results.json). */
  response_latencies_ms: number[] | null;
  duration_ms: number;
  audio_ms: number | null;
  backend_tokens: number | null;
}

export interface CompareRun {
  run_id: string;
  target: string;
  seed: number;
  /** Required verifiers of the run's gates. */
  required: string[];
  trials: CompareTrial[];
}

export interface RateChange {
  base: { passes: number; trials: number; rate: number | null };
  head: { passes: number; trials: number; rate: number | null };
  change: number | null;
  /** Two-sided Fisher's exact test of the two pass counts. */
  p_value: number;
  verdict: "regression" | "improvement" | "no significant change";
}

export interface Percentiles {
  base: { p50: number | null; p90: number | null };
  head: { p50: number | null; p90: number | null };
  /** head ÷ base − 1 of the P90 (null when either is missing or the base is 0). */
  p90_change: number | null;
}

/** Response latency over every answered request of a run's trials. */
export interface LatencyChange extends Percentiles {
  /** Answered requests measured per run; null when that run measured no latency at all (then nothing is compared). */
  requests: { base: number | null; head: number | null };
  /** Whether both runs measured latency: only then is there a change to report. */
  measured: boolean;
}

export interface CaseComparison {
  case_id: string;
  status: RateChange;
  verifiers: Record<string, RateChange>;
  latency_ms: LatencyChange;
  duration_ms: Percentiles;
}

export interface Comparison {
  base: { run_id: string; target: string; seed: number; trials: number };
  head: { run_id: string; target: string; seed: number; trials: number };
  alpha: number;
  /** Cases in one run only: reported, not compared. */
  only_in_base: string[];
  only_in_head: string[];
  overall: Omit<CaseComparison, "case_id"> & { consumption: { audio_seconds: { base: number | null; head: number | null }; backend_tokens_per_trial: { base: number | null; head: number | null } } };
  cases: CaseComparison[];
  /** Significant drops: the trial status or a required verifier, per case or overall. */
  regressions: string[];
  /** Of the regressions, those of a required verifier: what `--fail-on-regression` fails on. */
  required_regressions: string[];
  improvements: string[];
}

const round = (x: number | null, digits: number) => (x === null ? null : Number(x.toFixed(digits)));

function rate(base: readonly boolean[], head: readonly boolean[], alpha: number): RateChange {
  const bp = base.filter(Boolean).length;
  const hp = head.filter(Boolean).length;
  const br = base.length ? bp / base.length : null;
  const hr = head.length ? hp / head.length : null;
  const p = fisherExact(bp, base.length - bp, hp, head.length - hp);
  const change = br !== null && hr !== null ? hr - br : null;
  return {
    base: { passes: bp, trials: base.length, rate: round(br, 4) },
    head: { passes: hp, trials: head.length, rate: round(hr, 4) },
    change: round(change, 4),
    // Four significant digits: a p-value far below alpha stays distinguishable from zero.
    p_value: Number(p.toPrecision(4)),
    verdict: p < alpha && change !== null && change !== 0 ? (change < 0 ? "regression" : "improvement") : "no significant change",
  };
}

function percentiles(base: readonly (number | null)[], head: readonly (number | null)[]): Percentiles {
  const nums = (xs: readonly (number | null)[]) => xs.filter((x): x is number => typeof x === "number");
  const b = { p50: round(percentile(nums(base), 0.5), 1), p90: round(percentile(nums(base), 0.9), 1) };
  const h = { p50: round(percentile(nums(head), 0.5), 1), p90: round(percentile(nums(head), 0.9), 1) };
  return { base: b, head: h, p90_change: b.p90 !== null && h.p90 !== null && b.p90 > 0 ? round(h.p90 / b.p90 - 1, 4) : null };
}

/**
 * Latency pooled over requests, not trial means: a conversation's one slow answer among ten stays visible.
 * A run measured latency when any of its trials did (an unanswered trial measures an empty list).
 */
function latencyChange(base: readonly CompareTrial[], head: readonly CompareTrial[]): LatencyChange {
  const pooled = (trials: readonly CompareTrial[]) => (trials.some((t) => t.response_latencies_ms !== null) ? trials.flatMap((t) => t.response_latencies_ms ?? []) : null);
  const b = pooled(base);
  const h = pooled(head);
  return { ...percentiles(b ?? [], h ?? []), requests: { base: b?.length ?? null, head: h?.length ?? null }, measured: b !== null && h !== null };
}

function compareGroup(base: readonly CompareTrial[], head: readonly CompareTrial[], verifiers: readonly string[], alpha: number): Omit<CaseComparison, "case_id"> {
  return {
    status: rate(
      base.map((t) => t.status === "passed"),
      head.map((t) => t.status === "passed"),
      alpha,
    ),
    verifiers: Object.fromEntries(verifiers.map((v) => [v, rate(base.map((t) => t.verdicts[v] === true), head.map((t) => t.verdicts[v] === true), alpha)])),
    latency_ms: latencyChange(base, head),
    duration_ms: percentiles(base.map((t) => t.duration_ms), head.map((t) => t.duration_ms)),
  };
}

export function compareRuns(base: CompareRun, head: CompareRun, alpha = 0.05): Comparison {
  const byCase = (run: CompareRun) => {
    const m = new Map<string, CompareTrial[]>();
    for (const t of run.trials) (m.get(t.case_id) ?? m.set(t.case_id, []).get(t.case_id)!).push(t);
    return m;
  };
  const b = byCase(base);
  const h = byCase(head);
  const shared = [...b.keys()].filter((c) => h.has(c));
  const verifiers = [...new Set([...base.required, ...head.required])].sort();
  const cases = shared.map((case_id) => ({ case_id, ...compareGroup(b.get(case_id)!, h.get(case_id)!, verifiers, alpha) }));
  const inShared = (run: CompareRun) => run.trials.filter((t) => h.has(t.case_id) && b.has(t.case_id));
  const overallGroup = compareGroup(inShared(base), inShared(head), verifiers, alpha);
  const sum = (xs: readonly (number | null)[]) => (xs.some((x) => typeof x === "number") ? xs.reduce<number>((s, x) => s + (x ?? 0), 0) : null);
  const mean = (xs: readonly (number | null)[]) => {
    const n = xs.filter((x) => typeof x === "number");
    return n.length ? (n as number[]).reduce((s, x) => s + x, 0) / n.length : null;
  };
  const regressions: string[] = [];
  const required_regressions: string[] = [];
  const improvements: string[] = [];
  const note = (where: string, r: RateChange, what: string) => {
    const line = `${where}: ${what} ${r.base.passes}/${r.base.trials} → ${r.head.passes}/${r.head.trials} (p = ${r.p_value})`;
    if (r.verdict === "regression") regressions.push(line);
    if (r.verdict === "regression" && what !== "passed trials") required_regressions.push(line);
    if (r.verdict === "improvement") improvements.push(line);
  };
  for (const c of [{ case_id: "overall", ...overallGroup }, ...cases]) {
    note(c.case_id, c.status, "passed trials");
    for (const [v, r] of Object.entries(c.verifiers)) note(c.case_id, r, v);
  }
  return {
    base: { run_id: base.run_id, target: base.target, seed: base.seed, trials: base.trials.length },
    head: { run_id: head.run_id, target: head.target, seed: head.seed, trials: head.trials.length },
    alpha,
    only_in_base: [...b.keys()].filter((c) => !h.has(c)),
    only_in_head: [...h.keys()].filter((c) => !b.has(c)),
    overall: {
      ...overallGroup,
      consumption: {
        audio_seconds: { base: round(sum(inShared(base).map((t) => t.audio_ms)), 0) === null ? null : round(sum(inShared(base).map((t) => t.audio_ms))! / 1000, 1), head: sum(inShared(head).map((t) => t.audio_ms)) === null ? null : round(sum(inShared(head).map((t) => t.audio_ms))! / 1000, 1) },
        backend_tokens_per_trial: { base: round(mean(inShared(base).map((t) => t.backend_tokens)), 1), head: round(mean(inShared(head).map((t) => t.backend_tokens)), 1) },
      },
    },
    cases,
    regressions,
    required_regressions,
    improvements,
  };
}

/**
 * The latency change with its own numbers (P50 and P90 base → head, the P90 change, how many answers
 * each run measured), or "not measured" naming the run that did not measure it.
 */
export function latencyText(l: LatencyChange): string {
  const ms = (x: number | null) => (x === null ? "—" : `${Math.round(x)}`);
  if (!l.measured) return l.requests.base === null && l.requests.head === null ? "not measured" : `not measured in ${l.requests.base === null ? "base" : "head"}`;
  const change = l.p90_change === null ? "—" : `${l.p90_change > 0 ? "+" : ""}${(l.p90_change * 100).toFixed(1)}%`;
  return `P50 ${ms(l.base.p50)} → ${ms(l.head.p50)}, P90 ${ms(l.base.p90)} → ${ms(l.head.p90)} (${change}; ${l.requests.base} → ${l.requests.head} answers)`;
}
