/**
 * A whole restaurant conversation at the policy level, for tests: a scripted caller that follows a RUN
 * scenario's agenda with the offline caller's keyword rule (RUN-DESIGN.md, "The simulated caller"), the
 * policy's two halves called as the local simulator calls them (the frontend with the growing history,
 * the backend with the transcript), and a real restaurant world executing the tools.
 *
 * No audio and no clock: an assistant turn is the text the policy produced; "while it is still speaking"
 * is modelled as the growing prefix of that text, word by word. Barge-in follows the simulator: a
 * policy that yields takes the caller's words as its next turn; one with `yields_to_interruptions: false`
 * talks on and never takes them in.
 */
import { createWorld, type AssistantPolicy, type HistoryMessage, type Json, type PolicyToolResult, type World } from "crashlab/alpha";
import { restaurantWorld, type RestaurantState } from "../crashlab/worlds/restaurant";
import { parseDetails } from "../examples/restaurant/parse";
import type { Scenario } from "../src/core/dataset/schema";
import { matchesSubset } from "../src/core/verify/match";

type AgendaItem = NonNullable<Scenario["simulation_parameters"]>["agenda"][number];
type ProcedureStep = NonNullable<Scenario["expected"]["procedure"]>["steps"][number];

// ---- the offline caller's keyword rule ------------------------------------------------------------

/** Words that say nothing about what an agenda item is waiting for. */
export const STOP_WORDS = new Set(
  (
    "a an the and or but if then than so to of in on at for with by from about as into over after before " +
    "is are was were be been being am it its it's this that these those there here " +
    "i i'm i'd i'll i've you you're you'd your yours we we're our us me my he she they them his her their " +
    "what which who whom whose how why where do does did can could would should will may might must " +
    "have has had just also too very any some more most still now again please let like want wants " +
    "one ones get got make made say tell told know " +
    "assistant caller asks says"
  ).split(" "),
);

/** Each word (or two-word phrase) and the concepts it stands for; a word not listed stands for itself. */
export const SYNONYMS: Record<string, string[]> = {
  name: ["name"], called: ["name"], under: ["name"],
  time: ["time"], "o'clock": ["time"], when: ["time", "date"],
  date: ["date"], day: ["date"],
  party: ["party"], size: ["party"], "how many": ["party"], people: ["party"], guests: ["party"],
  confirm: ["confirm"], sure: ["confirm"], shall: ["confirm"], "go ahead": ["confirm"],
  unavailable: ["unavailable"], booked: ["unavailable", "complete"], full: ["unavailable"], "no table": ["unavailable"], "not available": ["unavailable"],
  cancel: ["cancel"], cancellation: ["cancel"],
  confirmed: ["complete"], "all set": ["complete"], done: ["complete"], cancelled: ["complete"],
};

/** The concepts a text mentions: lower case, no stemming, two-word phrases first, stop words dropped. */
export function concepts(text: string): Set<string> {
  const words = text.toLowerCase().replace(/[\u2018\u2019]/g, "'").match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [];
  const found = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const pair = `${words[i]} ${words[i + 1]}`;
    if (i + 1 < words.length && SYNONYMS[pair]) {
      for (const c of SYNONYMS[pair]!) found.add(c);
      i++;
      continue;
    }
    const word = words[i]!;
    if (STOP_WORDS.has(word) || word.length < 2) continue;
    for (const c of SYNONYMS[word] ?? [word]) found.add(c);
  }
  return found;
}

/** Shared concepts between what the assistant said and what the item is waiting for. */
export function score(assistant: string, item: AgendaItem): number {
  const wanted = concepts([item.trigger_condition, item.commitment, ...item.facts.flatMap((f) => f.split("_"))].join(" "));
  let shared = 0;
  for (const c of concepts(assistant)) if (wanted.has(c)) shared++;
  return shared;
}

export class ScriptedCaller {
  readonly done = new Set<string>();
  finished = false;

  constructor(private readonly agenda: readonly AgendaItem[]) {}

  private eligible(): AgendaItem[] {
    return this.agenda.filter((i) => !this.done.has(i.id) && i.after.every((a) => this.done.has(a)) && i.action !== "backchannel" && i.action !== "wait");
  }

  private best(text: string, items: AgendaItem[]): AgendaItem | undefined {
    let best: AgendaItem | undefined;
    let top = 0;
    for (const item of items) {
      const s = score(text, item);
      if (s > top) [best, top] = [item, s];
    }
    return best;
  }

  /** While the assistant speaks: the interrupt item its words so far trigger, if any. */
  interruptAt(words: string): AgendaItem | undefined {
    return this.best(words, this.eligible().filter((i) => i.action === "interrupt"));
  }

  /** After an assistant turn settled: the item to say now, or undefined to wait. */
  respondTo(turn: string): AgendaItem | undefined {
    const items = this.eligible().filter((i) => i.action !== "interrupt");
    const chosen = this.best(turn, items);
    if (chosen) return chosen;
    if (turn.trim().endsWith("?")) return items.find((i) => i.required && (i.action === "answer" || i.action === "correct"));
    return undefined;
  }

  say(item: AgendaItem): string {
    this.done.add(item.id);
    if (item.action === "finish") this.finished = true;
    return item.response_hint ?? item.commitment;
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
    if (!line) return { log, executions, world, caller, ended: "stalled", answered_acknowledgement };
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
    if (caller.finished) return { log, executions, world, caller, ended: "goodbye", answered_acknowledgement };

    line = undefined;
    for (const group of groups) {
      // While it speaks: does an interrupt item fire on the words so far?
      const words = group.text.split(/\s+/);
      let cut: { item: ReturnType<ScriptedCaller["interruptAt"]>; at: number } | undefined;
      for (let k = 1; k <= words.length && !cut; k++) {
        const item = caller.interruptAt(words.slice(0, k).join(" "));
        if (item) cut = { item, at: k };
      }
      if (cut?.item) {
        const text = caller.say(cut.item);
        if (policy.yields_to_interruptions === false) {
          log.push({ role: "user", text, item: cut.item.id, ignored: true });
        } else {
          const spoken = [...log].reverse().find((e) => e.role === "assistant" && e.text === group.text)!;
          spoken.interrupted = true;
          line = { text, item: cut.item.id };
          break;
        }
      }
      const item = caller.respondTo(group.text);
      if (!item) continue;
      if (group.kind === "acknowledgement") answered_acknowledgement.push(item.id);
      line = { text: caller.say(item), item: item.id };
      if (group.kind !== "acknowledgement") break;
    }
  }
  return { log, executions, world, caller, ended: "turn_limit", answered_acknowledgement };
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
