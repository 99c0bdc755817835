import { describe, expect, it } from "vitest";
import { defineClause, groundedCommunication, taskUnderstanding } from "../src/core/judge/clauses";
import { aggregateVotes, interpretReply, type JudgeVote } from "../src/core/judge/judge";
import { judgeUsageTotals, semanticQuality, semanticVerifiers, taskUnderstandingOutcome } from "../src/core/judge/verifiers";
import type { Assessment } from "../src/core/record/assessment";
import type { VerifierInput } from "../src/core/verify/verifier";

/**
 * How one judge reply becomes a vote, and votes a verdict (docs/verifiers-and-clauses.md), on replies written out by hand: which
 * replies count, which are inconclusive and why, and what each says. The judge's catalog offered two ids.
 */
const offered = new Set(["utt.assistant.1", "tool.c1"]);
const reply = (fields: Record<string, unknown>) =>
  JSON.stringify({ verdict: "pass", severity_score: 1, rationale: "Confirmed after the tool.", cited_evidence_ids: ["utt.assistant.1"], ...fields });

describe("a judge reply becomes a vote", () => {
  it("a pass citing offered ids is a vote with its score, rationale and citations (each once)", () => {
    expect(interpretReply(reply({ cited_evidence_ids: ["utt.assistant.1", "tool.c1", "utt.assistant.1"] }), groundedCommunication, offered)).toEqual({
      outcome: "pass",
      reason: null,
      score: 1,
      rationale: "Confirmed after the tool.",
      cited: ["utt.assistant.1", "tool.c1"],
      task_completed: null,
    });
    expect(interpretReply(reply({ verdict: "fail", severity_score: 0.25, rationale: "Never confirmed." }), groundedCommunication, offered)).toMatchObject({
      outcome: "fail",
      reason: null,
      score: 0.25,
      rationale: "Never confirmed.",
    });
  });

  it("a reply that is not JSON quotes its first 200 characters", () => {
    const long = `Sure! ${"x".repeat(300)}`;
    const vote = interpretReply(long, groundedCommunication, offered);
    expect(vote).toMatchObject({ outcome: "inconclusive", reason: "malformed_json", score: null, cited: [], task_completed: null });
    expect(vote.rationale).toBe(`the judge's reply is not JSON: ${JSON.stringify(long.slice(0, 200))}`);
  });

  it("a reply outside the schema names the first field that is wrong, or the root", () => {
    expect(interpretReply(reply({ severity_score: 0.3 }), groundedCommunication, offered)).toMatchObject({ reason: "schema_mismatch" });
    expect(interpretReply(reply({ severity_score: 0.3 }), groundedCommunication, offered).rationale).toMatch(/^the judge's reply does not match the verdict schema: severity_score: /);
    expect(interpretReply("[]", groundedCommunication, offered).rationale).toMatch(/^the judge's reply does not match the verdict schema: \(root\): /);
    expect(interpretReply(reply({ cited_evidence_ids: ["tool.c1", 7] }), groundedCommunication, offered).rationale).toMatch(/^the judge's reply does not match the verdict schema: cited_evidence_ids\.1: /);
    // task_understanding must say whether the task completed.
    expect(interpretReply(reply({}), taskUnderstanding, offered).rationale).toMatch(/^the judge's reply does not match the verdict schema: task_completed: /);
  });

  it("the judge's own not_applicable and insufficient_evidence are inconclusive, keeping the ids it cited", () => {
    expect(interpretReply(reply({ verdict: "not_applicable", rationale: "No tool ran." }), groundedCommunication, offered)).toMatchObject({
      outcome: "inconclusive",
      reason: "judge_not_applicable",
      score: null,
      rationale: "the judge found the clause not applicable: No tool ran.",
      cited: ["utt.assistant.1"],
      task_completed: null,
    });
    expect(interpretReply(reply({ verdict: "insufficient_evidence", rationale: "Audio only.", cited_evidence_ids: [] }), groundedCommunication, offered)).toMatchObject({
      outcome: "inconclusive",
      reason: "insufficient_evidence",
      score: null,
      rationale: "the judge found the evidence insufficient: Audio only.",
      cited: [],
      task_completed: null,
    });
  });

  it("a verdict without citations, or citing ids it was not given, is inconclusive and says which", () => {
    expect(interpretReply(reply({ cited_evidence_ids: [] }), groundedCommunication, offered)).toMatchObject({
      outcome: "inconclusive",
      reason: "no_citations",
      rationale: 'the judge answered "pass" without citing evidence: Confirmed after the tool.',
      cited: [],
    });
    expect(interpretReply(reply({ verdict: "fail", severity_score: 0, cited_evidence_ids: ["tool.c1", "utt.user.9", "fact.hours"] }), groundedCommunication, offered)).toMatchObject({
      outcome: "inconclusive",
      reason: "unknown_citations",
      score: null,
      rationale: 'the judge answered "fail" citing id(s) not in the evidence it was given: utt.user.9, fact.hours',
      cited: ["tool.c1"],
      task_completed: null,
    });
  });

  it("task_understanding: the task decision must agree with the verdict, and is kept only for that clause", () => {
    expect(interpretReply(reply({ task_completed: true }), taskUnderstanding, offered)).toMatchObject({ outcome: "pass", task_completed: true });
    expect(interpretReply(reply({ verdict: "fail", severity_score: 0, task_completed: false }), taskUnderstanding, offered)).toMatchObject({ outcome: "fail", task_completed: false });
    expect(interpretReply(reply({ task_completed: false }), taskUnderstanding, offered)).toMatchObject({
      outcome: "inconclusive",
      reason: "contradictory_reply",
      rationale: 'the judge answered "pass" but task_completed=false',
      task_completed: false,
    });
    expect(interpretReply(reply({ verdict: "fail", severity_score: 0, task_completed: true }), taskUnderstanding, offered)).toMatchObject({
      reason: "contradictory_reply",
      rationale: 'the judge answered "fail" but task_completed=true',
    });
  });
});

describe("votes become a verdict", () => {
  const vote = (outcome: JudgeVote["outcome"], over: Partial<JudgeVote> = {}): JudgeVote => ({
    outcome,
    reason: outcome === "inconclusive" ? "timeout" : null,
    score: outcome === "inconclusive" ? null : outcome === "pass" ? 1 : 0,
    rationale: `${outcome} rationale`,
    cited: outcome === "inconclusive" ? [] : ["utt.assistant.1"],
    task_completed: null,
    latency_ms: 5,
    tokens: { input: 100, cached: 10, cache_write: 0, output: 20, reasoning: 5, total: 120 },
    model: "judge-model",
    response_id: "r",
    ...over,
  });

  it("one vote is the verdict as it stands, with its tokens and model", () => {
    expect(aggregateVotes([vote("pass", { task_completed: true })], 42)).toEqual({
      votes: [vote("pass", { task_completed: true })],
      latency_ms: 42,
      tokens: { input: 100, cached: 10, cache_write: 0, output: 20, reasoning: 5, total: 120 },
      observed_models: ["judge-model"],
      outcome: "pass",
      reason: null,
      score: 1,
      rationale: "pass rationale",
      cited: ["utt.assistant.1"],
      task_completed: true,
    });
  });

  it("a majority wins: its share prefixes the first winner's rationale, the score is the mean of all scored votes, citations are merged", () => {
    const votes = [vote("fail", { score: 0.5, cited: ["tool.c1"] }), vote("pass", { score: 1, model: null }), vote("fail", { score: 0, rationale: "second fail", cited: ["tool.c1", "utt.assistant.1"] })];
    const j = aggregateVotes(votes, 9);
    expect(j).toMatchObject({ outcome: "fail", reason: null, rationale: "2 of 3 judge repetitions voted fail: fail rationale", cited: ["tool.c1", "utt.assistant.1"], task_completed: null });
    expect(j.score).toBeCloseTo(0.5, 12);
    expect(j.observed_models).toEqual(["judge-model"]);
    expect(j.tokens).toEqual({ input: 300, cached: 30, cache_write: 0, output: 60, reasoning: 15, total: 360 });
    // An inconclusive vote has no score: the mean is over the scored votes only.
    expect(aggregateVotes([vote("fail", { score: 0.5 }), vote("inconclusive"), vote("fail", { score: 0 })], 9).score).toBeCloseTo(0.25, 12);
  });

  it("a tie is a split vote naming the count of each outcome", () => {
    expect(aggregateVotes([vote("pass"), vote("fail")], 9)).toMatchObject({
      outcome: "inconclusive",
      reason: "split_vote",
      score: null,
      rationale: "judge repetitions split: 1 pass, 1 fail, 0 inconclusive",
      cited: [],
      task_completed: null,
    });
  });

  it("an inconclusive majority keeps its most frequent reason, that vote's rationale and the ids it cited", () => {
    const votes = [
      vote("inconclusive", { reason: "refusal", rationale: "refused" }),
      vote("inconclusive", { reason: "unknown_citations", rationale: "cited utt.user.9", cited: ["tool.c1"] }),
      vote("inconclusive", { reason: "unknown_citations", rationale: "cited fact.x", cited: ["utt.assistant.1"] }),
      vote("pass"),
    ];
    expect(aggregateVotes(votes, 9)).toMatchObject({
      outcome: "inconclusive",
      reason: "unknown_citations",
      score: null,
      rationale: "3 of 4 judge repetitions inconclusive: cited utt.user.9",
      cited: ["tool.c1", "utt.assistant.1"],
      task_completed: null,
    });
    // Equally frequent reasons: the first one seen wins.
    expect(aggregateVotes([vote("inconclusive", { reason: "refusal", rationale: "refused" }), vote("inconclusive", { reason: "timeout" })], 9)).toMatchObject({
      reason: "refusal",
      rationale: "2 of 2 judge repetitions inconclusive: refused",
    });
  });
});

describe("semantic verifiers: configuration, applicability and the run's totals", () => {
  const clause = (id: string, applies: () => boolean | string) => defineClause({ id, version: "2.1", text: `Clause ${id}.`, applies, select: () => [] });
  const noBudget = () => () => {};
  const input = { record: {}, scenario: {} } as unknown as VerifierInput;

  it("one verifier per clause, required when listed with or without the semantic. prefix", () => {
    const verifiers = semanticVerifiers({ judge: null, clauses: [clause("alpha", () => true), clause("beta", () => true), clause("gamma", () => true)], required: ["semantic.alpha", "beta"] });
    expect(verifiers.map((v) => [v.id, v.version, v.kind, v.required, v.description, v.clause])).toEqual([
      ["semantic.alpha", "2.1", "semantic", true, "semantic judge (docs/verifiers-and-clauses.md): Clause alpha.", { id: "alpha", version: "2.1" }],
      ["semantic.beta", "2.1", "semantic", true, "semantic judge (docs/verifiers-and-clauses.md): Clause beta.", { id: "beta", version: "2.1" }],
      ["semantic.gamma", "2.1", "semantic", false, "semantic judge (docs/verifiers-and-clauses.md): Clause gamma.", { id: "gamma", version: "2.1" }],
    ]);
    expect(() => semanticVerifiers({ judge: null, clauses: [clause("alpha", () => true)], required: ["alpha.semantic"] })).toThrow('required semantic criterion "alpha.semantic" is not a clause; clauses: alpha');
  });

  it("a clause that does not apply says why (its own reason, or a default); one that applies is not assessed offline", async () => {
    const verifiers = semanticVerifiers({
      judge: null,
      clauses: [clause("silent", () => false), clause("reasoned", () => "no tool ran"), clause("applies", () => true)],
      request_budget: noBudget,
    });
    expect(await Promise.all(verifiers.map((v) => v.assess(input)))).toEqual([
      { status: "not_applicable", score: null, rationale: "clause silent does not apply", evidence_ids: [] },
      { status: "not_applicable", score: null, rationale: "no tool ran", evidence_ids: [] },
      { status: "not_run", score: null, rationale: "not assessed: offline run without --judge", evidence_ids: [] },
    ]);
  });

  it("an applicability rule that throws is a verifier error naming the clause, its version and the stage", async () => {
    const verifiers = semanticVerifiers({
      judge: null,
      clauses: [
        clause("broken", () => {
          throw new Error("record.turns is undefined");
        }),
        clause("thrower", () => {
          throw "a string"; // a package may throw anything, not only an Error
        }),
      ],
      request_budget: noBudget,
    });
    expect(await Promise.all(verifiers.map((v) => v.assess(input)))).toEqual([
      { status: "error", score: null, rationale: "verifier error in clause broken 2.1 (applicability rule): record.turns is undefined", evidence_ids: [] },
      { status: "error", score: null, rationale: "verifier error in clause thrower 2.1 (applicability rule): a string", evidence_ids: [] },
    ]);
  });

  it("a record the evidence catalog cannot be built from is a verifier error for every applicable clause, and the judge is never called", async () => {
    // Port 9 (discard) on loopback: nothing answers there, and nothing must be asked.
    const verifiers = semanticVerifiers({
      judge: { endpoint: "http://127.0.0.1:9/v1", api_key: "", max_retries: 0, timeout_ms: 1000 },
      clauses: [clause("first", () => true), clause("second", () => true)],
      request_budget: noBudget,
    });
    const verdicts = await Promise.all(verifiers.map((v) => v.assess(input)));
    expect(verdicts.map((v) => v.status)).toEqual(["error", "error"]);
    expect(verdicts[0]!.rationale).toMatch(/^verifier error in clause first 2\.1 \(evidence selection\): evidence catalog could not be built: /);
    expect(verdicts[1]!.rationale).toMatch(/^verifier error in clause second 2\.1 \(evidence selection\): evidence catalog could not be built: /);
  });

  it("semantic quality: the mean of the scored applicable semantic dimensions", () => {
    const a = (verifier: string, status: Assessment["status"], score: number | null, kind: "semantic" | "deterministic" = "semantic") => ({ verifier, kind, status, score });
    expect(
      semanticQuality([
        a("semantic.alpha", "passed", 1),
        a("semantic.beta", "failed", 0.5),
        a("semantic.gamma", "inconclusive", 0.25), // no verdict: no score
        a("semantic.delta", "not_applicable", 0), //  left out
        a("semantic.epsilon", "failed", null),
        a("semantic.zeta", "passed", 0, "deterministic"), // not a semantic assessment
        a("custom.eta", "passed", 0), //                  not a semantic verifier
      ]),
    ).toEqual({ score: 0.75, dimensions: { alpha: 1, beta: 0.5, gamma: null, epsilon: null } });
    expect(semanticQuality([a("semantic.alpha", "not_run", null)])).toEqual({ score: null, dimensions: { alpha: null } });
  });

  it("task understanding's outcome for the semantic_outcome check: undefined unless a judge decided; an error is inconclusive", () => {
    const tu = (status: Assessment["status"]) => taskUnderstandingOutcome([{ verifier: "semantic.context_fidelity", status: "failed" }, { verifier: "semantic.task_understanding", status }]);
    expect([tu("passed"), tu("failed"), tu("inconclusive"), tu("error"), tu("not_run"), tu("not_applicable")]).toEqual(["passed", "failed", "inconclusive", "inconclusive", undefined, undefined]);
    expect(taskUnderstandingOutcome([{ verifier: "semantic.context_fidelity", status: "failed" }])).toBeUndefined();
  });

  it("the run's judge totals: requests that reached the provider, summed latency, tokens and cost, unpriced models counted", () => {
    const judged = (latency_ms: number, cost_usd: number | null, reasons: Array<string | null>) =>
      ({
        judge: {
          latency_ms,
          cost_usd,
          tokens: { input: 10, cached: 1, cache_write: 0, output: 5, reasoning: 2, total: 15 },
          votes: reasons.map((reason) => ({ outcome: reason ? "inconclusive" : "pass", reason, score: null, latency_ms: 1, response_id: null })),
        },
      }) as unknown as Pick<Assessment, "judge">;
    expect(judgeUsageTotals([judged(100, 0.5, [null, "timeout", "request_limit"]), {}, judged(50, null, ["no_evidence"]), judged(7, 0.25, [null])])).toEqual({
      judged: 3,
      requests: 3,
      latency_ms: 157,
      tokens: { input: 30, cached: 3, cache_write: 0, output: 15, reasoning: 6, total: 45 },
      cost_usd: 0.75,
      unpriced: 1,
    });
    expect(judgeUsageTotals([{}])).toMatchObject({ judged: 0, cost_usd: null, unpriced: 0 });
  });
});
