/** The WALK room: recorded caller inputs, acoustic conditions (docs/audio-and-metrics.md), fixture generation, breakdowns. */
export { loadRecording, resolveRecording, validateRecordings, soxCommand, ffmpegCommand, RecordingError, RECORDING_SAMPLE_RATE } from "./recordings";
export type { LoadedRecording, RecordingEntry, RecordingErrorCode } from "./recordings";
export {
  applyCondition,
  validateOverrides,
  requirePreset,
  presetOverrides,
  presetUsesBackground,
  presetUsesNonDirected,
  normalizedBackground,
  ConditionError,
  CONDITION_PRESETS,
  CONDITION_SAMPLE_RATE,
  PRESET_DEFAULTS,
  OVERRIDE_FLAGS,
  TELEPHONY,
  BACKGROUND_PEAK,
  LOSS_FRAME_MS,
} from "./conditions";
export type { ConditionPreset, ConditionOverrides, ConditionOverride, ConditionInput, ConditionResult, ConditionSettings, ConditionObservations, ConditionErrorCode } from "./conditions";
export type { CallerEvent, SkippedCallerEvent, CallerEventKind } from "./caller-events";
export {
  synthesizeBackgroundSpeaker,
  bundledBackgroundSpeakerWav,
  synthesizeNonDirectedUtterances,
  readBackgroundSpeech,
  BACKGROUND_SPEAKER_VOICE,
  BACKGROUND_SPEAKER_LINES,
  BUNDLED_BACKGROUND_SPEAKER_PATH,
  NON_DIRECTED_VOICE,
  NON_DIRECTED_PHRASES,
} from "./condition-assets";
export { mulawEncode, mulawDecode } from "./mulaw";
export { seededRandom, deriveSeed } from "./seeded-random";
export type { SeededRandom } from "./seeded-random";
export { generateAudio, GenerateAudioError, DEFAULT_GENERATION_SEED, GENERATOR, GENERATED_RECORDING_ID, SYNTHESIZED_LEAD_MS, SYNTHESIZED_TAIL_MS } from "./generate";
export type { GenerateAudioOptions, GenerateAudioReport, GeneratedRecording, CleanAudioOrigin } from "./generate";
export { DestinationError, audioFolder, audioDestination } from "./destinations";
export type { DestinationErrorCode } from "./destinations";
export { loadWebrtcVad, webrtcSpeechIntervals, webrtcDetectorName } from "./webrtc-vad";
export type { WebrtcVad, WebrtcVadMode, WebrtcVadOptions } from "./webrtc-vad";
export { conditionBreakdown, matchesWhere, parseWhere, WhereError } from "./breakdown";
export type { ConditionRate, WhereFilter } from "./breakdown";
