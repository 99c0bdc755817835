/** The page script of report.html: the overview, the trial list, a trial's viewer and, when served, reviewing. */

import type { ReportData, ReviewsView, TrialDetail } from "./data";
import { esc } from "./format";
import { filtersHtml, moreRow, PAGE, rowsHtml, tableHtml, visibleTrials } from "./list";
import { overviewHtml } from "./overview";
import { EMPTY, parseHash, toHash, type ViewState } from "./state";
import { highlight, mountTrial, trialHtml, type Mounted } from "./trial";
import { anchorText, reviewPanelHtml, reviewRowsHtml, reviewTargets, type Anchor, type Verdict } from "./review";

/**
 * The page script of report.html: reads the embedded run data, renders the overview and the trial list,
 * and opens a trial's conversation viewer when the hash names one. Trial details are parsed only when a
 * trial is opened, so a report with thousands of trials loads quickly. Served by `crashlab view --review`,
 * it also records people's verdicts through its server (review.ts), driven by the keyboard.
 */

const data = JSON.parse(document.getElementById("run-data")!.textContent!) as ReportData;
const index = new Map(data.trials.map((t, i) => [t.id, i]));
const app = document.getElementById("app")!;
const reviewing = data.review_mode !== null;
const banner = reviewing
  ? `<p class="banner review-banner" id="review-banner">Reviewing as <b>${esc(data.review_mode!.reviewer)}</b>: the trials below follow the review queue (${data.review_mode!.queue.length} trial(s)); open one, or press <kbd>j</kbd> for the first. Verdicts are saved to the run's reviews.jsonl.</p>`
  : "";
app.innerHTML = `${banner}<div id="main-view"><div id="overview">${overviewHtml(data)}</div><section id="trials"><h2>Trials</h2><div id="filters"></div><div id="list"></div></section></div><div id="trial-view" hidden></div>`;
const mainView = document.getElementById("main-view")!;
const trialView = document.getElementById("trial-view")!;
const filters = document.getElementById("filters")!;
const list = document.getElementById("list")!;

let state: ViewState = parseHash(location.hash);
let mounted: Mounted | null = null;
let shownTrial = "";
let shownDetail: TrialDetail | null = null;
/** The focused row of the review panel, the anchor for the next verdict, and a time range being marked. */
let focus = 0;
let anchor: Anchor | null = null;
let rangeStart: number | null = null;
let savedCount = 0;

function listState(s: ViewState): ViewState {
  return { ...s, trial: "", t: null };
}

let listed: ReturnType<typeof visibleTrials> = [];
let drawn = 0;
let grow: IntersectionObserver | null = null;

function renderList(): void {
  listed = visibleTrials(data, state);
  drawn = Math.min(PAGE, listed.length);
  list.innerHTML = tableHtml(data, state, listed);
  watchMore();
}

/** Append the next rows of a long list. */
function more(): void {
  const body = list.querySelector("table.trials tbody");
  if (!body || drawn >= listed.length) return;
  body.querySelector("tr.more")?.remove();
  const next = listed.slice(drawn, drawn + PAGE);
  drawn += next.length;
  body.insertAdjacentHTML("beforeend", rowsHtml(next, state, data) + (drawn < listed.length ? moreRow(listed.length - drawn) : ""));
  watchMore();
}

/** The "show more" row loads the next rows by itself when it scrolls into view. */
function watchMore(): void {
  grow?.disconnect();
  const row = list.querySelector("tr.more");
  if (!row) return;
  grow = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) more();
  });
  grow.observe(row);
}

/** A trial's details: gzip in base64, unpacked by the browser itself (no request involved). */
async function loadDetail(id: string): Promise<TrialDetail | null> {
  const i = index.get(id);
  if (i === undefined) return null;
  const el = document.getElementById(`trial-${i}`);
  if (!el) return null;
  const bytes = Uint8Array.from(atob(el.textContent!.trim()), (c) => c.charCodeAt(0));
  const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
  return JSON.parse(text) as TrialDetail;
}

let opening = 0;

async function showTrial(): Promise<void> {
  mounted?.stop();
  mounted = null;
  mainView.hidden = true;
  trialView.hidden = false;
  const ticket = ++opening;
  const detail = await loadDetail(state.trial);
  // The hash moved on while this trial was unpacking: the newer view wins.
  if (ticket !== opening || !state.trial) return;
  const back = toHash(listState(state));
  if (!detail) {
    trialView.innerHTML = `<nav class="trial-nav"><a href="${esc(back)}" id="back">← all trials</a></nav><p class="banner t-warn">This run has no trial <code>${esc(state.trial)}</code>.</p>`;
    shownTrial = "";
    return;
  }
  const visible = visibleTrials(data, listState(state));
  const at = visible.findIndex((t) => t.id === detail.id);
  const link = (k: number) => (visible[k] ? toHash({ ...state, trial: visible[k]!.id, t: null }) : null);
  const position = at >= 0 ? `${at + 1} of ${visible.length}` : "not in the current filter";
  trialView.innerHTML = trialHtml(detail, { back, prev: at > 0 ? link(at - 1) : null, next: at >= 0 ? link(at + 1) : null, position });
  if (shownTrial !== detail.id) {
    focus = 0;
    anchor = null;
    rangeStart = null;
  }
  if (data.reviews) trialView.querySelector(".player")!.insertAdjacentHTML("afterend", reviewPanelHtml(detail, data, data.reviews, focus));
  mounted = mountTrial(trialView, detail, state.t);
  shownTrial = detail.id;
  shownDetail = detail;
  showAnchor();
  window.scrollTo(0, 0);
}

function showMain(): void {
  opening++;
  mounted?.stop();
  mounted = null;
  const returning = shownTrial;
  shownTrial = "";
  shownDetail = null;
  trialView.hidden = true;
  trialView.innerHTML = "";
  mainView.hidden = false;
  filters.innerHTML = filtersHtml(data, state);
  renderList();
  if (returning) {
    const at = listed.findIndex((t) => t.id === returning);
    while (at >= drawn && drawn < listed.length) more();
    list.querySelector(`tr[data-trial="${CSS.escape(returning)}"]`)?.scrollIntoView({ block: "center" });
  }
}

function route(): void {
  state = parseHash(location.hash);
  if (state.trial) void showTrial();
  else showMain();
}

/** A control changed: keep the hash in step without adding a history entry per keystroke. */
function update(next: ViewState): void {
  // A search box fires "change" when it loses focus, e.g. on the mousedown of a click on a trial link:
  // re-rendering then would replace the link under the pointer and swallow the click.
  if (toHash(next) === toHash(state)) return;
  state = next;
  history.replaceState(null, "", toHash(state));
  renderList();
}

function readControls(): ViewState {
  const value = (name: string) => (filters.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`)?.value ?? "").trim();
  const status = [...filters.querySelectorAll<HTMLInputElement>('input[name="status"]:checked')].map((i) => i.value);
  return { ...state, status, q: value("q"), kind: value("kind"), tag: value("tag"), condition: value("condition"), check: value("check"), case: value("case") };
}

let typing = 0;
filters.addEventListener("input", (event) => {
  const search = (event.target as HTMLElement).getAttribute("type") === "search";
  clearTimeout(typing);
  if (search) typing = window.setTimeout(() => update(readControls()), 80);
  else update(readControls());
});
filters.addEventListener("change", () => update(readControls()));

app.addEventListener("click", (event) => {
  const target = event.target as HTMLElement;
  const sort = target.closest<HTMLElement>("[data-sort]");
  if (sort) {
    const key = sort.dataset.sort!;
    update({ ...state, sort: key, desc: state.sort === key ? !state.desc : false });
    return;
  }
  if (target.closest('[data-action="more"]')) {
    more();
    return;
  }
  if (target.closest('[data-action="clear"]')) {
    location.hash = toHash({ ...EMPTY, sort: state.sort, desc: state.desc });
    return;
  }
  const filter = target.closest<HTMLElement>("[data-filter]");
  if (filter) {
    event.preventDefault();
    const key = filter.dataset.filter as "case" | "kind" | "tag" | "condition" | "q";
    location.hash = toHash({ ...EMPTY, [key]: filter.dataset.value ?? "" });
    document.getElementById("trials")!.scrollIntoView();
    return;
  }
  const citation = target.closest<HTMLElement>("[data-cite]");
  if (citation) highlight(trialView, citation.dataset.cite!);
});

/** The reviews changed (loaded or saved): draw again what shows them. */
function reviewsChanged(view: ReviewsView): void {
  data.reviews = view;
  document.getElementById("overview")!.innerHTML = overviewHtml(data);
  if (shownDetail) {
    const rows = document.getElementById("review-rows");
    if (rows) rows.innerHTML = reviewRowsHtml(shownDetail, view, data.review_mode?.reviewer ?? null, focus);
  } else if (!mainView.hidden) renderList();
}

function say(text: string, tone: "ok" | "error" | "" = ""): void {
  const status = document.getElementById("review-status");
  if (!status) return;
  status.textContent = text;
  status.className = `review-status${tone ? ` ${tone}` : ""}`;
}

function showAnchor(): void {
  const el = document.getElementById("review-anchor");
  if (el) el.textContent = anchor ? anchorText(anchor) : rangeStart !== null ? `from ${(rangeStart / 1000).toFixed(2)} s… (press ] at its end)` : "none";
}

function setFocus(next: number): void {
  const rows = [...document.querySelectorAll<HTMLElement>("#review-rows tr.dim")];
  if (!rows.length) return;
  focus = Math.max(0, Math.min(rows.length - 1, next));
  rows.forEach((r, i) => r.classList.toggle("focused", i === focus));
  rows[focus]!.scrollIntoView({ block: "nearest" });
}

/** Send one verdict to the server, which appends it to reviews.jsonl and answers with the saved line. */
async function record(verdict: Verdict, index = focus): Promise<void> {
  const detail = shownDetail;
  if (!detail || !data.reviews || !reviewing) return;
  const target = reviewTargets(detail, data.reviews.reviewable)[index];
  if (!target) return;
  const noteBox = document.getElementById("review-note") as HTMLTextAreaElement | null;
  const note = noteBox?.value.trim() ?? "";
  say(`saving ${verdict} on ${target.verifier}…`);
  try {
    const res = await fetch("reviews", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ trial_id: detail.id, verifier: target.verifier, verdict, note, ...(anchor ? { anchor } : {}) }) });
    const body = (await res.json().catch(() => ({ error: `the server answered ${res.status}` }))) as { error?: string; saved?: { verdict: string; verifier: string }; view?: ReviewsView };
    if (!res.ok || !body.view) throw new Error(body.error ?? `the server answered ${res.status}`);
    if (noteBox) noteBox.value = "";
    anchor = null;
    rangeStart = null;
    showAnchor();
    reviewsChanged(body.view);
    if (shownDetail === detail) setFocus(index + 1);
    say(`saved: ${body.saved!.verdict} on ${body.saved!.verifier}${note ? ", with the note" : ""}`, "ok");
    // How many verdicts this page saved: something to wait for that a repeated message would not change.
    const status = document.getElementById("review-status");
    if (status) status.dataset.saved = String(++savedCount);
  } catch (error) {
    say(`not saved: ${(error as Error).message}`, "error");
  }
}

/** Load the reviews as they stand now (served only: the file may have changed since the page was built). */
async function loadReviews(): Promise<void> {
  try {
    const res = await fetch("reviews", { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(((await res.json().catch(() => ({}))) as { error?: string }).error ?? `the server answered ${res.status}`);
    reviewsChanged((await res.json()) as ReviewsView);
  } catch (error) {
    // Shown in the banner, which every view has (a trial's panel may not be drawn yet).
    const banner = document.getElementById("review-banner")!;
    banner.querySelector("#review-load-error")?.remove();
    banner.insertAdjacentHTML("beforeend", `<span class="review-status error" id="review-load-error"> The reviews could not be loaded: ${esc((error as Error).message)}</span>`);
  }
}

trialView.addEventListener("click", (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>("button[data-verdict]");
  if (!button) return;
  const row = button.closest<HTMLElement>("tr.dim")!;
  const index = Number(row.dataset.dim);
  setFocus(index);
  button.blur();
  void record(button.dataset.verdict as Verdict, index);
});

const isTyping = (el: EventTarget | null) => el instanceof HTMLElement && (el.matches("input, textarea, select") || el.isContentEditable);

/** The keyboard: navigation everywhere, verdicts when served for review (the key map is on the page). */
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
  if (isTyping(event.target)) {
    if (event.key === "Escape") (event.target as HTMLElement).blur();
    return;
  }
  const key = event.key;
  if (!shownDetail) {
    if (key === "j") {
      const first = visibleTrials(data, listState(state))[0];
      if (first) location.hash = toHash({ ...state, trial: first.id, t: null });
    }
    return;
  }
  if (key === "j" || key === "k") {
    const link = document.getElementById(key === "j" ? "next" : "prev") as HTMLAnchorElement | null;
    if (link) location.hash = link.getAttribute("href")!;
    return;
  }
  if (key === " ") {
    // A focused button or link answers space itself.
    if ((event.target as HTMLElement).closest?.("button, a, summary")) return;
    event.preventDefault();
    mounted?.toggle();
    return;
  }
  if (!reviewing) return;
  if (key === "ArrowDown" || key === "ArrowUp") {
    event.preventDefault();
    setFocus(focus + (key === "ArrowDown" ? 1 : -1));
  } else if (/^[1-9]$/.test(key)) setFocus(Number(key) - 1);
  else if (key === "p" || key === "f" || key === "u") void record(key === "p" ? "passed" : key === "f" ? "failed" : "unsure");
  else if (key === "n") {
    event.preventDefault();
    (document.getElementById("review-note") as HTMLTextAreaElement | null)?.focus();
  } else if (key === "a") {
    const id = mounted?.utteranceAt() ?? null;
    anchor = id ? { utterance_id: id } : null;
    rangeStart = null;
    say(id ? `the next verdict is anchored to ${id}` : "no utterance at the cursor: move it first (click the timeline or a transcript line)");
    showAnchor();
  } else if (key === "[") {
    rangeStart = Math.round(mounted?.now() ?? 0);
    anchor = null;
    showAnchor();
  } else if (key === "]") {
    const end = Math.round(mounted?.now() ?? 0);
    if (rangeStart === null) say("press [ at the range's start first");
    else if (end < rangeStart) say("the range's end is before its start: move the cursor later, then press ]", "error");
    else {
      anchor = { start_ms: rangeStart, end_ms: end };
      rangeStart = null;
    }
    showAnchor();
  } else if (key === "x") {
    anchor = null;
    rangeStart = null;
    showAnchor();
  }
});

window.addEventListener("hashchange", route);
route();
if (reviewing) void loadReviews();
