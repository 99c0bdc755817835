export type * from "../core/target/policy";
export type * from "../core/target/types";
export { defineWorld, WorldDefinitionError } from "../core/world/define";
// zod, the schema library worlds are written with: the very copy the engine uses.
export { z } from "zod";
export { createWorld, toolDeclarations, WorldSetupError, type WorldIssue } from "../core/world/world";
export { OperationError } from "../core/world/types";
export type {
  Cause,
  Invariant,
  Json,
  JsonPatch,
  OperationDefinition,
  OperationOutcome,
  ReadContext,
  StateChange,
  World,
  WorldDefinition,
  WorldEvent,
  WorldOptions,
  WorldRandom,
  WriteContext,
} from "../core/world/types";

// Plans, cases and runs.
export { definePlan, crawl, walk, converse, datasetCases, PlanError, DEFAULT_LIMITS, type Plan, type PlanDefinition, type CaseDefinition, type CrawlOptions, type RunDefaults, type CaseRecording } from "../core/run/plan";
export { resolveRun, type RunOptions, type RunResult, type GateOverrides } from "../core/run/run";
export { run, type LibraryRunOptions, type FolderRunResult } from "../core/runner/run";
export type { RunReporter } from "../core/runner/execute";
export type { TrialRecord, TrialStatus, Assessment, OutcomeCheck, Dimension, ToolExecution, Turn, Limits, WorldEventRecord, JsonPatchOperation } from "../core/record/index";
// Datasets (evaluation-contract §1).
export { loadDataset, parseDataset, DatasetError, type LoadedDataset } from "../core/dataset/load";
export type { Scenario, Dataset, ExpectedCall } from "../core/dataset/schema";
// Targets.
export { policyTarget, type PolicyTargetOptions } from "../core/target/text-target";
// Verifiers and gates.
export { defineVerifier, type Verifier, type VerifierInput, type Verdict } from "../core/verify/verifier";
export { matchesSubset, normalizeText } from "../core/verify/match";
export { unyieldedInterruptions, yieldsToInterruption, responsiveness, type ResponsivenessBudget } from "../core/verify/timing";
export { evaluateGates, type GateRule, type GateConfig, type GateDecision } from "../core/gate/gates";
export { HUMAN_DIMENSIONS, type HumanVerdict, type HumanVerdicts } from "../core/gate/human";
// Human review (docs/review.md): reviews.jsonl, the review queue, the judge's calibration against people.
export { appendReview, readReviews, latestReviews, humanVerdicts, reviewsJsonSchema, ReviewError, REVIEWS_FILE, type Review, type StoredReview } from "../core/review/reviews";
export { loadRunReviews, reviewQueueForRun, decideWithReviews, carryReviews, earlierRunDirs, type RunReviews } from "../core/review/run-reviews";
export { reviewQueue, type QueueItem, type QueueTrial } from "../core/review/queue";
export { calibrate, type Calibration, type ClauseCalibration } from "../core/review/calibrate";
// Time.
export { RealClock, VirtualClock, type Clock } from "../core/time/clock";
// GPT-Live: the target adapter (real service or local simulator), the client and the simulator.
export { gptLiveTarget, GPT_LIVE_URL, type GptLiveTargetOptions } from "../core/gpt-live-target/adapter";
export { LiveClient } from "../core/live/index";
export { startLiveSimulator, LIVE_FAULT_KINDS, type LiveSimulator, type LiveFault, type LiveFaultKind } from "../core/simulator/index";
export { DEFAULT_TARGET_SETTINGS, type TargetSettings, type TargetFactory, type TargetEntry } from "../core/target/settings";
export { ResponsesBackend } from "../core/target/responses-backend";
// Caller speech (offline espeak-ng is GPL-3.0 and loads only when used; see README).
export { EspeakSynthesizer, OpenAISpeechSynthesizer, CachedSynthesizer, SpeechError, type SpeechSynthesizer, type SynthesizedSpeech } from "../core/speech/index";
// Semantic judge (evaluation-contract §6): package clauses, evidence, verifiers.
export { defineClause, idsOfKind, correctionWords, BUILTIN_CLAUSES, ClauseError, type BehaviorClause, type Applicability } from "../core/judge/clauses";
export { buildEvidenceCatalog, evidenceLine, FactsError, type EvidenceCatalog, type EvidenceItem, type EvidenceKind, type Facts } from "../core/judge/evidence";
export { semanticVerifiers, semanticQuality, DEFAULT_JUDGE_MODEL, type SemanticVerifierOptions, type JudgeSettings } from "../core/judge/index";
// WALK: recorded caller inputs, acoustic conditions (§8), fixture generation, per-condition breakdowns.
export {
  loadRecording,
  resolveRecording,
  validateRecordings,
  RecordingError,
  applyCondition,
  ConditionError,
  CONDITION_PRESETS,
  PRESET_DEFAULTS,
  generateAudio,
  GenerateAudioError,
  DestinationError,
  synthesizeBackgroundSpeaker,
  synthesizeNonDirectedUtterances,
  bundledBackgroundSpeakerWav,
  readBackgroundSpeech,
  BUNDLED_BACKGROUND_SPEAKER_PATH,
  conditionBreakdown,
  matchesWhere,
  parseWhere,
  webrtcSpeechIntervals,
  type LoadedRecording,
  type ConditionPreset,
  type ConditionOverrides,
  type ConditionInput,
  type ConditionResult,
  type ConditionSettings,
  type ConditionObservations,
  type GenerateAudioOptions,
  type GenerateAudioReport,
  type ConditionRate,
} from "../core/walk/index";
