import { pcm16FromBytes, zeroFillTo } from "../audio/pcm";

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
 * chunk was sent, the assistant's placed audio (§2). conversation.wav is written from these tracks and
 * the §4 metrics are computed from the same tracks, so the file and the numbers always agree.
 */
export function conversationTracks(media: ConversationAudio): { caller: Int16Array; assistant: Int16Array } {
  const rate = media.sample_rate;
  const pcm = pcm16FromBytes(media.input_pcm);
  const offset = Math.round((media.caller_start_ms * rate) / 1000);
  const length = Math.max(offset + pcm.length, media.assistant.track.length);
  const caller = new Int16Array(length);
  caller.set(pcm, offset);
  return { caller, assistant: zeroFillTo(media.assistant.track, length) };
}
