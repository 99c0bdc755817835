import type { HistoryMessage } from "crashlab/alpha";
import {
  bareName,
  classifyIntent,
  factTopics,
  isAffirmative,
  isBackchannel,
  isClosing,
  isNegative,
  parseAuthorization,
  disownsReservation,
  parseDetails,
  parseReservationIds,
  withoutAuthorization,
  type FactTopic,
  type ParseOptions,
  type ReservationDetails,
} from "./parse";

/*
 * Reading a whole conversation: what the caller wants now, with which details, and where the assistant's
 * own last turn left things (a question, an offer, a request to confirm). The policy keeps no memory of
 * its own; everything comes from the words so far, so the voice frontend and the backend, each handed the
 * same conversation, reach the same decision.
 *
 * The assistant's turns are read back by the phrases ./policy speaks (see ASSISTANT_PHRASES); assistant
 * turns written by anyone else (a history in a dataset) simply match none of them.
 */

export type Task = "booking" | "availability" | "cancellation";

/** How the assistant's latest turn left the conversation. */
export interface AssistantTurn {
  text: string;
  /** It asked for the guest name. */
  asked_name: boolean;
  /** It offered a free table ("Would you like me to book it?"). */
  offered: boolean;
  /** It asked the caller to confirm cancelling this reservation. */
  confirm_cancel?: string;
  /** It reported the slot unavailable, or a booking that could not be made. */
  unavailable: boolean;
  /** Its last question, to ask again after an interlude. */
  question?: string;
}

export type Move =
  /** Work on the current task (book, check, cancel, or ask for what is missing). */
  | "task"
  /** An explicit yes to "shall I go ahead and cancel it?". */
  | "cancel_confirmed"
  /** A no to it. */
  | "cancel_declined"
  /** A no to "would you like me to book it?". */
  | "offer_declined"
  | "facts"
  | "closing"
  | "backchannel"
  | "none";

export interface Reading {
  move: Move;
  task?: Task;
  /** Caller turns spent on the current task, this request included: 1 when this request opened it. */
  task_turns: number;
  /** Details merged over the conversation; the latest value the caller gave wins. */
  details: ReservationDetails;
  /** Details this request changed from a value given earlier. */
  changed: Array<keyof ReservationDetails>;
  topics: FactTopic[];
  /** Reservation ids the summary authorizes this caller for. */
  authorized: string[];
  /** Whether the summary says anything about authorization (see parseAuthorization). */
  authorization_stated: boolean;
  /** This request says the reservation it names is someone else's. */
  disowned: boolean;
  /** The assistant's latest turn, when there was one. */
  last?: AssistantTurn;
  /** How often the assistant has already refused to cancel each reservation. */
  refusals: Record<string, number>;
  /** Bookings the assistant confirmed earlier in the conversation. */
  booked: ReservationDetails[];
}

export interface ReadOptions {
  parse?: ParseOptions;
  /** Fault `ignores_late_correction`: a detail keeps the first value the caller gave it. */
  firstValueWins?: boolean;
  /** Fault `forgets_context_after_unavailable`: details said before an unavailable slot are dropped. */
  forgetOnUnavailable?: boolean;
}

/** The phrases the policy speaks and reads back; ./policy builds its replies with them. */
export const ASSISTANT_PHRASES = {
  offer: "Would you like me to book it?",
  confirmCancel: "Shall I go ahead and cancel it?",
  askName: "What name should I put the reservation under?",
} as const;

const OFFERED = /would you like me to book it\?/i;
const CONFIRM_CANCEL = /shall i go ahead and cancel it\?/i;
const ASKED_NAME = /what name should i put the reservation under\?|the name for the reservation/i;
const UNAVAILABLE = /\bdon't have a table\b|\bcouldn't book\b/i;
const BOOKED = /\byou're (?:already )?booked\b/i;
const TASK_OVER = /\bis now cancelled\b|\bI won't cancel\b/i;
const REFUSED = /(?:can't|couldn't) cancel reservation (R-[A-Z0-9]+)/gi;

function readAssistant(text: string): AssistantTurn {
  const questions = text.match(/[^.?!]*\?/g);
  const confirm = CONFIRM_CANCEL.test(text) ? parseReservationIds(text).at(-1) : undefined;
  return {
    text,
    asked_name: ASKED_NAME.test(text),
    offered: OFFERED.test(text),
    ...(confirm ? { confirm_cancel: confirm } : {}),
    unavailable: UNAVAILABLE.test(text),
    ...(questions ? { question: questions.at(-1)!.trim() } : {}),
  };
}

const SLOT_FIELDS = ["date", "time", "party_size", "seating"] as const;
const hasSlot = (details: ReservationDetails) => SLOT_FIELDS.some((field) => details[field] !== undefined);
const sameFamily = (a: Task | undefined, b: Task) => a === b || (a !== "cancellation" && a !== undefined && b !== "cancellation");

interface State {
  task?: Task;
  taskTurns: number;
  details: ReservationDetails;
  last?: AssistantTurn;
  refusals: Record<string, number>;
  booked: ReservationDetails[];
}

/** What one caller utterance does, given where the conversation stands. Updates `state`. */
function readCaller(text: string, state: State, options: ReadOptions): { move: Move; changed: Array<keyof ReservationDetails> } {
  const parsed = parseDetails(text, options.parse);
  const last = state.last;
  if (parsed.guest_name === undefined && last?.asked_name) {
    // "Grace Lin, please." or "Ines, and three of us.": the name given first, on its own.
    const name = bareName(text) ?? bareName(text.split(/,|\band\b/)[0]!);
    if (name) parsed.guest_name = name;
  }

  const before = state.details;
  const merged: ReservationDetails = { ...before };
  for (const [key, value] of Object.entries(parsed) as Array<[keyof ReservationDetails, never]>)
    if (!options.firstValueWins || merged[key] === undefined) merged[key] = value;
  const changed = (Object.keys(parsed) as Array<keyof ReservationDetails>).filter((key) => before[key] !== undefined && merged[key] !== before[key]);
  state.details = merged;

  const begin = (task: Task): { move: Move; changed: typeof changed } => {
    state.taskTurns = sameFamily(state.task, task) ? state.taskTurns + 1 : 1;
    state.task = task;
    return { move: "task", changed };
  };

  const intent = classifyIntent(text);
  const yes = isAffirmative(text);
  const no = isNegative(text);

  if (last?.confirm_cancel) {
    // Naming another reservation corrects the one to cancel; it is confirmed afresh.
    if (parsed.reservation_id && parsed.reservation_id !== last.confirm_cancel) return begin("cancellation");
    if (yes) return { move: "cancel_confirmed", changed };
    if (no) return { move: "cancel_declined", changed };
    return begin("cancellation");
  }
  if (last?.offered && !no && (yes || intent === "booking")) return begin("booking");
  if (last?.offered && no && intent === "none" && !hasSlot(parsed)) return { move: "offer_declined", changed };

  if (intent === "booking" || intent === "availability" || intent === "cancellation") {
    // "That one is my sister's booking, mine is R-3110" continues a cancellation; it books nothing.
    if (intent === "booking" && state.task === "cancellation" && parsed.reservation_id && !hasSlot(parsed)) return begin("cancellation");
    return begin(intent);
  }
  if (intent === "facts") return { move: "facts", changed };
  if (isClosing(text) && !hasSlot(parsed)) return { move: "closing", changed };
  if (isBackchannel(text)) return { move: "backchannel", changed };
  if (state.task) {
    // After an unavailable slot, a new date or time is something to check before booking it.
    if (last?.unavailable && state.task !== "cancellation" && hasSlot(parsed)) return begin("availability");
    return begin(state.task);
  }
  return { move: "none", changed };
}

function afterAssistant(text: string, state: State, options: ReadOptions): void {
  const turn = readAssistant(text);
  state.last = turn;
  for (const match of text.matchAll(REFUSED)) {
    const id = match[1]!.toUpperCase();
    state.refusals[id] = (state.refusals[id] ?? 0) + 1;
  }
  if (BOOKED.test(text)) {
    state.booked.push(parseDetails(text));
    state.task = undefined;
  }
  if (TASK_OVER.test(text)) state.task = undefined;
  if (turn.unavailable && options.forgetOnUnavailable) state.details = {};
}

/**
 * Read the conversation: the authorized summary, the earlier turns (history, then this session's) and the
 * caller's current request.
 */
export function readConversation(
  request: string,
  prior: { summary?: string; history: readonly HistoryMessage[] },
  options: ReadOptions = {},
): Reading {
  const state: State = { taskTurns: 0, details: {}, refusals: {}, booked: [] };
  if (prior.summary) {
    // The summary is context, not a caller turn: it may carry details and a task, but no turns.
    readCaller(withoutAuthorization(prior.summary), state, options);
    state.taskTurns = 0;
  }
  let assistant: string[] = [];
  const settle = () => {
    if (assistant.length > 0) afterAssistant(assistant.join(" "), state, options);
    assistant = [];
  };
  for (const message of prior.history) {
    if (message.role === "assistant") {
      // Consecutive assistant messages (an acknowledgement, then the result) are one turn.
      assistant.push(message.text.trim());
      continue;
    }
    settle();
    readCaller(message.text, state, options);
    state.last = undefined;
  }
  settle();
  const { move, changed } = readCaller(request, state, options);
  const authorization = parseAuthorization(prior.summary);
  return {
    move,
    ...(state.task ? { task: state.task } : {}),
    task_turns: state.taskTurns,
    details: state.details,
    changed,
    topics: factTopics(request),
    authorized: authorization.reservation_ids,
    authorization_stated: authorization.stated,
    disowned: disownsReservation(request),
    ...(state.last ? { last: state.last } : {}),
    refusals: state.refusals,
    booked: state.booked,
  };
}
