/**
 * The airline assistant as a deterministic rule-based policy: the offline stand-in for a GPT-Live frontend
 * and its reasoning backend. It reads only the caller's words and the authorized context (summary, history),
 * never scenario expectations, and has no clock, randomness or I/O. Both halves derive the same action from
 * the same conversation: the frontend decides whether it needs the backend, the backend carries it out.
 */
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
import { AIRLINE_FACTS } from "./facts";
import {
  acceptsFee,
  disowns,
  factTopics,
  isClosing,
  isNo,
  isYes,
  monthOf,
  parseAuthorization,
  parseCodes,
  parseDate,
  parseFlightNumbers,
  parseSeat,
  firstDateSaid,
  taskOf,
  type BookingDetails,
  type FactTopic,
  type Task,
} from "./parse";
import { clockWords, dollars, dollarsInWords, spokenDate, spokenFlight, spokenTime, tidyPunctuation } from "./spoken";

export const AIRLINE_POLICY_NAME = "airline-rules";

/** Deliberate defects, each to show that the evaluation catches it (or, where it does not yet, that it misses it). */
export const AIRLINE_FAULTS = [
  { id: "changes_without_go_ahead", description: "Changes the flight as soon as it can, without quoting the cost and waiting for a yes." },
  { id: "repeats_change", description: "Calls change_flight a second time after the change succeeded." },
  { id: "states_superseded_date", description: "After a change, states the date the caller said first, not the corrected one the change used." },
  { id: "goodbye_instead_of_result", description: "After a change, a seat change or a cancellation succeeds, says goodbye instead of the result." },
] as const;
export type AirlineFault = (typeof AIRLINE_FAULTS)[number]["id"];
export const AIRLINE_POLICY_VERSION = "1.0.0";

const ANYTHING_ELSE = "Is there anything else I can help you with?";
const HELP =
  `Thank you for calling ${AIRLINE_FACTS.name}. I can change your flight or your seat, tell you what a change would cost, ` +
  "look up or cancel a booking, or answer questions about bags and fees. How can I help?";
const GOODBYE = `You're welcome. Thank you for flying ${AIRLINE_FACTS.name}, goodbye!`;

/**
 * How the assistant words what it says about bookings. Both wordings are correct: they state the same
 * values after the same tool results. `plain` is the default target's; `varied` says the same things the
 * way other airline agents do ("Seat 12A is yours now", "that would come to ninety-five dollars", "Do you
 * want me to book you on that flight?"), to show where grading still depends on wording.
 */
export type AirlineWording = "plain" | "varied";

interface Flight {
  flight: string;
  date: string;
  origin: string;
  time: string;
}

interface Wording {
  askCode: string;
  /** The go-ahead question after a quote; the policy also recognises its own question by it. */
  confirmChange: string;
  quote(f: Flight & { total: number; fee: number; difference: number }): string;
  changed(f: Flight & { charged: number | undefined; code: string }): string;
  seat(p: { seat: string; flight: string; date: string }): string;
  cancelled(p: { code: string; credit: number | undefined }): string;
  lookup(f: Flight & { seat: string | null; destination: string }): string;
  soldOut(p: { flight: string; date: string }, afterTrying: boolean): string;
  refusal(verb: string, code: string, before: number): string;
  /** The policy's own refusals (the code in a group), to count them. */
  refused: RegExp;
  /** The policy's own reports that a task is finished. */
  done: RegExp;
}

const PLAIN: Wording = {
  askCode: "Sure. What's your confirmation code?",
  confirmChange: "Shall I make the change?",
  quote: ({ flight, date, origin, time, total, fee, difference }) =>
    `Flight ${flight} on ${date} leaves ${origin} at ${spokenTime(time)} and has seats. Moving your booking there ` +
    (difference > 0
      ? `would cost ${dollars(total)}: the ${dollars(fee)} change fee plus a ${dollars(difference)} fare difference.`
      : `would cost ${dollars(total)} for the change fee; there's no fare difference.`) +
    " Shall I make the change?",
  changed: ({ flight, date, origin, time, charged, code }) =>
    `All done: you're now on flight ${flight} on ${date}, leaving ${origin} at ${spokenTime(time)}.` +
    (charged !== undefined ? ` We've charged ${dollars(charged)} to your card on file, and your confirmation code stays ${code}.` : ` And your confirmation code stays ${code}.`),
  seat: ({ seat, flight, date }) => `You're now in seat ${seat} on flight ${flight} on ${date}.`,
  cancelled: ({ code, credit }) => `Your booking ${code} has been cancelled${credit !== undefined ? `, and the ${dollars(credit)} you paid is now a travel credit, valid for one year` : ""}.`,
  lookup: ({ seat, flight, origin, destination, date, time }) => {
    const where = `flight ${flight} from ${origin} to ${destination} on ${date}, leaving at ${spokenTime(time)}`;
    return seat ? `You're in seat ${seat} on ${where}.` : `You don't have a seat yet on ${where}.`;
  },
  soldOut: ({ flight, date }, afterTrying) =>
    afterTrying
      ? `I'm sorry, flight ${flight} on ${date} is sold out, so your booking stays as it was. Would you like to try a different flight?`
      : `I'm sorry, flight ${flight} on ${date} is sold out. Would you like to try a different flight?`,
  refusal: (verb, code, before) =>
    before === 0
      ? `I'm sorry, I can't ${verb} booking ${code}: I can only help with bookings in your own name, so I've left it as it is.`
      : before === 1
        ? `I understand, but I still can't ${verb} booking ${code}. Only the passenger on that booking can make changes to it.`
        : `I'm sorry, I can't ${verb} booking ${code}, not even as an exception. The passenger can call us on ${AIRLINE_FACTS.phone}.`,
  refused: /\bcan't (?:cancel|change|look up) (?:the seat on )?booking ([A-Z0-9]{6})/g,
  done: /\bAll done: you're now on\b|\bhas been cancelled\b|\bYou're now in seat\b|\bYou're in seat\b|\bYou don't have a seat yet\b/,
};

const VARIED: Wording = {
  askCode: "Can I have your booking reference? It's the code on your confirmation email.",
  confirmChange: "Do you want me to book you on that flight?",
  quote: ({ flight, date, origin, time, total, fee, difference }) =>
    `Switching to flight ${flight} on ${date}, which leaves ${origin} at ${clockWords(time)}, would come to ${dollarsInWords(total)}` +
    (difference > 0 ? `: the ${dollars(fee)} change fee plus ${dollars(difference)} in fare difference.` : `, just the change fee; the fare is the same.`) +
    " Do you want me to book you on that flight?",
  changed: ({ flight, date, origin, time, charged, code }) =>
    `You're now on flight ${flight} on ${date}, leaving ${origin} at ${clockWords(time)}.` +
    (charged !== undefined ? ` I've put ${dollars(charged)} on your card on file, and your confirmation code stays ${code}.` : ` Your confirmation code stays ${code}.`),
  seat: ({ seat, flight, date }) => `Seat ${seat} is yours now, on flight ${flight} on ${date}.`,
  cancelled: ({ code, credit }) => `Booking ${code} is cancelled.${credit !== undefined ? ` The ${dollars(credit)} you paid stays with you as travel credit for a year.` : ""}`,
  lookup: ({ seat, flight, origin, destination, date, time }) => {
    const where = `flight ${flight} from ${origin} to ${destination} on ${date}, departing at ${clockWords(time)}`;
    return seat ? `You're sitting in ${seat} on ${where}.` : `You don't have a seat yet on ${where}.`;
  },
  soldOut: ({ flight, date }) => `I'm afraid flight ${flight} on ${date} is sold out, so your booking hasn't changed. Would you like a different flight?`,
  refusal: (verb, code, before) =>
    before === 0
      ? `I'm sorry, but I'm not able to ${verb} ${code}: it isn't your booking, and only the passenger who holds it can do that.`
      : before === 1
        ? `I hear you, but the answer is still no: ${code} isn't yours to ${verb}.`
        : `I really am sorry, but I can't make an exception for ${code}. The passenger can call us on ${AIRLINE_FACTS.phone}.`,
  refused: /\b(?:not able to (?:cancel|change|look up)(?: the seat on)?|exception for) ([A-Z0-9]{6})|\b([A-Z0-9]{6}) isn't yours to\b/g,
  done: /\bYou're now on flight\b|\bis cancelled\b|\bis yours now\b|\bYou're sitting in\b|\bYou don't have a seat yet\b/,
};

const WORDINGS: Record<AirlineWording, Wording> = { plain: PLAIN, varied: VARIED };

// ── Reading the conversation ─────────────────────────────────────────────────────────────────────────

type Move = "task" | "change_confirmed" | "change_declined" | "facts" | "closing" | "none";

interface Conversation {
  task?: Task;
  details: BookingDetails;
  /** The caller accepted the cost of a flight change in advance, within the current task. */
  fee_accepted: boolean;
  /** The assistant's latest turn asked to confirm a flight change. */
  confirm_pending: boolean;
  /** The assistant's latest question, to ask again after an interlude. */
  question?: string;
  /** How often the assistant has already refused each booking. */
  refusals: Record<string, number>;
  disowned: boolean;
  /** The first date the caller said in the conversation (for the fault `states_superseded_date`). */
  first_date?: string;
}

function readCaller(text: string, c: Conversation): Move {
  const parsed: BookingDetails = {};
  const code = parseCodes(text).at(-1);
  const flight = parseFlightNumbers(text).at(-1);
  const date = parseDate(text, monthOf(c.details.departure_date));
  const seat = parseSeat(text);
  c.first_date ??= firstDateSaid(text);
  if (code) parsed.confirmation_code = code;
  if (flight) parsed.flight_number = flight;
  if (date) parsed.departure_date = date;
  if (seat) parsed.seat = seat;
  const changed = (Object.keys(parsed) as Array<keyof BookingDetails>).some((k) => c.details[k] !== parsed[k]);
  c.details = { ...c.details, ...parsed };
  if (disowns(text)) c.disowned = true;

  const pending = c.confirm_pending;
  c.confirm_pending = false;
  if (pending) {
    // A new flight or date in reply to "shall I make the change?" corrects it: quote again.
    if (changed && (parsed.flight_number || parsed.departure_date)) {
      c.task = "rebook";
      c.fee_accepted = acceptsFee(text);
      return "task";
    }
    if (isYes(text)) return "change_confirmed";
    if (isNo(text)) return "change_declined";
  }
  const task = taskOf(text);
  if (task === "facts") return "facts";
  if (task) {
    if (task !== c.task) c.fee_accepted = false;
    c.task = task;
    if (acceptsFee(text)) c.fee_accepted = true;
    return "task";
  }
  if (acceptsFee(text)) c.fee_accepted = true;
  if (isClosing(text)) return "closing";
  return c.task ? "task" : "none";
}

function readAssistant(text: string, c: Conversation, w: Wording): void {
  c.confirm_pending = text.includes(w.confirmChange);
  const questions = text.match(/[^.?!]*\?/g);
  if (questions) c.question = questions.at(-1)!.trim();
  for (const m of text.matchAll(w.refused)) {
    const code = m.slice(1).find((g) => g !== undefined)!;
    c.refusals[code] = (c.refusals[code] ?? 0) + 1;
  }
  if (w.done.test(text)) {
    c.task = undefined;
    c.fee_accepted = false;
  }
}

interface Reading {
  move: Move;
  conversation: Conversation;
  authorized: string[];
  authorization_stated: boolean;
  topics: FactTopic[];
}

function readConversation(request: string, prior: { summary?: string; history: readonly HistoryMessage[] }, w: Wording): Reading {
  const c: Conversation = { details: {}, fee_accepted: false, confirm_pending: false, refusals: {}, disowned: false };
  let assistant: string[] = [];
  const settle = () => {
    if (assistant.length > 0) readAssistant(assistant.join(" "), c, w);
    assistant = [];
  };
  for (const message of prior.history) {
    if (message.role === "assistant") {
      // Consecutive assistant messages (an acknowledgement, then the result) are one turn.
      assistant.push(message.text.trim());
      continue;
    }
    settle();
    readCaller(message.text, c);
  }
  settle();
  const move = readCaller(request, c);
  const authorization = parseAuthorization(prior.summary);
  return { move, conversation: c, authorized: authorization.codes, authorization_stated: authorization.stated, topics: factTopics(request) };
}

// ── Deciding ─────────────────────────────────────────────────────────────────────────────────────────

interface FlightChange {
  confirmation_code: string;
  flight_number: string;
  departure_date: string;
}

type Action =
  | { kind: "answer"; text: string }
  | { kind: "quote"; args: FlightChange }
  | { kind: "change"; args: FlightChange; first_date?: string }
  | { kind: "seat"; args: { confirmation_code: string; seat: string } }
  | { kind: "cancel"; args: { confirmation_code: string } }
  | { kind: "lookup"; args: { confirmation_code: string } };

const VERB: Record<Task, string> = { rebook: "change", quote: "change", seat: "change the seat on", cancel: "cancel", lookup: "look up" };

function factsAnswer(topics: readonly FactTopic[]): string {
  const f = AIRLINE_FACTS;
  const sentences: Record<FactTopic, string> = {
    bags: `Your first checked bag is ${dollars(f.checked_bag_fee_usd)} on every fare, and ${f.carry_on}.`,
    change_fee: `Changing a flight costs a ${dollars(f.change_fee_usd)} change fee, plus any difference in fare.`,
    cancellation: `If you cancel, ${f.cancellation}.`,
    phone: `You can reach us on ${f.phone}.`,
  };
  return topics.length > 0 ? topics.map((t) => sentences[t]).join(" ") : HELP;
}

function decide(r: Reading, w: Wording, faults: ReadonlySet<AirlineFault>): Action {
  const c = r.conversation;
  switch (r.move) {
    case "facts":
      return { kind: "answer", text: `${factsAnswer(r.topics)}${c.task && c.question ? ` ${c.question}` : ""}` };
    case "closing":
      return { kind: "answer", text: GOODBYE };
    case "none":
      return { kind: "answer", text: HELP };
    case "change_declined":
      return { kind: "answer", text: `All right, I'll leave your booking as it is. ${ANYTHING_ELSE}` };
    case "change_confirmed":
    case "task":
      break;
  }
  const task: Task = r.move === "change_confirmed" ? "rebook" : c.task!;
  const { details } = c;
  const code = details.confirmation_code ?? (r.authorized.length === 1 ? r.authorized[0] : undefined);
  if (!code) {
    if (r.authorized.length > 1) return { kind: "answer", text: `Which booking would you like me to ${VERB[task]}: ${r.authorized.slice(0, -1).join(", ")} or ${r.authorized.at(-1)}?` };
    return { kind: "answer", text: w.askCode };
  }
  const refused = c.refusals[code] ?? 0;
  if (r.authorization_stated ? !r.authorized.includes(code) : c.disowned || refused > 0) return { kind: "answer", text: w.refusal(VERB[task], code, refused) };

  switch (task) {
    case "rebook":
    case "quote": {
      if (!details.flight_number) return { kind: "answer", text: "Which flight number would you like to move to?" };
      if (!details.departure_date) return { kind: "answer", text: `Which date would you like to fly on ${spokenFlight(details.flight_number)}?` };
      const args = { confirmation_code: code, flight_number: details.flight_number, departure_date: details.departure_date };
      const agreed = c.fee_accepted || r.move === "change_confirmed" || faults.has("changes_without_go_ahead");
      return task === "rebook" && agreed ? { kind: "change", args, ...(c.first_date ? { first_date: c.first_date } : {}) } : { kind: "quote", args };
    }
    case "seat":
      if (!details.seat) return { kind: "answer", text: "Which seat would you like?" };
      return { kind: "seat", args: { confirmation_code: code, seat: details.seat } };
    case "cancel":
      return { kind: "cancel", args: { confirmation_code: code } };
    case "lookup":
      return { kind: "lookup", args: { confirmation_code: code } };
  }
}

// ── Speaking about tool results ──────────────────────────────────────────────────────────────────────

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

const str = (v: unknown, fallback: string) => (typeof v === "string" && v.length > 0 ? v : fallback);
const num = (v: unknown) => (typeof v === "number" ? v : undefined);

function errorCode(output: Output): string | undefined {
  const nested = output.error !== null && typeof output.error === "object" ? (output.error as Output) : {};
  const code = nested.code ?? output.code;
  return typeof code === "string" ? code : undefined;
}

function failure(action: Exclude<Action, { kind: "answer" }>, output: Output, w: Wording): string {
  const code = action.args.confirmation_code;
  const flight = "flight_number" in action.args ? `flight ${spokenFlight(action.args.flight_number)} on ${spokenDate(action.args.departure_date)}` : "";
  const verb: Record<typeof action.kind, string> = { quote: "change", change: "change", seat: "change the seat on", cancel: "cancel", lookup: "look up" };
  switch (errorCode(output)) {
    case "not_authorized":
      return `I'm sorry, I can't ${verb[action.kind]} booking ${code}: it isn't one of your bookings, so I've left it as it is.`;
    case "booking_not_found":
      return `I couldn't find a booking with the code ${code}. Could you read it to me again?`;
    case "flight_not_found":
      return `I couldn't find ${flight}. Could you check the flight number?`;
    case "sold_out":
      return "flight_number" in action.args ? w.soldOut({ flight: spokenFlight(action.args.flight_number), date: spokenDate(action.args.departure_date) }, true) : failure(action, {}, w);
    case "same_flight":
      return `You're already on ${flight}, so there's nothing to change.`;
    case "seat_taken":
      return `I'm sorry, seat ${"seat" in action.args ? action.args.seat : ""} is already taken. Would you like a different seat?`;
    case "already_cancelled":
      return `Booking ${code} was already cancelled, so there's nothing more to do.`;
    case "booking_cancelled":
      return `Booking ${code} is cancelled, so I can't change it.`;
    default:
      return "I'm sorry, the reservation system couldn't do that just now.";
  }
}

function reply(action: Exclude<Action, { kind: "answer" }>, result: PolicyToolResult, w: Wording): string {
  const o = outputOf(result);
  if (result.status !== "completed" || errorCode(o) !== undefined) return failure(action, o, w);
  const flight = spokenFlight(str(o.flight_number, "flight_number" in action.args ? action.args.flight_number : ""));
  const date = spokenDate(str(o.departure_date, "departure_date" in action.args ? action.args.departure_date : ""));
  const time = str(o.departure_time, "");
  const origin = str(o.origin, "");
  const code = str(o.confirmation_code, action.args.confirmation_code);
  switch (action.kind) {
    case "quote": {
      if (o.available !== true) return w.soldOut({ flight, date }, false);
      const fee = num(o.change_fee_usd) ?? AIRLINE_FACTS.change_fee_usd;
      const difference = num(o.fare_difference_usd) ?? 0;
      return w.quote({ flight, date, origin, time, fee, difference, total: num(o.total_due_usd) ?? fee + difference });
    }
    case "change":
      return w.changed({ flight, date, origin, time, code, charged: num(o.charged_usd) ?? num(o.total_due_usd) });
    case "seat":
      return w.seat({ seat: str(o.seat, action.args.seat), flight, date });
    case "cancel":
      return w.cancelled({ code, credit: num(o.travel_credit_usd) });
    case "lookup":
      return w.lookup({ seat: typeof o.seat === "string" ? o.seat : null, flight, origin, destination: str(o.destination, ""), date, time });
  }
}

async function carryOut(action: Exclude<Action, { kind: "answer" }>, tools: PolicyTools, w: Wording, faults: ReadonlySet<AirlineFault>): Promise<string> {
  const tool = { quote: "quote_change", change: "change_flight", seat: "change_seat", cancel: "cancel_booking", lookup: "get_booking" }[action.kind];
  const result = await tools.call(tool, { ...action.args });
  const done = result.status === "completed" && errorCode(outputOf(result)) === undefined;
  if (action.kind === "change" && faults.has("repeats_change")) await tools.call(tool, { ...action.args });
  if (done && action.kind !== "quote" && action.kind !== "lookup" && faults.has("goodbye_instead_of_result")) return `Thank you for calling ${AIRLINE_FACTS.name}. Goodbye!`;
  if (done && action.kind === "change" && action.first_date && faults.has("states_superseded_date"))
    return reply({ ...action, args: { ...action.args } }, { ...result, output: { ...outputOf(result), departure_date: action.first_date } }, w);
  return reply(action, result, w);
}

// ── The two halves ───────────────────────────────────────────────────────────────────────────────────

const ACKNOWLEDGEMENTS: Record<Exclude<Action["kind"], "answer">, string> = {
  quote: "Let me see what that would cost.",
  change: "One moment while I move you to that flight.",
  seat: "One moment while I change your seat.",
  cancel: "One moment while I cancel that.",
  lookup: "Let me pull up your booking.",
};

/**
 * The backend's view of earlier turns: its transcript up to the current request. What follows the request
 * (the acknowledgement being spoken, under managed delegation) is not earlier context.
 */
function backendContext(task: BackendTask): { summary?: string; history: readonly HistoryMessage[] } {
  const transcript: readonly HistoryMessage[] = task.transcript.length > 0 ? task.transcript : (task.context?.history ?? []);
  const request = task.request.trim();
  let at = transcript.length;
  while (at > 0 && !(transcript[at - 1]!.role === "user" && transcript[at - 1]!.text.trim() === request)) at--;
  return { summary: task.context?.summary, history: at > 0 ? transcript.slice(0, at - 1) : transcript };
}

export function airlinePolicy(options: { wording?: AirlineWording; faults?: readonly AirlineFault[] } = {}): AssistantPolicy {
  const wording = options.wording ?? "plain";
  const w = WORDINGS[wording];
  const faults: ReadonlySet<AirlineFault> = new Set(options.faults ?? []);
  return {
    name: [AIRLINE_POLICY_NAME, ...(wording === "plain" ? [] : [wording]), ...[...faults].sort()].join("+"),
    version: AIRLINE_POLICY_VERSION,
    greeting: () => `Thank you for calling ${AIRLINE_FACTS.name}. How can I help?`,

    frontend(turn: PolicyTurn): FrontendDecision {
      const action = decide(readConversation(turn.request, { summary: turn.context?.summary, history: turn.context?.history ?? [] }, w), w, faults);
      if (action.kind === "answer") return { kind: "reply", text: tidyPunctuation(action.text) };
      return { kind: "delegate", acknowledgement: ACKNOWLEDGEMENTS[action.kind] };
    },

    async backend(task: BackendTask, tools: PolicyTools): Promise<BackendResult> {
      const action = decide(readConversation(task.request, backendContext(task), w), w, faults);
      if (action.kind === "answer") return { reply: tidyPunctuation(action.text) };
      return { reply: tidyPunctuation(await carryOut(action, tools, w, faults)) };
    },
  };
}
