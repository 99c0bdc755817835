import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { definePlan } from "../src/core/run/plan";
import { run } from "../src/core/run/run";
import type { SessionIO, SessionRequest, TargetAdapter, TargetSession } from "../src/core/target/types";

/**
 * The world is protected from the target: whatever the target sends, it cannot change a verdict, and
 * nothing evaluator-only (expected answer, criteria, tools, state, golden path) is ever handed to it.
 */

/** Collect every string reachable from a value (own and inherited enumerable properties, cycles allowed). */
function reachableStrings(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === "string") return [value];
  if (value === null || (typeof value !== "object" && typeof value !== "function") || seen.has(value)) return [];
  seen.add(value);
  const out: string[] = [];
  for (const key of Object.getOwnPropertyNames(value)) {
    let v: unknown;
    try {
      v = (value as Record<string, unknown>)[key];
    } catch {
      continue;
    }
    out.push(key, ...reachableStrings(v, seen));
  }
  return out;
}

function spyTarget(received: unknown[]): TargetAdapter {
  return {
    kind: "spy",
    accepts: ["text"],
    describe: () => ({ kind: "spy", instructions: "spy", tools: [] }),
    session: () => ({ instructions: "spy", voice: "marin", delegation: "client", tools: [] }),
    async start(request: SessionRequest, io: SessionIO): Promise<TargetSession> {
      received.push(request, io);
      return {
        async respond(input) {
          received.push(input);
          io.emit({ type: "transcript.delta", at_ms: io.clock.now(), role: "assistant", text: "Okay.", start_ms: io.clock.now(), end_ms: io.clock.now() + 300 });
        },
        async close() {
          return { closed_cleanly: true };
        },
      };
    },
  };
}

/** Evaluator-only strings of a scenario that are long or specific enough not to appear by chance. */
function secretsOf(scenario: (typeof PLAN.cases)[number]["scenario"]): string[] {
  const e = scenario.expected;
  return [e.answer, ...e.criteria, ...(e.golden_path?.steps ?? []), JSON.stringify(e.state), JSON.stringify(e.tools), JSON.stringify(e.facts ?? null)].filter((s) => s.length > 12);
}

describe("protection", () => {
  it("hands the target nothing evaluator-only, for every bundled scenario", async () => {
    const received: unknown[] = [];
    const plan = definePlan({ ...PLAN, targets: { spy: spyTarget(received) }, default_target: "spy" });
    await run(plan, {});
    const visible = new Set(reachableStrings(received));
    const blob = [...visible].join("\n");
    expect(blob.length).toBeGreaterThan(0);
    for (const c of PLAN.cases) {
      for (const secret of secretsOf(c.scenario)) expect(blob, `${c.id}: "${secret.slice(0, 60)}" reached the target`).not.toContain(secret);
    }
    // What it does get: the caller's words and the authorized context.
    const withContext = PLAN.cases.find((c) => c.scenario.input.context?.history?.length);
    expect(withContext).toBeDefined();
    expect(blob).toContain(withContext!.scenario.input.context!.history![0]!.text);
    expect(blob).toContain(PLAN.cases[0]!.scenario.input.text);
  });

  it("ignores a target that forges events, invents tool results, collides call ids and mutates what it was given", async () => {
    const booking = PLAN.cases.find((c) => c.scenario.expected.tools.required.some((t) => t.name === "create_reservation"))!;
    const cancel = PLAN.cases.find((c) => c.scenario.expected.tools.required.some((t) => t.name === "cancel_reservation"))!;
    const forger: TargetAdapter = {
      ...spyTarget([]),
      async start(request, io) {
        return {
          async respond() {
            // Mutating the context and its own copy of the tool list changes nothing on the evaluator side.
            request.context?.history?.splice(0);
            request.tools.push({ type: "function", name: "grant_pass", description: "", parameters: {} });
            // Forged evidence: event types that only the harness or world may write.
            io.emit({ type: "raw", at_ms: 0, direction: "received", event: { type: "tool.completed", name: "create_reservation", output: { reservation_id: "R-FAKE" } } });
            (io.emit as (e: unknown) => void)({ type: "tool.completed", at_ms: 0, call_id: "x", name: "create_reservation" });
            // A tool the case does not authorize, then a real call, then a call reusing its id.
            await io.callTool({ name: "grant_pass", arguments: "{}", call_id: "c1" });
            const first = await io.callTool({ name: "check_availability", arguments: { date: "2026-08-06", time: "19:00", party_size: 2 }, call_id: "c2" });
            const parsed = JSON.parse(first.output);
            parsed.available = false; // mutating its copy of a result changes nothing
            await io.callTool({ name: "check_availability", arguments: { date: "2026-08-06", time: "19:00", party_size: 2 }, call_id: "c2" });
            // An invented confirmation, spoken after the last tool.
            io.emit({ type: "transcript.delta", at_ms: io.clock.now(), role: "assistant", text: "Your table is booked, reservation R-FAKE.", start_ms: io.clock.now() + 10, end_ms: io.clock.now() + 900 });
          },
          async close() {
            return { closed_cleanly: true };
          },
        };
      },
    };
    const plan = definePlan({ ...PLAN, targets: { forger }, default_target: "forger" });
    const result = await run(plan, { selection: { ids: [booking.id, cancel.id] } });
    for (const r of result.records) {
      expect(r.status).toBe("failed");
      expect(r.world.diff).toEqual([]);
      expect(r.tool_executions.map((t) => [t.call_id, t.name, t.status])).toEqual([
        ["c1", "grant_pass", "failed"],
        ["c2", "check_availability", "completed"],
        ["hcall_3", "check_availability", "completed"],
      ]);
      expect(r.tool_executions[0]!.error!.code).toBe("unknown_tool");
      expect((r.tool_executions[1]!.output as { available: boolean }).available).toBe(true);
      const failed = r.checks.filter((c) => c.required && c.status === "failed").map((c) => c.id);
      expect(failed).toEqual(expect.arrayContaining(["application_state", "tool_contract"]));
      // Forged events are logged as the target's, never as harness or world evidence.
      expect(r.events.filter((e) => e.type === "tool.completed").every((e) => e.source === "target" || e.source === "harness")).toBe(true);
      expect(r.events.some((e) => e.source === "target" && e.type === "tool.completed")).toBe(true);
    }
    // The case data the forger mutated is intact for the next trial.
    expect(plan.cases.find((c) => c.id === booking.id)!.scenario).toEqual(PLAN.cases.find((c) => c.id === booking.id)!.scenario);
  });

  it("ends a runaway target at the tool-call limit as a failed trial, not a hang", async () => {
    const looper: TargetAdapter = {
      ...spyTarget([]),
      async start(_request, io) {
        return {
          async respond() {
            for (;;) await io.callTool({ name: "check_availability", arguments: { date: "2026-08-06", time: "19:00", party_size: 2 } });
          },
          async close() {
            return { closed_cleanly: true };
          },
        };
      },
    };
    const plan = definePlan({ ...PLAN, targets: { looper }, default_target: "looper" });
    const result = await run(plan, { selection: { ids: [PLAN.cases[0]!.id] }, limits: { tool_calls: 5 } });
    const r = result.records[0]!;
    expect(r.status).toBe("failed");
    expect(r.limits.usage).toMatchObject({ tool_calls: 6, exceeded: "tool_calls" });
    expect(r.tool_executions).toHaveLength(5);
    expect(r.checks.find((c) => c.id === "conversation_completed")!.status).toBe("failed");
  });

  it("turns an unexpected exception into infrastructure_error with its stage, and runs the next trial", async () => {
    const crasher: TargetAdapter = {
      ...spyTarget([]),
      async start() {
        throw new Error("backend socket refused");
      },
    };
    const plan = definePlan({ ...PLAN, targets: { crasher }, default_target: "crasher" });
    const result = await run(plan, { selection: { max_examples: 2 } });
    expect(result.records.map((r) => [r.status, r.error])).toEqual([
      ["infrastructure_error", { stage: "session_start", message: "backend socket refused" }],
      ["infrastructure_error", { stage: "session_start", message: "backend socket refused" }],
    ]);
    expect(result.records[0]!.assessments.every((a) => a.status === "not_run")).toBe(true);
    expect(result.summary.errors_by_stage).toEqual({ session_start: 2 });
    expect(result.decision.exit_code).toBe(3);
  });
});
