/**
 * A PLAN with a required human gate, end to end through the CLI: the run ends without a pass (exit 1,
 * awaiting reviews), `crashlab gates` decides again as reviews arrive (too few: 1; enough and passing: 0;
 * reviewers split: unsure, so too few again), writing nothing; a second run of the same trials (same
 * provenance digests) passes with `--carry`, the first run's reviews carried over.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ResultsFile } from "../src/core/record/results";
import { cli } from "./review-fixtures";

const repo = resolve(import.meta.dirname, "..");
const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("a required human gate", () => {
  it("keeps a run from passing until people have reviewed enough trials, and follows the trials to a rerun", async () => {
    const dir = mkdtempSync(join(tmpdir(), "crashlab-human-gate-"));
    mkdirSync(join(dir, "pkg"));
    writeFileSync(
      join(dir, "pkg/evaluations.ts"),
      `import { definePlan } from "crashlab/alpha";
import { PLAN as base } from ${JSON.stringify(join(repo, "crashlab/evaluations.ts"))};
export const PLAN = definePlan({ ...base, gates: { ...base.gates, "human.naturalness": { required: true, min_pass_rate: 1, min_reviewed: 2 } } });
`,
    );
    const runArgs = ["run", "--package", "pkg", "--target", "text_restaurant", "--tag", "crawl", "--max-examples", "2", "--concurrency", "1", "--quiet", "--results-dir", "out"];
    const first = await cli(runArgs, dir);
    expect(first.code, first.stderr).toBe(1);
    expect(first.stdout).toContain("gate required FAIL  human.naturalness: not assessed, awaits reviews");
    expect(first.stdout).toContain("decision: FAIL (exit 1) — no pass decision yet: required human gate(s) human.naturalness await reviews");
    const [runId] = readdirSync(join(dir, "out"));
    const run = join("out", runId!);
    const resultsFile = join(dir, run, "results.json");
    const results = ResultsFile.parse(JSON.parse(readFileSync(resultsFile, "utf8")));
    expect(results.gates).toMatchObject({ decision: "fail", exit_code: 1, ok: false });
    expect(results.gates.config["human.naturalness"]).toEqual({ required: true, min_pass_rate: 1, wilson: false, min_reviewed: 2, min_reviewed_share: 0 });
    expect(results.gates.results.find((g) => g.verifier === "human.naturalness")!.human).toMatchObject({ status: "not_assessed", trials: 2, reviewed: 0 });
    // Every automated gate passed: only the human gate stands between the run and a pass.
    expect(results.gates.results.filter((g) => g.rule.required && !g.ok).map((g) => g.verifier)).toEqual(["human.naturalness"]);
    const before = digest(resultsFile);

    const [t1, t2] = results.trials.map((t) => t.trial_id);
    const gates = async (...extra: string[]) => cli(["gates", run, ...extra], dir);
    const review = async (trial: string, verdict: string, reviewer: string) => {
      const r = await cli(["review", run, "--trial", trial, "--verifier", "human.naturalness", "--verdict", verdict, "--reviewer", reviewer], dir);
      expect(r.code, r.stderr).toBe(0);
    };

    const none = await gates();
    expect(none.code).toBe(1);
    expect(none.stdout).toContain("gate required NOT ASSESSED  human.naturalness: not assessed, awaits reviews");

    await review(t1!, "passed", "ana");
    const one = await gates();
    expect(one.code).toBe(1);
    expect(one.stdout).toContain("human.naturalness: not assessed, too few reviews: 1 of 2 trial(s) reviewed (needs 2 reviewed trial(s))");

    await review(t2!, "passed", "ana");
    const two = await gates("--json");
    expect(two.code).toBe(0);
    expect(JSON.parse(two.stdout)).toMatchObject({ run_id: runId, ok: true, decision: "pass", exit_code: 0, reviews: { lines: 2, carried: 0, counted: 2 } });
    expect((await gates()).stdout).toContain("decision: PASS (exit 0) — all 5 required gate(s) passed");

    // bo disagrees on one trial: one passed, one failed is unsure, so only one trial counts again.
    await review(t2!, "failed", "bo");
    expect((await gates()).code).toBe(1);
    // bo changes his mind: his later line supersedes the earlier one.
    await review(t2!, "passed", "bo");
    expect((await gates()).code).toBe(0);
    // `gates` writes nothing: results.json keeps the decision the run ended with.
    expect(digest(resultsFile)).toBe(before);

    // The same trials again (same package, seed, inputs: the same provenance digests): with --carry the
    // first run's three latest reviews (ana on both trials, bo's last word on one) count for the second.
    const second = await cli(runArgs, dir);
    expect(second.code).toBe(1);
    const secondRun = join("out", readdirSync(join(dir, "out")).find((r) => r !== runId)!);
    const secondResults = ResultsFile.parse(JSON.parse(readFileSync(join(dir, secondRun, "results.json"), "utf8")));
    expect(secondResults.trials.map((t) => t.provenance.digest)).toEqual(results.trials.map((t) => t.provenance.digest));
    expect((await cli(["gates", secondRun], dir)).code).toBe(1);
    const carried = await cli(["gates", secondRun, "--carry", "--json"], dir);
    expect(carried.code, carried.stdout).toBe(0);
    expect(JSON.parse(carried.stdout).reviews).toEqual({ lines: 0, carried: 3, carried_from: [runId], counted: 3 });
  });
});
