/** The simulator's ear: what a session hears in the caller's audio, one 20 ms chunk at a time. */
import type { Hearing } from "./caller-speech";

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
