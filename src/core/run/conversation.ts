import { pcm16FromBytes, zeroFillTo } from "../audio/pcm";
import type { TrialMedia } from "./trial";

/**
 * The two channels of a trial on one timeline, sample-exact: the caller's PCM placed where its first
 * chunk was sent, the assistant's placed audio (§2). conversation.wav is written from these tracks and
 * the §4 metrics are computed from the same tracks, so the file and the numbers always agree.
 */
export function conversationTracks(media: Pick<TrialMedia, "input_pcm" | "caller_start_ms" | "sample_rate"> & { assistant: { track: Int16Array } }): {
  caller: Int16Array;
  assistant: Int16Array;
} {
  const rate = media.sample_rate;
  const pcm = pcm16FromBytes(media.input_pcm);
  const offset = Math.round((media.caller_start_ms * rate) / 1000);
  const length = Math.max(offset + pcm.length, media.assistant.track.length);
  const caller = new Int16Array(length);
  caller.set(pcm, offset);
  return { caller, assistant: zeroFillTo(media.assistant.track, length) };
}
