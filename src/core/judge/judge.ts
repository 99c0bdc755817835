/** The semantic judge: its settings, instructions and reply schema, one Responses API call per applicable clause. */

import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { zodTextFormat } from "openai/helpers/zod";
import { z } from "zod";
import type { Scenario } from "../dataset/schema";
import type { BehaviorClause } from "./clauses";
import type { EvidenceItem } from "./evidence";
import { addTokens, NO_TOKENS, type JudgeTokens } from "./prices";
import { serviceClientOptions, type AuthHeader } from "../services/auth";
import { urlForDisplay } from "../services/redact";
import { staticDefault } from "../settings/schema";
import { UserError } from "../user-error";

/**
 * The semantic judge (docs/verifiers-and-clauses.md, docs/grading.md): one Responses API call per applicable clause and repetition, with
 * structured output, citations checked against the evidence handed to that call, and an honest
 * "inconclusive" (with its own reason code) instead of a guess. Responses are never cached.
 */

/** The independent semantic judge's default model (docs/audio-and-metrics.md); the defaults are the run settings'. */
export const DEFAULT_JUDGE_MODEL = staticDefault("judge_model");
/** Version of the judge's instructions and request layout; recorded with every judgement through the settings. */
export const JUDGE_PROMPT_VERSION = "1.0";
export const DEFAULT_JUDGE_TIMEOUT_MS = staticDefault("judge_timeout_seconds") * 1000;
export const DEFAULT_JUDGE_MAX_RETRIES = staticDefault("judge_retries");
/** The severity scale; 1 = the clause is fully met, 0 = violated outright (docs/verifiers-and-clauses.md). */
export const SEVERITY_SCORES = [0, 0.25, 0.5, 0.75, 1] as const;

export type JudgeReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh";
const EFFORTS: readonly JudgeReasoningEffort[] = ["none", "minimal", "low", "medium", "high", "xhigh"];

/** Judge settings as the CLI or a plan gives them. Temperature is never sent (reasoning models reject it). */
export interface JudgeSettings {
  /** Default DEFAULT_JUDGE_MODEL. */
  model?: string;
  /** Unset: the provider's default effort. */
  reasoning_effort?: JudgeReasoningEffort;
  /** Independent judge calls per clause; majority verdict, mean score, ties inconclusive. Default 1. */
  repetitions?: number;
  /** Base URL of any Responses-compatible server, e.g. `http://127.0.0.1:8080/v1`; default the OpenAI API. */
  endpoint?: string;
  /** Needed for the OpenAI API; a local endpoint may go without. Never recorded. */
  api_key?: string;
  /** The header the key travels in: `Authorization: Bearer` (default) or Azure's `api-key`. */
  api_key_header?: AuthHeader;
  /** Where `api_key` came from (`OPENAI_API_KEY`, `env:NAME`, `none`): recorded, unlike the key. */
  credential?: string;
  timeout_ms?: number;
  /** Client retries on outages and timeouts, within one counted request. Default 1. */
  max_retries?: number;
}

/** Settings as recorded on each assessment (no secrets). */
export interface ResolvedJudgeSettings {
  model: string;
  reasoning_effort: JudgeReasoningEffort | null;
  repetitions: number;
  endpoint: string | null;
  timeout_ms: number;
  max_retries: number;
  credential: string;
}

/** A judge configuration the user got wrong; says what to fix. */
export class JudgeConfigError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "JudgeConfigError";
  }
}

/** Validate settings and fill defaults. The endpoint is recorded without any user:password part. */
export function resolveJudgeSettings(settings: JudgeSettings): ResolvedJudgeSettings {
  const model = settings.model ?? DEFAULT_JUDGE_MODEL;
  if (typeof model !== "string" || model.trim() === "") throw new JudgeConfigError("judge model must be a non-empty model id (--judge-model)");
  const repetitions = settings.repetitions ?? 1;
  if (!Number.isInteger(repetitions) || repetitions < 1 || repetitions > 15) throw new JudgeConfigError(`judge repetitions must be an integer from 1 to 15 (--judge-repetitions), got ${repetitions}`);
  if (settings.reasoning_effort !== undefined && !EFFORTS.includes(settings.reasoning_effort))
    throw new JudgeConfigError(`judge reasoning effort "${settings.reasoning_effort}" is not one of ${EFFORTS.join(", ")} (--judge-reasoning-effort)`);
  const timeout_ms = settings.timeout_ms ?? DEFAULT_JUDGE_TIMEOUT_MS;
  if (!(timeout_ms > 0)) throw new JudgeConfigError(`judge timeout must be a positive number of milliseconds, got ${timeout_ms}`);
  const max_retries = settings.max_retries ?? DEFAULT_JUDGE_MAX_RETRIES;
  if (!Number.isInteger(max_retries) || max_retries < 0) throw new JudgeConfigError(`judge max_retries must be a non-negative integer, got ${max_retries}`);
  let endpoint: string | null = null;
  if (settings.endpoint !== undefined) {
    let url: URL;
    try {
      url = new URL(settings.endpoint);
    } catch {
      throw new JudgeConfigError(`judge endpoint "${urlForDisplay(settings.endpoint)}" is not a URL; give the base URL of a Responses-compatible server, e.g. http://127.0.0.1:8080/v1 (--judge-endpoint)`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new JudgeConfigError(`judge endpoint "${urlForDisplay(settings.endpoint)}" must be http:// or https:// (--judge-endpoint)`);
    url.username = "";
    url.password = "";
    endpoint = url.toString().replace(/\/$/, "");
  }
  if (!settings.api_key && endpoint === null) throw new JudgeConfigError("the judge needs an OpenAI API key (OPENAI_API_KEY), or --judge-endpoint pointing at a Responses-compatible server");
  const credential = settings.credential ?? (settings.api_key ? "api_key" : "none");
  return { model, reasoning_effort: settings.reasoning_effort ?? null, repetitions, endpoint, timeout_ms, max_retries, credential };
}

/** The judge's structured reply; `task_completed` only for clauses that decide task completion. */
export function judgeReplySchema(clause: Pick<BehaviorClause, "decides_task_completion">) {
  const base = z.strictObject({
    verdict: z.enum(["pass", "fail", "not_applicable", "insufficient_evidence"]),
    severity_score: z.literal(SEVERITY_SCORES),
    rationale: z.string(),
    cited_evidence_ids: z.array(z.string()),
  });
  return clause.decides_task_completion ? base.extend({ task_completed: z.boolean() }) : base;
}
export type JudgeReply = z.infer<ReturnType<typeof judgeReplySchema>> & { task_completed?: boolean };

export const JUDGE_INSTRUCTIONS = [
  "You are an independent evaluator of one recorded trial of a voice agent. You decide exactly one behavior clause.",
  "The EVIDENCE CATALOG holds only what was observed in the trial (caller and assistant utterances with their timings, delegations, tool calls and results, world events, state changes, the context the assistant was given) and public business facts. Each item has an id.",
  "The SUCCESS CRITERIA are the evaluator's rubric: what a correct outcome looks like. They are not evidence that anything happened, and the assistant never saw them. Decide only from the evidence.",
  'verdict: "pass" when the evidence shows the clause is met; "fail" when it shows the clause is violated; "not_applicable" when the clause does not apply to this trial; "insufficient_evidence" when the evidence does not let you decide.',
  "severity_score: 1 = fully met, 0.75 = a minor flaw, 0.5 = a noticeable flaw, 0.25 = a serious flaw, 0 = violated outright.",
  "rationale: brief, naming the evidence ids it rests on.",
  "cited_evidence_ids: the exact ids of the catalog items your verdict rests on, copied from the catalog. Never cite an id that is not in the catalog. A pass or fail without citations is discarded.",
  "task_completed (only when the reply format asks for it): true only when the evidence shows the caller's task completed as the success criteria describe; it must agree with the verdict.",
].join("\n");

/** The evaluator's rubric for the judge: the scenario's expected answer and criteria (never sent to the target). */
export interface SuccessCriteria {
  expected_answer: string;
  criteria: string[];
}

export function successCriteria(scenario: Pick<Scenario, "expected">): SuccessCriteria {
  return { expected_answer: scenario.expected.answer, criteria: [...scenario.expected.criteria] };
}

export interface JudgeRequestInput {
  clause: BehaviorClause;
  /** The catalog items selected for this clause: the only ids the judge may cite. */
  items: readonly EvidenceItem[];
  success_criteria: SuccessCriteria;
}

export const SUCCESS_CRITERIA_HEADING = "SUCCESS CRITERIA (evaluator rubric: what a correct outcome looks like; not evidence, and never shown to the assistant)";
export const EVIDENCE_HEADING = "EVIDENCE CATALOG (observed in this trial, plus public business facts; one JSON item per line; cite items by their exact id)";

/** The user message of one judge call: the clause, the labelled success criteria, the clause's evidence. */
export function judgeMessage(input: JudgeRequestInput): string {
  const { clause, items, success_criteria } = input;
  return [
    "BEHAVIOR CLAUSE",
    `id: ${clause.id}`,
    `version: ${clause.version}`,
    `text: ${clause.text}`,
    "",
    SUCCESS_CRITERIA_HEADING,
    `expected answer: ${success_criteria.expected_answer || "(none given)"}`,
    "criteria:",
    ...(success_criteria.criteria.length ? success_criteria.criteria.map((c) => `- ${c}`) : ["- (none given)"]),
    "",
    EVIDENCE_HEADING,
    ...items.map((item) => JSON.stringify(item)),
  ].join("\n");
}

/** The exact Responses API request body of one judge call (plain data). */
export function judgeRequestBody(input: JudgeRequestInput, settings: ResolvedJudgeSettings): OpenAI.Responses.ResponseCreateParamsNonStreaming {
  const { type, name, strict, schema } = zodTextFormat(judgeReplySchema(input.clause), "judge_verdict");
  return {
    model: settings.model,
    instructions: JUDGE_INSTRUCTIONS,
    input: [{ role: "user", content: judgeMessage(input) }],
    text: { format: { type, name, strict: strict ?? true, schema } },
    // Evaluator data is not kept by the provider, and nothing is chained from earlier calls.
    store: false,
    ...(settings.reasoning_effort ? { reasoning: { effort: settings.reasoning_effort } } : {}),
  };
}

/** Why a vote or a judgement is inconclusive. Each cause has its own code, recorded on the assessment. */
export type InconclusiveReason =
  | "judge_not_applicable"
  | "insufficient_evidence"
  | "no_citations"
  | "unknown_citations"
  | "contradictory_reply"
  | "refusal"
  | "malformed_json"
  | "schema_mismatch"
  | "incomplete_reply"
  | "timeout"
  | "rate_limited"
  | "provider_outage"
  | "provider_rejected"
  | "request_limit"
  | "no_evidence"
  | "split_vote";

/** One judge call's outcome. */
export interface JudgeVote {
  outcome: "pass" | "fail" | "inconclusive";
  reason: InconclusiveReason | null;
  /** Severity score of a substantive verdict; null otherwise. */
  score: number | null;
  rationale: string;
  /** Cited ids that exist in the offered evidence. */
  cited: string[];
  task_completed: boolean | null;
  latency_ms: number;
  tokens: JudgeTokens;
  model: string | null;
  response_id: string | null;
}

/** A clause's judgement over all repetitions. */
export interface ClauseJudgement {
  outcome: "pass" | "fail" | "inconclusive";
  reason: InconclusiveReason | null;
  score: number | null;
  rationale: string;
  cited: string[];
  task_completed: boolean | null;
  votes: JudgeVote[];
  latency_ms: number;
  tokens: JudgeTokens;
  observed_models: string[];
}

/** Counts one provider request against the trial's limit; throws when the limit is exceeded. */
export type RequestBudget = () => void;

function inconclusiveVote(reason: InconclusiveReason, rationale: string, extra: Partial<JudgeVote> = {}): JudgeVote {
  return { outcome: "inconclusive", reason, score: null, rationale, cited: [], task_completed: null, latency_ms: 0, tokens: NO_TOKENS, model: null, response_id: null, ...extra };
}

function tokensOf(usage: OpenAI.Responses.ResponseUsage | undefined | null): JudgeTokens {
  if (!usage) return NO_TOKENS;
  return {
    input: usage.input_tokens ?? 0,
    cached: usage.input_tokens_details?.cached_tokens ?? 0,
    cache_write: usage.input_tokens_details?.cache_write_tokens ?? 0,
    output: usage.output_tokens ?? 0,
    reasoning: usage.output_tokens_details?.reasoning_tokens ?? 0,
    total: usage.total_tokens ?? 0,
  };
}

/** Map a failed request to its reason code: outages, limits and rejections are the provider's, not the model's judgement. */
function requestFailure(error: unknown): { reason: InconclusiveReason; detail: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof APIConnectionTimeoutError) return { reason: "timeout", detail: `the judge did not answer in time: ${message}` };
  if (error instanceof APIConnectionError) return { reason: "provider_outage", detail: `could not reach the judge: ${message}` };
  if (error instanceof APIError) {
    if (error.status === 408) return { reason: "timeout", detail: `HTTP 408: ${message}` };
    if (error.status === 429) return { reason: "rate_limited", detail: `HTTP 429: ${message}` };
    if (error.status !== undefined && error.status >= 500) return { reason: "provider_outage", detail: `HTTP ${error.status}: ${message}` };
    return { reason: "provider_rejected", detail: `HTTP ${error.status ?? "?"}: ${message} (check the judge model, key and endpoint)` };
  }
  return { reason: "provider_outage", detail: `the judge request failed: ${message}` };
}

/** Interpret one reply: schema, verdict kind, citations and consistency decide whether it is a vote. */
export function interpretReply(text: string, clause: BehaviorClause, offered: ReadonlySet<string>): Omit<JudgeVote, "latency_ms" | "tokens" | "model" | "response_id"> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return inconclusiveVote("malformed_json", `the judge's reply is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
  const parsed = judgeReplySchema(clause).safeParse(raw);
  if (!parsed.success) {
    // A failed parse has at least one issue.
    const issue = parsed.error.issues[0]!;
    return inconclusiveVote("schema_mismatch", `the judge's reply does not match the verdict schema: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const reply = parsed.data as JudgeReply;
  const cited = [...new Set(reply.cited_evidence_ids)];
  const known = cited.filter((id) => offered.has(id));
  const unknown = cited.filter((id) => !offered.has(id));
  const task_completed = clause.decides_task_completion ? (reply.task_completed ?? null) : null;
  const base = { cited: known, task_completed };
  if (reply.verdict === "not_applicable") return { ...inconclusiveVote("judge_not_applicable", `the judge found the clause not applicable: ${reply.rationale}`), ...base };
  if (reply.verdict === "insufficient_evidence") return { ...inconclusiveVote("insufficient_evidence", `the judge found the evidence insufficient: ${reply.rationale}`), ...base };
  if (cited.length === 0) return { ...inconclusiveVote("no_citations", `the judge answered "${reply.verdict}" without citing evidence: ${reply.rationale}`), ...base };
  if (unknown.length > 0)
    return { ...inconclusiveVote("unknown_citations", `the judge answered "${reply.verdict}" citing id(s) not in the evidence it was given: ${unknown.join(", ")}`), ...base };
  if (clause.decides_task_completion && (reply.verdict === "pass") !== (reply.task_completed === true))
    return { ...inconclusiveVote("contradictory_reply", `the judge answered "${reply.verdict}" but task_completed=${String(reply.task_completed)}`), ...base };
  return { outcome: reply.verdict, reason: null, score: reply.severity_score, rationale: reply.rationale, ...base };
}

/**
 * Combine repetitions: the verdict with strictly the most votes wins (an inconclusive vote counts as a
 * vote); a tie is inconclusive. The score is the mean over all substantive votes.
 */
export function aggregateVotes(votes: readonly JudgeVote[], latency_ms: number): ClauseJudgement {
  const tokens = votes.reduce((sum, v) => addTokens(sum, v.tokens), NO_TOKENS);
  const observed_models = [...new Set(votes.map((v) => v.model).filter((m): m is string => m !== null))];
  const common = { votes: [...votes], latency_ms, tokens, observed_models };
  const count = (o: JudgeVote["outcome"]) => votes.filter((v) => v.outcome === o).length;
  const tally = (["pass", "fail", "inconclusive"] as const).map((outcome) => ({ outcome, n: count(outcome) }));
  const top = Math.max(...tally.map((t) => t.n));
  const leaders = tally.filter((t) => t.n === top);
  const many = votes.length > 1;
  if (leaders.length > 1) {
    return {
      ...common,
      outcome: "inconclusive",
      reason: "split_vote",
      score: null,
      rationale: `judge repetitions split: ${tally.map((t) => `${t.n} ${t.outcome}`).join(", ")}`,
      cited: [],
      task_completed: null,
    };
  }
  const winner = leaders[0]!.outcome;
  const winning = votes.filter((v) => v.outcome === winner);
  const prefix = many ? `${winning.length} of ${votes.length} judge repetitions ${winner === "inconclusive" ? "inconclusive" : `voted ${winner}`}: ` : "";
  if (winner === "inconclusive") {
    const reasons = winning.map((v) => v.reason!);
    const reason = reasons.reduce((best, r) => (reasons.filter((x) => x === r).length > reasons.filter((x) => x === best).length ? r : best), reasons[0]!);
    const first = winning.find((v) => v.reason === reason)!;
    // Valid ids an inconclusive reply did cite stay visible: they show what the judge looked at.
    return { ...common, outcome: "inconclusive", reason, score: null, rationale: `${prefix}${first.rationale}`, cited: [...new Set(winning.flatMap((v) => v.cited))], task_completed: null };
  }
  const substantive = votes.filter((v) => v.score !== null);
  const score = substantive.reduce((s, v) => s + v.score!, 0) / substantive.length;
  return {
    ...common,
    outcome: winner,
    reason: null,
    score,
    rationale: `${prefix}${winning[0]!.rationale}`,
    cited: [...new Set(winning.flatMap((v) => v.cited))],
    task_completed: winning[0]!.task_completed,
  };
}

/** A Responses API client for the judge. Holds no state between calls: every call is fresh. */
export class Judge {
  readonly settings: ResolvedJudgeSettings;
  readonly #client: OpenAI;

  constructor(settings: JudgeSettings) {
    this.settings = resolveJudgeSettings(settings);
    // Without a key for this endpoint, no credential is sent at all.
    this.#client = new OpenAI(
      serviceClientOptions({
        ...(settings.endpoint ? { url: settings.endpoint } : {}),
        auth: settings.api_key ? { key: settings.api_key, header: settings.api_key_header ?? "authorization" } : null,
        timeoutMs: this.settings.timeout_ms,
        maxRetries: this.settings.max_retries,
      }),
    );
  }

  /** Judge one clause: `repetitions` independent calls in parallel, each counted against the budget first. */
  async judgeClause(input: JudgeRequestInput, budget: RequestBudget): Promise<ClauseJudgement> {
    const offered = new Set(input.items.map((item) => item.id));
    const started = performance.now();
    if (input.items.length === 0) return aggregateVotes([inconclusiveVote("no_evidence", `no evidence was selected for clause ${input.clause.id}; the judge was not called`)], 0);
    const body = judgeRequestBody(input, this.settings);
    const votes = await Promise.all(Array.from({ length: this.settings.repetitions }, () => this.#vote(body, input.clause, offered, budget)));
    return aggregateVotes(votes, Math.round(performance.now() - started));
  }

  async #vote(body: OpenAI.Responses.ResponseCreateParamsNonStreaming, clause: BehaviorClause, offered: ReadonlySet<string>, budget: RequestBudget): Promise<JudgeVote> {
    try {
      budget();
    } catch (error) {
      return inconclusiveVote("request_limit", `the judge was not called: ${error instanceof Error ? error.message : String(error)}`);
    }
    const started = performance.now();
    let response: OpenAI.Responses.Response;
    try {
      response = await this.#client.responses.create(structuredClone(body));
    } catch (error) {
      const { reason, detail } = requestFailure(error);
      return inconclusiveVote(reason, detail, { latency_ms: Math.round(performance.now() - started) });
    }
    const meta = { latency_ms: Math.round(performance.now() - started), tokens: tokensOf(response.usage), model: response.model ?? null, response_id: response.id ?? null };
    if (response.status === "failed") return inconclusiveVote("provider_outage", `the judge response failed: ${response.error?.message ?? "no reason given"}`, meta);
    if (response.status === "incomplete") return inconclusiveVote("incomplete_reply", `the judge response is incomplete: ${response.incomplete_details?.reason ?? "no reason given"}`, meta);
    const parts = (response.output ?? []).flatMap((item) => (item.type === "message" ? item.content : []));
    const refusal = parts.find((part) => part.type === "refusal");
    if (refusal) return inconclusiveVote("refusal", `the judge refused: ${refusal.refusal}`, meta);
    const text = parts
      .filter((part) => part.type === "output_text")
      .map((part) => part.text)
      .join("");
    if (text.trim() === "") return inconclusiveVote("malformed_json", "the judge's reply holds no output text", meta);
    return { ...interpretReply(text, clause, offered), ...meta };
  }
}
