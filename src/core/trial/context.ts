/** What the runner hands a trial and what a finished trial hands back, with conversation and audio settings. */

import type { GitState } from "../provenance/digest";
import type { PackageIdentity } from "../provenance/package-files";
import type { TrialRecord, Limits } from "../record/trial-record";
import type { EvidenceCatalog } from "../judge/evidence";
import type { TargetAdapter } from "../target/types";
import type { PlacedAssistantAudio } from "../timeline/turns";
import type { Verifier } from "../verify/verifier";
import type { Json, ReadonlyJson } from "../world/types";
import type { SpeechDetector } from "./audio-metrics";
import type { TrialSpec } from "./case";
import type { SimulatedCaller } from "../caller/types";
import type { CompletionObserver } from "./conversation/completion-observer";
import { staticDefault } from "../settings/schema";

/** What the runner hands a trial: the spec, the target, the settings, and what grading and provenance need. */
export interface TrialContext {
  spec: TrialSpec;
  target: TargetAdapter;
  target_name: string;
  limits: Limits;
  verifiers: ReadonlyArray<{ verifier: Verifier; required: boolean }>;
  package_digest: string;
  /** The evaluation package's folder: recorded paths are relative to it, so results move between machines. */
  package_dir?: string;
  /** What of the package ran (its files and their hashes): a package verifier's record names its file from it. */
  package_identity?: PackageIdentity;
  crashlab_version: string;
  git: GitState;
  real_time: boolean;
  /** Caller speech for audio targets (CRAWL synthesizes `input.text`). */
  speech?: CallerSpeech;
  audio?: AudioSettings;
  /** Public business facts for the evidence catalog (`fact.<key>`). */
  facts?: Readonly<Record<string, ReadonlyJson>>;
  speech_detector?: SpeechDetector;
  /** Log every audio chunk's event (`--log-audio-events`); by default they are counted (trial/audio-frames.ts). */
  log_audio_events?: boolean;
  /**
   * The response-latency check's deadline (`--response-deadline-ms`, default 5000 ms): a caller turn answered
   * later counts as late. Not how long the session waits for an answer (`AudioSettings.response_timeout_ms`).
   */
  response_deadline_ms?: number;
  /** RUN: the simulated caller and the conversation's settings. */
  conversation?: ConversationSettings;
}

/** How RUN conversations are held (CLI: --max-duration-seconds, --assistant-opening-prompt, --caller-voice, …). */
export interface ConversationSettings {
  /** Builds the caller for one conversation, in the persona's voice unless overridden. */
  caller: (persona: { voice: string }) => SimulatedCaller;
  max_duration_ms?: number;
  /** Who opens the call: the caller with its request (default), or the assistant, asked with this prompt. */
  assistant_opening_prompt?: string;
  /** Caller-side acoustic condition (docs/audio-and-metrics.md) applied to every caller utterance. */
  condition?: { preset: string; overrides?: Record<string, Json> };
  /** Live: a completion observer per conversation (absent: the completion rule decides). */
  observer?: () => CompletionObserver;
  /**
   * Each line of the conversation as it happens (`--verbose`): a caller line when it starts speaking,
   * labelled with what it meant (opening, answer, correct, interrupt, backchannel, finish, closing); an
   * assistant line when its turn's speech stops. The labels of the record (OPENING, SPEAK, INTERRUPT, …)
   * are inferred from the recording afterwards.
   */
  onLine?: (line: ConversationLine) => void;
}

export interface ConversationLine {
  trial_id: string;
  at_ms: number;
  speaker: "caller" | "assistant";
  /** The caller's intent; null for the assistant. */
  label: string | null;
  text: string;
}

/** The synthesizer interface the harness needs (src/core/speech implements it). */
export interface CallerSpeech {
  readonly provider?: string;
  readonly model?: string;
  readonly voice?: string;
  /** A remote engine: its endpoint and where its key came from (recorded with the input, never the key). */
  readonly service?: { endpoint: string; credential: string };
  synthesize(text: string, options?: { signal?: AbortSignal }): Promise<{ samples: Int16Array; sampleRate: number }>;
}

export interface AudioSettings {
  chunk_ms: number;
  /** How long the session waits for an answer, from the end of caller audio; not extended by delegation. */
  response_timeout_ms: number;
  /** How long to wait for session.closed after session.close. */
  close_timeout_ms: number;
}

export const DEFAULT_AUDIO: AudioSettings = { chunk_ms: staticDefault("chunk_ms"), response_timeout_ms: staticDefault("response_timeout_seconds") * 1000, close_timeout_ms: 10_000 };

/** The caller's audio as sent: the exact PCM (PCM16, 24 kHz mono) and when its first chunk went out. */
export interface CallerAudio {
  pcm: Uint8Array;
  /** On the trial timeline; set by the delivery as the first chunk is sent. */
  start_ms: number;
}

/** Audio a trial produced, for the artifact writer (kept out of the record: records hold data only). */
export interface TrialMedia {
  /** The exact caller PCM sent (PCM16, 24 kHz mono), including the zero-padding of the final chunk. */
  input_pcm: Uint8Array;
  /** When the first caller chunk was sent, on the trial timeline. */
  caller_start_ms: number;
  assistant: PlacedAssistantAudio;
  sample_rate: number;
}

/**
 * What the caller said as the evaluator knows it — CRAWL's synthesized text, WALK's reviewed transcript,
 * RUN's caller lines, a text target's input — for the trial's transcripts file beside what the target heard.
 * Evaluator-side output, written after the trial; never sent to the target.
 */
export interface ReferenceTranscript {
  source: "synthesized" | "reviewed" | "caller_lines" | "text";
  text: string;
  /** RUN: each caller line in order. */
  lines?: string[];
}

/** What a finished trial hands back to the runner. */
export interface TrialResult {
  record: TrialRecord;
  media: TrialMedia | null;
  /** The trial's evidence catalog: observed evidence and public facts, for artifacts and reports. */
  catalog: EvidenceCatalog;
  reference?: ReferenceTranscript;
}
