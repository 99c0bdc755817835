/**
 * Concrete values in speech, normalized: times, dates, counts, record ids, money, phone numbers and names,
 * each with its span in the text, so "7 p.m.", "19:00" and "seven in the evening" compare equal.
 *
 * compromise segments the words (terms, offsets, tags such as #Value, #Month, #PhoneNumber, #ProperNoun);
 * the small grammar here composes them into values. Speech is read strictly (a count needs a context such
 * as "for two" or "six people", so "one moment" or "that one" is no value); evidence is read liberally
 * (`evidenceValues`: any number it holds may ground a count or an hour), so grounding errs toward passing.
 */
import { parsedJson } from "./nlp";
import { GENERIC, type Lexicon } from "./vocabulary";

export type ValueKind = "time" | "date" | "count" | "reference" | "money" | "phone" | "name";

export interface SpokenValue {
  kind: ValueKind;
  /**
   * Normalized: time "19:00"; date "2026-08-07" (or "08-07" when no year is known); count "6"; reference
   * "R2040" (letters and digits, upper case; "2040" when only the digits were said); money "12.50";
   * phone digits "5550142"; name "jordan lee".
   */
  value: string;
  /** Other readings of an ambiguous value ("at 8" is "08:00" or "20:00"); includes `value`. */
  readings: string[];
  /** The words as written, and their span [start, end) in the text. */
  text: string;
  start: number;
  end: number;
}

export interface ReadOptions {
  /** The year of a date said without one ("August 7"). Without it such a date is "08-07". */
  year?: number;
  /** The domain's words: which nouns count a number ("six guests"), which words cue a record id ("booking 2040"). Generic English without one. */
  lexicon?: Lexicon;
}

const CACHE_LIMIT = 5000;

interface Term {
  text: string;
  /** Lower case, without surrounding punctuation ("p.m." → "pm"). */
  norm: string;
  tags: ReadonlySet<string>;
  start: number;
  end: number;
  sentence: number;
  /** Punctuation and space after the term. */
  post: string;
}

const UNITS: Record<string, number> = {
  zero: 0, oh: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const ORDINALS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
  eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30,
};
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH_NUMBERS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12 };
const MONTH_ABBREVIATIONS = Object.keys(MONTH_NUMBERS);
/** Nouns after which a number is a duration, not a count ("for one moment", "for two hours"). */
const DURATIONS = new Set(["moment", "moments", "second", "seconds", "sec", "minute", "minutes", "min", "hour", "hours", "while", "day", "days", "week", "weeks", "night", "nights", "more", "time", "times", "thing", "things", "of"]);
/** Short words that are never the letters of a record id ("at 2040", "in 2026"). */
const NOT_ID_LETTERS = new Set(["a", "an", "i", "at", "on", "in", "by", "to", "of", "is", "or", "for", "the", "and", "no", "so", "as", "be", "we", "it", "us", "my", "me", "he", "up", "am", "pm", "til", "via", "per", "are", "was", "has", "had", "but", "not", "all", "any", "our", "you", ...MONTH_ABBREVIATIONS, "may"]);
/** Prepositions after which a bare hour is a time ("at 8", "until eleven"). */
const TIME_PREPOSITIONS = new Set(["at", "by", "until", "till", "til", "from", "around", "before", "after", "to", "past"]);
/** Words that may follow a bare hour ("at 8 on Friday", "at 8 for two", "at 8 instead"). */
const BARE_HOUR_FOLLOWERS = new Set(["on", "for", "tonight", "today", "tomorrow", "then", "instead", "sharp", "or", "and", "please", "that", "this", "next"]);
const PART_OF_DAY: Record<string, "am" | "pm"> = { morning: "am", afternoon: "pm", evening: "pm", night: "pm", tonight: "pm" };
/** Words that introduce a name ("under Maya", "the name is Priya", "for Jordan Lee"). */
const NAME_CUES = new Set(["under", "for", "named", "called", "is", "name", "mr", "mrs", "ms", "miss", "dr"]);
const CURRENCY_WORDS = new Set(["dollar", "dollars", "bucks", "euro", "euros", "pound", "pounds"]);

const strip = (s: string) => s.toLowerCase().replace(/^[^\p{L}\p{N}$€£+]+|[^\p{L}\p{N}]+$/gu, "");

/** The value of one number term ("seven" → 7, "12" → 12, "12.50" → 12.5); null when it is none. */
function cardinal(t: Term | undefined): number | null {
  if (!t) return null;
  const n = t.norm.replace(/,/g, "");
  if (/^\d+(\.\d+)?$/.test(n)) return Number(n);
  if (n in UNITS) return UNITS[n]!;
  if (n in TENS) return TENS[n]!;
  return null;
}

function ordinal(t: Term | undefined): number | null {
  if (!t) return null;
  const m = /^(\d{1,2})(st|nd|rd|th)$/.exec(t.norm);
  if (m) return Number(m[1]);
  return ORDINALS[t.norm] ?? null;
}

/** A number said in one or two words ("twenty five", "twenty-one"): its value and how many terms it took. */
function numberAt(terms: Term[], i: number): { value: number; length: number } | null {
  const first = cardinal(terms[i]);
  if (first === null) return null;
  const next = terms[i + 1];
  if (terms[i]!.norm in TENS && next && next.norm in UNITS && UNITS[next.norm]! > 0 && UNITS[next.norm]! < 10) return { value: first + UNITS[next.norm]!, length: 2 };
  return { value: first, length: 1 };
}

/** A day of the month said as "7", "7th" or "seventh" (with "twenty first"): its day and term count. */
function dayAt(terms: Term[], i: number): { day: number; length: number } | null {
  const t = terms[i];
  if (!t) return null;
  if (t.norm in TENS && terms[i + 1]) {
    const o = ordinal(terms[i + 1]);
    if (o !== null && o < 10) return { day: TENS[t.norm]! + o, length: 2 };
  }
  const o = ordinal(t);
  if (o !== null && o >= 1 && o <= 31) return { day: o, length: 1 };
  const n = numberAt(terms, i);
  if (n && Number.isInteger(n.value) && n.value >= 1 && n.value <= 31) return { day: n.value, length: n.length };
  return null;
}

const pad = (n: number) => String(n).padStart(2, "0");
const clock = (h: number, m: number) => `${pad(h)}:${pad(m)}`;

/** "7" + pm → 19:00; 12 am → 00:00. */
function withMeridiem(hour: number, minute: number, meridiem: "am" | "pm"): string {
  const h = (hour % 12) + (meridiem === "pm" ? 12 : 0);
  return clock(h, minute);
}

function meridiemOf(t: Term | undefined): "am" | "pm" | null {
  if (!t) return null;
  const n = t.norm.replace(/\./g, "");
  return n === "am" ? "am" : n === "pm" ? "pm" : null;
}

/** "in the evening", "at night", "tonight" after a time: which half of the day, and how many terms it took. */
function partOfDayAt(terms: Term[], i: number): { meridiem: "am" | "pm"; length: number } | null {
  const a = terms[i]?.norm;
  const b = terms[i + 1]?.norm;
  const c = terms[i + 2]?.norm;
  if (a === "tonight") return { meridiem: "pm", length: 1 };
  if (a === "in" && b === "the" && c && c in PART_OF_DAY) return { meridiem: PART_OF_DAY[c]!, length: 3 };
  if ((a === "at" || a === "in") && b === "night") return { meridiem: "pm", length: 2 };
  return null;
}

/** Minutes said after the hour: "thirty", "forty five", "oh five", "fifteen". */
function minutesAt(terms: Term[], i: number): { minute: number; length: number } | null {
  const t = terms[i];
  if (!t || /\d/.test(t.norm)) return null;
  if (t.norm === "oh" || t.norm === "o") {
    const u = cardinal(terms[i + 1]);
    return u !== null && u >= 1 && u <= 9 && !/\d/.test(terms[i + 1]!.norm) ? { minute: u, length: 2 } : null;
  }
  const n = numberAt(terms, i);
  return n && n.value >= 10 && n.value <= 59 ? { minute: n.value, length: n.length } : null;
}

/** The span of terms [i, j). */
function span(text: string, terms: Term[], i: number, j: number): { text: string; start: number; end: number } {
  const start = terms[i]!.start;
  const end = terms[j - 1]!.end;
  return { text: text.slice(start, end), start, end };
}

function make(kind: ValueKind, readings: string[], at: { text: string; start: number; end: number }): SpokenValue {
  return { kind, value: readings[0]!, readings: [...new Set(readings)], ...at };
}

type Match = { value: SpokenValue; next: number } | null;

/** Nouns that make a number a count of people or things ("six people", "two seats"): the lexicon's. */
const countedBy = (options: ReadOptions) => (options.lexicon ?? GENERIC).counted;

function readTime(text: string, terms: Term[], i: number, options: ReadOptions): Match {
  const t = terms[i]!;
  // "noon", "midnight", "midday"
  if (t.norm === "noon" || t.norm === "midday") return { value: make("time", ["12:00"], span(text, terms, i, i + 1)), next: i + 1 };
  if (t.norm === "midnight") return { value: make("time", ["00:00"], span(text, terms, i, i + 1)), next: i + 1 };
  // "8pm", "8:30pm" in one term
  const glued = /^(\d{1,2})(?::(\d{2}))?(am|pm|a\.m|p\.m)$/.exec(t.norm);
  if (glued) {
    const h = Number(glued[1]);
    const m = Number(glued[2] ?? 0);
    if (h >= 1 && h <= 12 && m < 60) return { value: make("time", [withMeridiem(h, m, glued[3]!.startsWith("a") ? "am" : "pm")], span(text, terms, i, i + 1)), next: i + 1 };
  }
  // "half past seven", "quarter past 7", "quarter to eight"
  if ((t.norm === "half" || t.norm === "quarter") && (terms[i + 1]?.norm === "past" || terms[i + 1]?.norm === "to")) {
    const hour = numberAt(terms, i + 2);
    if (hour && Number.isInteger(hour.value) && hour.value >= 1 && hour.value <= 12) {
      const past = terms[i + 1]!.norm === "past";
      const minute = t.norm === "half" ? 30 : past ? 15 : 45;
      const h = past || t.norm === "half" ? hour.value : hour.value - 1 || 12;
      return finishHour(text, terms, i, i + 2 + hour.length, h, minute, true, options);
    }
  }
  // "19:00", "7:30" and "7", "seven", "seven thirty" followed by a meridiem, "o'clock" or a part of the day
  const hm = /^(\d{1,2}):(\d{2})$/.exec(t.norm);
  if (hm) {
    const h = Number(hm[1]);
    const m = Number(hm[2]);
    if (h > 23 || m > 59) return null;
    return finishHour(text, terms, i, i + 1, h, m, true, options, hm[1]!.length === 2 && hm[1]!.startsWith("0"));
  }
  const hour = numberAt(terms, i);
  if (!hour || !Number.isInteger(hour.value) || hour.value < 0 || hour.value > 23 || /[.,]\d/.test(t.norm)) return null;
  let j = i + hour.length;
  let minute = 0;
  const mins = minutesAt(terms, j);
  if (mins && hour.value <= 12) {
    minute = mins.minute;
    j += mins.length;
  }
  return finishHour(text, terms, i, j, hour.value, minute, false, options);
}

/**
 * An hour read at terms [i, j): a meridiem, "o'clock" or a part of the day makes it a time; so does a
 * clock form ("19:00") or a preposition before it ("at 8"). Without a half of the day, 1–12 has two readings.
 */
function finishHour(text: string, terms: Term[], i: number, j: number, hour: number, minute: number, clockForm: boolean, options: ReadOptions, exact = false): Match {
  let k = j;
  let meridiem = meridiemOf(terms[k]);
  if (meridiem) k++;
  let oclock = false;
  if (!meridiem && (terms[k]?.norm === "o'clock" || terms[k]?.norm === "oclock")) {
    oclock = true;
    k++;
  }
  if (!meridiem) {
    const part = partOfDayAt(terms, k);
    if (part) {
      meridiem = part.meridiem;
      k += part.length;
    }
  }
  if (meridiem) {
    if (hour < 1 || hour > 12) return hour > 12 && clockForm ? { value: make("time", [clock(hour, minute)], span(text, terms, i, k)), next: k } : null;
    return { value: make("time", [withMeridiem(hour, minute, meridiem)], span(text, terms, i, k)), next: k };
  }
  const before = terms[i - 1];
  const prepositioned = before !== undefined && before.sentence === terms[i]!.sentence && TIME_PREPOSITIONS.has(before.norm);
  const after = terms[k];
  // "at 8 people", "for 8 guests": a count, not a time; "up to 20 minutes", "after two hours": a duration.
  if (after && (countedBy(options).has(after.norm) || after.tags.has("Duration"))) return null;
  // A bare hour needs "at 8" ending its clause or followed by a day ("at 8 on Friday"): "at one of our tables" is none.
  const clauseEnds = !after || after.sentence !== terms[i]!.sentence || /[,;:.!?)—–]/.test(terms[k - 1]!.post) || BARE_HOUR_FOLLOWERS.has(after.norm) || after.tags.has("Date");
  if (!clockForm && !oclock && !(prepositioned && (minute > 0 || clauseEnds))) return null;
  // "at 0" is no hour; "at 13" (after a preposition, as every bare hour here is) is one.
  if (!clockForm && !oclock && hour < 1) return null;
  if (hour === 0 || hour >= 12 || exact) return { value: make("time", [clock(hour, minute)], span(text, terms, i, k)), next: k };
  // 1–11 without a half of the day. Restaurants speak of evenings: the later reading first, both kept.
  return { value: make("time", [clock(hour + 12, minute), clock(hour, minute)], span(text, terms, i, k)), next: k };
}

function monthOf(t: Term | undefined): number | null {
  if (!t) return null;
  const n = t.norm;
  const full = MONTHS.indexOf(n);
  // "may" and "march" are months only where compromise reads a date (its Month tag is a Date).
  if (full >= 0 && (n !== "may" && n !== "march" ? true : t.tags.has("Date"))) return full + 1;
  const abbreviation = MONTH_NUMBERS[n];
  if (abbreviation !== undefined && /^\p{Lu}/u.test(t.text)) return abbreviation;
  return null;
}

function yearAt(terms: Term[], i: number): number | null {
  const t = terms[i];
  return t && /^\d{4}$/.test(t.norm) && Number(t.norm) >= 1900 && Number(t.norm) <= 2200 ? Number(t.norm) : null;
}

function dateValue(year: number | null | undefined, month: number, day: number): string | null {
  if (day < 1 || day > 31) return null;
  return year ? `${year}-${pad(month)}-${pad(day)}` : `${pad(month)}-${pad(day)}`;
}

function readDate(text: string, terms: Term[], i: number, options: ReadOptions): Match {
  const t = terms[i]!;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t.norm);
  if (iso) {
    const v = dateValue(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    return v && Number(iso[2]) >= 1 && Number(iso[2]) <= 12 ? { value: make("date", [v], span(text, terms, i, i + 1)), next: i + 1 } : null;
  }
  // "August 7", "August 7th", "August seventh, 2026"
  const month = monthOf(t);
  if (month !== null) {
    const day = dayAt(terms, i + 1);
    if (!day) return null;
    let k = i + 1 + day.length;
    const year = yearAt(terms, k);
    if (year) k++;
    const v = dateValue(year ?? options.year, month, day.day);
    return v ? { value: make("date", [v], span(text, terms, i, k)), next: k } : null;
  }
  // "the 7th of August", "the seventh of August", "7 August"
  const start = t.norm === "the" ? i + 1 : i;
  const day = dayAt(terms, start);
  if (!day) return null;
  let k = start + day.length;
  if (terms[k]?.norm === "of") k++;
  const m = monthOf(terms[k]);
  if (m === null) return null;
  k++;
  const year = yearAt(terms, k);
  if (year) k++;
  const v = dateValue(year ?? options.year, m, day.day);
  return v ? { value: make("date", [v], span(text, terms, i, k)), next: k } : null;
}

/** Digits said one by one: "zero" or "oh" is 0, "one" 1 … "nine" 9. */
const DIGIT_WORDS: Record<string, string> = { zero: "0", oh: "0", one: "1", two: "2", three: "3", four: "4", five: "5", six: "6", seven: "7", eight: "8", nine: "9" };

/**
 * A run of digits said one by one from term i, in one sentence, apart only by spaces, commas or dashes:
 * "five five five, zero one four two", "oh one four two", "555 zero one four two" (digit groups too, when
 * `groups`). Its digits, whether a digit was said in words, and where it ends; null when none.
 */
function digitRunAt(terms: Term[], i: number, groups: boolean, least = 2): { digits: string; words: boolean; next: number } | null {
  let digits = "";
  let words = false;
  let j = i;
  while (j < terms.length && terms[j]!.sentence === terms[i]!.sentence && (j === i || /^[\s,-]*$/.test(terms[j - 1]!.post))) {
    const n = terms[j]!.norm;
    if (n in DIGIT_WORDS) {
      digits += DIGIT_WORDS[n];
      words = true;
    } else if (groups && /^\d+$/.test(n)) digits += n;
    else break;
    j++;
  }
  // "oh" alone is an exclamation; "one" alone a pronoun: a run is at least two digits (inside an id, one).
  return j - i >= least ? { digits, words, next: j } : null;
}

function readReference(text: string, terms: Term[], i: number, options: ReadOptions): Match {
  const t = terms[i]!;
  // "R-2040", "R2040", "R-E58827"
  const joined = /^([a-z]{1,3})-?([a-z0-9]*\d[a-z0-9]*)$/i.exec(t.norm);
  if (joined && joined[2]!.length >= 3 && !NOT_ID_LETTERS.has(joined[1]!) && !/^\d+(st|nd|rd|th|am|pm)$/.test(joined[2]!)) {
    return { value: make("reference", [t.norm.replace(/[^a-z0-9]/g, "").toUpperCase()], span(text, terms, i, i + 1)), next: i + 1 };
  }
  // "r 2040"
  const digits = terms[i + 1];
  if (/^[a-z]{1,2}$/.test(t.norm) && !NOT_ID_LETTERS.has(t.norm) && digits && /^\d{3,}$/.test(digits.norm) && digits.sentence === t.sentence && /^[\s-]*$/.test(t.post)) {
    return { value: make("reference", [(t.norm + digits.norm).toUpperCase()], span(text, terms, i, i + 2)), next: i + 2 };
  }
  // "reservation 2040", "confirmation number 4410": after a word the lexicon's idCues hold
  const cue = terms[i - 1];
  const cued = cue !== undefined && cue.sentence === t.sentence && (options.lexicon ?? GENERIC).idCues.has(cue.norm);
  if (/^\d{3,}$/.test(t.norm) && cued) {
    return { value: make("reference", [t.norm], span(text, terms, i, i + 1)), next: i + 1 };
  }
  // "seat 12A", "gate B12": a short code of digits and letters after a cue (a record's noun among them).
  if (cued && isShortCode(t.norm)) return { value: make("reference", [t.norm.toUpperCase()], span(text, terms, i, i + 1)), next: i + 1 };
  // Said digit by digit, letters spelled out: "R two zero four zero", "R E five eight eight two seven",
  // "confirmation number four four one zero".
  let k = i;
  let letters = "";
  while (k < i + 3 && /^[a-z]$/.test(terms[k]?.norm ?? "") && !NOT_ID_LETTERS.has(terms[k]!.norm) && terms[k]!.sentence === t.sentence && /^[\s,-]*$/.test(terms[k]!.post)) letters += terms[k++]!.norm;
  if (letters || cued) {
    // Each part follows the one before with only spaces, commas or dashes between, in the same sentence; a
    // spoken "dash" between parts is skipped ("R dash 8 F F 3 8 8").
    const joins = (m: number) => m < terms.length && terms[m]!.sentence === t.sentence && (m === i || /^[\s,-]*$/.test(terms[m - 1]!.post));
    const skipDash = (m: number) => (joins(m) && (terms[m]!.norm === "dash" || terms[m]!.norm === "hyphen") ? m + 1 : m);
    const first = skipDash(k);
    const run = joins(first) ? digitRunAt(terms, first, true, letters ? 1 : 2) : null;
    if (run) {
      let id = letters + run.digits;
      let digits = run.digits.length;
      let words = run.words;
      let next = run.next;
      // Letters and digits may alternate after the first run: "R six three one E nine eight", "R, zero, zero, D, five, one, nine".
      for (;;) {
        let m = skipDash(next);
        let more = "";
        while (more.length < 3 && joins(m) && /^[a-z]$/.test(terms[m]!.norm) && !NOT_ID_LETTERS.has(terms[m]!.norm)) more += terms[m++]!.norm;
        const tail = more && joins(m) ? digitRunAt(terms, m, true, 1) : null;
        // Letters may end the id ("Q X seven K two B.", "L M 4 P 9 Z has been cancelled").
        if (!tail && more) {
          id += more;
          next = m;
        }
        if (!tail) break;
        id += more + tail.digits;
        digits += tail.digits.length;
        words ||= tail.words;
        next = tail.next;
      }
      // Seven digits or more said after a cue alone ("number five five five, zero one four two") are a phone number.
      if ((digits >= 3 || (letters && digits >= 2 && id.length >= 5)) && (letters || id !== run.digits || digits < 7) && (words || next - first > 1 || letters.length > 1)) {
        return { value: make("reference", [id.toUpperCase()], span(text, terms, i, next)), next };
      }
    }
  }
  return null;
}

const PHONE_PART = /^\(?\+?\d[\d.-]*\)?$/;

/** "555-0142", "555 0142", "(555) 014-2000": seven to fifteen digits, in one term or several in a row. */
function readPhone(text: string, terms: Term[], i: number): Match {
  const t = terms[i]!;
  const raw = (k: number) => text.slice(terms[k]!.start, terms[k]!.end).replace(/[.,;:!?]+$/, "");
  // Read digit by digit: "five five five, zero one four two" (seven to fifteen digits, some in words),
  // from the run's first digit only, so a run too long for a phone number leaves no shorter one behind.
  const before = terms[i - 1];
  const inRun = before !== undefined && before.sentence === t.sentence && /^[\s,-]*$/.test(before.post) && (before.norm in DIGIT_WORDS || /^\d+$/.test(before.norm));
  const run = inRun ? null : digitRunAt(terms, i, true);
  if (run && run.words && run.digits.length >= 7 && run.digits.length <= 15) return { value: make("phone", [run.digits], span(text, terms, i, run.next)), next: run.next };
  if (!PHONE_PART.test(raw(i)) && !t.tags.has("PhoneNumber")) return null;
  let j = i + 1;
  let digits = raw(i).replace(/\D/g, "");
  while (j < terms.length && terms[j]!.sentence === t.sentence && /^[\s)(-]*$/.test(terms[j - 1]!.post) && PHONE_PART.test(raw(j)) && !/^\d{4}-\d{2}-\d{2}$/.test(raw(j))) {
    const more = raw(j).replace(/\D/g, "");
    if (digits.length + more.length > 15) break;
    digits += more;
    j++;
  }
  const whole = text.slice(t.start, terms[j - 1]!.end);
  if (digits.length < 7 || digits.length > 15 || /^\d{4}-\d{2}-\d{2}$/.test(whole) || /^\d+\.\d+$/.test(whole) || (j === i + 1 && !/[-.()\s]/.test(whole) && !t.tags.has("PhoneNumber"))) return null;
  return { value: make("phone", [digits], span(text, terms, i, j)), next: j };
}

function readMoney(text: string, terms: Term[], i: number, options: ReadOptions): Match {
  const t = terms[i]!;
  const symbol = /^[$€£](\d+(?:\.\d{1,2})?)$/.exec(t.norm.replace(/,/g, ""));
  if (symbol) return { value: make("money", [Number(symbol[1]).toFixed(2)], span(text, terms, i, i + 1)), next: i + 1 };
  const amount = numberAt(terms, i);
  if (!amount || !CURRENCY_WORDS.has(terms[i + amount.length]?.norm ?? "")) return null;
  let k = i + amount.length + 1;
  let cents = 0;
  // "twelve dollars fifty", "twelve dollars and fifty cents"
  const andAt = terms[k]?.norm === "and" ? k + 1 : k;
  const c = numberAt(terms, andAt);
  if (c && c.value < 100 && Number.isInteger(c.value) && terms[andAt]!.sentence === t.sentence && !countedBy(options).has(terms[andAt + c.length]?.norm ?? "")) {
    const centsWord = terms[andAt + c.length]?.norm;
    if (centsWord === "cents" || centsWord === "cent") {
      cents = c.value;
      k = andAt + c.length + 1;
    } else if (andAt === k) {
      cents = c.value;
      k = andAt + c.length;
    }
  }
  return { value: make("money", [(amount.value + cents / 100).toFixed(2)], span(text, terms, i, k)), next: k };
}

/** A count needs a context: "for two", "party of six", "six people". "One moment", "that one" are none. */
function readCount(text: string, terms: Term[], i: number, options: ReadOptions): Match {
  const t = terms[i]!;
  const n = numberAt(terms, i);
  if (!n || !Number.isInteger(n.value) || n.value >= 1000 || /^\d+\.\d+$/.test(t.norm)) return null;
  const k = i + n.length;
  const after = terms[k]?.sentence === t.sentence ? terms[k] : undefined;
  const before = terms[i - 1]?.sentence === t.sentence ? terms[i - 1] : undefined;
  if (after && countedBy(options).has(after.norm)) return { value: make("count", [String(n.value)], span(text, terms, i, k + 1)), next: k + 1 };
  if (before && (before.norm === "for" || before.norm === "of") && !(after && DURATIONS.has(after.norm))) {
    // "one of your reservations", "for one moment": not a count; "a table for two." is.
    return { value: make("count", [String(n.value)], span(text, terms, i, k)), next: k };
  }
  return null;
}

const NOT_NAMES = new Set(["i", "you", "we", "it", "the", "a", "an", "this", "that", "your", "our", "my", "today", "tonight", "tomorrow", "yesterday", "now", "later", "both"]);

/** A name after "under", "for", "the name is", "named"; only capitalized proper nouns, never a month, day or number. */
function readName(text: string, terms: Term[], i: number): Match {
  const cue = terms[i - 1];
  if (!cue || cue.sentence !== terms[i]!.sentence || !NAME_CUES.has(cue.norm)) return null;
  if (cue.norm === "is" && terms[i - 2]?.norm !== "name") return null;
  const words: number[] = [];
  for (let k = i; k < terms.length && words.length < 3; k++) {
    const t = terms[k]!;
    if (t.sentence !== terms[i]!.sentence) break;
    const capitalized = /^\p{Lu}[\p{Ll}'’.-]*\p{Ll}/u.test(t.text.replace(/[.,;:!?]+$/, ""));
    // compromise's tags imply their parents: a Person is a ProperNoun, a Month or WeekDay a Date, an Ordinal a Value.
    if (!capitalized || !t.tags.has("ProperNoun") || t.tags.has("Date") || t.tags.has("Value") || NOT_NAMES.has(t.norm) || monthOf(t) !== null) break;
    words.push(k);
    if (t.post.trim() !== "" && !/^'s?$/.test(t.post.trim())) break;
  }
  if (words.length === 0) return null;
  const j = words[words.length - 1]! + 1;
  const value = words.map((k) => nameWord(terms[k]!.text)).join(" ");
  return { value: make("name", [value], span(text, terms, i, j)), next: j };
}

/** A name word compared without case, diacritics, possessive or punctuation ("Maya's" → "maya"). */
export function nameWord(word: string): string {
  return word
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/['’]s$/, "")
    .replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * compromise keeps "…at 7 p.m. Your reservation…" in one sentence (the abbreviation's period): a capital
 * after "a.m."/"p.m." starts a new one.
 */
export function startsSentence(previous: string | undefined, current: string): boolean {
  return previous !== undefined && /^[ap]\.?m\.$/i.test(previous) && /^\p{Lu}/u.test(current);
}

/**
 * Words with the numbers said in words written as digits, for text compared word by word ("fourteen Quay
 * Street" is "14 Quay Street"): digit by digit ("one four" → 14, "oh one four two" → 0142), or composed
 * ("fourteen" → 14, "twenty five" → 25, "one hundred and five" → 105). Lower-case words in, in order.
 */
export function numbersAsDigits(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; ) {
    let j = i;
    let digits = "";
    while (j < words.length && (words[j]! in DIGIT_WORDS || /^\d$/.test(words[j]!))) digits += DIGIT_WORDS[words[j++]!] ?? words[j - 1]!;
    const spelled = words.slice(i, j).some((w) => w in DIGIT_WORDS);
    if (j - i >= 2 && spelled) {
      out.push(digits);
      i = j;
      continue;
    }
    const composed = composedAt(words, i);
    if (composed) {
      out.push(String(composed.value));
      i += composed.length;
    } else out.push(words[i++]!);
  }
  return out;
}

/** A number said in words from index i: units and teens, tens with a unit, a hundreds part before them ("two hundred and five"); "oh" alone is none. */
function composedAt(words: readonly string[], i: number): { value: number; length: number } | null {
  const small = (k: number): { value: number; length: number } | null => {
    const w = words[k];
    if (w === undefined || w === "oh") return null;
    if (w in TENS) {
      const u = words[k + 1];
      return u !== undefined && u in UNITS && UNITS[u]! > 0 && UNITS[u]! < 10 && u !== "oh" ? { value: TENS[w]! + UNITS[u]!, length: 2 } : { value: TENS[w]!, length: 1 };
    }
    return w in UNITS ? { value: UNITS[w]!, length: 1 } : null;
  };
  const head = small(i);
  if (!head) return null;
  if (words[i + head.length] !== "hundred" || head.value < 1 || head.value > 9) return head;
  let k = i + head.length + 1;
  if (words[k] === "and") k++;
  const rest = small(k);
  return rest ? { value: head.value * 100 + rest.value, length: k + rest.length - i } : { value: head.value * 100, length: head.length + 1 };
}

const termCache = new Map<string, Term[]>();

/** The terms of a text: one compromise parse per distinct text. */
function termsOf(text: string): Term[] {
  const hit = termCache.get(text);
  if (hit) return hit;
  const out: Term[] = [];
  // Stryker disable next-line UnaryOperator: equivalent, sentence numbers are only compared with each other, so where they start does not matter
  let s = -1;
  for (const sentence of parsedJson(text) as Array<{ terms: Array<{ text: string; tags: string[]; post: string; offset: { start: number; length: number } }> }>) {
    s++;
    for (const t of sentence.terms) {
      if (t.text === "") continue;
      if (startsSentence(out[out.length - 1]?.text, t.text)) s++;
      out.push({ text: t.text, norm: strip(t.text), tags: new Set(t.tags), start: t.offset.start, end: t.offset.start + t.offset.length, sentence: s, post: t.post });
    }
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, when the memo starts over only changes what is parsed again, never a reading
  if (termCache.size >= CACHE_LIMIT) termCache.clear();
  termCache.set(text, out);
  return out;
}

const READERS: Array<(text: string, terms: Term[], i: number, options: ReadOptions) => Match> = [
  (text, terms, i, options) => readReference(text, terms, i, options),
  (text, terms, i) => readPhone(text, terms, i),
  (text, terms, i, options) => readDate(text, terms, i, options),
  (text, terms, i, options) => readMoney(text, terms, i, options),
  (text, terms, i, options) => readTime(text, terms, i, options),
  (text, terms, i, options) => readCount(text, terms, i, options),
  (text, terms, i) => readName(text, terms, i),
];

const cache = new Map<string, SpokenValue[]>();
/** A number per lexicon, for the cache's keys: one text reads differently in two domains ("six covers"). */
const lexiconIds = new WeakMap<Lexicon, number>([[GENERIC, 0]]);
function lexiconId(lexicon: Lexicon = GENERIC): number {
  let id = lexiconIds.get(lexicon);
  if (id === undefined) lexiconIds.set(lexicon, (id = ++lexiconCount));
  return id;
}
let lexiconCount = 0;

/** The concrete values a text states, in order, each with its span. One parse per distinct text. */
export function readValues(text: string, options: ReadOptions = {}): SpokenValue[] {
  const key = `${options.year ?? ""}\u0000${lexiconId(options.lexicon)}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) return hit;
  // Without a digit, a value word or a word that introduces a name there is nothing to read: no parse.
  if (!mayHoldValue(text) && !NAME_CUE_BEFORE_CAPITAL.test(text)) return [];
  const terms = termsOf(text);
  const values: SpokenValue[] = [];
  for (let i = 0; i < terms.length; ) {
    let matched: Match = null;
    for (const read of READERS) {
      matched = read(text, terms, i, options);
      if (matched) break;
    }
    if (matched) {
      values.push(matched.value);
      i = matched.next;
    } else i++;
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, when the memo starts over only changes what is read again, never a reading
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, values);
  return values;
}

/** The bare numbers of a text (any context): evidence may ground a count or an hour with them. */
function bareNumbers(text: string): number[] {
  const out: number[] = [];
  const terms = termsOf(text);
  for (let i = 0; i < terms.length; i++) {
    const n = numberAt(terms, i);
    if (n) {
      out.push(n.value);
      if (n.length === 2) out.push(cardinal(terms[i])!);
      i += n.length - 1;
    }
  }
  return out;
}

/** What evidence holds: values by kind (every reading) and its words (for names). */
export interface EvidenceValues {
  values: Map<ValueKind, Set<string>>;
  words: Set<string>;
}

export function emptyEvidence(): EvidenceValues {
  return { values: new Map(), words: new Set() };
}

function add(evidence: EvidenceValues, kind: ValueKind, value: string): void {
  let set = evidence.values.get(kind);
  if (!set) evidence.values.set(kind, (set = new Set()));
  set.add(value);
}

/** A short code of a number and a letter ("12A", "4C": a seat, a row, a gate), not an ordinal or a time ("2nd", "7pm"). */
function isShortCode(s: string): boolean {
  return /^\d{1,3}[a-z]$/i.test(s);
}

/** A string in a structured form — "19:00", "2026-08-07", "R-1002", "12A", "555-0142" — read exactly; null otherwise. */
export function structuredValue(s: string): { kind: ValueKind; readings: string[] } | null {
  const trimmed = s.trim();
  const hm = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(trimmed);
  if (hm && Number(hm[1]) < 24 && Number(hm[2]) < 60) return { kind: "time", readings: [clock(Number(hm[1]), Number(hm[2]))] };
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:T.*)?$/.exec(trimmed);
  if (iso) return { kind: "date", readings: [`${iso[1]}-${iso[2]}-${iso[3]}`] };
  if (/^[A-Za-z]{1,3}-?[A-Za-z0-9]*\d[A-Za-z0-9]*$/.test(trimmed) && trimmed.replace(/^[A-Za-z]{1,3}-?/, "").length >= 3) {
    return { kind: "reference", readings: [trimmed.replace(/[^A-Za-z0-9]/g, "").toUpperCase()] };
  }
  if (isShortCode(trimmed)) return { kind: "reference", readings: [trimmed.toUpperCase()] };
  const digits = trimmed.replace(/\D/g, "");
  if (digits.length >= 7 && digits.length <= 15 && /^\+?[\d\s().-]+$/.test(trimmed) && /[\s().-]/.test(trimmed)) return { kind: "phone", readings: [digits] };
  return null;
}

const VALUE_WORDS = new Set([...Object.keys(UNITS), ...Object.keys(TENS), ...Object.keys(ORDINALS), ...MONTHS, ...MONTH_ABBREVIATIONS, "noon", "midday", "midnight", ...CURRENCY_WORDS]);
/** A name cue (NAME_CUES) followed by a capitalized word: where a name may be said. */
const NAME_CUE_BEFORE_CAPITAL = new RegExp(`\\b(?:${[...NAME_CUES].map((c) => `[${c.charAt(0)}${c.charAt(0).toUpperCase()}]${c.slice(1)}`).join("|")})\\.?\\s+\\p{Lu}`, "u");
/** Whether free text may say a value: a digit, or a number, ordinal, month, noon/midnight or currency word. */
function mayHoldValue(text: string): boolean {
  if (/\d/.test(text)) return true;
  return text.toLowerCase().split(/[^a-z]+/).some((w) => VALUE_WORDS.has(w));
}

/** Values in a string: structured forms exactly ("19:00", "2026-08-07", "R-1002"), free text liberally. */
function addString(evidence: EvidenceValues, s: string, options: ReadOptions): void {
  const trimmed = s.trim();
  for (const w of trimmed.split(/[^\p{L}\p{N}'’]+/u)) if (w) evidence.words.add(nameWord(w));
  const structured = structuredValue(trimmed);
  if (structured) {
    for (const r of structured.readings) add(evidence, structured.kind, r);
    return;
  }
  // Free text without a digit or a word a value is said with holds no value and no number beyond its
  // words (kept above, for names): reading it would cost a parse and find nothing.
  if (mayHoldValue(trimmed)) {
    for (const v of readValues(trimmed, options)) for (const r of v.readings) add(evidence, v.kind, r);
    // Liberal: any number in the evidence may be a count, an amount or an hour the assistant repeats.
    for (const n of bareNumbers(trimmed)) addNumber(evidence, n);
  }
  if (/^\d{3,}$/.test(trimmed)) add(evidence, "reference", trimmed);
  const digits = trimmed.replace(/\D/g, "");
  if (digits.length >= 7 && /^[\d\s().+-]+$/.test(trimmed)) add(evidence, "phone", digits);
}

function addNumber(evidence: EvidenceValues, n: number): void {
  if (Number.isInteger(n)) {
    add(evidence, "count", String(n));
    if (n >= 0 && n <= 23) add(evidence, "time", clock(n, 0));
    if (n >= 1 && n <= 12) add(evidence, "time", clock(n + 12, 0));
  }
  add(evidence, "money", n.toFixed(2));
}

/**
 * The values found in JSON evidence (tool arguments and outputs, world event results, public facts,
 * context): strings such as "19:00", "2026-08-07", "R-1002", numbers, and free text read as speech is.
 * Object keys count too (a reservation map is keyed by its ids). Adds to `into` when given.
 */
export function evidenceValues(json: unknown, options: ReadOptions = {}, into: EvidenceValues = emptyEvidence()): EvidenceValues {
  const visit = (v: unknown): void => {
    if (typeof v === "string") addString(into, v, options);
    else if (typeof v === "number" && Number.isFinite(v)) addNumber(into, v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === "object") {
      for (const [k, inner] of Object.entries(v)) {
        addString(into, k, options);
        visit(inner);
      }
    }
  };
  visit(json);
  return into;
}

/** "2026-08-07" and "08-07" are the same day; two full dates must be equal. */
function sameDay(a: string, b: string): boolean {
  return a.length === 10 && b.length === 10 ? a === b : a.slice(-5) === b.slice(-5);
}

/** Whether evidence holds a spoken value: any of its readings; a date without a year by month and day. */
export function inEvidence(value: SpokenValue, evidence: EvidenceValues): boolean {
  if (value.kind === "name") return value.value.split(" ").every((w) => evidence.words.has(w));
  const known = evidence.values.get(value.kind);
  if (!known) return false;
  if (value.kind === "date") return value.readings.some((r) => [...known].some((k) => sameDay(k, r)));
  if (value.kind === "reference" && /^\d+$/.test(value.value)) return [...known].some((k) => k === value.value || (k.endsWith(value.value) && /^[A-Z]+$/.test(k.slice(0, -value.value.length))));
  return value.readings.some((r) => known.has(r));
}

/** Whether two values of one kind can be the same (any reading in common; dates without a year by day). */
export function sameValue(a: SpokenValue, b: Pick<SpokenValue, "kind" | "readings">): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "date") return a.readings.some((r) => b.readings.some((s) => sameDay(r, s)));
  return a.readings.some((r) => b.readings.includes(r));
}

/** Words after which a value is what something is: "is $75", "that's R-2040", "comes to $95", "a fee of $75" (money only). */
const IS_BEFORE = /(?:\b(?:is|was|are|were|be|costs?|(?:comes?|came|amounts?|adds? up) to)|['’]s)\s+(?:(?:just|only|now|still|exactly|then|going to be|a|an|the)\s+)*$/i;
const OF_BEFORE = /\b(?:of|at)\s+(?:(?:just|only|exactly)\s+)*$/i;
/** After a value: "R-2040 is your confirmation number", "$75 is the fee". */
const IS_AFTER = /^\s+(?:is|was|will be)\s+(?:your|the)\b/i;

/**
 * Whether a text states a value as what something is (docs/grading.md, "Values of the world's own kinds"):
 * a form of "be" (or "costs", "comes to") right before it — "Your change fee is $75", "Your booking number
 * is R-2041", "That's $95" — or after it, before "your"/"the" ("R-2041 is your reference"); an amount also
 * after "of" or "at" ("a fee of $75"). A value named in passing ("your other booking, R-2041, stays") is not.
 */
export function statedAsIs(text: string, value: Pick<SpokenValue, "kind" | "start" | "end">): boolean {
  const before = text.slice(0, value.start);
  return IS_BEFORE.test(before) || IS_AFTER.test(text.slice(value.end)) || (value.kind === "money" && OF_BEFORE.test(before));
}
