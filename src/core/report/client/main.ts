import type { ReportData, TrialDetail } from "./data";
import { esc } from "./format";
import { filtersHtml, moreRow, PAGE, rowsHtml, tableHtml, visibleTrials } from "./list";
import { overviewHtml } from "./overview";
import { EMPTY, parseHash, toHash, type ViewState } from "./state";
import { highlight, mountTrial, trialHtml } from "./trial";

/**
 * The page script of report.html: reads the embedded run data, renders the overview and the trial list,
 * and opens a trial's conversation viewer when the hash names one. Trial details are parsed only when a
 * trial is opened, so a report with thousands of trials loads quickly.
 */

const data = JSON.parse(document.getElementById("run-data")!.textContent!) as ReportData;
const index = new Map(data.trials.map((t, i) => [t.id, i]));
const app = document.getElementById("app")!;
app.innerHTML = `<div id="main-view"><div id="overview">${overviewHtml(data)}</div><section id="trials"><h2>Trials</h2><div id="filters"></div><div id="list"></div></section></div><div id="trial-view" hidden></div>`;
const mainView = document.getElementById("main-view")!;
const trialView = document.getElementById("trial-view")!;
const filters = document.getElementById("filters")!;
const list = document.getElementById("list")!;

let state: ViewState = parseHash(location.hash);
let unmount: (() => void) | null = null;
let shownTrial = "";

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
  body.insertAdjacentHTML("beforeend", rowsHtml(next, state) + (drawn < listed.length ? moreRow(listed.length - drawn) : ""));
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
  unmount?.();
  unmount = null;
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
  unmount = mountTrial(trialView, detail, state.t);
  shownTrial = detail.id;
  window.scrollTo(0, 0);
}

function showMain(): void {
  opening++;
  unmount?.();
  unmount = null;
  const returning = shownTrial;
  shownTrial = "";
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

window.addEventListener("hashchange", route);
route();
