import { describe, expect, it } from "vitest";
import { decodePcmBase64 } from "../src/core/audio";
import {
  CLIENT_EVENT_TYPES,
  LiveProtocolError,
  checkSessionConfig,
  clientEvents,
  isFunctionCallItem,
  parseClientEvent,
  parseServerEvent,
} from "../src/core/live";
import { sessionConfig } from "./live-helpers";

describe("session config (strict, as the service checks it)", () => {
  it("accepts a complete responses-delegation config", () => {
    const config = sessionConfig({
      input: [
        { type: "message", role: "user", content: [{ type: "input_text", text: "Hi" }] },
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Hello!" }] },
      ],
      delegation: {
        type: "responses",
        responses: {
          model: "gpt-5.6-terra",
          instructions: "Use the tools.",
          tools: [{ type: "function", name: "create_reservation", description: "Book", parameters: { type: "object" } }],
          tool_choice: "auto",
          parallel_tool_calls: true,
          reasoning: { effort: "medium" },
        },
      },
    });
    expect(checkSessionConfig(config)).toEqual([]);
  });

  it("names unknown fields, missing fields, forbidden voices, bad rates and oversized history", () => {
    expect(checkSessionConfig({ ...sessionConfig(), temperature: 0.7 })).toEqual([
      { path: "temperature", code: "unknown_parameter", message: 'unknown field "temperature"; remove it' },
    ]);
    expect(checkSessionConfig({ instructions: "x" })[0]).toMatchObject({ path: "model", code: "missing_required_parameter" });
    expect(checkSessionConfig(sessionConfig({ audio: { output: { voice: "Nova" } } }))).toEqual([
      expect.objectContaining({ path: "audio.output.voice", code: "forbidden" }),
    ]);
    expect(checkSessionConfig(sessionConfig({ audio: { format: { type: "audio/pcm", rate: 44100 as 24000 } } }))[0]).toMatchObject({
      path: "audio.format.rate",
      code: "invalid_value",
    });
    const history = Array.from({ length: 129 }, () => ({ type: "message" as const, role: "user" as const, content: [{ type: "input_text" as const, text: "hi" }] }));
    expect(checkSessionConfig(sessionConfig({ input: history }))[0]).toMatchObject({ path: "input", code: "invalid_value" });
    // Assistant turns must use output_text.
    const wrongPart = [{ type: "message", role: "assistant", content: [{ type: "input_text", text: "x" }] }];
    expect(checkSessionConfig({ ...sessionConfig(), input: wrongPart })).not.toEqual([]);
    // An unknown field inside the delegation settings is rejected too.
    expect(checkSessionConfig({ ...sessionConfig(), delegation: { type: "responses", responses: { modle: "x" } } })[0]).toMatchObject({
      path: "delegation.responses.modle",
      code: "unknown_parameter",
    });
  });
});

describe("client event builders and parsing", () => {
  it("builds every client event in its wire shape", () => {
    expect(clientEvents.inputAudioAppend(new Uint8Array([1, 0, 255, 127]))).toEqual({ type: "session.input_audio.append", audio: "AQD/fw==" });
    expect(clientEvents.commentaryAppend("dlg_1", "Booked.")).toEqual({ type: "session.commentary.append", delegation_id: "dlg_1", content: "Booked." });
    expect(clientEvents.thinkingAppend(null, "Checking")).toEqual({ type: "session.thinking.append", delegation_id: null, content: "Checking" });
    expect(clientEvents.functionCallOutput("call_1", '{"ok":true}')).toEqual({
      type: "response.item.create",
      item: { type: "function_call_output", call_id: "call_1", output: '{"ok":true}' },
    });
    expect(clientEvents.sessionUpdate({ type: "client" })).toEqual({ type: "session.update", session: { delegation: { type: "client" } } });
    for (const event of [
      clientEvents.sessionStart(sessionConfig()),
      clientEvents.inputAudioMute(),
      clientEvents.inputAudioUnmute(),
      clientEvents.instructionsAppend(null, "Be brief."),
      clientEvents.responseCreate(),
      clientEvents.sessionClose(),
    ]) {
      const parsed = parseClientEvent({ ...event, event_id: "evt_1" });
      expect(parsed).toMatchObject({ known: true, type: event.type });
      expect("invalid" in parsed).toBe(false);
    }
    expect(CLIENT_EVENT_TYPES).toHaveLength(11);
  });

  it("tells unknown client types from invalid known ones", () => {
    expect(parseClientEvent({ type: "input_audio_buffer.append", audio: "" })).toMatchObject({ known: false, type: "input_audio_buffer.append" });
    expect(parseClientEvent({ type: "response.item.create", delegation_id: "d", item: { type: "function_call_output", call_id: "c", output: "" } })).toMatchObject({
      known: true,
      invalid: true,
      issues: [{ path: "delegation_id", code: "unknown_parameter" }],
    });
    expect(parseClientEvent({ type: "session.commentary.append", content: "x" })).toMatchObject({
      invalid: true,
      issues: [{ path: "delegation_id", code: "missing_required_parameter" }],
    });
  });
});

describe("parseServerEvent", () => {
  it("parses known events, keeping fields it does not model", () => {
    const parsed = parseServerEvent({
      type: "session.delegation.created",
      offset_ms: 4200,
      delegation: { id: "dlg_1", type: "delegation", target: "responses", response_id: "resp_1", extra: 1 },
    });
    expect(parsed).toEqual({
      known: true,
      event: { type: "session.delegation.created", offset_ms: 4200, delegation: { id: "dlg_1", type: "delegation", target: "responses", response_id: "resp_1", extra: 1 } },
    });
  });

  it("reads function calls and usage out of response.event envelopes", () => {
    const call = parseServerEvent({
      type: "response.event",
      delegation_id: null,
      event: {
        type: "response.output_item.done",
        output_index: 1,
        item: { id: "fc_1", type: "function_call", status: "completed", call_id: "call_1", name: "create_reservation", arguments: '{"party_size":2}' },
      },
    });
    if (!call.known || call.event.type !== "response.event" || call.event.event.type !== "response.output_item.done") throw new Error("not parsed");
    const item = call.event.event.item;
    expect(isFunctionCallItem(item) && JSON.parse(item.arguments)).toEqual({ party_size: 2 });

    const completed = parseServerEvent({
      type: "response.event",
      delegation_id: null,
      event: {
        type: "response.completed",
        response: {
          id: "resp_1",
          status: "completed",
          output: [],
          usage: { input_tokens: 120, input_tokens_details: { cached_tokens: 64, cache_write_tokens: 0 }, output_tokens: 30, output_tokens_details: { reasoning_tokens: 24 }, total_tokens: 150 },
        },
      },
    });
    if (!completed.known || completed.event.type !== "response.event" || completed.event.event.type !== "response.completed") throw new Error("not parsed");
    expect(completed.event.event.response.usage?.total_tokens).toBe(150);
  });

  it("tolerates unknown types, including unknown inner Responses events", () => {
    expect(parseServerEvent({ type: "decision.made", x: 1 })).toEqual({ known: false, type: "decision.made", raw: { type: "decision.made", x: 1 } });
    expect(parseServerEvent({ type: "response.event", delegation_id: null, event: { type: "response.function_call_arguments.delta", delta: "{" } })).toMatchObject({
      known: false,
      type: "response.event",
      innerType: "response.function_call_arguments.delta",
    });
  });

  it("rejects invalid known events, odd-length PCM and non-events with a LiveProtocolError", () => {
    const attempt = (json: unknown) => {
      try {
        parseServerEvent(json);
        return undefined;
      } catch (error) {
        return error as LiveProtocolError;
      }
    };
    const odd = Buffer.from([1, 2, 3]).toString("base64");
    expect(attempt({ type: "session.output_audio.delta", delta: odd })).toMatchObject({ kind: "invalid_event", details: { eventType: "session.output_audio.delta" } });
    expect(attempt({ type: "session.output_audio.delta", delta: "not base64!" })?.kind).toBe("invalid_event");
    expect(attempt({ type: "session.usage.updated", usage: {} })?.message).toMatch(/usage\.seconds/);
    expect(attempt([1, 2])?.kind).toBe("not_an_event");
    const even = Buffer.from([1, 2, 3, 4]).toString("base64");
    const ok = parseServerEvent({ type: "session.output_audio.delta", delta: even });
    expect(ok.known && ok.event.type === "session.output_audio.delta" && decodePcmBase64(ok.event.delta)).toEqual(new Uint8Array([1, 2, 3, 4]));
  });
});
