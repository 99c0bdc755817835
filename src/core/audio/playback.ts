/**
 * Untimestamped audio as it plays to the other side in RUN (the assistant to the caller, a live caller
 * to the assistant). GPT-Live audio has no timestamps and arrives in bursts, so playback keeps a reserve: after silence, playback starts once `reserveMs` of audio is
 * buffered or once the first of it has waited `reserveMs`, whichever comes first (each wait is capped);
 * then it plays one 20 ms frame per tick, zero-filling when the buffer runs dry. What plays is the
 * assistant channel of conversation.wav and of the metrics: reported latency is on this buffered
 * playback timeline, as a caller would hear it, not a model-only figure.
 */
import { pcm16FromBytes } from "./pcm";

/** A stretch of assistant audio placed on the timeline (ms), and where its samples sit in the track. */
export interface PlacedAudioSpan {
  start_ms: number;
  end_ms: number;
  sample_offset: number;
  sample_count: number;
}

export interface PlacedAssistantAudio {
  spans: PlacedAudioSpan[];
  /** The assistant channel from timeline 0, gaps zero-filled. */
  track: Int16Array;
}

export interface PlaybackStats {
  /** Frames played since the relay started (each 20 ms). */
  frames: number;
  /** Frames that ran dry part-way while audio was playing (zero-filled). */
  underflow_frames: number;
  /** Times playback ran out of audio and went back to building its reserve. */
  dry_spells: number;
  /** Largest buffered audio seen, in ms. */
  max_buffered_ms: number;
  /** Total time spent waiting to build the reserve, in ms. */
  reserve_wait_ms: number;
}

const RATE = 24_000;

export class PlaybackBuffer {
  private readonly queue: Int16Array[] = [];
  private offset = 0;
  private buffered = 0;
  private received = 0;
  private playing = false;
  /** When the oldest unplayed audio arrived while not playing (the reserve wait's start). */
  private waitingSince: number | null = null;
  private readonly played: Int16Array[] = [];
  private readonly spans: PlacedAudioSpan[] = [];
  private readonly stats_: PlaybackStats = { frames: 0, underflow_frames: 0, dry_spells: 0, max_buffered_ms: 0, reserve_wait_ms: 0 };

  constructor(
    private readonly originMs: number,
    private readonly frameSamples = 480,
    private readonly reserveMs = 400,
  ) {}

  /** Audio received at `at_ms` (PCM16 bytes). */
  add(at_ms: number, pcm: Uint8Array): void {
    const samples = pcm16FromBytes(pcm.length % 2 ? pcm.subarray(0, pcm.length - 1) : pcm);
    if (samples.length === 0) return;
    this.queue.push(samples);
    this.buffered += samples.length;
    this.received += samples.length;
    this.stats_.max_buffered_ms = Math.max(this.stats_.max_buffered_ms, (this.buffered * 1000) / RATE);
    if (!this.playing && this.waitingSince === null) this.waitingSince = at_ms;
  }

  /** The frame that plays over [at_ms, at_ms + 20). */
  frame(at_ms: number): Int16Array {
    const out = new Int16Array(this.frameSamples);
    if (!this.playing && this.buffered > 0) {
      const waited = at_ms - (this.waitingSince ?? at_ms);
      if ((this.buffered * 1000) / RATE >= this.reserveMs || waited >= this.reserveMs) {
        this.playing = true;
        this.stats_.reserve_wait_ms += waited;
        this.waitingSince = null;
      }
    }
    let filled = 0;
    if (this.playing) {
      while (filled < out.length && this.queue.length > 0) {
        const head = this.queue[0]!;
        const take = Math.min(out.length - filled, head.length - this.offset);
        out.set(head.subarray(this.offset, this.offset + take), filled);
        filled += take;
        this.offset += take;
        this.buffered -= take;
        if (this.offset >= head.length) {
          this.queue.shift();
          this.offset = 0;
        }
      }
      if (filled > 0) {
        const offset = Math.round((this.originMs * RATE) / 1000) + this.played.length * this.frameSamples;
        this.spans.push({ start_ms: (offset * 1000) / RATE, end_ms: ((offset + filled) * 1000) / RATE, sample_offset: offset, sample_count: filled });
      }
      if (this.queue.length === 0) {
        // Out of audio: back to building a reserve for whatever comes next (the end of a turn, or a stall).
        if (filled > 0 && filled < out.length) this.stats_.underflow_frames++;
        this.playing = false;
        this.stats_.dry_spells++;
      }
    }
    this.played.push(out);
    this.stats_.frames++;
    return out;
  }

  /** Samples of audio received so far. */
  get receivedSamples(): number {
    return this.received;
  }

  /** Samples of received audio played so far: playback is first in first out, so sample n received is sample n played. */
  get playedSamples(): number {
    return this.received - this.buffered;
  }

  /** Audio still waiting to play. */
  get pendingMs(): number {
    return (this.buffered * 1000) / RATE;
  }

  stats(): PlaybackStats {
    return { ...this.stats_, max_buffered_ms: Math.round(this.stats_.max_buffered_ms * 1000) / 1000, reserve_wait_ms: Math.round(this.stats_.reserve_wait_ms * 1000) / 1000 };
  }

  /** Everything played, as the assistant channel from timeline 0 (zeros before the relay started). */
  placed(): PlacedAssistantAudio {
    const lead = Math.round((this.originMs * RATE) / 1000);
    const track = new Int16Array(lead + this.played.length * this.frameSamples);
    this.played.forEach((f, i) => track.set(f, lead + i * this.frameSamples));
    return { spans: this.spans, track };
  }
}
