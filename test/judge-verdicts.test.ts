import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { RESTAURANT_FACTS } from "../examples/restaurant/facts";
import { BUILTIN_CLAUSES, defineClause, taskUnderstanding } from "../src/core/judge/clauses";
import { aggregateVotes, type JudgeVote } from "../src/core/judge/judge";
import { NO_TOKENS } from "../src/core/judge/prices";
import {
  judgeUsageTotals,
  NOT_ASSESSED_RATIONALE,
  semanticQuality,
  semanticVerifiers,
  taskUnderstandingOutcome,
  trialRequestBudget,
  type SemanticVerdict,
  type SemanticVerifier,
  type SemanticVerifierOptions,
} from "../src/core/judge/verifiers";
import { type TrialRecord } from "../src/core/record/trial-record";
import { Assessment } from "../src/core/record/assessment";
import { clauseOf, refusal, restaurantRecords, scenarioOf, startJudgeServer, textResponse, verdict, type JudgeServer, type Reply } from "./judge-fixtures";

/**
 * The real judge code (openai client, structured output, citation checks, vote aggregation) against a
 * loopback Responses server. The record is a real offline trial of harbor_001 (a booking: the
 * applicable clauses are task_understanding and grounded_communication).
 */
let record: TrialRecord;
let server: JudgeServer | undefined;
const scenario = scenarioOf("harbor_001");

beforeAll(async () => {
  [record] = await restaurantRecords("harbor_001");
  expect(record!.status).toBe("passed");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const PASS = { verdict: "pass", severity_score: 1, rationale: "Booked as asked and confirmed after the tool (utt.assistant.2, tool.call_1).", cited_evidence_ids: ["utt.assistant.2", "tool.call_1"] };

/** Answer every clause with `reply` (task_completed added for task_understanding when missing). */
function everyClause(reply: Record<string, unknown>): (body: Record<string, unknown>) => Reply {
  return (body) => ({ status: 200, json: verdict(clauseOf(body) === "task_understanding" ? { task_completed: reply.verdict === "pass", ...reply } : reply) });
}

async function judged(answer: (body: Record<string, unknown>, n: number) => Reply, options: Partial<SemanticVerifierOptions> = {}, hold?: number) {
  server = await startJudgeServer(answer, hold ? { hold } : {});
  const verifiers = semanticVerifiers({ judge: { endpoint: server.endpoint, api_key: "sk-judge-test", max_retries: 0, timeout_ms: 10_000 }, facts: RESTAURANT_FACTS, ...options });
  return assessAll(verifiers, record);
}

/** What runVerifier does, for semantic verifiers: every verifier of the trial gets the same record object. */
async function assessAll(verifiers: SemanticVerifier[], r: TrialRecord, s = scenario): Promise<Record<string, Assessment>> {
  const out: Record<string, Assessment> = {};
  for (const v of verifiers) {
    const verdict: SemanticVerdict = await v.assess({ record: r, scenario: s });
    out[v.clause.id] = Assessment.parse({
      verifier: v.id,
      version: v.version,
      kind: v.kind,
      status: verdict.status,
      required: v.required,
      score: verdict.score,
      rationale: verdict.rationale,
      evidence_ids: verdict.evidence_ids,
      ...(verdict.judge ? { judge: verdict.judge } : {}),
    });
  }
  return out;
}

describe("semantic verifiers against a loopback Responses server", () => {
  it("records a passing verdict with valid citations, its provenance and estimated cost; inapplicable clauses make no call", async () => {
    const a = await judged(everyClause(PASS));
    expect(a.task_understanding).toMatchObject({ verifier: "semantic.task_understanding", version: "1.0", kind: "semantic", status: "passed", required: false, score: 1, evidence_ids: ["utt.assistant.2", "tool.call_1"] });
    expect(a.task_understanding!.rationale).toBe(PASS.rationale);
    const judge = a.task_understanding!.judge!;
    expect(judge).toMatchObject({
      model: "gpt-5.6-terra",
      observed_models: ["gpt-5.6-terra-2026-06-26"],
      settings: { reasoning_effort: null, repetitions: 1, endpoint: server!.endpoint, max_retries: 0, timeout_ms: 10_000 },
      clause: { id: "task_understanding", version: "1.0" },
      tokens: { input: 1200, cached: 200, cache_write: 0, output: 150, reasoning: 50, total: 1350 },
      reason: null,
      task_completed: true,
    });
    // gpt-5.6-terra (dated snapshot priced as its base): 1000 uncached × $2.50 + 200 cached × $0.25 + 150 output × $15, per 1M.
    expect(judge.cost_usd).toBeCloseTo((1000 * 2.5 + 200 * 0.25 + 150 * 15) / 1e6, 12);
    expect(judge.votes).toHaveLength(1);
    expect(judge.votes[0]).toMatchObject({ outcome: "pass", score: 1, reason: null });
    expect(judge.offered_evidence_ids).toContain("fact.hours");

    expect(a.grounded_communication).toMatchObject({ status: "passed", score: 1, evidence_ids: ["utt.assistant.2", "tool.call_1"] });
    expect(a.grounded_communication!.judge!.task_completed).toBeNull();
    expect(a.context_fidelity).toMatchObject({ status: "not_applicable", score: null, evidence_ids: [] });
    expect(a.context_fidelity!.rationale).toMatch(/no context was given/);
    expect(a.clarification_quality!.status).toBe("not_applicable");
    expect(a.conversational_coherence!.status).toBe("not_applicable");
    expect(server!.seen.map((s) => clauseOf(s.body)).sort()).toEqual(["grounded_communication", "task_understanding"]);
    expect(server!.seen[0]!.auth).toBe("Bearer sk-judge-test");

    expect(semanticQuality(Object.values(a))).toEqual({ score: 1, dimensions: { task_understanding: 1, grounded_communication: 1 } });
    expect(taskUnderstandingOutcome(Object.values(a))).toBe("passed");
    const totals = judgeUsageTotals(Object.values(a));
    expect(totals).toMatchObject({ judged: 2, requests: 2, unpriced: 0, tokens: { input: 2400, total: 2700 } });
    expect(totals.cost_usd).toBeCloseTo(2 * 0.0048, 12);
  });

  it("records a failing verdict with its severity score", async () => {
    const a = await judged(everyClause({ verdict: "fail", severity_score: 0.25, rationale: "The confirmation gives the wrong day (utt.assistant.2).", cited_evidence_ids: ["utt.assistant.2"] }));
    expect(a.task_understanding).toMatchObject({ status: "failed", score: 0.25, evidence_ids: ["utt.assistant.2"] });
    expect(a.task_understanding!.judge!.task_completed).toBe(false);
    expect(semanticQuality(Object.values(a)).score).toBe(0.25);
    expect(taskUnderstandingOutcome(Object.values(a))).toBe("failed");
  });

  it("makes a verdict citing unknown ids inconclusive, and one without citations too, each with its reason", async () => {
    const a = await judged((body) =>
      clauseOf(body) === "task_understanding"
        ? { status: 200, json: verdict({ ...PASS, task_completed: true, cited_evidence_ids: ["utt.assistant.2", "utt.assistant.9", "expected.answer"] }) }
        : { status: 200, json: verdict({ ...PASS, cited_evidence_ids: [] }) },
    );
    expect(a.task_understanding).toMatchObject({ status: "inconclusive", score: null, evidence_ids: ["utt.assistant.2"] });
    expect(a.task_understanding!.judge!.reason).toBe("unknown_citations");
    expect(a.task_understanding!.rationale).toBe('inconclusive (unknown_citations): the judge answered "pass" citing id(s) not in the evidence it was given: utt.assistant.9, expected.answer');
    expect(a.grounded_communication).toMatchObject({ status: "inconclusive", score: null, evidence_ids: [] });
    expect(a.grounded_communication!.judge!.reason).toBe("no_citations");
    expect(semanticQuality(Object.values(a))).toEqual({ score: null, dimensions: { task_understanding: null, grounded_communication: null } });
    expect(taskUnderstandingOutcome(Object.values(a))).toBe("inconclusive");
  });

  it("gives refusals, HTTP 5xx, timeouts, malformed JSON and schema mismatches their own inconclusive reasons", async () => {
    const cases: Array<[string, (body: Record<string, unknown>) => Reply, string]> = [
      ["refusal", () => ({ status: 200, json: refusal("I can't help with evaluating this.") }), "refusal"],
      ["5xx", () => ({ status: 503, json: { error: { message: "overloaded", type: "server_error" } } }), "provider_outage"],
      ["timeout", () => "hang", "timeout"],
      ["not JSON", () => ({ status: 200, json: textResponse("The assistant did fine, pass.") }), "malformed_json"],
      ["schema", () => ({ status: 200, json: verdict({ ...PASS, severity_score: 0.3, task_completed: true }) }), "schema_mismatch"],
      ["4xx", () => ({ status: 404, json: { error: { message: "The model `nope` does not exist", type: "invalid_request_error" } } }), "provider_rejected"],
      ["429", () => ({ status: 429, json: { error: { message: "slow down", type: "rate_limit" } } }), "rate_limited"],
      ["incomplete", () => ({ status: 200, json: textResponse('{"verdict":"pa', { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } }) }), "incomplete_reply"],
    ];
    const seenReasons: string[] = [];
    for (const [label, answer, reason] of cases) {
      server = await startJudgeServer(answer);
      const [tu] = semanticVerifiers({ judge: { endpoint: server.endpoint, max_retries: 0, timeout_ms: label === "timeout" ? 300 : 10_000 }, clauses: [taskUnderstanding] });
      const v = await tu!.assess({ record, scenario });
      expect(v.status, label).toBe("inconclusive");
      expect(v.score, label).toBeNull();
      expect(v.judge!.reason, label).toBe(reason);
      expect(v.rationale.startsWith(`inconclusive (${reason}): `), label).toBe(true);
      seenReasons.push(v.judge!.reason!);
      await server.close();
      server = undefined;
    }
    expect(new Set(seenReasons).size).toBe(cases.length);
  });

  it("treats the judge's own not_applicable / insufficient_evidence answers and a contradictory task decision as inconclusive", async () => {
    const answers: Array<[Record<string, unknown>, string]> = [
      [{ verdict: "not_applicable", severity_score: 1, rationale: "nothing to judge", cited_evidence_ids: [], task_completed: false }, "judge_not_applicable"],
      [{ verdict: "insufficient_evidence", severity_score: 0, rationale: "no confirmation heard", cited_evidence_ids: ["utt.user.1"], task_completed: false }, "insufficient_evidence"],
      [{ ...PASS, task_completed: false }, "contradictory_reply"],
    ];
    for (const [reply, reason] of answers) {
      server = await startJudgeServer(() => ({ status: 200, json: verdict(reply) }));
      const [tu] = semanticVerifiers({ judge: { endpoint: server.endpoint, max_retries: 0 }, clauses: [taskUnderstanding] });
      const v = await tu!.assess({ record, scenario });
      expect(v).toMatchObject({ status: "inconclusive", score: null });
      expect(v.judge!.reason).toBe(reason);
      await server.close();
      server = undefined;
    }
  });

  it("a fault after the judge answered (here a price table that throws when read) is a verifier error, not a crash", async () => {
    const prices = new Proxy({}, {
      ownKeys() {
        throw new Error("price table unreadable");
      },
    }) as SemanticVerifierOptions["prices"];
    const a = await judged(everyClause(PASS), { prices });
    expect(a.task_understanding).toMatchObject({ status: "error", score: null, evidence_ids: [] });
    expect(a.task_understanding!.rationale).toBe("verifier error in clause task_understanding 1.0 (judge): price table unreadable");
  });

  it("turns a broken evidence selector into a verifier error, not model uncertainty, and calls no judge", async () => {
    const throwing = defineClause({
      id: "policy_relay",
      version: "2.1",
      text: "Relays the cancellation policy.",
      applies: () => true,
      select: () => {
        throw new Error("selector bug: cannot read 'policy'");
      },
    });
    const unknownId = defineClause({ id: "phantom", version: "1.0", text: "x", applies: () => true, select: (c) => [c.items[0]!.id, "utt.assistant.42"] });
    const notAList = defineClause({ id: "not_a_list", version: "1.0", text: "x", applies: () => true, select: () => "utt.user.1" as unknown as string[] });
    const a = await judged(everyClause(PASS), { clauses: [throwing, unknownId, notAList] });
    expect(a.policy_relay).toMatchObject({ verifier: "semantic.policy_relay", version: "2.1", status: "error", score: null, evidence_ids: [] });
    expect(a.policy_relay!.rationale).toBe("verifier error in clause policy_relay 2.1 (evidence selection): selector bug: cannot read 'policy'");
    expect(a.phantom!.status).toBe("error");
    expect(a.phantom!.rationale).toMatch(/not in the evidence catalog: "utt\.assistant\.42"/);
    expect(a.not_a_list!.status).toBe("error");
    expect(server!.seen).toHaveLength(0);
    expect(semanticQuality(Object.values(a))).toEqual({ score: null, dimensions: { policy_relay: null, phantom: null, not_a_list: null } });
  });

  it("settles a split vote of repetitions as inconclusive, and a majority with the mean score", async () => {
    const fail = { verdict: "fail", severity_score: 0, rationale: "wrong date", cited_evidence_ids: ["utt.assistant.2"], task_completed: false };
    const pass75 = { ...PASS, severity_score: 0.75, task_completed: true };
    // Two repetitions, one pass and one fail: a tie.
    server = await startJudgeServer((_b, n) => ({ status: 200, json: verdict(n === 0 ? { ...PASS, task_completed: true } : fail) }));
    let [tu] = semanticVerifiers({ judge: { endpoint: server.endpoint, repetitions: 2, max_retries: 0 }, clauses: [taskUnderstanding] });
    let v = await tu!.assess({ record, scenario });
    expect(v).toMatchObject({ status: "inconclusive", score: null, evidence_ids: [] });
    expect(v.judge!.reason).toBe("split_vote");
    expect(v.rationale).toBe("inconclusive (split_vote): judge repetitions split: 1 pass, 1 fail, 0 inconclusive");
    expect(v.judge!.votes.map((x) => x.outcome).sort()).toEqual(["fail", "pass"]);
    expect(v.judge!.settings.repetitions).toBe(2);
    expect(v.judge!.tokens.total).toBe(2 * 1350);
    expect(server.seen).toHaveLength(2);
    await server.close();

    // Three repetitions: pass 1, pass 0.75, fail 0 -> passed, mean score over all substantive votes.
    const replies = [{ ...PASS, task_completed: true }, pass75, fail];
    server = await startJudgeServer((_b, n) => ({ status: 200, json: verdict(replies[n]!) }));
    [tu] = semanticVerifiers({ judge: { endpoint: server.endpoint, repetitions: 3, max_retries: 0 }, clauses: [taskUnderstanding] });
    v = await tu!.assess({ record, scenario });
    expect(v.status).toBe("passed");
    expect(v.score).toBeCloseTo((1 + 0.75 + 0) / 3, 12);
    expect(v.rationale.startsWith("2 of 3 judge repetitions voted pass: ")).toBe(true);
    expect(v.judge!.task_completed).toBe(true);
    expect(v.evidence_ids).toEqual(["utt.assistant.2", "tool.call_1"]);
  });

  it("runs one trial's clause calls in parallel (the server answers only once both are open)", async () => {
    const a = await judged(everyClause(PASS), {}, 2);
    expect(a.task_understanding!.status).toBe("passed");
    expect(a.grounded_communication!.status).toBe("passed");
  });

  it("counts calls against the trial's provider-request budget; calls past it are inconclusive without a request", async () => {
    let left = 1;
    const a = await judged(everyClause(PASS), {
      request_budget: () => () => {
        if (left-- <= 0) throw new Error("provider_requests limit of the trial reached");
      },
    });
    expect(a.task_understanding!.status).toBe("passed");
    expect(a.grounded_communication).toMatchObject({ status: "inconclusive" });
    expect(a.grounded_communication!.judge!.reason).toBe("request_limit");
    expect(a.grounded_communication!.judge!.cost_usd).toBe(0);
    expect(server!.seen).toHaveLength(1);
    expect(judgeUsageTotals(Object.values(a)).requests).toBe(1);

    // The default budget continues the record's own count up to its limit.
    const budget = trialRequestBudget({ limits: { config: { ...record.limits.config, provider_requests: 3 }, usage: { ...record.limits.usage, provider_requests: 2 } } });
    budget();
    expect(() => budget()).toThrow("the trial's provider-request limit (3) is used up (3 request(s) made)");
  });

  it("records applicable dimensions as not assessed offline, with null scores", async () => {
    const verifiers = semanticVerifiers({ judge: null, required: ["task_understanding"] });
    expect(verifiers.map((v) => [v.id, v.required])).toEqual([
      ["semantic.task_understanding", true],
      ["semantic.context_fidelity", false],
      ["semantic.clarification_quality", false],
      ["semantic.grounded_communication", false],
      ["semantic.conversational_coherence", false],
    ]);
    const a = await assessAll(verifiers, record);
    expect(a.task_understanding).toMatchObject({ status: "not_run", score: null, rationale: NOT_ASSESSED_RATIONALE, required: true });
    expect(a.task_understanding!.judge).toBeUndefined();
    expect(a.grounded_communication).toMatchObject({ status: "not_run", score: null });
    expect(a.context_fidelity!.status).toBe("not_applicable");
    expect(semanticQuality(Object.values(a))).toEqual({ score: null, dimensions: { task_understanding: null, grounded_communication: null } });
    expect(taskUnderstandingOutcome(Object.values(a))).toBeUndefined();
    expect(judgeUsageTotals(Object.values(a))).toMatchObject({ judged: 0, requests: 0, cost_usd: null });
  });

  it("rejects configurations a user got wrong, saying what to fix", () => {
    expect(() => semanticVerifiers({ judge: null, required: ["task_understandin"] })).toThrow(/required semantic criterion "task_understandin" is not a clause; clauses: task_understanding, context_fidelity/);
    expect(() => semanticVerifiers({ judge: {} })).toThrow(/needs an OpenAI API key/);
    expect(() => semanticVerifiers({ judge: { api_key: "k", repetitions: 0 } })).toThrow(/--judge-repetitions/);
    expect(() => semanticVerifiers({ judge: { api_key: "k", reasoning_effort: "huge" as never } })).toThrow(/--judge-reasoning-effort/);
    expect(() => semanticVerifiers({ judge: { endpoint: "localhost:8080" } })).toThrow(/--judge-endpoint/);
    expect(() => semanticVerifiers({ judge: null, clauses: [taskUnderstanding, taskUnderstanding] })).toThrow(/given twice/);
    expect(() => semanticVerifiers({ judge: null, facts: { "opening hours": "11-22" } })).toThrow(/fact key "opening hours"/);
    expect(BUILTIN_CLAUSES).toHaveLength(5);
  });
});

describe("vote aggregation", () => {
  const vote = (outcome: JudgeVote["outcome"], score: number | null, reason: JudgeVote["reason"] = null): JudgeVote => ({
    outcome,
    reason,
    score,
    rationale: `${outcome} ${reason ?? ""}`.trim(),
    cited: outcome === "inconclusive" ? [] : ["utt.assistant.1"],
    task_completed: null,
    latency_ms: 5,
    tokens: NO_TOKENS,
    model: "m",
    response_id: "r",
  });

  it("lets an inconclusive plurality win with its most frequent reason, and ties between any outcomes split", () => {
    expect(aggregateVotes([vote("inconclusive", null, "timeout"), vote("inconclusive", null, "refusal"), vote("inconclusive", null, "timeout"), vote("pass", 1)], 9)).toMatchObject({
      outcome: "inconclusive",
      reason: "timeout",
      score: null,
    });
    expect(aggregateVotes([vote("pass", 1), vote("inconclusive", null, "timeout")], 9)).toMatchObject({ outcome: "inconclusive", reason: "split_vote" });
    expect(aggregateVotes([vote("fail", 0.5), vote("fail", 0), vote("pass", 1)], 9)).toMatchObject({ outcome: "fail", score: 0.5, cited: ["utt.assistant.1"] });
  });
});
