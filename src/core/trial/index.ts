/**
 * The trial room: one trial as a short sequence of stages (stages/) over shared live state (state.ts,
 * session-io.ts), composed by a driver per kind of case (single-turn/: CRAWL and WALK).
 */
export { runTrial } from "./run-trial";
export { DEFAULT_AUDIO, type AudioSettings, type CallerSpeech, type TrialContext, type TrialMedia, type TrialResult, type ReferenceTranscript } from "./context";
export type { CaseDefinition, CaseRecording, TrialSpec } from "./case";
export type { SpeechDetector } from "./audio-metrics";
