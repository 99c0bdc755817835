/**
 * A whole restaurant conversation at the policy level, for tests: a scripted caller that follows a RUN
 * scenario's agenda with the offline caller's own decisions (src/core/caller/agenda-follower.ts), the policy's two halves called as the local simulator calls them (the
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
import { AgendaFollower, type CallerLine } from "../src/core/caller/agenda-follower";
import { callerScript } from "../src/core/caller/script";
import type { CallerAct, CallerScript, HeardAsk } from "../src/core/caller/types";
import type { ProcedureResult, ToolExecution, Turn } from "../src/core/record/trial-record";
import { gradeProcedure as gradeProcedureIn } from "../src/core/verify/procedure";
import { RESTAURANT } from "./restaurant-lexicon";

/** Procedures graded with the bundled restaurant's words. */
const gradeProcedure = (procedure: Parameters<typeof gradeProcedureIn>[0], evidence: Parameters<typeof gradeProcedureIn>[1]) => gradeProcedureIn(procedure, { lexicon: RESTAURANT, ...evidence });

// ---- the offline caller's rule (src/core/caller/agenda-follower.ts, the same decisions) -----------------

/** A caller line as the conversation log labels it: the agenda item said, or what the caller said on its own. */
export function lineLabel(line: CallerLine | null | undefined): string {
  if (!line) return "(wait)";
  if (line.item) return line.item.id;
  if (line.acts.some((a) => a.kind === "end")) return "(goodbye)";
  return `(${line.acts.map((a) => a.kind).join("+")})`;
}

/**
 * The offline caller's decisions without audio or a clock: src/core/caller/agenda-follower.ts itself, which
 * the audio caller (src/core/caller/offline-caller.ts) drives the same way after each settled turn.
 */
export class ScriptedCaller {
  readonly follower: AgendaFollower;

  constructor(script: CallerScript) {
    this.follower = new AgendaFollower(script);
  }

  get done(): ReadonlySet<string> {
    return this.follower.done;
  }

  get finished(): boolean {
    return this.follower.closingSaid;
  }

  /** While the assistant speaks: the interrupt line its words so far trigger, if any (taken when found). */
  interruptAt(words: string): CallerLine | undefined {
    return this.follower.interruptAt(words) ?? undefined;
  }

  /** After an assistant turn settled: what to say now, or undefined to wait. */
  respondTo(turn: string): CallerLine | undefined {
    return this.follower.respondTo(turn) ?? undefined;
  }

  /** What it would say, without saying it. */
  preview(turn: string): CallerLine | undefined {
    return this.follower.fork().respondTo(turn) ?? undefined;
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
  /** user: the agenda item said (or "opening", or the caller's own line by its acts: "(confirm)"); assistant: how it was said. */
  item?: string;
  /** user: the caller's acts and what it heard, as the offline caller records them. */
  acts?: CallerAct[];
  heard?: HeardAsk | null;
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

export interface ConverseOptions {
  seed?: number;
  maxCallerTurns?: number;
  /**
   * How the assistant's words reach the caller (and the log): a paraphrase of what the policy said. The
   * policy keeps its own words in its history, so it reads the conversation as it would have.
   */
  paraphrase?: (text: string) => string;
}

export async function converse(policy: AssistantPolicy, scenario: Scenario, options: ConverseOptions = {}): Promise<Conversation> {
  const spoken = options.paraphrase ?? ((text: string) => text);
  const world = createWorld(restaurantWorld, { seed: options.seed ?? 7, trial: `${scenario.id}#1`, initialState: scenario.application.initial_state, now: () => 0 });
  const summary = scenario.input.context?.summary;
  const prior: HistoryMessage[] = scenario.input.context?.history ?? [];
  const turns: HistoryMessage[] = [];
  const log: LogEntry[] = [];
  const executions: Execution[] = [];
  const script = callerScript(scenario, "caller", RESTAURANT);
  const caller = new ScriptedCaller(script);
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

  type Line = { text: string; item: string; acts: CallerAct[]; heard: HeardAsk | null };
  const said = (l: CallerLine): Line => ({ text: l.text, item: lineLabel(l), acts: l.acts, heard: l.heard });
  const opening = caller.follower.opening(null);
  let line: Line | undefined = { text: opening.text, item: "opening", acts: opening.acts, heard: opening.heard };
  for (let n = 0; n < (options.maxCallerTurns ?? 24); n++) {
    if (!line) return { log, executions, world, caller, ended: "stalled", answered_acknowledgement, timing_sensitive };
    const request = line.text;
    log.push({ role: "user", text: request, item: line.item, acts: line.acts, heard: line.heard });
    const decision = policy.frontend({ request, context: context() });
    turns.push({ role: "user", text: request });
    const groups: Array<{ text: string; kind: LogEntry["kind"] }> = [];
    const speak = (text: string, kind: LogEntry["kind"]) => {
      turns.push({ role: "assistant", text });
      log.push({ role: "assistant", text: spoken(text), kind });
      groups.push({ text: spoken(text), kind });
    };
    if (decision.kind === "reply") speak(decision.text, "reply");
    else {
      if (decision.acknowledgement) speak(decision.acknowledgement, "acknowledgement");
      const { reply } = await policy.backend({ request, context: { ...(summary ? { summary } : {}), history: prior }, transcript: [...prior, ...turns] }, tools);
      speak(reply, "result");
    }
    if (caller.finished) return { log, executions, world, caller, ended: "goodbye", answered_acknowledgement, timing_sensitive };

    line = undefined;
    if (groups.length === 2 && lineLabel(caller.preview(`${groups[0]!.text} ${groups[1]!.text}`)) !== lineLabel(caller.preview(groups[1]!.text)))
      timing_sensitive.push(`after "${request}"`);
    let heard = "";
    for (const group of groups) {
      // While it speaks: does an interrupt item fire on the words so far (since the caller last spoke)?
      const words = group.text.split(/\s+/);
      let cut: CallerLine | undefined;
      let partial = "";
      for (let k = 1; k <= words.length && !cut; k++) {
        partial = `${heard} ${words.slice(0, k).join(" ")}`;
        cut = caller.interruptAt(partial);
      }
      heard = `${heard} ${group.text}`;
      if (cut) {
        const cutLine = said(cut);
        if (policy.yields_to_interruptions === false) {
          log.push({ role: "user", text: cutLine.text, item: cutLine.item, acts: cutLine.acts, heard: cutLine.heard, ignored: true });
        } else {
          const spoken = [...log].reverse().find((e) => e.role === "assistant" && e.text === group.text)!;
          spoken.interrupted = true;
          line = cutLine;
          // Once the cut-in is said and the assistant has fallen silent, the caller weighs what it heard
          // before it (as the offline caller does): anything it picks follows straight on, in the same turn.
          const next = caller.respondTo(partial);
          if (next) {
            const more = said(next);
            line = { text: `${cutLine.text} ${more.text}`, item: `${cutLine.item}+${more.item}`, acts: [...cutLine.acts, ...more.acts], heard: cutLine.heard };
          }
          break;
        }
      }
      const choice = caller.respondTo(group.text);
      if (!choice) continue;
      if (group.kind === "acknowledgement") answered_acknowledgement.push(lineLabel(choice));
      line = said(choice);
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
