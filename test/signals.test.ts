import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readWav } from "../src/core/audio/wav";
import { ResultsFile } from "../src/core/record/results";

/**
 * Signals end to end: the real bin in a child process, stopped by real signals. An
 * interrupted run keeps and writes what finished, says `interrupted`, exits 128 + the signal number, and
 * leaves no temporary file behind. The child runs src/cli.ts through tsx, so no build is needed.
 */
const repo = resolve(import.meta.dirname, "..");

interface Child {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Start `crashlab run …`; `plan(progressLines, kill, stderr)` decides when to send which signal. */
function runUntil(args: string[], plan: (progress: number, kill: (signal: NodeJS.Signals) => void, stderr: string) => void): Promise<Child> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "run", ...args], { cwd: repo, env: { ...process.env, OPENAI_API_KEY: "" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      plan((stderr.match(/^\[\s*\d+\/\d+\]/gm) ?? []).length, (signal) => child.kill(signal), stderr);
    });
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

/** The run folder's results, checked for completeness: every finished trial's artifacts exist and parse. */
function checkOutputs(out: string) {
  const [runId] = readdirSync(out);
  const dir = join(out, runId!);
  const doc = ResultsFile.parse(JSON.parse(readFileSync(join(dir, "results.json"), "utf8")));
  for (const t of doc.trials)
    for (const rel of Object.values(t.artifacts)) {
      const path = join(dir, rel);
      expect(existsSync(path), rel).toBe(true);
      if (rel.endsWith(".wav")) expect(readWav(readFileSync(path)).sampleRate).toBe(24_000);
      if (rel.endsWith(".json")) expect(() => JSON.parse(readFileSync(path, "utf8"))).not.toThrow();
    }
  const junit = readFileSync(join(dir, "junit.xml"), "utf8");
  const leftovers = [...allFiles(dir), ...(existsSync(join(repo, ".audio_cache")) ? allFiles(join(repo, ".audio_cache")) : [])].filter((f) => /\.tmp(-|$)|\.tmp$/.test(f));
  return { doc, junit, leftovers, report: readFileSync(join(dir, "report.html"), "utf8") };
}

describe("signals stop a run without losing it or passing it", () => {
  it("SIGINT in virtual time: finished trials kept, decision interrupted, exit 130", async () => {
    const out = mkdtempSync(join(tmpdir(), "sig-int-"));
    let sent = false;
    const child = await runUntil(["--tag", "crawl", "--repetitions", "5", "--concurrency", "1", "--results-dir", out], (progress, kill) => {
      if (progress >= 2 && !sent) {
        sent = true;
        kill("SIGINT");
      }
    });
    expect(child.code).toBe(130);
    const { doc, junit, leftovers, report } = checkOutputs(out);
    expect(doc.run.interrupted).toBe(true);
    expect(doc.run.interrupted_by).toBe("SIGINT");
    expect(doc.gates).toMatchObject({ ok: false, decision: "interrupted", exit_code: 130 });
    expect(doc.trials.length).toBeGreaterThanOrEqual(2);
    expect(doc.trials.length + doc.run.not_run.length).toBe(140);
    expect(doc.run.not_run.every((t) => t.reason === "not started")).toBe(true);
    expect(junit).toMatch(new RegExp(`skipped="${doc.run.not_run.length}"`));
    expect(junit).toContain("the run was interrupted by SIGINT");
    expect(child.stdout).toMatch(/INTERRUPTED by SIGINT: \d+ trial\(s\) of \d+ case\(s\) not run/);
    expect(child.stdout).toMatch(/decision: INTERRUPTED \(exit 130\)/);
    expect(child.stdout).not.toMatch(/decision: PASS/);
    // report.html's embedded run data carries the decision the page draws ("INTERRUPTED — no decision").
    const data = JSON.parse(/<script type="application\/json" id="run-data">([^<]*)<\/script>/.exec(report)![1]!) as { decision: { state: string; exit_code: number } };
    expect(data.decision).toMatchObject({ state: "interrupted", exit_code: 130 });
    expect(leftovers).toEqual([]);
  }, 120_000);

  it("SIGTERM (CI cancellation, timeout) is handled like SIGINT: outputs written, exit 143", async () => {
    const out = mkdtempSync(join(tmpdir(), "sig-term-"));
    let sent = false;
    const child = await runUntil(["--tag", "crawl", "--repetitions", "5", "--concurrency", "2", "--results-dir", out], (progress, kill) => {
      if (progress >= 3 && !sent) {
        sent = true;
        kill("SIGTERM");
      }
    });
    expect(child.code).toBe(143);
    const { doc, leftovers } = checkOutputs(out);
    expect(doc.gates).toMatchObject({ decision: "interrupted", exit_code: 143 });
    expect(doc.run.interrupted_by).toBe("SIGTERM");
    expect(doc.trials.length).toBeGreaterThanOrEqual(3);
    expect(leftovers).toEqual([]);
  }, 120_000);

  it("a second SIGINT in real time stops at once: the trial in progress is abandoned, the outputs are still written", async () => {
    const out = mkdtempSync(join(tmpdir(), "sig-twice-"));
    let sent = 0;
    // The second SIGINT follows as soon as the child says it took the first, while the trial in progress
    // (seconds of real-time audio) runs — not after a fixed delay, which a loaded machine can outlast.
    const child = await runUntil(["--example", "harbor_003", "--repetitions", "3", "--concurrency", "1", "--real-time", "--results-dir", out], (progress, kill, stderr) => {
      if (progress >= 1 && sent === 0) {
        sent = 1;
        kill("SIGINT");
      } else if (sent === 1 && stderr.includes("SIGINT received;")) {
        sent = 2;
        kill("SIGINT");
      }
    });
    expect(child.code).toBe(130);
    expect(child.stderr).toMatch(/SIGINT received again; writing the results of the finished trials and stopping now/);
    const { doc, leftovers } = checkOutputs(out);
    expect(doc.trials.map((t) => t.trial_id)).toEqual(["harbor_003#1"]);
    expect(doc.run.not_run).toEqual([
      { trial_id: "harbor_003#2", case_id: "harbor_003", reason: "abandoned while running" },
      { trial_id: "harbor_003#3", case_id: "harbor_003", reason: "not started" },
    ]);
    expect(doc.gates.decision).toBe("interrupted");
    expect(leftovers).toEqual([]);
  }, 120_000);
});
