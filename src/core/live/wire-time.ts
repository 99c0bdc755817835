/**
 * Virtual time across a socket, when both ends (the Live client and the local simulator) run in one
 * process on one VirtualClock.
 *
 * The rule: **a frame holds the clock from the moment it is sent until the receiver has handled it.**
 * The sender takes a hold just before writing the frame; the receiver takes it over when the frame
 * arrives and releases it once its (synchronous) handler has returned. A handler that continues with
 * work the clock cannot see (speech synthesis, a tool run) takes its own hold before returning. Closing
 * the socket counts as a frame: the hold ends when the other side sees the close. So virtual time never
 * jumps while a frame is on the wire, and each frame is handled at the virtual instant it was sent,
 * which makes a two-party run reproducible.
 *
 * Pairing: each end registers under its (local, remote) address pair on the clock; the peer is the end
 * registered under the swapped pair. A sender takes a hold only when its peer is registered on the same
 * clock, so a socket to a real server (or to a party on another clock) never freezes virtual time.
 * With a RealClock every method is a no-op.
 */
import type { Clock } from "../time/clock";

/** The address fields of a net.Socket. */
export interface SocketAddresses {
  localAddress?: string;
  localPort?: number;
  remoteAddress?: string;
  remotePort?: number;
}

interface InFlight {
  key: string;
  release: () => void;
}

const registries = new WeakMap<Clock, Map<string, WireEnd>>();

/** Key of the close "frame": a socket closing is observed by the peer like a frame arriving. */
export const CLOSE_FRAME_KEY = "\u0000close";

/** Key under which a frame is matched on both ends. */
export function frameKey(data: string | Uint8Array): string {
  return typeof data === "string" ? data : `\u0000binary:${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64")}`;
}

export class WireEnd {
  /** Frames this end sent that the peer has not handled yet, in send order. */
  private readonly inFlight: InFlight[] = [];
  private readonly id: string;
  private readonly peerId: string;
  private disposed = false;
  private readonly active: boolean;

  constructor(
    private readonly clock: Clock,
    socket: SocketAddresses,
  ) {
    const local = endpoint(socket.localAddress, socket.localPort);
    const remote = endpoint(socket.remoteAddress, socket.remotePort);
    this.id = `${local}>${remote}`;
    this.peerId = `${remote}>${local}`;
    this.active = clock.virtual && local !== undefined && remote !== undefined;
    if (this.active) registry(clock).set(this.id, this);
  }

  /** Call just before writing a frame (or initiating a close, with CLOSE_FRAME_KEY). */
  sending(key: string): void {
    if (!this.active || this.disposed) return;
    const peer = this.peer();
    if (!peer || peer.disposed) return;
    this.inFlight.push({ key, release: this.clock.hold("live frame in flight") });
  }

  /** Call when a frame arrives; call the returned function once the frame has been handled. */
  received(key: string): () => void {
    const handling = this.clock.hold("handling live frame");
    let carried: (() => void) | undefined;
    const peer = this.active ? this.peer() : undefined;
    if (peer) {
      // Frames arrive in send order, so this is the head; searching tolerates a frame sent before pairing.
      const at = peer.inFlight.findIndex((frame) => frame.key === key);
      if (at >= 0) carried = peer.inFlight.splice(at, 1)[0]!.release;
    }
    return () => {
      handling();
      carried?.();
    };
  }

  /** Call when the socket has closed: nothing more can arrive here, so the peer's frames stop holding. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (!this.active) return;
    const map = registry(this.clock);
    const peer = this.peer();
    if (peer) releaseAll(peer.inFlight);
    if (!peer || peer.disposed) {
      // Nobody is left to take our frames.
      releaseAll(this.inFlight);
      map.delete(this.id);
      if (peer) map.delete(this.peerId);
    }
  }

  private peer(): WireEnd | undefined {
    return registries.get(this.clock)?.get(this.peerId);
  }
}

function releaseAll(frames: InFlight[]): void {
  for (const frame of frames.splice(0)) frame.release();
}

function registry(clock: Clock): Map<string, WireEnd> {
  let map = registries.get(clock);
  if (!map) registries.set(clock, (map = new Map()));
  return map;
}

function endpoint(address: string | undefined, port: number | undefined): string | undefined {
  if (!address || port === undefined) return undefined;
  // A dual-stack listener sees IPv4 peers as IPv4-mapped IPv6 addresses.
  return `${address.replace(/^::ffff:/, "")}:${port}`;
}
