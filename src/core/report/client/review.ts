/** The report page's review panel: people's verdicts on a trial, recorded when served by `crashlab view --review`. */

import type { AssessmentView, ReportData, ReviewsView, ReviewView, TrialDetail } from "./data";
import { badge, esc, statusBadge } from "./format";

/**
 * The review panel of a trial: each human dimension and each of the trial's semantic clauses, with
 * people's verdicts on it. Served by `crashlab view --review`, the reviewer records passed / failed / unsure
 * with the keyboard or the buttons, each verdict posted to the server, which appends it to reviews.jsonl.
 * Opened as a file, the panel is read-only.
 */

export type Verdict = ReviewView["verdict"];
export type Anchor = NonNullable<ReviewView["anchor"]>;

export const VERDICTS: ReadonlyArray<{ verdict: Verdict; key: string; label: string }> = [
  { verdict: "passed", key: "p", label: "passed" },
  { verdict: "failed", key: "f", label: "failed" },
  { verdict: "unsure", key: "u", label: "unsure" },
];

/** What a trial can be reviewed on: the human dimensions, then the semantic clauses that apply to it. */
export function reviewTargets(d: TrialDetail, reviewable: readonly string[]): Array<{ verifier: string; judge: AssessmentView | null }> {
  const human = reviewable.filter((v) => v.startsWith("human.")).map((verifier) => ({ verifier, judge: null }));
  const semantic = d.assessments.filter((a) => a.kind === "semantic" && a.status !== "not_applicable" && reviewable.includes(a.verifier)).map((a) => ({ verifier: a.verifier, judge: a }));
  return [...human, ...semantic];
}

/** A review's anchor in words. */
export function anchorText(a: Anchor | null | undefined): string {
  if (!a) return "";
  return "utterance_id" in a ? a.utterance_id : `${(a.start_ms / 1000).toFixed(2)}–${(a.end_ms / 1000).toFixed(2)} s`;
}

const TONE: Record<Verdict, string> = { passed: "passed", failed: "failed", unsure: "warn" };

function reviewLine(r: ReviewView): string {
  const carried = r.carried_from ? ` <span class="carried" title="carried over from run ${esc(r.carried_from)}: the same trial (same provenance digest)">carried from ${esc(r.carried_from)}</span>` : "";
  const anchor = r.anchor ? ` <span class="anchor">@ ${esc(anchorText(r.anchor))}</span>` : "";
  return `<div class="review-line" data-reviewer="${esc(r.reviewer)}"${r.carried_from ? ' data-carried="1"' : ""}>${badge(r.verdict, TONE[r.verdict])} <b>${esc(r.reviewer)}</b>${carried}${anchor}${r.note ? ` <span class="note">${esc(r.note)}</span>` : ""}</div>`;
}

/** The rows of the panel: one per reviewable verifier (re-drawn after each saved verdict). */
export function reviewRowsHtml(d: TrialDetail, view: ReviewsView, reviewer: string | null, focus: number): string {
  const targets = reviewTargets(d, view.reviewable);
  if (!targets.length) return `<tr><td colspan="5" class="muted">nothing to review in this trial</td></tr>`;
  return targets
    .map(({ verifier, judge }, i) => {
      const mine = reviewer === null ? undefined : view.reviews.find((r) => r.trial_id === d.id && r.verifier === verifier && r.reviewer === reviewer && !r.carried_from);
      const others = view.reviews.filter((r) => r.trial_id === d.id && r.verifier === verifier && r !== mine);
      const buttons =
        reviewer === null
          ? ""
          : `<td class="verdicts">${VERDICTS.map((v) => `<button type="button" class="verdict v-${v.verdict}" data-verdict="${v.verdict}" aria-pressed="${mine?.verdict === v.verdict}" title="${v.label} (${v.key})">${v.label}</button>`).join("")}${mine?.note ? `<div class="note">${esc(mine.note)}${mine.anchor ? ` <span class="anchor">@ ${esc(anchorText(mine.anchor))}</span>` : ""}</div>` : ""}</td>`;
      return `<tr class="dim${i === focus && reviewer !== null ? " focused" : ""}" data-dim="${i}" data-verifier="${esc(verifier)}"${mine ? ` data-mine="${mine.verdict}"` : ""}><td class="n">${i < 9 ? i + 1 : ""}</td><td><code>${esc(verifier)}</code></td><td>${judge ? `judge ${statusBadge(judge.status)}` : '<span class="muted">people only</span>'}</td>${buttons}<td class="others">${others.map(reviewLine).join("") || '<span class="muted">—</span>'}</td></tr>`;
    })
    .join("");
}

export const KEYS: ReadonlyArray<[string, string, boolean]> = [
  ["j / k", "next / previous trial", false],
  ["space", "play / pause", false],
  ["↓ / ↑ or 1–9", "choose the dimension", true],
  ["p / f / u", "passed / failed / unsure on it (saved at once)", true],
  ["n", "write a note for the next verdict (Esc leaves the box)", true],
  ["a", "anchor the note to the utterance at the cursor", true],
  ["[ then ]", "anchor it to a time range: its start, then its end, at the cursor", true],
  ["x", "drop the anchor", true],
];

/** The panel around the rows. */
export function reviewPanelHtml(d: TrialDetail, data: ReportData, view: ReviewsView, focus: number): string {
  const mode = data.review_mode;
  const reviewer = mode?.reviewer ?? null;
  const head = `<tr><th class="n">#</th><th>verifier</th><th>judge</th>${reviewer === null ? "" : `<th>your verdict (${esc(reviewer)})</th>`}<th>${reviewer === null ? "people's verdicts" : "others"}</th></tr>`;
  const intro =
    reviewer === null
      ? `<p class="hint">Read-only: run <code>crashlab view --review &lt;run-dir&gt;</code> to review.</p>`
      : `<p class="muted">Reviewing as <b>${esc(reviewer)}</b>: each verdict is saved to the run's reviews.jsonl at once; a later verdict supersedes yours.</p><p class="keyline" id="keyline"><kbd>j</kbd>/<kbd>k</kbd> trial · <kbd>↑</kbd>/<kbd>↓</kbd> or <kbd>1</kbd>–<kbd>9</kbd> row · <kbd>p</kbd>/<kbd>f</kbd>/<kbd>u</kbd> passed/failed/unsure · <kbd>n</kbd> note · <kbd>a</kbd> or <kbd>[</kbd> <kbd>]</kbd> anchor · <kbd>space</kbd> play/pause (all keys below)</p>`;
  const note =
    reviewer === null
      ? ""
      : `<div class="note-box"><label for="review-note">note for the next verdict</label><textarea id="review-note" rows="2" placeholder="why (optional); press n to write, Esc to leave"></textarea><div class="muted">anchor: <span id="review-anchor">none</span></div></div><div id="review-status" class="review-status" role="status" aria-live="polite"></div>`;
  const keys = `<details class="keys"${reviewer === null ? "" : " open"}><summary>Keys</summary><table class="keymap"><tbody>${KEYS.filter(([, , review]) => reviewer !== null || !review)
    .map(([k, what]) => `<tr><td><kbd>${esc(k)}</kbd></td><td>${esc(what)}</td></tr>`)
    .join("")}</tbody></table></details>`;
  const body = `${intro}<table class="review-table"><thead>${head}</thead><tbody id="review-rows">${reviewRowsHtml(d, view, reviewer, focus)}</tbody></table>${note}${keys}`;
  if (reviewer !== null) return `<section class="review" id="review"><h2>Review</h2>${body}</section>`;
  // Read-only, the panel stays folded unless people reviewed this trial: it would push the conversation down.
  const count = view.reviews.filter((r) => r.trial_id === d.id).length;
  return `<details class="review" id="review"${count ? " open" : ""}><summary><b>Review</b> <span class="muted">${count ? `${count} review(s)` : "no reviews yet"}</span></summary>${body}</details>`;
}
