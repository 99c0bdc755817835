/** The caller's authorized context from earlier turns: what a target and its policy may know of them. */

export interface HistoryMessage {
  role: "user" | "assistant";
  text: string;
}

/** Authorized context from earlier turns: the only scenario data besides the caller's words that reaches a target. */
export interface CallerContext {
  summary?: string;
  history?: HistoryMessage[];
}
