/**
 * An optional stronger speech detector (`--speech-detector webrtc`): the WebRTC voice activity
 * detector (libfvad compiled to WebAssembly, @echogarden/fvad-wasm, BSD-3-Clause), returning the same
 * interval shape as the RMS rule so either can build a timeline. The RMS rule stays the default so
 * figures remain comparable; a result records which detector produced its timeline.
 *
 * fvad takes 10/20/30 ms frames at 8, 16, 32 or 48 kHz: audio at another rate (the 24 kHz transport)
 * is resampled to 16 kHz first; frames are 20 ms, so frame i covers [20·i, 20·i + 20) ms of the
 * original audio. The module loads lazily, once per process.
 */
import { resamplePcm16 } from "../audio/resample";
import type { SpeechInterval } from "../audio/speech";
import type { FvadModule } from "@echogarden/fvad-wasm";

export type WebrtcVadMode = 0 | 1 | 2 | 3;

export interface WebrtcVadOptions {
  /** 0 = quality … 3 = very aggressive (fewest false "speech" frames); default 2. */
  mode?: WebrtcVadMode;
}

/** How results name this detector (with its mode). */
export function webrtcDetectorName(mode: WebrtcVadMode = DEFAULT_MODE): string {
  return `webrtc-vad/fvad-wasm@0.2.0 mode ${mode}`;
}

const DEFAULT_MODE: WebrtcVadMode = 2;
const FRAME_MS = 20;
const NATIVE_RATES = new Set([8000, 16_000, 32_000, 48_000]);

/** A loaded detector: synchronous once loaded, so a timeline can be built in one pass. */
export interface WebrtcVad {
  speechIntervals(samples: Int16Array, sampleRate: number, options?: WebrtcVadOptions): SpeechInterval[];
  /** Voiced (true) or not for each 20 ms frame. */
  frames(samples: Int16Array, sampleRate: number, options?: WebrtcVadOptions): boolean[];
}

let loading: Promise<WebrtcVad> | undefined;

/** Load the WebAssembly detector (once per process; a failed load is retried next call). */
export function loadWebrtcVad(): Promise<WebrtcVad> {
  loading ??= (async () => {
    const { default: createModule } = await import("@echogarden/fvad-wasm");
    return detector(await createModule());
  })().catch((error: unknown) => {
    loading = undefined;
    throw new Error(`the WebRTC voice activity detector (@echogarden/fvad-wasm) failed to load: ${String(error)}; use the default RMS speech detector instead`, { cause: error });
  });
  return loading;
}

/** Speech intervals by the WebRTC VAD, same shape as `speechIntervals` (docs/audio-and-metrics.md). */
export async function webrtcSpeechIntervals(samples: Int16Array, sampleRate: number, options: WebrtcVadOptions = {}): Promise<SpeechInterval[]> {
  return (await loadWebrtcVad()).speechIntervals(samples, sampleRate, options);
}

function detector(module: FvadModule): WebrtcVad {
  const frames = (samples: Int16Array, sampleRate: number, options: WebrtcVadOptions = {}): boolean[] => {
    const mode = options.mode ?? DEFAULT_MODE;
    if (![0, 1, 2, 3].includes(mode)) throw new RangeError(`WebRTC VAD mode must be 0, 1, 2 or 3, got ${mode}`);
    if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError(`sampleRate must be a positive integer, got ${sampleRate}`);
    const rate = NATIVE_RATES.has(sampleRate) ? sampleRate : 16_000;
    const audio = rate === sampleRate ? samples : resamplePcm16(samples, sampleRate, rate);
    const frameLength = (rate * FRAME_MS) / 1000;
    const count = Math.ceil(audio.length / frameLength);
    const handle = module._fvad_new();
    if (!handle) throw new Error("fvad_new failed (out of memory)");
    const buffer = module._malloc(frameLength * 2);
    try {
      if (module._fvad_set_mode(handle, mode) !== 0) throw new RangeError(`fvad refused mode ${mode}`);
      if (module._fvad_set_sample_rate(handle, rate) !== 0) throw new RangeError(`fvad refused ${rate} Hz`);
      const voiced: boolean[] = [];
      for (let f = 0; f < count; f++) {
        // The heap view is read afresh each frame: it is replaced if WebAssembly memory grows.
        const heap = module.HEAP16.subarray(buffer >> 1, (buffer >> 1) + frameLength);
        const frame = audio.subarray(f * frameLength, Math.min(audio.length, (f + 1) * frameLength));
        heap.set(frame);
        if (frame.length < frameLength) heap.fill(0, frame.length); // the short last frame, zero-padded
        const result = module._fvad_process(handle, buffer, frameLength);
        if (result < 0) throw new Error(`fvad_process failed on frame ${f}`);
        voiced.push(result === 1);
      }
      return voiced;
    } finally {
      module._free(buffer);
      module._fvad_free(handle);
    }
  };
  return {
    frames,
    speechIntervals(samples, sampleRate, options) {
      const voiced = frames(samples, sampleRate, options);
      const durationMs = (samples.length * 1000) / sampleRate;
      const intervals: SpeechInterval[] = [];
      let openedAt = -1;
      voiced.forEach((v, f) => {
        if (v && openedAt < 0) openedAt = f;
        if (!v && openedAt >= 0) {
          intervals.push({ start_ms: openedAt * FRAME_MS, end_ms: f * FRAME_MS });
          openedAt = -1;
        }
      });
      if (openedAt >= 0) intervals.push({ start_ms: openedAt * FRAME_MS, end_ms: durationMs });
      return intervals;
    },
  };
}
