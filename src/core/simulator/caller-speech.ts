/**
 * How the local simulator "hears" the caller.
 *
 * ┌──────────────────────────────────────────────────────────────────────────────────────────────┐
 * │ OFFLINE RUNS CHECK THE PIPELINE, NOT SPEECH UNDERSTANDING. No speech recognizer ships offline. │
 * │ The harness registers, for the exact caller audio it is about to send, the words it carries    │
 * │ (`registerCallerAudio(pcm, text)`); the simulator recognizes that audio by fingerprints of its │
 * │ 20 ms chunks and replays the registered words as input transcript fragments, in step with the  │
 * │ audio. Audio that matches nothing registered is unintelligible: no transcript, no response.    │
 * │ A passing offline run therefore says nothing about how well a real model understands speech.   │
 * └──────────────────────────────────────────────────────────────────────────────────────────────┘
 *
 * Fingerprints: a 53-bit hash of each 960-byte chunk (20 ms of 24 kHz PCM16), the final chunk
 * zero-padded as the harness pads it (docs/audio-and-metrics.md), so recognition relies on the harness sending registered audio
 * chunk-aligned. Every chunk of every session is fingerprinted, so the hash is a cheap one computed
 * in place (sha1 here was 3% of an offline run); nothing adversarial feeds it, and two distinct chunks
 * share a fingerprint with odds near 2^-53.
 */
import { createHash } from "node:crypto";
import { chunkPcm } from "../audio/chunker";
import { pcm16FromBytes } from "../audio/pcm";
import { speechIntervals } from "../audio/speech";

export const CHUNK_MS = 20;
export const CHUNK_BYTES = 960;

/** A word and where it sits inside its audio, in ms from the audio's start. */
export interface TimedWord {
  text: string;
  start_ms: number;
  end_ms: number;
}

/** Registered caller audio: its chunk fingerprints and its words spread over its voiced span. */
export interface RegisteredUtterance {
  id: number;
  text: string;
  hashes: number[];
  words: TimedWord[];
  duration_ms: number;
  /** Index of the first chunk with voiced audio (a 20 ms frame of RMS 220 or more); -1 when none. */
  first_voiced_chunk: number;
  /** End of the last voiced audio, ms from the start. */
  voiced_end_ms: number;
}

/** Two independent 32-bit multiply-xorshift hashes of the bytes (4 at a time), joined into one safe integer. */
export function chunkFingerprint(chunk: Uint8Array): number {
  const length = chunk.length;
  let a = 0x811c9dc5 ^ length;
  let b = 0x9e3779b9 ^ length;
  const whole = length & ~3;
  let i = 0;
  for (; i < whole; i += 4) {
    const word = chunk[i]! | (chunk[i + 1]! << 8) | (chunk[i + 2]! << 16) | (chunk[i + 3]! << 24);
    a = Math.imul(a ^ word, 0x01000193);
    a ^= a >>> 15;
    b = Math.imul(b + word, 0x85ebca6b);
    b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  }
  for (; i < length; i++) {
    a = Math.imul(a ^ chunk[i]!, 0x01000193);
    b = Math.imul(b + chunk[i]!, 0x85ebca6b);
  }
  return (mix32(a) >>> 0) * 2 ** 21 + (mix32(b) >>> 11);
}

/** murmur3's finalizer: every input bit reaches every output bit. */
function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * Words spread across [start, end] in proportion to their length (plus one for the gap after each), so
 * long words take longer. Shared by the simulator's caller transcript and its own speech transcript.
 */
export function spreadWords(text: string, startMs: number, endMs: number): TimedWord[] {
  const words = text.split(/\s+/).filter(Boolean);
  const weights = words.map((w) => w.length + 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const span = Math.max(0, endMs - startMs);
  let at = startMs;
  return words.map((text, i) => {
    const length = (span * weights[i]!) / total;
    const word = { text, start_ms: at, end_ms: at + length };
    at += length;
    return word;
  });
}

/** The voiced span of PCM16 samples (20 ms frames of RMS 220 or more), or the whole audio when nothing is voiced. */
export function voicedSpan(samples: Int16Array, sampleRate: number): { start_ms: number; end_ms: number; voiced: boolean } {
  const intervals = speechIntervals(samples, sampleRate);
  if (intervals.length === 0) return { start_ms: 0, end_ms: (samples.length * 1000) / sampleRate, voiced: false };
  return { start_ms: intervals[0]!.start_ms, end_ms: intervals.at(-1)!.end_ms, voiced: true };
}

/** Caller audio the harness announced, shared by every session of one simulator. */
export class CallerAudioRegistry {
  private readonly byFirstChunk = new Map<number, RegisteredUtterance[]>();
  private readonly byAudio = new Map<string, RegisteredUtterance>();
  private nextId = 1;

  /** Bind `text` to this exact audio (24 kHz mono PCM16 LE). Registering the same audio again replaces its text. */
  register(pcm: Uint8Array, text: string): RegisteredUtterance {
    if (pcm.byteLength === 0) throw new RangeError("registerCallerAudio: the caller audio is empty");
    if (pcm.byteLength % 2 !== 0) throw new RangeError(`registerCallerAudio: PCM16 audio must have an even byte length, got ${pcm.byteLength}`);
    const chunks = chunkPcm(pcm);
    const hashes = chunks.map(chunkFingerprint);
    // Once per registration, so the audio's identity can afford a cryptographic hash.
    const audioKey = createHash("sha1").update(pcm).digest("hex");
    const existing = this.byAudio.get(audioKey);
    if (existing) {
      existing.text = text;
      existing.words = this.timeWords(pcm, text);
      return existing;
    }
    const samples = pcm16FromBytes(pcm);
    const span = voicedSpan(samples, 24_000);
    const firstVoiced = span.voiced ? Math.floor(span.start_ms / CHUNK_MS) : -1;
    const utterance: RegisteredUtterance = {
      id: this.nextId++,
      text,
      hashes,
      words: spreadWords(text, span.start_ms, span.end_ms),
      duration_ms: chunks.length * CHUNK_MS,
      first_voiced_chunk: firstVoiced,
      voiced_end_ms: span.end_ms,
    };
    this.byAudio.set(audioKey, utterance);
    const list = this.byFirstChunk.get(hashes[0]!) ?? [];
    list.push(utterance);
    this.byFirstChunk.set(hashes[0]!, list);
    return utterance;
  }

  startingWith(hash: number): readonly RegisteredUtterance[] {
    return this.byFirstChunk.get(hash) ?? [];
  }

  get size(): number {
    return this.byAudio.size;
  }

  private timeWords(pcm: Uint8Array, text: string): TimedWord[] {
    const span = voicedSpan(pcm16FromBytes(pcm), 24_000);
    return spreadWords(text, span.start_ms, span.end_ms);
  }
}

/** A transcript fragment on the session's input-audio timeline. */
export interface HeardFragment {
  text: string;
  start_ms: number;
  end_ms: number;
}

export interface Hearing {
  fragments: HeardFragment[];
  /** Set on the chunk where an utterance became unambiguous: the caller has started speaking. */
  recognized?: RegisteredUtterance;
  /** Set on the chunk that completed a recognized utterance. */
  completed?: { utterance: RegisteredUtterance; start_ms: number };
}

interface Candidate {
  utterance: RegisteredUtterance;
  /** Index of the next chunk expected. */
  next: number;
  /** Input-timeline position of the utterance's first chunk. */
  start_ms: number;
}

/**
 * One session's ear: fed the input audio chunk by chunk, it follows every registered utterance the audio
 * could be, and once exactly one remains (past its first voiced chunk) it emits that utterance's words
 * in fragments of about `fragmentMs` as the audio reaches them.
 */
export class CallerListener {
  private candidates: Candidate[] = [];
  private confirmed: Candidate | undefined;
  private emittedWords = 0;
  private nextBoundaryMs = 0;

  constructor(
    private readonly registry: CallerAudioRegistry,
    private readonly fragmentMs = 200,
  ) {}

  /** A registered utterance is being heard right now. */
  get following(): boolean {
    return this.confirmed !== undefined;
  }

  /** Feed one full 20 ms chunk whose audio starts at `startMs` on the input timeline. */
  hear(chunk: Uint8Array, startMs: number): Hearing {
    const hash = chunkFingerprint(chunk);
    const hearing: Hearing = { fragments: [] };

    const survivors: Candidate[] = [];
    for (const candidate of this.candidates) {
      if (candidate.utterance.hashes[candidate.next] === hash) {
        candidate.next++;
        survivors.push(candidate);
      }
    }
    for (const utterance of this.registry.startingWith(hash)) survivors.push({ utterance, next: 1, start_ms: startMs });

    if (this.confirmed && !survivors.includes(this.confirmed)) {
      // The audio left the registered utterance: whatever follows is unintelligible.
      this.confirmed = undefined;
    }
    const finished = survivors.filter((c) => c.next === c.utterance.hashes.length);
    this.candidates = survivors.filter((c) => c.next < c.utterance.hashes.length);

    if (!this.confirmed) {
      const distinct = new Set(survivors.map((c) => c.utterance));
      if (distinct.size === 1) {
        const best = survivors.reduce((a, b) => (b.next > a.next ? b : a));
        if (best.utterance.first_voiced_chunk >= 0 && best.next > best.utterance.first_voiced_chunk) {
          this.confirmed = best;
          this.emittedWords = 0;
          this.nextBoundaryMs = this.fragmentMs;
          hearing.recognized = best.utterance;
        }
      }
    }

    const current = this.confirmed;
    if (current) {
      const done = finished.includes(current);
      hearing.fragments = this.fragmentsUpTo(current, done ? Number.POSITIVE_INFINITY : current.next * CHUNK_MS);
      if (done) {
        hearing.completed = { utterance: current.utterance, start_ms: current.start_ms };
        this.confirmed = undefined;
      }
    }
    return hearing;
  }

  /** Fragments of the words that end by `progressMs`, cut at ~fragmentMs boundaries (a catch-up gives several). */
  private fragmentsUpTo(candidate: Candidate, progressMs: number): HeardFragment[] {
    const words = candidate.utterance.words;
    const fragments: HeardFragment[] = [];
    const take = (limitMs: number) => {
      let end = this.emittedWords;
      while (end < words.length && words[end]!.end_ms <= limitMs + 1e-6) end++;
      if (end > this.emittedWords) {
        const group = words.slice(this.emittedWords, end);
        fragments.push({
          text: group.map((w) => w.text).join(" "),
          start_ms: candidate.start_ms + group[0]!.start_ms,
          end_ms: candidate.start_ms + group.at(-1)!.end_ms,
        });
        this.emittedWords = end;
      }
    };
    const finalProgress = Math.min(progressMs, candidate.utterance.duration_ms);
    while (this.nextBoundaryMs <= finalProgress) {
      take(this.nextBoundaryMs);
      this.nextBoundaryMs += this.fragmentMs;
    }
    if (progressMs === Number.POSITIVE_INFINITY) take(Number.POSITIVE_INFINITY);
    return fragments;
  }
}
