import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { restaurantPolicy } from "../examples/restaurant/policy";
import {
  LiveClient,
  LiveConfigError,
  LiveConnectionError,
  LiveServiceError,
  LiveStateError,
  type LiveRawFrame,
  type SessionConfig,
} from "../src/core/live";
import { startLiveSimulator, type LiveSimulator } from "../src/core/simulator";
import { RealClock, VirtualClock } from "../src/core/time/clock";
import { TEST_KEY, eventually, playAudio, recorder, sessionConfig, toneSynthesizer } from "./live-helpers";

let simulator: LiveSimulator | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
});

async function start(options: { apiKey?: string; clock?: VirtualClock } = {}) {
  const clock = options.clock ?? new VirtualClock();
  simulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer: toneSynthesizer(), clock, apiKey: options.apiKey });
  return { clock, simulator };
}

const typeOf = (frame: LiveRawFrame) => `${frame.direction}:${(frame.json as { type?: string } | undefined)?.type}`;

describe("LiveClient ↔ simulator handshake", () => {
  it("sends session.start first, queues everything else until session.started, then flushes in order", async () => {
    const { clock, simulator } = await start();
    const client = new LiveClient();
    const raw: LiveRawFrame[] = [];
    client.onRaw((frame) => raw.push(frame));
    const log = recorder(client);

    const connecting = client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock });
    expect(client.state).toBe("connecting");
    expect(client.appendAudio(new Uint8Array(960))).toBe(true);
    const thinkingId = client.appendThinking(null, "warming up");
    expect(raw).toEqual([]); // nothing on the wire before the socket opens and the session starts

    const started = await connecting;
    expect(started.session).toMatchObject({ id: "live_sim0001", model: "gpt-live-1", status: "active", delegation: { type: "client" } });
    expect(started.session.expires_at).toBeGreaterThan(1_767_225_600);
    expect(raw.slice(0, 4).map(typeOf)).toEqual([
      "sent:session.start",
      "received:session.started",
      "sent:session.input_audio.append",
      "sent:session.thinking.append",
    ]);
    // Every client event carries an event_id; session.start got the first one.
    expect(raw.filter((f) => f.direction === "sent").map((f) => (f.json as { event_id: string }).event_id)).toEqual(["evt_1", "evt_2", "evt_3"]);
    expect(thinkingId).toBe("evt_3");

    await eventually(() => log.events("session.thinking.appended").length === 1, "the thinking ack");
    expect(log.events("session.thinking.appended")[0]!.event).toMatchObject({ client_event_id: "evt_3", delegation_id: null });
    expect(simulator.stats.sessions[0]!.received).toEqual([
      { type: "session.start", count: 1 },
      { type: "session.input_audio.append", count: 1 },
      { type: "session.thinking.append", count: 1 },
    ]);

    const result = await client.close();
    expect(result).toMatchObject({ outcome: "closed", reason: "close_requested", usage_seconds: 0.02 });
    expect(log.kinds("state").map((m) => (m.kind === "state" ? m.state : ""))).toEqual(["connecting", "starting", "active", "closing", "closed"]);
    expect(() => client.appendCommentary(null, "late")).toThrow(LiveStateError);
    expect(client.appendAudio(new Uint8Array(960))).toBe(false);
    expect(await client.close()).toEqual(result); // idempotent
  });

  it("never puts the API key in the raw log", async () => {
    const { clock, simulator } = await start();
    const client = new LiveClient();
    const raw: string[] = [];
    client.onRaw((frame) => raw.push(frame.text ?? ""));
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock });
    await client.close();
    expect(raw.length).toBeGreaterThan(2);
    expect(raw.join("\n")).not.toContain(TEST_KEY);
  });
});

describe("authorization", () => {
  it("answers an upgrade without a Bearer header with HTTP 401", async () => {
    const { simulator } = await start();
    const socket = new WebSocket(simulator.url);
    socket.on("error", () => {}); // terminating below aborts the handshake, which ws reports as an error
    const status = await new Promise<number | undefined>((resolve) => {
      socket.on("unexpected-response", (_request, response) => {
        resolve(response.statusCode);
        socket.terminate();
      });
      socket.on("open", () => resolve(101));
    });
    expect(status).toBe(401);
    expect(simulator.stats.unauthorized).toBe(1);
    expect(simulator.stats.connections).toBe(0);
  });

  it("turns a refused key into a typed unauthorized error with the service's message", async () => {
    const { clock, simulator } = await start({ apiKey: "sk-right" });
    const client = new LiveClient();
    const error = await client.connect({ url: simulator.url, apiKey: "sk-wrong", session: sessionConfig(), clock }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveConnectionError);
    expect(error).toMatchObject({ code: "unauthorized", details: { status: 401 } });
    expect((error as Error).message).toContain("Incorrect API key provided.");
    await eventually(() => client.state === "closed", "the client to close");
    expect(client.connectionError?.code).toBe("unauthorized");
  });
});

describe("session config validation", () => {
  it("rejects a config the service would refuse before opening a socket", async () => {
    const { clock, simulator } = await start();
    const client = new LiveClient();
    const bad = { ...sessionConfig(), temperature: 0.8 } as SessionConfig;
    const error = await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: bad, clock }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveConfigError);
    expect((error as LiveConfigError).issues).toEqual([{ path: "temperature", code: "unknown_parameter", message: 'unknown field "temperature"; remove it' }]);
    expect(client.state).toBe("idle");
    expect(simulator.stats.connections).toBe(0);
  });

  const history = Array.from({ length: 129 }, (_, i) => ({
    type: "message" as const,
    role: "user" as const,
    content: [{ type: "input_text" as const, text: `turn ${i}` }],
  }));
  it.each([
    ["an unknown model", { ...sessionConfig(), model: "gpt-4o-realtime-preview" }, "invalid_value", "session.model"],
    ["a forbidden voice", sessionConfig({ audio: { output: { voice: "onyx" } } }), "forbidden", "session.audio.output.voice"],
    ["an unknown field", { ...sessionConfig(), temperature: 0.8 }, "unknown_parameter", "session.temperature"],
    ["a 16 kHz format", sessionConfig({ audio: { format: { type: "audio/pcm", rate: 16000 } } }), "invalid_value", "session.audio.format.rate"],
    ["a 44.1 kHz format", sessionConfig({ audio: { format: { type: "audio/pcm", rate: 44100 as 24000 } } }), "invalid_value", "session.audio.format.rate"],
    ["129 history messages", sessionConfig({ input: history }), "invalid_value", "session.input"],
    ["a missing model", { instructions: "hi" }, "missing_required_parameter", "session.model"],
  ])("the simulator rejects %s in session.start", async (_name, session, code, param) => {
    const { clock, simulator } = await start();
    const client = new LiveClient();
    const log = recorder(client);
    const error = await client
      .connect({ url: simulator.url, apiKey: TEST_KEY, session: session as SessionConfig, clock, validate: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveServiceError);
    expect(error).toMatchObject({ code, details: { param, clientEventId: "evt_1", fatal: false } });
    await eventually(() => client.state === "closed", "the rejected session's socket to close");
    expect(log.events("session.started")).toEqual([]);
    expect(simulator.stats.sessions[0]!.errors_sent).toEqual([code]);
    const result = await client.close();
    expect(result).toMatchObject({ outcome: "closed_without_session_closed", error: { code } });
  });
});

describe("client events the service does not accept", () => {
  it("answers an unknown client event type with invalid_value listing the supported types, and keeps the session", async () => {
    const { clock, simulator } = await start();
    const client = new LiveClient();
    const log = recorder(client);
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock });
    const id = client.send({ type: "input_audio_buffer.append", audio: "" } as never);
    await eventually(() => log.events("error").length === 1, "the error event");
    const { event } = log.events("error")[0]!;
    expect(event.error).toMatchObject({ code: "invalid_value", param: "type", client_event_id: id });
    expect(event.error.message).toContain('unknown event type "input_audio_buffer.append"');
    expect(event.error.message).toContain("session.commentary.append");

    // A known event with a field it does not have is refused by name too.
    client.send({ type: "session.close", reason: "done" } as never);
    await eventually(() => log.events("error").length === 2, "the second error event");
    expect(log.events("error")[1]!.event.error).toMatchObject({ code: "unknown_parameter", param: "reason" });
    expect(client.state).toBe("active");
    expect(await client.close()).toMatchObject({ outcome: "closed" });
  });

  it("applies session.update to delegation settings but refuses a delegation type change", async () => {
    const { clock, simulator } = await start();
    const client = new LiveClient();
    const log = recorder(client);
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig({ delegation: { type: "responses", responses: { model: "gpt-5.6-terra" } } }), clock });
    const changed = client.update({ type: "responses", responses: { model: "gpt-5.6-luna", reasoning: { effort: "low" } } });
    const refused = client.update({ type: "client" });
    await eventually(() => log.events("error").length === 1 && log.events("session.updated").length === 1, "the update replies");
    const updated = log.events("session.updated")[0]!.event;
    expect(updated.client_event_id).toBe(changed);
    expect(updated.session.delegation).toMatchObject({ type: "responses", responses: { model: "gpt-5.6-luna", reasoning: { effort: "low" } } });
    expect(client.session?.delegation).toEqual(updated.session.delegation);
    expect(log.events("error")[0]!.event.error).toMatchObject({ code: "invalid_value", param: "session.delegation.type", client_event_id: refused });
    await client.close();
  });

  it("acknowledges mute and unmute, echoing the event ids", async () => {
    const { clock, simulator } = await start();
    const client = new LiveClient();
    const log = recorder(client);
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock });
    const muted = client.mute();
    const unmuted = client.unmute();
    await eventually(() => log.events("session.input_audio.unmuted").length === 1, "the unmute ack");
    expect(log.events("session.input_audio.muted")[0]!.event.client_event_id).toBe(muted);
    expect(log.events("session.input_audio.unmuted")[0]!.event.client_event_id).toBe(unmuted);
    await client.close();
  });
});

describe("usage", () => {
  it("reports cumulative usage.seconds from the input audio and the final value in session.closed", async () => {
    const { clock, simulator } = await start();
    const client = new LiveClient();
    const log = recorder(client);
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock });
    await playAudio(client, clock, new Uint8Array(0), 2_500);
    const result = await client.close();
    expect(log.events("session.usage.updated").map((e) => e.event.usage.seconds)).toEqual([1, 2]);
    // Cumulative: the last value is the total, never the sum of updates.
    expect(result).toMatchObject({ outcome: "closed", reason: "close_requested", usage_seconds: 2.5 });
    expect(client.usageSeconds).toBe(2.5);
    expect(simulator.stats.sessions[0]!.input_audio_ms).toBe(2_500);
    // Virtual time moved only as the audio was paced.
    expect(log.events("session.usage.updated").map((e) => e.at_ms)).toEqual([980, 1_980]);
  });
});

describe("lifecycle edges", () => {
  it("runs on real time as well (no virtual clock anywhere)", async () => {
    simulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer: toneSynthesizer() });
    const client = new LiveClient();
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig() });
    await playAudio(client, new RealClock(), new Uint8Array(0), 300);
    expect(await client.close()).toMatchObject({ outcome: "closed", reason: "close_requested", usage_seconds: 0.3 });
  });

  it("drops the session when the caller's signal aborts, and says so", async () => {
    const { clock, simulator } = await start();
    const client = new LiveClient();
    const abort = new AbortController();
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock, signal: abort.signal });
    abort.abort(new Error("trial cancelled"));
    const result = await client.close();
    expect(result).toMatchObject({ outcome: "closed_without_session_closed", error: { code: "aborted" } });
    expect(client.state).toBe("closed");
  });

  it("refuses a URL that is not a WebSocket URL with a typed error", async () => {
    const client = new LiveClient();
    const error = await client.connect({ url: "not a url", apiKey: TEST_KEY, session: sessionConfig(), clock: new VirtualClock() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveConnectionError);
    expect(error).toMatchObject({ code: "socket_error" });
    expect(client.state).toBe("closed");
  });

  it("reports a refused connection as a socket error", async () => {
    const { simulator } = await start();
    const url = simulator.url;
    await simulator.close();
    const client = new LiveClient();
    const error = await client.connect({ url, apiKey: TEST_KEY, session: sessionConfig() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "socket_error" });
    expect((error as Error).message).toContain("ECONNREFUSED");
    await eventually(() => client.state === "closed", "the client to settle");
  });
});
