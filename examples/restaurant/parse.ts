import { RESTAURANT_FACTS, type SeatingKind } from "./facts";

/*
 * Reading a caller's words: reservation details, what the caller wants, and the authorization carried by
 * the context summary. Pure functions over text; nothing here knows about tools or replies.
 *
 * Every detail is collected as positioned mentions, so that a correction inside one request ("August 7,
 * sorry, August 6") resolves to the later value, and a value the caller rejects ("instead of 8", "not
 * August 7") is never used.
 */

export interface ReservationDetails {
  guest_name?: string;
  /** YYYY-MM-DD */
  date?: string;
  /** HH:MM, 24-hour */
  time?: string;
  party_size?: number;
  seating?: SeatingKind;
  reservation_id?: string;
}

export interface ParseOptions {
  /**
   * Which of several dates in one request wins. "last" honours the caller's correction; "first" exists only
   * for the `books_uncorrected_date` fault.
   */
  dateChoice?: "last" | "first";
}

type Field = "date" | "time" | "party_size";

interface Mention<T> {
  value: T;
  start: number;
  end: number;
  /** The caller rejected this value ("not August 7", "instead of 8"). */
  rejected: boolean;
}

// ---- vocabulary ---------------------------------------------------------------------------------

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19, twenty: 20,
};

const ORDINAL_UNITS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9,
};
const ORDINAL_WORDS: Record<string, number> = (() => {
  const words: Record<string, number> = {
    ...ORDINAL_UNITS,
    tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16,
    seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30,
  };
  for (const [unit, value] of Object.entries(ORDINAL_UNITS)) {
    words[`twenty-${unit}`] = 20 + value;
    words[`twenty ${unit}`] = 20 + value;
  }
  words["thirty-first"] = 31;
  words["thirty first"] = 31;
  return words;
})();

const MONTHS: Array<[RegExp, number]> = [
  [/^jan/, 1], [/^feb/, 2], [/^mar/, 3], [/^apr/, 4], [/^may/, 5], [/^jun/, 6],
  [/^jul/, 7], [/^aug/, 8], [/^sep/, 9], [/^oct/, 10], [/^nov/, 11], [/^dec/, 12],
];

/** Longest alternatives first so "twenty-first" is not read as "twenty". */
const alternatives = (words: Iterable<string>) =>
  [...words].sort((a, b) => b.length - a.length).map((word) => word.replace(/ /g, "\\s")).join("|");

const MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?";
const DAY = `(\\d{1,2}(?:st|nd|rd|th)?|${alternatives(Object.keys(ORDINAL_WORDS))})`;
const ORDINAL_DAY = `(\\d{1,2}(?:st|nd|rd|th)|${alternatives(Object.keys(ORDINAL_WORDS))})`;
const NUMBER = `(\\d{1,2}|${alternatives(Object.keys(NUMBER_WORDS))})`;
const HOUR_WORD = alternatives(Object.keys(NUMBER_WORDS).filter((word) => NUMBER_WORDS[word]! <= 12));
const MERIDIEM = "(a\\.?\\s?m\\b\\.?|p\\.?\\s?m\\b\\.?|o'?clock)";
const MINUTE_WORDS: Record<string, string> = { fifteen: "15", thirty: "30", "forty-five": "45", "forty five": "45" };

/** Words before a value that say the caller is rejecting it. */
const REJECTION_BEFORE = /(?:instead\s+of|rather\s+than|\bnot)\s+(?:(?:at|on|for|the|a|in|under)\s+)*$/i;
/** Words after which a bare number corrects the value just mentioned ("two, actually four"). */
const CORRECTION_MARKER = "(?:sorry|actually|no\\s+wait|wait|i\\s+mean|make\\s+(?:that|it)|scratch\\s+that|correction|or\\s+rather|no)";

// ---- small helpers ------------------------------------------------------------------------------

/** Typography a transcript may or may not use: curly apostrophes, dashes. */
function normalize(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'").replace(/[\u2013\u2014]/g, " - ");
}

function numberValue(token: string): number | undefined {
  const word = token.toLowerCase().replace(/\s+/g, " ");
  if (/^\d+/.test(word)) return Number.parseInt(word, 10);
  return NUMBER_WORDS[word] ?? ORDINAL_WORDS[word] ?? ORDINAL_WORDS[word.replace(" ", "-")];
}

function monthValue(token: string): number | undefined {
  const lower = token.toLowerCase();
  return MONTHS.find(([pattern]) => pattern.test(lower))?.[1];
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isoDate(year: number, month: number | undefined, day: number | undefined): string | undefined {
  if (!month || !day || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function hhmm(hour: number, minutes: number): string | undefined {
  if (hour < 0 || hour > 23 || minutes < 0 || minutes > 59) return undefined;
  return `${String(hour).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
}

/**
 * A clock hour without a.m./p.m.: the restaurant seats from 11:00 to 22:00, so "at 8" means 20:00 and
 * "at 11" means 11:00.
 */
function restaurantHour(hour: number): number {
  return hour >= 1 && hour <= 10 ? hour + 12 : hour;
}

function withMeridiem(hour: number, meridiem: string | undefined): number {
  const marker = meridiem?.toLowerCase().replace(/[^apm]/g, "") ?? "";
  if (marker.startsWith("a")) return hour === 12 ? 0 : hour;
  if (marker.startsWith("p")) return hour === 12 ? 12 : hour + 12;
  return restaurantHour(hour);
}

function isRejected(text: string, start: number): boolean {
  return REJECTION_BEFORE.test(text.slice(Math.max(0, start - 40), start));
}

/** Collects mentions, refusing any that overlap text a stronger pattern already read. */
class MentionCollector {
  private readonly claimed: Array<[number, number]> = [];
  readonly dates: Mention<string>[] = [];
  readonly times: Mention<string>[] = [];
  readonly sizes: Mention<number>[] = [];

  constructor(readonly text: string) {}

  free(start: number, end: number): boolean {
    return this.claimed.every(([s, e]) => end <= s || start >= e);
  }

  add(field: Field, value: string | number | undefined, start: number, end: number): void {
    if (value === undefined || !this.free(start, end)) return;
    this.claimed.push([start, end]);
    const mention = { start, end, rejected: isRejected(this.text, start) };
    if (field === "date") this.dates.push({ ...mention, value: value as string });
    else if (field === "time") this.times.push({ ...mention, value: value as string });
    else this.sizes.push({ ...mention, value: value as number });
  }

  scan(pattern: string, read: (match: RegExpExecArray) => [Field, string | number | undefined] | undefined): void {
    for (const match of this.text.matchAll(new RegExp(pattern, "gi"))) {
      const found = read(match as RegExpExecArray);
      if (found) this.add(found[0], found[1], match.index!, match.index! + match[0].length);
    }
  }

  /** The field and value of the last mention that ends before `position`. */
  lastBefore(position: number): { field: Field; value: string | number } | undefined {
    const all: Array<{ field: Field; value: string | number; end: number }> = [
      ...this.dates.map((m) => ({ field: "date" as const, value: m.value, end: m.end })),
      ...this.times.map((m) => ({ field: "time" as const, value: m.value, end: m.end })),
      ...this.sizes.map((m) => ({ field: "party_size" as const, value: m.value, end: m.end })),
    ].filter((m) => m.end <= position);
    return all.sort((a, b) => a.end - b.end).at(-1);
  }
}

function collectMentions(raw: string): MentionCollector {
  const text = normalize(raw);
  const year = RESTAURANT_FACTS.booking_year;
  const found = new MentionCollector(text);

  // Dates, most specific first.
  found.scan("\\b(\\d{4})-(\\d{2})-(\\d{2})\\b", (m) => ["date", isoDate(Number(m[1]), Number(m[2]), Number(m[3]))]);
  found.scan(`\\b${MONTH}\\s+(?:the\\s+)?${DAY}\\b(?!:\\d)`, (m) => ["date", isoDate(year, monthValue(m[1]!), numberValue(m[2]!))]);
  found.scan(`\\b(?:the\\s+)?${DAY}\\s+(?:of\\s+)?${MONTH}(?![a-z])`, (m) => ["date", isoDate(year, monthValue(m[2]!), numberValue(m[1]!))]);

  // Times.
  found.scan(
    `\\b(\\d{1,2}|${HOUR_WORD})(?::([0-5]\\d)|[\\s-](fifteen|thirty|forty[\\s-]five))?\\s*${MERIDIEM}`,
    (m) => {
      const hour = numberValue(m[1]!);
      const minutes = m[2] ? Number(m[2]) : m[3] ? Number(MINUTE_WORDS[m[3].toLowerCase().replace(/\s/, "-")]) : 0;
      if (hour === undefined || hour < 1 || hour > 12) return undefined;
      return ["time", hhmm(withMeridiem(hour, m[4]?.startsWith("o") ? undefined : m[4]), minutes)];
    },
  );
  found.scan("\\b(\\d{1,2}):([0-5]\\d)\\b", (m) => {
    const hour = Number(m[1]);
    // A leading zero ("07:00") is deliberate 24-hour time; otherwise apply the seating-hours reading.
    return ["time", hhmm(m[1]!.startsWith("0") ? hour : restaurantHour(hour), Number(m[2]))];
  });
  found.scan("\\b(noon|midday|midnight)\\b", (m) => ["time", m[1]!.toLowerCase() === "midnight" ? "00:00" : "12:00"]);
  found.scan(`\\bhalf\\s+past\\s+(\\d{1,2}|${HOUR_WORD})\\b`, (m) => {
    const hour = numberValue(m[1]!);
    return hour === undefined ? undefined : ["time", hhmm(restaurantHour(hour), 30)];
  });
  found.scan(
    `\\b(?:at|around|about)\\s+(\\d{1,2}|${HOUR_WORD})(?:[\\s-](fifteen|thirty|forty[\\s-]five))?\\b(?!\\s*(?:people|persons|guests|of\\s+us|seats))`,
    (m) => {
      const hour = numberValue(m[1]!);
      const minutes = m[2] ? Number(MINUTE_WORDS[m[2].toLowerCase().replace(/\s/, "-")]) : 0;
      return hour === undefined || hour > 12 ? undefined : ["time", hhmm(restaurantHour(hour), minutes)];
    },
  );

  // Party sizes.
  found.scan(`\\b(?:party|group|table|reservation|booking)\\s+(?:of|for)\\s+${NUMBER}\\b`, (m) => ["party_size", numberValue(m[1]!)]);
  found.scan(`\\b${NUMBER}\\s+(?:people|persons|person|guests?|adults|diners|of\\s+us|seats?)\\b`, (m) => ["party_size", numberValue(m[1]!)]);
  found.scan(`\\bfor\\s+(?:a\\s+(?:party|group)\\s+of\\s+)?${NUMBER}\\b`, (m) => ["party_size", numberValue(m[1]!)]);

  // A bare ordinal day ("the 6th") takes the month of the date before it.
  found.scan(`\\bthe\\s+${ORDINAL_DAY}\\b`, (m) => {
    const previous = found.dates.filter((d) => d.end <= m.index!).sort((a, b) => a.end - b.end).at(-1);
    return previous ? ["date", isoDate(year, Number(previous.value.slice(5, 7)), numberValue(m[1]!))] : undefined;
  });

  // A bare number right after a correction marker corrects whatever was said just before it.
  for (const match of text.matchAll(new RegExp(`\\b${CORRECTION_MARKER}\\b[\\s,.:;-]*${NUMBER}(?:st|nd|rd|th)?\\b`, "gid"))) {
    const [numberStart] = match.indices![1]!;
    const end = match.index! + match[0].length;
    const value = numberValue(match[1]!);
    const previous = found.lastBefore(match.index!);
    if (value === undefined || !previous || !found.free(numberStart, end)) continue;
    if (previous.field === "party_size") found.add("party_size", value, numberStart, end);
    else if (previous.field === "date")
      found.add("date", isoDate(year, Number(String(previous.value).slice(5, 7)), value), numberStart, end);
    else if (value >= 1 && value <= 12) {
      const wasAfternoon = Number(String(previous.value).slice(0, 2)) >= 12;
      found.add("time", hhmm(wasAfternoon && value !== 12 ? value + 12 : restaurantHour(value), 0), numberStart, end);
    }
  }

  for (const list of [found.dates, found.times, found.sizes] as Mention<unknown>[][]) list.sort((a, b) => a.start - b.start);
  return found;
}

function pick<T>(mentions: Mention<T>[], choice: "last" | "first" = "last"): T | undefined {
  if (choice === "first") return mentions[0]?.value;
  return mentions.filter((m) => !m.rejected).at(-1)?.value;
}

// ---- public parsers -----------------------------------------------------------------------------

export function parseDate(text: string, options: ParseOptions = {}): string | undefined {
  return pick(collectMentions(text).dates, options.dateChoice);
}

export function parseTime(text: string): string | undefined {
  return pick(collectMentions(text).times);
}

export function parsePartySize(text: string): number | undefined {
  const size = pick(collectMentions(text).sizes);
  return size !== undefined && size > 0 ? size : undefined;
}

const NAME_STOPWORDS = new Set(
  [
    "january february march april may june july august september october november december",
    "jan feb mar apr jun jul aug sep sept oct nov dec",
    "monday tuesday wednesday thursday friday saturday sunday today tonight tomorrow weekend",
    Object.keys(NUMBER_WORDS).join(" "),
    "i a an the and or but so it this that me my our us we you your please thanks thank sorry actually",
    "hi hello hey yes no ok okay just also not here is was will be",
    "table tables harbor restaurant dinner lunch brunch breakfast noon midday midnight",
    "indoor indoors inside outdoor outdoors outside patio terrace bar party group people guests",
    "reservation reservations booking calling looking wondering trying hoping available free open",
    "verified caller authorized wants would like",
  ].join(" ").split(/\s+/),
);

/** Lead words after which a name may be given in lower case (a transcript may not capitalize it). */
const STRONG_NAME_LEAD = /^(?:my\s+name\s+is|my\s+name's|name\s+is|name's|under\s+the\s+name(?:\s+of)?|the\s+name\s+is|the\s+name(?:\s+of)?|named|called)$/i;
const NAME_LEAD =
  /\b(my\s+name\s+is|my\s+name's|name\s+is|name's|under\s+the\s+name(?:\s+of)?|the\s+name\s+is|the\s+name(?:\s+of)?|named|called|under|for|i'm|i\s+am|this\s+is|it's|it\s+is|(?:the\s+)?caller\s+is|caller|guest)\s+/gi;
/** A summary's subject: "Maya requested a table…", "Leo wants…" at the start of a sentence. */
const NAME_SUBJECT = /(?:^|[.!?;]\s+)([A-Z][A-Za-z'-]+)(?:\s+([A-Z][A-Za-z'-]+))?\s+(?:requested|wants|asked\s+for|would\s+like|needs|is\s+calling)\b/g;
const NAME_WORDS = /^([A-Za-z][A-Za-z'-]*)(?:\s+([A-Za-z][A-Za-z'-]*))?/;

const isCapitalized = (word: string) => /^[A-Z]/.test(word);
/** A name word is not a stop word, and not a lone letter: "it's R-2040" names a reservation, not a guest. */
const isNameWord = (word: string | undefined) => !!word && /[A-Za-z]{2}/.test(word) && !NAME_STOPWORDS.has(word.toLowerCase());
const titleCase = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function nameMentions(raw: string): Mention<string>[] {
  const text = normalize(raw);
  const mentions: Mention<string>[] = [];
  for (const lead of text.matchAll(NAME_LEAD)) {
    const start = lead.index! + lead[0].length;
    const words = NAME_WORDS.exec(text.slice(start));
    const first = words?.[1];
    if (!words || !first || !isNameWord(first)) continue;
    const strong = STRONG_NAME_LEAD.test(lead[1]!.trim());
    if (!strong && !isCapitalized(first)) continue;
    const second = words[2];
    const name = second && isCapitalized(second) && isNameWord(second) ? `${titleCase(first)} ${second}` : titleCase(first);
    mentions.push({ value: name, start: lead.index!, end: start + name.length, rejected: isRejected(text, lead.index!) });
  }
  for (const match of text.matchAll(NAME_SUBJECT)) {
    const [, first, second] = match;
    if (!isNameWord(first)) continue;
    const name = second && isNameWord(second) ? `${first} ${second}` : first!;
    const start = match.index! + match[0].indexOf(first!);
    mentions.push({ value: name, start, end: start + name.length, rejected: false });
  }
  return mentions.sort((a, b) => a.start - b.start);
}

/** "for Maya", "under Maya", "my name is Maya", "I'm Maya Chen", "this is Maya", "the caller is Maya", "Maya requested…". */
export function parseGuestName(text: string): string | undefined {
  return pick(nameMentions(text));
}

const SEATING_WORDS: Array<[RegExp, SeatingKind]> = [
  [/\b(?:indoors?|inside)\b/gi, "indoor"],
  [/\bpatio\b/gi, "patio"],
  [/\b(?:outdoors?|outside|terrace|garden)\b/gi, "outdoor"],
  [/\bbar\b/gi, "bar"],
];

/** indoor/inside → indoor, outdoor/outside/terrace/garden → outdoor, patio → patio, bar → bar; the last one said wins. */
export function parseSeating(raw: string): SeatingKind | undefined {
  const text = normalize(raw);
  const mentions: Mention<SeatingKind>[] = [];
  for (const [pattern, kind] of SEATING_WORDS)
    for (const match of text.matchAll(pattern))
      mentions.push({ value: kind, start: match.index!, end: match.index! + match[0].length, rejected: isRejected(text, match.index!) });
  return pick(mentions.sort((a, b) => a.start - b.start));
}

/** Reservation ids as said aloud: "R-1001", "R-77", "R 4F2A9C", "R1001", "reservation number 1001". */
export function parseReservationIds(raw: string): string[] {
  const text = normalize(raw);
  const ids: Array<{ id: string; at: number }> = [];
  for (const match of text.matchAll(/\bR\s?-\s?([A-Z0-9]{2,})\b|\bR\s?(\d[A-Z0-9]{2,})\b/gi))
    ids.push({ id: `R-${(match[1] ?? match[2])!.toUpperCase()}`, at: match.index! });
  for (const match of text.matchAll(/\breservation\s+(?:number|no\.?|id|#)\s*(\d[A-Z0-9]{2,})\b/gi))
    ids.push({ id: `R-${match[1]!.toUpperCase()}`, at: match.index! });
  return ids.sort((a, b) => a.at - b.at).map((entry) => entry.id);
}

export function parseReservationId(text: string): string | undefined {
  return parseReservationIds(text).at(-1);
}

/** Every reservation detail in one request; corrections resolved, rejected values dropped. */
export function parseDetails(raw: string, options: ParseOptions = {}): ReservationDetails {
  const mentions = collectMentions(raw);
  const size = pick(mentions.sizes);
  const details: ReservationDetails = {
    guest_name: parseGuestName(raw),
    date: pick(mentions.dates, options.dateChoice),
    time: pick(mentions.times),
    party_size: size !== undefined && size > 0 ? size : undefined,
    seating: parseSeating(raw),
    reservation_id: parseReservationId(raw),
  };
  for (const key of Object.keys(details) as Array<keyof ReservationDetails>)
    if (details[key] === undefined) delete details[key];
  return details;
}

// ---- what the caller wants ----------------------------------------------------------------------

export type Intent = "booking" | "availability" | "cancellation" | "facts" | "none";
export type FactTopic = "hours" | "parking" | "address" | "phone" | "name";

const CANCEL = /\b(?:cancel\w*|call\s+off)\b/i;
const BOOK =
  /\b(?:book\w*|reserve|make\s+a\s+reservation|reservation\s+for|(?:get|grab|hold)\s+(?:me\s+|us\s+)?a\s+table|put\s+(?:me|us)\s+down|(?:i'd|i\s+would|we'd|we\s+would|i|we|he|she|they)\s+(?:like|want|need|wants|needs)\s+(?:to\s+(?:book|reserve|get|have)\s+)?a\s+table|wants?\s+a\s+table|would\s+like\s+a\s+table|go\s+ahead)\b/i;
const AVAILABILITY =
  /\b(?:do\s+you\s+have|have\s+you\s+got|is\s+there|are\s+there|can\s+you\s+check|could\s+you\s+check|check\s+(?:for|if|whether)|any\s+(?:tables?|seats?|room|space|availability)|available|availability|free\s+tables?|can\s+you\s+(?:fit|seat|squeeze)|(?:have|got)\s+(?:a\s+)?(?:table|room|space))\b/i;
const WEAK_BOOK = /\b(?:a\s+)?table\s+for\b/i;

const FACT_PATTERNS: Array<[FactTopic, RegExp]> = [
  [
    "hours",
    /\b(?:hours|what\s+time\s+(?:do|does|are|is)\s+(?:you|it|the\s+restaurant|harbor\s+table|they)\s+(?:open|close)|when\s+(?:do|does)\s+(?:you|it|the\s+restaurant|harbor\s+table|they)\s+(?:open|close)|(?:are|is)\s+(?:you|it|the\s+restaurant|harbor\s+table)\s+open|open\s+(?:until|till|late)|(?:opening|closing)\s+time|how\s+late)\b/i,
  ],
  ["parking", /\bpark(?:ing)?\b/i],
  ["address", /\b(?:address|where\s+(?:are\s+you|is\s+(?:the\s+restaurant|harbor\s+table|it))|located|location|directions|how\s+do\s+i\s+get\s+there)\b/i],
  ["phone", /\b(?:phone|telephone|number\s+to\s+call|call\s+you)\b/i],
  ["name", /\b(?:name\s+of\s+(?:the|your|this)\s+restaurant|what(?:'s|\s+is)\s+(?:the\s+restaurant|this\s+place|your\s+restaurant)\s+called|restaurant's\s+name|what\s+restaurant\s+is\s+this)\b/i],
];

/** The public facts a question asks about, in a stable order. */
export function factTopics(text: string): FactTopic[] {
  const normalized = normalize(text);
  return FACT_PATTERNS.filter(([, pattern]) => pattern.test(normalized)).map(([topic]) => topic);
}

/**
 * What one utterance asks for. Cancelling and explicit booking verbs outrank everything; a facts topic
 * outranks the generic "do you have…" so "do you have parking?" is a facts question.
 */
export function classifyIntent(raw: string): Intent {
  const text = normalize(raw);
  if (CANCEL.test(text)) return "cancellation";
  if (BOOK.test(text)) return "booking";
  if (factTopics(text).length > 0) return "facts";
  if (AVAILABILITY.test(text)) return "availability";
  if (WEAK_BOOK.test(text)) return "booking";
  return "none";
}

// ---- authorization ------------------------------------------------------------------------------

export interface Authorization {
  /** Reservation ids the context summary says this caller is verified for; empty when none. */
  reservation_ids: string[];
  /**
   * Whether the summary speaks about authorization at all. When it does not, the assistant cannot know
   * which reservations are the caller's, and leaves the decision to the backend (whose
   * cancel_reservation refuses a reservation the caller may not change).
   */
  stated: boolean;
}

/**
 * The authorized reservations stated in a context summary, e.g. "Verified caller Maya; authorized
 * reservations: R-1001, R-1002". Only the clause after "authorized" counts, so an id merely mentioned
 * elsewhere in the summary grants nothing.
 */
export function parseAuthorization(summary: string | undefined): Authorization {
  if (!summary) return { reservation_ids: [], stated: false };
  const text = normalize(summary);
  const clause = /\bauthori[sz]ed\b([^;\n]*)/i.exec(text);
  const stated = clause !== null || /\b(?:verified|unverified)\b/i.test(text);
  if (!clause || /\b(?:no|none|not)\b/i.test(clause[1]!.replace(/\bR\s?-\s?[A-Z0-9]+/gi, ""))) return { reservation_ids: [], stated };
  return { reservation_ids: [...new Set(parseReservationIds(clause[1]!))], stated };
}

/** "another customer's reservation", "it's my friend's", "it belongs to a colleague", "that one isn't mine": the caller says it is not theirs. */
const DISOWNED =
  /\b(?:another|other)\s+(?:customer|guest|person|caller|diner)'?s\b|\b(?:someone|somebody)\s+else'?s\b|\bmy\s+(?:friend|brother|sister|mother|father|mom|dad|wife|husband|partner|boss|colleague|neighbou?r|cousin)'s\b|\b(?:isn't|is\s+not|not)\s+mine\b|\bbelongs?\s+to\s+(?:a|an|my|another|someone|somebody)\s+(?:customer|guest|friend|colleague|relative|brother|sister|neighbou?r|else)\b/i;

/** The caller says the reservation they name belongs to someone else. */
export function disownsReservation(raw: string): boolean {
  return DISOWNED.test(normalize(raw));
}

/** The summary with its authorization clause removed, so ids there are not read as requested ones. */
export function withoutAuthorization(summary: string): string {
  return normalize(summary).replace(/\bauthori[sz]ed\b[^;\n]*/gi, "");
}

// ---- how the caller answers (conversation moves) ------------------------------------------------

const NEGATIVE = /^\W*(?:no|nope|nah|not|don't|do\s+not|wait|hold\s+on|never\s+mind)\b|\b(?:don't|do\s+not)\s+(?:cancel|book)\b|\bkeep\s+it\b/i;
const AFFIRMATIVE_START =
  /^\W*(?:yes|yeah|yep|yup|sure|absolutely|definitely|certainly|correct|that's\s+right|please\s+do|go\s+ahead|go\s+for\s+it|do\s+it|ok(?:ay)?,?\s+(?:please|go\s+ahead))\b/i;
const AFFIRMATIVE_ANYWHERE = /\b(?:go\s+ahead|please\s+do|please\s+(?:cancel|book)\s+it)\b/i;

/** "No", "wait", "don't cancel it", "keep it". */
export function isNegative(raw: string): boolean {
  return NEGATIVE.test(normalize(raw));
}

/** An explicit yes ("Yes, please go ahead"); never a bare backchannel such as "Mm-hmm" or "Right". */
export function isAffirmative(raw: string): boolean {
  const text = normalize(raw);
  return !isNegative(text) && (AFFIRMATIVE_START.test(text) || AFFIRMATIVE_ANYWHERE.test(text));
}

const BACKCHANNEL = /^\W*(?:m+-?h+m+|mhm|uh-?huh|right|okay|ok|i\s+see|got\s+it|alright|all\s+right|ah|oh|hmm+)[\s.,!]*$/i;

/** A listener's acknowledgement with nothing in it: "Mm-hmm.", "Right.", "Okay." */
export function isBackchannel(raw: string): boolean {
  return BACKCHANNEL.test(normalize(raw));
}

const GOODBYE = /\b(?:good\s*bye|bye|that's\s+all|that\s+is\s+all|that's\s+everything|nothing\s+else|have\s+a\s+(?:good|great|nice|lovely)\s+(?:day|evening|night))\b/i;
const THANKS = /\b(?:thanks|thank\s+you)\b/i;

/** The caller wrapping up: a goodbye, or thanks that ask for nothing more. */
export function isClosing(raw: string): boolean {
  const text = normalize(raw);
  return GOODBYE.test(text) || (THANKS.test(text) && !text.includes("?"));
}

/**
 * A name given on its own in answer to "What name should I put the reservation under?" ("Grace Lin,
 * please."): one to three capitalized words that are not stop words.
 */
export function bareName(raw: string): string | undefined {
  const words = normalize(raw)
    .replace(/\b(?:please|thanks|thank\s+you|it's|it\s+is|that's|that\s+is)\b/gi, " ")
    .replace(/[.,!?;:]/g, " ")
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0 || words.length > 3) return undefined;
  return words.every((word) => isCapitalized(word) && isNameWord(word)) ? words.join(" ") : undefined;
}
