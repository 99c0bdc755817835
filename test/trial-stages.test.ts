import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { TrialRecord } from "../src/core/record/trial-record";
import { resolveRun } from "../src/core/run/run";
import type { TrialContext, TrialResult } from "../src/core/trial/context";
import { runTrial } from "../src/core/trial/run-trial";
import { textInput } from "../src/core/trial/single-turn/caller-input";
import { closeSession } from "../src/core/trial/stages/close";
import { untilComplete } from "../src/core/trial/stages/completion";
import { judge } from "../src/core/trial/stages/judge";
import { measure } from "../src/core/trial/stages/measure";
import { draftRecord, finishRecord } from "../src/core/trial/stages/record";
import { startSession } from "../src/core/trial/stages/session-start";
import { verify } from "../src/core/trial/stages/verify";
import { setUpWorld } from "../src/core/trial/stages/world-setup";
import { TrialState, type HarnessToolEvent } from "../src/core/trial/state";
import type { AgentEvent } from "../src/core/target/types";
import { CRASHLAB_VERSION } from "../src/core/version";

/**
 * A trial is a list of stages over shared state, and a driver composes them: a second driver, written
 * here from the same stages with its own input delivery and completion, needs nothing copied from the
 * single-turn driver.
 */
function contexts(ids: string[]): TrialContext[] {
  const resolved = resolveRun(PLAN, { target: "text_restaurant", selection: { ids }, seed: 5 });
  return resolved.trials.map((spec) => ({
    spec,
    target: resolved.target,
    target_name: resolved.target_name,
    limits: resolved.limits,
    verifiers: resolved.verifiers,
    package_digest: "test",
    // The package's public facts: what the assistant may state without a tool (grounded_response reads them).
    ...(PLAN.facts ? { facts: PLAN.facts } : {}),
    crashlab_version: CRASHLAB_VERSION,
    git: { commit: null, dirty: null },
    real_time: false,
  }));
}

/** A driver of caller turns at the text level, with a completion observer of its own. */
async function textTurnsTrial(ctx: TrialContext, turns: string[], seen: string[] = []): Promise<TrialResult> {
  const trial = new TrialState(ctx);
  trial.observe({ observe: (e: AgentEvent) => void seen.push(`event ${e.type}`), observeTool: (e: HarnessToolEvent) => void seen.push(`${e.type} ${e.call_id}`) });
  const input = textInput(trial.scenario);
  await trial.live(async () => {
    setUpWorld(trial);
    const session = await startSession(trial);
    const end = await untilComplete(trial, async () => {
      for (const text of turns) {
        trial.log("harness", "input.delivered", { kind: "text", characters: text.length });
        await session.respond!({ kind: "text", text });
      }
    });
    if (end.ended === "target_fault") throw end.error;
    trial.completed = end.ended === "complete";
    await closeSession(trial, session);
  });
  const observed = await measure(trial, null);
  const verification = verify(trial, observed);
  const draft = draftRecord(trial, input, observed, verification);
  const assessments = await judge(trial, draft, verification);
  return finishRecord(trial, draft, assessments, observed, null);
}

const withoutWall = ({ record }: TrialResult) => ({ ...record, wall: null });

describe("trial stages compose into drivers", () => {
  it("a driver that delivers the one text turn gives exactly the single-turn driver's record", async () => {
    for (const ctx of contexts(["harbor_003", "harbor_024"])) {
      const composed = await textTurnsTrial(ctx, [ctx.spec.case.scenario.input.text]);
      const reference = await runTrial(ctx);
      expect(reference.record.status).toBe("passed");
      expect(withoutWall(composed)).toEqual(withoutWall(reference));
    }
  });

  it("a driver with two caller turns shares the clock, the log, the tool door and the limits", async () => {
    const [ctx] = contexts(["harbor_003"]);
    const seen: string[] = [];
    const scenario = ctx!.spec.case.scenario;
    const { record } = await textTurnsTrial(ctx!, ["Hello, I have a question.", scenario.input.text], seen);
    expect(() => TrialRecord.parse(record)).not.toThrow();
    expect(record.error).toBeNull();
    expect(record.turns.filter((t) => t.role === "user").map((t) => t.text.trim())).toEqual(["Hello, I have a question.", scenario.input.text]);
    // The harness executed the tool calls against this trial's world, and the observer saw them happen.
    expect(record.tool_executions.length).toBeGreaterThan(0);
    for (const t of record.tool_executions) {
      expect(seen).toContain(`tool.requested ${t.call_id}`);
      expect(seen).toContain(`tool.finished ${t.call_id}`);
      expect(record.world.events.some((e) => (e as { cause: { call_id: string } }).cause.call_id === t.call_id)).toBe(true);
    }
    expect(seen.filter((s) => s.startsWith("event ")).length).toBe(record.events.filter((e) => e.source === "target").length);
    expect(record.limits.usage.tool_calls).toBe(record.tool_executions.length);
    expect(record.limits.usage.turns).toBe(record.turns.filter((t) => t.role === "assistant").length);
    // One timeline: the second turn comes after the first, and the log is in time order.
    const times = record.events.map((e) => e.at_ms);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(record.duration_ms).toBeGreaterThan(record.turns.find((t) => t.role === "user")!.end_ms);
  });

  it("counts a second driver's turns against the trial's limit, and fails the trial past it", async () => {
    const [ctx] = contexts(["harbor_003"]);
    const { record } = await textTurnsTrial({ ...ctx!, limits: { ...ctx!.limits, turns: 1 } }, ["Hello, I have a question.", ctx!.spec.case.scenario.input.text]);
    expect(record.limits.usage.exceeded).toBe("turns");
    expect(record.limits.usage.turns).toBe(record.turns.filter((t) => t.role === "assistant").length);
    expect(record.limits.usage.turns).toBeGreaterThan(1);
    expect(record.status).toBe("failed");
    expect(record.checks.find((c) => c.id === "conversation_completed")!.status).toBe("failed");
  });
});
