/**
 * The events that cross the wire every 20 ms — the caller's `session.input_audio.append`, the
 * assistant's `session.output_audio.delta` and the two transcript deltas — read without building zod
 * objects per chunk. Each reader checks by hand exactly what the strict schema in protocol.ts checks
 * for that event and accepts only what it would accept; anything else returns undefined, and the caller
 * hands the frame to the strict path, which refuses it with the same error as ever. So the fast path
 * can only ever say "valid", never invent a new refusal.
 *
 * Base64 is checked once, while it is decoded (decodeBase64Into), instead of by a regex in the schema
 * and again in the decoder.
 */
import { base64DecodedLength, decodeBase64Into } from "../audio/pcm";
import type { ClientEventOf, ServerEventOf } from "./protocol";

export type HotServerEvent =
  | { event: ServerEventOf<"session.output_audio.delta">; audio: Uint8Array }
  | { event: ServerEventOf<"session.input_transcript.delta"> | ServerEventOf<"session.output_transcript.delta">; audio?: undefined };

export const HOT_CLIENT_EVENT_TYPE = "session.input_audio.append";

/**
 * A hot server event, shape-checked (loose, as the schema is: servers may add fields) and, for audio,
 * decoded into a fresh buffer the listener may keep. Undefined when the event is not hot or not valid.
 */
export function readHotServerEvent(json: Record<string, unknown>): HotServerEvent | undefined {
  const { type } = json;
  if (type === "session.output_audio.delta") {
    if (!optionalString(json.event_id) || typeof json.delta !== "string") return undefined;
    const bytes = base64DecodedLength(json.delta);
    // Whole 2-byte samples, as the schema's second refinement demands.
    if (bytes % 2 !== 0) return undefined;
    const audio = new Uint8Array(bytes);
    if (decodeBase64Into(json.delta, audio, 0) < 0) return undefined;
    return { event: json as ServerEventOf<"session.output_audio.delta">, audio };
  }
  if (type === "session.input_transcript.delta" || type === "session.output_transcript.delta") {
    if (!optionalString(json.event_id) || typeof json.delta !== "string" || !optionalNumber(json.start_ms) || !optionalNumber(json.end_ms)) return undefined;
    return { event: json as ServerEventOf<"session.input_transcript.delta" | "session.output_transcript.delta"> };
  }
  return undefined;
}

/**
 * A `session.input_audio.append` that the strict schema would accept: only `type`, `audio` (a string)
 * and an optional non-empty `event_id`. Its base64 is checked where it is decoded (the simulator's
 * onAudio), as before.
 */
export function readHotClientEvent(json: Record<string, unknown>): ClientEventOf<"session.input_audio.append"> | undefined {
  if (json.type !== HOT_CLIENT_EVENT_TYPE || typeof json.audio !== "string") return undefined;
  for (const key in json) {
    if (key === "type" || key === "audio") continue;
    if (key === "event_id" && typeof json.event_id === "string" && json.event_id.length > 0) continue;
    return undefined;
  }
  return json as ClientEventOf<"session.input_audio.append">;
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

/** zod's z.number() refuses the infinities (JSON reads `1e400` as Infinity). */
function optionalNumber(value: unknown): boolean {
  return value === undefined || (typeof value === "number" && Number.isFinite(value));
}
