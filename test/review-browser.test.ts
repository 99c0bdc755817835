import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./cli-harness";
import { serveRun, type ViewServer } from "../src/core/cli/view-server";
import { reviewOpener } from "../src/core/cli/view";
import { writeRunReport } from "../src/core/report/run-folder";
import { launchBrowser, watch, type Browser } from "./browser";
import { clauseOf, startJudgeServer, verdict, type JudgeServer } from "./judge-fixtures";

/**
 * Reviewing in the viewer: `crashlab view --review` serves a run on loopback, a person reviews two trials
 * with the keyboard only, and the verdicts, notes and anchors land in reviews.jsonl and show again after a
 * reload; a request without the session's token and a cross-origin write are refused. The static
 * report.html rebuilt afterwards shows the reviews read-only. Screenshots go to test-results/.
 */
const repo = resolve(import.meta.dirname, "..");
const shots = join(repo, "test-results");


type PageGlobals = { document: { querySelector(s: string): { textContent: string | null } | null } };

let browser: Browser | undefined;
let launchError: unknown;
let dir: string;
let out: string;
const runArgs = () => ["run", "--example", "harbor_001", "--repetitions", "2", "--artifacts", "all", "--judge", "--judge-endpoint", judge.endpoint, "--require", "human.naturalness", "--results-dir", out, "--quiet"];
let judge: JudgeServer;
let server: ViewServer;

beforeAll(async () => {
  try {
    browser = await launchBrowser();
  } catch (e) {
    launchError = e;
  }
  judge = await startJudgeServer((body) => {
    const clause = clauseOf(body);
    return { status: 200, json: verdict({ verdict: "pass", severity_score: 1, rationale: `The ${clause} clause holds.`, cited_evidence_ids: ["utt.assistant.1"], ...(clause === "task_understanding" ? { task_completed: true } : {}) }) };
  });
  out = mkdtempSync(join(tmpdir(), "review-browser-"));
  // A required human gate: the run ends awaiting reviews (exit 1), and the page shows it so.
  const r = await cli(runArgs());
  expect(r.code, r.stderr).toBe(1);
  dir = join(out, readdirSync(out)[0]!);
  server = await serveRun(dir, { reviewer: "ana" });
}, 240_000);

afterAll(async () => {
  await server?.close();
  await judge?.close();
  await browser?.close();
});

function launched(): Browser {
  if (browser) return browser;
  throw launchError;
}

const reviewLines = () =>
  readFileSync(join(dir, "reviews.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** Wait until the page's recording has played to `seconds`: where the cursor is then does not depend on the machine's load. */
async function playedTo(page: Page, seconds: number): Promise<void> {
  await page.waitForFunction((s) => ((globalThis as unknown as { document: { querySelector(q: string): { currentTime: number } | null } }).document.querySelector("#audio")?.currentTime ?? 0) >= s, seconds);
}

/** Wait until the page has saved `count` verdicts (and drawn the answer), and the file holds as many lines. */
async function saved(page: Page, count: number): Promise<void> {
  await page.waitForSelector(`#review-status[data-saved="${count}"]`);
  expect(reviewLines()).toHaveLength(count);
}

describe("reviewing in the served viewer", () => {
  it("the page the browser opener is handed (a file only this user can read) leads the browser to the served trial", async () => {
    const page = await launched().context.newPage();
    const seen = watch(page);
    const opener = reviewOpener(`${server.url}#trial=${encodeURIComponent("harbor_001#2")}`);
    try {
      await page.goto(opener.url);
      await page.waitForSelector("#trial-view:not([hidden]) #review");
      expect(page.url()).toBe(`${server.url}#trial=harbor_001%232`);
      expect(await page.textContent("#trial-view h1")).toMatch(/^harbor_001#2/);
      expect(seen.errors).toEqual([]);
    } finally {
      opener.remove();
      await page.close();
    }
  });

  it("reviews two trials with the keyboard only; the verdicts, notes and anchors persist in reviews.jsonl and show after a reload", async () => {
    const page = await launched().context.newPage();
    const seen = watch(page);
    await page.goto(server.url);
    await page.waitForSelector("#review-banner");
    // The human gate awaits reviews: shown as not assessed, never as failed.
    expect(await page.getAttribute('tr[data-gate="human.naturalness"]', "data-state")).toBe("not_assessed");
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, "review-overview-before.png"), fullPage: false });

    // Trial 1: j opens the queue's first trial.
    await page.keyboard.press("j");
    await page.waitForSelector("#trial-view:not([hidden]) #review tr.dim.focused");
    const first = await page.$eval("#trial-view h1", (h) => h.textContent!.split(" ")[0]!);
    const rows = await page.$$eval("#review-rows tr.dim", (trs) => trs.map((tr) => tr.getAttribute("data-verifier")));
    expect(rows.slice(0, 4)).toEqual(["human.naturalness", "human.prosody", "human.pronunciation", "human.pacing"]);
    expect(rows).toContain("semantic.task_understanding");
    await page.keyboard.press("p"); // naturalness passed
    await saved(page, 1);
    // A note anchored to a time range: [ at the start, play a little, pause, ] at the end, then f (prosody).
    await page.keyboard.press("n");
    await page.keyboard.type("robotic pause before the time");
    await page.keyboard.press("Escape");
    await page.keyboard.press("[");
    await page.keyboard.press(" ");
    // Until the recording has played 0.7 s, however long that takes on a busy machine (not a fixed wait).
    await playedTo(page, 0.7);
    await page.keyboard.press(" ");
    await page.keyboard.press("]");
    expect(await page.textContent("#review-anchor")).toMatch(/^0\.00–\d+\.\d\d s$/);
    await page.keyboard.press("f");
    await saved(page, 2);
    // The judge's clause: 5 is the first semantic row; people disagree with the judge's pass.
    await page.keyboard.press(String(rows.indexOf("semantic.task_understanding") + 1));
    await page.keyboard.press("f");
    await saved(page, 3);
    await page.screenshot({ path: join(shots, "review-trial.png"), fullPage: false });

    // Trial 2: j moves on; ↓ twice to pronunciation, unsure; an utterance anchor after a moment of playback.
    await page.keyboard.press("j");
    await page.waitForFunction((id) => (globalThis as unknown as PageGlobals).document.querySelector("#trial-view h1")?.textContent?.startsWith(id) === false, first);
    const second = await page.$eval("#trial-view h1", (h) => h.textContent!.split(" ")[0]!);
    await page.keyboard.press("p"); // naturalness passed
    await saved(page, 4);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowDown"); // pronunciation (focus moved to prosody after the save)
    await page.keyboard.press(" ");
    await playedTo(page, 1.5);
    await page.keyboard.press(" ");
    await page.keyboard.press("a");
    await page.keyboard.press("n");
    await page.keyboard.type("says 'harbour' oddly");
    await page.keyboard.press("Escape");
    await page.keyboard.press("u");
    await saved(page, 5);

    const lines = reviewLines();
    expect(lines.map((l) => [l.trial_id, l.verifier, l.verdict, l.reviewer])).toEqual([
      [first, "human.naturalness", "passed", "ana"],
      [first, "human.prosody", "failed", "ana"],
      [first, "semantic.task_understanding", "failed", "ana"],
      [second, "human.naturalness", "passed", "ana"],
      [second, "human.pronunciation", "unsure", "ana"],
    ]);
    expect(lines[1]).toMatchObject({ note: "robotic pause before the time", anchor: { start_ms: 0 } });
    expect((lines[1]!.anchor as { end_ms: number }).end_ms).toBeGreaterThan(0);
    expect(lines[0]).toMatchObject({ note: "" });
    expect(lines[0]!.anchor).toBeUndefined();
    expect(lines[4]).toMatchObject({ note: "says 'harbour' oddly", anchor: { utterance_id: expect.stringMatching(/^utt\./) } });
    for (const l of lines) expect(Date.parse(String(l.at))).toBeGreaterThan(0);

    // A reload shows them: the verdicts pressed, the note, the gate decided again, the calibration.
    await page.goto(`${server.url}#trial=${encodeURIComponent(first)}`);
    await page.reload();
    await page.waitForSelector('#review-rows tr[data-verifier="human.prosody"][data-mine="failed"]');
    expect(await page.getAttribute('#review-rows tr[data-verifier="human.naturalness"]', "data-mine")).toBe("passed");
    expect(await page.textContent('#review-rows tr[data-verifier="human.prosody"]')).toContain("robotic pause before the time");
    expect(await page.getAttribute('#review-rows tr[data-verifier="human.naturalness"] button[data-verdict="passed"]', "aria-pressed")).toBe("true");
    await page.screenshot({ path: join(shots, "review-trial-reloaded.png"), fullPage: false });
    await page.goto(server.url);
    await page.waitForSelector('tr[data-gate="human.naturalness"][data-state="passed"]');
    expect(await page.textContent('tr[data-gate="human.naturalness"]')).toContain("2 of 2 trial(s) reviewed");
    // The run ended awaiting reviews (results.json keeps that); decided again with them, it passes.
    expect(await page.getAttribute("#decision", "data-state")).toBe("fail");
    expect(await page.getAttribute("#decision-again", "data-state")).toBe("pass");
    expect(await page.textContent('table.calibration tr[data-clause="semantic.task_understanding"]')).toMatch(/semantic\.task_understanding\s*1\s*0%/);
    expect(await page.$$eval("table.trials tbody tr .reviewed", (b) => b.length)).toBe(2);
    await page.screenshot({ path: join(shots, "review-overview.png"), fullPage: true });
    expect(seen.errors).toEqual([]);
    await page.close();
  });

  it("refuses a request without the session's token (403), a cross-origin write, and a write that is not JSON", async () => {
    const before = readFileSync(join(dir, "reviews.jsonl"), "utf8");
    expect((await fetch(`${server.origin}/`)).status).toBe(403);
    expect((await fetch(`${server.origin}/wrong-token/reviews`)).status).toBe(403);
    expect((await fetch(`${server.origin}/${server.token.slice(1)}/`)).status).toBe(403);
    const review = JSON.stringify({ trial_id: "harbor_001#1", verifier: "human.pacing", verdict: "failed", note: "" });
    const noToken = await fetch(`${server.origin}/reviews`, { method: "POST", headers: { "Content-Type": "application/json" }, body: review });
    expect(noToken.status).toBe(403);
    const cross = await fetch(`${server.url}reviews`, { method: "POST", headers: { "Content-Type": "application/json", Origin: "http://evil.example" }, body: review });
    expect(cross.status).toBe(403);
    const form = await fetch(`${server.url}reviews`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: review });
    expect(form.status).toBe(415);
    const bad = await fetch(`${server.url}reviews`, { method: "POST", headers: { "Content-Type": "application/json", Origin: server.origin }, body: JSON.stringify({ trial_id: "nope#1", verifier: "human.pacing", verdict: "failed" }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('trial_id "nope#1" is not a trial of this run');
    expect(readFileSync(join(dir, "reviews.jsonl"), "utf8")).toBe(before);

    // A page of another origin (a file here) cannot write either: its fetch carries its own Origin.
    const page = await launched().context.newPage();
    await page.goto(pathToFileURL(join(dir, "report.html")).href);
    const status = await page.evaluate(
      async ([url, body]) => {
        try {
          const res = await fetch(url!, { method: "POST", headers: { "Content-Type": "application/json" }, body: body! });
          return res.status;
        } catch (e) {
          return String(e);
        }
      },
      [`${server.url}reviews`, review],
    );
    expect(status === 403 || typeof status === "string").toBe(true);
    expect(readFileSync(join(dir, "reviews.jsonl"), "utf8")).toBe(before);
    await page.close();
    // And the right request still works: the page's own origin.
    const ok = await fetch(`${server.url}reviews`, { method: "POST", headers: { "Content-Type": "application/json", Origin: server.origin }, body: review });
    expect(ok.status).toBe(200);
    expect(reviewLines().at(-1)).toMatchObject({ trial_id: "harbor_001#1", verifier: "human.pacing", verdict: "failed", reviewer: "ana" });
  });

  it("report.html rebuilt from the run folder shows the reviews read-only, with the way to review", async () => {
    await writeRunReport(dir);
    const page = await launched().context.newPage();
    const seen = watch(page);
    await page.goto(`${pathToFileURL(join(dir, "report.html")).href}#trial=${encodeURIComponent("harbor_001#1")}`);
    await page.waitForSelector("#review .hint");
    expect(await page.textContent("#review .hint")).toContain("crashlab view --review <run-dir>");
    expect(await page.$$("#review button[data-verdict]")).toHaveLength(0);
    expect(await page.textContent('#review-rows tr[data-verifier="human.prosody"]')).toContain("robotic pause before the time");
    await page.screenshot({ path: join(shots, "review-static.png"), fullPage: false });
    expect(seen.errors).toEqual([]);
    expect(seen.requests).toEqual([]);
    await page.close();
  });

  it("shows an error in the page when a verdict cannot be saved, and writes nothing", async () => {
    const file = join(dir, "reviews.jsonl");
    const good = readFileSync(file, "utf8");
    appendFileSync(file, "not json\n");
    const page = await launched().context.newPage();
    try {
      await page.goto(`${server.url}#trial=${encodeURIComponent("harbor_001#2")}`);
      await page.waitForSelector("#review-load-error");
      expect(await page.textContent("#review-load-error")).toMatch(/The reviews could not be loaded: .*line \d+: not a JSON review/);
      await page.waitForSelector("#review-rows tr.dim.focused");
      await page.keyboard.press("p");
      await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.querySelector("#review-status")?.textContent?.startsWith("not saved") === true);
      expect(await page.textContent("#review-status")).toMatch(/not saved: .*reviews\.jsonl, line \d+: not a JSON review/);
      await page.screenshot({ path: join(shots, "review-error.png"), fullPage: false });
      expect(readFileSync(file, "utf8")).toBe(`${good}not json\n`);
    } finally {
      writeFileSync(file, good);
      await page.close();
    }
  });

  it("shows reviews carried over from an earlier run of the same trials, marked with the run they came from", async () => {
    const first = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as { run: { run_id: string } };
    expect((await cli(runArgs())).code).toBe(1);
    const later = readdirSync(out).map((d) => join(out, d)).find((d) => d !== dir)!;
    const again = await serveRun(later, { reviewer: "bo" });
    try {
      const page = await launched().context.newPage();
      await page.goto(`${again.url}#trial=${encodeURIComponent("harbor_001#1")}`);
      await page.waitForSelector('#review-rows tr[data-verifier="human.prosody"] .review-line[data-carried="1"]');
      expect(await page.textContent('#review-rows tr[data-verifier="human.prosody"] .others')).toContain(`ana carried from ${first.run.run_id}`);
      // Counted for the human gate (as `crashlab gates --carry`), marked as such.
      await page.goto(again.url);
      await page.waitForSelector('tr[data-gate="human.naturalness"][data-state="passed"]');
      expect(await page.textContent("#reviews-summary")).toContain("carried over from earlier runs");
      await page.screenshot({ path: join(shots, "review-carried.png"), fullPage: false });
      await page.close();
    } finally {
      await again.close();
    }
  });
});
