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
