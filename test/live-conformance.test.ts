import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";
import { gptLiveTarget } from "../src/core/gpt-live-target/adapter";
import { DEFAULT_TARGET_SETTINGS, type TargetSettings } from "../src/core/target/settings";
import type { AgentEvent, SessionIO, ToolCallRequest, ToolReply } from "../src/core/target/types";
import { RealClock } from "../src/core/time/clock";
import { startConformanceServer, type ConformanceServer, type ScriptedTurn } from "./live-conformance-server";
import { eventually } from "./live-helpers";

/**
 * crashlab's real GPT-Live client — the target adapter and the client it drives — run
 * against a strict Live server written from the public references alone (test/live-conformance-server.ts,
 * no simulator code), in both delegation modes: two parallel function calls in one delegation, and a
 * conversation with two delegations. Every client frame is validated against the documented shapes; the
 * run passes only with zero violations. The tool door here is a stand-in that records calls and answers
 * like the restaurant world (available, booked with an id): the protocol is under test, not the world.
 */
const KEY = "sk-conformance-loopback-7777";

let server: ConformanceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One second of caller audio (a tone), in the 20 ms chunks the harness sends. */
function secondOfAudio(): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let c = 0; c < 50; c++) {
    const samples = new Int16Array(480);
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(2500 * Math.sin((2 * Math.PI * 180 * (c * 480 + i)) / 24_000));
    chunks.push(new Uint8Array(samples.buffer));
  }
  return chunks;
}

/** The harness side of a session: events collected, tools answered like the restaurant world, no limits. */
function harness() {
  const events: AgentEvent[] = [];
  const calls: ToolCallRequest[] = [];
  let reservations = 0;
  const io: SessionIO = {
    clock: new RealClock(),
    emit: (event) => events.push(event),
    callTool: async (request): Promise<ToolReply> => {
      calls.push(request);
      const args = typeof request.arguments === "string" ? (JSON.parse(request.arguments) as Record<string, unknown>) : request.arguments;
      const output = request.name === "check_availability" ? { available: true, ...args } : request.name === "create_reservation" ? { reservation_id: `R-${++reservations}`, status: "confirmed", ...args } : { ok: true };
      return { call_id: request.call_id ?? `local_${calls.length}`, status: "completed", output: JSON.stringify(output) };
    },
    countProviderRequest: () => undefined,
    signal: new AbortController().signal,
  };
  return { io, events, calls };
}

async function converse(delegation: "responses" | "client", script: ScriptedTurn[]) {
  server = await startConformanceServer({ key: KEY, script });
  const settings: TargetSettings = { ...DEFAULT_TARGET_SETTINGS, mode: "live", real_time: true, delegation, endpoint: server.url, api_key: KEY, client_backend: "policy" };
  const target = gptLiveTarget({ settings, instructions: RESTAURANT_FRONTEND_INSTRUCTIONS, backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS, tools: RESTAURANT_TOOLS, offline: { policy: restaurantPolicy() } });
  const { io, events, calls } = harness();
  const session = await target.start({ session_label: `conformance-${delegation}`, ...target.session() }, io);
  const s = server;
  for (let turn = 0; turn < script.length; turn++) {
    for (const chunk of secondOfAudio()) {
      session.sendAudio!(chunk);
      await new Promise((r) => setTimeout(r, 2));
    }
    // The turn is over once its delegation's result was spoken (acknowledgement, then the result).
    await eventually(() => (s.spoken[0]?.length ?? 0) >= 2 * (turn + 1), `turn ${turn + 1} to be answered`);
  }
  const report = await session.close();
  return { events, calls, report, server: s };
}

function framesOf(s: ConformanceServer): Array<Record<string, unknown>> {
  return s.frames.map((f) => f.json as Record<string, unknown>);
}

describe("the client against a strict Live server written from the public references", () => {
  it("Responses delegation: two parallel function calls in one delegation, then a second delegation — zero violations", async () => {
    const script: ScriptedTurn[] = [
      {
        hear: "Is there a table for two under Maya on August 14 at 7 p.m., and one for four on August 15 at 8 p.m.?",
        calls: [
          { name: "check_availability", arguments: { date: "2026-08-14", time: "19:00", party_size: 2 } },
          { name: "check_availability", arguments: { date: "2026-08-15", time: "20:00", party_size: 4 } },
        ],
        reply: "Both are free.",
      },
      { hear: "Book the first one, please.", calls: [{ name: "create_reservation", arguments: { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 } }], reply: "Booked for Maya, reservation R-1." },
    ];
    const { events, calls, report, server: s } = await converse("responses", script);
    expect(s.violations).toEqual([]);
    expect(report).toMatchObject({ closed_cleanly: true, close_reason: "close_requested" });

    const frames = framesOf(s);
    const types = frames.map((f) => f.type).filter((t) => t !== "session.input_audio.append");
    // One response.item.create per call, then exactly one response.create, per waiting response.
    expect(types).toEqual(["session.start", "response.item.create", "response.item.create", "response.create", "response.item.create", "response.create", "session.close"]);
    expect(frames[0]).toMatchObject({ session: { model: "gpt-live-1", delegation: { type: "responses", responses: { tools: RESTAURANT_TOOLS.map((t) => expect.objectContaining({ type: "function", name: t.name })) } } } });
    // Every client event carried a unique event_id.
    const ids = frames.map((f) => f.event_id);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // The two parallel calls ran through the tool door, each answered under its own call id.
    expect(calls.map((c) => [c.name, c.call_id, c.delegation_id])).toEqual([
      ["check_availability", "call_resp_conf_0_1_a_0", "del_conf_0_1"],
      ["check_availability", "call_resp_conf_0_1_a_1", "del_conf_0_1"],
      ["create_reservation", "call_resp_conf_0_2_a_0", "del_conf_0_2"],
    ]);
    expect(JSON.parse(s.outputs[0]!.get("call_resp_conf_0_1_a_1")!)).toMatchObject({ available: true, date: "2026-08-15", party_size: 4 });
    expect(JSON.parse(s.outputs[0]!.get("call_resp_conf_0_2_a_0")!)).toMatchObject({ reservation_id: "R-1" });
    // The harness saw both delegations, each backend response created and completed, and the spoken result.
    expect(events.filter((e) => e.type === "delegation.created").map((e) => (e as { target: string }).target)).toEqual(["responses", "responses"]);
    expect(events.filter((e) => e.type === "backend.response").map((e) => (e as { status: string }).status)).toEqual(["created", "completed", "created", "completed", "created", "completed", "created", "completed"]);
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    const said = events.filter((e) => e.type === "transcript.delta" && e.role === "assistant").map((e) => (e as { text: string }).text).join("");
    expect(said).toContain("Both are free.");
    expect(said).toContain("Booked for Maya, reservation R-1.");
  });

  it("client delegation: two delegations answered with commentary by the application's backend — zero violations", async () => {
    const script: ScriptedTurn[] = [{ hear: "Is there a table for four on August 15 at 8 p.m.?" }, { hear: "Book a table for two under Maya on August 14 at 7 p.m." }];
    const { events, calls, report, server: s } = await converse("client", script);
    expect(s.violations).toEqual([]);
    expect(report).toMatchObject({ closed_cleanly: true, close_reason: "close_requested" });
    const frames = framesOf(s);
    expect(frames[0]).toMatchObject({ type: "session.start", session: { delegation: { type: "client" } } });
    // The client-mode session declares no backend settings; each delegation got commentary with its own id.
    expect(JSON.stringify(frames[0])).not.toContain("create_reservation");
    const commentary = frames.filter((f) => f.type === "session.commentary.append");
    expect(commentary.map((f) => f.delegation_id)).toEqual(["del_conf_0_1", "del_conf_0_2"]);
    expect(frames.some((f) => f.type === "response.create" || f.type === "response.item.create")).toBe(false);
    // The application's backend rebuilt each request from the transcript (the delegation carries no task text).
    expect(calls.map((c) => [c.name, c.delegation_id])).toEqual([
      ["check_availability", "del_conf_0_1"],
      ["create_reservation", "del_conf_0_2"],
    ]);
    expect(s.spoken[0]![1]).toMatch(/August 15/);
    expect(s.spoken[0]![3]).toMatch(/Maya/);
    expect(events.filter((e) => e.type === "delegation.created").map((e) => (e as { target: string }).target)).toEqual(["client", "client"]);
    expect(events.filter((e) => e.type === "error")).toEqual([]);
  });

  it("the server is strict: a frame that breaks a documented rule is recorded and answered with an error", async () => {
    server = await startConformanceServer({ key: KEY, script: [] });
    const ws = new WebSocket(server.url, { headers: { Authorization: `Bearer ${KEY}` } });
    const received: Array<Record<string, unknown>> = [];
    ws.on("message", (data) => received.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await new Promise((r) => ws.once("open", r));
    const send = (event: unknown) => ws.send(JSON.stringify(event));
    send({ type: "session.input_audio.append", audio: "AAAA" }); // before session.start
    send({ type: "session.start", event_id: "e1", session: { model: "gpt-live-1", temperature: 0.5 } }); // unknown field
    send({ type: "session.start", event_id: "e2", session: { model: "gpt-live-1", delegation: null, store: false } });
    send({ type: "session.start", event_id: "e3", session: { model: "gpt-live-1" } }); // twice
    send({ type: "session.commentary.append", event_id: "e4", delegation_id: "del_unknown", content: "Hi" });
    send({ type: "response.create", event_id: "e5" }); // client mode
    send({ type: "session.instructions.append", event_id: "e5", content: "Hi" }); // reused id, and delegation_id missing
    send({ type: "session.input_audio.append", event_id: "e6", audio: "AAA" }); // 2 bytes? no: invalid base64
    send({ type: "session.close", event_id: "e7" });
    const s = server;
    await eventually(() => received.some((e) => e.type === "session.closed"), "session.closed");
    ws.close();
    expect(s.violations.map((v) => v.type)).toEqual([
      "session.input_audio.append",
      "session.start",
      "session.start",
      "session.commentary.append",
      "response.create",
      "session.instructions.append",
      "session.input_audio.append",
    ]);
    expect(s.violations[1]!.rule).toMatch(/temperature/);
    expect(received.filter((e) => e.type === "error")).toHaveLength(7);
    // Server events carry event_id (the conformance server follows the reference too).
    expect(received.every((e) => typeof e.event_id === "string")).toBe(true);
    expect(received.find((e) => e.type === "session.started")).toMatchObject({ client_event_id: "e2" });
  });
});
