/**
 * The variant wrapper: an assistant policy around the package's own, which changes what the assistant
 * says and does while every decision it does not change stays the base policy's. A base policy reads its
 * own earlier lines back, so every line the wrapper spoke in place of a base line is mapped back before the
 * base sees the conversation again; lines the wrapper added (and the caller's answers to them) are taken out.
 */
import type { AssistantPolicy, BackendResult, BackendTask, FrontendDecision, PolicyTools, PolicyTurn } from "../target/policy";
import type { HistoryMessage } from "../target/caller-context";
import { DEFAULT_GREETING } from "../simulator/session";

/** Where a line is said: the greeting, a direct reply, the acknowledgement of a delegation, the backend's result. */
export type Where = "greeting" | "reply" | "acknowledgement" | "backend";

const squash = (text: string) => text.replace(/\s+/g, " ").trim();

/** The lines the wrapper spoke and what the base had in their place ("" for a line the wrapper added). */
export class SpokenLines {
  private readonly back = new Map<string, string>();
  /** Caller lines the base hears otherwise ("" : not at all), each right after the assistant line it answers. */
  private readonly heard: Array<{ after: string; said: string; as: string }> = [];
  /** Segments spoken for two different base lines: the mapping back would be ambiguous. */
  readonly conflicts: string[] = [];

  /** `spoken` stood for `original` (a whole line or one sentence of it). */
  remember(spoken: string, original: string): void {
    const key = squash(spoken);
    if (!key || key === squash(original)) return;
    const known = this.back.get(key);
    if (known !== undefined && known !== squash(original)) this.conflicts.push(`"${key}" ← "${known}" and "${squash(original)}"`);
    this.back.set(key, squash(original));
  }

  /** The caller's `said`, answering the assistant line `after` (as spoken), is heard by the base as `asHeard` ("" : not at all). */
  rehear(said: string, asHeard: string, after: string): void {
    this.heard.push({ after: squash(after), said: squash(said), as: squash(asHeard) });
  }

  /** An assistant text as the base had it: every remembered segment replaced, longest first. */
  restore(text: string): string {
    let out = squash(text);
    const whole = this.back.get(out);
    if (whole !== undefined) return whole;
    for (const key of [...this.back.keys()].sort((a, b) => b.length - a.length)) if (key && out.includes(key)) out = out.split(key).join(this.back.get(key)!);
    return squash(out);
  }

  /** A caller's line as the base hears it, given the assistant line (as spoken) it follows. */
  hear(text: string, after: string | undefined): string {
    const said = squash(text);
    const before = squash(after ?? "");
    const found = this.heard.find((h) => h.said === said && h.after !== "" && before.includes(h.after));
    return found ? found.as : text;
  }

  /** The conversation as the base would have had it: lines mapped back, added lines and their answers left out. */
  restoreHistory(history: readonly HistoryMessage[]): HistoryMessage[] {
    const out: HistoryMessage[] = [];
    let last: string | undefined;
    for (const m of history) {
      const text = m.role === "assistant" ? this.restore(m.text) : this.hear(m.text, last);
      if (m.role === "assistant") last = m.text;
      if (text === "") continue;
      out.push({ ...m, text });
    }
    return out;
  }

  /** The caller's current request as the base hears it: after the assistant line that precedes it in `messages`. */
  hearRequest(request: string, messages: readonly HistoryMessage[]): string {
    const at = messages.map((m) => m.role === "user" && squash(m.text) === squash(request)).lastIndexOf(true);
    const end = at >= 0 ? at : messages.length;
    const before = [...messages.slice(0, end)].reverse().find((m) => m.role === "assistant");
    return this.hear(request, before?.text);
  }
}

/** What the wrapper hands an operator's hooks: the line map, the base policy, the last assistant line as spoken. */
export interface WrapperControl {
  lines: SpokenLines;
  base: AssistantPolicy;
  /** The assistant's last line before the caller's current turn, as it was spoken (frontend hooks only). */
  lastSpoken?: string;
}

export interface Rewriter {
  /** What the assistant says instead of the base's `original` line (identity when absent). */
  say?(original: string, where: Where): string;
  /** Replace the frontend's decision; `turn` is already restored (the base's view). */
  frontend?(turn: PolicyTurn, decision: FrontendDecision, control: WrapperControl): FrontendDecision;
  /** Run the backend; `base` runs the base's backend (with the tools given to it). */
  backend?(task: BackendTask, tools: PolicyTools, base: (task: BackendTask, tools: PolicyTools) => Promise<BackendResult>, control: WrapperControl): Promise<BackendResult>;
}

/** The base policy wrapped: its name gains `~label`, so the target's descriptor says which variant ran. */
export function rewritingPolicy(base: AssistantPolicy, label: string, rewriter: Rewriter): AssistantPolicy & { lines: SpokenLines } {
  const lines = new SpokenLines();
  const control: WrapperControl = { lines, base };
  const lastAssistant = (history: readonly HistoryMessage[] | undefined) => [...(history ?? [])].reverse().find((m) => m.role === "assistant")?.text;
  const say = (original: string, where: Where) => {
    if (!rewriter.say || !original.trim()) return original;
    const spoken = rewriter.say(original, where);
    lines.remember(spoken, original);
    return spoken;
  };
  const restoreTurn = (turn: PolicyTurn): PolicyTurn => ({
    ...turn,
    request: lines.hear(turn.request, lastAssistant(turn.context?.history)),
    ...(turn.context ? { context: { ...turn.context, history: lines.restoreHistory(turn.context.history ?? []) } } : {}),
  });
  return {
    name: `${base.name}~${label}`,
    version: base.version,
    lines,
    ...(base.yields_to_interruptions !== undefined ? { yields_to_interruptions: base.yields_to_interruptions } : {}),
    greeting: () => say(base.greeting?.() ?? DEFAULT_GREETING, "greeting"),
    frontend(turn: PolicyTurn): FrontendDecision {
      const restored = restoreTurn(turn);
      let decision = base.frontend(restored);
      if (rewriter.frontend) decision = rewriter.frontend(restored, decision, { ...control, ...(turn.context?.history ? { lastSpoken: lastAssistant(turn.context.history) ?? "" } : {}) });
      if (decision.kind === "reply") return decision.text.trim() ? { kind: "reply", text: say(decision.text, "reply") } : decision;
      return decision.acknowledgement ? { kind: "delegate", acknowledgement: say(decision.acknowledgement, "acknowledgement") } : decision;
    },
    async backend(task: BackendTask, tools: PolicyTools): Promise<BackendResult> {
      const restored: BackendTask = {
        ...task,
        request: lines.hearRequest(task.request, task.transcript.length > 0 ? task.transcript : (task.context?.history ?? [])),
        transcript: lines.restoreHistory(task.transcript),
        ...(task.context ? { context: { ...task.context, history: lines.restoreHistory(task.context.history ?? []) } } : {}),
      };
      const runBase = (t: BackendTask, ts: PolicyTools) => base.backend(t, ts);
      const { reply } = rewriter.backend ? await rewriter.backend(restored, tools, runBase, control) : await runBase(restored, tools);
      return { reply: reply.trim() ? say(reply, "backend") : reply };
    },
  };
}
