import { describe, expect, it } from "vitest";
import type { ToolExecution } from "../src/core/record/trial-record";
import { grade } from "../src/core/verify/deterministic";
import { operationKind, readToolPath, writeFaultCalls, writeFaults, type ToolPathCallerLine } from "../src/core/verify/tool-path";
import type { WorldEvent } from "../src/core/world/types";
import { CLINIC_STATE, clinicWorld, restaurantWorld, scenarioWith, script, type Step } from "./grading-rules-fixtures";

/**
 * The tool-path rule (docs/grading.md, "The tool-path rule"), one rule in CRAWL and RUN: required calls in
 * order, read-only calls beside them pass, an extra, repeated or unauthorized write fails. Checked on the
 * pure reading, on paths generated from a correct one (extra reads inserted anywhere pass; every fault
 * operator fails on its check), in the restaurant world and in a clinic world.
 */

const checkOf = (g: ReturnType<typeof grade>, id: string) => g.checks.find((c) => c.id === id)!;

function exec(call_id: string, name: string, args: Record<string, unknown>, status: "completed" | "failed" = "completed", at = 1000): ToolExecution {
  return { call_id, name, arguments: args as ToolExecution["arguments"], raw_arguments: JSON.stringify(args), status, requested_ms: at, completed_ms: at + 10 };
}
const kinds = { look: "read", make: "write", drop: "write" } as const;

describe("readToolPath", () => {
  it("matches required calls as an ordered subsequence, each to the first fitting call after the previous match", () => {
    const tools = [exec("c1", "look", { a: 1 }), exec("c2", "make", { a: 1 }), exec("c3", "look", { a: 2 }), exec("c4", "make", { a: 2 })];
    const path = readToolPath({ required: [{ name: "make", arguments: {}, status: "completed" }, { name: "make", arguments: { a: 2 }, status: "completed" }], tools, events: [], operation_kinds: kinds });
    expect(path.matched).toEqual([1, 3]);
    expect(path.reads.map((t) => t.call_id)).toEqual(["c1", "c3"]);
    expect(path.unexpected).toEqual([]);
    expect(path.asked.map((t) => t.call_id)).toEqual(["c2", "c4"]);
    // Out of order: the second required call has nothing after the first match.
    const swapped = readToolPath({ required: [{ name: "make", arguments: { a: 2 }, status: "completed" }, { name: "make", arguments: { a: 1 }, status: "completed" }], tools, events: [], operation_kinds: kinds });
    expect(swapped.matched).toEqual([3, -1]);
    // A missing call consumes nothing: the next one is still found.
    const missing = readToolPath({ required: [{ name: "drop", arguments: {}, status: "completed" }, { name: "make", arguments: { a: 1 }, status: "completed" }], tools, events: [], operation_kinds: kinds });
    expect(missing.matched).toEqual([-1, 1]);
  });

  it("a completed read beyond the required calls passes; a failed read, a write or a call of no known kind does not", () => {
    const tools = [exec("c1", "look", {}), exec("c2", "look", {}, "failed"), exec("c3", "make", {}), exec("c4", "mystery", {})];
    const path = readToolPath({ required: [], tools, events: [], operation_kinds: kinds });
    expect(path.reads.map((t) => t.call_id)).toEqual(["c1"]);
    expect(path.unexpected.map((t) => t.call_id)).toEqual(["c2", "c3", "c4"]);
    expect(path.failed.map((t) => t.call_id)).toEqual(["c2"]);
    // The unknown call counts as a write: an extra one.
    expect(path.extra_writes.map((t) => t.call_id)).toEqual(["c3", "c4"]);
  });

  it("an operation's kind: declared, else its event's, else a write", () => {
    const events: WorldEvent[] = [{ seq: 7, at_ms: 1, operation: "x", kind: "read", args: {}, outcome: "ok", patches: [], cause: { trial: "t", call_id: "other" } }];
    expect(operationKind({ ...exec("c1", "x", {}), world_seq: 7 }, events)).toBe("read");
    expect(operationKind({ ...exec("other", "x", {}) }, events)).toBe("read");
    expect(operationKind(exec("c9", "x", {}), events)).toBe("write");
    expect(operationKind({ ...exec("c1", "x", {}), world_seq: 7 }, events, { x: "write" })).toBe("write");
    // A declaration of another operation says nothing about this one.
    expect(operationKind({ ...exec("c1", "x", {}), world_seq: 7 }, events, { y: "write" })).toBe("read");
  });

  it("a repeated write: the same operation and arguments as an earlier completed write, tried or done, no expected call accounting for it", () => {
    const tools = [exec("c1", "make", { a: 1 }), exec("c2", "make", { a: 1 }), exec("c3", "make", { a: 1 }, "failed"), exec("c4", "make", { a: 2 })];
    const path = readToolPath({ required: [{ name: "make", arguments: { a: 1 }, status: "completed" }], tools, events: [], operation_kinds: kinds });
    expect(path.repeated_writes.map((r) => [r.call.call_id, r.earlier.call_id])).toEqual([["c2", "c1"], ["c3", "c1"]]);
    expect(path.extra_writes.map((t) => t.call_id)).toEqual(["c4"]);
    expect(writeFaults(path)).toEqual([
      'extra write make {"a":2}',
      'repeated write make {"a":1} (completed; already done by c1)',
      'repeated write make {"a":1} (failed; already done by c1)',
    ]);
    expect(writeFaultCalls(path).map((t) => t.call_id)).toEqual(["c4", "c2", "c3"]);
    // A failed write that repeats nothing is no write fault (nothing was done); an earlier failed try is not "done".
    const retried = readToolPath({ required: [{ name: "make", arguments: { a: 1 }, status: "completed" }], tools: [exec("c1", "make", { a: 1 }, "failed"), exec("c2", "make", { a: 1 })], events: [], operation_kinds: kinds });
    expect(writeFaults(retried)).toEqual([]);
    // Two identical writes the case expects twice are both accounted for.
    const twice = readToolPath({ required: [{ name: "make", arguments: {}, status: "completed" }, { name: "make", arguments: {}, status: "completed" }], tools: tools.slice(0, 2), events: [], operation_kinds: kinds });
    expect(writeFaults(twice)).toEqual([]);
  });

  it("expected calls beyond the required ones (a procedure's tool steps) account for writes, in any order", () => {
    const tools = [exec("c1", "drop", { id: 1 }), exec("c2", "make", { a: 1 })];
    const path = readToolPath({ required: [], expected: [{ name: "make", arguments: {}, status: "completed" }, { name: "drop", arguments: { id: 1 }, status: "completed" }], tools, events: [], operation_kinds: kinds });
    expect(path.extra_writes).toEqual([]);
    expect(path.asked.map((t) => t.call_id)).toEqual(["c1", "c2"]);
    expect(readToolPath({ required: [], expected: [{ name: "make", arguments: { a: 9 }, status: "completed" }], tools, events: [], operation_kinds: kinds }).extra_writes.map((t) => t.call_id)).toEqual(["c1", "c2"]);
  });

  it("a write after the caller withheld the go-ahead, until the caller gives, corrects, confirms or requests again", () => {
    const make = (at: number) => exec(`w${at}`, "make", {}, "completed", at);
    const line = (start_ms: number, ...acts: string[]) => ({ start_ms, end_ms: start_ms + 500, acts: acts.map((kind) => ({ kind })) });
    const unauthorized = (caller: ToolPathCallerLine[], at: number) =>
      readToolPath({ required: [{ name: "make", arguments: {}, status: "completed" }], tools: [make(at)], events: [], operation_kinds: kinds, caller }).unauthorized_writes.map((u) => u.declined.start_ms);
    expect(unauthorized([line(100, "decline")], 1000)).toEqual([100]);
    expect(writeFaults(readToolPath({ required: [], tools: [make(1000)], events: [], operation_kinds: kinds, caller: [line(100, "decline")] }))).toContain("make {} requested at 1000 ms after the caller withheld the go-ahead at 100 ms");
    for (const giving of ["confirm", "give", "correct", "request"]) {
      expect(unauthorized([line(100, "decline"), line(300, giving)], 1000), giving).toEqual([]);
      // Given only after the call was requested: too late.
      expect(unauthorized([line(100, "decline"), line(700, giving)], 1000), giving).toEqual([100]);
      // A decline that also gives something is a counter-proposal, not a withheld go-ahead.
      expect(unauthorized([line(100, "decline", giving)], 1000), giving).toEqual([]);
    }
    // Only lines that ended before the call was requested count; a line still being spoken counts for nothing.
    expect(unauthorized([line(100, "decline")], 600)).toEqual([100]);
    expect(unauthorized([line(100, "decline")], 599)).toEqual([]);
    expect(unauthorized([{ start_ms: 100, end_ms: null, acts: [{ kind: "decline" }] }], 1000)).toEqual([]);
    expect(unauthorized([line(100, "ask"), line(300)], 1000)).toEqual([]);
    expect(unauthorized([{ start_ms: 100, end_ms: 200 }], 1000)).toEqual([]);
    // A read is never a write after a decline.
    expect(readToolPath({ required: [], tools: [exec("r", "look", {}, "completed", 1000)], events: [], operation_kinds: kinds, caller: [line(100, "decline")] }).unauthorized_writes).toEqual([]);
  });
});

// ── Generated paths over real worlds ─────────────────────────────────────────────────────────────────

/** A small seeded generator (mulberry32): the same seed gives the same variants. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Domain {
  name: string;
  world: typeof restaurantWorld | typeof clinicWorld;
  initial: Record<string, unknown>;
  request: string;
  /** The correct path: the required write, then a confirmation. */
  write: { call: string; args: Record<string, string | number> };
  confirm: string;
  /** Read-only calls an assistant may add anywhere. */
  reads: Array<{ call: string; args: Record<string, string | number> }>;
  /** A write the request did not ask for. */
  other: { call: string; args: Record<string, string | number> };
}

const DOMAINS: Domain[] = [
  {
    name: "restaurant",
    world: restaurantWorld,
    initial: { reservations: [{ reservation_id: "R-1001", guest_name: "Maya", date: "2026-08-20", time: "19:00", party_size: 2 }], authorized_reservation_ids: ["R-1001"] },
    request: "Book a table for two under Maya on August 14 at 7 p.m.",
    write: { call: "create_reservation", args: { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 } },
    confirm: "You're booked: a table for two under Maya on August 14 at 7 p.m.",
    reads: [
      { call: "check_availability", args: { date: "2026-08-14", time: "19:00", party_size: 2 } },
      { call: "check_availability", args: { date: "2026-08-14", time: "20:00", party_size: 2 } },
    ],
    other: { call: "cancel_reservation", args: { reservation_id: "R-1001" } },
  },
  {
    name: "clinic",
    world: clinicWorld,
    initial: CLINIC_STATE as unknown as Record<string, unknown>,
    request: "Please book me with Dr Osei on September 15 at 9:30 a.m.",
    write: { call: "book_appointment", args: { patient: "Ines Duarte", doctor: "Osei", date: "2026-09-15", time: "09:30" } },
    confirm: "Your appointment with Dr Osei on September 15 at 9:30 a.m. is booked.",
    reads: [
      { call: "find_slot", args: { doctor: "Osei", date: "2026-09-15", time: "09:30" } },
      { call: "find_slot", args: { doctor: "Osei", date: "2026-09-15", time: "10:30" } },
    ],
    other: { call: "cancel_appointment", args: { appointment_id: "C-100" } },
  },
];

type Fault = "none" | "extra_write" | "repeated_write" | "write_after_decline" | "missing";

/** A path from the correct one: extra reads at seeded places, and at most one fault. */
function variant(d: Domain, rand: () => number, fault: Fault, caseKind: "crawl" | "run"): Step[] {
  const steps: Step[] = [];
  if (caseKind === "run") steps.push({ caller: d.request, acts: [{ kind: "request" }] });
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const reads = () => Array.from({ length: Math.floor(rand() * 3) }, () => ({ ...pick(d.reads) }));
  steps.push(...reads());
  if (fault === "write_after_decline") {
    steps.push({ say: "Shall I go ahead?" }, { caller: "No, not yet.", acts: [{ kind: "decline" }], heard: { kind: "go_ahead", action: null } });
  }
  if (fault !== "missing") steps.push({ ...d.write });
  steps.push(...reads());
  if (fault === "repeated_write") steps.push({ ...d.write });
  if (fault === "extra_write") steps.push({ ...d.other });
  steps.push({ say: d.confirm });
  return steps;
}

describe("one rule in CRAWL and RUN, on generated paths in two domains", () => {
  const VARIANTS = 12;
  for (const d of DOMAINS) {
    for (const caseKind of ["crawl", "run"] as const) {
      const scenario = scenarioWith(d.request, [{ name: d.write.call, arguments: d.write.args }], caseKind === "run" ? { procedure: { id: "p", steps: [{ id: "w", kind: "tool", tool: d.write.call, arguments: d.write.args, critical: true }] } } : {});
      const trial = (steps: Step[]) => grade(script({ world: d.world, initial: d.initial, scenario, case_kind: caseKind }, steps));

      it(`${d.name} ${caseKind}: extra read-only calls anywhere pass both checks`, () => {
        const rand = random(caseKind === "run" ? 11 : 7);
        let withReads = 0;
        for (let i = 0; i < VARIANTS; i++) {
          const steps = variant(d, rand, "none", caseKind);
          const g = trial(steps);
          const reads = steps.filter((s) => "call" in s && s.call !== d.write.call).length;
          withReads += reads > 0 ? 1 : 0;
          expect(checkOf(g, "authorized_actions").status, JSON.stringify(steps)).toBe("passed");
          if (caseKind === "crawl") {
            expect(checkOf(g, "tool_contract"), JSON.stringify(steps)).toMatchObject({ required: true, status: "passed" });
            if (reads > 0) expect(checkOf(g, "tool_contract").rationale).toContain("read-only call(s) beside them");
          } else expect(checkOf(g, "critical_procedure").status).toBe("passed");
        }
        // The generator did put reads in (the test would prove nothing otherwise).
        expect(withReads).toBeGreaterThan(VARIANTS / 2);
      });

      // A decline is read from the caller's acts, which only a conversation records.
      for (const fault of caseKind === "run" ? (["extra_write", "repeated_write", "write_after_decline"] as const) : (["extra_write", "repeated_write"] as const)) {
        it(`${d.name} ${caseKind}: a ${fault.replace(/_/g, " ")} fails authorized_actions${caseKind === "crawl" ? " and tool_contract" : ""}`, () => {
          const rand = random(fault.length * (caseKind === "run" ? 3 : 5));
          for (let i = 0; i < VARIANTS; i++) {
            const steps = variant(d, rand, fault, caseKind);
            const g = trial(steps);
            const authorized = checkOf(g, "authorized_actions");
            expect(authorized.status, JSON.stringify(steps)).toBe("failed");
            expect(authorized.rationale).toContain(fault === "extra_write" ? "extra write" : fault === "repeated_write" ? "repeated write" : "after the caller withheld the go-ahead");
            expect(authorized.evidence_ids.length).toBeGreaterThan(0);
            if (caseKind === "crawl") expect(checkOf(g, "tool_contract")).toMatchObject({ status: "failed", rationale: expect.stringContaining(fault === "repeated_write" ? `repeated ${d.write.call}` : `unexpected ${d.other.call}`) });
            else expect(checkOf(g, "tool_contract").required).toBe(false);
          }
        });
      }

      it(`${d.name} ${caseKind}: a missing required write fails in order (CRAWL: tool_contract; RUN: the procedure)`, () => {
        const g = trial(variant(d, random(3), "missing", caseKind));
        if (caseKind === "crawl") expect(checkOf(g, "tool_contract").rationale).toContain(`missing ${d.write.call} (call 1)`);
        else expect(checkOf(g, "critical_procedure").status).toBe("failed");
      });
    }
  }

  it("a required call that ran only before another required call fails tool_contract in order, naming what ran", () => {
    const d = DOMAINS[0]!;
    const scenario = scenarioWith(d.request, [{ name: "create_reservation", arguments: d.write.args }, { name: "check_availability", arguments: d.reads[0]!.args }]);
    const g = grade(script({ world: d.world, initial: d.initial, scenario }, [{ ...d.reads[0]! }, { ...d.write }, { say: d.confirm }]));
    expect(checkOf(g, "tool_contract").rationale).toBe(
      `call 2: expected check_availability ${JSON.stringify(d.reads[0]!.args)} in order, observed check_availability ${JSON.stringify(d.reads[0]!.args)} (completed)`,
    );
  });
});
