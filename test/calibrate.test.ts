import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calibrate, trialLink } from "../src/core/review/calibrate";
import { cli, line, tmp, writeRun, type FixtureTrial } from "./review-fixtures";

const TU = "semantic.task_understanding";
const CF = "semantic.context_fidelity";

/**
 * Two runs that pool into the hand-worked table of test/kappa.test.ts on task_understanding: both passed 6,
 * judge passed / people failed 1, judge failed / people passed 1, both failed 2 (κ = 0.5238095, 95% CI
 * −0.0529311 to 1). Besides: one trial people were unsure about, one the judge had no verdict on.
 */
function twoRuns(parent: string): [string, string] {
  const judged = (id: string, judge: string, extra: Partial<FixtureTrial> = {}): FixtureTrial => ({ id, judge: { [TU]: judge as never }, ...extra });
  const a = writeRun(parent, {
    run_id: "run-a",
    trials: [judged("p#1", "passed"), judged("p#2", "passed"), judged("p#3", "passed"), judged("p#4", "passed"), judged("x#1", "passed"), judged("u#1", "passed"), judged("i#1", "inconclusive")],
    reviews: [
      ...["p#1", "p#2", "p#3", "p#4"].map((t) => line(t, TU, "passed")),
      line("x#1", TU, "failed"),
      line("u#1", TU, "unsure"),
      line("i#1", TU, "passed"),
      // Human dimensions have no judge: never in the calibration.
      line("p#1", "human.naturalness", "failed"),
    ].join(""),
  });
  const b = writeRun(parent, {
    run_id: "run-b",
    trials: [judged("p#5", "passed"), judged("p#6", "passed"), judged("y#1", "failed"), judged("f#1", "failed"), judged("f#2", "failed", { judge: { [TU]: "failed", [CF]: "passed" } })],
    reviews: [line("p#5", TU, "passed"), line("p#6", TU, "passed"), line("y#1", TU, "passed"), line("f#1", TU, "failed"), line("f#2", TU, "failed"), line("f#2", CF, "passed")].join(""),
  });
  return [a, b];
}

describe("calibration of the judge against people", () => {
  it("pools the runs into one table per clause, counting unsure and judge-less verdicts apart, listing disagreements with links", async () => {
    const parent = tmp();
    twoRuns(parent);
    const r = await cli(["calibrate", "run-a", "run-b/", "--json"], parent);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.clauses.map((c: { verifier: string }) => c.verifier)).toEqual([CF, TU]);
    const tu = out.clauses[1];
    expect(tu).toMatchObject({
      verifier: TU,
      n: 10,
      confusion: { judge_passed_human_passed: 6, judge_passed_human_failed: 1, judge_failed_human_passed: 1, judge_failed_human_failed: 2 },
      unsure: 1,
      judge_inconclusive: 1,
    });
    expect(tu.agreement).toBeCloseTo(0.8, 12);
    expect(tu.kappa).toBeCloseTo(0.5238095, 6);
    expect(tu.kappa_ci95[0]).toBeCloseTo(-0.0529311, 6);
    expect(tu.kappa_ci95[1]).toBe(1);
    expect(tu.disagreements).toEqual([
      { run_id: "run-a", trial_id: "x#1", judge: "passed", human: "failed", link: "run-a/report.html#trial=x%231" },
      { run_id: "run-b", trial_id: "y#1", judge: "failed", human: "passed", link: "run-b/report.html#trial=y%231" },
    ]);
    // One pair, both passed: every verdict in one class, so kappa is undefined — null, never NaN.
    expect(out.clauses[0]).toEqual({
      verifier: CF,
      n: 1,
      agreement: 1,
      kappa: null,
      kappa_ci95: null,
      confusion: { judge_passed_human_passed: 1, judge_passed_human_failed: 0, judge_failed_human_passed: 0, judge_failed_human_failed: 0 },
      unsure: 0,
      judge_inconclusive: 0,
      disagreements: [],
    });
  });

  it("--min-kappa exits 1 below the bar or on an undefined kappa, 0 when every clause reaches it", async () => {
    const parent = tmp();
    twoRuns(parent);
    // task_understanding alone: 0.52 >= 0.5 passes, < 0.6 fails.
    const onlyA = writeRun(parent, { run_id: "run-c", trials: [{ id: "p#1", judge: { [TU]: "passed" } }, { id: "f#1", judge: { [TU]: "failed" } }], reviews: line("p#1", TU, "passed") + line("f#1", TU, "failed") });
    const both = await cli(["calibrate", "run-a", "run-b", "--min-kappa", "0.5"], parent);
    expect(both.code).toBe(1);
    expect(both.stdout).toContain("min kappa 0.5: FAIL (exit 1): semantic.context_fidelity kappa undefined is below 0.5 or undefined");
    expect(both.stdout).toContain("semantic.task_understanding: 10 pair(s), agreement 80.0%, kappa 0.52 (95% CI -0.05 to 1.00); 1 unsure, 1 without a judge verdict");
    expect(both.stdout).toContain("  judge passed: people passed 6, failed 1");
    expect(both.stdout).toContain("  disagree: x#1 (run-a) judge passed, people failed — run-a/report.html#trial=x%231");
    const perfect = await cli(["calibrate", onlyA, "--min-kappa", "0.9", "--json"], parent);
    expect(perfect.code).toBe(0);
    expect(JSON.parse(perfect.stdout)).toMatchObject({ min_kappa: 0.9, ok: true, clauses: [{ verifier: TU, n: 2, kappa: 1, kappa_ci95: [1, 1] }] });
    expect((await cli(["calibrate", onlyA, "--min-kappa", "1.5"], parent)).stderr).toContain('--min-kappa takes a number from -1 to 1 (got "1.5")');
  });

  it("no human verdict on any clause: nothing to show; --min-kappa then fails", async () => {
    const parent = tmp();
    writeRun(parent, { trials: [{ id: "a#1", judge: { [TU]: "passed" } }], reviews: line("a#1", "human.pacing", "passed") });
    const plain = await cli(["calibrate", "run-a"], parent);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("no semantic clause has a human verdict in reviews.jsonl");
    const strict = await cli(["calibrate", "run-a", "--min-kappa", "0.4", "--json"], parent);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toEqual({ clauses: [], min_kappa: 0.4, ok: false });
  });

  it("refuses the same run given twice (its labels would count twice)", async () => {
    const parent = tmp();
    twoRuns(parent);
    const r = await cli(["calibrate", "run-a", join(parent, "run-a")], parent);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("are the same run (run-a)");
  });

  it("links address a trial the way the report's URL hash does", () => {
    expect(trialLink("results/r1/", "book#2")).toBe("results/r1/report.html#trial=book%232");
    expect(trialLink("", "a b#1")).toBe("report.html#trial=a%20b%231");
    expect(calibrate([])).toEqual({ clauses: [] });
  });
});
