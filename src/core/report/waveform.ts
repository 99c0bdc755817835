/** What the conversation viewer draws from conversation.wav: each channel's peaks and voiced intervals. */

import { HOST_IS_LITTLE_ENDIAN } from "../audio/pcm";
import { speechIntervals, type SpeechInterval } from "../audio/speech";
import { readWav } from "../audio/wav";
import { intersectIntervals } from "../timeline/intervals";
import { loadWebrtcVad } from "../walk/webrtc-vad";
import { WAVEFORM_ALPHABET, type AudioView, type Span } from "./client/data";

/**
 * What the conversation viewer draws from a trial's conversation.wav (caller left, assistant right, one
 * timeline): a compact peak envelope per channel and the voiced intervals of the same detector the
 * metrics used. Read from the saved file, so a report can be rebuilt from a run folder alone.
 */

/** At most this many waveform bins per channel: enough for a wide screen, small for thousands of trials. */
const MAX_BINS = 1000;
const MIN_BIN_MS = 40;

/** The detector named in `metrics.audio.speech_detector`: the RMS rule unless it says webrtc. */
export function detectorKind(name: unknown): "rms" | "webrtc" {
  return typeof name === "string" && name.startsWith("webrtc") ? "webrtc" : "rms";
}

export async function conversationView(wav: Uint8Array, src: string, detectorName: unknown): Promise<AudioView> {
  const audio = readWav(wav, src);
  if (audio.format !== "pcm" || audio.bitsPerSample !== 16) throw new Error(`${src}: expected PCM16, found ${audio.format} ${audio.bitsPerSample}-bit`);
  const rate = audio.sampleRate;
  const count = audio.frames * audio.channels;
  // A view where the data sits on a sample boundary (it does in every WAV written here), a copy where it does not.
  const samples = audio.data.byteOffset % 2 === 0 ? new Int16Array(audio.data.buffer, audio.data.byteOffset, count) : new Int16Array(audio.data.buffer.slice(audio.data.byteOffset, audio.data.byteOffset + count * 2));
  const [caller, assistant] = deinterleave(samples, audio.channels);
  const duration_ms = Math.round((audio.frames * 1000) / rate);
  const bin_ms = Math.max(MIN_BIN_MS, Math.ceil(duration_ms / MAX_BINS / 10) * 10);
  const kind = detectorKind(detectorName);
  const vad = kind === "webrtc" ? await loadWebrtcVad() : null;
  const detect = (x: Int16Array): SpeechInterval[] => (vad ? vad.speechIntervals(x, rate) : speechIntervals(x, rate));
  const callerSpeech = detect(caller);
  const assistantSpeech = detect(assistant);
  return {
    src,
    duration_ms,
    bin_ms,
    caller: peaks(caller, rate, bin_ms),
    assistant: peaks(assistant, rate, bin_ms),
    caller_speech: spans(callerSpeech),
    assistant_speech: spans(assistantSpeech),
    overlaps: spans(intersectIntervals(callerSpeech, assistantSpeech)),
    detector: typeof detectorName === "string" ? detectorName : "rms>=220/20ms",
  };
}

function deinterleave(samples: Int16Array, channels: number): [Int16Array, Int16Array] {
  if (channels === 1) return [samples, new Int16Array(samples.length)];
  const frames = Math.floor(samples.length / channels);
  const left = new Int16Array(frames);
  const right = new Int16Array(frames);
  if (channels === 2 && HOST_IS_LITTLE_ENDIAN && samples.byteOffset % 4 === 0) {
    // A stereo frame is one little-endian 32-bit word: left in its low half, right in its high half.
    const words = new Int32Array(samples.buffer, samples.byteOffset, frames);
    for (let i = 0; i < frames; i++) {
      const word = words[i]!;
      left[i] = word;
      right[i] = word >> 16;
    }
    return [left, right];
  }
  for (let i = 0; i < frames; i++) {
    left[i] = samples[i * channels]!;
    right[i] = samples[i * channels + 1]!;
  }
  return [left, right];
}

/** Peak level per bin on a square-root scale (quiet speech stays visible), one alphabet character each. */
export function peaks(samples: Int16Array, rate: number, binMs: number): string {
  const per = Math.max(1, Math.round((rate * binMs) / 1000));
  let out = "";
  for (let start = 0; start < samples.length; start += per) {
    let peak = 0;
    const end = Math.min(samples.length, start + per);
    for (let i = start; i < end; i++) {
      const v = samples[i]! < 0 ? -samples[i]! : samples[i]!;
      if (v > peak) peak = v;
    }
    out += WAVEFORM_ALPHABET[Math.min(63, Math.round(Math.sqrt(peak / 32768) * 63))];
  }
  return out;
}

const spans = (intervals: readonly SpeechInterval[]): Span[] => intervals.map((i) => [Math.round(i.start_ms), Math.round(i.end_ms)]);
