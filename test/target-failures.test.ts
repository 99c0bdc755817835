import { gunzipSync } from "node:zlib";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { gptLiveTarget } from "../src/core/gpt-live-target/adapter";
import { ResultsFile } from "../src/core/record/results";
import { definePlan } from "../src/core/run/plan";
import { run } from "../src/core/run/run";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import { policyTarget } from "../src/core/target/text-target";
import { DEFAULT_TARGET_SETTINGS } from "../src/core/target/settings";
import type { AssistantPolicy } from "../src/core/target/policy";
import type { LiveFaultKind } from "../src/core/simulator/index";

/**
 * The target's own hang, silence or stall is the target's failure (`failed`, exit 1) with
 * the limit or the timeout named; the session is still closed politely, and a close that fails after
 * that is recorded beside the outcome, not instead of it. A dead connection, a refused session or a
 * protocol violation by the service stays infrastructure (`test/crawl-audio.test.ts`, the fault matrix).
 */
const repo = resolve(import.meta.dirname, "..");
const speech = new EspeakSynthesizer();

async function cli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

function faultyPlan(fault: LiveFaultKind) {
  const target = () =>
    gptLiveTarget({
      settings: DEFAULT_TARGET_SETTINGS,
      instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
      backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS,
      tools: RESTAURANT_TOOLS,
      offline: { policy: restaurantPolicy(), faults: [{ kind: fault }] },
    });
  return definePlan({ ...PLAN, targets: { target }, default_target: "target" });
}

describe("a limit hit is the target's failure, never an infrastructure error", () => {
  it("the hang case: --trial-timeout-seconds 3 fails the trial with the limit named, closes the session cleanly, exits 1", async () => {
    const out = mkdtempSync(join(tmpdir(), "hang-"));
    const r = await cli(["run", "--example", "harbor_001", "--trial-timeout-seconds", "3", "--results-dir", out]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/FAIL\s+harbor_001#1 — outcome \(conversation_completed.*\) — stopped: limit time_ms exceeded \(3000\)/);
    const dir = join(out, readdirSync(out)[0]!);
    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(dir, "results.json"), "utf8")));
    const t = doc.trials[0]!;
    expect(t).toMatchObject({ status: "failed", error: null });
    expect(t.cleanup_errors).toBeUndefined();
    expect(t.limits.usage.exceeded).toBe("time_ms");
    expect(t.checks.find((c) => c.id === "conversation_completed")).toMatchObject({ status: "failed", required: true, rationale: "stopped: limit time_ms exceeded (3000)" });
    expect(doc.summary.errors_by_stage).toEqual({});
    expect(doc.gates).toMatchObject({ decision: "fail", exit_code: 1 });
    const events = gunzipSync(readFileSync(join(dir, "events/harbor_001.r1.jsonl.gz"))).toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(events.find((e) => e.type === "session.closed" && e.source === "harness")!.data).toMatchObject({ closed_cleanly: true, reason: "close_requested" });
  });

  it("a text target that never answers fails at the time limit", async () => {
    const hanging: AssistantPolicy = { name: "hangs", version: "1", frontend: () => ({ kind: "delegate" }), backend: () => new Promise(() => undefined) };
    const plan = definePlan({ ...PLAN, targets: { hangs: policyTarget({ policy: hanging, instructions: "", tools: RESTAURANT_TOOLS }) }, default_target: "hangs" });
    const result = await run(plan, { selection: { ids: ["harbor_001"] }, limits: { time_ms: 5_000 } });
    const t = result.records[0]!;
    expect(t).toMatchObject({ status: "failed", error: null });
    expect(t.limits.usage.exceeded).toBe("time_ms");
    expect(result.decision).toMatchObject({ decision: "fail", exit_code: 1 });
  });

  it("a limit hit on a session that then cannot close: failed, with the close failure recorded beside", async () => {
    const result = await run(faultyPlan("no_session_closed"), { speech, selection: { ids: ["harbor_001"] }, limits: { time_ms: 3_000 } });
    const t = result.records[0]!;
    expect(t).toMatchObject({ status: "failed", error: null });
    expect(t.limits.usage.exceeded).toBe("time_ms");
    expect(t.cleanup_errors).toEqual([{ stage: "session_close", message: "the session did not finalize cleanly (socket closed without session.closed (code 1000))" }]);
    expect(result.decision.exit_code).toBe(1);
  });

  it("without a target failure, the same close failure is still infrastructure", async () => {
    const result = await run(faultyPlan("no_session_closed"), { speech, selection: { ids: ["harbor_001"] } });
    const t = result.records[0]!;
    expect(t.status).toBe("infrastructure_error");
    expect(t.error).toMatchObject({ stage: "session_close" });
    expect(t.cleanup_errors).toBeUndefined();
    expect(result.decision.exit_code).toBe(3);
  });
});

describe("a target that stays silent fails at the response timeout", () => {
  it("a slow answer past --response-timeout-seconds is the target's failure, with what was awaited", async () => {
    const result = await run(PLAN, { speech, selection: { ids: ["harbor_001"] }, audio: { response_timeout_ms: 500 } });
    const t = result.records[0]!;
    expect(t).toMatchObject({ status: "failed", error: null });
    expect(t.checks.find((c) => c.id === "conversation_completed")!.rationale).toMatch(/^response_timeout: no complete response within 0\.5 s of the end of caller audio \(still waiting for: .+\)$/);
    expect(t.events.some((e) => e.type === "response.timeout_failure")).toBe(true);
    // The session was closed politely: nothing is left for the beside list.
    expect(t.cleanup_errors).toBeUndefined();
    expect(result.decision).toMatchObject({ decision: "fail", exit_code: 1 });
  });
});
