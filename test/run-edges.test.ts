import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { OfflineCaller } from "../src/core/caller/offline-caller";
import type { TrialRecord } from "../src/core/record/trial-record";
import { run, type RunOptions } from "../src/core/run/run";
import { CachedSynthesizer, EspeakSynthesizer } from "../src/core/speech/index";
import { offlineConversation } from "./conversation-settings";

/**
 * RUN at its edges, offline in virtual time: who opens, the maximum duration, and failures on the
 * caller's side — which are not the target's fault.
 */
const speech = new CachedSynthesizer(new EspeakSynthesizer({ voice: "coral" }), { root: mkdtempSync(join(tmpdir(), "run-edges-speech-")) });
const RUN_PLAN = { ...PLAN, cases: PLAN.cases.filter((c) => c.kind === "run") };
const one = (id: string, extra: RunOptions = {}): RunOptions => ({ speech, conversation: offlineConversation(), selection: { ids: [id] }, ...extra });
const check = (r: TrialRecord, id: string) => r.checks.find((c) => c.id === id)!;

describe("RUN edges", () => {
  it("the assistant opens the call when asked with an opening prompt; the caller then states its request", async () => {
    const result = await run(RUN_PLAN, one("run_missing_name", { conversation: offlineConversation({ assistant_opening_prompt: "Greet the caller and ask how you can help." }) }));
    const r = result.records[0]!;
    expect([r.status, r.error]).toEqual(["passed", null]);
    expect(r.conversation!.opens).toBe("assistant");
    expect(r.turns[0]!.role).toBe("assistant");
    const firstCaller = r.conversation!.utterances[0]!;
    expect(firstCaller.intent).toBe("answer");
    expect(firstCaller.start_ms).toBeGreaterThan(r.turns[0]!.start_ms);
  }, 300_000);

  it("a conversation longer than the maximum duration fails with duration_limit (the target's failure, exit 1)", async () => {
    const result = await run(RUN_PLAN, one("run_booking_step_by_step", { conversation: offlineConversation({ max_duration_ms: 8000 }) }));
    const r = result.records[0]!;
    expect(r.status).toBe("failed");
    expect(r.error).toBeNull();
    expect(check(r, "conversation_completed")).toMatchObject({ status: "failed", required: true });
    expect(check(r, "conversation_completed").rationale).toMatch(/duration_limit/);
    expect(r.duration_ms).toBeLessThan(12_000);
    expect(result.decision.exit_code).toBe(1);
  }, 300_000);

  it("a caller in the assistant's voice is refused: infrastructure at caller_simulation, never the target's failure", async () => {
    const conversation = offlineConversation({ caller: () => new OfflineCaller({ voice: "marin", synthesizer: (v) => new EspeakSynthesizer({ voice: v }) }) });
    const result = await run(RUN_PLAN, one("run_missing_name", { conversation }));
    const r = result.records[0]!;
    expect(r.status).toBe("infrastructure_error");
    expect(r.error).toMatchObject({ stage: "caller_simulation" });
    expect(r.error!.message).toMatch(/voice "marin" is the assistant's/);
    expect(result.decision.exit_code).toBe(3);
  }, 300_000);

  it("a caller whose speech cannot be synthesized ends the trial at caller_simulation, and no verifier judges it", async () => {
    const broken = { synthesize: async (): Promise<never> => Promise.reject(new Error("the speech engine is missing")) };
    const conversation = offlineConversation({ caller: (p) => new OfflineCaller({ voice: p.voice, synthesizer: () => broken }) });
    const result = await run(RUN_PLAN, one("run_missing_name", { conversation }));
    const r = result.records[0]!;
    expect(r.status).toBe("infrastructure_error");
    expect(r.error).toMatchObject({ stage: "caller_simulation" });
    expect(r.error!.message).toMatch(/the caller's speech could not be synthesized: the speech engine is missing/);
    expect(r.assessments.every((a) => a.status === "not_run")).toBe(true);
  }, 300_000);

  it("an acoustic condition degrades the caller's audio only; the conversation still holds", async () => {
    const clean = await run(RUN_PLAN, one("run_missing_name"));
    const noisy = await run(RUN_PLAN, one("run_missing_name", { conversation: offlineConversation({ condition: { preset: "noisy" } }) }));
    expect(noisy.records[0]!.status).toBe("passed");
    expect(noisy.records[0]!.input.sha256).not.toBe(clean.records[0]!.input.sha256);
    // The assistant's side is the same policy saying the same words.
    const said = (r: TrialRecord) => r.turns.filter((t) => t.role === "assistant").map((t) => t.text);
    expect(said(noisy.records[0]!)).toEqual(said(clean.records[0]!));
  }, 300_000);
});
