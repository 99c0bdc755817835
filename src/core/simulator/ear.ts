/** The simulator's ear: what a session hears in the caller's audio, and when the caller's turn ends. */
import { base64DecodedLength, decodeBase64Into, pcm16FromBytes } from "../audio/pcm";
import { rms } from "../audio/speech";
import type { AssistantPolicy } from "../target/policy";
import { CHUNK_BYTES, CHUNK_MS, type HeardFragment, type Hearing, type RegisteredUtterance } from "./caller-speech";

/**
 * How a session hears its input audio. The shipped ear is `CallerListener` (caller-speech.ts), which
 * recognizes only audio the harness registered; a test may wrap it in an ear of its own (the server's
 * `ear` option), as the transcript bridge in test/ does.
 */
export interface Ear {
  /** Hear one full 20 ms chunk whose audio starts at `startMs` on the input timeline. */
  hear(chunk: Uint8Array, startMs: number): Hearing;
  /** An utterance is being heard right now. */
  readonly following: boolean;
  /** The assistant starts to say `text` (in the order it speaks): for an ear that learns the far side's words out of band. */
  said?(text: string): void;
}

/** The assistant's voice as turn-taking sees it: whether it is speaking, and how to make it stop. */
export interface Floor {
  readonly speaking: boolean;
  interrupt(): void;
}

export interface TurnEvents {
  /** Words heard, in order: the input transcript. */
  fragment(fragment: HeardFragment): void;
  /** The caller began an utterance the ear recognized. */
  recognized(utterance: RegisteredUtterance): void;
  /** The caller's turn ended: everything they said in it. */
  turn(request: string): void;
}

/**
 * Caller audio in, turns out. Appended audio is re-cut into 20 ms chunks (the ear recognizes chunk-aligned
 * audio) and heard one chunk at a time; a recognized utterance stops the assistant talking over the caller,
 * unless it is a backchannel or the policy talks through interruptions; and a turn ends after
 * `endOfTurnSilenceMs` of silence following a completed utterance.
 */
export class TurnDetector {
  /** Muted by the client: audio still counts, nothing is heard. */
  muted = false;
  /** Caller audio not yet heard (less than one chunk) sits at the front of buffer. */
  private buffer = new Uint8Array(4 * CHUNK_BYTES);
  private pendingBytes = 0;
  /** End of the audio decoded by the last append, behind what was pending. */
  private appendedEnd = 0;
  private heardChunks = 0;
  /** Recognized utterances of the caller's current turn, and the silence since its last voiced audio. */
  private heard: string[] = [];
  private silenceMs = 0;
  /** Registered utterances recognized as backchannels (said over the assistant's speech): not turns. */
  private readonly backchannels = new Set<number>();
  /** Utterances the caller began over the assistant's speech, which a policy that talks through never takes in. */
  private readonly talkedOver = new Set<number>();

  constructor(
    private readonly ear: Ear,
    private readonly endOfTurnSilenceMs: number,
    private readonly policy: Pick<AssistantPolicy, "yields_to_interruptions">,
    private readonly floor: () => Floor,
    private readonly events: TurnEvents,
  ) {}

  /** Whether any caller audio has been heard yet. */
  get heardAnything(): boolean {
    return this.heardChunks > 0;
  }

  /**
   * Decode one append behind the partial chunk left from the last, in one buffer kept for the session:
   * the bytes decoded, or -1 when the audio is not valid base64.
   */
  decode(base64: string): number {
    const carried = this.pendingBytes;
    const needed = carried + base64DecodedLength(base64);
    if (this.buffer.byteLength < needed) {
      const grown = new Uint8Array(Math.max(needed, 2 * this.buffer.byteLength));
      grown.set(this.buffer.subarray(0, carried));
      this.buffer = grown;
    }
    this.appendedEnd = needed;
    return decodeBase64Into(base64, this.buffer, carried);
  }

  /** Hear the decoded audio chunk by chunk while `listening()`; the ear reads each chunk in place and keeps none. */
  hearDecoded(listening: () => boolean): void {
    const needed = this.appendedEnd;
    const buffer = this.buffer;
    let at = 0;
    for (; at + CHUNK_BYTES <= needed && listening(); at += CHUNK_BYTES) {
      this.hearChunk(buffer.subarray(at, at + CHUNK_BYTES), this.heardChunks++ * CHUNK_MS);
    }
    // The remainder (less than a chunk, or all of it once the session stops listening) moves to the front.
    if (at > 0) buffer.copyWithin(0, at, needed);
    this.pendingBytes = needed - at;
  }

  private hearChunk(chunk: Uint8Array, startMs: number): void {
    if (this.muted) return;
    const hearing = this.ear.hear(chunk, startMs);
    for (const fragment of hearing.fragments) this.events.fragment(fragment);
    if (hearing.recognized) {
      this.events.recognized(hearing.recognized);
      // The caller took the floor: stop talking over them — unless it is only a backchannel ("mm-hmm"
      // while the assistant talks), which a listener makes without asking for the floor, or the policy
      // talks through interruptions (and so never takes in what was said over it).
      const floor = this.floor();
      if (floor.speaking && isBackchannel(hearing.recognized.text)) this.backchannels.add(hearing.recognized.id);
      else if (floor.speaking && this.policy.yields_to_interruptions === false) this.talkedOver.add(hearing.recognized.id);
      else floor.interrupt();
    }
    if (hearing.completed && (this.backchannels.delete(hearing.completed.utterance.id) || this.talkedOver.delete(hearing.completed.utterance.id))) {
      // Heard, logged, and not a turn: the assistant carries on.
    } else if (hearing.completed) {
      this.heard.push(hearing.completed.utterance.text);
      const { utterance } = hearing.completed;
      this.silenceMs = utterance.duration_ms - utterance.voiced_end_ms;
    } else if (this.heard.length > 0) {
      const voiced = rms(pcm16FromBytes(chunk)) >= 220;
      this.silenceMs = voiced ? 0 : this.silenceMs + CHUNK_MS;
    }
    if (this.heard.length > 0 && this.silenceMs >= this.endOfTurnSilenceMs) {
      const request = this.heard.join(" ");
      this.heard = [];
      this.events.turn(request);
    }
  }
}

/** Short listener words that do not ask for the floor (a backchannel), as a listener on a call would treat them. */
const BACKCHANNELS = new Set(["mm-hmm", "mhm", "mm", "uh-huh", "right", "okay", "ok", "yeah", "yes", "sure", "i see", "got it", "alright", "all right"]);
export function isBackchannel(text: string): boolean {
  return BACKCHANNELS.has(text.toLowerCase().replace(/[^a-z' -]/g, "").trim());
}
