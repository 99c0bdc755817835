// The timeline folder's public face: turns, intervals, caller segments, delegations and timing metrics.
export { TimelineInputError } from "./errors";
export {
  type Interval,
  intersectIntervals,
  maxEpisode,
  mergeIntervals,
  subtractIntervals,
  totalLength,
  unionIntervals,
} from "./intervals";
export { type CallerAction, type CallerSegment, type CallerUtterance, callerSegments } from "./segments";
export {
  callerAnnotations,
  type CallerActionInput,
  callerTurns,
  labelCallerActions,
  type LabelledCallerUtterance,
  type RecordedCallerUtterance,
} from "./caller-actions";
export {
  BACKCHANNEL_CONTINUE_MS,
  type CensorReason,
  computeInteractionMetrics,
  DEFAULT_RESPONSE_DEADLINE_MS,
  type DelegationTimingSource,
  type DelegationWindow,
  type ExclusionReason,
  type InteractionInput,
  type InteractionMetrics,
  METRICS_VERSION,
  type MissReason,
  type ResponseOpportunity,
  type YieldOpportunity,
  YIELD_WINDOW_MS,
} from "./metrics";
export { type DelegationActivity, type DelegationLifecycleEvent, type DelegationTarget, delegationActivity } from "./delegation";
export {
  type AssistantAudioDelta,
  groupTranscript,
  type PlacedAssistantAudio,
  type PlacedAudioSpan,
  placeAssistantAudio,
  settleMs,
  type SpeakerRole,
  TRANSCRIPT_GROUP_GAP_MS,
  type TranscriptFragment,
  type TranscriptGrouping,
  type TranscriptGroupingOptions,
  type TranscriptTurn,
} from "./turns";
