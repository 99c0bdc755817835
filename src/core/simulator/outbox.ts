/** The sending end of a simulated session: frames out over its socket, each under the wire-hold rule. */
import type { Socket } from "node:net";
import WebSocket from "ws";
import type { ConfigIssue } from "../live/errors";
import type { ServerEventInput } from "../live/protocol";
import { SocketCork } from "../live/socket-cork";
import { CLOSE_FRAME_KEY, WireEnd, frameKey } from "../live/wire-time";
import type { Clock } from "../time/clock";

/**
 * Every frame the session sends goes through here, so each one is announced to the wire clock
 * (wire-time.ts) and corked with its neighbours; server event ids are numbered here too.
 */
export class Outbox {
  /** The session's end of the wire: it also holds the clock while a received frame is handled. */
  readonly wire: WireEnd;
  private readonly cork: SocketCork;
  private serverEvents = 0;

  constructor(
    private readonly ws: WebSocket,
    socket: Socket,
    clock: Clock,
    /** Codes of the `error` events sent are logged here. */
    private readonly errorsSent: string[],
    /** Whether the session still sends (not closed, not stalled by a fault). */
    private readonly sending: () => boolean,
  ) {
    this.wire = new WireEnd(clock, socket);
    this.cork = new SocketCork(socket);
  }

  nextEventId(): string {
    return `event_${++this.serverEvents}`;
  }

  /** Typed against the protocol's server-event schema, so the simulator cannot emit a malformed event by accident. */
  send(event: ServerEventInput): void {
    this.sendText(JSON.stringify(event));
  }

  sendText(text: string): void {
    if (!this.sending() || this.ws.readyState !== WebSocket.OPEN) return;
    this.wire.sending(frameKey(text));
    this.cork.beforeWrite();
    this.ws.send(text);
  }

  /** A binary frame, sent even by a session that has stopped sending (only a fault sends one). */
  sendBinary(bytes: Buffer): void {
    this.wire.sending(frameKey(bytes));
    this.cork.beforeWrite();
    this.ws.send(bytes);
  }

  error(code: string, message: string, options: { param?: string; clientEventId?: string; type?: string } = {}): void {
    this.errorsSent.push(code);
    this.send({
      type: "error",
      event_id: this.nextEventId(),
      error: {
        type: options.type ?? "invalid_request_error",
        code,
        message,
        param: options.param ?? null,
        client_event_id: options.clientEventId ?? null,
      },
    });
  }

  rejectIssues(type: string, issues: ConfigIssue[], clientEventId: string | undefined): void {
    const first = issues[0] ?? { path: "", code: "invalid_value", message: "invalid event" };
    const list = issues.map((i) => `${i.path || "(event)"}: ${i.message}`).join("; ");
    this.error(first.code, `${type} is invalid: ${list}`, { param: first.path || undefined, clientEventId });
  }

  /** A close frame, after whatever is corked. */
  close(code: number, reason: string): void {
    this.wire.sending(CLOSE_FRAME_KEY);
    this.cork.beforeWrite();
    this.ws.close(code, reason);
  }

  /** Hang up without a close frame, after flushing what is corked. */
  drop(): void {
    this.wire.sending(CLOSE_FRAME_KEY);
    this.cork.flush();
    this.ws.terminate();
  }
}
