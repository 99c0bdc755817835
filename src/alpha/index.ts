/*
 * `crashlab/alpha`: what an evaluation package is written with. A name belongs here when packages, the
 * docs or the scaffold use it; everything else stays in src/core. api/alpha.api.md lists every name with
 * its signature, and test/api-report.test.ts fails when this surface changes without it.
 */

// Worlds: state, operations (the tools), invariants, views; `z` is the very zod the engine uses.
export { defineWorld, WorldDefinitionError } from "../core/world/define";
export { z } from "zod";
export { createWorld, toolDeclarations, WorldSetupError } from "../core/world/world";
export { OperationError } from "../core/world/types";
export type {
  Cause,
  Effect,
  Invariant,
  Json,
  JsonPatch,
  OperationDefinition,
  OperationOutcome,
  OperationVocabulary,
  ReadContext,
  StateChange,
  ToolDeclaration,
  Vocabulary,
  World,
  WorldAccess,
  WorldDefinition,
  WorldEvent,
  WorldOptions,
  WorldRandom,
  WriteContext,
} from "../core/world/types";

// Plans, cases and runs.
export { definePlan, crawl, walk, converse, datasetCases, type Plan, type PlanDefinition, type CaseDefinition, type CrawlOptions } from "../core/run/plan";
export type { RunResult } from "../core/run/run";
export { run, type LibraryRunOptions, type LibraryExtras, type FolderRunResult } from "../core/runner/run";
// Run settings by name (docs/configuration.md): what `run()` takes and a PLAN's `defaults` holds.
export type { RunSettings } from "../core/settings/schema";
export type { RunDefaults, ServicesDefaults, ServiceDefault } from "../core/settings/plan-defaults";
export type { RunReporter } from "../core/runner/execute";
// The trial record, as verifiers read it.
export type { TrialRecord, TrialStatus, Assessment, ToolExecution, Turn, Limits, WorldEventRecord, JsonPatchOperation } from "../core/record/index";

// Errors the user can fix (a file, a field, a flag): every such error crashlab throws is a UserError.
export { UserError, isUserError } from "../core/user-error";

// Datasets (docs/datasets.md).
export { loadDataset, DatasetError, type LoadedDataset } from "../core/dataset/load";
export type { Scenario, Dataset, ExpectedCall } from "../core/dataset/schema";

// Targets (docs/targets.md): an offline policy, GPT-Live, or an adapter of your own.
export type { AssistantPolicy, BackendResult, BackendTask, FrontendDecision, PolicyToolResult, PolicyTools, PolicyTurn } from "../core/target/policy";
export type {
  AgentEvent,
  CallerContext,
  CallerInput,
  DelegationMode,
  HistoryMessage,
  InputKind,
  SessionIO,
  SessionReport,
  SessionRequest,
  TargetAdapter,
  TargetDescriptor,
  TargetSession,
  TokenUsage,
  ToolCallRequest,
  ToolReply,
  TargetReport,
  ReportedToolCall,
} from "../core/target/types";
export { policyTarget, type PolicyTargetOptions } from "../core/target/text-target";
export { gptLiveTarget, type GptLiveTargetOptions } from "../core/gpt-live-target/adapter";
export { LiveClient } from "../core/live/index";
export { startLiveSimulator, type LiveSimulator } from "../core/simulator/index";
// A client-delegation service of your own (docs/remote-assistant.md): the contract's limits, and the reference service serve-assistant runs.
export { DEFAULT_CONNECTOR_LIMITS, DEFAULT_SERVICE_LIMITS, type ConnectorLimits, type ServiceLimits } from "../core/client-service/protocol";
export { startAssistantService, type AssistantService, type AssistantServiceOptions } from "../core/client-service/server";
export type { TargetSettings, TargetFactory, TargetEntry } from "../core/target/settings";

// Caller speech, for `run(plan, { caller_speech })` (offline espeak-ng is GPL-3.0 and loads only when used; see README).
export { EspeakSynthesizer, OpenAISpeechSynthesizer, CachedSynthesizer, SpeechError, type SpeechSynthesizer, type SynthesizedSpeech } from "../core/speech/index";

// Verifiers, semantic clauses and gates (docs/verifiers-and-clauses.md, docs/gates.md).
export { defineVerifier, type Verifier, type VerifierInput, type Verdict } from "../core/verify/verifier";
export { matchesSubset, normalizeText } from "../core/verify/match";
export { yieldsToInterruption, responsiveness, type ResponsivenessBudget } from "../core/verify/timing";
export { defineClause, idsOfKind, type BehaviorClause, type Applicability } from "../core/judge/clauses";
export type { EvidenceCatalog, EvidenceItem, EvidenceKind } from "../core/judge/evidence";
export { evaluateGates, type GateRule, type GateConfig, type GateDecision } from "../core/gate/gates";
export type { HumanVerdict, HumanVerdicts } from "../core/gate/human";

// Human review (docs/review.md): reviews.jsonl, the review queue, the judge's calibration against people.
export { appendReview, readReviews, latestReviews, ReviewError, type Review, type StoredReview } from "../core/review/reviews";
export { loadRunReviews, reviewQueueForRun, type RunReviews } from "../core/review/run-reviews";
export { reviewQueue, type QueueItem, type QueueTrial } from "../core/review/queue";
export { calibrate, type Calibration, type ClauseCalibration } from "../core/review/calibrate";
