/** How the assistant says dates, times, flight numbers and amounts of money. */

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "2026-03-06" → "March 6". Anything unexpected is said as given. */
export function spokenDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const month = m ? MONTH_NAMES[Number(m[2]) - 1] : undefined;
  return m && month ? `${month} ${Number(m[3])}` : date;
}

/** "17:40" → "5:40 p.m.", "08:05" → "8:05 a.m.". */
export function spokenTime(time: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!m) return time;
  const hour = Number(m[1]);
  const meridiem = hour >= 12 ? "p.m." : "a.m.";
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return m[2] === "00" ? `${h} ${meridiem}` : `${h}:${m[2]} ${meridiem}`;
}

/** "NW218" → "NW 218", as agents read flight numbers out. */
export function spokenFlight(flightNumber: string): string {
  return flightNumber.replace(/^([A-Z]{2})(\d+)$/, "$1 $2");
}

/** 95 → "$95", 12.5 → "$12.50". */
export function dollars(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
}

/** "…at 5:40 p.m.." → "…at 5:40 p.m.". */
export function tidyPunctuation(text: string): string {
  return text.replace(/\.\.(?!\.)/g, ".");
}

const UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/** 95 → "ninety-five", 189 → "one hundred eighty-nine" (whole numbers below 1,000; others as digits). */
export function numberWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n >= 1000) return String(n);
  if (n < 20) return UNITS[n]!;
  if (n < 100) return n % 10 === 0 ? TENS[n / 10]! : `${TENS[Math.floor(n / 10)]}-${UNITS[n % 10]}`;
  const rest = n % 100;
  return `${UNITS[Math.floor(n / 100)]} hundred${rest ? ` ${numberWords(rest)}` : ""}`;
}

/** 95 → "ninety-five dollars", as a transcript of the amount said aloud. */
export function dollarsInWords(amount: number): string {
  return Number.isInteger(amount) ? `${numberWords(amount)} dollar${amount === 1 ? "" : "s"}` : dollars(amount);
}

/** "17:40" → "5:40 in the evening", "08:05" → "8:05 in the morning". */
export function clockWords(time: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!m) return time;
  const hour = Number(m[1]);
  const part = hour < 12 ? "in the morning" : hour < 17 ? "in the afternoon" : "in the evening";
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${m[2] === "00" ? `${h} o'clock` : `${h}:${m[2]}`} ${part}`;
}
