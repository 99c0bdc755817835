/** Text helpers of the page script: every value reaches the page through `esc`. */

export function esc(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export const pct = (x: number | null | undefined, digits = 0) => (x === null || x === undefined ? "—" : `${(x * 100).toFixed(digits)}%`);

export const ms = (x: number | null | undefined) => (x === null || x === undefined ? "—" : `${Math.round(x).toLocaleString("en-US")} ms`);

/** Seconds on the player clock: 0:04.20. */
export function clock(seconds: number): string {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(2).padStart(5, "0")}`;
}

export const json = (value: unknown) => esc(JSON.stringify(value ?? null, null, 2));

/** A status badge; the tone is a CSS class (passed, failed, inconclusive, error, neutral, warn). */
export function badge(label: string, tone: string): string {
  return `<span class="badge t-${esc(tone)}">${esc(label)}</span>`;
}

const STATUS_TONE: Record<string, string> = {
  passed: "passed",
  failed: "failed",
  inconclusive: "warn",
  infrastructure_error: "error",
  error: "error",
  not_applicable: "neutral",
  not_run: "neutral",
  not_assessed: "neutral",
};

const STATUS_LABEL: Record<string, string> = { not_run: "not assessed", not_assessed: "not assessed", not_applicable: "not applicable", infrastructure_error: "infrastructure error" };

/** A trial, check or assessment status: "not run" reads as not assessed and is neutral, never red. */
export function statusBadge(status: string): string {
  return badge(STATUS_LABEL[status] ?? status, STATUS_TONE[status] ?? "neutral");
}

/** A pass rate with its 95% Wilson interval drawn as a bar: the band is the interval, the tick the rate. */
export function rateBar(rate: number | null, low: number | null, high: number | null): string {
  if (rate === null) return `<span class="muted">no trials</span>`;
  const l = (low ?? rate) * 100;
  const h = (high ?? rate) * 100;
  const title = `pass rate ${pct(rate, 1)}, 95% Wilson interval ${pct(low, 1)}–${pct(high, 1)}`;
  return `<span class="rate" title="${esc(title)}"><span class="bar"><span class="ci" style="left:${l.toFixed(2)}%;width:${Math.max(0.5, h - l).toFixed(2)}%"></span><span class="pt" style="left:${(rate * 100).toFixed(2)}%"></span></span><span class="num">${pct(rate)}</span><span class="muted ci-text">${pct(low)}–${pct(high)}</span></span>`;
}
