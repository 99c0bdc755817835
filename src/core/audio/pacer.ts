/**
 * Real-time pacing of one audio stream (docs/audio-and-metrics.md). Chunk i is due at start + i × chunkMs on the stream's
 * clock; each chunk waits for its deadline. A chunk that is already late goes out at once but the
 * stream does not burst to catch up: the lag is reported as an `audio.pacing_lag` observation, the
 * cadence restarts from now, and the lag is counted. With a VirtualClock every deadline is met exactly
 * and nothing waits on the wall clock.
 */
import type { Clock } from "../time/clock";
import { silenceChunk } from "./chunker";

/** `audio.pacing_lag`: the harness records it in the trial's event log (docs/audio-and-metrics.md). */
export interface PacingLag {
  type: "audio.pacing_lag";
  /** Timeline time at which the late chunk was sent. */
  at_ms: number;
  lag_ms: number;
  chunk_ms: number;
  stream: string;
}

export interface PacerStats {
  chunks: number;
  lag_events: number;
  max_lag_ms: number;
  total_lag_ms: number;
}

/** When a chunk was meant to go and when it went, on the stream's timeline. */
export interface ChunkTiming {
  /** Position of the chunk in the stream, counting caller audio and silence alike. */
  index: number;
  /** The deadline the chunk had; a late chunk keeps its missed deadline here. */
  due_ms: number;
  sent_ms: number;
  silence: boolean;
}

export type SendChunk = (chunk: Uint8Array, timing: ChunkTiming) => void | Promise<void>;

export interface AudioPacerOptions {
  clock: Clock;
  /** Default 20 ms. */
  chunkMs?: number;
  /** Names the stream in lag observations, e.g. "caller". */
  stream?: string;
  onLag?: (lag: PacingLag) => void;
  /** Aborting stops the stream: the pending `play`/`streamSilenceUntil` rejects with the abort reason. */
  signal?: AbortSignal;
}

export class AudioPacer {
  readonly chunkMs: number;
  readonly stream: string;
  private readonly clock: Clock;
  private readonly onLag?: (lag: PacingLag) => void;
  private readonly signal?: AbortSignal;
  /** Deadline of the next chunk; unset until the first chunk, which is due at once. */
  private nextDueMs: number | undefined;
  private sent = 0;
  private lagEvents = 0;
  private maxLagMs = 0;
  private totalLagMs = 0;
  private busy = false;

  constructor(options: AudioPacerOptions) {
    const { clock, chunkMs = 20, stream = "caller", onLag, signal } = options;
    if (!(chunkMs > 0)) throw new RangeError(`chunkMs must be positive, got ${chunkMs}`);
    this.clock = clock;
    this.chunkMs = chunkMs;
    this.stream = stream;
    this.onLag = onLag;
    this.signal = signal;
  }

  /** Send every chunk on its deadline. Further calls continue the same cadence. */
  async play(chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>, send: SendChunk): Promise<void> {
    this.enter();
    try {
      for await (const chunk of chunks) {
        this.signal?.throwIfAborted();
        const due = await this.awaitDeadline(this.signal);
        await this.dispatch(chunk, send, due, false);
      }
    } finally {
      this.busy = false;
    }
  }

  /**
   * Keep the microphone open (docs/audio-and-metrics.md): send silence at the same cadence until `stop` aborts. Resolves
   * without sending another chunk once stopped; a chunk already being sent is completed first.
   * `silence` defaults to one chunk of 24 kHz mono PCM16 zeros (the transport format).
   */
  async streamSilenceUntil(stop: AbortSignal, send: SendChunk, silence?: Uint8Array): Promise<void> {
    this.enter();
    const chunk = silence ?? silenceChunk({ chunkMs: this.chunkMs });
    const wake = this.signal ? AbortSignal.any([this.signal, stop]) : stop;
    try {
      while (!stop.aborted) {
        this.signal?.throwIfAborted();
        let due: Deadline;
        try {
          due = await this.awaitDeadline(wake);
        } catch (error) {
          if (stop.aborted && !this.signal?.aborted) return;
          throw error;
        }
        if (stop.aborted) return; // stopped at the very instant the deadline came
        await this.dispatch(chunk.slice(), send, due, true);
      }
    } finally {
      this.busy = false;
    }
  }

  stats(): PacerStats {
    return {
      chunks: this.sent,
      lag_events: this.lagEvents,
      max_lag_ms: this.maxLagMs,
      total_lag_ms: roundMs(this.totalLagMs),
    };
  }

  private enter(): void {
    if (this.busy) throw new Error(`audio stream "${this.stream}" is already being paced; await the running play/streamSilenceUntil first`);
    this.busy = true;
  }

  /** Wait for the next deadline, or, when it has already passed, record the lag and restart the cadence. */
  private async awaitDeadline(signal: AbortSignal | undefined): Promise<Deadline> {
    const now = this.clock.now();
    const due = this.nextDueMs ?? now;
    if (now > due) {
      const lag = roundMs(now - due);
      this.lagEvents++;
      this.totalLagMs += lag;
      this.maxLagMs = Math.max(this.maxLagMs, lag);
      this.onLag?.({ type: "audio.pacing_lag", at_ms: roundMs(now), lag_ms: lag, chunk_ms: this.chunkMs, stream: this.stream });
      return { due, cadence: now };
    }
    await this.clock.sleepUntil(due, signal);
    return { due, cadence: due };
  }

  private async dispatch(chunk: Uint8Array, send: SendChunk, deadline: Deadline, silence: boolean): Promise<void> {
    const timing: ChunkTiming = { index: this.sent, due_ms: deadline.due, sent_ms: this.clock.now(), silence };
    // The next deadline counts from the (possibly reset) cadence, not from when sending finished.
    this.nextDueMs = deadline.cadence + this.chunkMs;
    await send(chunk, timing);
    this.sent++;
  }
}

interface Deadline {
  /** The chunk's own deadline. */
  due: number;
  /** The instant the cadence continues from: the deadline, or now when the chunk was late. */
  cadence: number;
}

/** Lag values go into event logs: keep them to the microsecond so real-clock noise does not bloat them. */
function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
