/**
 * The GPT-Live client: one WebSocket session on the Live protocol (docs/gpt-live-protocol.md).
 *
 * Usage, as the target adapter is expected to drive it:
 * ```ts
 * const client = new LiveClient();
 * client.onRaw((frame) => log(frame));                     // every frame, both directions, for the event log
 * client.onEvent("session.output_audio.delta", (_, { audio, at_ms }) => place(audio, at_ms));
 * client.onEvent("response.event", (e) => { … run tools, client.createItem(…), client.createResponse() … });
 * client.on((message) => { if (message.kind === "protocol_error") … });
 * const started = await client.connect({ url, apiKey, session, clock });
 * client.appendAudio(chunk);                               // every 20 ms
 * const result = await client.close();                     // session.close → session.closed (or a typed outcome)
 * ```
 *
 * Guarantees:
 * - `session.start` is the first frame; every other send made before `session.started` is queued and
 *   flushed, in order, when it arrives. Every client event carries an `event_id` (`evt_1`, `evt_2`, …).
 * - Every server frame reaches listeners: known events parsed and typed, unknown types as
 *   `unknown_event` (tolerated, as the protocol requires), and binary frames, malformed JSON or invalid
 *   known events as `protocol_error` messages. None of these throws or closes the socket.
 * - The state machine is explicit: idle → connecting → starting → active → closing → closed.
 *   "closing" means the session is finalizing (we sent `session.close`, or the service sent
 *   `session.closed`); "closed" means the socket is gone.
 * - Failures are typed: LiveConfigError (config the service would reject, found before connecting),
 *   LiveConnectionError (HTTP status, socket error, close code), LiveServiceError (`error` event that
 *   rejects the start or is fatal), LiveStateError (a call the current state cannot serve).
 *
 * Virtual time: listeners run synchronously inside the frame's hold (see wire-time.ts). A listener that
 * continues with asynchronous work the clock cannot see (executing a tool, calling a backend) must take
 * `clock.hold()` until that work has sent its reply, or virtual time may jump past it. A VirtualClock
 * only makes sense when the peer runs on the same clock (the local simulator); against the real service
 * use a RealClock, or the start and close timeouts elapse in virtual time while the network is slow.
 */
import WebSocket from "ws";
import { decodePcmBase64 } from "../audio/pcm";
import { redactUrls, urlForDisplay } from "../services/redact";
import { authHeaders, type AuthHeader } from "../services/auth";
import { RealClock, type Clock } from "../time/clock";
import {
  LiveConfigError,
  LiveConnectionError,
  LiveProtocolError,
  LiveServiceError,
  LiveStateError,
  describeCloseCode,
} from "./errors";
import {
  FATAL_ERROR_CODES,
  checkSessionConfig,
  clientEvents,
  parseServerEvent,
  type ClientEvent,
  type DelegationConfig,
  type FunctionCallOutputItem,
  type LiveSession,
  type ServerEvent,
  type ServerEventOf,
  type ServerEventType,
  type SessionConfig,
} from "./protocol";
import { readHotServerEvent } from "./hot-events";
import { NO_COMPRESSION, SocketCork } from "./socket-cork";
import { CLOSE_FRAME_KEY, WireEnd, frameKey } from "./wire-time";

export type LiveClientState = "idle" | "connecting" | "starting" | "active" | "closing" | "closed";

export interface LiveConnectOptions {
  /** `wss://api.openai.com/v1/live/sessions`, or the simulator's `ws://127.0.0.1:PORT/v1/live/sessions`. */
  url: string;
  /** The endpoint's key, never logged; null sends no credential at all. */
  apiKey: string | null;
  /** The header the key travels in: `Authorization: Bearer` (default) or Azure's `api-key`. */
  authHeader?: AuthHeader;
  session: SessionConfig;
  /** The trial clock; every `at_ms` is on it. Default: a RealClock started now. */
  clock?: Clock;
  /** Aborting drops the connection (a pending `connect` rejects with code "aborted"). */
  signal?: AbortSignal;
  /** Check the config locally, as strictly as the service does, before connecting. Default true. */
  validate?: boolean;
  /** How long to wait for `session.started`, on the clock. Default 15 000 ms. */
  startTimeoutMs?: number;
}

export interface LiveClientOptions {
  /**
   * Called when a listener throws. Listener errors never break the client (other listeners still get
   * the message); by default they are rethrown asynchronously so they surface as uncaught exceptions.
   */
  onListenerError?: (error: unknown, delivered: LiveMessage | LiveRawFrame) => void;
}

/** What listeners receive. */
export type LiveMessage =
  /** A known server event, validated. For audio deltas, `audio` holds the decoded PCM bytes. */
  | { kind: "event"; event: ServerEvent; at_ms: number; audio?: Uint8Array }
  /** An event type this client does not know: ignored, but visible (and in the raw log). */
  | { kind: "unknown_event"; type: string; inner_type?: string; raw: unknown; at_ms: number }
  | { kind: "protocol_error"; error: LiveProtocolError; at_ms: number }
  | { kind: "state"; state: LiveClientState; previous: LiveClientState; at_ms: number }
  /** The socket closed. `clean` is true only after `session.closed` arrived. */
  | { kind: "socket_closed"; code: number; reason: string; clean: boolean; error?: LiveConnectionError; at_ms: number };

/** One frame as it crossed the wire, for the event log. Headers (and so the API key) never appear. */
export interface LiveRawFrame {
  direction: "sent" | "received";
  at_ms: number;
  /** The text frame, verbatim. */
  text?: string;
  /** The frame parsed as JSON (sent frames: the event object), when it is JSON. */
  json?: unknown;
  /** Set for binary frames instead of text. */
  binary_bytes?: number;
}

export type LiveCloseResult =
  /** `session.closed` arrived: the session finalized (reason may be "expired" etc. if the service ended it). */
  | { outcome: "closed"; reason: string; usage_seconds?: number; event: ServerEventOf<"session.closed"> }
  /** No `session.closed` within the timeout; the socket was then dropped. */
  | { outcome: "timeout"; waited_ms: number; usage_seconds?: number }
  /** The socket closed without `session.closed`: the session did not finalize cleanly. */
  | {
      outcome: "closed_without_session_closed";
      close_code?: number;
      close_reason?: string;
      error?: LiveConnectionError | LiveServiceError;
      usage_seconds?: number;
    };

export interface EventInfo {
  at_ms: number;
  audio?: Uint8Array;
}

/** After `session.closed`, how long (wall time) to wait for the service to close the socket before dropping it. */
const SOCKET_CLOSE_GRACE_MS = 2_000;

export class LiveClient {
  private _state: LiveClientState = "idle";
  private clock: Clock = new RealClock();
  private socket: WebSocket | undefined;
  private wire: WireEnd | undefined;
  private cork: SocketCork | undefined;
  private readonly queue: ClientEvent[] = [];
  private eventCounter = 0;
  private readonly listeners = new Set<(message: LiveMessage) => void>();
  private readonly rawListeners = new Set<(frame: LiveRawFrame) => void>();

  private _session: LiveSession | undefined;
  private _usageSeconds: number | undefined;
  private _closedEvent: ServerEventOf<"session.closed"> | undefined;
  private _fatalError: LiveServiceError | undefined;
  private _connectionError: LiveConnectionError | undefined;
  private _closeInfo: { code: number; reason: string } | undefined;
  private timedOutAfterMs: number | undefined;
  /** Why `connect` rejected, when it did. */
  private startFailure: LiveConnectionError | LiveServiceError | undefined;
  private everActive = false;

  private readonly started = deferred<ServerEventOf<"session.started">>();
  private startSettled = false;
  private readonly sessionClosed = deferred<void>();
  private readonly socketClosed = deferred<void>();
  private readonly startTimer = new AbortController();
  private releaseConnecting: (() => void) | undefined;
  private removeAbortListener: (() => void) | undefined;

  constructor(private readonly options: LiveClientOptions = {}) {}

  get state(): LiveClientState {
    return this._state;
  }
  /** The session as `session.started` (or the latest `session.updated`) reported it. */
  get session(): LiveSession | undefined {
    return this._session;
  }
  get sessionId(): string | undefined {
    return this._session?.id;
  }
  /** The last cumulative `usage.seconds` seen (usage updates or `session.closed`). Never a sum. */
  get usageSeconds(): number | undefined {
    return this._usageSeconds;
  }
  get closedEvent(): ServerEventOf<"session.closed"> | undefined {
    return this._closedEvent;
  }
  /** A fatal `error` event (e.g. insufficient_quota), if one arrived. */
  get fatalError(): LiveServiceError | undefined {
    return this._fatalError;
  }
  /** Why the connection failed or was lost, if it was. */
  get connectionError(): LiveConnectionError | undefined {
    return this._connectionError;
  }
  get closeInfo(): { code: number; reason: string } | undefined {
    return this._closeInfo;
  }

  // ---- listening --------------------------------------------------------------------------------

  /** Every message: events, unknown events, protocol errors, state changes, socket closure. */
  on(listener: (message: LiveMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Known server events of one type, typed. */
  onEvent<T extends ServerEventType>(type: T, listener: (event: ServerEventOf<T>, info: EventInfo) => void): () => void {
    return this.on((message) => {
      if (message.kind === "event" && message.event.type === type) {
        listener(message.event as ServerEventOf<T>, { at_ms: message.at_ms, audio: message.audio });
      }
    });
  }

  /** Every frame sent and received, verbatim (the event log's source). */
  onRaw(listener: (frame: LiveRawFrame) => void): () => void {
    this.rawListeners.add(listener);
    return () => this.rawListeners.delete(listener);
  }

  // ---- lifecycle --------------------------------------------------------------------------------

  /**
   * Open the socket, send `session.start` and resolve with `session.started`. Register listeners first:
   * events are delivered from the first frame. Sends made before this resolves are queued.
   */
  async connect(options: LiveConnectOptions): Promise<ServerEventOf<"session.started">> {
    if (this._state !== "idle") throw new LiveStateError(`connect() was already called (state ${this._state}); use one LiveClient per session`);
    if (options.validate !== false) {
      const issues = checkSessionConfig(options.session);
      if (issues.length > 0) throw new LiveConfigError(issues);
    }
    if (options.apiKey !== null && !options.apiKey) {
      throw new LiveConnectionError("unauthorized", "no API key given; pass apiKey (for example from OPENAI_API_KEY) to connect");
    }
    this.clock = options.clock ?? new RealClock();
    const start: ClientEvent = { ...clientEvents.sessionStart(options.session), event_id: this.nextEventId() };
    this.setState("connecting");
    // Nothing the clock can see happens during the handshake: keep virtual time still until the
    // session.start frame is on the wire (its own hold takes over from there).
    this.releaseConnecting = this.clock.hold("live connecting");

    if (options.signal) {
      const signal = options.signal;
      const onAbort = () => this.abort(signal.reason);
      if (signal.aborted) {
        this.releaseConnecting();
        this.setState("closed");
        throw new LiveConnectionError("aborted", "connect was aborted before it started", { cause: signal.reason });
      }
      signal.addEventListener("abort", onAbort, { once: true });
      this.removeAbortListener = () => signal.removeEventListener("abort", onAbort);
    }

    const startTimeoutMs = options.startTimeoutMs ?? 15_000;
    this.clock.sleep(startTimeoutMs, this.startTimer.signal).then(
      () => {
        if (this.startSettled) return;
        this.failStart(new LiveConnectionError("start_timeout", `no session.started within ${startTimeoutMs} ms; the service did not accept the session`));
        this.dropSocket();
      },
      () => {},
    );

    let socket: WebSocket;
    try {
      socket = new WebSocket(options.url, {
        headers: authHeaders(options.apiKey === null ? null : { key: options.apiKey, header: options.authHeader ?? "authorization" }),
        handshakeTimeout: startTimeoutMs,
        // Audio in base64 barely compresses; deflating it costs CPU on both ends for nothing.
        ...NO_COMPRESSION,
      });
    } catch (cause) {
      const error = new LiveConnectionError("socket_error", `cannot open "${urlForDisplay(options.url)}": ${redactUrls((cause as Error).message, [options.url])}; use a ws:// or wss:// URL`, { cause });
      this.failStart(error);
      this.setState("closed");
      throw error;
    }
    this.socket = socket;
    socket.on("upgrade", (response) => {
      this.wire = new WireEnd(this.clock, response.socket);
      this.cork = new SocketCork(response.socket);
    });
    socket.on("open", () => {
      this.setState("starting");
      this.transmit(start);
      this.stopConnectingHold();
    });
    socket.on("unexpected-response", (_request, response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const status = response.statusCode ?? 0;
        const body = Buffer.concat(chunks).toString("utf8").slice(0, 2_000);
        const error =
          status === 401
            ? new LiveConnectionError("unauthorized", `the Live endpoint refused the API key (HTTP 401): ${serviceMessage(body)}; check the key`, { status, body })
            : new LiveConnectionError("http_error", `the Live endpoint answered HTTP ${status} instead of a WebSocket upgrade: ${serviceMessage(body)}; check the URL`, { status, body });
        this._connectionError ??= error;
        this.failStart(error);
        socket.terminate();
      });
    });
    socket.on("error", (cause) => {
      const error = new LiveConnectionError("socket_error", `GPT-Live socket error: ${cause.message}`, { cause });
      this._connectionError ??= error;
      this.failStart(error);
    });
    socket.on("message", (data, isBinary) => this.receive(data as Buffer, isBinary));
    socket.on("close", (code, reason) => this.onSocketClose(code, reason.toString("utf8")));

    return this.started.promise;
  }

  /**
   * Finalize: send `session.close` and resolve with `session.closed` (its `usage.seconds` is the final
   * frontend usage). Resolves, never rejects, with a typed outcome when `session.closed` does not come.
   * Calling it again returns the same outcome.
   */
  async close(options: { timeoutMs?: number } = {}): Promise<LiveCloseResult> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    switch (this._state) {
      case "idle":
        throw new LiveStateError("close() before connect(): there is no session to close");
      case "connecting":
      case "starting":
        this.abort(new LiveStateError("closed before session.started"));
        await this.socketClosed.promise;
        return this.closeResult();
      case "active":
        this.transmit({ ...clientEvents.sessionClose(), event_id: this.nextEventId() });
        this.setState("closing");
        break;
      case "closing":
        break;
      case "closed":
        return this.closeResult();
    }

    const timer = new AbortController();
    const outcome = await Promise.race([
      this.sessionClosed.promise.then(() => "session_closed" as const),
      this.socketClosed.promise.then(() => "socket_closed" as const),
      this.clock.sleep(timeoutMs, timer.signal).then(
        () => "timeout" as const,
        () => "cancelled" as const,
      ),
    ]);
    timer.abort();
    if (outcome === "timeout" && !this._closedEvent) {
      this.timedOutAfterMs = timeoutMs;
      this.dropSocket();
      await this.socketClosed.promise;
    } else if ((this._state as LiveClientState) !== "closed") {
      await this.awaitServiceClose();
    }
    return this.closeResult();
  }

  /** Drop the socket now, without finalizing (no `session.closed` will follow). */
  terminate(): void {
    this.dropSocket();
  }

  // ---- sending ----------------------------------------------------------------------------------

  /**
   * Send any client event (stamping an `event_id` unless it has one) and return its id. Queued until
   * `session.started`. Throws LiveStateError once the session is closing or closed.
   */
  send(event: ClientEvent): string {
    const stamped: ClientEvent = { ...event, event_id: event.event_id ?? this.nextEventId() };
    switch (this._state) {
      case "idle":
      case "connecting":
      case "starting":
        this.queue.push(stamped);
        break;
      case "active":
        if (!this.transmit(stamped)) throw this.notOpen(stamped.type);
        break;
      case "closing":
      case "closed":
        throw this.notOpen(stamped.type);
    }
    return stamped.event_id!;
  }

  /**
   * Stream caller audio (raw PCM in the session format; never acknowledged). Returns false, instead of
   * throwing, once the session is closing or closed: the microphone naturally races the session's end.
   */
  appendAudio(pcm: Uint8Array): boolean {
    if (this._state === "closing" || this._state === "closed") return false;
    const event: ClientEvent = { ...clientEvents.inputAudioAppend(pcm), event_id: this.nextEventId() };
    if (this._state !== "active") {
      this.queue.push(event);
      return true;
    }
    // Every 20 ms: written by hand, byte for byte what JSON.stringify gives (base64 and ids need no escaping).
    return this.transmit(event, `{"type":"session.input_audio.append","audio":"${event.audio}","event_id":"${event.event_id}"}`);
  }

  /** Silent or spoken context for the voice model; `delegationId` null means general context. */
  appendInstructions(delegationId: string | null, content: string): string {
    return this.send(clientEvents.instructionsAppend(delegationId, content));
  }
  /** Silent progress for a client delegation. */
  appendThinking(delegationId: string | null, content: string): string {
    return this.send(clientEvents.thinkingAppend(delegationId, content));
  }
  /** A speakable result for a client delegation. The `.appended` ack places it on the timeline; it is not proof it was spoken. */
  appendCommentary(delegationId: string | null, content: string): string {
    return this.send(clientEvents.commentaryAppend(delegationId, content));
  }
  /** One `function_call_output` per call (Responses delegation). */
  createItem(item: FunctionCallOutputItem): string {
    return this.send({ type: "response.item.create", item });
  }
  /** Continue the backend after every call of its response has an output. */
  createResponse(): string {
    return this.send(clientEvents.responseCreate());
  }
  /** Change delegation settings (never the delegation type). */
  update(delegation: DelegationConfig): string {
    return this.send(clientEvents.sessionUpdate(delegation));
  }
  mute(): string {
    return this.send(clientEvents.inputAudioMute());
  }
  unmute(): string {
    return this.send(clientEvents.inputAudioUnmute());
  }

  // ---- internals --------------------------------------------------------------------------------

  private nextEventId(): string {
    return `evt_${++this.eventCounter}`;
  }

  private notOpen(type: string): LiveStateError {
    const why = this._closedEvent ? ` (the service sent session.closed, reason ${this._closedEvent.reason})` : "";
    return new LiveStateError(`cannot send ${type}: the GPT-Live session is ${this._state}${why}`);
  }

  /** Write one event now. False when the socket is no longer open (the close is on its way). */
  private transmit(event: ClientEvent, text = JSON.stringify(event)): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    this.wire?.sending(frameKey(text));
    this.cork?.beforeWrite();
    // Caller audio (every 20 ms) is ASCII throughout (base64 and our own event ids), so it goes as
    // latin1-encoded bytes in a text frame: ws then skips a UTF-8 length scan and encode per frame.
    // Other events may carry any text and go as strings.
    socket.send(event.type === "session.input_audio.append" ? Buffer.from(text, "latin1") : text, { binary: false });
    this.emitRaw({ direction: "sent", at_ms: this.clock.now(), text, json: event });
    return true;
  }

  private receive(data: Buffer, isBinary: boolean): void {
    const decoded = isBinary ? undefined : data.toString("utf8");
    const release = this.wire?.received(frameKey(decoded ?? data)) ?? this.clock.hold();
    try {
      const at_ms = this.clock.now();
      if (isBinary) {
        this.emitRaw({ direction: "received", at_ms, binary_bytes: data.byteLength });
        this.protocolError(new LiveProtocolError("binary_frame", `received a ${data.byteLength}-byte binary frame; the Live protocol sends JSON text only`), at_ms);
        return;
      }
      const text = decoded!;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        this.emitRaw({ direction: "received", at_ms, text });
        this.protocolError(new LiveProtocolError("malformed_json", `received a text frame that is not JSON: ${text.slice(0, 120)}`, { excerpt: text.slice(0, 200) }), at_ms);
        return;
      }
      this.emitRaw({ direction: "received", at_ms, text, json });
      // Audio and transcript deltas (every 20 ms) take the hand-checked path; whatever it does not accept
      // goes to the strict one, which refuses it exactly as before (hot-events.ts).
      const hot = isRecord(json) ? readHotServerEvent(json) : undefined;
      if (hot) {
        this.emit({ kind: "event", event: hot.event, at_ms, audio: hot.audio });
        return;
      }
      let parsed;
      try {
        parsed = parseServerEvent(json);
      } catch (error) {
        if (!(error instanceof LiveProtocolError)) throw error;
        this.protocolError(error, at_ms);
        return;
      }
      if (!parsed.known) {
        this.emit({ kind: "unknown_event", type: parsed.type, inner_type: parsed.innerType, raw: parsed.raw, at_ms });
        return;
      }
      this.handleEvent(parsed.event, at_ms);
    } finally {
      release();
    }
  }

  private handleEvent(event: ServerEvent, at_ms: number): void {
    let audio: Uint8Array | undefined;
    switch (event.type) {
      case "session.started":
        if (this._state === "starting") {
          this._session = event.session;
          this.everActive = true;
          this.setState("active");
          // Queued sends go out first, in order, before listeners can add more.
          for (const queued of this.queue.splice(0)) this.transmit(queued);
          this.emit({ kind: "event", event, at_ms });
          this.startTimer.abort();
          this.settleStart(() => this.started.resolve(event));
          return;
        }
        break;
      case "session.updated":
        this._session = event.session;
        break;
      case "session.usage.updated":
        this._usageSeconds = event.usage.seconds;
        break;
      case "session.closed":
        this._closedEvent = event;
        if (event.usage) this._usageSeconds = event.usage.seconds;
        if (this._state === "active" || this._state === "starting") this.setState("closing");
        this.sessionClosed.resolve();
        break;
      case "error": {
        const code = event.error.code ?? "unknown_error";
        const fatal = FATAL_ERROR_CODES.includes(code);
        const error = new LiveServiceError(code, event.error.message, {
          type: event.error.type,
          param: event.error.param,
          clientEventId: event.error.client_event_id,
          fatal,
        });
        if (fatal) this._fatalError ??= error;
        if (this._state === "starting" || this._state === "connecting") {
          // A start error means no session.started will come.
          this.emit({ kind: "event", event, at_ms });
          this.failStart(error);
          this.setState("closing");
          this.closeSocket();
          return;
        }
        break;
      }
      case "session.output_audio.delta":
        audio = decodePcmBase64(event.delta);
        break;
    }
    this.emit({ kind: "event", event, at_ms, audio });
  }

  private onSocketClose(code: number, reason: string): void {
    const previous = this._state;
    const at_ms = this.clock.now();
    this._closeInfo = { code, reason };
    this.stopConnectingHold();
    this.startTimer.abort();
    this.removeAbortListener?.();
    const clean = this._closedEvent !== undefined;
    const described = `code ${code}, ${describeCloseCode(code)}${reason ? `, reason "${reason}"` : ""}`;
    if (!this.everActive) {
      if (!this.startFailure) {
        this.failStart(
          new LiveConnectionError("closed_before_started", `the GPT-Live socket closed before session.started (${described}); the session never began`, {
            closeCode: code,
            closeReason: reason,
          }),
        );
      }
    } else if (!clean && this.timedOutAfterMs === undefined) {
      this._connectionError ??= new LiveConnectionError(
        "connection_lost",
        `the GPT-Live socket closed without session.closed (${described}); the session did not finalize`,
        { closeCode: code, closeReason: reason },
      );
    }
    this.setState("closed");
    this.emit({ kind: "socket_closed", code, reason, clean, error: clean ? undefined : this._connectionError, at_ms });
    this.socketClosed.resolve();
    // The peer's frames can no longer arrive: stop them holding virtual time.
    this.wire?.dispose();
  }

  /** After session.closed the service closes the socket; wait briefly (holding virtual time), then drop it. */
  private async awaitServiceClose(): Promise<void> {
    const release = this.clock.hold("awaiting live socket close");
    let timer: NodeJS.Timeout | undefined;
    try {
      const graceOver = new Promise<"grace">((resolve) => (timer = setTimeout(() => resolve("grace"), SOCKET_CLOSE_GRACE_MS)));
      if ((await Promise.race([this.socketClosed.promise, graceOver])) === "grace") {
        this.dropSocket();
        await this.socketClosed.promise;
      }
    } finally {
      clearTimeout(timer);
      release();
    }
  }

  private closeResult(): LiveCloseResult {
    const usage_seconds = this._usageSeconds;
    if (this._closedEvent) return { outcome: "closed", reason: this._closedEvent.reason, usage_seconds, event: this._closedEvent };
    if (this.timedOutAfterMs !== undefined) return { outcome: "timeout", waited_ms: this.timedOutAfterMs, usage_seconds };
    return {
      outcome: "closed_without_session_closed",
      close_code: this._closeInfo?.code,
      close_reason: this._closeInfo?.reason,
      error: this._fatalError ?? this._connectionError ?? this.startFailure,
      usage_seconds,
    };
  }

  private abort(reason: unknown): void {
    if (this._state === "closed") return;
    const error = new LiveConnectionError("aborted", "the GPT-Live connection was aborted", { cause: reason });
    this._connectionError ??= error;
    this.failStart(error);
    this.dropSocket();
  }

  private dropSocket(): void {
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    if (socket.readyState === WebSocket.OPEN) this.wire?.sending(CLOSE_FRAME_KEY);
    this.cork?.flush();
    socket.terminate();
  }

  /** Close politely (a close frame), counting the close as a frame in flight for virtual time. */
  private closeSocket(): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    this.wire?.sending(CLOSE_FRAME_KEY);
    this.cork?.beforeWrite();
    socket.close(1000);
  }

  private stopConnectingHold(): void {
    this.releaseConnecting?.();
    this.releaseConnecting = undefined;
  }

  private failStart(error: LiveConnectionError | LiveServiceError): void {
    this.settleStart(() => {
      this.startFailure = error;
      if (error instanceof LiveConnectionError) this._connectionError ??= error;
      this.stopConnectingHold();
      this.startTimer.abort();
      this.started.reject(error);
    });
  }

  private settleStart(settle: () => void): void {
    if (this.startSettled) return;
    this.startSettled = true;
    settle();
  }

  private setState(state: LiveClientState): void {
    const previous = this._state;
    if (previous === state) return;
    this._state = state;
    this.emit({ kind: "state", state, previous, at_ms: this.clock.now() });
  }

  private protocolError(error: LiveProtocolError, at_ms: number): void {
    this.emit({ kind: "protocol_error", error, at_ms });
  }

  private emit(message: LiveMessage): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(message);
      } catch (error) {
        this.listenerFailed(error, message);
      }
    }
  }

  private emitRaw(frame: LiveRawFrame): void {
    for (const listener of [...this.rawListeners]) {
      try {
        listener(frame);
      } catch (error) {
        this.listenerFailed(error, frame);
      }
    }
  }

  private listenerFailed(error: unknown, delivered: LiveMessage | LiveRawFrame): void {
    if (this.options.onListenerError) this.options.onListenerError(error, delivered);
    else
      setImmediate(() => {
        throw error;
      });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `error.message` of a JSON error body, or the body itself. */
function serviceMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") return parsed.error.message;
  } catch {
    // not JSON: use the text
  }
  return body.trim() || "(empty body)";
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A start that fails before anyone awaits it must not become an unhandled rejection.
  promise.catch(() => {});
  return { promise, resolve, reject };
}
