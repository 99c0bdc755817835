/**
 * crashlab's reference client-delegation service on its own (docs/remote-assistant.md): who it lets in, what
 * it refuses and every limit with its documented default, each exercised over a real loopback WebSocket.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { DEFAULT_CONNECTOR_LIMITS, DEFAULT_SERVICE_LIMITS, type ServiceLimits } from "../src/core/client-service/protocol";
import { startAssistantService, type AssistantService } from "../src/core/client-service/server";
import type { AssistantPolicy } from "../src/core/target/policy";
import { cli } from "./cli-harness";
import { TOKEN } from "./remote-service-fixtures";

const AUTH = { Authorization: `Bearer ${TOKEN}` };
let services: AssistantService[] = [];
afterEach(async () => {
  await Promise.all(services.map((s) => s.close()));
  services = [];
});

async function serve(options: { limits?: Partial<ServiceLimits>; policy?: AssistantPolicy; allowed_origins?: string[]; log?: (l: string) => void } = {}): Promise<AssistantService> {
  const s = await startAssistantService({ token: TOKEN, policy: options.policy ?? restaurantPolicy(), world: restaurantWorld, port: 0, ...options });
  services.push(s);
  return s;
}

/** Open a socket; resolves with it, or with the HTTP status the upgrade was refused with. */
function open(url: string, headers: Record<string, string>): Promise<WebSocket | number> {
  return new Promise((done) => {
    const ws = new WebSocket(url, { headers });
    ws.on("open", () => done(ws));
    ws.on("unexpected-response", (_q, res) => done(res.statusCode ?? 0));
    ws.on("error", () => undefined);
  });
}

/** Messages until the socket closes (or `until` says stop), and the close code. */
function collect(ws: WebSocket, until?: (m: Record<string, unknown>) => boolean): Promise<{ messages: Array<Record<string, unknown>>; code: number | null }> {
  return new Promise((done) => {
    const messages: Array<Record<string, unknown>> = [];
    ws.on("message", (d) => {
      const m = JSON.parse(String(d)) as Record<string, unknown>;
      messages.push(m);
      if (until?.(m)) done({ messages, code: null });
    });
    ws.on("close", (code) => done({ messages, code }));
  });
}

const errorCode = (messages: Array<Record<string, unknown>>) => (messages.find((m) => m.type === "error")?.error as { code?: string } | undefined)?.code;
const configure = { type: "session.configure", initial_items: [] };
const words = (text: string) => ({ type: "live.event", event: { type: "session.input_transcript.delta", delta: text, start_ms: 0, end_ms: 500 } });
const delegation = (id: string) => ({ type: "live.event", event: { type: "session.delegation.created", delegation: { id, target: "client" } } });
const send = (ws: WebSocket, ...messages: object[]) => messages.forEach((m) => ws.send(JSON.stringify(m)));

/** A backend that answers only when released. */
function stalled(): { policy: AssistantPolicy; release: () => void; calls: () => number } {
  let release = () => undefined as void;
  let calls = 0;
  const gate = new Promise<void>((r) => (release = r));
  const base = restaurantPolicy();
  return { policy: { ...base, async backend() { calls++; await gate; return { reply: "Done." }; } }, release: () => release(), calls: () => calls };
}

describe("who the service lets in", () => {
  it.each([
    ["no token", {}, 401],
    ["a wrong token", { Authorization: "Bearer wrong-token-0123456789abcdefghijklmnop" }, 401],
    ["a browser Origin and no token (authentication first)", { Origin: "https://untrusted.example" }, 401],
    ["a browser Origin it does not allow", { ...AUTH, Origin: "https://untrusted.example" }, 403],
    ["the null Origin", { ...AUTH, Origin: "null" }, 403],
  ])("refuses %s with HTTP %s, before any session", async (_what, headers, status) => {
    const lines: string[] = [];
    const s = await serve({ allowed_origins: ["https://trusted.example"], log: (l) => lines.push(l) });
    expect(await open(s.url, headers as Record<string, string>)).toBe(status);
    expect(s.connections()).toBe(0);
  });

  it("lets in the token without an Origin, or with an allowed one; /health is public and holds no application data", async () => {
    const s = await serve({ allowed_origins: ["https://trusted.example"] });
    for (const headers of [AUTH, { ...AUTH, Origin: "https://trusted.example" }]) {
      const ws = (await open(s.url, headers)) as WebSocket;
      send(ws, configure);
      expect((await collect(ws, (m) => m.type === "session.ready")).messages).toEqual([{ type: "session.ready", accepts_fixtures: true }]);
      ws.close();
    }
    const health = await fetch(s.url.replace("ws://", "http://").replace("/ws/assistant", "/health"));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", assistant: "client" });
    expect((await fetch(s.url.replace("ws://", "http://").replace("/ws/assistant", "/reservations"))).status).toBe(404);
  });

  it("takes the upgrade at /ws/assistant and at the bare root, nowhere else", async () => {
    const s = await serve();
    const root = s.url.replace("/ws/assistant", "");
    for (const url of [s.url, root, `${root}/`]) {
      const ws = (await open(url, AUTH)) as WebSocket;
      send(ws, configure);
      expect((await collect(ws, (m) => m.type === "session.ready")).messages).toEqual([{ type: "session.ready", accepts_fixtures: true }]);
      ws.close();
    }
    expect(await open(`${root}/ws`, AUTH)).toBe(404);
    expect(await open(`${root}/health`, AUTH)).toBe(404);
  });

  it("binds to this machine only and takes exact origins only", async () => {
    await expect(startAssistantService({ token: TOKEN, policy: restaurantPolicy(), world: restaurantWorld, port: 0, host: "0.0.0.0" as never })).rejects.toThrow(/binds to this machine only/);
    await expect(startAssistantService({ token: TOKEN, policy: restaurantPolicy(), world: restaurantWorld, port: 0, allowed_origins: ["https://example.com/path"] })).rejects.toThrow(/not an exact http\(s\) origin/);
  });
});

describe("malformed or early messages stop the session before any work", () => {
  it.each([
    ["not JSON", "{nope"],
    ["a list", "[]"],
    ["a Live event before session.configure", JSON.stringify(delegation("d1"))],
    ["an initial item that is not a message", JSON.stringify({ type: "session.configure", initial_items: ["bad"] })],
    ["a system message", JSON.stringify({ type: "session.configure", initial_items: [{ type: "message", role: "system", content: [{ type: "input_text", text: "x" }] }] })],
    ["an unsupported configuration field", JSON.stringify({ type: "session.configure", expected: {} })],
  ])("%s: client_protocol_error", async (_what, text) => {
    const { policy, calls } = stalled();
    const ws = (await open((await serve({ policy })).url, AUTH)) as WebSocket;
    ws.send(text);
    expect(errorCode((await collect(ws)).messages)).toBe("client_protocol_error");
    expect(calls()).toBe(0);
  });

  it.each([
    ["audio", { type: "live.event", event: { type: "session.input_audio.append", audio: "AAAA" } }],
    ["a delegation without an id", { type: "live.event", event: { type: "session.delegation.created", delegation: { target: "client" } } }],
    ["a bad timestamp", { type: "live.event", event: { type: "session.input_transcript.delta", delta: "x", start_ms: "soon" } }],
    ["a second configuration", configure],
  ])("after configuring, %s: client_protocol_error", async (_what, message) => {
    const { policy, calls } = stalled();
    const ws = (await open((await serve({ policy })).url, AUTH)) as WebSocket;
    send(ws, configure, message);
    expect(errorCode((await collect(ws)).messages)).toBe("client_protocol_error");
    expect(calls()).toBe(0);
  });
});

describe("every limit, with its default", () => {
  it("the defaults are the documented ones", () => {
    expect(DEFAULT_SERVICE_LIMITS).toEqual({ max_connections: 8, max_pending_delegations: 4, max_delegations: 64, max_message_bytes: 262_144, max_session_bytes: 8_388_608, max_events: 20_000, configure_timeout_ms: 10_000, session_timeout_ms: 600_000, delegation_timeout_ms: 60_000 });
    expect(DEFAULT_CONNECTOR_LIMITS).toEqual({ connect_timeout_ms: 15_000, configure_timeout_ms: 15_000, delegation_timeout_ms: 60_000, max_message_bytes: 262_144, max_events: 20_000, close_timeout_ms: 5_000 });
    const doc = readFileSync(resolve(import.meta.dirname, "../docs/remote-assistant.md"), "utf8");
    for (const row of [
      "| connections at once | 8 |",
      "| pending delegations per connection | 4 |",
      "| delegations per connection | 64 |",
      "| message size (either way) | 256 KiB |",
      "| session input (all the evaluator sends) | 8 MiB |",
      "| events per session (messages the evaluator sends) | 20,000 |",
      "| configuration deadline (upgrade → `session.configure`) | 10 s |",
      "| session life | 10 min |",
      "| delegation deadline (its work) | 60 s |",
      "| connect (the upgrade) | 15 s |",
      "| configuration (`session.ready`, and `session.fixture.applied`) | 15 s |",
      "| delegation deadline (commentary and completion after forwarding it, wall clock) | 60 s |",
      "| message size from the service | 256 KiB |",
      "| messages from the service per session | 20,000 |",
      "| `session.closed` after the end was forwarded | 5 s |",
    ])
      expect(doc).toContain(row);
  });

  it("connections: one more than the limit gets HTTP 503, and a closed one frees its place", async () => {
    const s = await serve({ limits: { max_connections: 1 } });
    const first = (await open(s.url, AUTH)) as WebSocket;
    expect(await open(s.url, AUTH)).toBe(503);
    first.close();
    for (let i = 0; i < 100 && s.connections() > 0; i++) await new Promise((r) => setTimeout(r, 10));
    const second = await open(s.url, AUTH);
    expect(second).toBeInstanceOf(WebSocket);
    (second as WebSocket).close();
  });

  it("pending delegations per connection", async () => {
    const { policy, calls, release } = stalled();
    const ws = (await open((await serve({ policy, limits: { max_pending_delegations: 1 } })).url, AUTH)) as WebSocket;
    send(ws, configure, words("Book a table."), delegation("d1"), delegation("d2"));
    expect(errorCode((await collect(ws)).messages)).toBe("client_limit_reached");
    expect(calls()).toBe(1);
    release();
  });

  it("delegations per connection, counted after finished ones", async () => {
    const ws = (await open((await serve({ limits: { max_delegations: 1 } })).url, AUTH)) as WebSocket;
    send(ws, configure, words("What time do you close?"), delegation("d1"));
    await collect(ws, (m) => (m.event as { type?: string } | undefined)?.type === "client_delegation.completed");
    const rest = collect(ws);
    send(ws, delegation("d2"));
    expect(errorCode((await rest).messages)).toBe("client_limit_reached");
  });

  it("message size: a larger message closes the connection (1009)", async () => {
    const ws = (await open((await serve({ limits: { max_message_bytes: 256 } })).url, AUTH)) as WebSocket;
    ws.send("x".repeat(1024));
    expect((await collect(ws)).code).toBe(1009);
  });

  it("session input in bytes, and in messages", async () => {
    for (const limits of [{ max_session_bytes: 60 }, { max_events: 1 }]) {
      const { policy, calls } = stalled();
      const ws = (await open((await serve({ policy, limits })).url, AUTH)) as WebSocket;
      send(ws, configure, delegation("d1"));
      expect(errorCode((await collect(ws)).messages)).toBe("client_limit_reached");
      expect(calls()).toBe(0);
    }
  });

  it("the configuration deadline and the session's life", async () => {
    const unconfigured = (await open((await serve({ limits: { configure_timeout_ms: 50 } })).url, AUTH)) as WebSocket;
    expect(errorCode((await collect(unconfigured)).messages)).toBe("client_session_timeout");
    const idle = (await open((await serve({ limits: { session_timeout_ms: 100 } })).url, AUTH)) as WebSocket;
    send(idle, configure);
    expect(errorCode((await collect(idle)).messages)).toBe("client_session_timeout");
  });

  it("the delegation deadline: the backend's error, its text never sent or logged", async () => {
    const lines: string[] = [];
    const { policy, release } = stalled();
    const ws = (await open((await serve({ policy, limits: { delegation_timeout_ms: 50 } })).url, AUTH)) as WebSocket;
    send(ws, configure, delegation("d1"));
    const { messages } = await collect(ws);
    expect(messages.at(-1)).toEqual({ type: "error", error: { code: "client_assistant_error", message: "Session stopped" } });
    release();
    const failing: AssistantPolicy = { ...restaurantPolicy(), async backend() { throw new Error(`database password is ${TOKEN}`); } };
    const ws2 = (await open((await serve({ policy: failing, log: (l) => lines.push(l) })).url, AUTH)) as WebSocket;
    send(ws2, configure, delegation("d1"));
    const second = await collect(ws2);
    expect(errorCode(second.messages)).toBe("client_assistant_error");
    expect(JSON.stringify(second.messages) + lines.join("\n")).not.toContain(TOKEN);
    expect(lines.join("\n")).toContain("the backend failed (Error)");
  });
});

describe("crashlab serve-assistant refuses a bad start in one paragraph, exit 2", () => {
  it.each([
    ["no token", [], {}, "crashlab serve-assistant needs OPENAI_CLIENT_ASSISTANT_TOKEN"],
    ["a short token", [], { OPENAI_CLIENT_ASSISTANT_TOKEN: "short" }, "must be a dedicated random secret of 32 to 512 printable characters"],
    ["the OpenAI key as its token", [], { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN, OPENAI_API_KEY: TOKEN }, "is the same value as OPENAI_API_KEY"],
    ["a host that is not this machine", ["--host", "0.0.0.0"], { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN }, "--host 0.0.0.0: the reference client-delegation service binds to this machine only"],
    ["an origin with a path", ["--allow-origin", "https://app.example.com/x"], { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN }, "is not an exact http(s) origin"],
    ["a port out of range", ["--port", "70000"], { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN }, "--port takes a whole number from 0 to 65535"],
    ["a limit that is not a number", ["--max-connections", "many"], { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN }, "--max-connections takes a whole number"],
    ["a target that does not exist", ["--target", "nobody"], { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN }, "--target nobody: the PLAN has no such target"],
  ])("%s", async (_what, args, env, message) => {
    const out = await cli(["serve-assistant", ...args], env as Record<string, string>);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(message);
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
    expect(out.stderr).not.toContain(TOKEN);
  });

  it("--help lists every limit with its default", async () => {
    const out = await cli(["serve-assistant", "--help"]);
    expect(out.code).toBe(0);
    for (const flag of ["--max-connections", "--max-pending-delegations", "--max-delegations", "--max-message-bytes", "--max-session-bytes", "--max-events", "--configure-timeout-seconds", "--session-timeout-seconds", "--delegation-timeout-seconds", "--allow-origin", "--no-fixtures"])
      expect(out.stdout).toContain(flag);
    expect(out.stdout).toContain("(default 8; one more gets HTTP 503)");
  });
});
