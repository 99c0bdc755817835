/**
 * report.html at scale: a real offline run's artifacts (CRAWL and WALK trials with audio) repeated into
 * a 2,000-trial run folder, then the report built from it, its size, and its load in chromium (overview
 * and list drawn, a search applied, one trial's viewer opened): the chromium the browser tests use
 * (test/browser.ts), so the result names which one. Absolute times vary with the machine; the size does not.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as alpha from "crashlab/alpha";
import { main } from "../src/core/cli/main";
import { buildRunReport } from "../src/core/report/run-folder";
import type { ResultsFile } from "../src/core/record/results";
import { launchBrowser } from "../test/browser";

const repo = resolve(import.meta.dirname, "..");

export interface ReportBench {
  /** Which chromium loaded it, e.g. "packaged chromium 143.0.7499.0". */
  browser: string;
  trials: number;
  build_ms: number;
  bytes: number;
  load_ms: number;
  search_ms: number;
  open_trial_ms: number;
}

/** A real run of `cases` (one repetition), then its results.json repeated to `trials` rows over the same artifacts. */
async function bigRunFolder(cases: string[], trials: number): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "crashlab-bench-report-"));
  const quiet = { stdout: () => {}, stderr: () => {}, cwd: repo, alpha: alpha as Record<string, unknown>, env: {} };
  const code = await main(["run", ...cases.flatMap((c) => ["--example", c]), "--results-dir", out, "--quiet"], quiet);
  if (code !== 0) throw new Error(`bench run failed with exit ${code}`);
  const dir = join(out, readdirSync(out)[0]!);
  const doc = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as ResultsFile;
  const base = doc.trials;
  const scale = Math.ceil(trials / base.length);
  doc.trials = Array.from({ length: trials }, (_, i) => {
    const t = base[i % base.length]!;
    const repetition = Math.floor(i / base.length) + 1;
    return { ...t, repetition, trial_id: `${t.case_id}#${repetition}` };
  });
  doc.run.repetitions = scale;
  doc.summary.trials = trials;
  for (const k of Object.keys(doc.summary.by_status) as Array<keyof typeof doc.summary.by_status>) doc.summary.by_status[k] *= scale;
  for (const c of doc.summary.cases) Object.assign(c, { trials: c.trials * scale, passes: c.passes * scale });
  writeFileSync(join(dir, "results.json"), JSON.stringify(doc));
  return dir;
}

export async function benchReport(trials = 2000): Promise<ReportBench> {
  const dir = await bigRunFolder(["harbor_001", "harbor_008", "harbor_013", "harbor_002_noisy", "harbor_007_realistic"], trials);
  const started = performance.now();
  const html = await buildRunReport(dir);
  const build_ms = performance.now() - started;
  writeFileSync(join(dir, "report.html"), html);
  const bytes = statSync(join(dir, "report.html")).size;

  const browser = await launchBrowser();
  const context = browser.context;
  try {
    const url = pathToFileURL(join(dir, "report.html")).href;
    // Load three times in fresh tabs; the median is reported (the first load also warms the file cache).
    const loads: number[] = [];
    for (let i = 0; i < 3; i++) {
      const tab = await context.newPage();
      const t0 = performance.now();
      await tab.goto(url);
      await tab.waitForSelector("table.trials tbody tr");
      loads.push(performance.now() - t0);
      await tab.close();
    }
    const load_ms = loads.sort((a, b) => a - b)[1]!;
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector("table.trials tbody tr");
    let t = performance.now();
    await page.fill('input[name="q"]', "patio");
    await page.waitForFunction(() => (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector("#trial-count")?.textContent.startsWith("showing 400 "));
    const search_ms = performance.now() - t;
    t = performance.now();
    await page.click("table.trials tbody tr a");
    await page.waitForSelector("#trial-view:not([hidden]) #timeline-svg");
    const open_trial_ms = performance.now() - t;
    return { browser: `${browser.source} chromium ${browser.version}`, trials, build_ms, bytes, load_ms, search_ms, open_trial_ms };
  } finally {
    await browser.close();
  }
}
