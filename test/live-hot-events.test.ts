/**
 * The hand-checked path for the events that flow every 20 ms (hot-events.ts) accepts exactly what the
 * strict schemas accept, and a malformed hot event is refused as the strict path refuses it: by the
 * client as a protocol_error with the schema's message, by the simulator with the same `error` event.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { base64DecodedLength, decodeBase64Into, decodePcmBase64, isStrictBase64 } from "../src/core/audio/pcm";
import { LiveClient, LiveProtocolError, parseClientEvent, parseServerEvent, type LiveMessage } from "../src/core/live";
import { startLiveSimulator, type LiveSimulator } from "../src/core/simulator";
import { readHotClientEvent, readHotServerEvent } from "../src/core/live/hot-events";
import { RealClock } from "../src/core/time/clock";
import { TEST_KEY, eventually, sessionConfig, toneSynthesizer } from "./live-helpers";

const PCM = Buffer.from(Uint8Array.from({ length: 960 }, (_, i) => (i * 7919) & 255));
const AUDIO = PCM.toString("base64");

/** Hot server events the strict schema accepts, and ones it refuses for each way a field can be wrong. */
const SERVER_CASES: [string, Record<string, unknown>][] = [
  ["an audio delta", { type: "session.output_audio.delta", delta: AUDIO }],
  ["an audio delta with an event id and an extra field", { type: "session.output_audio.delta", event_id: "event_9", delta: AUDIO, item_id: "x" }],
  ["an empty audio delta", { type: "session.output_audio.delta", delta: "" }],
  ["an audio delta missing its delta", { type: "session.output_audio.delta" }],
  ["an audio delta whose delta is a number", { type: "session.output_audio.delta", delta: 42 }],
  ["an audio delta whose event id is a number", { type: "session.output_audio.delta", event_id: 7, delta: AUDIO }],
  ["an audio delta whose event id is null", { type: "session.output_audio.delta", event_id: null, delta: AUDIO }],
  ["an audio delta with a character outside base64", { type: "session.output_audio.delta", delta: `*${AUDIO.slice(1)}` }],
  ["an audio delta in URL-safe base64", { type: "session.output_audio.delta", delta: `-_${AUDIO.slice(2)}` }],
  ["an audio delta with a space", { type: "session.output_audio.delta", delta: `${AUDIO.slice(0, 8)} ${AUDIO.slice(9)}` }],
  ["an audio delta with padding in the middle", { type: "session.output_audio.delta", delta: `AA==${AUDIO.slice(4)}` }],
  ["an audio delta one character short", { type: "session.output_audio.delta", delta: AUDIO.slice(1) }],
  ["an audio delta of three bytes (an odd count)", { type: "session.output_audio.delta", delta: "AAEC" }],
  ["an audio delta of one byte (padded)", { type: "session.output_audio.delta", delta: "AQ==" }],
  ["an audio delta of two bytes (padded)", { type: "session.output_audio.delta", delta: "AQI=" }],
  ["an audio delta with three padding characters", { type: "session.output_audio.delta", delta: "A===" }],
  ["a caller transcript delta", { type: "session.input_transcript.delta", event_id: "event_3", delta: "Table for", start_ms: 0, end_ms: 400 }],
  ["an assistant transcript delta without times", { type: "session.output_transcript.delta", delta: " two" }],
  ["a transcript delta whose event id is a number", { type: "session.input_transcript.delta", event_id: 3, delta: "x" }],
  ["a transcript delta whose delta is null", { type: "session.output_transcript.delta", delta: null }],
  ["a transcript delta missing its delta", { type: "session.input_transcript.delta", start_ms: 0 }],
  ["a transcript delta whose start is a string", { type: "session.input_transcript.delta", delta: "x", start_ms: "5" }],
  ["a transcript delta whose end is infinite (JSON 1e400)", JSON.parse('{"type":"session.output_transcript.delta","delta":"x","end_ms":1e400}') as Record<string, unknown>],
];

function strictServer(json: Record<string, unknown>): { ok: true; event: unknown } | { ok: false; error: LiveProtocolError } {
  try {
    const parsed = parseServerEvent(json);
    if (!parsed.known) throw new Error("a hot event type must be known");
    return { ok: true, event: parsed.event };
  } catch (error) {
    if (!(error instanceof LiveProtocolError)) throw error;
    return { ok: false, error };
  }
}

describe("hot server events, read by hand", () => {
  it.each(SERVER_CASES)("%s: accepted exactly when the strict schema accepts it, with the same event and audio", (_, json) => {
    const strict = strictServer(json);
    const hot = readHotServerEvent(json);
    expect(hot !== undefined).toBe(strict.ok);
    if (hot && strict.ok) {
      expect(hot.event).toEqual(strict.event);
      if (json.type === "session.output_audio.delta") expect(hot.audio).toEqual(decodePcmBase64(json.delta as string));
    }
  });

  it("decodes audio into a buffer of its own for every delta (listeners keep it)", () => {
    const first = readHotServerEvent({ type: "session.output_audio.delta", delta: AUDIO })!;
    const second = readHotServerEvent({ type: "session.output_audio.delta", delta: "AAA=" })!;
    expect(first.audio).toEqual(new Uint8Array(PCM));
    expect(first.audio!.buffer).not.toBe(second.audio!.buffer);
    expect([first.audio!.byteOffset, first.audio!.buffer.byteLength]).toEqual([0, 960]);
  });
});

const CLIENT_CASES: [string, Record<string, unknown>][] = [
  ["an append", { type: "session.input_audio.append", audio: AUDIO }],
  ["an append with an event id", { type: "session.input_audio.append", audio: AUDIO, event_id: "evt_4" }],
  ["an append with an empty event id", { type: "session.input_audio.append", audio: AUDIO, event_id: "" }],
  ["an append whose event id is a number", { type: "session.input_audio.append", audio: AUDIO, event_id: 4 }],
  ["an append missing its audio", { type: "session.input_audio.append" }],
  ["an append whose audio is an array", { type: "session.input_audio.append", audio: [1, 2] }],
  ["an append with an unknown field", { type: "session.input_audio.append", audio: AUDIO, rate: 24000 }],
  ["an append with a __proto__ field", JSON.parse(`{"type":"session.input_audio.append","audio":"${AUDIO}","__proto__":{}}`) as Record<string, unknown>],
];

describe("hot client events, read by hand", () => {
  it.each(CLIENT_CASES)("%s: accepted exactly when the strict schema accepts it", (_, json) => {
    const strict = parseClientEvent(json);
    const strictOk = strict.known && !("invalid" in strict);
    const hot = readHotClientEvent(json);
    expect(hot !== undefined).toBe(strictOk);
    if (hot && strict.known && !("invalid" in strict)) expect(hot).toEqual(strict.event);
  });
});

describe("base64, checked while decoding", () => {
  it("refuses exactly the strings the strict alphabet refuses (20,000 corrupted strings, fixed seed)", () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const noise = ["=", "-", "_", " ", "\n", "\t", "\0", ".", "%", "é", "€", "\u00ff", "A", "/", "+"];
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = Buffer.from(Uint8Array.from({ length: Math.floor(random() * 14) }, () => random() * 256)).toString("base64");
      for (let edits = Math.floor(random() * 3); edits > 0; edits--) {
        const at = Math.floor(random() * (text.length + 1));
        const c = noise[Math.floor(random() * noise.length)]!;
        const op = random();
        text = op < 0.5 ? text.slice(0, at) + c + text.slice(at + 1) : op < 0.8 ? text.slice(0, at) + c + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      }
      const into = new Uint8Array(base64DecodedLength(text) + 3);
      const written = decodeBase64Into(text, into, 3);
      expect({ text, valid: written >= 0 }).toEqual({ text, valid: isStrictBase64(text) });
      if (written >= 0) expect(into.subarray(3, 3 + written)).toEqual(new Uint8Array(Buffer.from(text, "base64")));
      else refused++;
    }
    // The corpus exercises both answers.
    expect(refused).toBeGreaterThan(5_000);
    expect(refused).toBeLessThan(18_000);
  });
});

// ---- over the wire ------------------------------------------------------------------------------

let server: WebSocketServer | undefined;
let simulator: LiveSimulator | undefined;
afterEach(async () => {
  await simulator?.close();
  simulator = undefined;
  if (server) {
    for (const socket of server.clients) socket.terminate();
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
  }
});

describe("the client refuses malformed hot events as the strict path does", () => {
  it("delivers valid ones with decoded audio and turns each malformed one into the strict parser's protocol_error", async () => {
    server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await once(server, "listening");
    server.on("connection", (socket) => {
      socket.once("message", () => {
        socket.send(JSON.stringify({ type: "session.started", session: { id: "sess_hot" } }));
        for (const [, json] of SERVER_CASES) socket.send(JSON.stringify(json).replace('"end_ms":null', '"end_ms":1e400'));
      });
    });
    const client = new LiveClient();
    const messages: LiveMessage[] = [];
    client.on((message) => messages.push(message));
    const { port } = server.address() as AddressInfo;
    await client.connect({ url: `ws://127.0.0.1:${port}/v1/live/sessions`, apiKey: TEST_KEY, session: sessionConfig(), clock: new RealClock() });
    const delivered = () => messages.filter((m) => m.kind === "event" || m.kind === "protocol_error");
    await eventually(() => delivered().length === SERVER_CASES.length + 1, "every hot event to be delivered");

    const got = delivered().slice(1);
    SERVER_CASES.forEach(([name, json], i) => {
      const strict = strictServer(json);
      const message = got[i]!;
      if (strict.ok) {
        expect({ name, kind: message.kind }).toEqual({ name, kind: "event" });
        if (message.kind === "event" && json.type === "session.output_audio.delta") expect(message.audio).toEqual(decodePcmBase64(json.delta as string));
      } else {
        expect({ name, kind: message.kind }).toEqual({ name, kind: "protocol_error" });
        if (message.kind === "protocol_error") {
          expect(message.error.kind).toBe("invalid_event");
          expect(message.error.message).toBe(strict.error.message);
          expect(message.error.details).toEqual(strict.error.details);
        }
      }
    });
    client.terminate();
  });
});

describe("the simulator refuses malformed caller audio as the strict path does", () => {
  it("answers each malformed append with the error event it always sent, and hears the valid ones", async () => {
    simulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer: toneSynthesizer(), clock: new RealClock(), apiKey: TEST_KEY });
    const ws = new WebSocket(simulator.url, { headers: { Authorization: `Bearer ${TEST_KEY}` } });
    const received: Record<string, unknown>[] = [];
    ws.on("message", (data) => received.push(JSON.parse(String(data)) as Record<string, unknown>));
    await once(ws, "open");
    ws.send(JSON.stringify({ type: "session.start", event_id: "evt_0", session: sessionConfig() }));
    await eventually(() => received.some((e) => e.type === "session.started"), "session.started");

    const bad: [Record<string, unknown>, { code: string; message: string; param: string | null }][] = [];
    for (const [, json] of CLIENT_CASES) {
      const strict = parseClientEvent(json);
      if (strict.known && "invalid" in strict) {
        const first = strict.issues[0]!;
        const list = strict.issues.map((i) => `${i.path || "(event)"}: ${i.message}`).join("; ");
        bad.push([json, { code: first.code, message: `session.input_audio.append is invalid: ${list}`, param: first.path || null }]);
      }
    }
    bad.push([{ type: "session.input_audio.append", audio: "*AAA", event_id: "evt_b64" }, { code: "invalid_value", message: "audio is not valid base64", param: "audio" }]);
    bad.push([{ type: "session.input_audio.append", audio: "-_AA", event_id: "evt_url" }, { code: "invalid_value", message: "audio is not valid base64", param: "audio" }]);
    bad.push([{ type: "session.input_audio.append", audio: "AAE", event_id: "evt_len" }, { code: "invalid_value", message: "audio is not valid base64", param: "audio" }]);
    bad.push([{ type: "session.input_audio.append", audio: "AAEC", event_id: "evt_odd" }, { code: "invalid_value", message: "audio must be whole PCM16 samples; got 3 bytes", param: "audio" }]);
    expect(bad.length).toBe(10);

    for (const [json] of bad) ws.send(JSON.stringify(json));
    // A valid append after them is heard (480 samples = 20 ms).
    ws.send(JSON.stringify({ type: "session.input_audio.append", audio: AUDIO, event_id: "evt_ok" }));
    await eventually(() => received.filter((e) => e.type === "error").length === bad.length && simulator!.stats.sessions[0]!.input_audio_ms === 20, "the errors and the valid chunk");

    const errors = received.filter((e) => e.type === "error").map((e) => e.error as Record<string, unknown>);
    bad.forEach(([json, expected], i) => {
      expect(errors[i]).toMatchObject({ type: "invalid_request_error", ...expected, client_event_id: typeof json.event_id === "string" ? json.event_id : null });
    });
    ws.terminate();
  });

  it("sends hand-written frames byte for byte as JSON.stringify would (caller appends and assistant audio)", async () => {
    const texts: string[] = [];
    simulator = await startLiveSimulator({ policy: restaurantPolicy(), synthesizer: toneSynthesizer(), clock: new RealClock(), apiKey: TEST_KEY, tap: ({ text }) => texts.push(text) });
    const client = new LiveClient();
    const received: string[] = [];
    client.onRaw((frame) => {
      if (frame.direction === "received" && frame.text) received.push(frame.text);
    });
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock: new RealClock() });
    client.appendInstructions(null, "Greet the caller.");
    client.appendAudio(PCM);
    await eventually(() => received.some((t) => t.includes("session.output_audio.delta")), "assistant audio");
    const appends = texts.filter((t) => t.includes("session.input_audio.append"));
    const deltas = received.filter((t) => t.includes("session.output_audio.delta"));
    expect(appends.length).toBe(1);
    for (const text of [...appends, ...deltas]) expect(text).toBe(JSON.stringify(JSON.parse(text)));
    expect(JSON.parse(appends[0]!)).toEqual({ type: "session.input_audio.append", audio: AUDIO, event_id: "evt_3" });
    await client.close();
  });
});

describe("cheap frames on loopback", () => {
  it("negotiates no per-message compression: the client offers none and the simulator accepts none", async () => {
    const offered: (string | undefined)[] = [];
    simulator = await startLiveSimulator({
      policy: restaurantPolicy(),
      synthesizer: toneSynthesizer(),
      clock: new RealClock(),
      apiKey: TEST_KEY,
      onUpgrade: (headers) => offered.push(headers["sec-websocket-extensions"] as string | undefined),
    });
    const client = new LiveClient();
    await client.connect({ url: simulator.url, apiKey: TEST_KEY, session: sessionConfig(), clock: new RealClock() });
    await client.close();
    // ws's own client offers permessage-deflate by default; the simulator still declines it.
    const plain = new WebSocket(simulator.url, { headers: { Authorization: `Bearer ${TEST_KEY}` } });
    const upgraded = once(plain, "upgrade") as Promise<[{ headers: Record<string, string | undefined> }]>;
    const opened = once(plain, "open");
    const [[response]] = await Promise.all([upgraded, opened]);
    plain.terminate();
    expect(offered).toEqual([undefined, expect.stringContaining("permessage-deflate")]);
    expect(response.headers["sec-websocket-extensions"]).toBeUndefined();
    expect(plain.extensions).toBe("");
  });

  it("sends what one turn of the event loop writes in one kernel write", async () => {
    const { createServer, connect } = await import("node:net");
    const { SocketCork } = await import("../src/core/live/socket-cork");
    const listener = createServer((peer) => peer.resume());
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const socket = connect((listener.address() as AddressInfo).port, "127.0.0.1");
    await once(socket, "connect");
    // Count what reaches the stream's write implementations: one call per kernel write.
    const writes: number[] = [];
    const stream = socket as unknown as { _write: (...a: unknown[]) => void; _writev: (chunks: unknown[], cb: () => void) => void };
    const write = stream._write.bind(socket);
    const writev = stream._writev.bind(socket);
    stream._write = (...a) => (writes.push(1), write(...a));
    stream._writev = (chunks, cb) => (writes.push(chunks.length), writev(chunks, cb));

    for (let i = 0; i < 5; i++) socket.write(`plain ${i}`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([1, 1, 1, 1, 1]);

    writes.length = 0;
    const cork = new SocketCork(socket);
    for (let i = 0; i < 5; i++) {
      cork.beforeWrite();
      socket.write(`corked ${i}`);
    }
    await Promise.resolve().then(() => {
      cork.beforeWrite(); // a promise continuation of the same turn joins the batch
      socket.write("corked 5");
    });
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([6]);
    socket.destroy();
    await new Promise((resolve) => listener.close(resolve));
  });
});
