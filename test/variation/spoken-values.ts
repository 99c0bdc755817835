/** Other spoken forms of the values the restaurant assistant says: the same time, date or count, said differently. */

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty"];
const ORDINAL_UNITS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth"];

/** 0–59 in words: 7 → "seven", 45 → "forty-five". */
export function numberWords(n: number): string {
  if (n < 20) return UNITS[n]!;
  const tens = TENS[Math.floor(n / 10)]!;
  return n % 10 === 0 ? tens : `${tens}-${UNITS[n % 10]}`;
}

/** 1–31 as an ordinal: 6 → "sixth", 21 → "twenty-first". */
export function ordinalWords(n: number): string {
  if (n < 20) return ORDINAL_UNITS[n]!;
  if (n % 10 === 0) return `${TENS[n / 10]!.slice(0, -1)}ieth`;
  return `${TENS[Math.floor(n / 10)]}-${ORDINAL_UNITS[n % 10]}`;
}

/** The part of the day a 24-hour hour falls in, as said after a time ("seven in the evening"). */
function dayPart(hour24: number): string {
  if (hour24 < 12) return "in the morning";
  if (hour24 < 17) return "in the afternoon";
  if (hour24 < 22) return "in the evening";
  return "at night";
}

/** "7 p.m." / "6:30 p.m." / "noon" → its forms (the first is the original). */
export function timeForms(time: string): string[] {
  if (time === "noon") return ["noon", "midday", "twelve noon"];
  if (time === "midnight") return ["midnight", "twelve midnight", "twelve at night"];
  const m = /^(\d{1,2})(?::(\d{2}))? ([ap])\.m\.$/.exec(time);
  if (!m) return [time];
  const hour12 = Number(m[1]);
  const minutes = Number(m[2] ?? "0");
  const hour24 = (hour12 % 12) + (m[3] === "p" ? 12 : 0);
  const part = dayPart(hour24);
  const meridiem = `${m[3]}.m.`;
  const hourWord = numberWords(hour12);
  if (minutes === 0) return [time, `${hourWord} ${part}`, `${hourWord} o'clock ${part}`, `${hourWord} ${meridiem}`];
  const minuteWord = minutes < 10 ? `oh ${numberWords(minutes)}` : numberWords(minutes);
  const said = [time, `${hourWord} ${minuteWord} ${part}`, `${hourWord} ${minuteWord} ${meridiem}`];
  if (minutes === 30) said.push(`half past ${hourWord} ${part}`);
  if (minutes === 15) said.push(`quarter past ${hourWord} ${part}`);
  return said;
}

/** "August 6" → "August 6", "the sixth of August", "August sixth". */
export function dateForms(date: string): string[] {
  const m = /^([A-Z][a-z]+) (\d{1,2})$/.exec(date);
  if (!m || !MONTHS.includes(m[1]!)) return [date];
  const day = Number(m[2]);
  return [date, `the ${ordinalWords(day)} of ${m[1]}`, `${m[1]} ${ordinalWords(day)}`];
}

/** "two" / "2" → "two", "2". */
export function countForms(count: string): string[] {
  const n = /^\d+$/.test(count) ? Number(count) : UNITS.indexOf(count);
  if (n < 0) return [count];
  return n < 20 ? [count, UNITS[n] === count ? String(n) : UNITS[n]!] : [count];
}

const TIME = /\b(?:\d{1,2}(?::\d{2})? [ap]\.m\.|noon|midnight)/g;
const DATE = new RegExp(`\\b(?:${MONTHS.join("|")}) \\d{1,2}\\b`, "g");
const COUNT_WORDS = UNITS.slice(1).join("|");
const PARTY = new RegExp(`\\b(a table for|a party of) (${COUNT_WORDS}|\\d+)\\b`, "g");
const PEOPLE = new RegExp(`\\b(${COUNT_WORDS}|\\d+) people\\b`, "g");

/**
 * Every time, date and party size in `text` said in another of its forms; `pick(kind, n)` chooses among
 * n forms (seeded by the caller). Names, ids, phone numbers and addresses are kept as they are.
 */
export function resayValues(text: string, pick: (what: string, n: number) => number): string {
  let i = 0;
  const choose = (forms: string[]) => forms[pick(`value${i++}`, forms.length)]!;
  return text
    .replace(TIME, (time) => choose(timeForms(time)))
    .replace(DATE, (date) => choose(dateForms(date)))
    .replace(PARTY, (_all, lead: string, count: string) => {
      const n = choose(countForms(count));
      return choose([`${lead} ${n}`, `${lead} ${n} ${n === "one" || n === "1" ? "person" : "people"}`]);
    })
    .replace(PEOPLE, (_all, count: string) => choose([`${choose(countForms(count))} people`, `${count} guests`, `a party of ${count}`]));
}
