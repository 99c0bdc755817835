import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { ResultsFile } from "../src/core/record/results";
import { buildTrials } from "../src/core/run/plan";
import { expectedSeconds, parseShard, shardTrials } from "../src/core/run/shard";

/**
 * `--shard i/n` and `crashlab merge`: n shard processes (standing in for a CI matrix or an Indexed
 * Job) each run their slice; the merge equals the unsharded run trial for trial, and mismatched,
 * missing or repeated blobs are refused.
 */
const repo = resolve(import.meta.dirname, "..");
const ARGS = ["--tag", "crawl", "--max-examples", "6", "--repetitions", "2", "--seed", "4"];

async function cli(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

function child(args: string[]): Promise<number | null> {
  return new Promise((done) => {
    const p = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "run", ...args], { cwd: repo, env: { ...process.env, OPENAI_API_KEY: "" }, stdio: ["ignore", "ignore", "ignore"] });
    p.on("close", (code) => done(code));
  });
}

const folder = (out: string) => join(out, readdirSync(out)[0]!);
const results = (dir: string) => ResultsFile.parse(JSON.parse(readFileSync(join(dir, "results.json"), "utf8")));
const comparable = ({ started_at: _s, wall_ms: _w, ...rest }: ResultsFile["trials"][number]) => rest;

describe("shard selection", () => {
  it("puts every trial in exactly one shard, the same whatever the order, balanced by expected duration", () => {
    const trials = buildTrials(PLAN.cases, 3, 1);
    const kinds = new Set(trials.map((t) => t.case.kind));
    expect(kinds).toEqual(new Set(["crawl", "walk", "run"]));
    for (const n of [1, 2, 3, 4, 7]) {
      const slices = Array.from({ length: n }, (_, i) => shardTrials(trials, { index: i + 1, count: n }, true));
      const all = slices.flatMap((s) => s.map((t) => t.trial_id));
      expect(all.sort()).toEqual(trials.map((t) => t.trial_id).sort());
      // Plan order within a slice; the same slices from a shuffled plan.
      const shuffled = [...trials].reverse();
      for (const [i, s] of slices.entries()) {
        expect(s.map((t) => t.trial_id)).toEqual(trials.filter((t) => s.includes(t)).map((t) => t.trial_id));
        expect(shardTrials(shuffled, { index: i + 1, count: n }, true).map((t) => t.trial_id).sort()).toEqual(s.map((t) => t.trial_id).sort());
      }
      const loads = slices.map((s) => s.reduce((sum, t) => sum + expectedSeconds(t, true), 0));
      // Greedy longest-first: no slice exceeds another by more than the longest trial.
      expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(60);
    }
    expect(() => parseShard("0/4")).toThrow(/--shard takes i\/n/);
    expect(() => parseShard("5/4")).toThrow(/--shard takes i\/n/);
    expect(() => parseShard("two")).toThrow(/--shard takes i\/n/);
    expect(parseShard("3/4")).toEqual({ index: 3, count: 4 });
  });
});

describe("shards and merge", () => {
  it("4 shard processes merged equal the unsharded run trial for trial, and bad blobs are refused", async () => {
    const whole = mkdtempSync(join(tmpdir(), "shards-whole-"));
    expect((await cli(["run", ...ARGS, "--results-dir", whole, "--quiet"])).code).toBe(0);
    const expected = results(folder(whole));
    expect(expected.trials).toHaveLength(12);

    const outs = Array.from({ length: 4 }, (_, i) => mkdtempSync(join(tmpdir(), `shard-${i + 1}-`)));
    const codes = await Promise.all(outs.map((out, i) => child([...ARGS, "--shard", `${i + 1}/4`, "--results-dir", out, "--quiet"])));
    expect(codes).toEqual([0, 0, 0, 0]);
    const blobs = outs.map(folder);
    const sizes = blobs.map((b) => results(b).trials.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(12);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);

    const merged = mkdtempSync(join(tmpdir(), "shards-merged-"));
    const m = await cli(["merge", ...blobs, "--results-dir", merged]);
    expect(m.code).toBe(0);
    expect(m.stdout).toMatch(/decision: PASS \(exit 0\)/);
    const got = results(folder(merged));
    expect(got.trials.map(comparable)).toEqual(expected.trials.map(comparable));
    expect(got.trials.map((t) => t.provenance.digest)).toEqual(expected.trials.map((t) => t.provenance.digest));
    expect(got.summary).toEqual(expected.summary);
    expect(got.gates).toEqual(expected.gates);
    // Every trial's artifacts came along: the report finds them all.
    const html = readFileSync(join(folder(merged), "report.html"), "utf8");
    expect(html).not.toMatch(/is missing/);

    const refuse = async (argv: string[], message: RegExp) => {
      const out = mkdtempSync(join(tmpdir(), "shards-refused-"));
      const r = await cli(["merge", ...argv, "--results-dir", out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(readdirSync(out)).toEqual([]);
    };
    await refuse(blobs.slice(0, 3), /shard\(s\) 4\/4 missing/);
    await refuse([...blobs, blobs[1]!], /shard 2\/4 is given twice/);
    await refuse([folder(whole)], /is not a shard's run folder/);
    const other = mkdtempSync(join(tmpdir(), "shard-other-seed-"));
    expect((await cli(["run", ...ARGS.slice(0, -1), "5", "--shard", "1/4", "--results-dir", other, "--quiet"])).code).toBe(0);
    await refuse([folder(other), ...blobs.slice(1)], /are shards of different runs \(plan digests/);

    // Damaged shards: each refused in one paragraph, before any merged folder exists.
    const damagedCopy = (edit: (dir: string) => void) => {
      const copy = join(mkdtempSync(join(tmpdir(), "shard-damaged-")), "run");
      cpSync(blobs[0]!, copy, { recursive: true });
      edit(copy);
      return copy;
    };
    const text = readFileSync(join(blobs[0]!, "results.json"), "utf8");
    await refuse([damagedCopy((d) => writeFileSync(join(d, "results.json"), text.slice(0, 200))), ...blobs.slice(1)], /results\.json cannot be read \(the file ends before its JSON does\); the shard's run folder is damaged/);
    await refuse([damagedCopy((d) => writeFileSync(join(d, "results.json"), "not json")), ...blobs.slice(1)], /results\.json cannot be read/);
    await refuse([damagedCopy((d) => writeFileSync(join(d, "results.json"), JSON.stringify({ trials: [] }))), ...blobs.slice(1)], /has no run section \(with started_at\) or no gates\.config/);
    const meta = JSON.parse(readFileSync(join(blobs[0]!, "run.json"), "utf8"));
    await refuse([damagedCopy((d) => writeFileSync(join(d, "run.json"), JSON.stringify({ ...meta, shard: { index: 1, count: 4 } }))), ...blobs.slice(1)], /run\.json: its shard needs a whole index and count and a list of trial ids/);
    // The same artifact in two shards (a folder copied into another): refused before anything is written.
    const stray = readdirSync(join(blobs[1]!, "transcripts"))[0]!;
    await refuse([damagedCopy((d) => cpSync(join(blobs[1]!, "transcripts", stray), join(d, "transcripts", stray))), ...blobs.slice(1)], new RegExp(`transcripts/${stray.replace(/\./g, "\\.")} is in two shards`));
  }, 600_000);
});
