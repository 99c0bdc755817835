/**
 * The GPT-Live room: the wire protocol (schemas and builders), the client, and the local simulator.
 * The GPT-Live target adapter builds on `LiveClient`; offline runs point it at `startLiveSimulator`.
 */
export {
  GPT_LIVE_MODEL,
  GPT_LIVE_DEFAULT_VOICE,
  GPT_LIVE_VOICES,
  FORBIDDEN_VOICES,
  MAX_INPUT_MESSAGES,
  FATAL_ERROR_CODES,
  SESSION_CLOSED_REASONS,
  CLIENT_EVENT_TYPES,
  SERVER_EVENT_TYPES,
  RESPONSE_STREAM_EVENT_TYPES,
  AudioFormatSchema,
  InputMessageSchema,
  FunctionToolSchema,
  ResponsesSettingsSchema,
  DelegationConfigSchema,
  SessionConfigSchema,
  SessionUpdateSchema,
  FunctionCallOutputItemSchema,
  ClientEventSchema,
  LiveSessionSchema,
  TokenUsageSchema,
  FunctionCallItemSchema,
  ReasoningItemSchema,
  MessageItemSchema,
  OutputItemSchema,
  ResponseObjectSchema,
  ResponseStreamEventSchema,
  ServerEventSchema,
  checkSessionConfig,
  configIssues,
  clientEvents,
  parseClientEvent,
  parseServerEvent,
  isFunctionCallItem,
  isReasoningItem,
  isMessageItem,
} from "./protocol";
export type {
  AudioFormat,
  InputMessage,
  FunctionTool,
  ResponsesSettings,
  DelegationConfig,
  SessionConfig,
  ClientEvent,
  ClientEventType,
  ClientEventOf,
  ClientParseResult,
  FunctionCallOutputItem,
  AppendKind,
  LiveSession,
  ResponseUsage,
  FunctionCallItem,
  ReasoningItem,
  MessageItem,
  OutputItem,
  ResponseObject,
  ResponseStreamEvent,
  ResponseStreamEventType,
  ServerEvent,
  ServerEventType,
  ServerEventOf,
  ServerEventInput,
  ServerParseResult,
} from "./protocol";
export { LiveClient } from "./client";
export type { LiveClientState, LiveConnectOptions, LiveClientOptions, LiveMessage, LiveRawFrame, LiveCloseResult, EventInfo } from "./client";
export {
  LiveConfigError,
  LiveProtocolError,
  LiveConnectionError,
  LiveServiceError,
  LiveStateError,
  describeCloseCode,
} from "./errors";
export type { ConfigIssue, LiveProtocolErrorKind, LiveConnectionErrorCode } from "./errors";
export { startLiveSimulator, UnknownLiveFaultError, LIVE_SESSIONS_PATH } from "./simulator";
export type { LiveSimulator, LiveSimulatorOptions, LiveSimulatorStats } from "./simulator";
export { LIVE_FAULT_KINDS, DEFAULT_SIMULATOR_TIMING, SIMULATED_BACKEND_MODEL, estimateTokens } from "./simulated-session";
export type { LiveFault, LiveFaultKind, SimulatorTiming, SimulatedSessionStats } from "./simulated-session";
export type { SimulatorSynthesizer, Placement } from "./simulated-voice";
export { CallerAudioRegistry, CallerListener, chunkFingerprint, spreadWords } from "./caller-speech";
export type { RegisteredUtterance, HeardFragment, TimedWord } from "./caller-speech";
export { WireEnd, frameKey, CLOSE_FRAME_KEY } from "./wire-time";
