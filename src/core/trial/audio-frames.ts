/** Per-chunk audio events counted rather than logged one by one, unless `--log-audio-events` asks for each. */

import { base64DecodedLength } from "../audio/pcm";
import type { AgentEvent } from "../target/types";
import type { Json } from "../world/types";

/**
 * The per-chunk audio of a session — the caller's `session.input_audio.append` every 20 ms, the
 * assistant's `session.output_audio.delta` and the `audio.delta` each becomes — is three quarters of a
 * trial's events, and one line per chunk says no more than a count does (the audio itself is in
 * conversation.wav; payloads are never logged). Unless `--log-audio-events` asks for every chunk, they are
 * counted here and logged once per kind as `audio.frames` when the trial's record is drawn.
 */
const WIRE_AUDIO = new Set(["session.input_audio.append", "session.output_audio.delta"]);

export interface AudioFrameSummary {
  /** The event counted: a wire event type, or the normalized `audio.delta`. */
  event: string;
  direction?: "sent" | "received";
  frames: number;
  /** Audio bytes the frames carried (base64 on the wire, counted decoded). */
  bytes: number;
  first_ms: number;
  last_ms: number;
}

export class AudioFrameTally {
  readonly #kinds = new Map<string, AudioFrameSummary>();

  /** True when `event` is a per-chunk audio event, now counted instead of logged on its own. */
  take(event: AgentEvent): boolean {
    if (event.type === "audio.delta") {
      this.#count("audio.delta", undefined, event.pcm.byteLength, event.at_ms);
      return true;
    }
    if (event.type !== "raw" || !event.event || typeof event.event !== "object" || Array.isArray(event.event)) return false;
    const wire = event.event as Record<string, Json>;
    if (typeof wire.type !== "string" || !WIRE_AUDIO.has(wire.type)) return false;
    const payload = wire.audio ?? wire.delta;
    this.#count(wire.type, event.direction, typeof payload === "string" ? base64DecodedLength(payload) : 0, event.at_ms);
    return true;
  }

  /** The summaries, in the order their kinds first appeared; the tally starts again empty. */
  drain(): AudioFrameSummary[] {
    const out = [...this.#kinds.values()];
    this.#kinds.clear();
    return out;
  }

  #count(event: string, direction: "sent" | "received" | undefined, bytes: number, at_ms: number): void {
    const key = `${direction ?? ""} ${event}`;
    const kind = this.#kinds.get(key);
    if (kind) {
      kind.frames++;
      kind.bytes += bytes;
      kind.last_ms = at_ms;
    } else this.#kinds.set(key, { event, ...(direction ? { direction } : {}), frames: 1, bytes, first_ms: at_ms, last_ms: at_ms });
  }
}
