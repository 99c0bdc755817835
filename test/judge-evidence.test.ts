import { beforeAll, describe, expect, it } from "vitest";
import { RESTAURANT_FACTS } from "../examples/restaurant/facts";
import {
  BUILTIN_CLAUSES,
  ClauseError,
  clarificationQuality,
  contextFidelity,
  conversationalCoherence,
  correctionWords,
  defineClause,
  groundedCommunication,
  taskUnderstanding,
  type BehaviorClause,
} from "../src/core/judge/clauses";
import { buildEvidenceCatalog, catalogIndex, EvidenceCatalog, EvidenceError, evidenceLine, FactsError, MAX_EVIDENCE_VALUE_CHARS, validateFacts } from "../src/core/judge/evidence";
import type { Scenario } from "../src/core/dataset/schema";
import type { TrialRecord } from "../src/core/record/trial-record";
import { restaurantRecords, scenarioOf } from "./judge-fixtures";

/** The evidence catalog and the clauses' applicability and selection, over real offline restaurant trials. */
let booking: TrialRecord;
let cancel: TrialRecord;
beforeAll(async () => {
  [booking, cancel] = await restaurantRecords("harbor_001", "harbor_013");
});

describe("evidence catalog", () => {
  it("numbers utterances per role and gives tools, world events and state changes their stable ids", () => {
    const catalog = buildEvidenceCatalog(booking);
    expect(catalog.items.map((i) => i.id)).toEqual(["utt.user.1", "utt.assistant.1", "utt.assistant.2", "delegation.del_1", "tool.call_1", "world.event.1", "state.diff.1"]);
    // The same ids the deterministic checks cite.
    const cited = new Set([...booking.checks.flatMap((c) => c.evidence_ids), ...Object.values(booking.dimensions).flatMap((d) => d.evidence_ids)]);
    for (const id of cited) expect(catalogIndex(catalog).has(id), id).toBe(true);
    const index = catalogIndex(catalog);
    expect(index.get("utt.assistant.2")).toEqual({ id: "utt.assistant.2", kind: "utterance", role: "assistant", text: booking.turns[2]!.text, start_ms: 7600, end_ms: 13300 });
    expect(index.get("tool.call_1")).toMatchObject({ kind: "tool_call", name: "create_reservation", status: "completed", arguments: { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 }, error: null, delegation_id: "del_1" });
    expect(index.get("world.event.1")).toMatchObject({ kind: "world_event", seq: 1, operation: "create_reservation", operation_kind: "write", outcome: "ok", call_id: "call_1" });
    expect(index.get("state.diff.1")).toMatchObject({ kind: "state_change", op: "add", path: expect.stringMatching(/^\/reservations\/R-/) });
    // Strict JSON: the catalog round-trips through JSON and its own schema, and building it is deterministic.
    expect(EvidenceCatalog.parse(JSON.parse(JSON.stringify(catalog)))).toEqual(catalog);
    expect(buildEvidenceCatalog(booking)).toEqual(catalog);
  });

  it("adds the target's given context and the package's public facts, and nothing of the evaluator's", () => {
    const scenario = scenarioOf("harbor_013");
    const catalog = buildEvidenceCatalog(cancel, { context: scenario.input.context, facts: RESTAURANT_FACTS });
    const index = catalogIndex(catalog);
    expect(index.get("context.summary")).toEqual({ id: "context.summary", kind: "context_summary", text: "Verified caller Maya; authorized reservations: R-1001." });
    expect(index.get("fact.phone")).toEqual({ id: "fact.phone", kind: "fact", key: "phone", value: "555-0142" });
    expect(index.get("fact.seating")).toEqual({ id: "fact.seating", kind: "fact", key: "seating", value: ["indoor", "outdoor", "patio", "bar"] });
    const text = JSON.stringify(catalog);
    for (const secret of [scenario.expected.answer, ...scenario.expected.criteria, ...(scenario.expected.golden_path?.steps ?? [])]) expect(text).not.toContain(secret);

    const history = buildEvidenceCatalog(booking, { context: { history: [{ role: "user", text: "Table for four under Maya." }, { role: "assistant", text: "Which date?" }] } });
    expect(history.items.slice(0, 2)).toEqual([
      { id: "context.history.1", kind: "context_history", role: "user", text: "Table for four under Maya." },
      { id: "context.history.2", kind: "context_history", role: "assistant", text: "Which date?" },
    ]);
  });

  it("keeps items small: an oversized value becomes a bounded preview", () => {
    const big = { ...booking, tool_executions: [{ ...booking.tool_executions[0]!, output: { menu: "x".repeat(10_000) } }] };
    const item = catalogIndex(buildEvidenceCatalog(big)).get("tool.call_1")!;
    expect(item).toMatchObject({ output: { truncated: true, characters: JSON.stringify({ menu: "x".repeat(10_000) }).length } });
    if (item.kind !== "tool_call") throw new Error("tool.call_1 is a tool call");
    expect((item.output as { preview: string }).preview.length).toBe(MAX_EVIDENCE_VALUE_CHARS);
  });

  it("reports unusable facts and broken recorded evidence as typed errors", () => {
    expect(() => validateFacts({ "opening hours": "11-22" })).toThrow(FactsError);
    expect(() => validateFacts({ hours: () => "11-22" })).toThrow(/fact "hours" is not plain JSON/);
    const broken = { ...booking, world: { ...booking.world, events: [{ seq: "one" }] } };
    expect(() => buildEvidenceCatalog(broken as unknown as TrialRecord)).toThrow(EvidenceError);
    const duplicate = { ...booking, tool_executions: [booking.tool_executions[0]!, booking.tool_executions[0]!] };
    expect(() => buildEvidenceCatalog(duplicate)).toThrow(/evidence id "tool.call_1" occurs twice/);
  });

  it("renders each item as one transcript-style line", () => {
    const index = catalogIndex(buildEvidenceCatalog(cancel, { context: scenarioOf("harbor_013").input.context, facts: { phone: "555-0142" } }));
    expect(evidenceLine(index.get("utt.user.1")!)).toBe("USER 0..1500ms: Please cancel my reservation R-1001.");
    expect(evidenceLine(index.get("delegation.del_1")!)).toMatch(/^DELEGATION \d+ms: target=(client|responses) id=del_1$/);
    expect(evidenceLine(index.get("tool.call_1")!)).toBe('TOOL 2150ms: name=cancel_reservation status=completed arguments={"reservation_id":"R-1001"} result={"reservation_id":"R-1001","status":"cancelled"}');
    expect(evidenceLine(index.get("world.event.1")!)).toBe("WORLD 2150ms: #1 cancel_reservation (write) ok call=call_1");
    expect(evidenceLine(index.get("state.diff.1")!)).toBe('STATE replace /reservations/R-1001/status = "cancelled"');
    expect(evidenceLine(index.get("fact.phone")!)).toBe('FACT phone = "555-0142"');
    expect(evidenceLine(index.get("context.summary")!)).toBe("CONTEXT summary: Verified caller Maya; authorized reservations: R-1001.");
  });
});

describe("behavior clauses", () => {
  const applicable = (s: Scenario) => BUILTIN_CLAUSES.filter((c) => c.applies(booking, s) === true).map((c) => c.id);

  it("apply by the rules on the bundled scenarios", () => {
    expect(applicable(scenarioOf("harbor_001"))).toEqual(["task_understanding", "grounded_communication"]);
    // A correction word in the request ("sorry", "actually", "no wait").
    for (const id of ["harbor_003", "harbor_005", "harbor_006"]) expect(applicable(scenarioOf(id)), id).toEqual(["task_understanding", "context_fidelity", "grounded_communication"]);
    // Context given.
    expect(applicable(scenarioOf("harbor_013"))).toEqual(["task_understanding", "context_fidelity", "grounded_communication"]);
    // A clarification scenario: nothing to ground, no tools expected.
    expect(applicable(scenarioOf("harbor_017"))).toEqual(["task_understanding", "clarification_quality"]);
    // An information question: only task understanding.
    expect(applicable(scenarioOf("harbor_024"))).toEqual(["task_understanding"]);
    expect(contextFidelity.applies(booking, scenarioOf("harbor_024"))).toBe("no context was given, the request contains no correction word, and the conversation is single-turn");

    const multi = { ...scenarioOf("harbor_024"), interaction: "multi_turn" as const };
    expect(applicable(multi)).toEqual(["task_understanding", "context_fidelity", "conversational_coherence"]);
    const procedure = { ...scenarioOf("harbor_024"), expected: { ...scenarioOf("harbor_024").expected, procedure: { id: "p", steps: [{ id: "ask", kind: "clarification" as const, after: [], required: true, critical: false }] } } };
    expect(applicable(procedure)).toEqual(["task_understanding", "clarification_quality"]);
  });

  it("find correction words as whole words, case and punctuation aside", () => {
    expect(correctionWords("Book a table for Elena on August 20 for two at 8, no wait, 8:30.")).toEqual(["no wait"]);
    expect(correctionWords("Sorry, ACTUALLY make that 8 p.m. instead")).toEqual(["sorry", "actually", "instead", "make that"]);
    expect(correctionWords("The sorrywise actuality of it")).toEqual([]);
  });

  it("select evidence by code: each clause sees only its kinds", () => {
    const catalog = buildEvidenceCatalog(cancel, { context: scenarioOf("harbor_013").input.context, facts: { phone: "555-0142" } });
    const scenario = scenarioOf("harbor_013");
    const select = (c: BehaviorClause) => c.select(catalog, cancel, scenario);
    expect(select(taskUnderstanding)).toEqual(catalog.items.map((i) => i.id));
    expect(select(contextFidelity)).toEqual(["context.summary", "utt.user.1", "utt.assistant.1", "utt.assistant.2", "tool.call_1", "state.diff.1"]);
    expect(select(clarificationQuality)).toEqual(["context.summary", "utt.user.1", "utt.assistant.1", "utt.assistant.2", "delegation.del_1", "tool.call_1", "state.diff.1", "fact.phone"]);
    expect(select(groundedCommunication)).toEqual(["utt.user.1", "utt.assistant.1", "utt.assistant.2", "delegation.del_1", "tool.call_1", "world.event.1", "state.diff.1", "fact.phone"]);
    expect(select(conversationalCoherence)).toEqual(["context.summary", "utt.user.1", "utt.assistant.1", "utt.assistant.2"]);
  });

  it("are validated when a package defines its own", () => {
    const ok = defineClause({ id: "policy_relay", version: "1.0", text: "Relays the cancellation policy accurately.", applies: () => true, select: (c) => c.items.map((i) => i.id) });
    expect(Object.isFrozen(ok)).toBe(true);
    expect(() => defineClause({ ...ok, id: "Policy Relay" })).toThrow(ClauseError);
    expect(() => defineClause({ ...ok, version: " " })).toThrow(/needs a version/);
    expect(() => defineClause({ ...ok, text: "" })).toThrow(/needs the text/);
    expect(() => defineClause({ ...ok, select: undefined as never })).toThrow(/needs select/);
  });
});
