/**
 * Values as an assistant says them, for the variant operators: finding times, dates, counts and identifiers
 * in a line, saying them in other spoken forms (words, digit by digit, letter by letter), and their
 * neighbours. Independent of the grader's own reading of values (src/core/language), on purpose: a variant
 * built with the grader's parser would share its blind spots.
 */

export const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const ORDINAL_UNITS = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth"];
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** 0–99 in words: 7 → "seven", 45 → "forty-five". */
export function numberWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 99) return String(n);
  if (n < 20) return UNITS[n]!;
  const tens = TENS[Math.floor(n / 10)]!;
  return n % 10 === 0 ? tens : `${tens}-${UNITS[n % 10]}`;
}

/** 1–31 as an ordinal in words: 6 → "sixth", 21 → "twenty-first", 30 → "thirtieth". */
export function ordinalWords(n: number): string {
  if (n < 20) return ORDINAL_UNITS[n]!;
  if (n % 10 === 0) return `${TENS[n / 10]!.slice(0, -1)}ieth`;
  return `${TENS[Math.floor(n / 10)]}-${ORDINAL_UNITS[n % 10]}`;
}

/** A number said in words (0–99), as a count in a sentence; undefined for a word that is none. */
export function wordNumber(word: string): number | undefined {
  const w = word.toLowerCase();
  const unit = UNITS.indexOf(w);
  if (unit >= 0) return unit;
  const m = /^(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(one|two|three|four|five|six|seven|eight|nine))?$/.exec(w);
  if (!m) return undefined;
  return TENS.indexOf(m[1]!) * 10 + (m[2] ? UNITS.indexOf(m[2]) : 0);
}

export type ValueKind = "time" | "date" | "count" | "identifier";

/** A value found in a line: where it is, what kind, and its canonical form (compared across spoken forms). */
export interface FoundValue {
  kind: ValueKind;
  start: number;
  end: number;
  text: string;
  /** time: minutes after midnight; date: "MM-DD"; count: the number; identifier: letters and digits, upper case. */
  canonical: string;
}

const TIME = /\b(\d{1,2})(?::(\d{2}))?\s?([ap])\.?m\.?(?=$|[^a-z])|\bnoon\b|\bmidnight\b/gi;
const DATE = new RegExp(`\\b(${MONTHS.join("|")}) (\\d{1,2})(?:st|nd|rd|th)?\\b|\\b(\\d{4})-(\\d{2})-(\\d{2})\\b`, "g");
/** A token with letters and digits (R-1042, SKY456, AB12C) or digits joined by hyphens (555-0142). */
const IDENTIFIER = /\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z-])[A-Z0-9]+(?:-[A-Z0-9]+)*\b/g;
const COUNT_WORDS = `(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|${UNITS.slice(1).join("|")}`;
const COUNT = new RegExp(`\\b(\\d{1,3}|${COUNT_WORDS})\\b`, "gi");

const pad = (n: number) => String(n).padStart(2, "0");

/** Every time, date, identifier and count in `text`, in order, none overlapping (a time's hour is no count). */
export function findValues(text: string): FoundValue[] {
  const found: FoundValue[] = [];
  const taken = (start: number, end: number) => found.some((f) => start < f.end && end > f.start);
  const add = (v: FoundValue) => {
    if (!taken(v.start, v.end)) found.push(v);
  };
  for (const m of text.matchAll(TIME)) {
    const word = m[0].toLowerCase();
    const minutes = word === "noon" ? 720 : word === "midnight" ? 0 : ((Number(m[1]) % 12) + (m[3]!.toLowerCase() === "p" ? 12 : 0)) * 60 + Number(m[2] ?? 0);
    if (word !== "noon" && word !== "midnight" && (Number(m[1]) < 1 || Number(m[1]) > 12)) continue;
    add({ kind: "time", start: m.index, end: m.index + m[0].length, text: m[0], canonical: String(minutes) });
  }
  for (const m of text.matchAll(DATE)) {
    const month = m[1] ? MONTHS.indexOf(m[1]) + 1 : Number(m[4]);
    const day = Number(m[1] ? m[2] : m[5]);
    if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]!) continue;
    add({ kind: "date", start: m.index, end: m.index + m[0].length, text: m[0], canonical: `${pad(month)}-${pad(day)}` });
  }
  for (const m of text.matchAll(IDENTIFIER)) {
    if (/^\d+$/.test(m[0]) || /^-|-$/.test(m[0])) continue;
    add({ kind: "identifier", start: m.index, end: m.index + m[0].length, text: m[0], canonical: m[0].replace(/[^A-Z0-9]/gi, "").toUpperCase() });
  }
  for (const m of text.matchAll(COUNT)) {
    const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : wordNumber(m[1]!)!;
    // "one moment", "the one": a bare "one" is too often no count at all.
    if (m[1]!.toLowerCase() === "one") continue;
    add({ kind: "count", start: m.index, end: m.index + m[0].length, text: m[0], canonical: String(n) });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The canonical forms a JSON leaf stands for (a time "19:00", a date "2026-08-14", a count, an identifier). */
export function leafCanonicals(value: unknown): Array<{ kind: ValueKind; canonical: string }> {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0) return [{ kind: "count", canonical: String(value) }];
  if (typeof value !== "string") return [];
  const out: Array<{ kind: ValueKind; canonical: string }> = [];
  const time = /^([01]?\d|2[0-3]):([0-5]\d)(?::\d{2})?$/.exec(value);
  if (time) out.push({ kind: "time", canonical: String(Number(time[1]) * 60 + Number(time[2])) });
  const date = /^\d{4}-(\d{2})-(\d{2})/.exec(value);
  if (date) out.push({ kind: "date", canonical: `${date[1]}-${date[2]}` });
  for (const v of findValues(value)) if (v.kind !== "count" || /^\d+$/.test(value)) out.push({ kind: v.kind, canonical: v.canonical });
  return out;
}

/** Every leaf of a JSON value, with the key it sits under (arrays keep their parent's key). */
export function leaves(value: unknown, key = ""): Array<{ key: string; value: unknown }> {
  if (Array.isArray(value)) return value.flatMap((v) => leaves(v, key));
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([k, v]) => leaves(v, k));
  return [{ key, value }];
}

// ---- spoken forms --------------------------------------------------------------------------------------

function dayPart(hour24: number): string {
  if (hour24 < 12) return "in the morning";
  if (hour24 < 17) return "in the afternoon";
  if (hour24 < 21) return "in the evening";
  return "at night";
}

/** A time said otherwise: "7 p.m." → "seven p.m.", "seven in the evening", "seven o'clock in the evening". */
export function timeForms(text: string): string[] {
  const lower = text.toLowerCase();
  if (lower === "noon") return ["twelve noon", "midday"];
  if (lower === "midnight") return ["twelve midnight"];
  const m = /^(\d{1,2})(?::(\d{2}))?\s?([ap])\.?m\.?$/i.exec(text);
  if (!m) return [];
  const hour12 = Number(m[1]);
  const minutes = Number(m[2] ?? 0);
  const hour24 = (hour12 % 12) + (m[3]!.toLowerCase() === "p" ? 12 : 0);
  const meridiem = `${m[3]!.toLowerCase()}.m.`;
  const hour = numberWords(hour12);
  const part = dayPart(hour24);
  if (minutes === 0) return [`${hour} ${meridiem}`, `${hour} ${part}`, `${hour} o'clock ${part}`];
  const minute = minutes < 10 ? `oh ${numberWords(minutes)}` : numberWords(minutes);
  const forms = [`${hour} ${minute} ${meridiem}`, `${hour} ${minute} ${part}`];
  if (minutes === 30) forms.push(`half past ${hour} ${part}`);
  if (minutes === 15) forms.push(`quarter past ${hour} ${part}`);
  if (minutes === 45) forms.push(`quarter to ${numberWords((hour12 % 12) + 1)} ${part}`);
  return forms;
}

/** A date said otherwise: "August 6" → "the sixth of August", "August sixth"; "2026-08-06" → "August sixth, 2026". */
export function dateForms(text: string): string[] {
  const named = new RegExp(`^(${MONTHS.join("|")}) (\\d{1,2})(?:st|nd|rd|th)?$`).exec(text);
  if (named) {
    const day = Number(named[2]);
    return [`the ${ordinalWords(day)} of ${named[1]}`, `${named[1]} ${ordinalWords(day)}`];
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (iso) {
    const month = MONTHS[Number(iso[2]) - 1]!;
    const day = Number(iso[3]);
    return [`${month} ${ordinalWords(day)}, ${iso[1]}`, `the ${ordinalWords(day)} of ${month} ${iso[1]}`];
  }
  return [];
}

/** A count said otherwise: digits as words and words as digits. */
export function countForms(text: string): string[] {
  if (/^\d+$/.test(text)) return Number(text) < 100 ? [numberWords(Number(text))] : [];
  const n = wordNumber(text);
  return n === undefined ? [] : [String(n)];
}

const DIGIT_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];

/** An identifier said character by character: "R-1042" → "R, one, zero, four, two" / "R one oh four two" / "R dash 1 0 4 2". */
export function identifierForms(text: string): string[] {
  const chars = [...text];
  const say = (zero: string, dash: string, digits: boolean) =>
    chars
      .map((c) => (c === "-" ? dash : /\d/.test(c) ? (digits ? c : c === "0" ? zero : DIGIT_WORDS[Number(c)]!) : c.toUpperCase()))
      .filter(Boolean);
  return [say("zero", "", false).join(", "), say("oh", "", false).join(" "), say("zero", "dash", true).join(" ")];
}

/** Other spoken forms of a found value (never its own text). */
export function spokenForms(v: FoundValue): string[] {
  const forms = v.kind === "time" ? timeForms(v.text) : v.kind === "date" ? dateForms(v.text) : v.kind === "count" ? countForms(v.text) : identifierForms(v.text);
  return forms.filter((f) => f !== v.text);
}

// ---- neighbours ----------------------------------------------------------------------------------------

/** A time in the written style of `like` ("7 p.m.", "7pm", "7 PM"): the same spacing, dots and case. */
function writeTime(minutes: number, like: string): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  const hour24 = Math.floor(m / 60);
  const min = m % 60;
  const hour12 = hour24 % 12 === 0 ? 12 : hour24 % 12;
  const letter = hour24 < 12 ? "a" : "p";
  const meridiem = /[ap]\.m/i.test(like) ? `${letter}.m.` : `${letter}m`;
  return `${hour12}${min ? `:${pad(min)}` : ""}${/\d\s[ap]/i.test(like) ? " " : ""}${/[AP]/.test(like) ? meridiem.toUpperCase() : meridiem}`;
}

/** The same clock time with its meridiem flipped ("7 p.m." → "7 a.m."); undefined for noon and midnight. */
export function flipMeridiem(v: FoundValue): { text: string; canonical: string } | undefined {
  if (v.kind !== "time" || !/[ap]\.?m/i.test(v.text)) return undefined;
  const text = v.text.replace(/([ap])(\.?m)/i, (_all, letter: string, rest: string) => `${letter === "p" ? "a" : letter === "P" ? "A" : letter === "a" ? "p" : "P"}${rest}`);
  const canonical = String((Number(v.canonical) + 720) % 1440);
  return { text, canonical };
}

/**
 * Values next to `v` of its kind, nearest first, in its written style: a time an hour (then half an hour)
 * either way, the day after or before, a count one more or less, an identifier with its last digit changed.
 */
export function neighbours(v: FoundValue): Array<{ text: string; canonical: string }> {
  if (v.kind === "time") {
    const base = Number(v.canonical);
    return [60, -60, 30, -30, 120].map((d) => {
      const minutes = (((base + d) % 1440) + 1440) % 1440;
      return { text: writeTime(minutes, v.text), canonical: String(minutes) };
    });
  }
  if (v.kind === "date") {
    const [month, day] = v.canonical.split("-").map(Number) as [number, number];
    const out: Array<{ text: string; canonical: string }> = [];
    for (const d of [1, -1, 2, -2]) {
      const next = day + d;
      if (next < 1 || next > DAYS_IN_MONTH[month - 1]!) continue;
      const iso = /^(\d{4})-\d{2}-\d{2}$/.exec(v.text);
      const text = iso ? `${iso[1]}-${pad(month)}-${pad(next)}` : v.text.replace(/\d{1,2}(st|nd|rd|th)?$/, (_all, suffix?: string) => `${next}${suffix ? ordinalSuffix(next) : ""}`);
      out.push({ text, canonical: `${pad(month)}-${pad(next)}` });
    }
    return out;
  }
  if (v.kind === "count") {
    const n = Number(v.canonical);
    const words = !/^\d+$/.test(v.text);
    return [1, -1, 2, -2]
      .map((d) => n + d)
      .filter((m) => m >= (n === 0 ? 0 : 1))
      .map((m) => ({ text: words ? matchCase(numberWords(m), v.text) : String(m), canonical: String(m) }));
  }
  // An identifier: its last digit stepped (R-1042 → R-1043, R-1041, …).
  const at = v.text.search(/\d(?=\D*$)/);
  return [1, 9, 2, 8].map((d) => {
    const text = `${v.text.slice(0, at)}${(Number(v.text[at]) + d) % 10}${v.text.slice(at + 1)}`;
    return { text, canonical: text.replace(/[^A-Z0-9]/gi, "").toUpperCase() };
  });
}

function ordinalSuffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return "th";
  return n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th";
}

function matchCase(word: string, like: string): string {
  return like[0] === like[0]!.toUpperCase() ? word[0]!.toUpperCase() + word.slice(1) : word;
}
