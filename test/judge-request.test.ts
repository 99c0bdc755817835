import { afterEach, describe, expect, it } from "vitest";
import { RESTAURANT_FACTS } from "../examples/restaurant/facts";
import { contextFidelity, groundedCommunication, taskUnderstanding } from "../src/core/judge/clauses";
import { EVIDENCE_HEADING, JUDGE_INSTRUCTIONS, SUCCESS_CRITERIA_HEADING } from "../src/core/judge/judge";
import { semanticVerifiers } from "../src/core/judge/verifiers";
import { clauseOf, restaurantRecords, scenarioOf, startJudgeServer, verdict, type JudgeServer } from "./judge-fixtures";

/**
 * Exactly what one judge request holds: the clause, the success criteria labelled as the evaluator's
 * rubric, and the clause's evidence items, which are observed trial data, the target's given context and
 * public facts only. The record is a real offline trial of harbor_013 (cancel with a context summary).
 */
let server: JudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("one judge request", () => {
  it("holds the clause, the labelled success criteria and only the clause's observed evidence", async () => {
    const [record] = await restaurantRecords("harbor_013");
    const scenario = scenarioOf("harbor_013");
    server = await startJudgeServer((body) => ({
      status: 200,
      json: verdict({
        verdict: "pass",
        severity_score: 1,
        rationale: "Used the verified summary (context.summary) and cancelled R-1001 (tool.call_1).",
        // grounded_communication is not shown the context, so it may not cite it.
        cited_evidence_ids: clauseOf(body) === "grounded_communication" ? ["tool.call_1"] : ["context.summary", "tool.call_1"],
        ...(clauseOf(body) === "task_understanding" ? { task_completed: true } : {}),
      }),
    }));
    const verifiers = semanticVerifiers({
      judge: { endpoint: server.endpoint, api_key: "sk-judge-test", reasoning_effort: "low", max_retries: 0 },
      clauses: [taskUnderstanding, contextFidelity, groundedCommunication],
      facts: RESTAURANT_FACTS,
    });
    for (const v of verifiers) expect((await v.assess({ record: record!, scenario })).status).toBe("passed");
    expect(server.seen.map((s) => clauseOf(s.body)).sort()).toEqual(["context_fidelity", "grounded_communication", "task_understanding"]);

    const body = server.seen.find((s) => clauseOf(s.body) === "context_fidelity")!.body;
    expect(Object.keys(body).sort()).toEqual(["input", "instructions", "model", "reasoning", "store", "text"]);
    expect(body).toMatchObject({ model: "gpt-5.6-terra", instructions: JUDGE_INSTRUCTIONS, reasoning: { effort: "low" }, store: false });
    expect(body.temperature).toBeUndefined();
    const content = (body.input as Array<{ role: string; content: string }>)[0]!;
    expect(body.input).toHaveLength(1);
    expect(content.role).toBe("user");
    expect(content.content.split("\n")).toEqual([
      "BEHAVIOR CLAUSE",
      "id: context_fidelity",
      "version: 1.0",
      `text: ${contextFidelity.text}`,
      "",
      SUCCESS_CRITERIA_HEADING,
      "expected answer: Confirm that reservation R-1001 is cancelled.",
      "criteria:",
      "- Cancels R-1001 only after checking it is authorized",
      "- Confirms only after cancel_reservation succeeded",
      "",
      EVIDENCE_HEADING,
      '{"id":"context.summary","kind":"context_summary","text":"Verified caller Maya; authorized reservations: R-1001."}',
      '{"id":"utt.user.1","kind":"utterance","role":"user","text":"Please cancel my reservation R-1001.","start_ms":0,"end_ms":1500}',
      '{"id":"utt.assistant.1","kind":"utterance","role":"assistant","text":"One moment while I cancel that.","start_ms":1900,"end_ms":3700}',
      '{"id":"utt.assistant.2","kind":"utterance","role":"assistant","text":"Reservation R-1001 is now cancelled.","start_ms":4300,"end_ms":5800}',
      '{"id":"tool.call_1","kind":"tool_call","call_id":"call_1","name":"cancel_reservation","arguments":{"reservation_id":"R-1001"},"status":"completed","output":{"reservation_id":"R-1001","status":"cancelled"},"error":null,"requested_ms":2150,"completed_ms":2150,"delegation_id":"del_1"}',
      '{"id":"state.diff.1","kind":"state_change","op":"replace","path":"/reservations/R-1001/status","value":"cancelled"}',
    ]);
    expect(SUCCESS_CRITERIA_HEADING).toMatch(/^SUCCESS CRITERIA \(evaluator rubric/);
    // The reply format: strict JSON schema; no task_completed outside task_understanding.
    const format = (body.text as { format: { type: string; name: string; strict: boolean; schema: { required: string[]; properties: Record<string, unknown>; additionalProperties: boolean } } }).format;
    expect(format).toMatchObject({ type: "json_schema", name: "judge_verdict", strict: true });
    expect(format.schema.required).toEqual(["verdict", "severity_score", "rationale", "cited_evidence_ids"]);
    expect(format.schema.additionalProperties).toBe(false);
    expect(format.schema.properties.severity_score).toEqual({ type: "number", enum: [0, 0.25, 0.5, 0.75, 1] });
    const tuFormat = (server.seen.find((s) => clauseOf(s.body) === "task_understanding")!.body.text as typeof body.text & { format: { schema: { required: string[] } } }).format;
    expect(tuFormat.schema.required).toContain("task_completed");
  });

  it("hands task_understanding the whole catalog: observed kinds and public facts, no evaluator data", async () => {
    const [record] = await restaurantRecords("harbor_013");
    const scenario = scenarioOf("harbor_013");
    server = await startJudgeServer(() => ({ status: 200, json: verdict({ verdict: "pass", severity_score: 1, rationale: "ok", cited_evidence_ids: ["tool.call_1"], task_completed: true }) }));
    const [tu] = semanticVerifiers({ judge: { endpoint: server.endpoint, max_retries: 0 }, clauses: [taskUnderstanding], facts: RESTAURANT_FACTS });
    const v = await tu!.assess({ record: record!, scenario });
    const content = String((server.seen[0]!.body.input as Array<{ content: string }>)[0]!.content);
    const evidence = content.slice(content.indexOf(EVIDENCE_HEADING) + EVIDENCE_HEADING.length).trim().split("\n").map((line) => JSON.parse(line) as { id: string; kind: string });
    expect(evidence.map((i) => i.id)).toEqual([
      "context.summary",
      "utt.user.1",
      "utt.assistant.1",
      "utt.assistant.2",
      "delegation.del_1",
      "tool.call_1",
      "world.event.1",
      "state.diff.1",
      "fact.name",
      "fact.address",
      "fact.phone",
      "fact.hours",
      "fact.days",
      "fact.parking",
      "fact.seating",
      "fact.booking_year",
    ]);
    expect(v.judge!.offered_evidence_ids).toEqual(evidence.map((i) => i.id));
    expect(new Set(evidence.map((i) => i.kind))).toEqual(new Set(["context_summary", "utterance", "delegation", "tool_call", "world_event", "state_change", "fact"]));
    expect(evidence.find((i) => i.id === "fact.hours")).toEqual({ id: "fact.hours", kind: "fact", key: "hours", value: { open: "11:00", close: "22:00" } });
    // Evaluator-only data appears in the labelled criteria section only, never in the evidence.
    const evidenceText = JSON.stringify(evidence);
    const expected = scenario.expected;
    for (const secret of [expected.answer, ...expected.criteria, ...(expected.golden_path?.steps ?? []), "cancelled_reservation_id", "reservation_count", "golden_path", "expected"])
      expect(evidenceText, secret).not.toContain(secret);
    expect(content.indexOf(expected.answer)).toBeGreaterThan(content.indexOf(SUCCESS_CRITERIA_HEADING));
    expect(content.indexOf(expected.answer)).toBeLessThan(content.indexOf(EVIDENCE_HEADING));
  });
});
