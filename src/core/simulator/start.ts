/** Starting a simulated session: what `session.start` must satisfy beyond the schema, and the conversation it opens with. */
import { CONTEXT_SUMMARY_HEADING, GPT_LIVE_MODEL, checkSessionConfig, type SessionConfig } from "../live/protocol";
import type { ConfigIssue } from "../live/errors";
import type { HistoryMessage } from "../target/types";
import { estimateTokens } from "./usage";

const MAX_INPUT_TOKENS = 8_192;

/** What the service (and this simulator) refuse beyond the schema. */
export function startProblem(session: SessionConfig, models: readonly string[] | undefined): ConfigIssue | undefined {
  const issues = checkSessionConfig(session);
  if (issues.length > 0) return issues[0];
  const served = models ?? [GPT_LIVE_MODEL];
  if (!served.includes(session.model)) {
    return { path: "model", code: "invalid_value", message: `model "${session.model}" is not served by the Live endpoint; use ${served.join(" or ")}` };
  }
  const format = session.audio?.format;
  if (format && !(format.type === "audio/pcm" && (format.rate ?? 24_000) === 24_000)) {
    const path = format.type === "audio/pcm" ? "audio.format.rate" : "audio.format.type";
    return { path, code: "invalid_value", message: `the local simulator speaks audio/pcm at 24000 Hz only, got ${format.type} at ${format.rate ?? "default"} Hz` };
  }
  const historyTokens = (session.input ?? []).reduce((sum, m) => sum + m.content.reduce((s, part) => s + estimateTokens(part.text), 0), 0);
  if (historyTokens > MAX_INPUT_TOKENS) {
    return { path: "input", code: "invalid_value", message: `input history is about ${historyTokens} tokens; at most ${MAX_INPUT_TOKENS} are accepted` };
  }
  const tools = session.delegation?.type === "responses" ? (session.delegation.responses?.tools ?? []) : [];
  const names = tools.flatMap((t) => (t.type === "function" && "name" in t ? [String(t.name)] : []));
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate) return { path: "delegation.responses.tools", code: "invalid_value", message: `tool "${duplicate}" is declared twice` };
  return undefined;
}

/** What the simulated assistant knows of the conversation: the frontend and the backend both read it. */
export interface Conversation {
  /** Prior turns from `session.input`. */
  readonly history: HistoryMessage[];
  /** Authorized context the application put into the instructions (the way GPT-Live receives a summary). */
  readonly summary: string | undefined;
  /** The turns of this session, both sides. */
  readonly turns: HistoryMessage[];
}

export function conversationOf(session: SessionConfig): Conversation {
  return { history: historyOf(session), summary: contextSummaryOf(session.instructions ?? ""), turns: [] };
}

/**
 * The simulated model reads its instructions; the one thing the offline policy needs from them is the
 * authorized context summary, which the adapter appends under CONTEXT_SUMMARY_HEADING.
 */
function contextSummaryOf(instructions: string): string | undefined {
  const at = instructions.lastIndexOf(CONTEXT_SUMMARY_HEADING);
  if (at < 0) return undefined;
  const summary = instructions.slice(at + CONTEXT_SUMMARY_HEADING.length).trim();
  return summary || undefined;
}

/** Prior text turns from `session.input` as policy history (developer messages are instructions, not turns). */
function historyOf(session: SessionConfig): HistoryMessage[] {
  const history: HistoryMessage[] = [];
  for (const message of session.input ?? []) {
    if (message.role === "developer") continue;
    history.push({ role: message.role, text: message.content.map((part) => part.text).join(" ") });
  }
  return history;
}
