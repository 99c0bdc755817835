/**
 * Human gates: a gate on what people said about the trials rather than on a verifier's assessment. Its id is
 * `human.<dimension>` (how the assistant sounded: naturalness, prosody, pronunciation, pacing) or
 * `human.<semantic verifier>` (people's verdict on a judge's clause, `human.semantic.task_understanding`).
 * Reviews are sparse — a sample of trials, not every repetition of every case — so a human gate is decided
 * over the run's reviewed trials, not per case, and only once enough of them were reviewed. Until then it is
 * not assessed, which never passes.
 */
import { wilsonInterval } from "../stats/rates";

/** A gate rule as a human gate reads it (the same shape as gates.ts's GateRule, which imports this file). */
export interface HumanGateRule {
  required: boolean;
  min_pass_rate: number;
  wilson: boolean;
  min_reviewed?: number;
  min_reviewed_share?: number;
}

/** A human gate's result: a gate result (gates.ts) with no cases and its `human` summary. */
export interface HumanGateResult<R extends HumanGateRule = HumanGateRule> {
  verifier: string;
  rule: R;
  ok: boolean;
  blocked_by_infrastructure: false;
  blocked_by_verifier_error: false;
  verdicts: number;
  message: string;
  cases: [];
  human: HumanGateSummary;
}

export const HUMAN_DIMENSIONS = ["naturalness", "prosody", "pronunciation", "pacing"] as const;
export type HumanDimension = (typeof HUMAN_DIMENSIONS)[number];

export const HUMAN_PREFIX = "human.";

/** The verifier ids people may review that no verifier produces: `human.naturalness`, … */
export const HUMAN_DIMENSION_IDS: readonly string[] = HUMAN_DIMENSIONS.map((d) => `${HUMAN_PREFIX}${d}`);

export type HumanVerdict = "passed" | "failed" | "unsure";

/** Trial id → reviewed verifier id → that trial's human verdict (reviewers already combined). */
export type HumanVerdicts = ReadonlyMap<string, ReadonlyMap<string, HumanVerdict>>;

export const isHumanGate = (id: string): boolean => id.startsWith(HUMAN_PREFIX);

/** The verifier id whose reviews a human gate reads: a dimension's own id, or the semantic clause's. */
export function reviewedVerifier(gateId: string): string {
  const rest = gateId.slice(HUMAN_PREFIX.length);
  return rest.startsWith("semantic.") ? rest : gateId;
}

/** A human gate this run can have: a dimension, or `human.` before one of the run's semantic verifiers. */
export function isKnownHumanGate(id: string, semanticIds: Iterable<string>): boolean {
  if (HUMAN_DIMENSION_IDS.includes(id)) return true;
  if (!id.startsWith(`${HUMAN_PREFIX}semantic.`)) return false;
  return [...semanticIds].includes(id.slice(HUMAN_PREFIX.length));
}

/** The human gate ids a run with these semantic verifiers may declare, for error messages. */
export function humanGateIds(semanticIds: Iterable<string>): string[] {
  return [...HUMAN_DIMENSION_IDS, ...[...semanticIds].map((s) => `${HUMAN_PREFIX}${s}`)];
}

/** How a human gate stands: awaiting any review, reviewed too little, or decided on its reviews. */
export type HumanGateStatus = "not_assessed" | "too_few_reviews" | "assessed";

export interface HumanGateSummary {
  status: HumanGateStatus;
  /** The verifier id whose reviews count (`semantic.x` for `human.semantic.x`). */
  reviewed_verifier: string;
  trials: number;
  /** Trials whose human verdict is passed or failed. */
  reviewed: number;
  passes: number;
  failures: number;
  /** Trials whose reviewers were unsure, or split evenly. */
  unsure: number;
  min_reviewed: number;
  min_reviewed_share: number;
  /** passes / reviewed; null before any review. */
  pass_rate: number | null;
  /** The rate compared with min_pass_rate (the Wilson lower bound with `wilson`); null unless assessed. */
  compared_rate: number | null;
}

export const DEFAULT_MIN_REVIEWED = 1;

/**
 * One human gate over the run's trials. `verdicts` null (a run that just ended, with no reviews read) leaves
 * it not assessed. Pure; fails closed: too few reviews is not a pass.
 */
export function humanGate<R extends HumanGateRule>(id: string, rule: R, trials: ReadonlyArray<{ trial_id?: string }>, verdicts: HumanVerdicts | null): HumanGateResult<R> {
  const reviewed_verifier = reviewedVerifier(id);
  const min_reviewed = rule.min_reviewed ?? DEFAULT_MIN_REVIEWED;
  const min_reviewed_share = rule.min_reviewed_share ?? 0;
  let passes = 0;
  let failures = 0;
  let unsure = 0;
  for (const t of trials) {
    const v = t.trial_id === undefined ? undefined : verdicts?.get(t.trial_id)?.get(reviewed_verifier);
    if (v === "passed") passes++;
    else if (v === "failed") failures++;
    else if (v === "unsure") unsure++;
  }
  const reviewed = passes + failures;
  const pass_rate = reviewed === 0 ? null : passes / reviewed;
  const share = trials.length === 0 ? 0 : reviewed / trials.length;
  // Stryker disable next-line EqualityOperator: equivalent, a share never lands exactly on the 1e-12 tolerance below the minimum
  const enough = reviewed > 0 && reviewed >= min_reviewed && share >= min_reviewed_share - 1e-12;
  const status: HumanGateStatus = reviewed === 0 ? "not_assessed" : enough ? "assessed" : "too_few_reviews";
  const compared_rate = status !== "assessed" ? null : rule.wilson ? wilsonInterval(passes, reviewed)!.low : pass_rate;
  const ok = compared_rate !== null && compared_rate >= rule.min_pass_rate - 1e-12;
  const need = [min_reviewed > 1 ? `${min_reviewed} reviewed trial(s)` : "", min_reviewed_share > 0 ? `${+(min_reviewed_share * 100).toFixed(2)}% of the ${trials.length} trial(s) reviewed` : ""].filter(Boolean).join(" and ") || "one reviewed trial";
  const what = rule.wilson ? "Wilson lower bound" : "pass rate";
  const message =
    status === "not_assessed"
      ? `${id}: not assessed, awaits reviews: no trial has a passed or failed human verdict on ${reviewed_verifier} yet (needs ${need}); review the trials (reviews.jsonl), then decide again with \`crashlab gates <run-dir>\``
      : status === "too_few_reviews"
        ? `${id}: not assessed, too few reviews: ${reviewed} of ${trials.length} trial(s) reviewed (needs ${need}); review more trials, then \`crashlab gates <run-dir>\``
        : `${id}: ${passes}/${reviewed} reviewed trial(s) passed, ${what} ${ok ? ">=" : "below"} ${rule.min_pass_rate}${unsure ? ` (${unsure} unsure not counted)` : ""}`;
  return {
    verifier: id,
    rule,
    ok,
    blocked_by_infrastructure: false,
    blocked_by_verifier_error: false,
    verdicts: reviewed,
    message,
    cases: [],
    human: { status, reviewed_verifier, trials: trials.length, reviewed, passes, failures, unsure, min_reviewed, min_reviewed_share, pass_rate, compared_rate },
  };
}

/** The command line's say over gates (`--require`, `--advisory`, `--min-pass-rate`, `--wilson`). */
export interface HumanGateOverrides {
  require?: readonly string[];
  advisory?: readonly string[];
  min_pass_rate?: number;
  wilson?: boolean;
}

/**
 * The run's human gates, from the PLAN's `gates` and the command line: each `human.*` id either names.
 * Declaring a human gate is asking for it, so it is required unless it says otherwise; it needs one
 * reviewed trial unless `min_reviewed` or `min_reviewed_share` asks for more. The ids are checked by the
 * caller (definePlan, resolveRun).
 */
export function humanGateConfig(planGates: Readonly<Record<string, Partial<HumanGateRule>>> | undefined, overrides: HumanGateOverrides = {}): Record<string, HumanGateRule> {
  const ids = new Set([...Object.keys(planGates ?? {}), ...(overrides.require ?? []), ...(overrides.advisory ?? [])].filter(isHumanGate));
  const config: Record<string, HumanGateRule> = {};
  for (const id of [...ids].sort()) {
    const fromPlan = planGates?.[id] ?? {};
    const rule: HumanGateRule = {
      required: fromPlan.required ?? true,
      min_pass_rate: fromPlan.min_pass_rate ?? 1,
      wilson: fromPlan.wilson ?? false,
      min_reviewed: fromPlan.min_reviewed ?? DEFAULT_MIN_REVIEWED,
      min_reviewed_share: fromPlan.min_reviewed_share ?? 0,
    };
    if (overrides.require?.includes(id)) rule.required = true;
    if (overrides.advisory?.includes(id)) rule.required = false;
    if (overrides.min_pass_rate !== undefined) rule.min_pass_rate = overrides.min_pass_rate;
    if (overrides.wilson !== undefined) rule.wilson = overrides.wilson;
    config[id] = rule;
  }
  return config;
}
