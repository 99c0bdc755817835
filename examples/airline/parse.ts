/** Reading a caller's words: confirmation codes (also spelled out), flight numbers, dates with corrections, seats and what the caller wants. */
import { AIRLINE_FACTS } from "./facts";

export type Task = "rebook" | "quote" | "seat" | "cancel" | "lookup";

export interface BookingDetails {
  confirmation_code?: string;
  flight_number?: string;
  /** YYYY-MM-DD */
  departure_date?: string;
  seat?: string;
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const DIGIT_WORDS: Record<string, string> = { zero: "0", oh: "0", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9" };
const ORDINAL_WORDS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
  eighteenth: 18, nineteenth: 19, twentieth: 20, "twenty-first": 21, "twenty-second": 22, "twenty-third": 23,
  "twenty-fourth": 24, "twenty-fifth": 25, "twenty-sixth": 26, "twenty-seventh": 27, "twenty-eighth": 28,
  "twenty-ninth": 29, thirtieth: 30, "thirty-first": 31,
};

// ── Confirmation codes ───────────────────────────────────────────────────────────────────────────────

const hasLetterAndDigit = (s: string) => /[A-Z]/.test(s) && /\d/.test(s);

/**
 * Confirmation codes in the order said: written as one token ("QX7K2B"), or read out one character at a time
 * ("Q, X, seven, K, two, B", "Q as in Quebec, X, 7…").
 */
export function parseCodes(text: string): string[] {
  const found: Array<{ at: number; code: string }> = [];
  for (const m of text.matchAll(/\b[A-Z0-9]{6}\b/g)) if (hasLetterAndDigit(m[0])) found.push({ at: m.index, code: m[0] });
  // Spelled out: runs of single characters, each a capital letter, a digit or a digit word.
  const plain = text.replace(/\b([A-Z]) as in [A-Z][a-z]+/g, "$1");
  const tokens = [...plain.matchAll(/[A-Za-z0-9]+(?:-[A-Za-z]+)?/g)];
  let run: Array<{ at: number; ch: string }> = [];
  const flush = () => {
    for (let i = 0; i + 6 <= run.length; i += 6) {
      const code = run.slice(i, i + 6).map((t) => t.ch).join("");
      if (hasLetterAndDigit(code)) found.push({ at: run[i]!.at, code });
    }
    run = [];
  };
  for (const t of tokens) {
    const word = t[0];
    const ch = /^[A-Z]$/.test(word) ? word : /^\d$/.test(word) ? word : DIGIT_WORDS[word.toLowerCase()];
    if (ch === undefined) flush();
    else run.push({ at: t.index, ch });
  }
  flush();
  return found.sort((a, b) => a.at - b.at).map((f) => f.code);
}

// ── Flights, seats ───────────────────────────────────────────────────────────────────────────────────

/** "NW 218", "NW218", "Northwind 218", "flight 218" → "NW218". */
export function parseFlightNumbers(text: string): string[] {
  return [...text.matchAll(/\b(?:NW|Northwind)\s*-?\s*(\d{2,4})\b|\bflight\s+(?:number\s+)?(\d{3,4})\b/gi)].map((m) => `NW${m[1] ?? m[2]}`);
}

/** "seat 12A", "12 A", "14C" → "12A" (the last one said). */
export function parseSeat(text: string): string | undefined {
  const seats = [...text.matchAll(/\b(?:seat\s+)?([1-9]|[12]\d|30)\s?([A-F])\b/g)].map((m) => `${m[1]}${m[2]}`);
  return seats.at(-1);
}

// ── Dates ────────────────────────────────────────────────────────────────────────────────────────────

const pad = (n: number) => String(n).padStart(2, "0");
const DAY = String.raw`(\d{1,2})(?:st|nd|rd|th)?|(${Object.keys(ORDINAL_WORDS).join("|")})`;
const MONTH = `(${MONTHS.join("|")})`;
const DATE_FORMS: Array<{ re: RegExp; month: number | null; day: number; dayWord: number; iso?: true }> = [
  { re: /\b(\d{4})-(\d{2})-(\d{2})\b/gi, month: 2, day: 3, dayWord: 0, iso: true },
  { re: new RegExp(String.raw`\b${MONTH}\s+(?:the\s+)?(?:${DAY})\b`, "gi"), month: 1, day: 2, dayWord: 3 },
  { re: new RegExp(String.raw`\b(?:the\s+)?(?:${DAY})\s+of\s+${MONTH}\b`, "gi"), month: 3, day: 1, dayWord: 2 },
  { re: new RegExp(String.raw`\bthe\s+(?:(\d{1,2})(?:st|nd|rd|th)|(${Object.keys(ORDINAL_WORDS).join("|")}))\b`, "gi"), month: null, day: 1, dayWord: 2 },
];

/**
 * The departure date the caller means, as YYYY-MM-DD. In "March 16, no, the 6th, not the 16th" the last
 * date not itself negated wins; a day without a month ("the 6th") takes the month said before it, or the
 * one the conversation already had.
 */
export function parseDate(text: string, monthBefore?: number): string | undefined {
  const mentions: Array<{ at: number; end: number; month?: number; day: number }> = [];
  for (const form of DATE_FORMS) {
    for (const m of text.matchAll(form.re)) {
      const day = m[form.day] ? Number(m[form.day]) : ORDINAL_WORDS[(m[form.dayWord] ?? "").toLowerCase()];
      if (!day || day > 31) continue;
      const month = form.month === null ? undefined : form.iso ? Number(m[form.month]) : MONTHS.indexOf(m[form.month]!.toLowerCase()) + 1;
      const start = m.index;
      const end = start + m[0].length;
      if (mentions.some((x) => start < x.end && end > x.at)) continue; // a longer form already read it
      mentions.push({ at: start, end, month, day });
    }
  }
  mentions.sort((a, b) => a.at - b.at);
  let month = monthBefore;
  let chosen: { month?: number; day: number } | undefined;
  for (const m of mentions) {
    if (m.month !== undefined) month = m.month;
    const before = text.slice(Math.max(0, m.at - 16), m.at).toLowerCase();
    if (/\b(?:not|rather than|instead of)\s*$/.test(before)) continue;
    chosen = { month: m.month ?? month, day: m.day };
  }
  if (!chosen || chosen.month === undefined) return undefined;
  return `${AIRLINE_FACTS.travel_year}-${pad(chosen.month)}-${pad(chosen.day)}`;
}

/** The first "Month day" the text says, negated or not ("March 16, no, the 6th" → March 16). */
export function firstDateSaid(text: string): string | undefined {
  const m = new RegExp(String.raw`\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?\b`, "i").exec(text);
  return m ? `${AIRLINE_FACTS.travel_year}-${pad(MONTHS.indexOf(m[1]!.toLowerCase()) + 1)}-${pad(Number(m[2]))}` : undefined;
}

export const monthOf = (date: string | undefined) => (date ? Number(date.slice(5, 7)) : undefined);

// ── What the caller wants ────────────────────────────────────────────────────────────────────────────

const CANCEL = /\bcancel\b/i;
const QUOTE = /\bhow much\b|\bwhat (?:would|will|does) (?:it|that) cost\b|\bfare difference\b|\bwhat(?:'s| is| would be) the (?:total|cost|price)\b/i;
const SEAT_CHANGE = /\b(?:change|switch|move|swap|put me in|get|have)\b[^.?!]*\bseat\b|\bseat\b[^.?!]*\binstead\b/i;
const LOOKUP = /\b(?:what|which) seat (?:am i|do i have)\b|\bwhat time (?:does|is) my flight\b|\bwhen (?:does|is) my flight\b|\bmy booking details\b/i;
const REBOOK = /\b(?:move|change|switch|rebook|transfer|put me on)\b[^.?!]*\b(?:flight|booking|NW\s?\d)/i;
const FACTS = /\b(?:bags?|baggage|luggage|carry-on|suitcase)\b|\bchange fee\b/i;

export function taskOf(text: string): Task | "facts" | undefined {
  const codeOrFlight = parseCodes(text).length > 0 || parseFlightNumbers(text).length > 0;
  if (CANCEL.test(text)) return "cancel";
  if (LOOKUP.test(text)) return "lookup";
  if (QUOTE.test(text) && codeOrFlight) return "quote";
  if (SEAT_CHANGE.test(text)) return "seat";
  if (REBOOK.test(text)) return "rebook";
  if (FACTS.test(text) || QUOTE.test(text)) return "facts";
  return undefined;
}

export type FactTopic = "bags" | "change_fee" | "cancellation" | "phone";

export function factTopics(text: string): FactTopic[] {
  const topics: FactTopic[] = [];
  if (/\b(?:bags?|baggage|luggage|carry-on|suitcase)\b/i.test(text)) topics.push("bags");
  if (/\bchange fee\b|\bcost to change\b|\bhow much (?:is|does) (?:it|a change)\b/i.test(text)) topics.push("change_fee");
  if (/\brefund\b|\bcredit\b/i.test(text)) topics.push("cancellation");
  if (/\bphone number\b|\bcall you\b/i.test(text)) topics.push("phone");
  return topics;
}

/** The caller accepts the cost of a change in advance ("I'm fine with the change fee"). */
export const acceptsFee = (text: string) =>
  /\b(?:fine|okay|ok|happy)\s+(?:with|to pay)\s+(?:the\s+)?(?:change\s+)?(?:fee|cost|charge)s?\b|\bwhatever it costs\b|\bi'?ll pay the (?:change )?fee\b/i.test(text);

export const isYes = (text: string) => /^\s*(?:yes|yeah|yep|sure|please do|go ahead|ok(?:ay)?|that's (?:right|correct|fine))\b/i.test(text) && !/\b(?:but|actually|not)\b/i.test(text);
export const isNo = (text: string) => /^\s*(?:no|nope|not)\b/i.test(text);
export const isClosing = (text: string) => /\b(?:bye|goodbye|that's all|that's everything|nothing else)\b/i.test(text);
/** The caller says the booking they name belongs to someone else. */
export const disowns = (text: string) =>
  /\b(?:colleague|friend|brother|sister|wife|husband|partner|mother|father|mom|dad|boss|coworker|co-worker)(?:'s)?\b[^.?!]*\b(?:booking|flight|ticket)\b|\b(?:booking|flight|ticket)\b[^.?!]*\b(?:colleague|friend|brother|sister|wife|husband|partner|mother|father|mom|dad|boss|coworker)'s\b|\bnot mine\b|\bisn't mine\b|\bsomeone else's\b/i.test(
    text,
  );

/** "Verified caller Dana Whitfield; bookings: QX7K2B, HK2W6P." → the codes, and whether it says anything about them. */
export function parseAuthorization(summary: string | undefined): { codes: string[]; stated: boolean } {
  const m = summary ? /\bbookings?(?: on file)?:\s*([^.;]*)/i.exec(summary) : null;
  if (!m) return { codes: [], stated: false };
  return { codes: /\bnone\b/i.test(m[1]!) ? [] : parseCodes(m[1]!), stated: true };
}

/** The caller's name from the summary ("Verified caller Dana Whitfield; …"). */
export function callerName(summary: string | undefined): string | undefined {
  return summary ? /\bcaller ([A-Z][a-z]+(?: [A-Z][a-z]+)*)/.exec(summary)?.[1] : undefined;
}
