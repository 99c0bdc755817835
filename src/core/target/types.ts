/** What a target is: the adapter and session interfaces, what a session starts with, and the normalized agent events. */

import type { Clock } from "../time/clock";
import type { AssistantPolicy } from "./policy";
import type { Json, ToolDeclaration } from "../world/types";

export type { ToolDeclaration } from "../world/types";

import type { CallerContext } from "./caller-context";

export type { CallerContext, HistoryMessage } from "./caller-context";

export type DelegationMode = "responses" | "client";

/** What a session is started with. Holds nothing evaluator-only. */
export interface SessionRequest {
  /** Opaque label for logs; carries no scenario data. */
  session_label: string;
  instructions: string;
  voice: string;
  delegation: DelegationMode;
  tools: ToolDeclaration[];
  context?: CallerContext;
  /**
   * The caller's words and the exact audio that will carry them, for an offline simulator-backed target
   * only: no speech recognizer ships offline, so the simulator is told what these bytes say (its stand-in
   * for recognition). It is `input.text` — what was synthesized or recorded — never anything evaluator-only;
   * offline runs therefore check the pipeline, not speech understanding. Live targets ignore it: nothing of
   * it crosses the wire.
   */
  caller_audio?: { pcm: Uint8Array; text: string };
}

/** Token usage of one backend response (Responses API shape, normalized). */
export interface TokenUsage {
  total: number;
  input: { cached: number; cache_write: number; text: number; audio: number };
  output: { text: number; audio: number; reasoning: number };
}

/**
 * Normalized agent events: what every adapter reports, whatever its wire protocol. Times are on the
 * trial timeline (`clock.now()`), stamped by the adapter when it observed the event.
 */
export type AgentEvent =
  /** `model`: the voice model the service reports serving (its backend's too, under managed delegation); `served_by`: who answered (an endpoint's host, or an in-process stand-in). */
  | { type: "session.started"; at_ms: number; session_id: string; model?: string; backend_model?: string; served_by?: string }
  | { type: "transcript.delta"; at_ms: number; role: "user" | "assistant"; text: string; start_ms?: number; end_ms?: number }
  | { type: "audio.delta"; at_ms: number; role: "assistant"; pcm: Uint8Array }
  /**
   * `reports_completion`: the delegation stays open until a `delegation.completed` for it too, not only its
   * content (a client-delegation service says when its work is done, docs/remote-assistant.md).
   */
  | { type: "delegation.created"; at_ms: number; delegation_id: string; target: "client" | "responses"; response_id?: string; reports_completion?: boolean }
  | {
      type: "backend.response";
      at_ms: number;
      delegation_id: string;
      response_id: string;
      status: "created" | "completed" | "failed" | "incomplete";
      model?: string;
      usage?: TokenUsage;
    }
  /** Content for the voice frontend became available (client commentary appended, or a managed follow-up). */
  | { type: "delegation.content"; at_ms: number; delegation_id: string; text: string }
  /** `placed_until_ms`: where the service placed the delegation's spoken result ends, on the trial clock, when it said so. */
  | { type: "delegation.completed"; at_ms: number; delegation_id: string; placed_until_ms?: number }
  | { type: "usage"; at_ms: number; seconds: number }
  /** A fatal error ends the trial as infrastructure_error at `stage` (protocol, provider, session, connection). */
  | { type: "error"; at_ms: number; code: string; message: string; fatal: boolean; stage?: string }
  /** A protocol event, kept for the log only (audio payloads are stripped by the harness). */
  | { type: "raw"; at_ms: number; direction: "sent" | "received"; event: Json };

export type AgentEventType = AgentEvent["type"];

export interface ToolCallRequest {
  name: string;
  /** The arguments as the target produced them: a JSON string (wire form) or an object. */
  arguments: string | Record<string, unknown>;
  call_id?: string;
  delegation_id?: string;
}

/** What the target gets back from a tool: a copy, as a JSON string, like a function_call_output. */
export interface ToolReply {
  call_id: string;
  status: "completed" | "failed";
  output: string;
}

/**
 * The output of a call the world refused or the case does not allow: `{"error": {"code", "message"}}`.
 * A function_call_output carries no status on the wire, so this shape is how a refusal reads on the far
 * side (a backend behind GPT-Live's managed delegation sees only the output).
 */
export function refusalOutput(error: { code: string; message: string }): string {
  return JSON.stringify({ error: { code: error.code, message: error.message } });
}

/** Whether a parsed tool output is a refusal as `refusalOutput` writes it: its one key `error`, with a code and a message. */
export function isRefusal(output: unknown): boolean {
  if (typeof output !== "object" || output === null || Array.isArray(output)) return false;
  const keys = Object.keys(output);
  const error = (output as { error?: unknown }).error;
  return keys.length === 1 && keys[0] === "error" && typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string" && typeof (error as { message?: unknown }).message === "string";
}

/** A tool call a target executed itself, as it reported it: its identity. */
export interface ReportedToolCall {
  call_id: string;
  name: string;
  /** Parsed arguments; null when they are not a JSON object. */
  arguments: Record<string, Json> | null;
  raw_arguments: string;
  delegation_id?: string;
}

/**
 * Evidence a target reports about itself instead of the harness observing it (a separately running
 * client-delegation service executes its own tools against its own state, docs/remote-assistant.md):
 * recorded as reported by the target, never as what crashlab's world observed.
 */
export type TargetReport =
  /** The session: whether the service received the scenario's initial state, and the state it then reported. */
  | { kind: "session"; fixture: "applied" | "not_accepted" | "not_needed"; application_state?: Json }
  | ({ kind: "tool.called" } & ReportedToolCall)
  /** A call's result and the application state the service reported after it. */
  | ({ kind: "tool.result"; status: "completed" | "failed"; output?: Json; error?: { code: string; message: string }; application_state?: Json } & ReportedToolCall);

/** The harness side of a session, handed to the adapter. The only door from the target to the world. */
export interface SessionIO {
  clock: Clock;
  emit(event: AgentEvent): void;
  /** Execute one tool call through the world; the harness records it. Refused past the tool-call limit. */
  callTool(request: ToolCallRequest): Promise<ToolReply>;
  /** Count one provider request (backend or model call) against the trial limit; throws LimitExceeded past it. */
  countProviderRequest(kind: string): void;
  /**
   * Evidence the target reports about itself (its own tool calls and state): recorded as reported by the
   * target; a reported call counts against the tool-call limit. Absent where a harness keeps no such evidence.
   */
  report?(evidence: TargetReport): void;
  /**
   * The scenario's initial application state (a copy) and the trial's seed, for a target that holds its own
   * application state and is provisioned per session (a client-delegation service that accepts fixtures,
   * docs/remote-assistant.md). Never anything evaluator-only; a target that reaches the world through
   * `callTool` has no use for it.
   */
  fixture?(): { initial_state: Record<string, unknown>; seed: number; session_label: string; context?: { summary?: string } };
  signal: AbortSignal;
}

/** The caller's turn for text-level targets. Audio targets get paced PCM chunks through `sendAudio`. */
export type CallerInput = { kind: "text"; text: string };

/** What the target is reached with: the caller's words as text, or caller audio (PCM16, 24 kHz mono). */
export type InputKind = "text" | "audio";

export interface SessionReport {
  /** Cumulative frontend seconds (GPT-Live `usage.seconds`), when the target reports one. */
  frontend_seconds?: number;
  closed_cleanly: boolean;
  close_reason?: string;
}

export interface TargetSession {
  /** Text targets: deliver the caller's turn and resolve once the target has finished responding to it. */
  respond?(input: CallerInput): Promise<void>;
  /**
   * Audio targets: one chunk of caller PCM16 (24 kHz mono, 20 ms). Must not block: the harness paces
   * the stream on its clock and infers completion from the events (docs/audio-and-metrics.md).
   */
  sendAudio?(chunk: Uint8Array): void;
  /**
   * Offline simulator-backed sessions only (RUN): the words of caller audio about to be sent in this
   * session, because no speech recognizer ships offline. The harness passes what the simulated caller
   * says (never anything evaluator-only); nothing crosses the wire, live sessions ignore it.
   */
  announceCallerAudio?(audio: { pcm: Uint8Array; text: string }): void;
  /** RUN, assistant-first: ask the assistant to open the call (the prompt is the target's own configuration). */
  open?(prompt: string): void;
  close(): Promise<SessionReport>;
}

/** Target configuration as data: what the provenance digest covers. */
export interface TargetDescriptor {
  kind: string;
  model?: string;
  backend_model?: string;
  instructions: string;
  /** The reasoning backend's own instructions, where it has any (GPT-Live delegation). */
  backend_instructions?: string;
  /** Tool names, for reading; the digest covers each tool's whole declaration, as the session sends it. */
  tools: string[];
  voice?: string;
  delegation?: DelegationMode;
  endpoint?: string;
  /** Anything else that defines the target (policy name and version, fault variant, settings). */
  settings?: Record<string, Json>;
}

export interface TargetAdapter {
  readonly kind: string;
  /** Which caller inputs the adapter accepts. */
  readonly accepts: ReadonlyArray<InputKind>;
  describe(): TargetDescriptor;
  /** The instructions, voice, delegation mode and tools the session starts with. */
  session(): Omit<SessionRequest, "session_label" | "context" | "caller_audio">;
  /** The offline policy that drives it, when one does: what `crashlab serve-assistant` serves as a client-delegation service. */
  readonly policy?: AssistantPolicy;
  start(request: SessionRequest, io: SessionIO): Promise<TargetSession>;
}
