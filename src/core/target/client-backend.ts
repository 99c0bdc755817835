/**
 * What an application's client-delegation backend works from, the same wherever it runs (in crashlab's
 * GPT-Live adapter or in the reference client-delegation service): the conversation rebuilt from the
 * transcript deltas it observed, the task handed to a policy's backend, and the commentary a reply is
 * returned in.
 */
import type { BackendTask } from "./policy";
import type { CallerContext, HistoryMessage } from "./types";

/**
 * The conversation as a client backend sees it: the authorized history it started with, then each
 * transcript delta appended to the turn of its role (a new turn when the role changes). A client
 * delegation carries no task text, so the request is rebuilt from this.
 */
export class ObservedTranscript {
  private readonly messages: HistoryMessage[];
  private readonly historyLength: number;

  constructor(history: readonly HistoryMessage[] = []) {
    this.messages = history.map((m) => ({ role: m.role, text: m.text }));
    this.historyLength = this.messages.length;
  }

  append(role: "user" | "assistant", delta: string): void {
    const last = this.messages[this.messages.length - 1];
    if (last && last.role === role && this.messages.length > this.historyLength) last.text = `${last.text}${delta}`;
    else this.messages.push({ role, text: delta.trim() });
  }

  /** The backend's task now: the caller's latest words as the request, the context, the whole transcript. */
  task(context?: CallerContext): BackendTask {
    const lastUser = [...this.messages].reverse().find((m) => m.role === "user");
    return { request: lastUser?.text.trim() ?? "", ...(context ? { context } : {}), transcript: this.messages.map((m) => ({ role: m.role, text: m.text.trim() })) };
  }
}

/** Most characters per commentary append: well under the 500-token limit of one append, whatever the text. */
export const MAX_COMMENTARY_CHARS = 1200;

/** `text` in parts of at most MAX_COMMENTARY_CHARS, split after a sentence or word where possible; one part when it fits. */
export function commentaryParts(text: string): string[] {
  const parts: string[] = [];
  let rest = text;
  while (rest.length > MAX_COMMENTARY_CHARS) {
    const window = rest.slice(0, MAX_COMMENTARY_CHARS);
    const sentence = Math.max(window.lastIndexOf(". "), window.lastIndexOf("? "), window.lastIndexOf("! "));
    const cut = sentence > MAX_COMMENTARY_CHARS / 2 ? sentence + 1 : window.lastIndexOf(" ") > 0 ? window.lastIndexOf(" ") : MAX_COMMENTARY_CHARS;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trimStart();
  }
  if (rest || parts.length === 0) parts.push(rest);
  return parts;
}

/** A tool output as the policy reads it: parsed JSON, or the text itself when it is not JSON. */
export function parseToolOutput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
