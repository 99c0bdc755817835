import type { AssistantPolicy, BackendTask, FrontendDecision, HistoryMessage, PolicyTools, PolicyTurn } from "crashlab/alpha";
import { DEFAULT_GREETING } from "../../src/core/simulator/session";

/**
 * A policy wrapper that changes what the assistant says (and optionally how it calls tools) while its
 * decisions stay the base policy's. The base reads its own earlier lines back by their wording
 * (examples/restaurant/conversation.ts), so every line the wrapper spoke is mapped back to the line the
 * base produced before the base sees the conversation again.
 */

export type Where = "greeting" | "reply" | "acknowledgement" | "backend";

export interface Rewriter {
  /** What the assistant says instead of `original` (the base's line). Return `original` to keep it. */
  say(original: string, where: Where): string;
  /** Optional: replace the frontend's decision (the base's, for a turn whose context is already restored). */
  frontend?(turn: PolicyTurn, decision: FrontendDecision, spoken: SpokenLines): FrontendDecision;
  /** Optional: replace the backend's reply. */
  backendReply?(task: BackendTask, reply: string): string;
  /** Optional: the tools the base's backend calls through. */
  tools?(tools: PolicyTools): PolicyTools;
}

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** The wrapper's own lines and what the base had said in their place. */
export class SpokenLines {
  /** Spoken segment → the base's segment ("" for an added segment). */
  private readonly back = new Map<string, string>();
  /** Segments spoken for two different base lines: the mapping back would be ambiguous. */
  readonly conflicts: string[] = [];

  /** Record that `spoken` stood for `original`; `spoken` may be a whole line or one sentence of it. */
  remember(spoken: string, original: string): void {
    const key = squash(spoken);
    if (!key || key === squash(original)) return;
    const known = this.back.get(key);
    if (known !== undefined && known !== squash(original)) this.conflicts.push(`"${key}" ← "${known}" and "${squash(original)}"`);
    this.back.set(key, squash(original));
  }

  /** Whether this exact line (or sentence) was one the wrapper spoke in place of another. */
  spoke(text: string): boolean {
    return this.back.has(squash(text));
  }

  /** An assistant text as the base had it: every remembered segment in it replaced, longest first. */
  restore(text: string): string {
    let out = squash(text);
    const whole = this.back.get(out);
    if (whole !== undefined) return whole;
    for (const key of [...this.back.keys()].sort((a, b) => b.length - a.length)) if (out.includes(key)) out = out.split(key).join(this.back.get(key)!);
    return squash(out);
  }

  restoreHistory(history: readonly HistoryMessage[]): HistoryMessage[] {
    return history.map((m) => (m.role === "assistant" ? { ...m, text: this.restore(m.text) } : m));
  }
}

export function rewritingPolicy(base: AssistantPolicy, variant: string, rewriter: Rewriter): AssistantPolicy & { lines: SpokenLines } {
  const lines = new SpokenLines();
  const say = (original: string, where: Where) => {
    const spoken = rewriter.say(original, where);
    lines.remember(spoken, original);
    return spoken;
  };
  return {
    name: `${base.name}~${variant}`,
    version: base.version,
    lines,
    ...(base.yields_to_interruptions !== undefined ? { yields_to_interruptions: base.yields_to_interruptions } : {}),
    greeting: () => say(base.greeting?.() ?? DEFAULT_GREETING, "greeting"),
    frontend(turn: PolicyTurn): FrontendDecision {
      const restored: PolicyTurn = turn.context ? { ...turn, context: { ...turn.context, history: lines.restoreHistory(turn.context.history ?? []) } } : turn;
      let decision = base.frontend(restored);
      if (rewriter.frontend) decision = rewriter.frontend(restored, decision, lines);
      if (decision.kind === "reply") return decision.text.trim() ? { kind: "reply", text: say(decision.text, "reply") } : decision;
      return decision.acknowledgement ? { kind: "delegate", acknowledgement: say(decision.acknowledgement, "acknowledgement") } : decision;
    },
    async backend(task: BackendTask, tools: PolicyTools) {
      const restored: BackendTask = {
        ...task,
        transcript: lines.restoreHistory(task.transcript),
        ...(task.context ? { context: { ...task.context, history: lines.restoreHistory(task.context.history ?? []) } } : {}),
      };
      const { reply } = await base.backend(restored, rewriter.tools ? rewriter.tools(tools) : tools);
      const final = rewriter.backendReply ? rewriter.backendReply(restored, reply) : reply;
      return { reply: final.trim() ? say(final, "backend") : final };
    },
  };
}
