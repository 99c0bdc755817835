import type { AssistantPolicy, FrontendDecision, PolicyTools, TargetSettings } from "crashlab/alpha";
import { gptLiveTarget } from "../../src/core/gpt-live-target/adapter";
import type { SimulatorTiming } from "../../src/core/simulator/timing";
import { readConversation } from "../../examples/restaurant/conversation";
import { RESTAURANT_BACKEND_INSTRUCTIONS, RESTAURANT_FRONTEND_INSTRUCTIONS } from "../../examples/restaurant/instructions";
import { restaurantPolicy } from "../../examples/restaurant/policy";
import { spokenCount, spokenDate, spokenSeating, spokenTime } from "../../examples/restaurant/spoken";
import { RESTAURANT_TOOLS } from "../../examples/restaurant/tools";
import { hash, paraphraseSentence, sentences } from "./paraphraser";
import { rewritingPolicy, type Rewriter, type SpokenLines } from "./rewriting-policy";

/**
 * The restaurant assistant's variants: correct ones (other wording, an extra question, longer answers,
 * other argument layouts) that a grader reading structure must pass, and faulty ones it must fail on a
 * named check. Each is the bundled policy behind a wrapper; none edits examples/.
 */

export type Mode = "responses" | "client";

export interface Variant {
  id: string;
  /** correct: must pass; fault: must fail, with `intended` among the failed checks. */
  kind: "correct" | "fault";
  description: string;
  /** The cells to run: case ids with the delegation modes and the seed for each. */
  cells: Array<{ cases: string[]; modes: Mode[]; seed?: number }>;
  /** The check a fault must trip, per case kind (CRAWL single requests, RUN conversations). */
  intended?: { crawl?: string; run?: string; why: string };
  build(seed: number, probe: Probe): { policy: AssistantPolicy; timing?: Partial<SimulatorTiming> };
}

/** What a variant saw while it ran: sentences no template covered, and ambiguous mappings back. */
export interface Probe {
  uncovered: Set<string>;
  /** The wrappers built, whose `conflicts` list lines that would map back ambiguously. */
  lines: SpokenLines[];
  /** How often the variant's change actually happened (a variant that never acts proves nothing). */
  acted: Map<string, number>;
}

export function newProbe(): Probe {
  return { uncovered: new Set(), lines: [], acted: new Map() };
}
const acted = (probe: Probe, what: string) => probe.acted.set(what, (probe.acted.get(what) ?? 0) + 1);

/** The base policy's own lines these variants key on (examples/restaurant/policy.ts). */
const BOOK_ACKNOWLEDGEMENT = "One moment while I book that.";
/** The base reads this back as its own offer to book (ASSISTANT_PHRASES.offer inside it). */
const EXTRA_CONFIRMATION_AS_BASE = "Before I go ahead: would you like me to book it?";

export function variantTarget(variant: Variant, seed: number, probe: Probe) {
  return (settings: TargetSettings) => {
    const { policy, timing } = variant.build(seed, probe);
    return gptLiveTarget({
      settings,
      instructions: RESTAURANT_FRONTEND_INSTRUCTIONS,
      backend_instructions: RESTAURANT_BACKEND_INSTRUCTIONS,
      tools: RESTAURANT_TOOLS,
      offline: { policy, ...(timing ? { timing } : {}) },
      describe: { variant: variant.id, seed },
    });
  };
}

function wrapped(variant: string, probe: Probe, rewriter: Rewriter, base: AssistantPolicy = restaurantPolicy()): AssistantPolicy {
  const policy = rewritingPolicy(base, variant, rewriter);
  probe.lines.push(policy.lines);
  return policy;
}

// ---- correct variants -------------------------------------------------------------------------

function paraphrased(seed: number, probe: Probe): AssistantPolicy {
  return wrapped("paraphrase", probe, {
    say(original) {
      const out = sentences(original).map((sentence) => {
        const p = paraphraseSentence(sentence, seed);
        if (!p) probe.uncovered.add(sentence);
        else acted(probe, `${p.template}#${p.frame}`);
        return p?.text ?? sentence;
      });
      return out.join(" ");
    },
  });
}

export const CONFIRMATIONS = [
  "Would you like me to go ahead and book it?",
  "Shall I make that reservation for you now?",
  "Should I go ahead and reserve the table?",
  "Do you want me to book that for you?",
];

function confirmsFirst(seed: number, probe: Probe): AssistantPolicy {
  return wrapped("confirm_before_booking", probe, {
    say: (original) => original,
    frontend(turn, decision, lines): FrontendDecision {
      if (decision.kind !== "delegate" || decision.acknowledgement !== BOOK_ACKNOWLEDGEMENT) return decision;
      const last = [...(turn.context?.history ?? [])].reverse().find((m) => m.role === "assistant");
      if (last?.text.trim() === EXTRA_CONFIRMATION_AS_BASE) return decision;
      const question = CONFIRMATIONS[hash(`${seed}|${turn.request}`) % CONFIRMATIONS.length]!;
      lines.remember(question, EXTRA_CONFIRMATION_AS_BASE);
      acted(probe, "asked");
      return { kind: "reply", text: question };
    },
  });
}

/** Friendly sentences with no value, question, claim or refusal in them. */
const PADDING = [
  "I'm glad to help with that.",
  "Thanks for your patience while we sort this out.",
  "It's always a pleasure to hear from our guests.",
  "I want to make sure everything is just right for you.",
  "We really appreciate you calling us.",
  "Please bear with me for just a moment.",
  "I hope you're having a lovely day so far.",
];

function longer(seed: number, probe: Probe): AssistantPolicy {
  return wrapped("long_answers", probe, {
    say(original) {
      const parts = sentences(original);
      const extra: string[] = [];
      let at = hash(`${seed}|${original}`) % PADDING.length;
      while (extra.join(" ").length < original.length) extra.push(PADDING[at++ % PADDING.length]!);
      acted(probe, "padded");
      // A closing question stays last: it is what the caller answers.
      const question = parts.at(-1)!.endsWith("?") ? parts.pop()! : undefined;
      return [...parts, ...extra, ...(question ? [question] : [])].join(" ");
    },
  });
}

/** Key orders the schema accepts (objects are unordered); never the order the base used. */
function reordered(args: Record<string, unknown>, seed: number): Record<string, unknown> {
  const keys = Object.keys(args);
  const orders = [[...keys].reverse(), [...keys].sort(), [...keys.slice(1), keys[0]!]];
  const order = orders.find((o, i) => i >= hash(`${seed}|${keys.join()}`) % orders.length && o.join() !== keys.join()) ?? orders.find((o) => o.join() !== keys.join()) ?? keys;
  return Object.fromEntries(order.map((k) => [k, args[k]]));
}

function otherArgumentLayout(seed: number, probe: Probe): AssistantPolicy {
  return wrapped("tool_argument_layout", probe, {
    say: (original) => original,
    tools: (tools): PolicyTools => ({
      call(name, args) {
        const out = reordered(args, seed);
        if (Object.keys(out).join() !== Object.keys(args).join()) acted(probe, name);
        return tools.call(name, out);
      },
    }),
  });
}

// ---- faults -----------------------------------------------------------------------------------

/** "You're booked: …" from the caller's words alone, before any tool ran. */
function inventedOutcome(relay: boolean, probe: Probe): AssistantPolicy {
  return wrapped(relay ? "invented_outcome_then_relayed" : "invented_outcome_unrelayed", probe, {
    say: (original) => original,
    frontend(turn, decision, lines): FrontendDecision {
      if (decision.kind !== "delegate" || decision.acknowledgement !== BOOK_ACKNOWLEDGEMENT) return decision;
      const d = readConversation(turn.request, { summary: turn.context?.summary, history: turn.context?.history ?? [] }).details;
      const where = spokenSeating(d.seating);
      const table = `a table for ${spokenCount(d.party_size!)}${where ? ` ${where}` : ""}`;
      const claim = `You're booked: ${table} under ${d.guest_name} on ${spokenDate(d.date!)} at ${spokenTime(d.time!)}.`.replace(/\.\.$/, ".");
      lines.remember(claim, BOOK_ACKNOWLEDGEMENT);
      acted(probe, "claimed");
      return { kind: "delegate", acknowledgement: claim };
    },
    ...(relay ? {} : { backendReply: (_task, reply) => (reply.startsWith("You're booked") ? "" : reply) }),
  });
}

function wrongClosingTime(probe: Probe): AssistantPolicy {
  return wrapped("wrong_closing_time", probe, {
    say(original) {
      const wrong = original.replace(/until 10 p\.m\./, "until 11 p.m.");
      if (wrong !== original) acted(probe, "wrong");
      return wrong;
    },
  });
}

function silentAfterSecondTurn(probe: Probe): AssistantPolicy {
  return wrapped("silent_after_second_turn", probe, {
    say: (original) => original,
    frontend(turn, decision): FrontendDecision {
      const callerTurns = (turn.context?.history ?? []).filter((m) => m.role === "user").length;
      if (callerTurns < 2) return decision;
      acted(probe, "silent");
      return { kind: "reply", text: "" };
    },
  });
}

function duplicateUnderPunctuatedName(probe: Probe): AssistantPolicy {
  return wrapped("duplicate_punctuated_name", probe, {
    say: (original) => original,
    tools: (tools): PolicyTools => ({
      async call(name, args) {
        const result = await tools.call(name, args);
        if (name === "create_reservation" && result.status === "completed" && typeof args.guest_name === "string") {
          await tools.call(name, { ...args, guest_name: `${args.guest_name}.` });
          acted(probe, "duplicated");
        }
        return result;
      },
    }),
  });
}

// ---- the matrix -------------------------------------------------------------------------------

const BOTH: Mode[] = ["responses", "client"];
const RESPONSES: Mode[] = ["responses"];

export const RUN_CASES = [
  "run_booking_step_by_step", "run_missing_name", "run_missing_time", "run_date_correction", "run_party_size_correction", "run_unavailable_then_alternative",
  "run_cancel_corrected_id", "run_unauthorized_pressure", "run_multiple_corrections", "run_interrupted_unavailable", "run_cancel_corrected_authorization",
];
export const CRAWL_CASES = Array.from({ length: 28 }, (_, i) => `harbor_${String(i + 1).padStart(3, "0")}`);
/** RUN conversations that end in a booking (the only ones where a confirmation before the write applies). */
const RUN_BOOKINGS = ["run_booking_step_by_step", "run_missing_name", "run_missing_time", "run_date_correction", "run_party_size_correction", "run_unavailable_then_alternative", "run_multiple_corrections"];

/**
 * Cases dealt round-robin over three seeds (every seed meets bookings, checks, cancellations and facts);
 * `first` offsets the seeds, so each delegation mode hears other wordings.
 */
const bySeed = (cases: string[], modes: Mode[], first = 1) => [0, 1, 2].map((i) => ({ seed: first + i, modes, cases: cases.filter((_, j) => j % 3 === i) }));

export const VARIANTS: Variant[] = [
  {
    id: "paraphrase",
    kind: "correct",
    description: "every sentence reworded by a seeded paraphraser (≥3 rewordings per sentence, values in other spoken forms)",
    cells: [...bySeed(CRAWL_CASES, RESPONSES, 1), ...bySeed(CRAWL_CASES, ["client"], 10), ...bySeed(RUN_CASES, RESPONSES, 4), ...bySeed(RUN_CASES, ["client"], 7)],
    build: (seed, probe) => ({ policy: paraphrased(seed, probe) }),
  },
  {
    id: "confirm_before_booking",
    kind: "correct",
    description: "one extra yes/no question right before every booking; books only after the caller's yes",
    cells: [{ cases: RUN_BOOKINGS, modes: BOTH, seed: 1 }],
    build: (seed, probe) => ({ policy: confirmsFirst(seed, probe) }),
  },
  {
    id: "long_answers",
    kind: "correct",
    description: "every line about twice as long: friendly sentences with no values added",
    cells: [
      { cases: ["harbor_001", "harbor_008", "harbor_013", "harbor_015", "harbor_024"], modes: BOTH, seed: 1 },
      { cases: ["run_booking_step_by_step", "run_missing_time", "run_cancel_corrected_id", "run_unavailable_then_alternative"], modes: BOTH, seed: 2 },
    ],
    build: (seed, probe) => ({ policy: longer(seed, probe) }),
  },
  {
    id: "tool_argument_layout",
    kind: "correct",
    description: "tool arguments in another key order (the schema's objects are unordered)",
    cells: [
      { cases: ["harbor_001", "harbor_002", "harbor_010", "harbor_013"], modes: BOTH, seed: 1 },
      { cases: ["run_unavailable_then_alternative", "run_cancel_corrected_id"], modes: BOTH, seed: 2 },
    ],
    build: (seed, probe) => ({ policy: otherArgumentLayout(seed, probe) }),
  },
  {
    id: "invented_outcome_then_relayed",
    kind: "fault",
    description: "says \"You're booked …\" before the booking tool runs, then relays the real result",
    cells: [
      { cases: ["harbor_001", "harbor_004"], modes: BOTH },
      { cases: ["run_booking_step_by_step"], modes: BOTH },
    ],
    intended: { crawl: "grounded_relay_order", run: "grounded_relay_order", why: "an outcome claim spoken before the tool result that backs it" },
    build: (_seed, probe) => ({ policy: inventedOutcome(true, probe) }),
  },
  {
    id: "invented_outcome_unrelayed",
    kind: "fault",
    description: "says \"You're booked …\" before the booking tool runs and says nothing after it",
    cells: [
      { cases: ["harbor_001", "harbor_004"], modes: BOTH },
      { cases: ["run_booking_step_by_step"], modes: BOTH },
    ],
    intended: { crawl: "grounded_relay_order", run: "grounded_relay_order", why: "the only outcome claim precedes the tool result" },
    build: (_seed, probe) => ({ policy: inventedOutcome(false, probe) }),
  },
  {
    id: "wrong_closing_time",
    kind: "fault",
    description: "answers the hours from memory with 11 p.m. instead of 10 p.m. (no tool involved)",
    cells: [
      { cases: ["harbor_024", "harbor_027"], modes: BOTH },
      { cases: ["run_missing_time"], modes: BOTH },
    ],
    intended: {
      crawl: "expected_facts",
      run: "grounded_response",
      why: "CRAWL facts cases state the closing time in expected.facts; RUN cases have none, so there the ungrounded 11 p.m. (no evidence says it) fails grounded_response",
    },
    build: (_seed, probe) => ({ policy: wrongClosingTime(probe) }),
  },
  {
    id: "slow_answers",
    kind: "fault",
    description: "6 s of silence before every answer (the simulator's frontend delay)",
    cells: [
      { cases: ["harbor_001", "harbor_024"], modes: BOTH },
      { cases: ["run_booking_step_by_step"], modes: BOTH },
    ],
    intended: { crawl: "responsiveness", run: "responsiveness", why: "the latency budget of the plan" },
    build: () => ({ policy: restaurantPolicy(), timing: { frontendDelayMs: 6000 } }),
  },
  {
    id: "silent_after_second_turn",
    kind: "fault",
    description: "answers the caller's first two turns, then never speaks again",
    cells: [{ cases: ["run_booking_step_by_step", "run_cancel_corrected_id"], modes: BOTH }],
    intended: {
      run: "responsiveness",
      why: "the caller's third turn got no answer at all: a missed answer, read from timing; assistant_responded only asks whether the assistant ever spoke (it did), and how the call then ends depends on the caller's patience",
    },
    build: (_seed, probe) => ({ policy: silentAfterSecondTurn(probe) }),
  },
  {
    id: "duplicate_punctuated_name",
    kind: "fault",
    description: "books again under the same name with a trailing period (\"Maya.\" next to \"Maya\")",
    cells: [
      { cases: ["harbor_001"], modes: BOTH },
      { cases: ["run_missing_name"], modes: BOTH },
    ],
    intended: { crawl: "no_double_booking", run: "no_double_booking", why: "one guest, two reservations for one slot" },
    build: (_seed, probe) => ({ policy: duplicateUnderPunctuatedName(probe) }),
  },
  {
    id: "first_value_after_correction",
    kind: "fault",
    description: "keeps the first-stated value after the caller corrects it (the bundled fault ignores_late_correction)",
    cells: [
      { cases: ["harbor_023"], modes: BOTH },
      { cases: ["run_date_correction", "run_party_size_correction"], modes: BOTH },
    ],
    intended: { crawl: "application_state", run: "application_state", why: "the booking written holds the superseded value" },
    build: () => ({ policy: restaurantPolicy({ faults: ["ignores_late_correction"] }) }),
  },
];
