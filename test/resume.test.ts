import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { ResultsFile } from "../src/core/record/results";

/**
 * `crashlab run --resume`: a run killed mid-way (SIGKILL: no handler runs, nothing is flushed) is
 * finished in its own folder from its journal; the final results equal an uninterrupted run's, and no
 * finished trial runs twice. A changed plan is refused unless --force. `--last-failed` reruns the
 * cases that failed last time. The killed child runs src/cli.ts through tsx, as the signal tests do, and
 * kills itself right after its third journal row through the test-only hook (docs/architecture.md, "Test
 * hooks"): a kill the parent sent on reading progress lines would land later the busier the machine.
 */
const repo = resolve(import.meta.dirname, "..");
const ARGS = ["--tag", "crawl", "--max-examples", "5", "--repetitions", "2", "--seed", "3"];

async function cli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

/** Run `crashlab run …` in a child that SIGKILLs itself once it journaled `after` trials. */
function killAfter(args: string[], after: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((done) => {
    const env = { ...process.env, OPENAI_API_KEY: "", CRASHLAB_TEST_SIGNAL_AT: `SIGKILL@journal:${after}` };
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "run", ...args], { cwd: repo, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code, signal) => done({ code, signal, stderr }));
  });
}

const folder = (out: string) => join(out, readdirSync(out)[0]!);
const results = (dir: string) => ResultsFile.parse(JSON.parse(readFileSync(join(dir, "results.json"), "utf8")));
const journalIds = (dir: string) =>
  readFileSync(join(dir, "trials.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.endsWith("}"))
    .map((l) => (JSON.parse(l) as { trial_id: string }).trial_id);
/** A trial row without what the wall clock decides. */
const comparable = ({ started_at: _s, wall_ms: _w, ...rest }: ResultsFile["trials"][number]) => rest;
const ranIn = (stderr: string) => [...stderr.matchAll(/^\[\s*\d+\/\d+\] \S+\s+(\S+)/gm)].map((m) => m[1]!);

describe("resume", () => {
  it("a run killed with SIGKILL mid-way and resumed equals the uninterrupted run, and no finished trial runs twice", async () => {
    const whole = mkdtempSync(join(tmpdir(), "resume-whole-"));
    const reference = await cli(["run", ...ARGS, "--results-dir", whole, "--quiet"]);
    expect(reference.code).toBe(0);
    const expected = results(folder(whole));
    expect(expected.trials).toHaveLength(10);

    const out = mkdtempSync(join(tmpdir(), "resume-killed-"));
    const killed = await killAfter([...ARGS, "--results-dir", out], 3);
    expect(killed.signal).toBe("SIGKILL");
    const dir = folder(out);
    expect(existsSync(join(dir, "results.json"))).toBe(false);
    const before = journalIds(dir);
    expect(before).toHaveLength(3);

    const resumed = await cli(["run", "--resume", dir]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`resuming ${readdirSync(out)[0]}`);
    expect(resumed.stderr).toMatch(new RegExp(`${before.length} of 10 trial\\(s\\) finished before`));
    // Only the unfinished trials ran, each once.
    const ranNow = ranIn(resumed.stderr);
    expect(ranNow.sort()).toEqual(expected.trials.map((t) => t.trial_id).filter((id) => !before.includes(id)).sort());
    const after = journalIds(dir);
    expect(after).toHaveLength(10);
    expect(new Set(after).size).toBe(10);
    expect(after.slice(0, before.length)).toEqual(before);

    const got = results(dir);
    expect(got.trials.map(comparable)).toEqual(expected.trials.map(comparable));
    expect(got.summary).toEqual(expected.summary);
    expect(got.gates).toEqual(expected.gates);
    expect(got.run).toMatchObject({ interrupted: false, not_run: [], seed: 3, repetitions: 2 });
    expect(existsSync(join(dir, "report.html"))).toBe(true);
    const meta = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
    expect(meta.resumes).toHaveLength(1);
    expect(meta.resumes[0].forced).toBe(false);

    // Resuming a finished run runs nothing and rebuilds the same results.
    const again = await cli(["run", "--resume", dir, "--quiet"]);
    expect(again.code).toBe(0);
    expect(journalIds(dir)).toHaveLength(10);
    expect(results(dir).trials.map(comparable)).toEqual(expected.trials.map(comparable));
  });

  it("a run stopped by SIGINT (its outputs say interrupted) is finished by --resume", async () => {
    const out = mkdtempSync(join(tmpdir(), "resume-sigint-"));
    const stop = new AbortController();
    let stderr = "";
    const args = ["run", "--target", "text_restaurant", "--tag", "crawl", "--repetitions", "2", "--seed", "8", "--results-dir", out];
    const code = await main(args, {
      stdout: () => {},
      stderr: (t) => {
        stderr += t;
        if ((stderr.match(/^\[\s*\d+\/\d+\]/gm) ?? []).length === 5) stop.abort("SIGINT");
      },
      cwd: repo,
      alpha: alpha as Record<string, unknown>,
      env: {},
      signal: stop.signal,
    });
    expect(code).toBe(130);
    const dir = folder(out);
    const partial = results(dir);
    expect(partial.run.interrupted).toBe(true);
    const before = journalIds(dir);
    expect(partial.trials.map((t) => t.trial_id).sort()).toEqual([...before].sort());
    const resumed = await cli(["run", "--resume", dir]);
    expect(resumed.code).toBe(0);
    expect(ranIn(resumed.stderr).filter((id) => before.includes(id))).toEqual([]);
    const whole = mkdtempSync(join(tmpdir(), "resume-sigint-whole-"));
    expect((await cli(["run", ...args.slice(1, -1), whole, "--quiet"])).code).toBe(0);
    const expected = results(folder(whole));
    const got = results(dir);
    expect(got.run.interrupted).toBe(false);
    expect(got.trials.map(comparable)).toEqual(expected.trials.map(comparable));
    expect(got.gates).toEqual(expected.gates);
  });

  it("refuses a plan that changed since the run began unless --force, and refuses changed settings", async () => {
    const out = mkdtempSync(join(tmpdir(), "resume-changed-"));
    expect((await cli(["run", "--target", "text_restaurant", "--example", "harbor_001", "--repetitions", "2", "--results-dir", out, "--quiet"])).code).toBe(0);
    const dir = folder(out);
    // Same plan: accepted.
    expect((await cli(["run", "--resume", dir, "--quiet"])).code).toBe(0);
    // The package or settings changed since: the stored digest no longer matches.
    const meta = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
    writeFileSync(join(dir, "run.json"), JSON.stringify({ ...meta, plan_digest: "sha256:0000000000000000000000000000000000000000000000000000000000000000" }));
    const refused = await cli(["run", "--resume", dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/the plan of run \S+ changed since it started .* pass --force/);
    const forced = await cli(["run", "--resume", dir, "--force", "--quiet"]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "run.json"), "utf8")).resumes.at(-1).forced).toBe(true);
    // Settings that decide what trials do cannot change on resume.
    const changed = await cli(["run", "--resume", dir, "--seed", "4"]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/--seed cannot be changed on resume/);
    const notARun = await cli(["run", "--resume", out]);
    expect(notARun.code).toBe(2);
    expect(notARun.stderr).toMatch(/holds no run\.json/);
    expect((await cli(["run", "--force"])).stderr).toMatch(/--force applies to --resume only/);
  });

  it("resumes from another folder, finding the package and datasets where the run started; a stored command line that no longer parses names run.json", async () => {
    const out = mkdtempSync(join(tmpdir(), "resume-elsewhere-"));
    const args = ["run", "--package", "crashlab", "--data", "crashlab/data/crawl.json", "--target", "text_restaurant", "--example", "harbor_001", "--results-dir", out, "--quiet"];
    expect((await cli(args)).code).toBe(0);
    const dir = folder(out);
    expect(JSON.parse(readFileSync(join(dir, "run.json"), "utf8"))).toMatchObject({ cwd: repo, argv: args.slice(1) });
    const elsewhere = mkdtempSync(join(tmpdir(), "resume-cwd-"));
    let stderr = "";
    const code = await main(["run", "--resume", dir, "--quiet"], { stdout: () => {}, stderr: (t) => (stderr += t), cwd: elsewhere, alpha: alpha as Record<string, unknown>, env: {} });
    expect(stderr).toBe("");
    expect(code).toBe(0);

    // run.json's settings are input: one that is not a setting's value names run.json and the setting, and nothing runs.
    const meta = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
    expect(meta.settings).toMatchObject({ package: "crashlab", data: ["crashlab/data/crawl.json"], target: "text_restaurant", example: ["harbor_001"] });
    writeFileSync(join(dir, "run.json"), JSON.stringify({ ...meta, settings: { ...meta.settings, chunk_ms: 25 } }));
    const edited = await cli(["run", "--resume", dir]);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain(`${join(dir, "run.json")} settings.chunk_ms: expected a whole number from 10 to 200 in steps of 10 (got 25)`);
    // A folder written before run.json stored settings resumes from its stored command line, which must parse.
    const { settings: _s, ...older } = meta;
    writeFileSync(join(dir, "run.json"), JSON.stringify({ ...older, argv: [...meta.argv, "--no-such-flag"] }));
    const old = await cli(["run", "--resume", dir]);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain(`${join(dir, "run.json")}: the command line it stored (`);
    expect(old.stderr).toMatch(/does not parse: .*no-such-flag.*start the run again/);
  });

  it("resumes a run folder from before run.json stored settings: its command line, over the PLAN's defaults", async () => {
    const out = mkdtempSync(join(tmpdir(), "resume-old-format-"));
    const args = ["run", "--target", "text_restaurant", "--example", "harbor_001", "--example", "harbor_008", "--repetitions", "2", "--seed", "5", "--results-dir", out];
    expect((await cli(args)).code).toBe(0);
    const dir = folder(out);
    const expected = results(dir);
    // The folder as an earlier crashlab wrote it: run.json with its argv and no settings; one trial lost.
    const { settings: _s, ...meta } = JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
    writeFileSync(join(dir, "run.json"), JSON.stringify(meta, null, 2));
    const lines = readFileSync(join(dir, "trials.jsonl"), "utf8").split("\n").filter(Boolean);
    writeFileSync(join(dir, "trials.jsonl"), lines.slice(0, 3).join("\n") + "\n");
    const resumed = await cli(["run", "--resume", dir]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(ranIn(resumed.stderr)).toEqual([JSON.parse(lines[3]!).trial_id]);
    expect(results(dir).trials.map(comparable)).toEqual(expected.trials.map(comparable));
    // The PLAN's defaults came in below the command line, as then (the bundled PLAN's concurrency).
    expect(results(dir).run.concurrency).toBe(expected.run.concurrency);
    // Its plan digest from an earlier version's formula differs: refused, saying why, and --force finishes it.
    writeFileSync(join(dir, "run.json"), JSON.stringify({ ...meta, plan_digest: `sha256:${"1".repeat(64)}` }, null, 2));
    const refused = await cli(["run", "--resume", dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/changed since it started .* written by an earlier crashlab, whose plan digest was computed differently, so only --force finishes it/);
    expect((await cli(["run", "--resume", dir, "--force", "--quiet"])).code).toBe(0);
  });

  it("--last-failed reruns the cases that failed in the last run", async () => {
    const out = mkdtempSync(join(tmpdir(), "last-failed-"));
    const first = await cli(["run", "--target", "text_faulty_double_books", "--example", "harbor_008", "--example", "harbor_003", "--repetitions", "2", "--results-dir", out, "--quiet"]);
    expect(first.code).toBe(1);
    const rerun = await cli(["run", "--target", "text_faulty_double_books", "--last-failed", "--results-dir", out]);
    expect(rerun.code).toBe(1);
    expect(rerun.stderr).toMatch(/--last-failed: rerunning 1 case\(s\) that failed in \S+: harbor_003/);
    const runs = readdirSync(out).sort();
    expect(runs).toHaveLength(2);
    const latest = runs.map((r) => join(out, r)).find((d) => results(d).trials.every((t) => t.case_id === "harbor_003"));
    expect(latest).toBeDefined();
    // Resuming it reruns those same cases, not "the last failed" of some later run.
    expect(JSON.parse(readFileSync(join(latest!, "run.json"), "utf8")).settings.example).toEqual(["harbor_003"]);
    const clean = mkdtempSync(join(tmpdir(), "last-failed-clean-"));
    expect((await cli(["run", "--target", "text_restaurant", "--example", "harbor_008", "--results-dir", clean, "--quiet"])).code).toBe(0);
    const nothing = await cli(["run", "--target", "text_restaurant", "--last-failed", "--results-dir", clean]);
    expect(nothing.code).toBe(0);
    expect(nothing.stderr).toMatch(/had no failed trial; nothing to rerun/);
    expect((await cli(["run", "--last-failed", "--example", "harbor_001"])).stderr).toMatch(/cannot be combined/);
  });
});
