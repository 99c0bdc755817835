/** A trial's two audio tracks, caller and assistant, on one timeline: what conversation.wav and the metrics share. */

import { placePcm16, zeroFillTo } from "../audio/pcm";

/** The caller's PCM as sent and the assistant's placed audio, as a trial hands them over. */
export interface ConversationAudio {
  /** Caller PCM16 bytes, 24 kHz mono. */
  input_pcm: Uint8Array;
  /** When the caller's first chunk was sent, on the trial timeline. */
  caller_start_ms: number;
  sample_rate: number;
  assistant: { track: Int16Array };
}

/**
 * The two channels of a trial on one timeline, sample-exact: the caller's PCM placed where its first
 * chunk was sent, the assistant's placed audio (docs/audio-and-metrics.md). conversation.wav is written from these tracks and
 * the metrics are computed from the same tracks, so the file and the numbers always agree. The
 * tracks are shared: read them, never write them.
 */
export function conversationTracks(media: ConversationAudio): { caller: Int16Array; assistant: Int16Array } {
  const last = lastTracks;
  if (last && last.input_pcm === media.input_pcm && last.assistant === media.assistant.track && last.caller_start_ms === media.caller_start_ms && last.sample_rate === media.sample_rate) return last.tracks;
  const rate = media.sample_rate;
  const offset = Math.round((media.caller_start_ms * rate) / 1000);
  const length = Math.max(offset + (media.input_pcm.byteLength >> 1), media.assistant.track.length);
  const caller = new Int16Array(length);
  placePcm16(caller, media.input_pcm, offset);
  // Consumers only read the tracks: an assistant track already full length is used as it is.
  const assistant = media.assistant.track.length === length ? media.assistant.track : zeroFillTo(media.assistant.track, length);
  const tracks = { caller, assistant };
  lastTracks = { input_pcm: media.input_pcm, assistant: media.assistant.track, caller_start_ms: media.caller_start_ms, sample_rate: rate, tracks };
  return tracks;
}

/**
 * The metrics and conversation.wav ask for the same trial's tracks one after the other: the last answer
 * is kept (about 2 MB) so the two full-length tracks are built once per trial, not twice.
 */
let lastTracks:
  | { input_pcm: Uint8Array; assistant: Int16Array; caller_start_ms: number; sample_rate: number; tracks: { caller: Int16Array; assistant: Int16Array } }
  | undefined;
