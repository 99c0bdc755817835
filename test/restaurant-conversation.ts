/**
 * A whole restaurant conversation at the policy level, for tests: a scripted caller that follows a RUN
 * scenario's agenda by the offline caller's rule (src/core/caller: the same trigger functions and the
 * same order of decisions), the policy's two halves called as the local simulator calls them (the
 * frontend with the growing history, the backend with the transcript), and a real restaurant world
 * executing the tools.
 *
 * No audio and no clock: an assistant turn is the text the policy produced; "while it is still speaking"
 * is modelled as the growing prefix of that text, word by word. Barge-in follows the simulator: a policy
 * that yields takes the caller's words as its next turn; one with `yields_to_interruptions: false` talks
 * on and never takes them in. The RUN engine itself (audio, relay, timing) is tested by its own suite.
 */
import { createWorld, type AssistantPolicy, type HistoryMessage, type Json, type PolicyToolResult, type World } from "crashlab/alpha";
import { restaurantWorld, type RestaurantState } from "../crashlab/worlds/restaurant";
import type { Scenario } from "../src/core/dataset/schema";
import { bestTrigger, isQuestion, isRefusal } from "../src/core/caller/triggers";
import type { ProcedureResult, ToolExecution, Turn } from "../src/core/record/trial-record";
import { gradeProcedure } from "../src/core/verify/procedure";

type AgendaItem = NonNullable<Scenario["simulation_parameters"]>["agenda"][number];

// ---- the offline caller's rule (src/core/caller: its trigger functions, its decision order) -----------

/**
 * The decisions of src/core/caller/offline-caller.ts without audio or a clock: the same trigger functions,
 * the same order (a matched item; else, after a question, the next required answer or correction, or a
 * finish item; else, with the agenda done, a plain goodbye after a question or a refusal).
 */
export class ScriptedCaller {
  readonly done = new Set<string>();
  finished = false;

  constructor(private readonly agenda: readonly AgendaItem[]) {}

  private eligible(): AgendaItem[] {
    return this.agenda.filter((i) => !this.done.has(i.id) && i.after.every((a) => this.done.has(a)));
  }

  /** While the assistant speaks: the interrupt item its words so far trigger, if any. */
  interruptAt(words: string): AgendaItem | undefined {
    return bestTrigger(words, this.eligible().filter((i) => i.action === "interrupt"))?.item;
  }

  /** After an assistant turn settled: what to say now (an item, or the caller's own goodbye), or undefined to wait. */
  respondTo(turn: string): AgendaItem | { closing: string } | undefined {
    const text = turn.trim();
    const speakable = this.eligible().filter((i) => i.action !== "wait" && i.action !== "backchannel");
    const matched = bestTrigger(text, speakable)?.item;
    const owed = speakable.find((i) => i.required && (i.action === "answer" || i.action === "correct"));
    const item = matched ?? (isQuestion(text) ? (owed ?? speakable.find((i) => i.action === "finish")) : undefined);
    if (item) return item;
    const refused = isRefusal(text);
    if (this.agenda.every((i) => !i.required || this.done.has(i.id)) && (isQuestion(text) || refused))
      return { closing: refused ? "Fine. Goodbye." : "No, that's all. Thank you, goodbye." };
    return undefined;
  }

  say(choice: AgendaItem | { closing: string }): { text: string; item: string } {
    if ("closing" in choice) {
      this.finished = true;
      return { text: choice.closing, item: "closing" };
    }
    this.done.add(choice.id);
    if (choice.action === "finish") this.finished = true;
    return { text: choice.response_hint ?? choice.commitment, item: choice.id };
  }
}

// ---- the conversation -------------------------------------------------------------------------------

export interface Execution {
  name: string;
  args: Record<string, Json>;
  outcome: "ok" | "error";
  output?: Json;
  error_code?: string;
  /** The world event it produced. */
  seq: number;
  /** Index into `log` of the assistant turn this execution belongs to. */
  at: number;
}

export interface LogEntry {
  role: "user" | "assistant";
  text: string;
  /** user: the agenda item said (or "opening"); assistant: how it was said. */
  item?: string;
  kind?: "reply" | "acknowledgement" | "result";
  /** A caller line the assistant talked through and never took in. */
  ignored?: boolean;
  /** An assistant turn the caller cut into (the rest was not heard). */
  interrupted?: boolean;
}

export interface Conversation {
  log: LogEntry[];
  executions: Execution[];
  world: World<RestaurantState>;
  caller: ScriptedCaller;
  /** How it ended: the caller said goodbye, or had nothing left to say (a real trial would run out of time). */
  ended: "goodbye" | "stalled" | "turn_limit";
  /** Caller lines chosen on hearing an acknowledgement (the datasets are written so this never happens). */
  answered_acknowledgement: string[];
  /**
   * Turns where hearing the acknowledgement and the result as one text (the caller settles only once when
   * the gap between them is short) would pick another line than hearing the result alone.
   */
  timing_sensitive: string[];
}

export async function converse(policy: AssistantPolicy, scenario: Scenario, options: { seed?: number; maxCallerTurns?: number } = {}): Promise<Conversation> {
  const sim = scenario.simulation_parameters!;
  const world = createWorld(restaurantWorld, { seed: options.seed ?? 7, trial: `${scenario.id}#1`, initialState: scenario.application.initial_state, now: () => 0 });
  const summary = scenario.input.context?.summary;
  const prior: HistoryMessage[] = scenario.input.context?.history ?? [];
  const turns: HistoryMessage[] = [];
  const log: LogEntry[] = [];
  const executions: Execution[] = [];
  const caller = new ScriptedCaller(sim.agenda);
  const answered_acknowledgement: string[] = [];
  const timing_sensitive: string[] = [];
  const context = () => ({ ...(summary ? { summary } : {}), history: [...prior, ...turns] });

  const tools = {
    call: async (name: string, args: Record<string, unknown>): Promise<PolicyToolResult> => {
      const out = world.perform(name, args, { trial: `${scenario.id}#1` });
      executions.push({ name, args: args as Record<string, Json>, outcome: out.outcome, ...(out.outcome === "ok" ? { output: out.result ?? null } : {}), ...(out.error ? { error_code: out.error.code } : {}), seq: out.seq, at: log.length });
      return out.outcome === "ok" ? { status: "completed", output: structuredClone(out.result) } : { status: "failed", output: { error: out.error } };
    },
  };

  let line: { text: string; item: string } | undefined = { text: scenario.input.text, item: "opening" };
  for (let n = 0; n < (options.maxCallerTurns ?? 24); n++) {
    if (!line) return { log, executions, world, caller, ended: "stalled", answered_acknowledgement, timing_sensitive };
    const request = line.text;
    log.push({ role: "user", text: request, item: line.item });
    const decision = policy.frontend({ request, context: context() });
    turns.push({ role: "user", text: request });
    const groups: Array<{ text: string; kind: LogEntry["kind"] }> = [];
    if (decision.kind === "reply") {
      turns.push({ role: "assistant", text: decision.text });
      log.push({ role: "assistant", text: decision.text, kind: "reply" });
      groups.push({ text: decision.text, kind: "reply" });
    } else {
      if (decision.acknowledgement) {
        turns.push({ role: "assistant", text: decision.acknowledgement });
        log.push({ role: "assistant", text: decision.acknowledgement, kind: "acknowledgement" });
        groups.push({ text: decision.acknowledgement, kind: "acknowledgement" });
      }
      const { reply } = await policy.backend({ request, context: { ...(summary ? { summary } : {}), history: prior }, transcript: [...prior, ...turns] }, tools);
      turns.push({ role: "assistant", text: reply });
      log.push({ role: "assistant", text: reply, kind: "result" });
      groups.push({ text: reply, kind: "result" });
    }
    if (caller.finished) return { log, executions, world, caller, ended: "goodbye", answered_acknowledgement, timing_sensitive };

    line = undefined;
    const label = (choice: AgendaItem | { closing: string } | undefined) => (choice === undefined ? "(wait)" : "closing" in choice ? "(goodbye)" : choice.id);
    if (groups.length === 2 && label(caller.respondTo(`${groups[0]!.text} ${groups[1]!.text}`)) !== label(caller.respondTo(groups[1]!.text)))
      timing_sensitive.push(`after "${request}"`);
    let heard = "";
    for (const group of groups) {
      // While it speaks: does an interrupt item fire on the words so far (since the caller last spoke)?
      const words = group.text.split(/\s+/);
      let cut: AgendaItem | undefined;
      let partial = "";
      for (let k = 1; k <= words.length && !cut; k++) {
        partial = `${heard} ${words.slice(0, k).join(" ")}`;
        cut = caller.interruptAt(partial);
      }
      heard = `${heard} ${group.text}`;
      if (cut) {
        const said = caller.say(cut);
        if (policy.yields_to_interruptions === false) {
          log.push({ role: "user", text: said.text, item: said.item, ignored: true });
        } else {
          const spoken = [...log].reverse().find((e) => e.role === "assistant" && e.text === group.text)!;
          spoken.interrupted = true;
          line = said;
          // Once the cut-in is said and the assistant has fallen silent, the caller weighs what it heard
          // before it (as the offline caller does): anything it picks follows straight on, in the same turn.
          const next = caller.respondTo(partial);
          if (next) {
            const more = caller.say(next);
            line = { text: `${said.text} ${more.text}`, item: `${said.item}+${more.item}` };
          }
          break;
        }
      }
      const choice = caller.respondTo(group.text);
      if (!choice) continue;
      if (group.kind === "acknowledgement") answered_acknowledgement.push(label(choice));
      line = caller.say(choice);
      if (group.kind !== "acknowledgement") break;
    }
  }
  return { log, executions, world, caller, ended: "turn_limit", answered_acknowledgement, timing_sensitive };
}

// ---- grading the conversation: the procedure grader of src/core/verify, on a text-level timeline --------

/**
 * Grade the scenario's procedure with the real grader (src/core/verify/procedure.ts) over this
 * conversation. Times are synthetic but ordered: log entry i speaks from i s to i s + 0.8 s, and the
 * tools of a delegation run one after another just before the result they are reported in.
 */
export function gradeConversation(conversation: Conversation, scenario: Scenario): ProcedureResult | null {
  const { log, executions, world } = conversation;
  const turns: Turn[] = log.map((e, i) => ({ role: e.role, text: e.text, start_ms: i * 1000, end_ms: i * 1000 + 800 }));
  // Several tools in one delegation run one after another, all before the result is spoken.
  const within = executions.map((e, n) => executions.slice(0, n).filter((x) => x.at === e.at).length);
  const tool_executions: ToolExecution[] = executions.map((e, n) => ({
    call_id: `call_${n + 1}`,
    name: e.name,
    arguments: e.args,
    raw_arguments: JSON.stringify(e.args),
    status: e.outcome === "ok" ? "completed" : "failed",
    ...(e.outcome === "ok" ? { output: e.output ?? null } : { error: { code: e.error_code ?? "error", message: e.error_code ?? "error" } }),
    requested_ms: e.at * 1000 - 150 + within[n]! * 20,
    completed_ms: e.at * 1000 - 140 + within[n]! * 20,
    world_seq: e.seq,
  }));
  return gradeProcedure(scenario.expected.procedure, {
    turns,
    tool_executions,
    world: { initial: world.initial, final: world.state(), view: world.view(), diff: world.diff() },
    prohibited: scenario.expected.tools.prohibited,
  });
}

/** Each procedure step's status and rationale, by step id. */
export function procedureEvidence(conversation: Conversation, scenario: Scenario): Record<string, { status: "passed" | "failed"; rationale: string }> {
  const graded = gradeConversation(conversation, scenario);
  return Object.fromEntries((graded?.steps ?? []).map((s) => [s.id, { status: s.status, rationale: s.rationale }]));
}
