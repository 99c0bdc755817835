/**
 * The world a target reports (docs/remote-assistant.md, docs/grading.md "Evidence a target reports"): built
 * from its calls and state snapshots, graded by the same checks, and said to be its report — never passed
 * off as crashlab's observation.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Scenario } from "../src/core/dataset/schema";
import type { ToolExecution } from "../src/core/record/trial-record";
import { grade, type GradingInput } from "../src/core/verify/deterministic";
import { defineWorld } from "../src/core/world/define";
import { reportedWorld, type ReportedCall } from "../src/core/world/reported";

const shop = defineWorld({
  name: "shop",
  version: "1",
  state: z.strictObject({ bookings: z.record(z.string(), z.strictObject({ day: z.string() })) }),
  operations: {
    book: { kind: "write", description: "book", args: z.strictObject({ day: z.string() }), run: ({ state, args }) => void (state.bookings.b1 = { day: args.day }) },
    check: { kind: "read", description: "check", args: z.strictObject({ day: z.string() }), run: () => ({ free: true }) },
  },
  view: (s) => ({ booked: Object.keys(s.bookings).length > 0, days: Object.values(s.bookings).map((b) => b.day) }),
});

const empty = { bookings: {} };
const booked = { bookings: { b1: { day: "tuesday" } } };
const call = (over: Partial<ReportedCall>): ReportedCall => ({ call_id: "c1", name: "book", args: { day: "tuesday" }, status: "completed", output: { ok: true }, at_ms: 1000, ...over });

describe("a reported world", () => {
  it("is the snapshots in order: an event per call with the patches between them, the final state, the diff and the view", () => {
    const w = reportedWorld(shop, "t#1", empty, [call({ call_id: "c0", name: "check", state: empty, at_ms: 500 }), call({ state: booked, delegation_id: "d1" })]);
    expect(w.initial).toEqual(empty);
    expect(w.final).toEqual(booked);
    expect(w.diff).toEqual([{ op: "add", path: "/bookings/b1", value: { day: "tuesday" } }]);
    expect(w.view).toEqual({ booked: true, days: ["tuesday"] });
    expect(w.events).toEqual([
      { seq: 1, at_ms: 500, operation: "check", kind: "read", args: { day: "tuesday" }, outcome: "ok", result: { ok: true }, patches: [], cause: { trial: "t#1", call_id: "c0" }, reported_by: "target" },
      { seq: 2, at_ms: 1000, operation: "book", kind: "write", args: { day: "tuesday" }, outcome: "ok", result: { ok: true }, patches: [{ op: "add", path: "/bookings/b1", value: { day: "tuesday" } }], cause: { trial: "t#1", delegation_id: "d1", call_id: "c1" }, reported_by: "target" },
    ]);
    expect(Object.isFrozen(w.events[0])).toBe(true);
  });

  it("keeps the state where a call reported none, names a refusal's error, and reads an undeclared tool's kind from what changed", () => {
    const refused = call({ status: "failed", error: { code: "not_found", message: "no such day" }, output: undefined });
    const w = reportedWorld(shop, "t#1", booked, [refused, call({ call_id: "c2", name: "rebook", state: { bookings: { b1: { day: "friday" } } } }), call({ call_id: "c3", name: "peek" })]);
    expect(w.events.map((e) => [e.operation, e.kind, e.outcome, e.patches.length])).toEqual([
      ["book", "write", "error", 0],
      ["rebook", "write", "ok", 1],
      ["peek", "read", "ok", 0],
    ]);
    expect(w.events[0]!.error).toEqual({ code: "not_found", message: "no such day" });
    expect(w.final).toEqual({ bookings: { b1: { day: "friday" } } });
  });

  it("gives no view, and says why, when the package's view cannot read the reported state", () => {
    const w = reportedWorld(shop, "t#1", empty, [call({ state: { tables: [1, 2] } })]);
    expect(w.view).toEqual({});
    expect(w.view_error).toMatch(/Cannot convert undefined or null to object|undefined/);
    expect(w.final).toEqual({ tables: [1, 2] });
  });
});

const scenario = Scenario.parse({
  id: "s1",
  title: "Book Tuesday",
  type: "booking",
  interaction: "single_turn",
  input: { text: "Book Tuesday." },
  application: { initial_state: {} },
  expected: { answer: "Books Tuesday", delegation: "required", tools: { required: [{ name: "book", arguments: { day: "tuesday" } }] }, state: { booked: true } },
});

function gradingOf(reported: boolean, finalState: object = booked): GradingInput {
  const w = reportedWorld(shop, "t#1", empty, [call({ state: finalState as never })]);
  const execution: ToolExecution = { call_id: "c1", name: "book", arguments: { day: "tuesday" }, raw_arguments: '{"day":"tuesday"}', status: "completed", output: { ok: true }, requested_ms: 900, completed_ms: 1000, world_seq: 1, ...(reported ? { reported_by: "target" as const } : {}) };
  return {
    scenario,
    case_kind: "crawl",
    completed: true,
    completion_note: "completed",
    turns: [
      { role: "user", text: "Book Tuesday.", start_ms: 0, end_ms: 800 },
      { role: "assistant", text: "Tuesday is booked.", start_ms: 1200, end_ms: 1800 },
    ],
    delegations: [{ delegation_id: "d1", target: "client", created_ms: 850 }],
    tool_executions: [execution],
    world: { ...w, ...(reported ? { reported_by: "target" as const } : {}) },
  };
}

describe("grading a reported world", () => {
  it("runs the same state checks on the reported snapshot and says the state is the target's report", () => {
    const reported = grade(gradingOf(true));
    const observed = grade(gradingOf(false));
    const verdict = (g: ReturnType<typeof grade>) => g.checks.map((c) => [c.id, c.status]);
    expect(verdict(reported)).toEqual(verdict(observed));
    const rationale = (g: ReturnType<typeof grade>, id: string) => g.checks.find((c) => c.id === id)!.rationale;
    expect(rationale(reported, "application_state")).toBe("final state matches the expected fields (as reported by the target)");
    expect(rationale(observed, "application_state")).toBe("final state matches the expected fields");
    expect(rationale(reported, "verified_state_change")).toBe("state changed by book (as reported by the target)");
    expect(rationale(observed, "verified_state_change")).toBe("state changed by book");
    expect(reported.dimensions.final_state!.rationale).toMatch(/\(as reported by the target\)$/);
  });

  it("fails on the reported snapshot as it would on an observed one", () => {
    const g = grade(gradingOf(true, empty));
    expect(g.checks.find((c) => c.id === "application_state")).toMatchObject({ status: "failed", rationale: expect.stringMatching(/^final state differs: booked: expected true, observed false \(as reported by the target\)$/) });
  });
});
