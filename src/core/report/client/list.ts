/** The report page's trial list: filters, text search, sort and rows drawn as it scrolls. */

import type { ReportData, TrialRow } from "./data";
import { esc, ms, statusBadge } from "./format";
import { toHash, type ViewState } from "./state";

/** The trial list: filters, text search and sort, all kept in the URL hash. */

export const STATUSES = ["passed", "failed", "inconclusive", "infrastructure_error"] as const;

const COLUMNS: ReadonlyArray<{ key: string; label: string; value: (t: TrialRow) => string | number | null; numeric?: boolean }> = [
  { key: "id", label: "trial", value: (t) => t.id },
  { key: "status", label: "status", value: (t) => STATUSES.indexOf(t.status) },
  { key: "kind", label: "kind", value: (t) => t.kind },
  { key: "condition", label: "condition", value: (t) => t.condition },
  { key: "duration", label: "duration", value: (t) => t.duration_ms, numeric: true },
  { key: "latency", label: "latency", value: (t) => t.latency_ms, numeric: true },
  { key: "failing", label: "failing checks / error", value: (t) => t.error ?? t.failing.join(" ") },
  { key: "text", label: "caller said", value: (t) => t.text },
];

export function matches(t: TrialRow, s: ViewState): boolean {
  if (s.status.length && !s.status.includes(t.status)) return false;
  if (s.kind && t.kind !== s.kind) return false;
  if (s.tag && !t.tags.includes(s.tag)) return false;
  if (s.condition && t.condition !== s.condition) return false;
  if (s.check && !t.failing.includes(s.check)) return false;
  if (s.case && t.case !== s.case) return false;
  if (s.q) {
    const q = s.q.toLowerCase();
    const hay = `${t.id} ${t.case} ${t.status} ${t.kind} ${t.condition ?? ""} ${t.tags.join(" ")} ${t.failing.join(" ")} ${t.error ?? ""} ${t.text}`.toLowerCase();
    if (!hay.includes(q)) return false;
  }
  return true;
}

/** The trials the state selects, in its order (default: run order; served for review, the review queue first). */
export function visibleTrials(d: ReportData, s: ViewState): TrialRow[] {
  const rows = d.trials.filter((t) => matches(t, s));
  const column = COLUMNS.find((c) => c.key === s.sort);
  if (!column && d.review_mode) {
    const rank = new Map(d.review_mode.queue.map((id, i) => [id, i]));
    const at = (id: string) => rank.get(id) ?? Number.MAX_SAFE_INTEGER;
    // A stable sort: trials outside the queue keep their run order after it.
    rows.sort((a, b) => at(a.id) - at(b.id));
  }
  if (column) {
    const dir = s.desc ? -1 : 1;
    rows.sort((a, b) => {
      const x = column.value(a);
      const y = column.value(b);
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return (x < y ? -1 : 1) * dir;
    });
  }
  return rows;
}

function options(values: readonly string[], selected: string, all: string): string {
  return `<option value="">${esc(all)}</option>${values.map((v) => `<option value="${esc(v)}"${v === selected ? " selected" : ""}>${esc(v)}</option>`).join("")}`;
}

const unique = (xs: readonly string[]) => [...new Set(xs)].sort();

/** The filter bar (built once per state change of the controls). */
export function filtersHtml(d: ReportData, s: ViewState): string {
  const count = (status: string) => d.trials.filter((t) => t.status === status).length;
  const chips = STATUSES.map(
    (st) => `<label class="chip s-${st}"><input type="checkbox" name="status" value="${st}"${s.status.includes(st) ? " checked" : ""}> ${esc(st.replace("_", " "))} <span class="muted">${count(st)}</span></label>`,
  ).join("");
  return `<div class="filters">
<input type="search" name="q" placeholder="search id, case, check, error, words…" value="${esc(s.q)}" aria-label="search trials">
<span class="chips">${chips}</span>
<select name="kind" aria-label="case kind">${options(unique(d.trials.map((t) => t.kind)), s.kind, "any kind")}</select>
<select name="tag" aria-label="tag">${options(unique(d.trials.flatMap((t) => t.tags)), s.tag, "any tag")}</select>
<select name="condition" aria-label="acoustic condition">${options(unique(d.trials.map((t) => t.condition ?? "").filter(Boolean)), s.condition, "any condition")}</select>
<select name="check" aria-label="failing check">${options(unique(d.trials.flatMap((t) => t.failing)), s.check, "any failing check")}</select>
<select name="case" aria-label="case">${options(unique(d.trials.map((t) => t.case)), s.case, "any case")}</select>
<button type="button" data-action="clear">clear</button>
</div>`;
}

/** Rows drawn at first and per step: a long list grows as it is scrolled, so a big run opens quickly. */
export const PAGE = 250;

/** How many reviews each trial has, for the list. */
export function reviewCounts(d: ReportData): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of d.reviews?.reviews ?? []) counts.set(r.trial_id, (counts.get(r.trial_id) ?? 0) + 1);
  return counts;
}

export function rowsHtml(rows: readonly TrialRow[], s: ViewState, d?: ReportData): string {
  const counts = d ? reviewCounts(d) : new Map<string, number>();
  const queue = new Map((d?.review_mode?.queue ?? []).map((id, i) => [id, i]));
  return rows
    .map((t) => {
      const href = toHash({ ...s, trial: t.id, t: null });
      const why = t.error ? `<span class="err">${esc(t.error)}</span>` : t.failing.map((f) => `<code>${esc(f)}</code>`).join(" ");
      const q = queue.get(t.id);
      const marks = `${q !== undefined ? ` <span class="badge t-neutral" title="position in the review queue">queue ${q + 1}</span>` : ""}${counts.get(t.id) ? ` <span class="badge t-passed reviewed" title="reviews recorded">${counts.get(t.id)} review(s)</span>` : ""}`;
      return `<tr data-trial="${esc(t.id)}" data-status="${t.status}"><td><a href="${esc(href)}">${esc(t.id)}</a>${marks}</td><td>${statusBadge(t.status)}</td><td>${esc(t.kind)}</td><td>${esc(t.condition ?? "")}</td><td class="n">${ms(t.duration_ms)}</td><td class="n">${ms(t.latency_ms)}</td><td>${why}</td><td class="said">${esc(t.text)}</td></tr>`;
    })
    .join("");
}

export const moreRow = (left: number) => `<tr class="more"><td colspan="${COLUMNS.length}"><button type="button" data-action="more">show ${Math.min(left, PAGE)} more of ${left}</button></td></tr>`;

/** The table with its first `PAGE` rows (the caller appends the rest as they are wanted). */
export function tableHtml(d: ReportData, s: ViewState, rows: readonly TrialRow[]): string {
  const head = COLUMNS.map((c) => {
    const active = s.sort === c.key;
    return `<th${c.numeric ? ' class="n"' : ""}><button type="button" data-sort="${c.key}" class="sort${active ? " active" : ""}">${esc(c.label)}${active ? (s.desc ? " ▼" : " ▲") : ""}</button></th>`;
  }).join("");
  const first = rows.slice(0, PAGE);
  return `<p class="count" id="trial-count">showing <b>${rows.length}</b> of ${d.trials.length} trials</p><div class="scroll"><table class="trials"><thead><tr>${head}</tr></thead><tbody>${rowsHtml(first, s, d)}${rows.length > PAGE ? moreRow(rows.length - PAGE) : ""}</tbody></table></div>`;
}
