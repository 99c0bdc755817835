/**
 * The connector to a separately running client-delegation service (docs/remote-assistant.md): crashlab
 * holds the GPT-Live session, forwards the transcript, delegations and the session's end to the service
 * over its own authenticated WebSocket, sends the commentary it answers with back to the Live session, and
 * reports the tool calls and state the service reports as the target's own evidence. Every failure ends in
 * a named fault (stage `remote_service`) or the target's own failure; nothing waits forever.
 */
import WebSocket from "ws";
import { DEFAULT_CONNECTOR_LIMITS, initialItems, isForwarded, readServiceMessage, type ConnectorLimits, type ReportedEvent, type ServiceMessage } from "../client-service/protocol";
import { urlForDisplay } from "../services/redact";
import { normalizeUsage } from "../target/responses-backend";
import type { SessionIO, SessionRequest } from "../target/types";
import type { Json } from "../world/types";

/** The stage a fault of the service (or of reaching it) is recorded at. */
export const REMOTE_STAGE = "remote_service";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** What the connector needs of the session that holds it. */
export interface RemoteHost {
  io: SessionIO;
  /** Send commentary for a delegation on the Live session. */
  appendCommentary(delegationId: string, content: string): void;
  /** A fatal fault: the trial ends as infrastructure_error at `stage`. */
  fail(stage: string, message: string): void;
  /** Virtual time only: the backend think time placed before each reported tool call (as crashlab's own client backend thinks). */
  thinkMs: number;
}

/** The scenario's initial state and what makes a service's world reproducible: sent only to a service that accepts fixtures. */
export interface Fixture {
  initial_state: Record<string, unknown>;
  context?: { summary?: string };
  seed: number;
  session_label: string;
}

interface Delegation {
  state: "pending" | "done" | "abandoned";
  release: () => void;
  timer: NodeJS.Timeout | null;
  /** Commentary for it reached the Live session. */
  injected: boolean;
}

export class RemoteClientService {
  private socket: WebSocket | null = null;
  private readonly limits: ConnectorLimits;
  private readonly delegations = new Map<string, Delegation>();
  /** Service messages are handled one at a time, in order (a reported tool call may wait out think time first). */
  private queue: Promise<void> = Promise.resolve();
  private received = 0;
  private oversize = false;
  /** Tool calls whose result the service already reported: a second result for one is ignored (it is one call). */
  private readonly finishedCalls = new Set<string>();
  /** Delegations still at work when the trial stopped: unfinished at the end. */
  private readonly cutShort = new Set<string>();
  /** setup: connecting and configuring; ready: forwarding; closing: the Live session ended; done: let go. */
  private phase: "setup" | "ready" | "closing" | "done" = "setup";
  private failed = false;
  /** Setup: the reply awaited, and how a failure rejects it. */
  private waiter: ((message: ServiceMessage) => void) | null = null;
  private setupFailed: ((why: string) => void) | null = null;
  /** Closing: the service's `session.closed`, or the fault that came instead. */
  private closeAnswered: ((fault: string | null) => void) | null = null;

  constructor(
    private readonly endpoint: string,
    private readonly token: string,
    private readonly host: RemoteHost,
    limits: Partial<ConnectorLimits> = {},
  ) {
    this.limits = { ...DEFAULT_CONNECTOR_LIMITS, ...limits };
  }

  /**
   * Connect (Bearer token, no redirect followed), configure the session with the caller's prior turns,
   * and, when the service declares it accepts fixtures, hand it the scenario's initial state. Rejects with
   * one clear sentence; the token never appears in it.
   */
  async connect(request: SessionRequest, fixture: Fixture | null): Promise<void> {
    const { io } = this.host;
    const release = io.clock.hold("client-delegation service connecting");
    try {
      const socket = await this.open();
      this.socket = socket;
      socket.on("message", (data, isBinary) => this.receive(data as Buffer, isBinary));
      socket.on("close", (code) => this.onClose(code));
      // ws reports a message past maxPayload as an error, then closes abnormally: remember why.
      socket.on("error", (error: Error & { code?: string }) => {
        if (error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") this.oversize = true;
      });
      const ready = await this.exchange({ type: "session.configure", initial_items: initialItems(request.context?.history ?? []) }, "session.ready");
      const acceptsFixtures = ready.type === "session.ready" && ready.accepts_fixtures;
      if (acceptsFixtures && fixture) {
        const applied = await this.exchange({ type: "session.fixture", ...fixture }, "session.fixture.applied");
        const state = applied.type === "session.fixture.applied" ? applied.application_state : undefined;
        io.report?.({ kind: "session", fixture: "applied", ...(state ? { application_state: state as Json } : {}) });
      } else io.report?.({ kind: "session", fixture: acceptsFixtures ? "not_needed" : "not_accepted" });
      this.phase = "ready";
    } catch (error) {
      this.drop();
      throw error;
    } finally {
      release();
    }
  }

  /** Open the WebSocket: resolves once upgraded; a refusal, a redirect or a timeout rejects with what to do. */
  private open(): Promise<WebSocket> {
    const shown = urlForDisplay(this.endpoint);
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (error: Error | null, socket?: WebSocket) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(socket!);
      };
      const socket = new WebSocket(this.endpoint, {
        headers: { Authorization: `Bearer ${this.token}` },
        handshakeTimeout: this.limits.connect_timeout_ms,
        maxPayload: this.limits.max_message_bytes,
        followRedirects: false,
        perMessageDeflate: false,
      });
      const timer = setTimeout(() => {
        settle(new Error(`the client-delegation service at ${shown} did not accept the connection within ${this.limits.connect_timeout_ms / 1000} s; check that it is running and reachable`));
        socket.terminate();
      }, this.limits.connect_timeout_ms);
      socket.on("unexpected-response", (_request, response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        settle(new Error(refusal(status, shown)));
        socket.terminate();
      });
      socket.on("error", (cause) => settle(new Error(`cannot connect to the client-delegation service at ${shown}: ${socketCause(cause)}`)));
      socket.on("open", () => settle(null, socket));
    });
  }

  /** Send one message and wait (within the configuration deadline) for the reply of `want`'s type. */
  private exchange(message: Obj, want: "session.ready" | "session.fixture.applied"): Promise<ServiceMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`the client-delegation service did not answer ${String(message.type)} with ${want} within ${this.limits.configure_timeout_ms / 1000} s`));
      }, this.limits.configure_timeout_ms);
      this.waiter = (reply) => {
        clearTimeout(timer);
        this.waiter = null;
        if (reply.type === want) resolve(reply);
        else reject(new Error(reply.type === "error" ? `the client-delegation service refused the session (${reply.code})` : `the client-delegation service answered ${message.type} with ${reply.type} instead of ${want}`));
      };
      this.setupFailed = (why) => {
        clearTimeout(timer);
        this.waiter = null;
        reject(new Error(why));
      };
      this.send(message);
    });
  }

  /**
   * A Live server event: the four the service needs are forwarded (transcript deltas, client delegations,
   * the session's end); a client delegation is pending from here until its commentary and completion came.
   */
  observe(event: { type: string } & Obj): void {
    if (this.failed || !isForwarded(event.type) || event.type === "session.closed") return;
    if (event.type === "session.delegation.created") {
      const d = event.delegation as Obj | undefined;
      if (!isObject(d) || d.target !== "client" || typeof d.id !== "string") return;
      if (this.delegations.has(d.id)) return;
      const id = d.id;
      const entry: Delegation = { state: "pending", release: this.host.io.clock.hold(`client-delegation service: ${id}`), timer: null, injected: false };
      entry.timer = setTimeout(() => this.expire(id), this.limits.delegation_timeout_ms);
      this.delegations.set(id, entry);
    }
    this.send({ type: "live.event", event });
  }

  private send(message: Obj): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    this.host.io.emit({ type: "raw", at_ms: this.host.io.clock.now(), direction: "sent", event: { client_service: message as Json } });
  }

  private receive(data: Buffer, isBinary: boolean): void {
    const { io } = this.host;
    if (++this.received > this.limits.max_events) return this.violate(`the service sent more than ${this.limits.max_events} messages in one session (the connector's limit)`);
    let parsed: unknown;
    let logged: unknown;
    try {
      const text = isBinary ? "" : data.toString("utf8");
      parsed = isBinary ? undefined : JSON.parse(text);
      // A service that echoes the token in a message does not get it into the event log.
      logged = text.includes(this.token) ? JSON.parse(text.split(this.token).join("[REDACTED]")) : parsed;
    } catch {
      parsed = undefined;
    }
    io.emit({ type: "raw", at_ms: io.clock.now(), direction: "received", event: { client_service: (logged ?? { bytes: data.byteLength, binary: isBinary }) as Json } });
    const message = parsed === undefined ? (isBinary ? "the service sent a binary message (messages are JSON text)" : "the service sent a message that is not JSON") : readServiceMessage(parsed);
    if (typeof message === "string") return this.violate(message);
    if (this.waiter && (message.type === "session.ready" || message.type === "session.fixture.applied" || message.type === "error")) return this.waiter(message);
    if (this.phase === "closing" && message.type === "session.closed") return void this.closeAnswered?.(null);
    this.queue = this.queue.then(() => this.handle(message)).catch((error: unknown) => (this.host.io.signal.aborted ? this.trialStopped() : this.violate((error as Error)?.message ?? String(error))));
  }

  private async handle(message: ServiceMessage): Promise<void> {
    if (this.failed) return;
    switch (message.type) {
      case "live.send":
        return this.commentary(message.delegation_id, message.content);
      case "assistant.event":
        return this.reported(message.event);
      case "session.closed":
        return this.fault("the client-delegation service ended the session before the Live session ended");
      case "error":
        return this.fault(`the client-delegation service stopped the session (${message.code})`);
      default:
        return this.violate(`the service sent ${message.type} after the session was configured`);
    }
  }

  /** Commentary for a pending delegation goes to the Live session as it is; for any other id it is a violation. */
  private commentary(id: string, content: string): void {
    const d = this.delegations.get(id);
    if (!d) return this.violate(`the service sent commentary for delegation ${JSON.stringify(id)}, which crashlab never forwarded (unknown delegation id)`);
    if (d.state === "abandoned") return void this.note("late_commentary", `delegation ${id}`);
    if (d.state === "done") return this.violate(`the service sent commentary for delegation ${id} after it had completed it`);
    const { io } = this.host;
    if (!d.injected) io.emit({ type: "delegation.content", at_ms: io.clock.now(), delegation_id: id, text: content });
    d.injected = true;
    this.host.appendCommentary(id, content);
  }

  /** What the service reports: its completion of a delegation, its tool calls and state, its backend's responses, a failure. */
  private async reported(event: ReportedEvent): Promise<void> {
    const { io } = this.host;
    const id = typeof event.delegation_id === "string" ? event.delegation_id : undefined;
    switch (event.type) {
      case "client_delegation.completed":
        return this.completed(id);
      case "error":
        return this.fault(`the client-delegation service reported that its backend failed${isObject(event.error) && typeof event.error.code === "string" ? ` (${event.error.code})` : ""}`);
      case "tool.called": {
        const call = reportedCall(event);
        if (typeof call === "string") return this.violate(call);
        if (this.host.thinkMs > 0) await this.think(id);
        io.report?.({ kind: "tool.called", ...call });
        return;
      }
      case "tool.completed":
      case "tool.failed": {
        const call = reportedCall(event);
        if (typeof call === "string") return this.violate(call);
        if (this.finishedCalls.has(call.call_id)) return void this.note("duplicate_tool_result", `tool call ${call.call_id}`);
        this.finishedCalls.add(call.call_id);
        io.report?.({ kind: "tool.result", ...call, ...reportedResult(event) });
        return;
      }
      case "response.created":
      case "response.completed":
      case "response.failed":
      case "response.incomplete":
        return this.backendResponse(event, id);
      default:
        return; // the service's own progress (handoff, context assembled, stream deltas): in the raw log
    }
  }

  /** A delegation is complete once its commentary and this observation both arrived (docs/remote-assistant.md, "Lifecycle"). */
  private completed(id: string | undefined): void {
    const d = id === undefined ? undefined : this.delegations.get(id);
    if (!d || id === undefined) return this.violate(`the service completed delegation ${JSON.stringify(id ?? null)}, which crashlab never forwarded (unknown delegation id)`);
    if (d.state === "done") return void this.note("duplicate_completion", `delegation ${id}`);
    if (d.state === "abandoned") return void this.note("late_completion", `delegation ${id}`);
    if (!d.injected) return this.violate(`the service completed delegation ${id} before sending its result (no commentary for it yet)`);
    this.settle(d, "done");
    this.host.io.emit({ type: "delegation.completed", at_ms: this.host.io.clock.now(), delegation_id: id });
  }

  /** A reported Responses call of the service's backend: token usage and the model it names, for the record; each counts as a provider request. */
  private backendResponse(event: ReportedEvent, id: string | undefined): void {
    const { io } = this.host;
    const response = isObject(event.response) ? event.response : {};
    const responseId = typeof response.id === "string" ? response.id : `reported_${this.received}`;
    const model = typeof response.model === "string" ? { model: response.model } : {};
    const status = event.type === "response.created" ? "created" : event.type === "response.completed" ? "completed" : event.type === "response.failed" ? "failed" : "incomplete";
    if (status === "created") io.countProviderRequest("client_service_response");
    const usage = status !== "created" && isObject(response.usage) ? normalizeUsage(response.usage as never) : undefined;
    io.emit({ type: "backend.response", at_ms: io.clock.now(), delegation_id: id ?? "", response_id: responseId, status, ...model, ...(usage ? { usage } : {}) });
  }

  /** Virtual time only: let the trial's clock run for the think time before a reported tool call, as crashlab's own client backend does. */
  private async think(id: string | undefined): Promise<void> {
    const d = id === undefined ? undefined : this.delegations.get(id);
    if (!d || d.state !== "pending") return;
    d.release();
    try {
      await this.host.io.clock.sleep(this.host.thinkMs, this.host.io.signal);
    } finally {
      d.release = d.state === "pending" ? this.host.io.clock.hold(`client-delegation service: ${id}`) : () => {};
    }
  }

  /** The delegation deadline passed: crashlab stops waiting (the trial's clock runs again), and the unanswered delegation is the target's failure. */
  private expire(id: string): void {
    const d = this.delegations.get(id);
    if (!d || d.state !== "pending") return;
    this.settle(d, "abandoned");
    const { io } = this.host;
    const message = `the client-delegation service did not complete delegation ${id} within ${this.limits.delegation_timeout_ms / 1000} s (its delegation deadline); crashlab stopped waiting for it`;
    io.emit({ type: "error", at_ms: io.clock.now(), code: "remote_service_deadline", message, fatal: false });
  }

  private settle(d: Delegation, state: "done" | "abandoned"): void {
    d.state = state;
    if (d.timer) clearTimeout(d.timer);
    d.timer = null;
    d.release();
    d.release = () => {};
  }

  private note(what: "duplicate_completion" | "late_commentary" | "late_completion" | "duplicate_tool_result", subject: string): void {
    const { io } = this.host;
    io.emit({ type: "error", at_ms: io.clock.now(), code: `remote_service_${what}`, message: `ignored: ${what.replace(/_/g, " ")} for ${subject}`, fatal: false });
  }

  /**
   * The trial stopped (a limit hit while recording what the service reported, say): the trial records why;
   * here the clock is let go, and the delegations still at work are what the service left unfinished.
   */
  private trialStopped(): void {
    for (const [id, d] of this.delegations)
      if (d.state === "pending") {
        this.settle(d, "abandoned");
        this.cutShort.add(id);
      }
  }

  private violate(message: string): void {
    this.fault(`protocol violation by the client-delegation service: ${message}`);
  }

  /**
   * A fatal fault: every hold let go (so the trial's clock can reach its end) and the socket closed. During
   * setup it rejects the connection; while forwarding it fails the session; while closing it is the close's result.
   */
  private fault(message: string): void {
    if (this.failed || this.phase === "done") return;
    this.failed = true;
    const phase = this.phase;
    this.drop();
    if (phase === "setup") this.setupFailed?.(message);
    else if (phase === "ready") this.host.fail(REMOTE_STAGE, message);
    else this.closeAnswered?.(message);
  }

  private onClose(code: number): void {
    if (this.phase === "done") return;
    const pending = [...this.delegations].filter(([, d]) => d.state === "pending").map(([id]) => id);
    const why = code === 1009 || this.oversize ? `sent a message larger than ${this.limits.max_message_bytes} bytes (the connector's limit), so crashlab closed the connection` : `closed its connection unexpectedly (code ${code})`;
    this.fault(`the client-delegation service ${why}${pending.length ? ` with delegation ${pending.join(", ")} unfinished` : ""}`);
  }

  /**
   * The Live session ended: forward its `session.closed`, wait for the service's own, and close. Work the
   * service left unfinished, no `session.closed` from it in time, or a fault instead, is its fault
   * (returned as one sentence); null when it ended cleanly.
   */
  async finish(closed: Obj | null): Promise<string | null> {
    if (this.failed || this.phase !== "ready") {
      this.drop();
      return null;
    }
    await this.queue;
    if (this.failed) return null;
    const unfinished = [...this.delegations].filter(([id, d]) => d.state === "pending" || this.cutShort.has(id)).map(([id]) => id);
    this.phase = "closing";
    const answered = new Promise<string | null>((resolve) => {
      const timer = setTimeout(() => resolve(`the client-delegation service did not answer the session's end with session.closed within ${this.limits.close_timeout_ms / 1000} s`), this.limits.close_timeout_ms);
      this.closeAnswered = (fault) => {
        clearTimeout(timer);
        resolve(fault);
      };
    });
    this.send({ type: "live.event", event: closed ?? { type: "session.closed", reason: "close_requested" } });
    const fault = await answered;
    this.drop();
    if (unfinished.length > 0) return `the client-delegation service still had delegation ${unfinished.join(", ")} unfinished when the session ended`;
    return fault;
  }

  /** Let go of everything: holds, timers, the socket. */
  drop(): void {
    this.phase = "done";
    for (const d of this.delegations.values()) if (d.state === "pending") this.settle(d, "abandoned");
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState !== WebSocket.CLOSED) socket.terminate();
  }
}

/** What an HTTP answer instead of the upgrade means, in one sentence. */
function refusal(status: number, shown: string): string {
  if (status >= 300 && status < 400) return `the client-delegation service at ${shown} answered with a redirect (HTTP ${status}); crashlab does not follow redirects with the service's token: give the final wss:// URL`;
  if (status === 401) return `the client-delegation service at ${shown} refused the token (HTTP 401): OPENAI_CLIENT_ASSISTANT_TOKEN must be the token the service was started with`;
  if (status === 403) return `the client-delegation service at ${shown} refused the connection (HTTP 403, forbidden)`;
  if (status === 404) return `the client-delegation service at ${shown} answered HTTP 404: nothing takes WebSocket connections at that path; check the URL's path (crashlab serve-assistant answers at /ws/assistant)`;
  if (status === 503) return `the client-delegation service at ${shown} is at its connection limit (HTTP 503); lower --concurrency or raise the service's limit`;
  return `the client-delegation service at ${shown} answered HTTP ${status} instead of a WebSocket upgrade; check the URL`;
}

function socketCause(cause: Error & { code?: string }): string {
  if (cause.code === "ECONNREFUSED") return "connection refused (is it running?)";
  if (cause.code === "ENOTFOUND") return "host not found";
  return cause.code ?? cause.message;
}

/**
 * A reported tool call's identity: name, call id, arguments (an object), delegation. Each is read from the
 * event, else from the execution record riding along (`tool_execution`), which is all some services send.
 */
function reportedCall(event: ReportedEvent): { call_id: string; name: string; arguments: Record<string, Json> | null; raw_arguments: string; delegation_id?: string } | string {
  const execution = isObject(event.tool_execution) ? event.tool_execution : {};
  const name = nonEmpty(event.name) ?? nonEmpty(execution.name);
  const call_id = nonEmpty(event.call_id) ?? nonEmpty(execution.call_id);
  if (name === undefined || call_id === undefined) return `${event.type} must name the tool (name) and the call (call_id), on the event or its tool_execution`;
  const args = "arguments" in event ? event.arguments : execution.arguments;
  const parsed = typeof args === "string" ? safeParse(args) : args;
  return {
    call_id,
    name,
    arguments: isObject(parsed) ? (parsed as Record<string, Json>) : null,
    raw_arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}),
    ...(typeof event.delegation_id === "string" ? { delegation_id: event.delegation_id } : {}),
  };
}

/** A reported result: completed with its output, or failed with its error (a refusal's code when the execution says it); the state after it. */
function reportedResult(event: ReportedEvent): { status: "completed" | "failed"; output?: Json; error?: { code: string; message: string }; application_state?: Json } {
  const state = isObject(event.application_state) ? { application_state: event.application_state as Json } : {};
  const execution = isObject(event.tool_execution) ? event.tool_execution : {};
  if (event.type === "tool.completed") return { status: "completed", output: ("result" in event ? event.result : (execution.output ?? null)) as Json, ...state };
  const output = isObject(execution.output) ? execution.output : {};
  const structured = isObject(output.error) && typeof output.error.code === "string" && typeof output.error.message === "string" ? { code: output.error.code, message: output.error.message } : null;
  const message = typeof event.error === "string" ? event.error : typeof output.error === "string" ? output.error : "the tool failed";
  return { status: "failed", error: structured ?? { code: "tool_failed", message }, ...state };
}

const nonEmpty = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
