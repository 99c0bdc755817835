/**
 * Is the candidate worse than the baseline? Two runs' trials aligned by case: per case and overall, the
 * pass-rate change of the trial status and of every required verifier, each answered `regression`, `no
 * regression detected` or `cannot tell` by Fisher's exact test and its power (docs/compare.md), and the
 * P50/P90 changes of response latency (over every answered request, late answers included, when both
 * runs measured it) and duration, and of what the target consumed; beside them what differs between the
 * two targets and the models their services reported. Pure: rows in, comparison out.
 */
import { fisherExact } from "../stats/fisher";
import { fisherPower, repetitionsNeeded } from "../stats/power";
import { percentile } from "../stats/rates";
import { compareProvenance, type ProvenanceComparison, type RunProvenance, type TrialProvenance } from "./provenance";

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
  /** What the trial's provenance says ran; null in records older than these fields. */
  provenance: TrialProvenance | null;
}

export interface CompareRun {
  run_id: string;
  target: string;
  seed: number;
  /** Required verifiers of the run's gates. */
  required: string[];
  trials: CompareTrial[];
  /** The run's package files and crashlab version, from its run.json and results.json. */
  provenance: RunProvenance;
}

/** What a comparison can say of one pass rate (docs/compare.md). */
export type Answer = "regression" | "no regression detected" | "cannot tell";

/** What a comparison is asked to see: the drop that matters, and how surely it must be seen. */
export interface Sensitivity {
  alpha: number;
  /** The pass-rate drop (0–1, from the base's rate) the comparison must be able to see. */
  drop: number;
  /** The probability with which it must see it. */
  power: number;
}

export const DEFAULT_SENSITIVITY: Sensitivity = { alpha: 0.05, drop: 0.5, power: 0.8 };

export interface RateChange {
  base: { passes: number; trials: number; rate: number | null };
  head: { passes: number; trials: number; rate: number | null };
  change: number | null;
  /** Two-sided Fisher's exact test of the two pass counts. */
  p_value: number;
  /**
   * `regression`: the head is lower and p < alpha. `no regression detected`: not significant, and at
   * these repetitions the test would have seen the drop that matters with at least the asked power.
   * `cannot tell`: not significant, and it would not have.
   */
  answer: Answer;
  /** The probability that these repetitions see a drop of `drop` from the base's rate; null when the base's rate cannot drop (0, or no trial). */
  power: number | null;
  /** Repetitions per run that would see that drop with the asked power; null when no drop is possible or more than 100 are needed (`needed_more_than` says which). */
  repetitions_needed: number | null;
  needed_more_than: number | null;
  /** The head is significantly higher. */
  improvement: boolean;
  /** Every base trial passed and every head trial failed: reported whatever the p-value. */
  flipped: boolean;
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
  sensitivity: Sensitivity;
  /** What differs between what ran in the two runs (package, target parts, models), and whether nothing did. */
  provenance: ProvenanceComparison;
  /** Cases in one run only: reported, not compared. */
  only_in_base: string[];
  only_in_head: string[];
  overall: Omit<CaseComparison, "case_id"> & { consumption: { audio_seconds: { base: number | null; head: number | null }; backend_tokens_per_trial: { base: number | null; head: number | null } } };
  cases: CaseComparison[];
  /** Significant drops: the trial status or a required verifier, per case or overall. */
  regressions: string[];
  /** Of the regressions, those of a required verifier: what `--fail-on-regression` fails on. */
  required_regressions: string[];
  /** Rates the repetitions are too few to judge, each with the repetitions that would do. */
  cannot_tell: string[];
  /** Of those, the required verifiers': what `--strict` fails on too. */
  required_cannot_tell: string[];
  /** Cases (or overall) that passed every base repetition and failed every head one, whatever the p-value. */
  flipped: string[];
  improvements: string[];
}

const round = (x: number | null, digits: number) => (x === null ? null : Number(x.toFixed(digits)));

function rate(base: readonly boolean[], head: readonly boolean[], s: Sensitivity): RateChange {
  const bp = base.filter(Boolean).length;
  const hp = head.filter(Boolean).length;
  const br = base.length ? bp / base.length : null;
  const hr = head.length ? hp / head.length : null;
  const p = fisherExact(bp, base.length - bp, hp, head.length - hp);
  const change = br !== null && hr !== null ? hr - br : null;
  const significant = p < s.alpha && change !== null && change !== 0;
  // A base that never passed cannot drop: nothing to miss. Otherwise: could these repetitions have seen the drop that matters?
  const canDrop = br !== null && br > 0 && head.length > 0;
  const power = canDrop ? fisherPower(base.length, head.length, br, Math.max(0, br - s.drop), s.alpha) : null;
  const needed = canDrop ? repetitionsNeeded(br, s.drop, s.alpha, s.power) : null;
  const answer: Answer = significant && change! < 0 ? "regression" : !canDrop && br !== null ? "no regression detected" : power !== null && power >= s.power ? "no regression detected" : "cannot tell";
  return {
    base: { passes: bp, trials: base.length, rate: round(br, 4) },
    head: { passes: hp, trials: head.length, rate: round(hr, 4) },
    change: round(change, 4),
    // Four significant digits: a p-value far below alpha stays distinguishable from zero.
    p_value: Number(p.toPrecision(4)),
    answer,
    power: power === null ? null : round(power, 3),
    repetitions_needed: needed,
    needed_more_than: canDrop && needed === null ? 100 : null,
    improvement: significant && change! > 0,
    flipped: base.length > 0 && head.length > 0 && bp === base.length && hp === 0,
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

function compareGroup(base: readonly CompareTrial[], head: readonly CompareTrial[], verifiers: readonly string[], alpha: Sensitivity): Omit<CaseComparison, "case_id"> {
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

export function compareRuns(base: CompareRun, head: CompareRun, sensitivity: Partial<Sensitivity> = {}): Comparison {
  const s: Sensitivity = { ...DEFAULT_SENSITIVITY, ...sensitivity };
  const byCase = (run: CompareRun) => {
    const m = new Map<string, CompareTrial[]>();
    for (const t of run.trials) (m.get(t.case_id) ?? m.set(t.case_id, []).get(t.case_id)!).push(t);
    return m;
  };
  const b = byCase(base);
  const h = byCase(head);
  const shared = [...b.keys()].filter((c) => h.has(c));
  const verifiers = [...new Set([...base.required, ...head.required])].sort();
  const cases = shared.map((case_id) => ({ case_id, ...compareGroup(b.get(case_id)!, h.get(case_id)!, verifiers, s) }));
  const inShared = (run: CompareRun) => run.trials.filter((t) => h.has(t.case_id) && b.has(t.case_id));
  const overallGroup = compareGroup(inShared(base), inShared(head), verifiers, s);
  const sum = (xs: readonly (number | null)[]) => (xs.some((x) => typeof x === "number") ? xs.reduce<number>((s, x) => s + (x ?? 0), 0) : null);
  const mean = (xs: readonly (number | null)[]) => {
    const n = xs.filter((x) => typeof x === "number");
    return n.length ? (n as number[]).reduce((s, x) => s + x, 0) / n.length : null;
  };
  const regressions: string[] = [];
  const required_regressions: string[] = [];
  const cannot_tell: string[] = [];
  const required_cannot_tell: string[] = [];
  const flipped: string[] = [];
  const improvements: string[] = [];
  const note = (where: string, r: RateChange, what: string) => {
    const line = `${where}: ${what} ${r.base.passes}/${r.base.trials} → ${r.head.passes}/${r.head.trials} (p = ${r.p_value})`;
    if (r.answer === "regression") regressions.push(line);
    if (r.answer === "regression" && what !== "passed trials") required_regressions.push(line);
    if (r.answer === "cannot tell") {
      const need = r.repetitions_needed !== null ? `${r.repetitions_needed} repetitions per run` : `more than ${r.needed_more_than} repetitions per run`;
      const told = `${line}: cannot tell — ${r.base.trials} → ${r.head.trials} repetitions see a ${Math.round(s.drop * 100)}-point drop with probability ${r.power}; ${need} would see it with ${s.power}`;
      cannot_tell.push(told);
      if (what !== "passed trials") required_cannot_tell.push(told);
    }
    if (r.flipped && !flipped.some((f) => f.startsWith(`${where}: `))) flipped.push(`${where}: passed ${r.base.passes}/${r.base.trials} in base, ${r.head.passes}/${r.head.trials} in head (${what})`);
    if (r.improvement) improvements.push(line);
  };
  for (const c of [{ case_id: "overall", ...overallGroup }, ...cases]) {
    note(c.case_id, c.status, "passed trials");
    for (const [v, r] of Object.entries(c.verifiers)) note(c.case_id, r, v);
  }
  return {
    base: { run_id: base.run_id, target: base.target, seed: base.seed, trials: base.trials.length },
    head: { run_id: head.run_id, target: head.target, seed: head.seed, trials: head.trials.length },
    alpha: s.alpha,
    sensitivity: s,
    provenance: compareProvenance(base, head),
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
    cannot_tell,
    required_cannot_tell,
    flipped,
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
