/**
 * Two local simulators hearing each other (RUN's live caller tested on loopback): a test facility that
 * plugs into the simulator as its `ear` option.
 *
 * ┌──────────────────────────────────────────────────────────────────────────────────────────────┐
 * │ NOT SPEECH UNDERSTANDING. Words cross the bridge out of band, never through the audio.        │
 * │ Audio relayed between two live sessions is neither registered nor chunk-aligned, so the       │
 * │ fingerprint ear of caller-speech.ts cannot follow it. With a bridge, each simulator's voice   │
 * │ tells the bridge every text it starts to say; the other simulator, hearing a stretch of       │
 * │ voiced audio that matches nothing registered, takes the next text waiting for it, in order.   │
 * │ What it proves: the audio really flowed (no audio, nothing heard) and in which order. What it │
 * │ cannot: that anything in the audio carried those words.                                       │
 * └──────────────────────────────────────────────────────────────────────────────────────────────┘
 *
 * A stretch is voiced 20 ms chunks separated by less than `gapMs` of silence, so it assumes each text
 * is spoken without an inner pause that long (true of the tone voices the tests use; espeak-ng pauses
 * between sentences) and that consecutive texts are further apart (the simulator's voices leave at
 * least the synthesizer's lead and tail silence between them). A text cut short by barge-in is still
 * heard whole. Without a bridge the simulator behaves as it ships: unregistered audio is unintelligible.
 */
import { pcm16FromBytes } from "../src/core/audio/pcm";
import { rms } from "../src/core/audio/speech";
import { CHUNK_MS, type Hearing, type RegisteredUtterance } from "../src/core/simulator/caller-speech";
import type { Ear } from "../src/core/simulator/ear";

/** One simulator's end of a bridge. */
export interface TranscriptBridgeEnd {
  /** This simulator's voice starts to say `text` (called in the order it speaks). */
  said(text: string): void;
  /** What a new voiced stretch of unregistered input audio says: the other side's next text, or null (nothing waiting: unintelligible). */
  heard(): string | null;
}

/** Two connected ends: what one end says, the other hears, first in first out. Also records both directions for assertions. */
export function transcriptBridge(): { a: TranscriptBridgeEnd; b: TranscriptBridgeEnd; log: { from: "a" | "b"; text: string }[] } {
  const toA: string[] = [];
  const toB: string[] = [];
  const log: { from: "a" | "b"; text: string }[] = [];
  return {
    a: { said: (text) => (toB.push(text), log.push({ from: "a", text })), heard: () => toA.shift() ?? null },
    b: { said: (text) => (toA.push(text), log.push({ from: "b", text })), heard: () => toB.shift() ?? null },
    log,
  };
}

/** RMS of a 20 ms chunk at or above this is voiced (the threshold the simulator's turn detection uses). */
const VOICED_RMS = 220;

/**
 * A session's ear for unregistered voiced audio when a bridge is set: it segments the input into voiced
 * stretches and reports each as a recognized utterance (at its first voiced chunk, so barge-in works as
 * for registered audio) and a completed one (once `gapMs` of silence follows), with the bridged words.
 */
class BridgedEar {
  private current: { utterance: RegisteredUtterance | null; start_ms: number; voiced_end_ms: number } | undefined;
  private nextId = -1;

  constructor(
    private readonly bridge: TranscriptBridgeEnd,
    private readonly gapMs = 120,
  ) {}

  /** Whether a stretch is being followed (the registered ear should not start one meanwhile). */
  get following(): boolean {
    return this.current !== undefined;
  }

  hear(chunk: Uint8Array, startMs: number): Hearing {
    const voiced = rms(pcm16FromBytes(chunk)) >= VOICED_RMS;
    if (!this.current) {
      if (!voiced) return { fragments: [] };
      const text = this.bridge.heard();
      // Negative ids never collide with the registry's.
      const utterance: RegisteredUtterance | null =
        text === null ? null : { id: this.nextId--, text, hashes: [], words: [], duration_ms: 0, first_voiced_chunk: 0, voiced_end_ms: 0 };
      this.current = { utterance, start_ms: startMs, voiced_end_ms: startMs + CHUNK_MS };
      return utterance ? { fragments: [], recognized: utterance } : { fragments: [] };
    }
    if (voiced) {
      this.current.voiced_end_ms = startMs + CHUNK_MS;
      return { fragments: [] };
    }
    if (startMs + CHUNK_MS - this.current.voiced_end_ms < this.gapMs) return { fragments: [] };
    const { utterance, start_ms, voiced_end_ms } = this.current;
    this.current = undefined;
    if (!utterance) return { fragments: [] };
    utterance.duration_ms = startMs + CHUNK_MS - start_ms;
    utterance.voiced_end_ms = voiced_end_ms - start_ms;
    return { fragments: [{ text: utterance.text, start_ms, end_ms: voiced_end_ms }], completed: { utterance, start_ms } };
  }
}

/**
 * A simulator's `ear` option for one end of a bridge: each session hears with the registered ear first,
 * and only audio that ear is not following goes to a bridged ear of its own; what the session's voice
 * starts to say crosses the bridge.
 */
export function bridgedEar(end: TranscriptBridgeEnd): (registered: Ear) => Ear {
  return (registered) => {
    const bridged = new BridgedEar(end);
    return {
      hear(chunk, startMs) {
        const hearing = registered.hear(chunk, startMs);
        if (hearing.recognized || hearing.completed || hearing.fragments.length > 0 || registered.following) return hearing;
        return bridged.hear(chunk, startMs);
      },
      get following() {
        return registered.following || bridged.following;
      },
      said: (text) => end.said(text),
    };
  };
}
