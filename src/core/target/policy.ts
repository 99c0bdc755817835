/** The assistant policy: the protocol-free brain an offline target runs, seeing only what a real assistant would. */

import type { CallerContext, HistoryMessage } from "./caller-context";

/**
 * An assistant policy is the protocol-free brain of an offline target: the same policy drives the
 * in-process text target and (later) the local GPT-Live simulator, so both behave identically.
 * It sees only what a real assistant would: the caller's words, authorized context and tool replies.
 */
export interface PolicyTurn {
  /** What the caller said in this turn. */
  request: string;
  context?: CallerContext;
}

/** The voice frontend's decision for a turn. */
export type FrontendDecision =
  /** Answer directly, without the backend: public facts, a clarifying question, a refusal. An empty text says nothing. */
  | { kind: "reply"; text: string }
  /** Hand the turn to the reasoning backend; the acknowledgement is spoken meanwhile. */
  | { kind: "delegate"; acknowledgement?: string };

export interface BackendTask {
  /** The caller's current request, as rebuilt from the transcript. */
  request: string;
  context?: CallerContext;
  /** The conversation so far as text (history first, then this session's turns). */
  transcript: HistoryMessage[];
}

export interface PolicyToolResult {
  status: "completed" | "failed";
  /** The parsed tool output (a copy; mutating it changes nothing). */
  output: unknown;
}

export interface PolicyTools {
  call(name: string, args: Record<string, unknown>): Promise<PolicyToolResult>;
}

export interface BackendResult {
  /** What the frontend should say with the backend's result. */
  reply: string;
}

export interface AssistantPolicy {
  name: string;
  version: string;
  /**
   * Whether the assistant stops speaking when the caller talks over it (barge-in), as a real voice agent
   * does. Default true. `false` models an assistant that talks through the caller and never takes in what
   * they said meanwhile; the local simulator honours it.
   */
  yields_to_interruptions?: boolean;
  frontend(turn: PolicyTurn): FrontendDecision;
  /** What the assistant says when asked to open a call (RUN, assistant-first); a generic greeting when absent. */
  greeting?(): string;
  backend(task: BackendTask, tools: PolicyTools): Promise<BackendResult>;
}
