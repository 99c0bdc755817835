import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { MAIN_HELP, runHelp } from "../src/core/cli/help";
import { main } from "../src/core/cli/main";
import { runOptions } from "../src/core/cli/options";
import { VIEW_HELP } from "../src/core/cli/view";

/**
 * `crashlab view <run-dir> [--trial ID]` and `run --visualize`: the report is handed to the platform's
 * opener (a stand-in xdg-open on PATH records what it was given), and without an opener the file:// URL is
 * printed — never a silent nothing.
 */
const repo = resolve(import.meta.dirname, "..");

async function cli(argv: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env });
  return { code, stdout, stderr };
}

/** A folder holding an `xdg-open` that writes its arguments to `log`. */
function fakeOpener(): { path: string; log: string } {
  const bin = mkdtempSync(join(tmpdir(), "opener-"));
  const log = join(bin, "opened.txt");
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$@" >> "${log}"\n`);
  chmodSync(join(bin, "xdg-open"), 0o755);
  return { path: bin, log };
}

/** The opener runs detached: wait for what it wrote (the shell creates the file before printf fills it). */
async function opened(log: string): Promise<string[]> {
  for (let i = 0; i < 250 && !(existsSync(log) && readFileSync(log, "utf8").endsWith("\n")); i++) await new Promise((r) => setTimeout(r, 20));
  return readFileSync(log, "utf8").trim().split("\n");
}

let runDir: string;
beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), "view-"));
  expect((await cli(["run", "--target", "text_restaurant", "--example", "harbor_001", "--repetitions", "2", "--results-dir", out, "--quiet"])).code).toBe(0);
  runDir = join(out, readdirSync(out)[0]!);
});

describe("crashlab view", () => {
  it("opens report.html at a trial with the platform opener", async () => {
    if (process.platform !== "linux") return;
    const opener = fakeOpener();
    const r = await cli(["view", runDir, "--trial", "harbor_001#2"], { PATH: opener.path });
    expect(r.code).toBe(0);
    const url = `${pathToFileURL(join(runDir, "report.html")).href}#trial=harbor_001%232`;
    expect(await opened(opener.log)).toEqual([url]);
    expect(r.stderr).toBe(`crashlab: opened ${url} with xdg-open\n`);
  });

  it("prints the file:// URL when no opener exists, and with --print", async () => {
    const none = await cli(["view", runDir], { PATH: mkdtempSync(join(tmpdir(), "empty-path-")) });
    const url = pathToFileURL(join(runDir, "report.html")).href;
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^crashlab: could not open a browser \(no opener found \(looked for xdg-open on PATH\)\); open this URL yourself:\n/);
    expect(none.stdout.trim().split("\n").at(-1)).toBe(url);
    const print = await cli(["view", runDir, "--print", "--trial", "harbor_001#1"]);
    expect(print).toMatchObject({ code: 0, stdout: `${url}#trial=harbor_001%231\n` });
  });

  it("refuses an unknown trial or a folder that is not a run, naming the fix (exit 2)", async () => {
    const bad = await cli(["view", runDir, "--trial", "harbor_009#1", "--print"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('has no trial "harbor_009#1"; its trials are harbor_001#1, harbor_001#2');
    const notRun = await cli(["view", repo, "--print"]);
    expect(notRun.code).toBe(2);
    expect(notRun.stderr).toContain("holds no results.json: pass the folder of one run (results/<run-id>)");
    expect((await cli(["view"])).code).toBe(2);
  });

  it("rebuilds a missing report.html from the run's artifacts", async () => {
    const copy = mkdtempSync(join(tmpdir(), "view-rebuild-"));
    const before = readFileSync(join(runDir, "report.html"), "utf8");
    cpSync(runDir, copy, { recursive: true });
    rmSync(join(copy, "report.html"));
    const r = await cli(["view", copy, "--print"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("has no report.html; building it from the run's artifacts");
    expect(readFileSync(join(copy, "report.html"), "utf8")).toBe(before);
  });

  it("run --visualize opens the report when the run ends", async () => {
    if (process.platform !== "linux") return;
    const opener = fakeOpener();
    const out = mkdtempSync(join(tmpdir(), "visualize-"));
    const r = await cli(["run", "--target", "text_restaurant", "--example", "harbor_002", "--results-dir", out, "--quiet", "--visualize"], { PATH: opener.path });
    expect(r.code).toBe(0);
    const dir = join(out, readdirSync(out)[0]!);
    expect(await opened(opener.log)).toEqual([pathToFileURL(join(dir, "report.html")).href]);
  });

  it("view --review serves the run on loopback under a token, prints the URL, and stops at the signal", async () => {
    const stop = new AbortController();
    let stdout = "";
    let stderr = "";
    const done = main(["view", runDir, "--review", "--reviewer", "bo", "--review-sample", "1", "--print"], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {}, signal: stop.signal });
    for (let i = 0; i < 500 && !stdout.includes("\n"); i++) await new Promise((r) => setTimeout(r, 20));
    const url = stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/$/);
    expect(stderr).toContain("for review by bo on 127.0.0.1 only");
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('"review_mode":{"reviewer":"bo","queue":["harbor_001#');
    expect(html).toContain("connect-src 'self'");
    expect((await fetch(new URL("/", url))).status).toBe(403);
    expect((await fetch(`${url}reviews`)).status).toBe(200);
    // Only the run's own artifacts are served.
    expect((await fetch(`${url}results.json`)).status).toBe(404);
    expect((await fetch(`${url}audio/harbor_001.r1/conversation.wav`)).status).toBe(404);
    stop.abort("SIGINT");
    expect(await done).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("builds report.html again when reviews.jsonl changed after it, so the file shows the reviews", async () => {
    const copy = mkdtempSync(join(tmpdir(), "view-reviews-"));
    cpSync(runDir, copy, { recursive: true });
    expect((await cli(["review", copy, "--trial", "harbor_001#2", "--verifier", "human.pacing", "--verdict", "failed", "--reviewer", "cy", "--note", "rushed the date"])).code).toBe(0);
    const r = await cli(["view", copy, "--print"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("reviews.jsonl changed after report.html was written; building the report again");
    expect(readFileSync(join(copy, "report.html"), "utf8")).toContain("rushed the date");
    expect((await cli(["view", copy, "--print"])).stderr).toBe("");
  });

  it("--reviewer, --review-sample and --seed go with --review (exit 2)", async () => {
    for (const flag of [["--reviewer", "bo"], ["--review-sample", "3"], ["--seed", "2"]]) {
      const r = await cli(["view", runDir, ...flag, "--print"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${flag[0]} goes with --review`);
    }
    expect((await cli(["view", runDir, "--review", "--review-sample", "-1", "--print"])).code).toBe(2);
  });

  it("the help texts name the command and every run option", async () => {
    expect(MAIN_HELP).toContain("crashlab view <run-dir> [--trial ID]");
    for (const flag of Object.keys(runOptions())) expect(runHelp(), flag).toContain(`--${flag}`);
    const help = await cli(["view", "--help"]);
    expect(help).toMatchObject({ code: 0, stdout: `${VIEW_HELP}\n` });
  });
});
