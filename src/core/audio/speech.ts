/**
 * The speech rule the interaction metrics are computed from (docs/audio-and-metrics.md): fixed frames, an RMS threshold,
 * contiguous voiced frames joined into intervals. Deliberately simple so numbers stay comparable with
 * the reference harness; merging intervals across sides and turns belongs to the metrics (docs/audio-and-metrics.md).
 */

export interface SpeechInterval {
  start_ms: number;
  end_ms: number;
}

export interface SpeechRule {
  /** Frame length; default 20 ms. */
  frameMs?: number;
  /** Minimum RMS in PCM16 units for a voiced frame; default 220. */
  threshold?: number;
}

/** Root mean square of a frame in PCM16 units; 0 for an empty frame. */
export function rms(frame: ArrayLike<number>): number {
  if (frame.length === 0) return 0;
  return Math.sqrt(sumOfSquares(frame, 0, frame.length) / frame.length);
}

/**
 * Speech detection: frames of `frameMs` whose RMS >= `threshold` are voiced; each run of voiced
 * frames is one interval. The last frame may be shorter than `frameMs`; it is judged on the samples it
 * has and its interval ends at the last sample.
 */
export function speechIntervals(samples: Int16Array, sampleRate: number, rule: SpeechRule = {}): SpeechInterval[] {
  const { frameMs = 20, threshold = 220 } = rule;
  if (!(sampleRate > 0)) throw new RangeError(`sampleRate must be positive, got ${sampleRate}`);
  const frameLength = Math.round((sampleRate * frameMs) / 1000);
  if (frameLength < 1) throw new RangeError(`a ${frameMs} ms frame at ${sampleRate} Hz holds no samples`);
  const toMs = (sample: number) => (sample * 1000) / sampleRate;
  // Compare sum of squares against threshold² × n: exact in integers, where sqrt could round 220 to 219.99….
  const thresholdSquared = threshold * threshold;

  const intervals: SpeechInterval[] = [];
  let openedAt = -1;
  for (let start = 0; start < samples.length; start += frameLength) {
    const end = Math.min(start + frameLength, samples.length);
    const voiced = sumOfSquares(samples, start, end) >= thresholdSquared * (end - start);
    if (voiced && openedAt < 0) openedAt = start;
    if (!voiced && openedAt >= 0) {
      intervals.push({ start_ms: toMs(openedAt), end_ms: toMs(start) });
      openedAt = -1;
    }
  }
  if (openedAt >= 0) intervals.push({ start_ms: toMs(openedAt), end_ms: toMs(samples.length) });
  return intervals;
}

function sumOfSquares(frame: ArrayLike<number>, start: number, end: number): number {
  let sum = 0;
  for (let i = start; i < end; i++) sum += frame[i]! * frame[i]!;
  return sum;
}
