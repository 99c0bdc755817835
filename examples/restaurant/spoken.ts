/** How the assistant says dates, times, party sizes and seating: the inverse of ./parse. */

const MONTH_NAMES = [
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
];

const SMALL_NUMBERS = [
  "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
];

/** "2026-08-06" → "August 6". Anything unexpected is said as given rather than invented. */
export function spokenDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const month = match ? MONTH_NAMES[Number(match[2]) - 1] : undefined;
  return match && month ? `${month} ${Number(match[3])}` : date;
}

/** "19:00" → "7 p.m.", "18:30" → "6:30 p.m.", "12:00" → "noon". */
export function spokenTime(time: string): string {
  const match = /^(\d{1,2}):(\d{2})$/.exec(time);
  if (!match) return time;
  const hour = Number(match[1]);
  const minutes = match[2];
  if (hour === 12 && minutes === "00") return "noon";
  if (hour === 0 && minutes === "00") return "midnight";
  const meridiem = hour >= 12 ? "p.m." : "a.m.";
  const twelveHour = hour % 12 === 0 ? 12 : hour % 12;
  return minutes === "00" ? `${twelveHour} ${meridiem}` : `${twelveHour}:${minutes} ${meridiem}`;
}

/** 2 → "two"; large or odd values stay digits. */
export function spokenCount(count: number): string {
  return Number.isInteger(count) && count >= 0 && count < SMALL_NUMBERS.length ? SMALL_NUMBERS[count] : String(count);
}

/** Seating kind as a phrase that follows "a table …". */
export function spokenSeating(seating: string | null | undefined): string {
  switch (seating) {
    case "indoor":
      return "indoors";
    case "outdoor":
      return "outside";
    case "patio":
      return "on the patio";
    case "bar":
      return "at the bar";
    default:
      return seating ? `with ${seating} seating` : "";
  }
}

/** ["a"] → "a"; ["a", "b"] → "a and b"; ["a", "b", "c"] → "a, b and c". */
export function joinAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "…at 7 p.m.." → "…at 7 p.m.": templates end sentences after abbreviations that already carry a period. */
export function tidyPunctuation(text: string): string {
  return text.replace(/\.\.(?!\.)/g, ".");
}
