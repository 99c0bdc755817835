/** `crashlab view`: open a run's report.html in the browser, or serve it for people to review. */

import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { readResults, writeRunReport } from "../report/run-folder";
import { escapeHtml } from "../report/html";
import { openInBrowser } from "./open-browser";
import { parseFlags, UsageError, wholeNumber } from "./flags";
import { serveRun } from "./view-server";
import { REVIEWS_FILE } from "../review/reviews";
import { loadRunReviews } from "../review/run-reviews";
import { statRunFile } from "../run-folder/files";
import { shown } from "../run-folder/text";

/** What `view` needs of the CLI's IO (main's CliIO satisfies it; importing main here would be a circle). */
export interface ViewIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Ends `view --review`'s server (the CLI aborts it on SIGINT, SIGTERM or SIGHUP). */
  signal?: AbortSignal;
}

export const VIEW_HELP = `crashlab view — open a run's report.html (the overview, or one trial's conversation viewer), or
serve it on loopback to review the trials

Usage: crashlab view <run-dir> [--trial <id>] [--print]
       crashlab view --review <run-dir> [--reviewer NAME] [--review-sample N] [--seed S] [--trial <id>] [--print]

  <run-dir>            one run's folder, e.g. results/20261130-120000-ab12 (holds results.json)
  --trial <id>         open this trial's conversation viewer, e.g. harbor_001#2
  --print              print the URL only, do not start a browser
  --review             serve the report on 127.0.0.1 so you can record reviews from the page (each verdict
                       is appended to the run's reviews.jsonl); the trial list follows the review queue
                       (\`crashlab review-queue\`); serves until Ctrl-C
  --reviewer <name>    who is reviewing (default: your user name, ${"`"}whoami${"`"})
  --review-sample <n>  passing trials the review queue samples, 0–1,000,000 (default 10)
  --seed <n>           the sample's seed (default 1)
  -h, --help           this help

Without --review the report opens as a file, with xdg-open (Linux) or open (macOS); without an opener, or
with --print, the file:// URL is printed to paste into a browser. It shows the run's reviews read-only.
A run folder without report.html, or whose reviews.jsonl changed after it, gets one built from its artifacts.

With --review the URL is http://127.0.0.1:<port>/<token>/: a random port, and a random token made for this
session that every request must carry (others get 403; a write must also come from the page itself). The
browser is handed a page in a private folder that leads to that URL, so the token is on no command line
another user could read; it is printed only with --print.
Keys on a trial: j/k next/previous trial, ↑/↓ or 1–9 choose a dimension, p/f/u passed/failed/unsure, n a
note, a anchor it to the utterance at the cursor, [ and ] to a time range, space play/pause (docs/review.md).`;

/** The file:// URL of a run's report, optionally at one trial. */
export function reportUrl(runDir: string, trial?: string): string {
  const url = pathToFileURL(join(runDir, "report.html"));
  if (trial) url.hash = new URLSearchParams({ trial }).toString();
  return url.href;
}

/** Open a report in the user's browser; when that cannot happen, say so and print the URL (exit 0 either way). */
export async function openReport(url: string, io: ViewIO, print = false): Promise<void> {
  if (print) {
    io.stdout(`${url}\n`);
    return;
  }
  const result = await openInBrowser(url, io.env ?? {});
  if (result.opened) io.stderr(`crashlab: opened ${url} with ${result.with}\n`);
  else io.stdout(`crashlab: could not open a browser (${result.reason}); open this URL yourself:\n${url}\n`);
}

export async function viewCommand(argv: string[], io: ViewIO): Promise<number> {
  // The one flag parser every command uses: a repeated flag is refused, a negative number reaches the range check.
  const parsed = parseFlags(
    argv,
    {
      trial: { type: "string" },
      print: { type: "boolean" },
      review: { type: "boolean" },
      reviewer: { type: "string" },
      "review-sample": { type: "string" },
      seed: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
    Infinity,
  );
  if (parsed.values.help) {
    io.stdout(VIEW_HELP + "\n");
    return 0;
  }
  if (parsed.positionals.length !== 1) throw new UsageError("usage: crashlab view <run-dir> [--trial <id>] [--review]");
  const review = parsed.values.review ?? false;
  for (const flag of ["reviewer", "review-sample", "seed"] as const)
    if (!review && parsed.values[flag] !== undefined) throw new UsageError(`--${flag} goes with --review: crashlab view --review <run-dir> --${flag} …`);
  const sample = parsed.values["review-sample"] === undefined ? undefined : wholeNumber("--review-sample", parsed.values["review-sample"], { min: 0, max: 1_000_000 });
  const seed = parsed.values.seed === undefined ? undefined : wholeNumber("--seed", parsed.values.seed, { min: 0, max: Number.MAX_SAFE_INTEGER });
  const runDir = resolve(io.cwd, parsed.positionals[0]!);
  if (!existsSync(runDir) || !statSync(runDir).isDirectory()) throw new UsageError(`${runDir} is not a folder: pass one run's folder, e.g. results/<run-id>`);
  const results = readResults(runDir);
  const trial = parsed.values.trial;
  if (trial !== undefined && !results.trials.some((t) => t.trial_id === trial)) {
    const ids = results.trials.map((t) => t.trial_id);
    throw new UsageError(`run ${shown(results.run.run_id)} has no trial "${shown(trial)}"; its trials are ${shown(ids.slice(0, 6).join(", "), 300)}${ids.length > 6 ? ", …" : ""} (a trial id is <case>#<repetition>)`);
  }
  checkReviews(runDir);
  if (review) return serveForReview(runDir, io, { reviewer: reviewerName(parsed.values.reviewer, io.env ?? {}), sample, seed, trial, print: parsed.values.print ?? false });
  // A folder there would be "opened" as a listing and could never be rebuilt in place; a link would open a file elsewhere.
  const report = statRunFile(runDir, "report.html");
  const reviews = statRunFile(runDir, REVIEWS_FILE);
  if (!report) {
    io.stderr(`crashlab: ${runDir} has no report.html; building it from the run's artifacts\n`);
    await writeRunReport(runDir);
  } else if (reviews && reviews.stats.mtimeMs > report.stats.mtimeMs) {
    // report.html shows the reviews as they were when it was written.
    io.stderr(`crashlab: ${REVIEWS_FILE} changed after report.html was written; building the report again to show the reviews\n`);
    await writeRunReport(runDir);
  }
  await openReport(reportUrl(runDir, trial), io, parsed.values.print ?? false);
  return 0;
}

/**
 * reviews.jsonl, every line of it, checked before anything is built, opened or served: a reviews file the
 * page could not show is said now (exit 2), not left as a note inside the page. (results.json and every
 * artifact it names were checked as it was read.)
 */
function checkReviews(runDir: string): void {
  if (statRunFile(runDir, REVIEWS_FILE)) loadRunReviews(runDir);
}

/** The reviewer's name: --reviewer, else the OS user name. */
function reviewerName(flag: string | undefined, env: Record<string, string | undefined>): string {
  if (flag !== undefined) {
    if (flag.trim() === "") throw new UsageError("--reviewer needs a name (a reviewer is compared exactly)");
    return flag;
  }
  let name = "";
  try {
    name = userInfo().username;
  } catch {
    name = env.USER ?? env.USERNAME ?? "";
  }
  if (!name.trim()) throw new UsageError("who is reviewing? your user name could not be read: give --reviewer NAME");
  return name;
}

/**
 * A page that leads the browser to the review URL, written 0600 in a fresh 0700 folder of the temporary
 * folder: the browser opener is handed this file's path, so the URL and its token are on no command line
 * (`/proc/<pid>/cmdline` is readable by every user of the machine), and only this user can read the file.
 * docs/review.md says why this rather than a one-time URL exchanged for a cookie.
 */
export function reviewOpener(url: string): { file: string; url: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "crashlab-review-"));
  const file = join(dir, "open.html");
  const href = escapeHtml(url);
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${href}"><title>crashlab review</title></head><body><p><a href="${href}">Open the review page</a></p><script>location.replace(${JSON.stringify(url).replace(/</g, "\\u003c")})</script></body></html>\n`;
  writeFileSync(file, page, { mode: 0o600, flag: "wx" });
  return { file, url: pathToFileURL(file).href, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `view --review`: serve the report for review until the CLI's signal (Ctrl-C). */
async function serveForReview(runDir: string, io: ViewIO, o: { reviewer: string; sample: number | undefined; seed: number | undefined; trial: string | undefined; print: boolean }): Promise<number> {
  const server = await serveRun(runDir, { reviewer: o.reviewer, ...(o.sample !== undefined ? { sample: o.sample } : {}), ...(o.seed !== undefined ? { seed: o.seed } : {}) });
  for (const s of server.skipped) io.stderr(`crashlab: not carrying reviews from ${s.dir}: ${shown(s.reason, 400)}\n`);
  const url = o.trial ? `${server.url}#${new URLSearchParams({ trial: o.trial }).toString()}` : server.url;
  io.stderr(`crashlab: serving ${runDir} for review by ${shown(o.reviewer)} on 127.0.0.1 only; reviews go to its reviews.jsonl. Press Ctrl-C to stop.\n`);
  let opener: ReturnType<typeof reviewOpener> | null = null;
  try {
    if (o.print) io.stdout(`${url}\n`);
    else {
      opener = reviewOpener(url);
      const result = await openInBrowser(opener.url, io.env ?? {});
      if (result.opened) io.stderr(`crashlab: opened the review page with ${result.with} (through ${opener.file}, readable only by you; --print prints its address)\n`);
      else io.stdout(`crashlab: could not open a browser (${result.reason}); open this file in your browser, it leads to the review page (readable only by you; --print prints the page's address):\n${opener.url}\n`);
    }
    if (io.signal) {
      await new Promise<void>((resolve) => {
        if (io.signal!.aborted) resolve();
        else io.signal!.addEventListener("abort", () => resolve(), { once: true });
      });
    }
  } finally {
    await server.close();
    opener?.remove();
  }
  if (io.signal) io.stderr("crashlab: review server stopped\n");
  return 0;
}
