/** The semantic verifiers (`semantic.<clause id>`): one per behavior clause, and the semantic quality score. */

import type { Assessment, JudgeProvenance } from "../record/assessment";
import type { Verdict, Verifier, VerifierInput } from "../verify/verifier";
import { BUILTIN_CLAUSES, ClauseError, type BehaviorClause, type ClauseRecord } from "./clauses";
import { buildEvidenceCatalog, validateFacts, type EvidenceCatalog, type Facts } from "./evidence";
import { Judge, JudgeConfigError, successCriteria, type ClauseJudgement, type JudgeSettings, type RequestBudget } from "./judge";
import { estimateCost, priceFor, type PriceTable } from "./prices";
import { inheritDefinitionSite } from "../verify/source";

/**
 * One verifier per behavior clause (`semantic.<clause id>`, kind "semantic"), advisory unless listed as
 * required (docs/verifiers-and-clauses.md). The clauses of one trial are judged in parallel: the first of its verifiers to run starts
 * every applicable clause's calls, and each verifier then takes its own outcome (once; nothing is cached).
 */
export const SEMANTIC_VERIFIER_PREFIX = "semantic.";
/** The offline representation of an applicable dimension (docs/verifiers-and-clauses.md `not_assessed`): status "not_run", score null. */
export const NOT_ASSESSED_RATIONALE = "not assessed: offline run without --judge";

/** What a semantic verifier returns: a Verdict that may also be "not_run" and carries the judge's provenance. */
export type SemanticVerdict = Omit<Verdict, "status"> & { status: Verdict["status"] | "not_run"; judge?: JudgeProvenance };

export type SemanticVerifier = Omit<Verifier, "assess" | "kind"> & {
  kind: "semantic";
  clause: { id: string; version: string };
  assess(input: VerifierInput): Promise<SemanticVerdict>;
};

export interface SemanticVerifierOptions {
  /** Judge settings; null runs nothing and records applicable dimensions as not assessed (offline default). */
  judge: JudgeSettings | null;
  /** Default: the five built-in clauses of docs/verifiers-and-clauses.md. Package clauses come through `defineClause`. */
  clauses?: readonly BehaviorClause[];
  /** Public business facts, cited as `fact.<key>`. */
  facts?: Facts;
  /** Clause ids (or `semantic.<id>`) that gate; every other semantic verifier is advisory. */
  required?: readonly string[];
  /** USD per 1M tokens, over the built-in table. */
  prices?: PriceTable;
  /**
   * The trial's provider-request budget: a function counting one request, throwing past the limit. The
   * default continues from the record's own count (limits.usage) up to its limit (limits.config).
   */
  request_budget?: (record: ClauseRecord) => RequestBudget;
}

/** A budget continuing the trial's provider-request count up to its limit. */
export function trialRequestBudget(record: Pick<ClauseRecord, "limits">): RequestBudget {
  const limit = record.limits.config.provider_requests;
  let used = record.limits.usage.provider_requests;
  return () => {
    if (used + 1 > limit) throw new Error(`the trial's provider-request limit (${limit}) is used up (${used} request(s) made)`);
    used++;
  };
}

type Pending = Map<string, Promise<SemanticVerdict>>;

export function semanticVerifiers(options: SemanticVerifierOptions): SemanticVerifier[] {
  const clauses = options.clauses ?? BUILTIN_CLAUSES;
  const ids = new Set<string>();
  for (const c of clauses) {
    if (ids.has(c.id)) throw new ClauseError(`clause "${c.id}" is given twice; clause ids must be unique`);
    ids.add(c.id);
  }
  const required = new Set<string>();
  for (const r of options.required ?? []) {
    const id = r.startsWith(SEMANTIC_VERIFIER_PREFIX) ? r.slice(SEMANTIC_VERIFIER_PREFIX.length) : r;
    if (!ids.has(id)) throw new JudgeConfigError(`required semantic criterion "${r}" is not a clause; clauses: ${[...ids].join(", ")}`);
    required.add(id);
  }
  const facts = validateFacts(options.facts ?? {});
  const judge = options.judge ? new Judge(options.judge) : null;
  const pending = new WeakMap<object, Pending>();

  const startTrial = (input: VerifierInput): Pending => {
    const { record, scenario } = input;
    const budget = (options.request_budget ?? trialRequestBudget)(record);
    let catalog: EvidenceCatalog | Error | null = null;
    const catalogOnce = (): EvidenceCatalog => {
      if (catalog === null) {
        try {
          catalog = buildEvidenceCatalog(record, { ...(scenario.input.context ? { context: scenario.input.context } : {}), facts });
        } catch (error) {
          catalog = error instanceof Error ? error : new Error(String(error));
        }
      }
      if (catalog instanceof Error) throw new Error(`evidence catalog could not be built: ${catalog.message}`);
      return catalog;
    };
    const out: Pending = new Map();
    for (const clause of clauses) {
      out.set(clause.id, assessClause(clause, input, catalogOnce, budget));
    }
    return out;
  };

  /** Applicability, then selection (code: its faults are verifier errors), then the judge. */
  const assessClause = (clause: BehaviorClause, input: VerifierInput, catalogOnce: () => EvidenceCatalog, budget: RequestBudget): Promise<SemanticVerdict> => {
    const error = (stage: string, fault: unknown): SemanticVerdict => ({
      status: "error",
      score: null,
      rationale: `verifier error in clause ${clause.id} ${clause.version} (${stage}): ${fault instanceof Error ? fault.message : String(fault)}`,
      evidence_ids: [],
    });
    let applies;
    try {
      applies = clause.applies(input.record, input.scenario);
    } catch (fault) {
      return Promise.resolve(error("applicability rule", fault));
    }
    if (applies !== true) return Promise.resolve({ status: "not_applicable", score: null, rationale: typeof applies === "string" ? applies : `clause ${clause.id} does not apply`, evidence_ids: [] });
    if (!judge) return Promise.resolve({ status: "not_run", score: null, rationale: NOT_ASSESSED_RATIONALE, evidence_ids: [] });
    let catalog: EvidenceCatalog;
    let selected: string[];
    try {
      catalog = catalogOnce();
      selected = validSelection(clause, clause.select(catalog, input.record, input.scenario), catalog);
    } catch (fault) {
      return Promise.resolve(error("evidence selection", fault));
    }
    const chosen = new Set(selected);
    const items = catalog.items.filter((item) => chosen.has(item.id));
    return judge
      .judgeClause({ clause, items, success_criteria: successCriteria(input.scenario) }, budget)
      .then((judgement) => verdictOf(judgement, clause, selected, judge, options.prices))
      .catch((fault) => error("judge", fault));
  };

  return clauses.map((clause) => inheritDefinitionSite({
    id: `${SEMANTIC_VERIFIER_PREFIX}${clause.id}`,
    version: clause.version,
    kind: "semantic" as const,
    description: `semantic judge (docs/verifiers-and-clauses.md): ${clause.text}`,
    required: required.has(clause.id),
    clause: { id: clause.id, version: clause.version },
    assess(input: VerifierInput): Promise<SemanticVerdict> {
      // Hand-off, not a cache: an outcome is taken once; a later assess of the same record judges afresh.
      let group = pending.get(input.record);
      if (!group || !group.has(clause.id)) {
        group = startTrial(input);
        pending.set(input.record, group);
      }
      const mine = group.get(clause.id)!;
      group.delete(clause.id);
      if (group.size === 0) pending.delete(input.record);
      return mine;
    },
  }, clause));
}

/** A selector must return a list of catalog ids; anything else is the evaluator's fault. */
function validSelection(clause: BehaviorClause, selection: unknown, catalog: EvidenceCatalog): string[] {
  if (!Array.isArray(selection)) throw new Error(`select() of clause ${clause.id} returned ${typeof selection}, not a list of evidence ids`);
  const known = new Set(catalog.items.map((item) => item.id));
  const bad = selection.filter((id) => typeof id !== "string" || !known.has(id));
  if (bad.length > 0) throw new Error(`select() of clause ${clause.id} returned id(s) not in the evidence catalog: ${bad.map((b) => JSON.stringify(b)).join(", ")}`);
  return [...new Set(selection as string[])];
}

function verdictOf(j: ClauseJudgement, clause: BehaviorClause, offered: string[], judge: Judge, prices: PriceTable | undefined): SemanticVerdict {
  const priced = j.observed_models[0] ?? judge.settings.model;
  const provenance: JudgeProvenance = {
    model: judge.settings.model,
    observed_models: j.observed_models,
    settings: { reasoning_effort: judge.settings.reasoning_effort, repetitions: judge.settings.repetitions, endpoint: judge.settings.endpoint, timeout_ms: judge.settings.timeout_ms, max_retries: judge.settings.max_retries, credential: judge.settings.credential },
    clause: { id: clause.id, version: clause.version },
    offered_evidence_ids: offered,
    latency_ms: j.latency_ms,
    tokens: j.tokens,
    // No tokens, nothing billed (the request never reached the provider, or failed before any work).
    cost_usd: j.tokens.total === 0 ? 0 : estimateCost(j.tokens, priceFor(priced, prices)),
    reason: j.reason,
    task_completed: j.task_completed,
    votes: j.votes.map((v) => ({ outcome: v.outcome, reason: v.reason, score: v.score, latency_ms: v.latency_ms, response_id: v.response_id })),
  };
  if (j.outcome === "inconclusive") return { status: "inconclusive", score: null, rationale: `inconclusive (${j.reason}): ${j.rationale}`, evidence_ids: j.cited, judge: provenance };
  return { status: j.outcome === "pass" ? "passed" : "failed", score: j.score, rationale: j.rationale, evidence_ids: j.cited, judge: provenance };
}

const semanticAssessments = (assessments: readonly Pick<Assessment, "verifier" | "kind">[]) =>
  assessments.filter((a) => a.kind === "semantic" && a.verifier.startsWith(SEMANTIC_VERIFIER_PREFIX));

/**
 * `semantic_quality`: the mean of the applicable dimensions' scores (null when none has a score), and
 * each applicable dimension's score (null when not assessed, inconclusive or in error). Not-applicable
 * dimensions are left out.
 */
export function semanticQuality(assessments: readonly Pick<Assessment, "verifier" | "kind" | "status" | "score">[]): { score: number | null; dimensions: Record<string, number | null> } {
  const dimensions: Record<string, number | null> = {};
  for (const a of semanticAssessments(assessments) as Array<Pick<Assessment, "verifier" | "kind" | "status" | "score">>) {
    if (a.status === "not_applicable") continue;
    dimensions[a.verifier.slice(SEMANTIC_VERIFIER_PREFIX.length)] = a.status === "passed" || a.status === "failed" ? (a.score ?? null) : null;
  }
  const scores = Object.values(dimensions).filter((s): s is number => s !== null);
  return { score: scores.length ? scores.reduce((s, x) => s + x, 0) / scores.length : null, dimensions };
}

/**
 * What `semantic_outcome` check reads: task_understanding's status when a judge ran on it, else
 * undefined (not applicable, offline, or absent). An error counts as inconclusive.
 */
export function taskUnderstandingOutcome(assessments: readonly Pick<Assessment, "verifier" | "status">[]): "passed" | "failed" | "inconclusive" | undefined {
  const a = assessments.find((x) => x.verifier === `${SEMANTIC_VERIFIER_PREFIX}task_understanding`);
  if (!a || a.status === "not_run" || a.status === "not_applicable") return undefined;
  return a.status === "passed" ? "passed" : a.status === "failed" ? "failed" : "inconclusive";
}

export interface JudgeUsageTotals {
  /** Semantic assessments the judge was called for. */
  judged: number;
  /** Judge calls that reached the provider (repetitions included). */
  requests: number;
  latency_ms: number;
  tokens: JudgeProvenance["tokens"];
  /** Sum of the estimated costs; null when no judged assessment had a price. */
  cost_usd: number | null;
  /** Judged assessments whose model had no price (their cost is not in `cost_usd`). */
  unpriced: number;
}

/** Votes that never became a provider request. */
const NOT_REQUESTED = new Set(["request_limit", "no_evidence"]);

/** Per-run judge totals (docs/verifiers-and-clauses.md), kept apart from the target's consumption. */
export function judgeUsageTotals(assessments: readonly Pick<Assessment, "judge">[]): JudgeUsageTotals {
  const totals: JudgeUsageTotals = { judged: 0, requests: 0, latency_ms: 0, tokens: { input: 0, cached: 0, cache_write: 0, output: 0, reasoning: 0, total: 0 }, cost_usd: null, unpriced: 0 };
  for (const { judge } of assessments) {
    if (!judge) continue;
    totals.judged++;
    totals.requests += judge.votes.filter((v) => !NOT_REQUESTED.has(v.reason ?? "")).length;
    totals.latency_ms += judge.latency_ms;
    for (const k of Object.keys(totals.tokens) as Array<keyof JudgeProvenance["tokens"]>) totals.tokens[k] += judge.tokens[k];
    if (judge.cost_usd === null) totals.unpriced++;
    else totals.cost_usd = (totals.cost_usd ?? 0) + judge.cost_usd;
  }
  return totals;
}
