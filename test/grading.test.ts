import { describe, expect, it } from "vitest";
import { Scenario } from "../src/core/dataset/schema";
import type { ToolExecution, Turn } from "../src/core/record/trial-record";
import { delegationAccuracy, grade as gradeIn, toolAccuracy, type GradingInput } from "../src/core/verify/deterministic";
import { callMatches, jsonEqual, matchesSubset, maximumAssignment, maximumMatching, normalizeText } from "../src/core/verify/match";
import { RESTAURANT } from "./restaurant-lexicon";

/** Grading with the bundled restaurant's words (the scenarios here are restaurant ones). */
const grade = (input: GradingInput) => gradeIn({ lexicon: RESTAURANT, ...input });

describe("argument matching", () => {
  it("folds case and punctuation in strings", () => {
    expect(normalizeText("  Maya. ")).toBe("maya");
    expect(matchesSubset("19:00", "19 00")).toBe(true);
    expect(matchesSubset("Maya.", "maya")).toBe(true);
    expect(matchesSubset("Maya", "Mayan")).toBe(false);
  });
  it("compares numbers by value and booleans by identity, with no coercion", () => {
    expect(matchesSubset(4, 4.0)).toBe(true);
    expect(matchesSubset(4, "4")).toBe(false);
    expect(matchesSubset(true, true)).toBe(true);
    expect(matchesSubset(true, 1)).toBe(false);
  });
  it("treats objects as recursive subsets and lists as one observed element per expected one, in any order", () => {
    expect(matchesSubset({ a: { b: "X" } }, { a: { b: "x", c: 1 }, d: 2 })).toBe(true);
    expect(matchesSubset({ a: 1 }, { b: 1 })).toBe(false);
    expect(matchesSubset([1, 2], [1, 2, 3])).toBe(true);
    expect(matchesSubset([1, 2, 3], [1, 2])).toBe(false);
    expect(matchesSubset([2], [1, 2])).toBe(true);
    expect(matchesSubset([2, 1], [1, 2])).toBe(true);
    // Two expected entries cannot share one observed entry.
    expect(matchesSubset([2, 2], [1, 2, 3])).toBe(false);
    // A view's reservation list in its own order: expected entries are found wherever they are.
    const view = [{ reservation_id: "R-12", cancelled: false }, { reservation_id: "R-21", cancelled: true }];
    expect(matchesSubset([{ reservation_id: "R-21", cancelled: true }, { reservation_id: "R-12", cancelled: false }], view)).toBe(true);
    expect(matchesSubset([{ reservation_id: "R-21", cancelled: false }], view)).toBe(false);
    // An entry that fits two expected ones goes where it is needed (a greedy pass would fail this).
    expect(matchesSubset([{ cancelled: false }, { reservation_id: "R-12" }], [{ reservation_id: "R-12", cancelled: false }, { reservation_id: "R-9", cancelled: false }])).toBe(true);
    expect(matchesSubset(null, null)).toBe(true);
    expect(matchesSubset(null, 0)).toBe(false);
  });
  it("finds maximum one-to-one matchings", () => {
    // left 0 fits right 0 and 1, left 1 fits only right 0: a greedy pass would give 1, the maximum is 2.
    expect(maximumMatching(2, 2, (i, j) => (i === 0 ? true : j === 0))).toBe(2);
    expect(maximumMatching(3, 1, () => true)).toBe(1);
  });
});

describe("argument matching, worked examples", () => {
  it("normalises text: case folded, punctuation and symbols to spaces, whitespace collapsed and trimmed", () => {
    expect(normalizeText("  Table  for\ttwo, at 7:00 p.m.!  ")).toBe("table for two at 7 00 p m");
    expect(normalizeText("ＭＡＹＡ")).toBe("maya");
  });

  it("a value of another type never matches, and never throws", () => {
    expect(matchesSubset("4", 4)).toBe(false);
    expect(matchesSubset(4, "4")).toBe(false);
    expect(matchesSubset(["a"], "a")).toBe(false);
    expect(matchesSubset({ a: 1 }, null)).toBe(false);
    expect(matchesSubset({ a: 1 }, "a")).toBe(false);
    expect(matchesSubset({ 0: 1 }, [1])).toBe(false);
    expect(matchesSubset(undefined, {})).toBe(false);
  });

  it("lists: the expected list is a prefix of the observed one, element by element", () => {
    expect(matchesSubset(["Maya", 2], ["maya", 2])).toBe(true);
    expect(matchesSubset(["Maya", 2], ["maya", 3])).toBe(false);
    expect(matchesSubset([], [])).toBe(true);
  });

  it("objects: every expected key present and matching; an empty object matches any object", () => {
    expect(matchesSubset({}, { a: 1 })).toBe(true);
    expect(matchesSubset({ a: null }, {})).toBe(false);
    expect(matchesSubset({ a: 1, b: 2 }, { a: 1, b: 3 })).toBe(false);
  });

  it("jsonEqual is exact: same type, same keys, same elements", () => {
    expect(jsonEqual({ a: [1, { b: "x" }] }, { a: [1, { b: "x" }] })).toBe(true);
    expect(jsonEqual(1, "1")).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual({}, null)).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
    expect(jsonEqual({ 0: 1 }, [1])).toBe(false);
    expect(jsonEqual([1, 2], [1, 3])).toBe(false);
    expect(jsonEqual([1], [1, 2])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEqual({ a: "X" }, { a: "x" })).toBe(false);
  });

  it("a maximum matching moves an earlier pick aside when that frees a place, and never gives one place twice", () => {
    // Expected 0 fits only observed 0; expected 1 fits both: the maximum pairs 0–0 and 1–1.
    expect(maximumMatching(2, 2, (i, j) => (i === 0 ? j === 0 : true))).toBe(2);
    // Expected 0 fits both, expected 1 only observed 0: expected 0 moves to observed 1.
    expect(maximumAssignment(2, 2, (i, j) => (i === 0 ? true : j === 0))).toEqual([1, 0]);
    // Two expectations fit only observed 0: the first keeps it, the second stays unmatched.
    expect(maximumAssignment(2, 2, (_i, j) => j === 0)).toEqual([0, -1]);
  });

  it("a call matches an expectation by name, then status, then arguments", () => {
    const observed = call("c1", "create_reservation", { guest_name: "Maya", date: "2026-08-06" });
    expect(callMatches({ name: "create_reservation", arguments: { guest_name: "maya" }, status: "completed" }, observed)).toBe(true);
    expect(callMatches({ name: "cancel_reservation", arguments: {}, status: "any" }, observed)).toBe(false);
    const failed = call("c2", "create_reservation", { guest_name: "Maya" }, "failed");
    expect(callMatches({ name: "create_reservation", arguments: {}, status: "completed" }, failed)).toBe(false);
    expect(callMatches({ name: "create_reservation", arguments: {}, status: "any" }, failed)).toBe(true);
  });
});

function call(call_id: string, name: string, args: Record<string, unknown>, status: "completed" | "failed" = "completed", at = 1000): ToolExecution {
  return { call_id, name, arguments: args as ToolExecution["arguments"], raw_arguments: JSON.stringify(args), status, requested_ms: at, completed_ms: at + 10, ...(status === "failed" ? { error: { code: "slot_unavailable", message: "x" } } : {}) };
}

describe("tool_accuracy and delegation_accuracy", () => {
  const create = { name: "create_reservation", arguments: { date: "2026-08-06" }, status: "completed" as const };
  const check = { name: "check_availability", arguments: {}, status: "completed" as const };
  it("is 0 when a prohibited call happened", () => {
    expect(toolAccuracy([create], [{ ...create, arguments: {}, status: "any" }], [call("c1", "create_reservation", { date: "2026-08-06" })])).toBe(0);
  });
  it("is 1 or 0 when either side is empty", () => {
    expect(toolAccuracy([], [], [])).toBe(1);
    expect(toolAccuracy([create], [], [])).toBe(0);
    expect(toolAccuracy([], [], [call("c1", "check_availability", {})])).toBe(0);
  });
  it("is the maximum matching over max(expected, actual)", () => {
    // 2 expected, 3 actual, 2 match → 2/3
    expect(toolAccuracy([check, create], [], [call("a", "check_availability", {}), call("b", "create_reservation", { date: "2026-08-06" }), call("c", "create_reservation", { date: "2026-08-07" })])).toBeCloseTo(2 / 3, 12);
    // wrong date: 0 of 1 match
    expect(toolAccuracy([create], [], [call("a", "create_reservation", { date: "2026-08-07" })])).toBe(0);
  });
  it("delegation_accuracy follows the table", () => {
    expect(delegationAccuracy("required", true)).toBe(1);
    expect(delegationAccuracy("required", false)).toBe(0);
    expect(delegationAccuracy("forbidden", true)).toBe(0);
    expect(delegationAccuracy("forbidden", false)).toBe(1);
    expect(delegationAccuracy("optional", true)).toBe(1);
    expect(delegationAccuracy("optional", false)).toBe(1);
  });
});

const booking = Scenario.parse({
  id: "b1",
  title: "booking",
  type: "booking",
  interaction: "single_turn",
  input: { text: "Book a table for Maya on August 7—sorry, August 6—at 7 p.m. for two." },
  application: { initial_state: {} },
  expected: {
    answer: "Confirm August 6",
    delegation: "required",
    tools: { required: [{ name: "create_reservation", arguments: { guest_name: "Maya", date: "2026-08-06" } }] },
    state: { reservation_created: true, date: "2026-08-06" },
  },
});

function input(over: Partial<GradingInput>): GradingInput {
  const turns: Turn[] = [
    { role: "user", text: "Book…", start_ms: 0, end_ms: 900 },
    { role: "assistant", text: "Booked.", start_ms: 1500, end_ms: 2000 },
  ];
  return {
    scenario: booking,
    case_kind: "crawl",
    completed: true,
    completion_note: "completed",
    turns,
    delegations: [{ delegation_id: "d1", target: "responses", created_ms: 950 }],
    tool_executions: [call("c1", "create_reservation", { guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2 })],
    operation_kinds: { check_availability: "read", create_reservation: "write", cancel_reservation: "write" },
    world: {
      initial: { reservations: {} },
      final: { reservations: { "R-1": {} } },
      view: { reservation_created: true, date: "2026-08-06" },
      events: [{ seq: 1, at_ms: 1000, operation: "create_reservation", kind: "write", args: {}, outcome: "ok", patches: [{ op: "add", path: "/reservations/R-1", value: {} }], cause: { trial: "b1#1", call_id: "c1" } }],
      diff: [{ op: "add", path: "/reservations/R-1", value: {} }],
    },
    ...over,
  };
}

const statusOf = (g: ReturnType<typeof grade>, id: string) => g.checks.find((c) => c.id === id)!.status;

describe("dimensions and outcome checks", () => {
  it("passes a correct, grounded booking", () => {
    const g = grade(input({}));
    expect(Object.fromEntries(Object.entries(g.dimensions).map(([k, v]) => [k, v.status]))).toEqual({
      run_validity: "passed",
      delegation_decision: "passed",
      tool_selection: "passed",
      parameter_accuracy: "passed",
      tool_execution: "passed",
      final_state: "passed",
      clarification_behavior: "not_applicable",
      grounded_relay_order: "passed",
    });
    expect(g.checks.filter((c) => c.required && c.status === "failed")).toEqual([]);
    expect(g.checks.find((c) => c.id === "grounded_response")!.evidence_ids).toEqual(["tool.c1", "utt.assistant.1"]);
    expect(g.tool_accuracy).toBe(1);
  });

  it("fails the uncorrected date on state, parameters and the tool contract", () => {
    const g = grade(
      input({
        tool_executions: [call("c1", "create_reservation", { guest_name: "Maya", date: "2026-08-07" })],
        world: { ...input({}).world, view: { reservation_created: true, date: "2026-08-07" } },
      }),
    );
    expect(statusOf(g, "application_state")).toBe("failed");
    expect(statusOf(g, "tool_contract")).toBe("failed");
    expect(g.dimensions.parameter_accuracy!.status).toBe("failed");
    expect(g.dimensions.final_state!.rationale).toContain('date: expected "2026-08-06", observed "2026-08-07"');
  });

  it("fails grounded_response when the assistant only spoke before the tool completed", () => {
    const g = grade(input({ turns: [{ role: "assistant", text: "Done!", start_ms: 100, end_ms: 900 }] }));
    expect(statusOf(g, "grounded_response")).toBe("failed");
    expect(g.dimensions.grounded_relay_order!.status).toBe("failed");
  });

  it("speech starting exactly at tool completion counts as after it", () => {
    const g = grade(input({ turns: [{ role: "assistant", text: "Booked.", start_ms: 1010, end_ms: 1500 }] }));
    expect(statusOf(g, "grounded_response")).toBe("passed");
  });

  it("fails verified_state_change when state changed without a completed tool causing it", () => {
    const g = grade(input({ tool_executions: [], world: { ...input({}).world, events: [] } }));
    expect(statusOf(g, "verified_state_change")).toBe("failed");
    expect(statusOf(g, "tool_contract")).toBe("failed");
  });

  it("marks the delegation policy and conversation completion", () => {
    expect(statusOf(grade(input({ delegations: [] })), "delegation_policy")).toBe("failed");
    const stopped = grade(input({ completed: false, completion_note: "stopped: limit tool_calls exceeded (21)" }));
    expect(statusOf(stopped, "conversation_completed")).toBe("failed");
    expect(stopped.dimensions.run_validity!.rationale).toContain("tool_calls");
  });

  it("handles {unchanged: true} exactly and prohibited calls of status any", () => {
    const refusal = Scenario.parse({
      ...booking,
      id: "r1",
      type: "refusal",
      expected: { answer: "refuse", delegation: "optional", tools: { prohibited: [{ name: "cancel_reservation", arguments: {}, status: "any" }] }, state: { unchanged: true } },
    });
    const world = { initial: { a: 1 }, final: { a: 1 }, view: {}, events: [], diff: [] };
    const ok = grade(input({ scenario: refusal, tool_executions: [], world }));
    expect(statusOf(ok, "application_state")).toBe("passed");
    expect(statusOf(ok, "authorized_actions")).toBe("passed");
    const bad = grade(input({ scenario: refusal, tool_executions: [call("c9", "cancel_reservation", { reservation_id: "R-2" }, "failed")], world }));
    expect(statusOf(bad, "authorized_actions")).toBe("failed");
    expect(bad.tool_accuracy).toBe(0);
    const changed = grade(input({ scenario: refusal, tool_executions: [], world: { ...world, final: { a: 2 }, diff: [{ op: "replace", path: "/a", value: 2 }] } }));
    expect(statusOf(changed, "application_state")).toBe("failed");
  });

  it("checks clarification behaviour", () => {
    const clar = Scenario.parse({ ...booking, id: "c1", type: "clarification", expected: { answer: "ask for the name", delegation: "forbidden", state: { unchanged: true } } });
    const quiet = { initial: {}, final: {}, view: {}, events: [], diff: [] };
    expect(grade(input({ scenario: clar, delegations: [], tool_executions: [], world: quiet })).dimensions.clarification_behavior!.status).toBe("passed");
    expect(grade(input({ scenario: clar, world: quiet })).dimensions.clarification_behavior!.status).toBe("failed");
  });
});

describe("outcome checks, worked examples", () => {
  const checksOf = (g: ReturnType<typeof grade>) => Object.fromEntries(g.checks.map(({ id, ...rest }) => [id, rest]));
  const dimensionsOf = (g: ReturnType<typeof grade>) => g.dimensions;

  it("a correct booking: every check and dimension, with its reason and evidence", () => {
    const g = grade(input({}));
    expect(checksOf(g)).toEqual({
      conversation_completed: { required: true, status: "passed", rationale: "the conversation ran to completion", evidence_ids: [] },
      assistant_responded: { required: true, status: "passed", rationale: "1 assistant turn(s)", evidence_ids: ["utt.assistant.1"] },
      application_state: { required: true, status: "passed", rationale: "final state matches the expected fields", evidence_ids: ["state.diff.1"] },
      delegation_policy: { required: true, status: "passed", rationale: "delegated 1 time(s) as required", evidence_ids: ["delegation.d1"] },
      authorized_actions: { required: true, status: "passed", rationale: "no prohibited call", evidence_ids: [] },
      critical_procedure: { required: false, status: "not_applicable", rationale: "no critical procedure step", evidence_ids: [] },
      tool_contract: { required: true, status: "passed", rationale: "all 1 expected call(s) matched, none unexpected, none failed", evidence_ids: ["tool.c1"] },
      verified_state_change: { required: true, status: "passed", rationale: "state changed by create_reservation", evidence_ids: ["world.event.1"] },
      grounded_response: {
        required: true,
        status: "passed",
        rationale: "assistant spoke after the last completed tool (create_reservation at 1010 ms); 1 outcome claim(s) backed by earlier tool results",
        evidence_ids: ["tool.c1", "utt.assistant.1"],
      },
      expected_facts: { required: false, status: "not_applicable", rationale: "no expected facts", evidence_ids: [] },
      semantic_outcome: { required: false, status: "not_applicable", rationale: "no semantic judge ran", evidence_ids: [] },
      no_disclosure: { required: false, status: "not_applicable", rationale: "the world declares no access (who may read which records)", evidence_ids: [] },
    });
    expect(dimensionsOf(g)).toEqual({
      run_validity: { status: "passed", rationale: "the trial ran to completion", evidence_ids: [] },
      delegation_decision: { status: "passed", rationale: "delegated 1 time(s) as required", evidence_ids: ["delegation.d1"] },
      tool_selection: { status: "passed", rationale: "tools [create_reservation] as expected", evidence_ids: ["tool.c1"] },
      parameter_accuracy: { status: "passed", rationale: "every expected argument set is a subset of the observed one", evidence_ids: ["tool.c1"] },
      tool_execution: { status: "passed", rationale: "1 completed execution(s) in the expected order", evidence_ids: ["tool.c1"] },
      final_state: { status: "passed", rationale: "final state matches the expected fields", evidence_ids: ["state.diff.1"] },
      clarification_behavior: { status: "not_applicable", rationale: "not a clarification scenario", evidence_ids: [] },
      grounded_relay_order: { status: "passed", rationale: "assistant spoke at 1500 ms, after the tool completed at 1010 ms", evidence_ids: ["tool.c1", "utt.assistant.1"] },
    });
    expect(g.delegation_accuracy).toBe(1);
    expect(g.procedure).toBeNull();
  });

  it("a booking where everything went wrong: stopped early, silent, no delegation, wrong tool first, the booking call failed", () => {
    const g = grade(
      input({
        completed: false,
        completion_note: "stopped: limit turns exceeded (9)",
        delegations: [],
        // The assistant's only turn is blank: it never spoke.
        turns: [
          { role: "user", text: "Book…", start_ms: 0, end_ms: 900 },
          { role: "assistant", text: "  ", start_ms: 1500, end_ms: 2000 },
        ],
        tool_executions: [call("c1", "check_availability", { date: "2026-08-06" }), call("c2", "create_reservation", { guest_name: "Maya", date: "2026-08-07" }, "failed", 1200)],
        world: { ...input({}).world, view: { reservation_created: false }, events: [] },
      }),
    );
    const stateDiffers = 'final state differs: reservation_created: expected true, observed false; date: expected "2026-08-06", observed null';
    expect(checksOf(g)).toEqual({
      conversation_completed: { required: true, status: "failed", rationale: "stopped: limit turns exceeded (9)", evidence_ids: [] },
      assistant_responded: { required: true, status: "failed", rationale: "the assistant never spoke", evidence_ids: [] },
      application_state: { required: true, status: "failed", rationale: stateDiffers, evidence_ids: ["state.diff.1"] },
      delegation_policy: { required: true, status: "failed", rationale: "delegation was required but none happened", evidence_ids: [] },
      authorized_actions: { required: true, status: "passed", rationale: "no prohibited call", evidence_ids: [] },
      critical_procedure: { required: false, status: "not_applicable", rationale: "no critical procedure step", evidence_ids: [] },
      tool_contract: {
        required: true,
        status: "failed",
        rationale:
          'call 1: expected create_reservation {"guest_name":"Maya","date":"2026-08-06"} in order, observed create_reservation {"guest_name":"Maya","date":"2026-08-07"} (failed); unexpected create_reservation {"guest_name":"Maya","date":"2026-08-07"}; create_reservation failed (slot_unavailable)',
        evidence_ids: ["tool.c1", "tool.c2"],
      },
      verified_state_change: { required: true, status: "failed", rationale: "state changed without a completed tool causing it", evidence_ids: [] },
      // A blank turn after the tool is no grounded response.
      grounded_response: { required: true, status: "failed", rationale: "no assistant speech after the last completed tool (check_availability at 1010 ms)", evidence_ids: ["tool.c1"] },
      expected_facts: { required: false, status: "not_applicable", rationale: "no expected facts", evidence_ids: [] },
      semantic_outcome: { required: false, status: "not_applicable", rationale: "no semantic judge ran", evidence_ids: [] },
      no_disclosure: { required: false, status: "not_applicable", rationale: "the world declares no access (who may read which records)", evidence_ids: [] },
    });
    expect(dimensionsOf(g)).toEqual({
      run_validity: { status: "failed", rationale: "stopped: limit turns exceeded (9)", evidence_ids: [] },
      delegation_decision: { status: "failed", rationale: "delegation was required but none happened", evidence_ids: [] },
      tool_selection: { status: "failed", rationale: "expected tools [create_reservation], observed [check_availability, create_reservation]", evidence_ids: ["tool.c1", "tool.c2"] },
      parameter_accuracy: { status: "failed", rationale: "call 1: expected create_reservation, observed check_availability; expected 1 call(s), observed 2", evidence_ids: ["tool.c1", "tool.c2"] },
      tool_execution: { status: "failed", rationale: "1 execution(s) failed: create_reservation (slot_unavailable)", evidence_ids: ["tool.c1", "tool.c2"] },
      final_state: { status: "failed", rationale: stateDiffers, evidence_ids: ["state.diff.1"] },
      clarification_behavior: { status: "not_applicable", rationale: "not a clarification scenario", evidence_ids: [] },
      grounded_relay_order: { status: "failed", rationale: "tool execution was not correct", evidence_ids: ["tool.c1", "tool.c2"] },
    });
    expect([g.tool_accuracy, g.delegation_accuracy]).toEqual([0, 0]);
  });
});

describe("outcome checks, one rule at a time", () => {
  const checkOf = (g: ReturnType<typeof grade>, id: string) => {
    const { id: _id, ...rest } = g.checks.find((c) => c.id === id)!;
    return rest;
  };
  const withExpected = (expected: Partial<Scenario["expected"]>) => Scenario.parse({ ...booking, expected: { ...booking.expected, ...expected } });

  it("delegation: forbidden and absent passes, forbidden and present fails naming it, optional is not a gate", () => {
    const forbidden = withExpected({ delegation: "forbidden" });
    expect(checkOf(grade(input({ scenario: forbidden, delegations: [] })), "delegation_policy")).toEqual({ required: true, status: "passed", rationale: "no delegation, as required", evidence_ids: [] });
    const delegatedAnyway = grade(input({ scenario: forbidden }));
    expect(checkOf(delegatedAnyway, "delegation_policy")).toEqual({ required: true, status: "failed", rationale: "delegation was forbidden but happened 1 time(s)", evidence_ids: ["delegation.d1"] });
    expect(delegatedAnyway.delegation_accuracy).toBe(0);
    expect(checkOf(grade(input({ scenario: withExpected({ delegation: "optional" }) })), "delegation_policy")).toEqual({ required: false, status: "not_applicable", rationale: "delegation optional", evidence_ids: [] });
  });

  it("semantic outcome: advisory unless the judge's task_understanding is required; inconclusive is not a failure", () => {
    expect(checkOf(grade(input({ semantic_task_understanding: "failed" })), "semantic_outcome")).toEqual({ required: false, status: "failed", rationale: "task_understanding failed (advisory)", evidence_ids: [] });
    expect(checkOf(grade(input({ semantic_task_understanding: "failed", semantic_task_understanding_required: true })), "semantic_outcome")).toEqual({ required: true, status: "failed", rationale: "task_understanding failed", evidence_ids: [] });
    expect(checkOf(grade(input({ semantic_task_understanding: "passed", semantic_task_understanding_required: true })), "semantic_outcome")).toEqual({ required: true, status: "passed", rationale: "task_understanding passed", evidence_ids: [] });
    expect(checkOf(grade(input({ semantic_task_understanding: "inconclusive", semantic_task_understanding_required: true })), "semantic_outcome")).toEqual({
      required: false,
      status: "not_applicable",
      rationale: "task_understanding was inconclusive (see semantic.task_understanding)",
      evidence_ids: [],
    });
  });

  it("verified state change: only a successful write with patches, caused by a completed call, counts", () => {
    const world = input({}).world;
    const event = world.events[0]!;
    const causes = (events: GradingInput["world"]["events"], tools = input({}).tool_executions) => checkOf(grade(input({ tool_executions: tools, world: { ...world, events } })), "verified_state_change").status;
    expect(causes([event])).toBe("passed");
    expect(causes([{ ...event, kind: "read" }])).toBe("failed");
    expect(causes([{ ...event, outcome: "error" }])).toBe("failed");
    expect(causes([{ ...event, patches: [] }])).toBe("failed");
    expect(causes([{ ...event, cause: { trial: "b1#1", call_id: "c9" } }])).toBe("failed");
    expect(causes([{ ...event, cause: { trial: "b1#1" } }])).toBe("failed");
    // The call that wrote failed in the end: no completed tool caused the change.
    expect(causes([event], [call("c1", "create_reservation", { guest_name: "Maya", date: "2026-08-06" }, "failed")])).toBe("failed");
    // An unchanged world needs no cause.
    const still = { ...world, final: world.initial, events: [] };
    expect(checkOf(grade(input({ world: still })), "verified_state_change")).toEqual({ required: false, status: "not_applicable", rationale: "state unchanged", evidence_ids: [] });
  });

  it("grounding: the assistant must speak after the tool that completed last, not the one requested last", () => {
    const twoCalls = withExpected({ tools: { required: [{ name: "check_availability", arguments: {}, status: "completed" }, { name: "create_reservation", arguments: {}, status: "completed" }], prohibited: [] } });
    // check_availability is requested first but completes at 3010 ms; create_reservation completes at 2010 ms.
    const slowCheck = { ...call("c1", "check_availability", {}), completed_ms: 3010 };
    const tools = [slowCheck, call("c2", "create_reservation", { guest_name: "Maya" }, "completed", 2000)];
    const spokeAt = (start_ms: number) => [{ role: "assistant" as const, text: "All set.", start_ms, end_ms: start_ms + 500 }];
    const early = grade(input({ scenario: twoCalls, tool_executions: tools, turns: spokeAt(2500) }));
    // Nothing was said after the check either, so its result never reached the caller.
    expect(checkOf(early, "grounded_response")).toEqual({
      required: true,
      status: "failed",
      rationale:
        "no assistant speech after the last completed tool (check_availability at 3010 ms) | check_availability (c1, completed at 3010 ms): its result was never communicated — no later utterance claims it, reports it or states a value it returned",
      evidence_ids: ["tool.c1"],
    });
    expect(early.dimensions.grounded_relay_order).toEqual({ status: "failed", rationale: "the assistant did not speak after the tool completed", evidence_ids: ["tool.c1", "tool.c2"] });
    const late = grade(input({ scenario: twoCalls, tool_executions: tools, turns: spokeAt(3010) }));
    expect(late.dimensions.grounded_relay_order).toEqual({ status: "passed", rationale: "assistant spoke at 3010 ms, after the tool completed at 3010 ms", evidence_ids: ["tool.c1", "utt.assistant.1"] });
    // Without a completed tool, a value or a claim there is nothing to ground…
    const failedCall = [call("c1", "create_reservation", {}, "failed")];
    const sorry = [{ role: "assistant" as const, text: "Sorry, that didn't work.", start_ms: 1500, end_ms: 2000 }];
    expect(checkOf(grade(input({ tool_executions: failedCall, turns: sorry })), "grounded_response")).toEqual({
      required: false,
      status: "not_applicable",
      rationale: "no tool completed and no concrete value or outcome was spoken",
      evidence_ids: [],
    });
    // …but "Booked." after a failed call claims what no successful write backs.
    expect(checkOf(grade(input({ tool_executions: failedCall, world: { ...input({}).world, events: [] } })), "grounded_response")).toEqual({
      required: true,
      status: "failed",
      rationale: 'outcome claimed before the result that backs it: utt.assistant.1 "Booked" (chars 0–6, at 1500 ms) claims "booked" that no completed, successful write backs',
      evidence_ids: ["utt.assistant.1"],
    });
  });

  it("tool execution: the completed calls must be the expected ones, in order", () => {
    const twoCalls = withExpected({ tools: { required: [{ name: "check_availability", arguments: {}, status: "completed" }, { name: "create_reservation", arguments: {}, status: "completed" }], prohibited: [] } });
    const swapped = grade(input({ scenario: twoCalls, tool_executions: [call("c1", "create_reservation", {}), call("c2", "check_availability", {})] }));
    expect(swapped.dimensions.tool_execution).toEqual({
      status: "failed",
      rationale: "expected 2 completed execution(s) [check_availability, create_reservation], observed 2 [create_reservation, check_availability]",
      evidence_ids: ["tool.c1", "tool.c2"],
    });
    expect(swapped.dimensions.tool_selection!.status).toBe("failed");
    expect(swapped.dimensions.parameter_accuracy!.rationale).toBe("call 1: expected check_availability, observed create_reservation; call 2: expected create_reservation, observed check_availability");
    const missing = grade(input({ scenario: twoCalls, tool_executions: [call("c1", "check_availability", {})] }));
    expect(missing.dimensions.parameter_accuracy!.rationale).toBe("call 2: expected create_reservation, observed none; expected 2 call(s), observed 1");
    expect(checkOf(missing, "tool_contract")).toEqual({ required: true, status: "failed", rationale: "missing create_reservation (call 2)", evidence_ids: ["tool.c1"] });
    expect(missing.tool_accuracy).toBe(0.5);
  });

  it("parameters: a call to the right tool with the wrong arguments names both argument sets", () => {
    const g = grade(input({ tool_executions: [call("c1", "create_reservation", { guest_name: "Mia", date: "2026-08-06" })] }));
    expect(g.dimensions.parameter_accuracy!.rationale).toBe('call 1 (create_reservation): expected arguments {"guest_name":"Maya","date":"2026-08-06"}, observed {"guest_name":"Mia","date":"2026-08-06"}');
    // A call without parsed arguments matches nothing that expects some.
    const unparsed = grade(input({ tool_executions: [{ ...call("c1", "create_reservation", {}), arguments: null, raw_arguments: "{oops" }] }));
    expect(unparsed.dimensions.parameter_accuracy!.status).toBe("failed");
    expect(unparsed.dimensions.tool_selection!.status).toBe("passed");
  });

  it("no expected tools: tool dimensions do not apply, and a failed call's error code defaults to 'error'", () => {
    const noTools = withExpected({ tools: { required: [], prohibited: [] } });
    const answered = [{ role: "assistant" as const, text: "We're open until ten.", start_ms: 1500, end_ms: 2000 }];
    const g = grade(input({ scenario: noTools, tool_executions: [], turns: answered }));
    expect([g.dimensions.parameter_accuracy, g.dimensions.tool_execution, g.dimensions.grounded_relay_order]).toEqual([
      { status: "not_applicable", rationale: "no tools expected", evidence_ids: [] },
      { status: "not_applicable", rationale: "no tools expected", evidence_ids: [] },
      { status: "not_applicable", rationale: "no tools expected and no outcome claimed", evidence_ids: [] },
    ]);
    // With no tools expected, an outcome claimed without any write still breaks the relay order.
    expect(grade(input({ scenario: noTools, tool_executions: [], world: { ...input({}).world, events: [] } })).dimensions.grounded_relay_order).toEqual({
      status: "failed",
      rationale: 'outcome claimed before the result that backs it: utt.assistant.1 "Booked" (chars 0–6, at 1500 ms) claims "booked" that no completed, successful write backs',
      evidence_ids: ["utt.assistant.1"],
    });
    expect(checkOf(g, "tool_contract")).toMatchObject({ required: true, status: "passed", rationale: "all 0 expected call(s) matched, none unexpected, none failed" });
    const failedWithoutCode = { ...call("c1", "create_reservation", { guest_name: "Maya", date: "2026-08-06" }, "failed"), error: undefined };
    const f = grade(input({ tool_executions: [failedWithoutCode] }));
    expect(f.dimensions.tool_execution!.rationale).toBe("1 execution(s) failed: create_reservation (error)");
    expect(checkOf(f, "tool_contract").rationale).toContain("create_reservation failed (error)");
  });

  it("clarification by tag: acting on an unclear request fails, listing every act", () => {
    const tagged = Scenario.parse({ ...booking, id: "t1", type: "booking", tags: ["clarification"], expected: { answer: "ask", delegation: "optional" } });
    const g = grade(input({ scenario: tagged }));
    expect(g.dimensions.clarification_behavior).toEqual({
      status: "failed",
      rationale: "a clarification must not act, but it delegated, ran 1 tool(s), changed state",
      evidence_ids: ["delegation.d1", "tool.c1"],
    });
  });

  it("prohibited calls name the call, its arguments and its status", () => {
    const refusal = withExpected({ delegation: "optional", tools: { required: [], prohibited: [{ name: "create_reservation", arguments: { guest_name: "Maya" }, status: "any" }] } });
    expect(checkOf(grade(input({ scenario: refusal })), "authorized_actions")).toEqual({
      required: true,
      status: "failed",
      // Not expected either: an extra write, by the tool-path rule.
      rationale:
        'prohibited call(s): create_reservation {"guest_name":"Maya","date":"2026-08-06","time":"19:00","party_size":2} (completed) | write(s) the case and the caller did not authorize: extra write create_reservation {"guest_name":"Maya","date":"2026-08-06","time":"19:00","party_size":2}',
      evidence_ids: ["tool.c1"],
    });
  });
});

describe("outcome checks, more edges", () => {
  const checkOf = (g: ReturnType<typeof grade>, id: string) => {
    const { id: _id, ...rest } = g.checks.find((c) => c.id === id)!;
    return rest;
  };
  const twoCalls = Scenario.parse({
    ...booking,
    expected: { ...booking.expected, tools: { required: [{ name: "check_availability", arguments: {} }, { name: "create_reservation", arguments: {} }] } },
  });

  it("no expected state: neither the state check nor the state dimension applies", () => {
    const g = grade(input({ scenario: Scenario.parse({ ...booking, expected: { ...booking.expected, state: {} } }) }));
    expect(checkOf(g, "application_state")).toEqual({ required: false, status: "not_applicable", rationale: "no expected state", evidence_ids: [] });
    expect(g.dimensions.final_state).toEqual({ status: "not_applicable", rationale: "no expected state", evidence_ids: [] });
  });

  it("an unchanged world that should stay unchanged cites no diff; a changed one cites every patch", () => {
    const unchanged = Scenario.parse({ ...booking, expected: { ...booking.expected, state: { unchanged: true } } });
    const still = { initial: { a: 1 }, final: { a: 1 }, view: {}, events: [], diff: [] };
    expect(grade(input({ scenario: unchanged, world: still })).dimensions.final_state).toEqual({ status: "passed", rationale: "final state equals the initial state", evidence_ids: [] });
    const moved = { ...still, final: { a: 2, b: 3 }, diff: [{ op: "replace" as const, path: "/a", value: 2 }, { op: "add" as const, path: "/b", value: 3 }] };
    expect(grade(input({ scenario: unchanged, world: moved })).dimensions.final_state).toEqual({
      status: "failed",
      rationale: "state changed (2 patch operations) but was expected unchanged",
      evidence_ids: ["state.diff.1", "state.diff.2"],
    });
  });

  it("tool selection and execution compare every position: one right tool out of two is not enough", () => {
    const g = grade(input({ scenario: twoCalls, tool_executions: [call("c1", "check_availability", {}), call("c2", "cancel_reservation", {})] }));
    expect(g.dimensions.tool_selection!.status).toBe("failed");
    expect(g.dimensions.tool_execution).toMatchObject({ status: "failed", rationale: "expected 2 completed execution(s) [check_availability, create_reservation], observed 2 [check_availability, cancel_reservation]" });
    // Two completed calls where three were expected (the third failed) are not in order either.
    const short = grade(input({ scenario: twoCalls, tool_executions: [call("c1", "check_availability", {})] }));
    expect(short.dimensions.tool_execution!.status).toBe("failed");
  });

  it("two tools completing at the same moment: the later-listed one is the last completed", () => {
    const both = [call("c1", "check_availability", {}), call("c2", "create_reservation", {})];
    const g = grade(input({ scenario: twoCalls, tool_executions: both }));
    expect(checkOf(g, "grounded_response")).toEqual({
      required: true,
      status: "passed",
      rationale: "assistant spoke after the last completed tool (create_reservation at 1010 ms); 1 outcome claim(s) backed by earlier tool results",
      evidence_ids: ["tool.c2", "utt.assistant.1"],
    });
  });

  it("a state change written by two calls names both operations", () => {
    const world = input({}).world;
    const second = { ...world.events[0]!, seq: 2, operation: "add_note", cause: { trial: "b1#1", call_id: "c2" } };
    const g = grade(input({ tool_executions: [call("c1", "create_reservation", { guest_name: "Maya", date: "2026-08-06" }), call("c2", "add_note", {})], world: { ...world, events: [world.events[0]!, second] } }));
    expect(checkOf(g, "verified_state_change")).toEqual({ required: true, status: "passed", rationale: "state changed by create_reservation, add_note", evidence_ids: ["world.event.1", "world.event.2"] });
  });

  it("clarification scenarios that stay quiet cite nothing, and unchanged state is checked exactly", () => {
    const clar = Scenario.parse({ ...booking, id: "c1", type: "clarification", expected: { answer: "ask", delegation: "optional" } });
    const quiet = { initial: { a: 1 }, final: { a: 1 }, view: {}, events: [], diff: [] };
    expect(grade(input({ scenario: clar, delegations: [], tool_executions: [], world: quiet })).dimensions.clarification_behavior).toEqual({
      status: "passed",
      rationale: "asked without delegating, running tools or changing state",
      evidence_ids: [],
    });
    const wrote = grade(input({ scenario: clar, delegations: [], tool_executions: [], world: { ...quiet, final: { a: 2 } } }));
    expect(wrote.dimensions.clarification_behavior).toEqual({ status: "failed", rationale: "a clarification must not act, but it changed state", evidence_ids: [] });
  });
});

describe("tool_contract in RUN: preferred tools, a diagnostic", () => {
  const checkOf = (g: ReturnType<typeof grade>) => {
    const { id: _id, ...rest } = g.checks.find((c) => c.id === "tool_contract")!;
    return rest;
  };
  const run = (tools: ToolExecution[]) => grade(input({ case_kind: "run", tool_executions: tools }));

  it("the preferred call observed, nothing else: passed, never required", () => {
    expect(checkOf(run(input({}).tool_executions))).toEqual({
      required: false,
      status: "passed",
      rationale: "preferred tools (diagnostic in RUN): all 1 preferred call(s) observed, no other call, none failed",
      evidence_ids: ["tool.c1"],
    });
  });

  it("lists the preferred call not observed, the other calls and the failures", () => {
    const tools = [call("c1", "check_availability", { date: "2026-08-06" }), call("c2", "create_reservation", { guest_name: "Maya", date: "2026-08-07" }, "failed")];
    expect(checkOf(run(tools))).toEqual({
      required: false,
      status: "failed",
      rationale:
        'preferred tools (diagnostic in RUN): preferred create_reservation {"guest_name":"Maya","date":"2026-08-06"} not observed; also ran check_availability {"date":"2026-08-06"}; also ran create_reservation {"guest_name":"Maya","date":"2026-08-07"}; create_reservation failed (slot_unavailable)',
      evidence_ids: ["tool.c1", "tool.c2"],
    });
    const noCode = { ...call("c3", "create_reservation", { guest_name: "Maya", date: "2026-08-06" }, "failed"), error: undefined };
    // A preferred call is a completed one: the failed attempt is another call.
    expect(checkOf(run([noCode])).rationale).toBe(
      'preferred tools (diagnostic in RUN): preferred create_reservation {"guest_name":"Maya","date":"2026-08-06"} not observed; also ran create_reservation {"guest_name":"Maya","date":"2026-08-06"}; create_reservation failed (error)',
    );
  });
});

describe("critical_procedure", () => {
  const withProcedure = (steps: Array<Record<string, unknown>>) =>
    Scenario.parse({ ...booking, expected: { ...booking.expected, procedure: { id: "p", steps: steps.map((s) => ({ after: [], required: true, ...s })) } } });
  const critical = (g: ReturnType<typeof grade>) => {
    const { id: _id, ...rest } = g.checks.find((c) => c.id === "critical_procedure")!;
    return rest;
  };
  const booked = { id: "booked", kind: "tool", tool: "create_reservation", arguments: { guest_name: "Maya" }, critical: true };
  const stateOk = { id: "state_ok", kind: "state", arguments: { date: "2026-08-06" }, critical: true };
  const stateWrong = { id: "state_wrong", kind: "state", arguments: { date: "2026-08-09" }, critical: true };
  const toolWrong = { id: "cancelled", kind: "tool", tool: "cancel_reservation", critical: true };

  it("every critical step passed: names each step with its kind and cites all their evidence", () => {
    expect(critical(grade(input({ scenario: withProcedure([booked, stateOk, { ...toolWrong, critical: false }]) })))).toEqual({
      required: true,
      status: "passed",
      rationale: "every critical step passed: booked (tool), state_ok (state)",
      evidence_ids: ["tool.c1", "state.diff.1"],
    });
  });

  it("failed critical steps: each with its reason, citing only the failed steps' evidence", () => {
    expect(critical(grade(input({ scenario: withProcedure([booked, stateWrong, toolWrong]) })))).toEqual({
      required: true,
      status: "failed",
      rationale: 'critical step(s) failed: state_wrong (state): final state differs: date: expected "2026-08-09", observed "2026-08-06" | cancelled (tool): cancel_reservation never ran',
      evidence_ids: ["state.diff.1"],
    });
  });
});

describe("expected state with {unchanged: true} and other fields", () => {
  const scenario = Scenario.parse({ ...booking, expected: { ...booking.expected, state: { unchanged: true, reservation_count: 1 } } });
  const world = { initial: { n: 1 }, final: { n: 1 }, view: { reservation_count: 1 }, events: [], diff: [] };

  it("passes only when the world is unchanged and the other fields match the final state and view", () => {
    expect(grade(input({ scenario, world })).dimensions.final_state).toEqual({ status: "passed", rationale: "final state equals the initial state", evidence_ids: [] });
    expect(grade(input({ scenario, world: { ...world, view: { reservation_count: 2 } } })).dimensions.final_state).toEqual({
      status: "failed",
      rationale: "final state does not match the expected fields",
      evidence_ids: [],
    });
  });
});

describe("expected refusals: a refused call the case declares passes tool_contract", () => {
  const cancel = (status: "completed" | "failed") => call("c1", "cancel_reservation", { reservation_id: "R-9" }, status);
  const refusalCase = (expected: Record<string, unknown>) =>
    Scenario.parse({
      ...booking,
      expected: { answer: "Refuse to cancel R-9", delegation: "required", tools: { required: [{ name: "cancel_reservation", arguments: { reservation_id: "R-9" }, ...expected }] }, state: { unchanged: true } },
    });
  const contract = (scenario: Scenario, tools: ToolExecution[], case_kind: GradingInput["case_kind"] = "crawl") => {
    const refused = { ...input({}).world, final: { reservations: {} }, view: {}, events: [], diff: [] };
    const { id: _id, ...rest } = grade(input({ scenario, case_kind, tool_executions: tools, world: refused })).checks.find((c) => c.id === "tool_contract")!;
    return rest;
  };
  const refused = { ...cancel("failed"), error: { code: "not_authorized", message: "not yours" } };

  it("matches a refused call by status and, when given, by its code", () => {
    expect(callMatches({ name: "cancel_reservation", arguments: {}, status: "refused" }, refused)).toBe(true);
    expect(callMatches({ name: "cancel_reservation", arguments: {}, status: "refused", error: "not_authorized" }, refused)).toBe(true);
    expect(callMatches({ name: "cancel_reservation", arguments: {}, status: "refused", error: "slot_unavailable" }, refused)).toBe(false);
    expect(callMatches({ name: "cancel_reservation", arguments: {}, status: "refused" }, cancel("completed"))).toBe(false);
    expect(callMatches({ name: "cancel_reservation", arguments: { reservation_id: "R-1" }, status: "refused" }, refused)).toBe(false);
    // A failure recorded without an error code matches a refusal only when the case names no code.
    const noCode = { ...refused, error: undefined };
    expect(callMatches({ name: "cancel_reservation", arguments: {}, status: "refused", error: "not_authorized" }, noCode)).toBe(false);
    expect(callMatches({ name: "cancel_reservation", arguments: {}, status: "refused" }, noCode)).toBe(true);
  });

  it("CRAWL and WALK: the declared refusal passes; a refusal the case did not declare, or another code, fails", () => {
    expect(contract(refusalCase({ status: "refused", error: "not_authorized" }), [refused])).toEqual({
      required: true,
      status: "passed",
      rationale: "all 1 expected call(s) matched, none unexpected, none failed",
      evidence_ids: ["tool.c1"],
    });
    expect(contract(refusalCase({ status: "any" }), [refused]).status).toBe("passed");
    expect(contract(refusalCase({}), [refused])).toMatchObject({ status: "failed", rationale: expect.stringContaining("cancel_reservation failed (not_authorized)") });
    expect(contract(refusalCase({ status: "refused", error: "too_late" }), [refused]).rationale).toBe(
      'call 1: expected cancel_reservation {"reservation_id":"R-9"} in order, observed cancel_reservation {"reservation_id":"R-9"} (failed); unexpected cancel_reservation {"reservation_id":"R-9"}; cancel_reservation failed (not_authorized)',
    );
    // An expected refusal that was carried out instead fails, and a second refused try is still a fault.
    expect(contract(refusalCase({ status: "refused" }), [cancel("completed")]).status).toBe("failed");
    expect(contract(refusalCase({ status: "refused" }), [refused, { ...refused, call_id: "c2" }]).rationale).toBe(
      'unexpected cancel_reservation {"reservation_id":"R-9"}; cancel_reservation failed (not_authorized)',
    );
  });

  it("RUN: a declared refusal leaves the advisory check passed; an undeclared one is listed", () => {
    expect(contract(refusalCase({ status: "refused" }), [refused], "run")).toEqual({
      required: false,
      status: "passed",
      rationale: "preferred tools (diagnostic in RUN): all 1 preferred call(s) observed, no other call, none failed",
      evidence_ids: ["tool.c1"],
    });
    expect(contract(refusalCase({}), [refused], "run").rationale).toContain("cancel_reservation failed (not_authorized)");
  });

  it("a refusal code without status refused is a dataset error naming the field", () => {
    const parsed = Scenario.safeParse({ ...booking, expected: { ...booking.expected, tools: { required: [{ name: "cancel_reservation", error: "not_authorized" }] } } });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]).toMatchObject({ path: ["expected", "tools", "required", 0, "error"], message: 'names the code of a refusal, so it needs "status": "refused"' });
  });
});
