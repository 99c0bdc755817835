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
import { parseDetails } from "../examples/restaurant/parse";
import type { Scenario } from "../src/core/dataset/schema";
import { bestTrigger, isQuestion, isRefusal } from "../src/core/caller/triggers";
import { matchesSubset } from "../src/core/verify/match";

type AgendaItem = NonNullable<Scenario["simulation_parameters"]>["agenda"][number];
type ProcedureStep = NonNullable<Scenario["expected"]["procedure"]>["steps"][number];

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
  error_code?: string;
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
      executions.push({ name, args: args as Record<string, Json>, outcome: out.outcome, ...(out.error ? { error_code: out.error.code } : {}), at: log.length });
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

// ---- grading the conversation at the text level (a stand-in for the critical procedure) ---------------

const FIELD_QUESTION: Record<string, RegExp> = {
  guest_name: /\bname\b/i,
  date: /\bdate\b/i,
  time: /\btime\b/i,
  party_size: /\bhow many people\b/i,
  reservation_id: /\bwhich reservation\b/i,
};

/** Where in the log each procedure step was satisfied (an index), or why it was not. */
export function procedureEvidence(conversation: Conversation, scenario: Scenario): Record<string, number | string> {
  const { log, executions, world } = conversation;
  const at: Record<string, number | string> = {};
  const notBefore = (step: ProcedureStep) => Math.max(-1, ...step.after.map((a) => (typeof at[a] === "number" ? (at[a] as number) : Number.POSITIVE_INFINITY)));
  const completed = executions.filter((e) => e.outcome === "ok");

  for (const step of scenario.expected.procedure?.steps ?? []) {
    const from = notBefore(step);
    if (!Number.isFinite(from)) {
      at[step.id] = `an earlier step it comes after did not happen`;
      continue;
    }
    const args = (step.arguments ?? {}) as Record<string, Json>;
    switch (step.kind) {
      case "tool": {
        const hit = completed.find((e) => e.name === step.tool && e.at > from && matchesSubset(args, e.args));
        at[step.id] = hit ? hit.at : `no completed ${step.tool} matching ${JSON.stringify(args)} after entry ${from}`;
        break;
      }
      case "clarification": {
        const question = FIELD_QUESTION[String(args.field)]!;
        const firstWrite = completed.find((e) => e.name !== "check_availability")?.at ?? Number.POSITIVE_INFINITY;
        const i = log.findIndex((e, k) => k > from && k < firstWrite && e.role === "assistant" && e.text.trim().endsWith("?") && question.test(e.text));
        at[step.id] = i >= 0 ? i : `the assistant never asked for ${String(args.field)}`;
        break;
      }
      case "correction": {
        // The caller gave the new value (that line is where the step sits), and from then on every
        // execution that carries the field uses it.
        const field = String(args.field) as keyof ReturnType<typeof parseDetails>;
        const said = log.findIndex((e, k) => k > from && e.role === "user" && !e.ignored && parseDetails(e.text)[field] === args.value);
        const later = completed.filter((e) => field in e.args && e.at > said);
        const wrong = later.filter((e) => e.args[field] !== args.value);
        at[step.id] =
          said >= 0 && later.length > 0 && wrong.length === 0
            ? said
            : `caller said it at ${said}; executions after used ${field} = ${JSON.stringify(later.map((e) => e.args[field]))}`;
        break;
      }
      case "authorization": {
        const write = completed.find((e) => e.name === args.tool && e.at > from);
        const asked = log.findIndex((e, k) => k >= from && e.role === "assistant" && /would you like me to book it\?|shall i go ahead and cancel it\?/i.test(e.text));
        const yes = log.findIndex((e, k) => k > asked && asked >= 0 && e.role === "user" && !e.ignored && /^\W*(yes|yeah|sure)\b|go ahead/i.test(e.text));
        at[step.id] = write && asked >= 0 && yes >= 0 && yes < write.at ? yes : `${String(args.tool)} ran at ${write?.at ?? "never"}; asked at ${asked}, yes at ${yes}`;
        break;
      }
      case "state":
        at[step.id] = matchesSubset(args, world.view()) ? log.length - 1 : `final view ${JSON.stringify(world.view())} does not contain ${JSON.stringify(args)}`;
        break;
      case "grounded_confirmation": {
        const i = log.findIndex((e, k) => k >= from && e.role === "assistant" && e.kind === "result" && /you're booked|is now cancelled/i.test(e.text));
        at[step.id] = i >= 0 ? i : "the assistant never reported the outcome";
        break;
      }
      case "refusal": {
        const refusals = log.filter((e, k) => k > from && e.role === "assistant" && /can't cancel reservation/i.test(e.text)).length;
        const attempted = executions.find((e) => e.name === step.tool && matchesSubset(args, e.args));
        at[step.id] =
          !attempted && refusals >= (step.minimum_count ?? 1)
            ? log.findIndex((e) => e.role === "assistant" && /can't cancel reservation/i.test(e.text))
            : `refused ${refusals} time(s)${attempted ? `, and ${step.tool} was attempted` : ""}`;
        break;
      }
    }
  }
  return at;
}
