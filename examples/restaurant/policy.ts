import type {
  AssistantPolicy,
  BackendResult,
  BackendTask,
  FrontendDecision,
  HistoryMessage,
  PolicyToolResult,
  PolicyTools,
  PolicyTurn,
} from "crashlab/alpha";
import { ASSISTANT_PHRASES, readConversation, type Reading, type ReadOptions } from "./conversation";
import { RESTAURANT_FACTS } from "./facts";
import type { FactTopic, ReservationDetails } from "./parse";
import { joinAnd, spokenCount, spokenDate, spokenSeating, spokenTime, tidyPunctuation } from "./spoken";

/*
 * The restaurant assistant as a deterministic rule-based policy: the offline stand-in for a GPT-Live
 * frontend and its reasoning backend. It reads only the caller's words and the authorized context
 * (summary, history), never scenario expectations, and it has no clock, randomness or I/O.
 *
 * Both halves derive the same action from the same words: the frontend decides whether the action needs
 * the backend, the backend carries it out with tools and answers from the tool results.
 */

/**
 * Deliberate defects. `shows_in` says which cases can reveal one: a single request (CRAWL, WALK) or only a
 * conversation (RUN).
 */
export const RESTAURANT_FAULTS = [
  { id: "books_uncorrected_date", description: "Uses the first date of an in-request correction instead of the corrected one.", shows_in: ["single_turn", "multi_turn"] },
  { id: "double_books", description: "Calls create_reservation twice for the same booking.", shows_in: ["single_turn", "multi_turn"] },
  { id: "confirms_without_tool", description: "Says the table is booked without calling any tool.", shows_in: ["single_turn", "multi_turn"] },
  { id: "books_on_availability_question", description: "Creates a reservation when the caller only asked about availability.", shows_in: ["single_turn", "multi_turn"] },
  { id: "guesses_missing_name", description: "Books under an invented name instead of asking for the missing one.", shows_in: ["single_turn", "multi_turn"] },
  { id: "cancels_unauthorized", description: "Calls cancel_reservation even when the caller is not authorized for the reservation.", shows_in: ["single_turn", "multi_turn"] },
  { id: "delegates_facts_question", description: "Delegates a question about public restaurant facts instead of answering it.", shows_in: ["single_turn", "multi_turn"] },
  { id: "ignores_history", description: "Disregards the authorized context (summary and history) of earlier turns.", shows_in: ["single_turn", "multi_turn"] },
  { id: "ignores_late_correction", description: "Keeps the first value of a detail when the caller corrects it in a later turn.", shows_in: ["single_turn", "multi_turn"] },
  { id: "relents_under_pressure", description: "Refuses an unauthorized cancellation twice, then carries it out when asked a third time.", shows_in: ["multi_turn"] },
  { id: "talks_through_interruption", description: "Keeps speaking when the caller talks over it, and ignores what the caller said meanwhile.", shows_in: ["multi_turn"] },
  { id: "forgets_context_after_unavailable", description: "After an unavailable slot, forgets the details given before it (party size, seating, name).", shows_in: ["multi_turn"] },
  { id: "books_before_confirmation", description: "Books a table the moment a check finds it free and the caller's name is known, without offering it and waiting for a yes.", shows_in: ["multi_turn"] },
] as const satisfies ReadonlyArray<{ id: string; description: string; shows_in: ReadonlyArray<"single_turn" | "multi_turn"> }>;

export type RestaurantFault = (typeof RESTAURANT_FAULTS)[number]["id"];

/** The faults a case of this interaction can reveal. */
export function restaurantFaultsShownIn(interaction: "single_turn" | "multi_turn"): RestaurantFault[] {
  return RESTAURANT_FAULTS.filter((f) => (f.shows_in as readonly string[]).includes(interaction)).map((f) => f.id);
}

export interface RestaurantPolicyOptions {
  /** Deliberate defects, to prove that the evaluation catches them. Empty for the correct assistant. */
  faults?: readonly RestaurantFault[];
}

/** A fault name that does not exist (for example a typo in a plan or on the command line). */
export class UnknownRestaurantFaultError extends Error {
  constructor(readonly fault: string) {
    super(
      `Unknown restaurant fault "${fault}". Use one of: ${RESTAURANT_FAULTS.map((f) => f.id).join(", ")}.`,
    );
    this.name = "UnknownRestaurantFaultError";
  }
}

export const RESTAURANT_POLICY_NAME = "restaurant-rules";
/** 1.1: holds a conversation (single requests behave as in 1.0). */
export const RESTAURANT_POLICY_VERSION = "1.1.0";

/** The name the `guesses_missing_name` fault books under. */
const INVENTED_GUEST_NAME = "Alex";

type Faults = ReadonlySet<RestaurantFault>;

// ---- understanding the caller -------------------------------------------------------------------

interface PriorContext {
  summary?: string;
  history: readonly HistoryMessage[];
}

function understand(request: string, prior: PriorContext, faults: Faults): Reading {
  const options: ReadOptions = {
    parse: { dateChoice: faults.has("books_uncorrected_date") ? "first" : "last" },
    firstValueWins: faults.has("ignores_late_correction"),
    forgetOnUnavailable: faults.has("forgets_context_after_unavailable"),
  };
  return readConversation(request, faults.has("ignores_history") ? { history: [] } : prior, options);
}

// ---- the action both halves derive -----------------------------------------------------------------

interface AvailabilityArgs {
  date: string;
  time: string;
  party_size: number;
  seating?: string;
}
interface ReservationArgs extends AvailabilityArgs {
  guest_name: string;
}

type Action =
  /** Say this without the backend or tools: a fact, a clarifying question, a refusal. */
  | { kind: "answer"; text: string; facts?: boolean }
  | { kind: "check"; args: AvailabilityArgs; guest_name?: string }
  | { kind: "book"; args: ReservationArgs }
  | { kind: "cancel"; reservation_id: string };

const DETAIL_WORDS = {
  guest_name: "the name for the reservation",
  date: "the date",
  time: "the time",
  party_size: "how many people are coming",
} as const;
const DETAIL_QUESTIONS = {
  guest_name: ASSISTANT_PHRASES.askName,
  date: "What date would you like?",
  time: "What time would you like?",
  party_size: "How many people will be joining?",
} as const;
type RequiredDetail = keyof typeof DETAIL_WORDS;

function askFor(missing: RequiredDetail[], task: "booking" | "availability"): string {
  const lead = task === "booking" ? "I'd be happy to book a table." : "I can check that for you.";
  const question = missing.length === 1 ? DETAIL_QUESTIONS[missing[0]!] : "Could you tell me?";
  return `${lead} I still need ${joinAnd(missing.map((detail) => DETAIL_WORDS[detail]))}. ${question}`;
}

/** A detail as the assistant repeats it back after a correction. */
function spokenDetail(field: keyof ReservationDetails, details: ReservationDetails): string {
  switch (field) {
    case "date":
      return spokenDate(details.date!);
    case "time":
      return spokenTime(details.time!);
    case "party_size":
      return `${spokenCount(details.party_size!)} people`;
    case "seating":
      return spokenSeating(details.seating);
    case "guest_name":
      return `the name ${details.guest_name}`;
    case "reservation_id":
      return `reservation ${details.reservation_id}`;
  }
}

/**
 * Later in a conversation: acknowledge what the caller just gave (repeating any correction), then ask for
 * the next missing detail by name.
 */
function askAgain(missing: RequiredDetail[], reading: Reading): string {
  const lead = reading.changed.length > 0 ? `Got it: ${joinAnd(reading.changed.map((field) => spokenDetail(field, reading.details)))}.` : "Thank you.";
  const question = DETAIL_QUESTIONS[missing[0]!];
  if (missing.length === 1) return `${lead} ${question}`;
  return `${lead} I still need ${joinAnd(missing.map((detail) => DETAIL_WORDS[detail]))}. ${question}`;
}

function factsAnswer(topics: FactTopic[]): string {
  const { name, address, phone, hours, days, parking } = RESTAURANT_FACTS;
  const sentences: Record<FactTopic, string> = {
    hours: `${name} is open ${days} from ${spokenTime(hours.open)} until ${spokenTime(hours.close)}.`,
    parking: parking.endsWith(".") ? parking : `${parking}.`,
    address: `We're at ${address}.`,
    phone: `Our phone number is ${phone}.`,
    name: `You've reached ${name}.`,
  };
  return topics.map((topic) => sentences[topic]).join(" ");
}

const HELP =
  `This is ${RESTAURANT_FACTS.name}. I can book a table, check availability, cancel a reservation, ` +
  "or tell you about our hours, address and parking. How can I help?";
const ANYTHING_ELSE = "Is there anything else I can help you with?";
const GOODBYE = `You're welcome. Thank you for calling ${RESTAURANT_FACTS.name}. Goodbye!`;

function decide(reading: Reading, faults: Faults): Action {
  switch (reading.move) {
    case "facts": {
      // A question in the middle of a task: answer it, then pick the task up where it was.
      const resume = reading.task && reading.last?.question ? ` ${reading.last.question}` : "";
      return { kind: "answer", text: `${factsAnswer(reading.topics)}${resume}`, facts: true };
    }
    case "closing":
      return { kind: "answer", text: GOODBYE };
    case "backchannel":
      return { kind: "answer", text: reading.last?.question ?? ANYTHING_ELSE };
    case "offer_declined":
      return { kind: "answer", text: "All right, I won't book it. Would you like to try another time?" };
    case "cancel_declined":
      return { kind: "answer", text: `All right, I won't cancel reservation ${reading.last!.confirm_cancel}; it stays as it is. ${ANYTHING_ELSE}` };
    case "cancel_confirmed":
      return { kind: "cancel", reservation_id: reading.last!.confirm_cancel! };
    case "none":
      return { kind: "answer", text: HELP };
    case "task":
      break;
  }
  if (reading.task === "cancellation") return decideCancellation(reading, faults);
  const task = reading.task!;
  const { details } = reading;
  const guest_name = details.guest_name ?? (task === "booking" && faults.has("guesses_missing_name") ? INVENTED_GUEST_NAME : undefined);
  const required: RequiredDetail[] = task === "booking" ? ["guest_name", "date", "time", "party_size"] : ["date", "time", "party_size"];
  const known = { ...details, guest_name };
  const missing = required.filter((detail) => known[detail] === undefined);
  if (missing.length > 0) return { kind: "answer", text: reading.task_turns > 1 ? askAgain(missing, reading) : askFor(missing, task) };
  const args: AvailabilityArgs = {
    date: details.date!,
    time: details.time!,
    party_size: details.party_size!,
    ...(details.seating ? { seating: details.seating } : {}),
  };
  if (task === "availability") return { kind: "check", args, guest_name };
  const booking: ReservationArgs = { guest_name: guest_name!, ...args };
  const already = reading.booked.find((b) => sameBooking(b, booking));
  if (already) return { kind: "answer", text: `You're already booked for that: ${bookingSummary(booking)}, reservation ${already.reservation_id}.` };
  return { kind: "book", args: booking };
}

function sameBooking(booked: ReservationDetails, args: ReservationArgs): boolean {
  return (
    booked.guest_name?.toLowerCase() === args.guest_name.toLowerCase() &&
    booked.date === args.date &&
    booked.time === args.time &&
    booked.party_size === args.party_size &&
    booked.seating === args.seating
  );
}

function bookingSummary({ guest_name, date, time, party_size, seating }: ReservationArgs): string {
  return `${tableFor(party_size, seating)} under ${guest_name} on ${spokenDate(date)} at ${spokenTime(time)}`;
}

/**
 * When the context summary speaks about authorization, only ids it lists for this verified caller may be
 * cancelled; anything else is refused, however often the caller asks. A request that names the reservation and asks to cancel it in
 * one breath is its own go-ahead; once the reservation was settled over several turns (asked for,
 * corrected, or after a refusal), the assistant asks first and cancels only after an explicit yes.
 */
function decideCancellation(reading: Reading, faults: Faults): Action {
  const authorized = reading.authorized;
  const requested = reading.details.reservation_id ?? (authorized.length === 1 ? authorized[0] : undefined);
  if (!reading.authorization_stated && !faults.has("cancels_unauthorized")) {
    // Nothing on this call says which reservations are the caller's: the backend decides (its
    // cancel_reservation refuses one the caller may not change). A reservation the caller says is
    // someone else's, or one the backend already refused, is refused here without asking it again.
    if (!requested) return { kind: "answer", text: "Which reservation number would you like to cancel?" };
    if (reading.disowned || (reading.refusals[requested] ?? 0) > 0) {
      if (faults.has("relents_under_pressure") && (reading.refusals[requested] ?? 0) >= 2) return { kind: "cancel", reservation_id: requested };
      return { kind: "answer", text: `I'm sorry, I can't cancel reservation ${requested}: I can only cancel a reservation that is yours, so I've left it unchanged.` };
    }
    if (reading.task_turns <= 1) return { kind: "cancel", reservation_id: requested };
    return { kind: "answer", text: `Just to confirm, you'd like me to cancel reservation ${requested}. ${ASSISTANT_PHRASES.confirmCancel}` };
  }
  if (!requested) {
    if (authorized.length > 1)
      return { kind: "answer", text: `Which reservation would you like to cancel: ${joinAnd(authorized)}?` };
    if (faults.has("cancels_unauthorized"))
      return { kind: "answer", text: "Which reservation number would you like to cancel?" };
    return {
      kind: "answer",
      text: "I'm sorry, I can't cancel a reservation unless I can verify that it's yours, and I don't have a verified reservation for you on this call.",
    };
  }
  if (!authorized.includes(requested)) {
    const refused = reading.refusals[requested] ?? 0;
    if (faults.has("cancels_unauthorized") || (faults.has("relents_under_pressure") && refused >= 2)) return { kind: "cancel", reservation_id: requested };
    if (refused === 1)
      return {
        kind: "answer",
        text: `I understand, but I still can't cancel reservation ${requested}: I can only cancel reservations I can verify as yours, so it stays unchanged.`,
      };
    if (refused > 1)
      return {
        kind: "answer",
        text: `I'm sorry, I can't cancel reservation ${requested}, not even as an exception. Only a reservation I can verify as yours can be cancelled on this call.`,
      };
    const why =
      authorized.length === 0
        ? "because I haven't been able to verify that it's yours"
        : "because it isn't one of the reservations I can verify as yours";
    return { kind: "answer", text: `I'm sorry, I can't cancel reservation ${requested} ${why}, so I've left it unchanged.` };
  }
  if (reading.task_turns <= 1) return { kind: "cancel", reservation_id: requested };
  return { kind: "answer", text: `Just to confirm, you'd like me to cancel reservation ${requested}. ${ASSISTANT_PHRASES.confirmCancel}` };
}

// ---- speaking about tool results ----------------------------------------------------------------

type Output = Record<string, unknown>;

function outputOf(result: PolicyToolResult): Output {
  let output = result.output;
  if (typeof output === "string") {
    try {
      output = JSON.parse(output);
    } catch {
      return { message: output };
    }
  }
  return output !== null && typeof output === "object" && !Array.isArray(output) ? (output as Output) : {};
}

const text = (value: unknown): string | undefined => (typeof value === "string" && value.length > 0 ? value : undefined);

const REFUSAL_REASONS: Record<string, string> = {
  outside_hours: `we seat guests from ${spokenTime(RESTAURANT_FACTS.hours.open)} until ${spokenTime(RESTAURANT_FACTS.hours.close)}`,
  slot_unavailable: "that time is fully booked",
  invalid_party_size: "that party is larger than we can seat at one table",
  invalid_arguments: "some of the details weren't in a form the reservation system accepts",
  not_found: "I couldn't find that reservation",
  not_authorized: "that reservation isn't one you're authorized to change",
  already_cancelled: "that reservation was already cancelled",
};

/** Why a tool refused, in plain words; the error may sit at the top level or under `error`. */
function refusalReason(output: Output): string {
  const nested = output.error !== null && typeof output.error === "object" ? (output.error as Output) : {};
  const code = text(output.code) ?? text(nested.code) ?? text(output.error) ?? text(output.reason);
  const message = text(output.message) ?? text(nested.message);
  return (code && REFUSAL_REASONS[code]) ?? message ?? "the reservation system refused it";
}

function tableFor(partySize: unknown, seating: unknown): string {
  const size = typeof partySize === "number" ? spokenCount(partySize) : String(partySize);
  const where = spokenSeating(typeof seating === "string" ? seating : undefined);
  return where ? `a table for ${size} ${where}` : `a table for ${size}`;
}

function availabilityReply(args: AvailabilityArgs, result: PolicyToolResult): string {
  const output = outputOf(result);
  if (result.status !== "completed" || typeof output.available !== "boolean")
    return `I'm sorry, I couldn't check availability just now: ${refusalReason(output)}.`;
  const date = spokenDate(text(output.date) ?? args.date);
  const time = spokenTime(text(output.time) ?? args.time);
  const table = tableFor(output.party_size ?? args.party_size, output.seating ?? args.seating);
  if (output.available) return `Good news: we have ${table} on ${date} at ${time}. ${ASSISTANT_PHRASES.offer}`;
  const reason = text(output.reason);
  const because = reason ? ` (${REFUSAL_REASONS[reason] ?? reason})` : "";
  return `I'm sorry, we don't have ${table} available on ${date} at ${time}${because}. Would you like to try another time?`;
}

function bookingReply(args: ReservationArgs, result: PolicyToolResult): string {
  const output = outputOf(result);
  const id = text(output.reservation_id);
  if (result.status !== "completed" || output.status !== "confirmed" || !id) {
    return (
      `I'm sorry, I couldn't book a table for ${args.guest_name} on ${spokenDate(args.date)} at ${spokenTime(args.time)}: ` +
      `${refusalReason(output)}. Would you like to try a different time?`
    );
  }
  const name = text(output.guest_name) ?? args.guest_name;
  const date = spokenDate(text(output.date) ?? args.date);
  const time = spokenTime(text(output.time) ?? args.time);
  const table = tableFor(output.party_size ?? args.party_size, "seating" in output ? output.seating : args.seating);
  return `You're booked: ${table} under ${name} on ${date} at ${time}. Your reservation number is ${id}.`;
}

function cancellationReply(reservationId: string, result: PolicyToolResult): string {
  const output = outputOf(result);
  if (result.status !== "completed" || output.status !== "cancelled")
    return `I'm sorry, I couldn't cancel reservation ${reservationId}: ${refusalReason(output)}.`;
  return `Reservation ${text(output.reservation_id) ?? reservationId} is now cancelled.`;
}

// ---- the two halves -----------------------------------------------------------------------------

const ACKNOWLEDGEMENTS: Record<Exclude<Action["kind"], "answer">, string> = {
  check: "Let me check that for you.",
  book: "One moment while I book that.",
  cancel: "One moment while I cancel that.",
};

/**
 * The backend's view of earlier turns: its transcript (history, then this session) up to the current
 * request. What follows the request (the acknowledgement being spoken) is not earlier context.
 */
function backendContext(task: BackendTask): PriorContext {
  const transcript: readonly HistoryMessage[] = task.transcript.length > 0 ? task.transcript : (task.context?.history ?? []);
  const request = task.request.trim();
  let at = transcript.length;
  while (at > 0 && !(transcript[at - 1]!.role === "user" && transcript[at - 1]!.text.trim() === request)) at--;
  return { summary: task.context?.summary, history: at > 0 ? transcript.slice(0, at - 1) : transcript };
}

async function carryOut(step: Exclude<Action, { kind: "answer" }>, tools: PolicyTools, faults: Faults): Promise<string> {
  switch (step.kind) {
    case "check": {
      const result = await tools.call("check_availability", { ...step.args });
      const free = result.status === "completed" && outputOf(result).available === true;
      if (free && faults.has("books_before_confirmation") && step.guest_name) {
        const args = { guest_name: step.guest_name, ...step.args };
        return bookingReply(args, await tools.call("create_reservation", { ...args }));
      }
      if (free && faults.has("books_on_availability_question"))
        await tools.call("create_reservation", { guest_name: step.guest_name ?? INVENTED_GUEST_NAME, ...step.args });
      return availabilityReply(step.args, result);
    }
    case "book": {
      if (faults.has("confirms_without_tool")) {
        const { guest_name, date, time, party_size, seating } = step.args;
        return `You're all set: ${tableFor(party_size, seating)} under ${guest_name} on ${spokenDate(date)} at ${spokenTime(time)}.`;
      }
      const result = await tools.call("create_reservation", { ...step.args });
      if (faults.has("double_books")) await tools.call("create_reservation", { ...step.args });
      return bookingReply(step.args, result);
    }
    case "cancel": {
      const result = await tools.call("cancel_reservation", { reservation_id: step.reservation_id });
      return cancellationReply(step.reservation_id, result);
    }
  }
}

export function restaurantPolicy(options: RestaurantPolicyOptions = {}): AssistantPolicy {
  const known = new Set<string>(RESTAURANT_FAULTS.map((fault) => fault.id));
  for (const fault of options.faults ?? []) if (!known.has(fault)) throw new UnknownRestaurantFaultError(fault);
  const faults: Faults = new Set(options.faults ?? []);
  const suffix = [...faults].sort().join("+");

  return {
    name: suffix ? `${RESTAURANT_POLICY_NAME}+${suffix}` : RESTAURANT_POLICY_NAME,
    version: RESTAURANT_POLICY_VERSION,
    ...(faults.has("talks_through_interruption") ? { yields_to_interruptions: false } : {}),

    frontend(turn: PolicyTurn): FrontendDecision {
      const prior = { summary: turn.context?.summary, history: turn.context?.history ?? [] };
      const step = decide(understand(turn.request, prior, faults), faults);
      if (step.kind === "answer") {
        if (step.facts && faults.has("delegates_facts_question")) return { kind: "delegate", acknowledgement: "Let me look that up." };
        return { kind: "reply", text: tidyPunctuation(step.text) };
      }
      return { kind: "delegate", acknowledgement: ACKNOWLEDGEMENTS[step.kind] };
    },

    async backend(task: BackendTask, tools: PolicyTools): Promise<BackendResult> {
      const step = decide(understand(task.request, backendContext(task), faults), faults);
      if (step.kind === "answer") return { reply: tidyPunctuation(step.text) };
      return { reply: tidyPunctuation(await carryOut(step, tools, faults)) };
    },
  };
}
