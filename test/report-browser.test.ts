import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { speechIntervals } from "../src/core/audio/speech";
import { readWav } from "../src/core/audio/wav";
import { cli } from "./cli-harness";
import type { TrialDetail } from "../src/core/report/client/data";
import { unpackTrial } from "../src/core/report/html";
import { GUTTER, timelineDuration } from "../src/core/report/client/timeline";
import { ResultsFile } from "../src/core/record/results";
import { isExecutableFile, launchBrowser, PACKAGED_CHROMIUM_ENV, SYSTEM_CHROMIUM, watch, type Browser, type PageWatch } from "./browser";
import { clauseOf, startJudgeServer, verdict, type JudgeServer } from "./judge-fixtures";

/**
 * report.html in a real browser (chromium through playwright-core: the system's, or the one packaged in
 * @sparticuz/chromium; test/browser.ts says which and why), from file://: a bundled
 * offline run with CRAWL and WALK trials, and a judged run against a loopback Responses server.
 * Screenshots of the overview and of one trial go to test-results/ for a person to look at.
 */
const repo = resolve(import.meta.dirname, "..");
const shots = join(repo, "test-results");


function runFolder(out: string): { dir: string; doc: ResultsFile } {
  const dir = join(out, readdirSync(out)[0]!);
  return { dir, doc: ResultsFile.parse(JSON.parse(readFileSync(join(dir, "results.json"), "utf8"))) };
}

const RIGHT = 12;

/**
 * The page's names the test callbacks use (they run in the page; this project has no DOM types). Waits
 * take functions, not strings: the report's CSP forbids evaluating strings.
 */
type PageGlobals = { location: { hash: string }; document: { querySelector(s: string): ({ getAttribute(n: string): string | null } & { readyState?: number }) | null } };
interface Media {
  currentTime: number;
  playbackRate: number;
  paused: boolean;
  duration: number;
  currentSrc: string;
}

let browser: Browser | undefined;
let launchError: unknown;
let audioRun: { dir: string; doc: ResultsFile };
let judged: { dir: string; doc: ResultsFile };
let conversation: { dir: string; doc: ResultsFile };
let server: JudgeServer;

/**
 * A browser that cannot start fails every test here with the reason, instead of a failed hook leaving them
 * skipped (which reads as "nothing to run" in a summary).
 */
beforeAll(async () => {
  try {
    browser = await launchBrowser();
    console.info(`report-browser: ${browser.source} chromium ${browser.version}`);
  } catch (e) {
    launchError = e;
  }
}, 240_000);

function launched(): Browser {
  if (browser) return browser;
  throw launchError;
}

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), "report-browser-"));
  const ids = ["harbor_001", "harbor_008", "harbor_002_noisy", "harbor_003_telephony"].flatMap((id) => ["--example", id]);
  // Every trial's audio: the player is exercised on second repetitions too.
  const r = await cli(["run", ...ids, "--repetitions", "2", "--artifacts", "all", "--results-dir", out, "--quiet"]);
  expect(r.code, r.stderr).toBe(0);
  audioRun = runFolder(out);
  const cout = mkdtempSync(join(tmpdir(), "report-conversation-"));
  const c = await cli(["run", "--example", "run_interrupted_unavailable", "--results-dir", cout, "--quiet"]);
  expect(c.code, c.stderr).toBe(0);
  conversation = runFolder(cout);

  server = await startJudgeServer((body) => {
    const content = String((body.input as Array<{ content: string }>)[0]!.content);
    const cites = ["utt.assistant.1", ...(content.includes('"id":"tool.call_1"') ? ["tool.call_1"] : [])];
    return { status: 200, json: verdict({ verdict: "pass", severity_score: 1, rationale: `The ${clauseOf(body)} clause holds.`, cited_evidence_ids: cites, ...(clauseOf(body) === "task_understanding" ? { task_completed: true } : {}) }) };
  });
  const jout = mkdtempSync(join(tmpdir(), "report-judged-"));
  const j = await cli(["run", "--target", "text_restaurant", "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--results-dir", jout, "--quiet"]);
  expect(j.code, j.stderr).toBe(0);
  judged = runFolder(jout);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(dir: string, hash = ""): Promise<{ page: Page; seen: PageWatch }> {
  const page = await launched().context.newPage();
  const seen = watch(page);
  await page.goto(pathToFileURL(join(dir, "report.html")).href + hash);
  await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.querySelector("#main-view:not([hidden]) #overview, #trial-view:not([hidden]) .trial-nav") !== null);
  return { page, seen };
}

const visibleIds = (page: Page) => page.$$eval("table.trials tbody tr", (rows) => rows.map((r) => r.getAttribute("data-trial")!));

async function openTrial(page: Page, id: string): Promise<TrialDetail> {
  await page.click(`table.trials tr[data-trial="${id}"] a`);
  await page.waitForSelector("#trial-view:not([hidden]) #timeline-svg");
  const index = audioRun.doc.trials.findIndex((t) => t.trial_id === id);
  const detail = JSON.parse(unpackTrial(await page.$eval(`#trial-${index}`, (el) => el.textContent!))) as TrialDetail;
  return detail;
}

/** Wait until the trial's conversation.wav has its metadata (duration) loaded. */
const audioReady = (page: Page) => page.waitForFunction(() => ((globalThis as unknown as PageGlobals).document.querySelector("#audio")?.readyState ?? 0) >= 1, undefined, { timeout: 15_000 });

describe("report.html in chromium", () => {
  it(`launches a chromium: the system's (${SYSTEM_CHROMIUM}), or the packaged one when ${PACKAGED_CHROMIUM_ENV}=1 or the system has none`, () => {
    const packaged = process.env[PACKAGED_CHROMIUM_ENV] === "1" || !isExecutableFile(SYSTEM_CHROMIUM);
    expect(launched().source).toBe(packaged ? "packaged" : "system");
  });

  it("loads from file:// with no console error and no network request, and its overview shows the decision and gates", async () => {
    const { page, seen } = await open(audioRun.dir);
    expect(await page.textContent("#decision .decision-word")).toBe("PASS");
    expect(await page.getAttribute("#decision", "data-state")).toBe("pass");
    // Every trial is listed; the per-case table draws one Wilson bar per case.
    expect(await visibleIds(page)).toEqual(audioRun.doc.trials.map((t) => t.trial_id));
    expect(await page.$$eval("table.cases .bar .ci", (els) => els.length)).toBe(audioRun.doc.summary.cases.length);
    // Pass rates per acoustic condition and per tag are there.
    const conditions = await page.$$eval(".breakdown", (els) => els.map((e) => e.querySelector("h3")!.textContent));
    expect(conditions).toEqual(["By kind", "By acoustic condition", "By tag"]);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, "report-overview.png"), fullPage: true });
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    await page.close();
  });

  it("shows advisory gates that were not assessed as not assessed (neutral), never as failed", async () => {
    const { page } = await open(audioRun.dir);
    const notAssessed = audioRun.doc.gates.results.filter((g) => !g.rule.required && g.verdicts === 0).map((g) => g.verifier);
    expect(notAssessed.length).toBe(5);
    const rows = await page.$$eval('table.gates tr[data-state="not_assessed"]', (trs) => trs.map((tr) => ({ id: tr.querySelector("code")!.textContent, badge: tr.querySelector(".badge")!.className, text: tr.querySelector(".badge")!.textContent })));
    expect(rows.map((r) => r.id).sort()).toEqual(notAssessed.sort());
    for (const r of rows) expect(r).toMatchObject({ badge: "badge t-neutral", text: "not assessed" });
    // Nothing red anywhere in the overview of a passing default run.
    expect(await page.$$eval("#overview .t-failed", (els) => els.length)).toBe(0);
    // Inside a trial the unassessed semantic clauses read "not assessed" too.
    await openTrial(page, audioRun.doc.trials[0]!.trial_id);
    const tu = await page.$eval('.semantic[data-verifier="semantic.task_understanding"] .badge', (b) => ({ cls: b.className, text: b.textContent }));
    expect(tu).toEqual({ cls: "badge t-neutral", text: "not assessed" });
    await page.close();
  });

  it("filters, search and sort change the visible trials, and the URL hash restores them", async () => {
    const { page, seen } = await open(audioRun.dir);
    const walk = audioRun.doc.trials.filter((t) => t.case_kind === "walk").map((t) => t.trial_id);
    expect(walk.length).toBe(4);
    await page.selectOption('select[name="kind"]', "walk");
    expect(await visibleIds(page)).toEqual(walk);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash)).toBe("#kind=walk");
    await page.selectOption('select[name="condition"]', "telephony");
    expect(await visibleIds(page)).toEqual(["harbor_003_telephony#1", "harbor_003_telephony#2"]);
    await page.selectOption('select[name="condition"]', "");
    await page.fill('input[name="q"]', "terrace");
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).location.hash.includes("q=terrace"));
    expect(await visibleIds(page)).toEqual(["harbor_002_noisy#1", "harbor_002_noisy#2"]);
    // Straight from the search box to a trial: the first click opens it (blur must not re-render the list under it).
    await page.click('table.trials tr[data-trial="harbor_002_noisy#2"] a');
    await page.waitForSelector("#trial-view:not([hidden]) #timeline-svg");
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash)).toBe("#kind=walk&q=terrace&trial=harbor_002_noisy%232");
    await page.click("#back");
    await page.waitForSelector("#main-view:not([hidden]) table.trials");
    expect(await visibleIds(page)).toEqual(["harbor_002_noisy#1", "harbor_002_noisy#2"]);
    await page.fill('input[name="q"]', "");
    await page.check('input[name="status"][value="failed"]');
    expect(await visibleIds(page)).toEqual([]);
    expect(await page.textContent("#trial-count")).toBe("showing 0 of 8 trials");
    await page.uncheck('input[name="status"][value="failed"]');
    // Sort by duration, longest first (two clicks on the header).
    await page.click('button[data-sort="duration"]');
    await page.click('button[data-sort="duration"]');
    const byDuration = audioRun.doc.trials.filter((t) => t.case_kind === "walk").sort((a, b) => b.duration_ms - a.duration_ms || 0);
    const shown = await visibleIds(page);
    const durations = shown.map((id) => audioRun.doc.trials.find((t) => t.trial_id === id)!.duration_ms);
    expect(durations).toEqual(byDuration.map((t) => t.duration_ms));
    const hash = await page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash);
    expect(hash).toBe("#kind=walk&sort=duration&desc=1");

    // A fresh page opened at that hash shows the same view, controls included.
    const again = await open(audioRun.dir, hash);
    expect(await visibleIds(again.page)).toEqual(shown);
    expect(await again.page.inputValue('select[name="kind"]')).toBe("walk");
    expect(await again.page.textContent('button[data-sort="duration"]')).toBe("duration ▼");
    // And a link to a trial opens that trial's viewer.
    const direct = await open(audioRun.dir, `#trial=${encodeURIComponent("harbor_008#2")}`);
    expect(await direct.page.textContent(".trial-head h1")).toContain("harbor_008#2");
    expect([...seen.errors, ...again.seen.errors, ...direct.seen.errors]).toEqual([]);
    await Promise.all([page.close(), again.page.close(), direct.page.close()]);
  });

  it("renders a CRAWL trial: both waveforms on one timeline; the timeline, transcript rows and playback move one clock", async () => {
    const { page, seen } = await open(audioRun.dir);
    const detail = await openTrial(page, "harbor_001#1");
    expect(detail.kind).toBe("crawl");
    await audioReady(page);
    expect(await page.$$eval("#timeline-svg path.wave", (ps) => ps.map((p) => p.getAttribute("class")))).toEqual(["wave caller", "wave assistant"]);
    expect(await page.$$eval("#timeline-svg .span.tone-ok text", (ts) => ts.map((t) => t.textContent))).toEqual([`${detail.metrics.audio!.response_latency_ms} ms`]);

    // Click in the middle of the plot: the cursor goes there and so does the audio.
    const box = (await page.$("#timeline-svg"))!;
    const rect = (await box.boundingBox())!;
    const width = Number(await box.getAttribute("width"));
    const plot = width - GUTTER - RIGHT;
    const total = timelineDuration(detail);
    const x = GUTTER + plot * 0.5;
    await page.mouse.click(rect.x + x, rect.y + 60);
    const cursor = Number(await page.getAttribute("#cursor", "x1"));
    expect(Math.abs(cursor - x)).toBeLessThan(1);
    const current = await page.$eval("#audio", (a) => (a as unknown as Media).currentTime);
    expect(Math.abs(current * 1000 - total / 2)).toBeLessThan(total / plot + 1);

    // Click the second transcript row: playback seeks to its start and the row is the current one.
    const second = detail.turns[1]!;
    await page.click('#transcript .row[data-row="1"]');
    expect(await page.$eval("#audio", (a) => (a as unknown as Media).currentTime)).toBeCloseTo(second.start_ms / 1000, 3);
    expect(await page.getAttribute('#transcript .row[data-row="1"]', "class")).toContain("now");

    // Play from just before the third row: the highlight advances to it and the cursor moves right.
    const third = detail.turns[2]!;
    await page.$eval("#audio", (a, t) => ((a as unknown as Media).currentTime = t), (third.start_ms - 300) / 1000);
    const before = Number(await page.getAttribute("#cursor", "x1"));
    await page.selectOption("#speed", "1.5");
    expect(await page.$eval("#audio", (a) => (a as unknown as Media).playbackRate)).toBe(1.5);
    await page.click("#play");
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.querySelector("#transcript .row.now")?.getAttribute("data-row") === "2", undefined, { timeout: 10_000 });
    expect(await page.textContent("#play")).toContain("pause");
    await page.click("#play");
    expect(await page.$eval("#audio", (a) => (a as unknown as Media).paused)).toBe(true);
    expect(Number(await page.getAttribute("#cursor", "x1"))).toBeGreaterThan(before);
    expect(await page.$eval("#audio", (a) => (a as unknown as Media).currentTime * 1000)).toBeGreaterThanOrEqual(third.start_ms);

    await page.$eval("#audio", (a) => ((a as Media).currentTime = 4.2));
    await page.waitForTimeout(100);
    await page.screenshot({ path: join(shots, "report-trial.png") });
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    await page.close();
  });

  it("renders a WALK trial: the recording's condition, and speech regions from the detector the metrics used", async () => {
    const { page, seen } = await open(audioRun.dir);
    const detail = await openTrial(page, "harbor_003_telephony#1");
    expect(detail.kind).toBe("walk");
    expect(await page.textContent(".trial-head .meta")).toContain("condition telephony");
    await audioReady(page);
    const trial = audioRun.doc.trials.find((t) => t.trial_id === "harbor_003_telephony#1")!;
    expect(trial.metrics.audio!.speech_detector).toBe("rms>=220/20ms");
    // The same rule over the left channel of the saved conversation.wav gives the regions drawn.
    const wav = readWav(readFileSync(join(audioRun.dir, trial.artifacts.conversation_wav!)));
    const stereo = new Int16Array(wav.data.buffer.slice(wav.data.byteOffset, wav.data.byteOffset + wav.data.byteLength));
    const left = stereo.filter((_, i) => i % 2 === 0);
    const expected = speechIntervals(left, wav.sampleRate).map((i) => `caller speech ${Math.round(i.start_ms)}–${Math.round(i.end_ms)} ms (${Math.round(i.end_ms) - Math.round(i.start_ms)} ms)`);
    expect(expected.length).toBeGreaterThan(0);
    expect(await page.$$eval("#timeline-svg rect.speech.caller title", (ts) => ts.map((t) => t.textContent))).toEqual(expected);
    // Tool calls and world events have their lanes, each item citable by its evidence id.
    expect(await page.$$eval("#timeline-svg g.item.tool", (gs) => gs.map((g) => g.getAttribute("data-eid")))).toEqual(detail.tools.map((t) => t.eid));
    expect(detail.tools.length).toBeGreaterThan(0);
    await page.click("#timeline-svg", { position: { x: GUTTER + 10, y: 40 } });
    expect(await page.$eval("#audio", (a) => (a as unknown as Media).currentTime)).toBeGreaterThan(0);
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it("renders a RUN trial: each caller turn with its inferred action, the yield on the timeline, both voices", async () => {
    const { page, seen } = await open(conversation.dir);
    const id = "run_interrupted_unavailable#1";
    await page.click(`table.trials tr[data-trial="${id}"] a`);
    await page.waitForSelector("#trial-view:not([hidden]) #timeline-svg");
    const detail = JSON.parse(unpackTrial(await page.$eval("#trial-0", (el) => el.textContent!))) as TrialDetail;
    expect(detail.kind).toBe("run");
    await audioReady(page);
    const trial = conversation.doc.trials[0]!;
    // Transcript rows: every caller turn shows the action the record gives it, in order.
    const labels = await page.$$eval("#transcript .row.user .action", (as) => as.map((a) => a.textContent));
    expect(labels).toEqual(detail.turns.filter((t) => t.role === "user").map((t) => t.action));
    expect(labels).toContain("INTERRUPT");
    expect(labels[0]).toBe("OPENING");
    expect(await page.$$eval("#timeline-svg path.wave", (ps) => ps.map((p) => p.getAttribute("class")))).toEqual(["wave caller", "wave assistant"]);
    // The yield lane: the one interruption, labelled with the delay the metrics recorded.
    const opportunity = (trial.metrics.audio!.yield_opportunities as Array<{ kind: string; delay_ms: number }>).find((o) => o.kind === "yield")!;
    const yieldTexts = await page.$$eval("#timeline-svg .span text, #timeline-svg .span title", (ts) => ts.map((t) => t.textContent ?? ""));
    expect(yieldTexts.some((t) => t.includes(`${opportunity.delay_ms} ms`))).toBe(true);
    // Clicking the interrupting turn seeks the audio to it.
    const row = labels.indexOf("INTERRUPT");
    const turn = detail.turns.filter((t) => t.role === "user")[row]!;
    await page.click(`#transcript .row[data-row="${detail.turns.indexOf(turn)}"]`);
    expect(await page.$eval("#audio", (a) => (a as unknown as Media).currentTime)).toBeCloseTo(turn.start_ms / 1000, 3);
    await page.screenshot({ path: join(shots, "report-run-trial.png"), fullPage: false });
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    await page.close();
  });

  it("works from a copy of the run folder: the audio is linked by relative path", async () => {
    const copy = join(mkdtempSync(join(tmpdir(), "report-copy-")), "moved-run");
    cpSync(audioRun.dir, copy, { recursive: true });
    const { page, seen } = await open(copy, `#trial=${encodeURIComponent("harbor_001#2")}`);
    await audioReady(page);
    const src = await page.$eval("#audio", (a) => (a as unknown as Media).currentSrc);
    expect(src).toBe(pathToFileURL(join(copy, "audio/harbor_001.r2/conversation.wav")).href);
    const duration = await page.$eval("#audio", (a) => (a as unknown as Media).duration);
    const wav = readWav(readFileSync(join(copy, "audio/harbor_001.r2/conversation.wav")));
    expect(duration).toBeCloseTo(wav.frames / wav.sampleRate, 2);
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    await page.close();
  });

  it("a judge citation link highlights the evidence item it points to", async () => {
    const { page, seen } = await open(judged.dir);
    expect(await page.$$eval("#summary-judge, .card-label", (els) => els.map((e) => e.textContent))).toContain("judge consumption");
    await page.click("table.trials tbody tr a");
    await page.waitForSelector('.semantic[data-verifier="semantic.task_understanding"]');
    const block = '.semantic[data-verifier="semantic.task_understanding"]';
    expect(await page.textContent(`${block} .rationale`)).toBe("The task_understanding clause holds.");
    expect(await page.$$eval(`${block} button.cite`, (bs) => bs.map((b) => b.textContent))).toEqual(["utt.assistant.1", "tool.call_1"]);
    expect(await page.$$eval(".hl", (els) => els.length)).toBe(0);

    await page.click(`${block} button.cite[data-cite="tool.call_1"]`);
    expect(await page.$$eval(".hl", (els) => els.map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")}`))).toEqual(["g.item.tool.hl", "div.card-item.hl"]);
    await page.click(`${block} button.cite[data-cite="utt.assistant.1"]`);
    const lit = await page.$$eval(".hl", (els) => els.map((e) => e.getAttribute("data-eid")));
    expect(lit).toEqual(["utt.assistant.1", "utt.assistant.1"]);
    expect(await page.$eval("#transcript .row.hl", (r) => r.getAttribute("data-eid"))).toBe("utt.assistant.1");
    await page.click(`${block} button.cite[data-cite="tool.call_1"]`);
    await page.screenshot({ path: join(shots, "report-citation.png") });
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    await page.close();
  });
});
