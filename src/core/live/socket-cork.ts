/**
 * Frames sent in one turn of the event loop leave in one kernel write. Offline, every 20 ms instant of
 * a trial sends a caller chunk one way and audio, transcript and usage events the other; `ws` writes
 * each frame (header and payload) as its own `writev`, which made socket writes the largest single cost
 * of the wire. The first send of a turn corks the socket; it is uncorked once that turn's synchronous
 * work and promise continuations have run (process.nextTick runs after the microtasks that queued it),
 * so everything an instant sends goes out together. Nothing waits on a timer: in real time the frames
 * leave within the same turn as before.
 */
import type { Socket } from "node:net";

/** The options that keep loopback frames cheap: no per-message compression on either end. */
export const NO_COMPRESSION = { perMessageDeflate: false } as const;

export class SocketCork {
  private corked = false;

  constructor(private readonly socket: Pick<Socket, "cork" | "uncork" | "destroyed"> | undefined) {}

  /** Call before each send. */
  beforeWrite(): void {
    const socket = this.socket;
    if (this.corked || !socket || socket.destroyed) return;
    this.corked = true;
    socket.cork();
    process.nextTick(this.flush);
  }

  /** Write what is corked now; call before destroying the socket, which would discard it. */
  readonly flush = (): void => {
    if (!this.corked) return;
    this.corked = false;
    this.socket!.uncork();
  };
}
