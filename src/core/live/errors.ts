/**
 * Typed errors of the GPT-Live wire layer. Each says what happened on the wire and, where the user can
 * act, what to change.
 */

/** A config issue found by the strict session-config check (the service rejects the same things). */
export interface ConfigIssue {
  /** Dotted path inside `session.start.session`, e.g. "audio.output.voice". */
  path: string;
  code: "unknown_parameter" | "missing_required_parameter" | "invalid_type" | "invalid_value" | "forbidden";
  message: string;
}

/** The session config would be rejected by the service: found locally, before any socket opens. */
export class LiveConfigError extends Error {
  constructor(readonly issues: ConfigIssue[]) {
    super(
      `GPT-Live session config is invalid: ${issues.map((i) => `session.${i.path}: ${i.message}`).join("; ")}. ` +
        "Fix the session config (the service rejects unknown fields and these values).",
    );
    this.name = "LiveConfigError";
  }
}

export type LiveProtocolErrorKind =
  /** A binary WebSocket frame: the Live protocol is JSON text only. */
  | "binary_frame"
  /** A text frame that is not JSON. */
  | "malformed_json"
  /** JSON that is not an event object with a string `type`. */
  | "not_an_event"
  /** A known event type whose payload does not match its schema (including odd-length PCM audio). */
  | "invalid_event";

/** The peer sent something the protocol does not allow. Surfaced to listeners; never thrown at the socket. */
export class LiveProtocolError extends Error {
  constructor(
    readonly kind: LiveProtocolErrorKind,
    message: string,
    readonly details: { eventType?: string; issues?: string[]; excerpt?: string } = {},
  ) {
    super(message);
    this.name = "LiveProtocolError";
  }
}

export type LiveConnectionErrorCode =
  /** HTTP 401 on the upgrade: missing or wrong API key. */
  | "unauthorized"
  /** Any other non-101 answer to the upgrade request. */
  | "http_error"
  /** The socket failed (refused, reset, DNS, TLS). */
  | "socket_error"
  /** The socket closed after opening but before `session.started`. */
  | "closed_before_started"
  /** `session.started` did not arrive in time. */
  | "start_timeout"
  /** The socket closed while the session was active, without `session.closed`. */
  | "connection_lost"
  /** The caller's AbortSignal fired. */
  | "aborted";

/** The connection could not be made or was lost. Carries the HTTP status or WebSocket close code when known. */
export class LiveConnectionError extends Error {
  constructor(
    readonly code: LiveConnectionErrorCode,
    message: string,
    readonly details: { status?: number; closeCode?: number; closeReason?: string; body?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "LiveConnectionError";
  }
}

/** The service answered with an `error` event that ends the attempt (a rejected `session.start`, a fatal code). */
export class LiveServiceError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { type?: string; param?: string | null; clientEventId?: string | null; fatal: boolean },
  ) {
    super(`GPT-Live error ${code}${details.param ? ` (${details.param})` : ""}: ${message}`);
    this.name = "LiveServiceError";
  }
}

/** A method was called in a state where it cannot work (e.g. sending after the session closed). */
export class LiveStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LiveStateError";
  }
}

/** WebSocket close codes in words, for error messages. */
export function describeCloseCode(code: number): string {
  const known: Record<number, string> = {
    1000: "normal closure",
    1001: "going away",
    1002: "protocol error",
    1003: "unsupported data",
    1005: "no status code",
    1006: "abnormal closure: the connection dropped without a close frame",
    1007: "invalid frame payload",
    1008: "policy violation",
    1009: "message too big",
    1011: "server error",
    1012: "service restart",
    1013: "try again later",
  };
  return known[code] ?? (code >= 4000 ? "application-defined close" : "unrecognized close code");
}
