import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";
import { gptLiveTarget } from "../src/core/gpt-live-target/adapter";
import { definePlan } from "../src/core/run/plan";
import { run } from "../src/core/run/run";
import { EspeakSynthesizer } from "../src/core/speech/espeak";
import type { AssistantPolicy, PolicyToolResult } from "../src/core/target/policy";
import { DEFAULT_TARGET_SETTINGS } from "../src/core/target/settings";
import { policyTarget } from "../src/core/target/text-target";
import { isRefusal, refusalOutput } from "../src/core/target/types";

/**
 * One application policy behind every target must see the same tool results: the text target, and the
 * GPT-Live target offline with managed (Responses) delegation and with client delegation. A call the world
 * refuses is `failed` with the refusal as its output everywhere, a call it serves `completed` with the
 * result — a package author's policy cannot tell the targets apart by what its tools return.
 */
const speech = new EspeakSynthesizer();

/** A policy that delegates, makes one call the world serves and two it refuses, and keeps what it got back. */
function probe(seen: PolicyToolResult[][]): AssistantPolicy {
  return {
    name: "probe",
    version: "1",
    frontend: () => ({ kind: "delegate", acknowledgement: "One moment, please." }),
    async backend(_task, tools) {
      const results = [
        await tools.call("check_availability", { date: "2026-08-07", time: "19:00", party_size: 2 }),
        // An unknown reservation: the world refuses it.
        await tools.call("cancel_reservation", { reservation_id: "R-9999" }),
        // Arguments the tool's schema rejects: refused before the world acts.
        await tools.call("check_availability", { date: "tomorrow-ish", party_size: -1 }),
      ];
      seen.push(results);
      return { reply: "I have checked that for you." };
    },
  };
}

async function toolResultsThrough(kind: "text" | "responses" | "client"): Promise<PolicyToolResult[][]> {
  const seen: PolicyToolResult[][] = [];
  const policy = probe(seen);
  const target =
    kind === "text"
      ? policyTarget({ policy, instructions: RESTAURANT_BACKEND_INSTRUCTIONS, tools: RESTAURANT_TOOLS })
      : () =>
          gptLiveTarget({
            settings: { ...DEFAULT_TARGET_SETTINGS, delegation: kind },
            instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
            backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS,
            tools: RESTAURANT_TOOLS,
            offline: { policy },
          });
  const plan = definePlan({ ...PLAN, targets: { probe: target }, default_target: "probe" });
  await run(plan, { speech, selection: { ids: ["harbor_001"] } });
  return seen;
}

describe("one policy through every target sees the same tool results", () => {
  it("text, GPT-Live managed delegation and GPT-Live client delegation agree on every status and output", async () => {
    const text = await toolResultsThrough("text");
    const managed = await toolResultsThrough("responses");
    const client = await toolResultsThrough("client");

    expect(text).toHaveLength(1);
    const [served, unknown, invalid] = text[0]!;
    expect(served!.status).toBe("completed");
    expect(isRefusal(served!.output)).toBe(false);
    expect(unknown).toMatchObject({ status: "failed", output: { error: { code: expect.any(String), message: expect.stringContaining("R-9999") } } });
    expect(invalid).toMatchObject({ status: "failed", output: { error: { code: expect.any(String), message: expect.any(String) } } });

    expect(managed).toEqual(text);
    expect(client).toEqual(text);
  });
});

describe("a refusal on the wire", () => {
  it("is an output whose one key is an error with a code and a message", () => {
    const written = JSON.parse(refusalOutput({ code: "not_found", message: "no reservation R-9999" })) as unknown;
    expect(written).toEqual({ error: { code: "not_found", message: "no reservation R-9999" } });
    expect(isRefusal(written)).toBe(true);
    // Results that merely mention an error are results.
    expect(isRefusal({ error: { code: "x", message: "y" }, available: true })).toBe(false);
    expect(isRefusal({ error: "not_found" })).toBe(false);
    expect(isRefusal({ error: { code: 404, message: "y" } })).toBe(false);
    expect(isRefusal({ error: { code: "x" } })).toBe(false);
    expect(isRefusal({ error: null })).toBe(false);
    expect(isRefusal([{ error: { code: "x", message: "y" } }])).toBe(false);
    expect(isRefusal(null)).toBe(false);
    expect(isRefusal("error")).toBe(false);
  });
});
