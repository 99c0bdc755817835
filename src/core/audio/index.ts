/** The audio room: WAV files, PCM16 helpers, resampling, the speech rule, chunking and pacing. */
export { readWav, writeWav, pcm16Wav, describeWav, requireTransportWav, WavError, SOX_TO_TRANSPORT } from "./wav";
export type { WavAudio, WavSampleFormat, WavErrorCode, Pcm16Wav } from "./wav";
export {
  pcm16FromBytes,
  pcm16ToBytes,
  placePcm16,
  clipInt16,
  floatToPcm16,
  pcm16ToFloat,
  mixPcm16,
  interleaveStereo,
  zeroFillTo,
  pcm16DurationMs,
  pcm16BytesForMs,
  encodePcmBase64,
  decodePcmBase64,
  concatPcm,
} from "./pcm";
export { resamplePcm16 } from "./resample";
export { speechIntervals, rms } from "./speech";
export type { SpeechInterval, SpeechRule } from "./speech";
export { chunkPcm, chunkByteLength, silenceChunk } from "./chunker";
export type { ChunkShape } from "./chunker";
export { AudioPacer } from "./pacer";
export type { AudioPacerOptions, PacingLag, PacerStats, ChunkTiming, SendChunk } from "./pacer";
