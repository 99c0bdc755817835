import { describe, expect, it } from "vitest";
import { checkSessionConfig, GPT_LIVE_DEFAULT_VOICE, parseClientEvent, parseServerEvent } from "../src/core/live";
import { commentaryParts, MAX_COMMENTARY_CHARS } from "../src/core/gpt-live-target/adapter";
import { engineFor } from "./settings-harness";
import { sessionConfig } from "./live-helpers";

/**
 * Where our client and simulator were stricter or narrower than the public GPT-Live
 * references (docs/gpt-live-conformance.md lists each with its source), they now accept what the
 * references document, and still refuse what they do not.
 */
describe("session config as the public references document it", () => {
  it("accepts store, delegation null (client mode), the documented Responses settings, hosted tools and a custom voice id", () => {
    expect(checkSessionConfig(sessionConfig({ store: true }))).toEqual([]);
    expect(checkSessionConfig({ ...sessionConfig(), delegation: null })).toEqual([]);
    expect(checkSessionConfig({ model: "gpt-live-1" })).toEqual([]);
    const responses = {
      type: "responses",
      responses: {
        model: "gpt-5.6-terra",
        max_output_tokens: 2048,
        service_tier: "priority",
        reasoning: { effort: "medium", summary: "auto" },
        text: { verbosity: "low" },
        tools: [{ type: "web_search" }, { type: "function", name: "get_weather", parameters: { type: "object" } }],
        tool_choice: "auto",
        parallel_tool_calls: true,
      },
    };
    expect(checkSessionConfig({ ...sessionConfig(), delegation: responses })).toEqual([]);
    expect(checkSessionConfig(sessionConfig({ audio: { output: { voice: { id: "voice_1234" } } } }))).toEqual([]);
    expect(GPT_LIVE_DEFAULT_VOICE).toBe("marin");
  });

  it("still refuses what no reference documents: unknown fields, a function tool without a name, two parts in one history message", () => {
    expect(checkSessionConfig({ ...sessionConfig(), store: "yes" })[0]).toMatchObject({ path: "store" });
    expect(checkSessionConfig({ ...sessionConfig(), delegation: { type: "responses", responses: { temperature: 0.2 } } })[0]).toMatchObject({ code: "unknown_parameter" });
    expect(checkSessionConfig({ ...sessionConfig(), delegation: { type: "responses", responses: { tools: [{ type: "function" }] } } }).length).toBeGreaterThan(0);
    const twoParts = { type: "message", role: "user", content: [{ type: "input_text", text: "a" }, { type: "input_text", text: "b" }] };
    expect(checkSessionConfig(sessionConfig({ input: [twoParts] as never }))[0]).toMatchObject({ path: "input.0.content" });
    // Assistant history: output_text (what crashlab sends) or text (what the reference harness also sends); never input_text.
    const assistant = (type: string) => sessionConfig({ input: [{ type: "message", role: "assistant", content: [{ type, text: "Hello" }] }] as never });
    expect(checkSessionConfig(assistant("output_text"))).toEqual([]);
    expect(checkSessionConfig(assistant("text"))).toEqual([]);
    expect(checkSessionConfig(assistant("input_text")).length).toBeGreaterThan(0);
  });
});

describe("client events and server events as documented", () => {
  it("response.item.create takes any Responses input item, not only a function_call_output", () => {
    expect(parseClientEvent({ type: "response.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "Also check Friday." }] } })).toMatchObject({ known: true, type: "response.item.create" });
    expect(parseClientEvent({ type: "response.item.create", item: { type: "function_call_output", call_id: "c1", output: "{}" } })).toMatchObject({ known: true });
    expect(parseClientEvent({ type: "response.item.create", item: { type: "function_call_output", call_id: "c1" } })).toMatchObject({ known: true, invalid: true });
    expect(parseClientEvent({ type: "response.create", event_id: "evt_9" })).toMatchObject({ known: true, type: "response.create" });
  });

  it("tolerates a delegation target it does not handle (the references name more than client and responses)", () => {
    const parsed = parseServerEvent({ type: "session.delegation.created", event_id: "event_7", offset_ms: 1200, delegation: { id: "del_1", type: "delegation", target: "decisions" } });
    expect(parsed).toMatchObject({ known: true, event: { delegation: { target: "decisions" } } });
  });
});

describe("long client-delegation results go back in several commentary appends", () => {
  it("splits after sentences, keeps every word in order, and leaves short results whole", () => {
    expect(commentaryParts("Your table is booked.")).toEqual(["Your table is booked."]);
    const sentence = "Your table for two under Maya on August 14 at 7 p.m. is booked, and here is what else you asked about. ";
    const long = sentence.repeat(40).trim();
    const parts = commentaryParts(long);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(MAX_COMMENTARY_CHARS);
    for (const part of parts.slice(0, -1)) expect(part.endsWith(".")).toBe(true);
    expect(parts.join(" ")).toBe(long);
  });
});

describe("a live caller's voice is a GPT-Live voice", () => {
  it("accepts the guide's voices and refuses text-to-speech-only names", () => {
    const env = { OPENAI_API_KEY: "sk-test-conformance-0000" };
    expect(engineFor(["--live", "--caller-voice", "quartz"], {}, env).settings.caller_voice).toBe("quartz");
    expect(() => engineFor(["--live", "--caller-voice", "fable"], {}, env)).toThrow(/--caller-voice "fable" is not a GPT-Live voice/);
  });
});
