/**
 * crashlab's reference client-delegation service (`crashlab serve-assistant`, docs/remote-assistant.md): a
 * package's offline policy and world served as a separately running application, over the public
 * contract. Loopback only; every connection authenticated with its Bearer token before the upgrade;
 * browser Origins refused unless allowed; every limit enforced. Each connection has its own world,
 * provisioned with the scenario's initial state when the evaluator sends it.
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { commentaryParts, ObservedTranscript } from "../target/client-backend";
import type { AssistantPolicy, PolicyToolResult } from "../target/policy";
import { refusalOutput, type CallerContext } from "../target/types";
import { createWorld } from "../world/world";
import type { Json, World, WorldDefinition } from "../world/types";
import { DEFAULT_SERVICE_LIMITS, historyOf, readEvaluatorMessage, SERVICE_ERRORS, type ServiceLimits } from "./protocol";

/** The path the service answers on (the reference harness's), and its public health check. */
export const ASSISTANT_PATH = "/ws/assistant";
/** Paths an upgrade is taken on: the service's own, and the bare root (a URL given without its path). */
const UPGRADE_PATHS: ReadonlySet<string> = new Set([ASSISTANT_PATH, "/"]);
export const HEALTH_PATH = "/health";
/** Hosts it may bind: this machine only. */
export const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1"] as const;

export interface AssistantServiceOptions {
  /** The Bearer token every connection must present. */
  token: string;
  /** The application: its backend answers each delegation. */
  policy: AssistantPolicy;
  /** The application's state and tools: a fresh world per connection. */
  world: WorldDefinition;
  /** The tools it may call (the target's declarations); default: every operation of the world. */
  tools?: readonly string[];
  host?: (typeof LOOPBACK_HOSTS)[number];
  /** 0: any free port. */
  port?: number;
  /** Exact browser Origins allowed (e.g. `https://app.example.com`); without one, any request carrying an Origin is refused. */
  allowed_origins?: readonly string[];
  limits?: Partial<ServiceLimits>;
  /** Whether it accepts the scenario's initial state per session (`session.ready.accepts_fixtures`). Default true. */
  accepts_fixtures?: boolean;
  /** One line per session event worth a log (never a token, never application data). */
  log?: (line: string) => void;
}

export interface AssistantService {
  /** `ws://host:port/ws/assistant`. */
  url: string;
  port: number;
  /** Connections open now. */
  connections(): number;
  close(): Promise<void>;
}

/** Why an Origin value is not one to allow, or null: an exact http(s) origin without path, credentials, query or fragment. */
export function originProblem(origin: string): string | null {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `"${origin}" is not an origin (scheme://host[:port])`;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash || origin === "null" || url.origin !== origin.replace(/\/$/, ""))
    return `"${origin}" is not an exact http(s) origin (scheme://host[:port], no path, credentials, query or fragment)`;
  return null;
}

export async function startAssistantService(options: AssistantServiceOptions): Promise<AssistantService> {
  const limits: ServiceLimits = { ...DEFAULT_SERVICE_LIMITS, ...options.limits };
  const host = options.host ?? "127.0.0.1";
  if (!(LOOPBACK_HOSTS as readonly string[]).includes(host)) throw new Error(`the reference client-delegation service binds to this machine only (${LOOPBACK_HOSTS.join(", ")}), not ${host}`);
  for (const origin of options.allowed_origins ?? []) {
    const problem = originProblem(origin);
    if (problem) throw new Error(problem);
  }
  const allowed = new Set((options.allowed_origins ?? []).map((o) => o.replace(/\/$/, "")));
  const expected = Buffer.from(`Bearer ${options.token}`, "utf8");
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.max_message_bytes, perMessageDeflate: false });
  const server: Server = createServer((req, res) => {
    if (req.method === "GET" && pathOf(req) === HEALTH_PATH) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok", assistant: "client" }));
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
  });
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nContent-Length: ${text.length + 1}\r\nConnection: close\r\n\r\n${text}\n`);
    };
    if (!UPGRADE_PATHS.has(pathOf(req))) return refuse(404, "Not Found");
    // Authentication first, so an unauthenticated caller learns nothing else (not even the Origin rule).
    const authorization = req.headersDistinct.authorization ?? [];
    const given = Buffer.from(authorization[0] ?? "", "utf8");
    if (authorization.length !== 1 || given.length !== expected.length || !timingSafeEqual(given, expected)) return refuse(401, "Unauthorized");
    const origins = req.headersDistinct.origin ?? [];
    if (origins.length > 0 && (origins.length !== 1 || !allowed.has(origins[0]!))) return refuse(403, "Forbidden");
    if (sockets.size >= limits.max_connections) return refuse(503, "Service Unavailable");
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on("close", () => sockets.delete(ws));
      serveSession(ws, options, limits);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 8795, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 8795);
  const shownHost = host === "::1" ? "[::1]" : host;
  return {
    url: `ws://${shownHost}:${port}${ASSISTANT_PATH}`,
    port,
    connections: () => sockets.size,
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? "/").split("?")[0]!;
}

class SessionStop extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** One evaluator session: configure, (fixture), forwarded Live events, delegations answered, the end. */
function serveSession(ws: WebSocket, options: AssistantServiceOptions, limits: ServiceLimits): void {
  const started = Date.now();
  const log = options.log ?? (() => undefined);
  const label = { value: "session" };
  let configured = false;
  let transcript = new ObservedTranscript();
  let context: CallerContext = {};
  let world: World | null = null;
  let ended = false;
  let bytes = 0;
  let events = 0;
  let delegations = 0;
  let calls = 0;
  const running = new Set<string>();
  const seen = new Set<string>();
  const tools = new Set(options.tools ?? Object.keys(options.world.operations));
  const timers = new Set<NodeJS.Timeout>();
  const after = (ms: number, what: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      what();
    }, ms);
    timers.add(timer);
    return timer;
  };

  const send = (message: Record<string, unknown>) => {
    if (ended) return;
    const text = JSON.stringify(message);
    if (Buffer.byteLength(text) > limits.max_message_bytes) throw new SessionStop(SERVICE_ERRORS.limit, `an outgoing message would exceed ${limits.max_message_bytes} bytes`);
    ws.send(text);
  };
  const end = (code?: string, why?: string) => {
    if (ended) return;
    if (code) {
      log(`session ${label.value} stopped: ${why ?? code}`);
      try {
        ws.send(JSON.stringify({ type: "error", error: { code, message: "Session stopped" } }));
      } catch {
        // the socket is gone already
      }
    }
    ended = true;
    for (const timer of timers) clearTimeout(timer);
    ws.close(code ? 1011 : 1000);
  };
  // The backend's own error text may hold secrets or application internals: only its kind is logged, and nothing of it is sent.
  const stop = (error: unknown) => (error instanceof SessionStop ? end(error.code, error.message) : end(SERVICE_ERRORS.backend, `the backend failed (${(error as Error)?.name ?? typeof error})`));

  const configureTimer = after(limits.configure_timeout_ms, () => end(SERVICE_ERRORS.timeout, "no session.configure in time"));
  after(limits.session_timeout_ms, () => end(SERVICE_ERRORS.timeout, "the session lasted longer than its limit"));

  const worldOf = (): World => (world ??= createWorld(options.world, { seed: 0, trial: label.value, initialState: {}, now: () => Date.now() - started }));

  /** The application's backend on one delegation: its tool calls reported as they run, its answer as commentary, then its completion. */
  async function answer(id: string): Promise<void> {
    const task = transcript.task(context.summary !== undefined || context.history ? context : undefined);
    const model = `policy:${options.policy.name}@${options.policy.version}`;
    const responseId = `client_${id}`;
    send({ type: "assistant.event", event: { type: "client_delegation.handoff", delegation_id: id, follow_up: delegations > 1 } });
    send({ type: "assistant.event", event: { type: "response.created", delegation_id: id, response: { id: responseId, model } } });
    const policyTools = {
      call: async (name: string, args: Record<string, unknown>): Promise<PolicyToolResult> => {
        if (ended) throw new SessionStop(SERVICE_ERRORS.backend, "the session ended");
        const call_id = `call_${++calls}`;
        const argsJson = JSON.parse(JSON.stringify(args ?? {})) as Json;
        const base = { name, arguments: argsJson, call_id, delegation_id: id };
        send({ type: "assistant.event", event: { type: "tool.called", ...base } });
        const w = worldOf();
        const outcome = tools.has(name)
          ? w.perform(name, argsJson, { trial: label.value, call_id, delegation_id: id })
          : { outcome: "error" as const, error: { code: "unknown_tool", message: `tool "${name}" is not available in this case` } };
        const application_state = w.state() as Json;
        if (outcome.outcome === "ok") {
          const result = (outcome.result ?? null) as Json;
          send({ type: "assistant.event", event: { type: "tool.completed", ...base, result, application_state, tool_execution: { call_id, name, arguments: argsJson, status: "completed", output: result } } });
          return { status: "completed", output: JSON.parse(JSON.stringify(result)) };
        }
        const error = { code: outcome.error!.code, message: outcome.error!.message };
        send({ type: "assistant.event", event: { type: "tool.failed", ...base, error: error.message, application_state, tool_execution: { call_id, name, arguments: argsJson, status: "failed", output: { error } } } });
        return { status: "failed", output: JSON.parse(refusalOutput(error)) };
      },
    };
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => (timer = after(limits.delegation_timeout_ms, () => reject(new SessionStop(SERVICE_ERRORS.backend, `delegation ${id} passed its deadline`)))));
    let reply: string;
    try {
      ({ reply } = await Promise.race([options.policy.backend(task, policyTools), deadline]));
    } finally {
      clearTimeout(timer);
      timers.delete(timer!);
    }
    if (ended) return;
    send({ type: "assistant.event", event: { type: "response.completed", delegation_id: id, response: { id: responseId, model } } });
    for (const part of commentaryParts(reply)) send({ type: "live.send", event: { type: "session.commentary.append", event_id: `evt_${id}_${++calls}`, delegation_id: id, content: part } });
    send({ type: "assistant.event", event: { type: "client_delegation.completed", delegation_id: id, text: reply } });
  }

  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (ended) return;
    try {
      bytes += data.byteLength;
      events += 1;
      if (bytes > limits.max_session_bytes || events > limits.max_events) throw new SessionStop(SERVICE_ERRORS.limit, "session input limit reached");
      if (isBinary) throw new SessionStop(SERVICE_ERRORS.protocol, "a binary message (messages are JSON text)");
      let value: unknown;
      try {
        value = JSON.parse(data.toString("utf8"));
      } catch {
        throw new SessionStop(SERVICE_ERRORS.protocol, "a message that is not JSON");
      }
      const message = readEvaluatorMessage(value, configured);
      if (typeof message === "string") throw new SessionStop(SERVICE_ERRORS.protocol, message);
      switch (message.type) {
        case "session.configure": {
          configured = true;
          clearTimeout(configureTimer);
          const history = historyOf(message.initial_items);
          transcript = new ObservedTranscript(history);
          context = history.length ? { history } : {};
          send({ type: "session.ready", accepts_fixtures: options.accepts_fixtures !== false });
          return;
        }
        case "session.fixture": {
          if (options.accepts_fixtures === false) throw new SessionStop(SERVICE_ERRORS.protocol, "this service does not accept fixtures");
          if (world) throw new SessionStop(SERVICE_ERRORS.protocol, "the fixture must come before the first delegation, once");
          label.value = message.session_label;
          try {
            world = createWorld(options.world, { seed: message.seed, trial: message.session_label, initialState: message.initial_state, now: () => Date.now() - started });
          } catch (error) {
            throw new SessionStop(SERVICE_ERRORS.protocol, `the fixture's initial state does not fit the world: ${(error as Error)?.message ?? String(error)}`);
          }
          if (message.context?.summary !== undefined) context = { ...context, summary: message.context.summary };
          send({ type: "session.fixture.applied", application_state: world.state() as Json });
          return;
        }
        case "live.event": {
          const event = message.event;
          if (event.type === "session.closed") {
            send({ type: "session.closed" });
            return end();
          }
          if (event.type === "session.input_transcript.delta") return transcript.append("user", String(event.delta ?? ""));
          if (event.type === "session.output_transcript.delta") return transcript.append("assistant", String(event.delta ?? ""));
          const id = String((event.delegation as { id: string }).id);
          if (seen.has(id)) return;
          if (running.size >= limits.max_pending_delegations || delegations >= limits.max_delegations) throw new SessionStop(SERVICE_ERRORS.limit, "delegation limit reached");
          seen.add(id);
          running.add(id);
          delegations++;
          answer(id).then(
            () => running.delete(id),
            (error: unknown) => {
              running.delete(id);
              stop(error);
            },
          );
          return;
        }
      }
    } catch (error) {
      stop(error);
    }
  });
  ws.on("close", () => {
    ended = true;
    for (const timer of timers) clearTimeout(timer);
  });
  ws.on("error", () => undefined);
}
