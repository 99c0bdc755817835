/**
 * The sounds conditions mix in besides the caller (docs/audio-and-metrics.md), all of our own making:
 * - the bundled second speaker: a few neutral sentences spoken by espeak-ng in a voice no caller
 *   default uses, about ten seconds, committed as crashlab/data/audio/background-speaker.wav
 *   (scripts/make-background-speaker.ts writes it; a test checks the file equals this synthesis);
 * - non-directed utterances: short asides ("Hang on.") in another voice, synthesized on use.
 * espeak-ng synthesis is deterministic, so both are the same bytes on every machine; neither needs a
 * file at run time, which keeps src/core free of paths into the evaluation package.
 *
 * A user's own second speaker (`--background-speech`) is read here too: any PCM16 WAV, mixed down to
 * mono and resampled to 24 kHz; conditions.ts then peak-normalizes it like the bundled one.
 */
import { InputFileError, readInputFile } from "../dataset/input-file";
import { pcm16FromBytes } from "../audio/pcm";
import { resamplePcm16 } from "../audio/resample";
import { describeWav, pcm16Wav, readWav, SOX_TO_TRANSPORT, WavError } from "../audio/wav";
import { EspeakSynthesizer } from "../speech/espeak";
import type { SpeechSynthesizer } from "../speech/synthesizer";
import { CONDITION_SAMPLE_RATE, ConditionError } from "./conditions";
import { MAX_RECORDING_BYTES } from "./recordings";

/** British male voice: unlike every default caller voice (the OpenAI names map to American espeak voices). */
export const BACKGROUND_SPEAKER_VOICE = "en-gb-x-rp+m3";
/** Neutral talk with nothing a restaurant assistant could act on. */
export const BACKGROUND_SPEAKER_LINES: readonly string[] = [
  "I think the train was about ten minutes late again this morning.",
  "Did you remember to water the plants before we left the house?",
  "Let's pick up some bread and apples on the way home.",
];
/** Pause between the second speaker's sentences. */
export const BACKGROUND_SPEAKER_PAUSE_MS = 350;

export const NON_DIRECTED_VOICE = "en-us+m2";
/** Asides to someone in the room, short enough to fit the pauses of a short request. */
export const NON_DIRECTED_PHRASES: readonly string[] = ["Hang on.", "One second.", "Just a minute."];

/** Where the bundled second speaker is committed, relative to the repository root. */
export const BUNDLED_BACKGROUND_SPEAKER_PATH = "crashlab/data/audio/background-speaker.wav";

let backgroundSpeaker: Promise<Int16Array> | undefined;
let nonDirected: Promise<Int16Array[]> | undefined;

/** The bundled second speaker, mono 24 kHz (synthesized once per process). */
export function synthesizeBackgroundSpeaker(): Promise<Int16Array> {
  backgroundSpeaker ??= speakLines(new EspeakSynthesizer({ voice: BACKGROUND_SPEAKER_VOICE }), BACKGROUND_SPEAKER_LINES, BACKGROUND_SPEAKER_PAUSE_MS).catch((error: unknown) => {
    backgroundSpeaker = undefined;
    throw error;
  });
  return backgroundSpeaker.then((s) => s.slice());
}

/** The bundled second speaker as the WAV file committed at BUNDLED_BACKGROUND_SPEAKER_PATH (mono 24 kHz PCM16). */
export async function bundledBackgroundSpeakerWav(): Promise<Uint8Array> {
  return pcm16Wav(await synthesizeBackgroundSpeaker(), CONDITION_SAMPLE_RATE);
}

/** The non-directed asides, one mono 24 kHz utterance each (synthesized once per process). */
export function synthesizeNonDirectedUtterances(): Promise<Int16Array[]> {
  nonDirected ??= (async () => {
    const voice = new EspeakSynthesizer({ voice: NON_DIRECTED_VOICE });
    const out: Int16Array[] = [];
    for (const phrase of NON_DIRECTED_PHRASES) out.push((await voice.synthesize(phrase)).samples);
    return out;
  })().catch((error: unknown) => {
    nonDirected = undefined;
    throw error;
  });
  return nonDirected.then((all) => all.map((s) => s.slice()));
}

async function speakLines(voice: SpeechSynthesizer, lines: readonly string[], pauseMs: number): Promise<Int16Array> {
  const pause = new Int16Array((pauseMs * CONDITION_SAMPLE_RATE) / 1000);
  const parts: Int16Array[] = [];
  for (const line of lines) parts.push((await voice.synthesize(line)).samples, pause);
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * A user-supplied second speaker: any PCM16 WAV (mono or multi-channel, any rate) as mono 24 kHz.
 * Only use recordings you are authorized to use; the path is a read-only input.
 */
export function readBackgroundSpeech(path: string): Int16Array {
  let bytes: Uint8Array;
  try {
    bytes = readInputFile(path, MAX_RECORDING_BYTES);
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    throw new ConditionError("bad_background", `background speech ${path}: ${error.problem === "missing" ? "file not found" : error.detail}; check --background-speech`);
  }
  let audio;
  try {
    audio = readWav(bytes);
  } catch (error) {
    if (error instanceof WavError) throw new ConditionError("bad_background", `background speech ${path}: ${error.message}`);
    throw error;
  }
  if (audio.format !== "pcm" || audio.bitsPerSample !== 16) {
    throw new ConditionError("bad_background", `background speech ${path} is a ${describeWav(audio)}; it must be 16-bit signed PCM (any rate or channel count); convert with: ${SOX_TO_TRANSPORT}`);
  }
  if (audio.frames === 0) throw new ConditionError("bad_background", `background speech ${path} contains no samples; use a recording with audible speech`);
  const interleaved = pcm16FromBytes(audio.data);
  const mono = new Int16Array(audio.frames);
  for (let f = 0; f < audio.frames; f++) {
    let sum = 0;
    for (let c = 0; c < audio.channels; c++) sum += interleaved[f * audio.channels + c]!;
    mono[f] = Math.round(sum / audio.channels);
  }
  return resamplePcm16(mono, audio.sampleRate, CONDITION_SAMPLE_RATE);
}
