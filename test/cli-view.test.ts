import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
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

/** A tool's path on this machine's PATH (the stand-in opener runs with a PATH of its own folder only). */
const onPath = (name: string) => process.env.PATH!.split(":").map((d) => join(d, name)).find((f) => existsSync(f))!;

/**
 * A folder holding an `xdg-open` that writes its arguments to `log`, and its whole command line as the
 * system shows it to every user (`/proc/<pid>/cmdline`, NUL-separated) to `cmdline`, then renames its log
 * into place, so it appears whole.
 */
function fakeOpener(): { path: string; log: string; cmdline: string } {
  const bin = mkdtempSync(join(tmpdir(), "opener-"));
  const log = join(bin, "opened.txt");
  const cmdline = join(bin, "cmdline");
  writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\n${onPath("cat")} /proc/$$/cmdline > "${cmdline}"\nprintf '%s\\n' "$@" > "${log}.part" && ${onPath("mv")} "${log}.part" "${log}"\n`);
  chmodSync(join(bin, "xdg-open"), 0o755);
  return { path: bin, log, cmdline };
}

/**
 * The opener runs detached: wait until its log is in place. No bound on the tries: the log appears at any
 * load, and vitest's test timeout ends a wait that something else broke.
 */
async function opened(log: string): Promise<string[]> {
  while (!existsSync(log)) await new Promise((r) => setTimeout(r, 20));
  return readFileSync(log, "utf8").trim().split("\n");
}

/** `main` for a command that runs until its signal (`view --review`), with a promise for its first stdout line. */
function started(argv: string[], env: Record<string, string> = {}) {
  const stop = new AbortController();
  const out = { stdout: "", stderr: "" };
  let line: (text: string) => void = () => {};
  const firstLine = new Promise<string>((resolve) => (line = resolve));
  const done = main(argv, {
    stdout: (t) => {
      out.stdout += t;
      if (out.stdout.includes("\n")) line(out.stdout);
    },
    stderr: (t) => (out.stderr += t),
    cwd: repo,
    alpha: alpha as Record<string, unknown>,
    env,
    signal: stop.signal,
  });
  return { out, firstLine, done, stop: () => stop.abort("SIGINT") };
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
    const server = started(["view", runDir, "--review", "--reviewer", "bo", "--review-sample", "1", "--print"]);
    const url = (await server.firstLine).trim();
    const { stderr } = server.out;
    const done = server.done;
    const stop = { abort: server.stop };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/$/);
    expect(stderr).toContain("for review by bo on 127.0.0.1 only");
    // --print prints the URL alone, on stdout; stderr never holds the token.
    expect(stderr).not.toContain(url.split("/")[3]);
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
    stop.abort();
    expect(await done).toBe(0);
    await expect(fetch(url)).rejects.toThrow();
  });

  it("view --review hands the browser opener no token: its command line names a page only this user can read, which leads to the server", async () => {
    if (process.platform !== "linux") return;
    const opener = fakeOpener();
    const server = started(["view", runDir, "--review", "--reviewer", "bo", "--trial", "harbor_001#2"], { PATH: opener.path });
    const [arg] = await opened(opener.log);
    // What every user of the machine can read: the opener's whole command line.
    const cmdline = readFileSync(opener.cmdline, "utf8").split("\0");
    expect(cmdline).toContain(arg);
    expect(arg).toMatch(/^file:\/\/\/.*\/crashlab-review-[^/]+\/open\.html$/);
    const page = fileURLToPath(arg!);
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(page)).mode & 0o777).toBe(0o700);
    // The page (what the browser reads) leads to the session's URL, at the trial asked for.
    const target = /location\.replace\("([^"]+)"\)/.exec(readFileSync(page, "utf8"))![1]!;
    expect(target).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{32}\/#trial=harbor_001%232$/);
    const token = new URL(target).pathname.split("/")[1]!;
    expect(cmdline.join(" ")).not.toContain(token);
    expect((await fetch(target)).status).toBe(200);
    // Nothing printed holds the token (it would land in terminal logs, CI output, a shared screen).
    expect(server.out.stdout).toBe("");
    expect(server.out.stderr).toContain("opened the review page with xdg-open");
    expect(server.out.stderr).not.toContain(token);
    server.stop();
    expect(await server.done).toBe(0);
    // The page goes with the server.
    expect(existsSync(dirname(page))).toBe(false);
  });

  it("view --review without an opener prints the page's path, not the token", async () => {
    const server = started(["view", runDir, "--review", "--reviewer", "bo"], { PATH: mkdtempSync(join(tmpdir(), "empty-path-")) });
    const printed = await server.firstLine;
    expect(printed).toMatch(/^crashlab: could not open a browser \(no opener found \(looked for xdg-open on PATH\)\); open this file in your browser, it leads to the review page/);
    const page = fileURLToPath(printed.trim().split("\n").at(-1)!);
    const target = /location\.replace\("([^"]+)"\)/.exec(readFileSync(page, "utf8"))![1]!;
    expect(printed + server.out.stderr).not.toContain(new URL(target).pathname.split("/")[1]!);
    server.stop();
    expect(await server.done).toBe(0);
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
    const negative = await cli(["view", runDir, "--review", "--review-sample", "-1", "--print"]);
    expect(negative).toMatchObject({ code: 2, stderr: 'crashlab: --review-sample takes a whole number from 0 to 1000000 (got "-1") (see `crashlab --help`)\n' });
    // The one flag parser: a flag given twice is refused, not "last one wins".
    for (const flag of [["--seed", "1", "--seed", "2"], ["--reviewer", "a", "--reviewer", "b"], ["--trial", "harbor_001#1", "--trial", "harbor_001#2"]]) {
      const twice = await cli(["view", runDir, "--review", ...flag, "--print"]);
      expect(twice.code, flag.join(" ")).toBe(2);
      expect(twice.stderr).toContain(`${flag[0]} was given 2 times`);
    }
  });

  it("the help texts name the command and every run option", async () => {
    expect(MAIN_HELP).toContain("crashlab view <run-dir> [--trial ID]");
    for (const flag of Object.keys(runOptions())) expect(runHelp(), flag).toContain(`--${flag}`);
    const help = await cli(["view", "--help"]);
    expect(help).toMatchObject({ code: 0, stdout: `${VIEW_HELP}\n` });
  });
});
