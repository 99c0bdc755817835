/** The assistant's audio as it arrives, placed on the trial timeline, with its voiced intervals kept up to date. */

import { pcm16FromBytes } from "../audio/pcm";
import { speechIntervals } from "../audio/speech";
import type { Interval } from "../timeline/intervals";
import { placeAssistantAudio, type AssistantAudioDelta, type PlacedAssistantAudio } from "../timeline/turns";

/**
 * The assistant's audio as it arrives. Deltas have no timestamps (docs/audio-and-metrics.md), so each is
 * placed at max(end of previous audio, receive time). Voiced intervals are tracked incrementally for the
 * completion rule; the final track and its metrics are computed once, at the end, with the placement.
 */
export class AssistantTrack {
  private readonly deltas: AssistantAudioDelta[] = [];
  private cursorMs = 0;
  private readonly voicedSoFar: Interval[] = [];
  /** Odd trailing byte carried to the next delta, so a split sample is not lost. */
  private carry: number | null = null;

  constructor(private readonly sampleRate = 24_000) {}

  add(receivedMs: number, pcm: Uint8Array): void {
    let bytes = pcm;
    if (this.carry !== null) {
      bytes = new Uint8Array(pcm.length + 1);
      bytes[0] = this.carry;
      bytes.set(pcm, 1);
      this.carry = null;
    }
    if (bytes.length % 2 === 1) {
      this.carry = bytes[bytes.length - 1]!;
      bytes = bytes.subarray(0, bytes.length - 1);
    }
    const samples = pcm16FromBytes(bytes);
    if (samples.length === 0) return;
    this.deltas.push({ received_ms: receivedMs, samples });
    const start = Math.max(this.cursorMs, receivedMs);
    this.cursorMs = start + (samples.length * 1000) / this.sampleRate;
    for (const v of speechIntervals(samples, this.sampleRate)) {
      const interval = { start_ms: start + v.start_ms, end_ms: start + v.end_ms };
      const last = this.voicedSoFar[this.voicedSoFar.length - 1];
      if (last && interval.start_ms <= last.end_ms) last.end_ms = Math.max(last.end_ms, interval.end_ms);
      else this.voicedSoFar.push(interval);
    }
  }

  /** Voiced intervals observed so far (approximate frame grid; for the completion rule only). */
  voiced(): readonly Interval[] {
    return this.voicedSoFar;
  }

  /** End of the placed audio so far. */
  endMs(): number {
    return this.cursorMs;
  }

  place(): PlacedAssistantAudio {
    return placeAssistantAudio(this.deltas, this.sampleRate);
  }
}
