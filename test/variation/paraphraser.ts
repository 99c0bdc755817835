import { resayValues } from "./spoken-values";

/**
 * A seeded paraphraser for the restaurant assistant's sentences: every sentence the policy can speak has a
 * template with at least three rewordings that keep its facts (values may be said in another spoken form,
 * see ./spoken-values). The choice depends only on the seed and the sentence, so a run is reproducible
 * whatever order its trials take.
 */

type Frame = (g: Record<string, string>) => string;
interface Template {
  id: string;
  /** The whole sentence, with named groups for the parts the rewordings carry over. */
  pattern: RegExp;
  frames: Frame[];
}

const ID = "(?<id>R-[A-Z0-9]+)";
const NAME = "Harbor Table";

/** Items of "I still need …" said differently. */
const DETAIL_ITEMS: Record<string, string[]> = {
  "the name for the reservation": ["a name to book it under", "the name the booking goes under", "whose name it should be under"],
  "the date": ["the day you'd like", "which day", "the date you have in mind"],
  "the time": ["what time", "the time you'd like", "the hour you have in mind"],
  "how many people are coming": ["the size of your party", "how many guests there will be", "the number of people"],
};

export const TEMPLATES: Template[] = [
  // ---- the frontend, without the backend ----
  { id: "lead_booking", pattern: /^I'd be happy to book a table\.$/, frames: [() => "I can certainly set up a reservation for you.", () => "Happy to get a reservation started for you.", () => "Sure, let's get you a table."] },
  { id: "lead_check", pattern: /^I can check that for you\.$/, frames: [() => "I can look into that for you.", () => "Sure, I can find that out.", () => "Happy to look that up."] },
  {
    id: "still_need",
    pattern: /^I still need (?<list>.+)\.$/,
    frames: [(g) => `To go ahead, I'll need ${g.list}.`, (g) => `I'm still missing ${g.list}.`, (g) => `What I don't have yet is ${g.list}.`],
  },
  { id: "ask_name", pattern: /^What name should I put the reservation under\?$/, frames: [() => "Under what name should I make the booking?", () => "Which name would you like the reservation under?", () => "Whose name should the booking be under?"] },
  { id: "ask_date", pattern: /^What date would you like\?$/, frames: [() => "Which day would you like to come in?", () => "What day works for you?", () => "For which date should I look?"] },
  { id: "ask_time", pattern: /^What time would you like\?$/, frames: [() => "What time works best for you?", () => "At what time would you like to come?", () => "Which time should I put down?"] },
  { id: "ask_party", pattern: /^How many people will be joining\?$/, frames: [() => "How many guests will there be?", () => "How big is your party?", () => "For how many people should the table be?"] },
  { id: "ask_several", pattern: /^Could you tell me\?$/, frames: [() => "Could you let me know?", () => "Would you tell me those?", () => "Can you give me those details?"] },
  { id: "got_it", pattern: /^Got it: (?<what>.+)\.$/, frames: [(g) => `Understood, ${g.what}.`, (g) => `Okay, so that's ${g.what}.`, (g) => `Noted: ${g.what}.`] },
  { id: "thanks", pattern: /^Thank you\.$/, frames: [() => "Thanks.", () => "Great, thanks.", () => "Perfect, thank you."] },
  {
    id: "hours",
    pattern: /^Harbor Table is open daily from (?<open>.+) until (?<close>.+)\.$/,
    frames: [(g) => `We're open every day from ${g.open} to ${g.close}.`, (g) => `Our hours are ${g.open} to ${g.close}, every day of the week.`, (g) => `Every day, ${NAME} opens at ${g.open} and closes at ${g.close}.`],
  },
  {
    id: "parking",
    pattern: /^Free parking in the lot behind the restaurant; street parking after (?<t>.+)\.$/,
    frames: [
      (g) => `There's free parking in the lot behind us, and you can park on the street after ${g.t}.`,
      (g) => `You can park for free in our lot out back; street parking opens up after ${g.t}.`,
      (g) => `Parking is free behind the restaurant, and after ${g.t} there's street parking too.`,
    ],
  },
  { id: "address", pattern: /^We're at (?<a>.+)\.$/, frames: [(g) => `Our address is ${g.a}.`, (g) => `You'll find us at ${g.a}.`, (g) => `We're located at ${g.a}.`] },
  { id: "phone", pattern: /^Our phone number is (?<p>.+)\.$/, frames: [(g) => `You can reach us at ${g.p}.`, (g) => `Our number is ${g.p}.`, (g) => `The number to call is ${g.p}.`] },
  { id: "reached", pattern: /^You've reached Harbor Table\.$/, frames: [() => `You're speaking with ${NAME}.`, () => `You've called ${NAME}.`, () => `You've got ${NAME} on the line.`] },
  { id: "help_this_is", pattern: /^This is Harbor Table\.$/, frames: [() => `Hello from ${NAME}.`, () => `${NAME} here.`, () => `Hi, you're through to ${NAME}.`] },
  {
    id: "help_what",
    pattern: /^I can book a table, check availability, cancel a reservation, or tell you about our hours, address and parking\.$/,
    frames: [
      () => "I can make a reservation, see what's free, cancel a booking, or tell you our hours, where we are and where to park.",
      () => "I'm able to reserve a table, look up availability, cancel a booking, or answer questions about hours, our address and parking.",
      () => "Reservations, availability, cancellations, or our hours, address and parking: I can help with any of those.",
    ],
  },
  { id: "help_how", pattern: /^How can I help\?$/, frames: [() => "What can I do for you?", () => "How may I help you?", () => "What can I help you with?"] },
  { id: "anything_else", pattern: /^Is there anything else I can help you with\?$/, frames: [() => "Can I help with anything else?", () => "Is there something else I can do for you?", () => "Anything else I can do for you today?"] },
  { id: "welcome", pattern: /^You're welcome\.$/, frames: [() => "My pleasure.", () => "You're very welcome.", () => "Glad I could help."] },
  { id: "thanks_for_calling", pattern: /^Thank you for calling Harbor Table\.$/, frames: [() => `Thanks for calling ${NAME}.`, () => `Thank you for phoning ${NAME}.`, () => `We appreciate your call to ${NAME}.`] },
  { id: "goodbye", pattern: /^Goodbye!$/, frames: [() => "Bye now!", () => "Have a good day, goodbye!", () => "Take care, bye!"] },
  { id: "wont_book", pattern: /^All right, I won't book it\.$/, frames: [() => "Okay, I'll leave it unbooked.", () => "No problem, I won't make the reservation.", () => "Understood, I won't reserve it."] },
  { id: "another_time", pattern: /^Would you like to try another time\?$/, frames: [() => "Shall we look at some other time?", () => "Do you want to try a later or earlier time?", () => "Would another time work for you?"] },
  { id: "different_time", pattern: /^Would you like to try a different time\?$/, frames: [() => "Shall we try some other time instead?", () => "Do you want me to look at a different time?", () => "Would some other time suit you?"] },
  {
    id: "wont_cancel",
    pattern: new RegExp(`^All right, I won't cancel reservation ${ID}; it stays as it is\\.$`),
    frames: [(g) => `Okay, reservation ${g.id} stays in place; I won't cancel it.`, (g) => `No problem, I'll keep reservation ${g.id} as it is.`, (g) => `Understood, I'm leaving reservation ${g.id} unchanged.`],
  },
  {
    id: "which_number",
    pattern: /^Which reservation number would you like to cancel\?$/,
    frames: [() => "What's the number of the reservation you want to cancel?", () => "Which booking number should I cancel?", () => "Could you give me the number of the reservation to cancel?"],
  },
  {
    id: "not_yours",
    pattern: new RegExp(`^I'm sorry, I can't cancel reservation ${ID}: I can only cancel a reservation that is yours, so I've left it unchanged\\.$`),
    frames: [
      (g) => `I'm afraid reservation ${g.id} isn't something I can cancel, since only your own reservations can be cancelled; it's unchanged.`,
      (g) => `Sorry, I'm not able to cancel reservation ${g.id}: cancellations are only possible for reservations that belong to you, so it stays as it is.`,
      (g) => `Unfortunately I won't be able to cancel reservation ${g.id}; I can cancel only reservations that are yours, and I've left it untouched.`,
    ],
  },
  {
    id: "confirm_cancel_lead",
    pattern: new RegExp(`^Just to confirm, you'd like me to cancel reservation ${ID}\\.$`),
    frames: [(g) => `So you want reservation ${g.id} cancelled.`, (g) => `Let me make sure: you're asking me to cancel reservation ${g.id}.`, (g) => `To double-check, it's reservation ${g.id} you'd like cancelled.`],
  },
  { id: "confirm_cancel", pattern: /^Shall I go ahead and cancel it\?$/, frames: [() => "Should I cancel it now?", () => "Do you want me to go ahead with the cancellation?", () => "Is it okay for me to cancel it?"] },
  {
    id: "which_of_yours",
    pattern: /^Which reservation would you like to cancel: (?<list>.+)\?$/,
    frames: [(g) => `Which of your reservations should I cancel: ${g.list}?`, (g) => `Which booking do you want cancelled, ${g.list}?`, (g) => `You have ${g.list}; which one should I cancel?`],
  },
  {
    id: "cannot_verify",
    pattern: /^I'm sorry, I can't cancel a reservation unless I can verify that it's yours, and I don't have a verified reservation for you on this call\.$/,
    frames: [
      () => "I'm afraid I can only cancel a reservation once I've verified it's yours, and on this call I have no verified reservation for you.",
      () => "Sorry, cancelling needs a reservation I can confirm belongs to you, and none is verified for you on this call.",
      () => "Unfortunately there's no reservation verified as yours on this call, and without that I'm not able to cancel one.",
    ],
  },
  {
    id: "still_cannot",
    pattern: new RegExp(`^I understand, but I still can't cancel reservation ${ID}: I can only cancel reservations I can verify as yours, so it stays unchanged\\.$`),
    frames: [
      (g) => `I hear you, but reservation ${g.id} still isn't something I can cancel; only reservations verified as yours can be, so it stays as it is.`,
      (g) => `I understand; even so, I'm not able to cancel reservation ${g.id}, because I can only cancel reservations I can confirm are yours. It remains unchanged.`,
      (g) => `I'm sorry, but cancelling reservation ${g.id} still isn't possible: I can cancel only reservations verified as yours, and it's left unchanged.`,
    ],
  },
  {
    id: "no_exception",
    pattern: new RegExp(`^I'm sorry, I can't cancel reservation ${ID}, not even as an exception\\.$`),
    frames: [(g) => `I'm afraid reservation ${g.id} can't be cancelled, even as an exception.`, (g) => `Sorry, I won't be able to cancel reservation ${g.id}, not even this once.`, (g) => `Unfortunately I can't make an exception and cancel reservation ${g.id}.`],
  },
  {
    id: "only_verified",
    pattern: /^Only a reservation I can verify as yours can be cancelled on this call\.$/,
    frames: [() => "On this call I can cancel only a reservation verified as yours.", () => "Cancelling on this call is limited to reservations I can confirm are yours.", () => "Just reservations verified as yours can be cancelled on this call."],
  },
  {
    id: "refuse_because",
    pattern: new RegExp(`^I'm sorry, I can't cancel reservation ${ID} because (?<why>I haven't been able to verify that it's yours|it isn't one of the reservations I can verify as yours), so I've left it unchanged\\.$`),
    frames: [
      (g) => `I'm afraid reservation ${g.id} isn't something I can cancel, since ${g.why === "I haven't been able to verify that it's yours" ? "I couldn't verify it's yours" : "it's not among the reservations verified as yours"}; it stays unchanged.`,
      (g) => `Sorry, I'm not able to cancel reservation ${g.id}: ${g.why === "I haven't been able to verify that it's yours" ? "I have no way to verify that it's yours" : "it isn't one I can verify as yours"}, so I've left it as it is.`,
      (g) => `Unfortunately reservation ${g.id} can't be cancelled on this call, because ${g.why === "I haven't been able to verify that it's yours" ? "I can't verify it belongs to you" : "it's not one of the reservations I can verify as yours"}. It's unchanged.`,
    ],
  },
  {
    id: "already_booked",
    pattern: new RegExp(`^You're already booked for that: (?<summary>.+), reservation ${ID}\\.$`),
    frames: [(g) => `That booking already exists: ${g.summary}, reservation ${g.id}.`, (g) => `You already have that reservation, ${g.summary}, number ${g.id}.`, (g) => `Good news, that's already reserved for you: ${g.summary}, reservation ${g.id}.`],
  },
  // ---- acknowledgements while the backend works ----
  { id: "ack_check", pattern: /^Let me check that for you\.$/, frames: [() => "Let me take a look.", () => "I'll check on that now.", () => "Give me a second to look."] },
  { id: "ack_book", pattern: /^One moment while I book that\.$/, frames: [() => "Just a moment while I make that reservation.", () => "Bear with me while I set that up.", () => "Hold on a second while I take care of the booking."] },
  { id: "ack_cancel", pattern: /^One moment while I cancel that\.$/, frames: [() => "Just a moment while I take care of the cancellation.", () => "Bear with me while I cancel it.", () => "Hold on a second while I process that cancellation."] },
  { id: "ack_look_up", pattern: /^Let me look that up\.$/, frames: [() => "I'll find that for you.", () => "Let me find out.", () => "Checking that for you now."] },
  // ---- the backend's answers from tool results ----
  {
    id: "check_failed",
    pattern: /^I'm sorry, I couldn't check availability just now: (?<reason>.+)\.$/,
    frames: [(g) => `Sorry, I wasn't able to check availability right now: ${g.reason}.`, (g) => `I'm afraid the availability check didn't go through: ${g.reason}.`, (g) => `Unfortunately I couldn't look up availability at the moment: ${g.reason}.`],
  },
  {
    id: "available",
    pattern: /^Good news: we have (?<table>.+) on (?<date>.+) at (?<time>.+?)\.$/,
    frames: [(g) => `Good news, ${g.table} is free on ${g.date} at ${g.time}.`, (g) => `Yes, we do have ${g.table} available on ${g.date} at ${g.time}.`, (g) => `I can offer you ${g.table} on ${g.date} at ${g.time}.`],
  },
  { id: "offer", pattern: /^Would you like me to book it\?$/, frames: [() => "Shall I reserve it for you?", () => "Do you want me to book that?", () => "Should I go ahead and reserve it?"] },
  {
    id: "unavailable",
    pattern: /^I'm sorry, we don't have (?<table>.+) available on (?<date>.+?) at (?<time>.+?)(?: \((?<reason>.+)\))?\.$/,
    frames: [
      (g) => `Unfortunately ${g.table} isn't available on ${g.date} at ${g.time}${g.reason ? `; ${g.reason}` : ""}.`,
      (g) => `Sorry, there's no ${g.table.replace(/^a /, "")} free on ${g.date} at ${g.time}${g.reason ? `, as ${g.reason}` : ""}.`,
      (g) => `I'm afraid ${g.date} at ${g.time} doesn't work for ${g.table}${g.reason ? `: ${g.reason}` : ""}.`,
    ],
  },
  {
    id: "booking_failed",
    pattern: /^I'm sorry, I couldn't book a table for (?<name>.+) on (?<date>.+?) at (?<time>.+?): (?<reason>.+)\.$/,
    frames: [
      (g) => `Sorry, the booking for ${g.name} on ${g.date} at ${g.time} didn't go through: ${g.reason}.`,
      (g) => `I'm afraid I wasn't able to reserve a table for ${g.name} on ${g.date} at ${g.time}, because ${g.reason}.`,
      (g) => `Unfortunately I couldn't make the reservation for ${g.name} on ${g.date} at ${g.time}: ${g.reason}.`,
    ],
  },
  {
    id: "booked",
    pattern: /^You're booked: (?<table>.+) under (?<name>.+) on (?<date>.+?) at (?<time>.+?)\.$/,
    frames: [
      (g) => `All set, I've booked ${g.table} under ${g.name} for ${g.date} at ${g.time}.`,
      (g) => `Done: ${g.table} is reserved under ${g.name} on ${g.date} at ${g.time}.`,
      (g) => `Your reservation is confirmed, ${g.table} under the name ${g.name}, ${g.date} at ${g.time}.`,
    ],
  },
  { id: "reservation_number", pattern: new RegExp(`^Your reservation number is ${ID}\\.$`), frames: [(g) => `The confirmation number is ${g.id}.`, (g) => `Your booking reference is ${g.id}.`, (g) => `Please note your reservation number, ${g.id}.`] },
  {
    id: "cancel_failed",
    pattern: new RegExp(`^I'm sorry, I couldn't cancel reservation ${ID}: (?<reason>.+)\\.$`),
    frames: [(g) => `Sorry, cancelling reservation ${g.id} didn't work: ${g.reason}.`, (g) => `I'm afraid reservation ${g.id} couldn't be cancelled, because ${g.reason}.`, (g) => `Unfortunately I wasn't able to cancel reservation ${g.id}: ${g.reason}.`],
  },
  { id: "cancelled", pattern: new RegExp(`^Reservation ${ID} is now cancelled\\.$`), frames: [(g) => `I've cancelled reservation ${g.id}.`, (g) => `Reservation ${g.id} has been cancelled.`, (g) => `Done, reservation ${g.id} is cancelled now.`] },
  // ---- the simulator's default greeting (the restaurant policy has none of its own) ----
  { id: "greeting_hello", pattern: /^Hello, thanks for calling\.$/, frames: [() => "Hi there, thank you for calling.", () => "Good day, and thanks for the call.", () => "Hello, and thank you for ringing us."] },
  { id: "greeting_how", pattern: /^How can I help you today\?$/, frames: [() => "What can I do for you today?", () => "How may I help you today?", () => "What brings you to call today?"] },
];

/** Sentences of an assistant text: split after . ? ! before a capital (so "7 p.m. on" stays whole). */
export function sentences(text: string): string[] {
  return text.trim().split(/(?<=[.?!])\s+(?=[A-Z])/).filter((s) => s.length > 0);
}

/** FNV-1a over a string: the seeded choice, independent of call order. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export interface Paraphrased {
  text: string;
  /** Template id per sentence; null for a sentence no template matched (said as it was). */
  templates: Array<string | null>;
}

/** A sentence reworded by its template, values said in another form; null when no template matches. */
export function paraphraseSentence(sentence: string, seed: number): { text: string; template: string; frame: number } | null {
  // A sentence ending in "p.m." has lost its own full stop to the abbreviation's: give it back for matching.
  const subject = /\b[ap]\.m\.$/.test(sentence) ? `${sentence}.` : sentence;
  for (const template of TEMPLATES) {
    const m = template.pattern.exec(subject);
    if (!m) continue;
    const pick = (what: string, n: number) => hash(`${seed}|${what}|${sentence}`) % n;
    const groups: Record<string, string> = {};
    for (const [key, value] of Object.entries(m.groups ?? {})) {
      if (value === undefined) continue;
      groups[key] = key === "list" && template.id === "still_need" ? resayList(value, (n) => pick(`list`, n)) : resayValues(value, (what, n) => pick(`${key}.${what}`, n));
    }
    const frame = pick("frame", template.frames.length);
    return { text: tidy(template.frames[frame]!(groups)), template: template.id, frame };
  }
  return null;
}

function resayList(list: string, pick: (n: number) => number): string {
  let out = list;
  for (const [item, forms] of Object.entries(DETAIL_ITEMS)) out = out.replace(item, forms[pick(forms.length)]!);
  return out;
}

/** "…7 p.m.." → "…7 p.m.", a capital after a leading lower-case value. */
function tidy(text: string): string {
  const t = text.replace(/\.\.(?!\.)/g, ".").replace(/\s+/g, " ").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A whole assistant text, sentence by sentence. */
export function paraphrase(text: string, seed: number): Paraphrased {
  const out: string[] = [];
  const templates: Array<string | null> = [];
  for (const sentence of sentences(text)) {
    const p = paraphraseSentence(sentence, seed);
    out.push(p?.text ?? sentence);
    templates.push(p?.template ?? null);
  }
  return { text: out.join(" "), templates };
}
