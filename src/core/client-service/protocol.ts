/**
 * The client-delegation service contract (docs/remote-assistant.md), shared by crashlab's connector and its
 * reference service: the messages each side sends, how each is read (anything else is a protocol
 * violation, named), and the limits with their defaults. Wire-compatible with the public reference
 * harness's "existing application endpoint"; crashlab's one addition, the fixture handshake, is used only
 * with a service that declares it.
 */

/** The Live server events forwarded to the service: the transcript, delegations and the session's end. Nothing else (no audio). */
export const FORWARDED_TYPES = ["session.input_transcript.delta", "session.output_transcript.delta", "session.delegation.created", "session.closed"] as const;
export type ForwardedType = (typeof FORWARDED_TYPES)[number];
const FORWARDED: ReadonlySet<string> = new Set(FORWARDED_TYPES);
export const isForwarded = (type: string): type is ForwardedType => FORWARDED.has(type);

/** The service's limits (`crashlab serve-assistant`, docs/remote-assistant.md "Limits"). */
export interface ServiceLimits {
  /** Connections served at once; one more is refused with HTTP 503 before the upgrade. */
  max_connections: number;
  /** Delegations of one connection at work at once; one more ends the session (`client_limit_reached`). */
  max_pending_delegations: number;
  /** Delegations per connection in all. */
  max_delegations: number;
  /** The largest message either side may send (bytes of one WebSocket message). */
  max_message_bytes: number;
  /** All the evaluator may send in one session (bytes). */
  max_session_bytes: number;
  /** Messages the evaluator may send in one session. */
  max_events: number;
  /** From the upgrade to `session.configure` (ms). */
  configure_timeout_ms: number;
  /** A session's whole life (ms). */
  session_timeout_ms: number;
  /** One delegation's work, from `session.delegation.created` to its completion (ms). */
  delegation_timeout_ms: number;
}

export const DEFAULT_SERVICE_LIMITS: Readonly<ServiceLimits> = Object.freeze({
  max_connections: 8,
  max_pending_delegations: 4,
  max_delegations: 64,
  max_message_bytes: 256 * 1024,
  max_session_bytes: 8 * 1024 * 1024,
  max_events: 20_000,
  configure_timeout_ms: 10_000,
  session_timeout_ms: 600_000,
  delegation_timeout_ms: 60_000,
});

/** The connector's limits: what crashlab accepts from a service, and how long it waits. */
export interface ConnectorLimits {
  /** The upgrade: connected and authenticated within this (ms, wall clock). */
  connect_timeout_ms: number;
  /** `session.ready` (and, with fixtures, `session.fixture.applied`) within this of connecting (ms). */
  configure_timeout_ms: number;
  /** A delegation's commentary and completion within this of forwarding it (ms, wall clock). */
  delegation_timeout_ms: number;
  /** The largest message a service may send (bytes); a larger one closes the connection (1009). */
  max_message_bytes: number;
  /** Messages a service may send in one session. */
  max_events: number;
  /** The service's `session.closed` after crashlab forwarded the Live session's end (ms). */
  close_timeout_ms: number;
}

export const DEFAULT_CONNECTOR_LIMITS: Readonly<ConnectorLimits> = Object.freeze({
  connect_timeout_ms: 15_000,
  configure_timeout_ms: 15_000,
  delegation_timeout_ms: 60_000,
  max_message_bytes: 256 * 1024,
  max_events: 20_000,
  close_timeout_ms: 5_000,
});

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === "string";

// ── Evaluator → service ─────────────────────────────────────────────────────────────────────────────

/** A prior turn, as `session.configure.initial_items` carries it (the Live `session.start.input` form). */
export interface InitialItem {
  type: "message";
  role: "user" | "assistant";
  content: Array<{ type: "input_text" | "output_text"; text: string }>;
}

export type EvaluatorMessage =
  | { type: "session.configure"; initial_items: InitialItem[] }
  /** Only to a service whose `session.ready` says `accepts_fixtures: true`. */
  | { type: "session.fixture"; initial_state: Obj; context?: { summary?: string }; seed: number; session_label: string }
  | { type: "live.event"; event: Obj };

/** The prior turns as initial items. */
export function initialItems(history: ReadonlyArray<{ role: "user" | "assistant"; text: string }>): InitialItem[] {
  return history.map((m) => ({ type: "message", role: m.role, content: [{ type: m.role === "user" ? "input_text" : "output_text", text: m.text }] }));
}

/** The prior turns back from initial items (text parts joined). */
export function historyOf(items: readonly InitialItem[]): Array<{ role: "user" | "assistant"; text: string }> {
  return items.map((item) => ({ role: item.role, text: item.content.map((p) => p.text).join(" ") }));
}

/** Read one message from the evaluator (the service's side); a string names the violation. */
export function readEvaluatorMessage(value: unknown, configured: boolean): EvaluatorMessage | string {
  if (!isObject(value)) return "a message must be a JSON object";
  if (value.type === "session.configure") {
    if (configured) return "the session is already configured";
    const extra = Object.keys(value).filter((k) => !["type", "initial_items", "model", "instructions", "tools"].includes(k));
    if (extra.length > 0) return `session.configure has unsupported field(s) ${extra.join(", ")}`;
    const items = value.initial_items ?? [];
    if (!Array.isArray(items) || items.length > 128) return "session.configure.initial_items must be a list of at most 128 messages";
    for (const item of items) {
      if (!isObject(item) || (item.type ?? "message") !== "message" || (item.role !== "user" && item.role !== "assistant")) return "an initial item must be a user or assistant message";
      const parts = item.content;
      if (!Array.isArray(parts) || parts.length === 0 || !parts.every((p) => isObject(p) && (p.type === "input_text" || p.type === "output_text") && isText(p.text)))
        return "an initial item's content must be text parts (input_text or output_text)";
    }
    return { type: "session.configure", initial_items: items as InitialItem[] };
  }
  if (!configured) return "configure the session (session.configure) before anything else";
  if (value.type === "session.fixture") {
    if (!isObject(value.initial_state)) return "session.fixture.initial_state must be an object";
    if (typeof value.seed !== "number" || !Number.isSafeInteger(value.seed) || !isText(value.session_label)) return "session.fixture needs a whole-number seed and a session_label";
    if (value.context !== undefined && (!isObject(value.context) || (value.context.summary !== undefined && !isText(value.context.summary)))) return "session.fixture.context.summary must be text";
    return value as EvaluatorMessage;
  }
  if (value.type === "live.event") {
    if (Object.keys(value).some((k) => k !== "type" && k !== "event")) return "live.event carries only type and event";
    const problem = liveEventProblem(value.event);
    return problem ?? { type: "live.event", event: value.event as Obj };
  }
  return `unsupported message type ${JSON.stringify(value.type)}`;
}

/** Why a forwarded Live event is not one the service takes, or null. */
function liveEventProblem(event: unknown): string | null {
  if (!isObject(event) || !isText(event.type) || !isForwarded(event.type)) return "live.event.event must be a transcript delta, a delegation or session.closed";
  for (const key of ["start_ms", "end_ms"]) if (key in event && !(typeof event[key] === "number" && Number.isInteger(event[key]) && (event[key] as number) >= 0)) return `live.event ${key} must be a whole number >= 0`;
  if (event.type === "session.delegation.created") {
    const d = event.delegation;
    if (!isObject(d) || d.target !== "client" || !isText(d.id) || d.id === "" || d.id.length > 256) return "a forwarded delegation must be a client delegation with an id (1 to 256 characters)";
  } else if (event.type !== "session.closed" && !isText(event.delta ?? "")) return "a transcript delta's text must be a string";
  return null;
}

// ── Service → evaluator ─────────────────────────────────────────────────────────────────────────────

/** An observation the service reports (`assistant.event`): its tool calls and state, its backend's progress, a completion. */
export type ReportedEvent = Obj & { type: string };

export type ServiceMessage =
  | { type: "session.ready"; accepts_fixtures: boolean }
  | { type: "session.fixture.applied"; application_state?: Obj }
  | { type: "live.send"; delegation_id: string; content: string }
  | { type: "assistant.event"; event: ReportedEvent }
  | { type: "session.closed" }
  | { type: "error"; code: string };

/** Read one message from the service (crashlab's side); a string names the violation. */
export function readServiceMessage(value: unknown): ServiceMessage | string {
  if (!isObject(value) || !isText(value.type)) return "the service sent a message that is not a JSON object with a type";
  switch (value.type) {
    case "session.ready":
      return { type: "session.ready", accepts_fixtures: value.accepts_fixtures === true };
    case "session.fixture.applied":
      if (value.application_state !== undefined && !isObject(value.application_state)) return "session.fixture.applied.application_state must be an object";
      return { type: "session.fixture.applied", ...(isObject(value.application_state) ? { application_state: value.application_state } : {}) };
    case "live.send": {
      const e = value.event;
      if (!isObject(e) || e.type !== "session.commentary.append") return "live.send may carry only session.commentary.append";
      if (!isText(e.delegation_id) || e.delegation_id === "") return "live.send's commentary must carry the delegation_id it answers";
      if (!isText(e.content) || e.content.trim() === "") return "live.send's commentary must have content";
      return { type: "live.send", delegation_id: e.delegation_id, content: e.content };
    }
    case "assistant.event":
      if (!isObject(value.event) || !isText(value.event.type)) return "assistant.event must carry an event with a type";
      return { type: "assistant.event", event: value.event as ReportedEvent };
    case "session.closed":
      return { type: "session.closed" };
    case "error": {
      const error = isObject(value.error) ? value.error : {};
      return { type: "error", code: isText(error.code) ? error.code : "error" };
    }
    default:
      return `the service sent an unsupported message type ${JSON.stringify(value.type).slice(0, 80)}`;
  }
}

/** The service's error codes (an `error` message's `error.code`). */
export const SERVICE_ERRORS = {
  protocol: "client_protocol_error",
  limit: "client_limit_reached",
  timeout: "client_session_timeout",
  backend: "client_assistant_error",
} as const;
