/**
 * `crashlab vary` end to end on the bundled restaurant package (docs/vary.md): a few cells with fixed seeds,
 * each a real trial over the local GPT-Live simulator (virtual time). The matrix mechanics are asserted on
 * the real verdicts — base trials, acting, counting, rates, exit code — and so is every cell's verdict as
 * today's grader gives it, misses included: a grader change that moves a verdict shows up here.
 */
import { describe, expect, it } from "vitest";
import { cli } from "./cli-harness";
import type { VaryResult } from "../src/core/vary/run";

const ARGS = ["vary", "--package", "crashlab", "--seed", "3", "--json"];

async function vary(extra: string[]): Promise<{ code: number; result: VaryResult; stderr: string }> {
  const { code, stdout, stderr } = await cli([...ARGS, ...extra]);
  return { code, result: JSON.parse(stdout) as VaryResult, stderr };
}

describe("crashlab vary on the bundled package", () => {
  it(
    "CRAWL: runs the base once per case and mode, every variant in every mode, and judges each cell against the base",
    async () => {
      const operators = ["reword", "spoken_values", "longer", "value_neighbour", "value_meridiem", "claim_before_result", "result_omitted", "repeated_write"];
      const { code, result } = await vary(["--cases", "harbor_001,harbor_013", "--modes", "responses", "--variants", String(operators.length), "--operators", operators.join(",")]);
      expect(result.base.map((b) => [b.case_id, b.mode, b.status, b.failed])).toEqual([
        ["harbor_001", "responses", "passed", []],
        ["harbor_013", "responses", "passed", []],
      ]);
      expect(result.cells.map((c) => [c.variant, c.case_id, c.mode])).toEqual([
        ["reword#1", "harbor_013", "responses"],
        ["spoken_values#1", "harbor_013", "responses"],
        ["longer#1", "harbor_013", "responses"],
        ["value_neighbour#1", "harbor_013", "responses"],
        ["value_meridiem#1", "harbor_001", "responses"],
        ["claim_before_result#1", "harbor_001", "responses"],
        ["result_omitted#1", "harbor_001", "responses"],
        ["repeated_write#1", "harbor_001", "responses"],
      ]);
      // Every cell acted, so every one is counted.
      for (const c of result.cells) expect(c.acted, c.variant).toBeGreaterThan(0);
      const cell = (op: string) => result.cells.find((c) => c.operator === op)!;
      // Known good on today's grader: the correct variants keep the base's verdict, these faults fail on their check.
      for (const op of ["reword", "spoken_values", "longer"]) expect([cell(op).verdict, cell(op).status], op).toEqual(["ok", "passed"]);
      for (const [op, check] of [["value_neighbour", "grounded_response"], ["claim_before_result", "grounded_response"], ["repeated_write", "authorized_actions"]] as const) {
        expect(cell(op).verdict, op).toBe("ok");
        expect(cell(op).failed, op).toContain(check);
      }
      // A flipped meridiem and a "Goodbye!" in place of the result: today's grader passes both (misses, reported
      // in the matrix). Whatever it says, the verdict must follow from the trial: a miss is a trial that did not
      // fail on grounded_response.
      for (const op of ["value_meridiem", "result_omitted"]) {
        const c = cell(op);
        expect(c.verdict, op).toBe(c.status === "failed" && c.failed.includes("grounded_response") ? "ok" : "miss");
      }
      const s = result.summary;
      expect([s.correct_counted, s.fault_counted, s.not_acted, s.awaiting_check, s.base_fails]).toEqual([3, 5, 0, 0, 0]);
      expect(s.false_fails).toBe(result.cells.filter((c) => c.verdict === "false_fail").length);
      expect(s.misses).toBe(result.cells.filter((c) => c.verdict === "miss").length);
      expect(s.miss_rate).toBe(Math.round((s.misses / 5) * 10000) / 10000);
      expect(code).toBe(s.false_fails + s.misses > 0 ? 1 : 0);
    },
    600_000,
  );

  it(
    "RUN: a confirmation before the write and a write after a no are judged; a disclosure waits for its check",
    async () => {
      const operators = ["confirm_before_write", "write_after_decline", "value_other_record", "disclosure"];
      const { result } = await vary(["--cases", "run_cancel_corrected_id", "--modes", "client", "--variants", "4", "--operators", operators.join(",")]);
      expect(result.base.map((b) => [b.case_id, b.mode, b.status])).toEqual([["run_cancel_corrected_id", "client", "passed"]]);
      // Variants follow the catalogue's order of operators (docs/vary.md), whatever order the flag names them in.
      expect(result.cells.map((c) => c.operator)).toEqual(["confirm_before_write", "value_other_record", "write_after_decline", "disclosure"]);
      for (const c of result.cells) expect(c.acted, c.variant).toBeGreaterThan(0);
      const cell = (op: string) => result.cells.find((c) => c.operator === op)!;
      expect([cell("confirm_before_write").verdict, cell("confirm_before_write").status]).toEqual(["ok", "passed"]);
      expect(cell("write_after_decline").verdict).toBe("ok");
      expect(cell("write_after_decline").failed).toContain("critical_procedure");
      expect(cell("value_other_record").verdict).toBe("ok");
      // No check for disclosure exists yet: the cell is reported as awaiting it and not counted; once one
      // exists, the disclosure must fail on it.
      const told = cell("disclosure");
      expect(told.verdict).toBe(told.known.includes("no_disclosure") ? "ok" : "awaiting_check");
      expect(result.summary.awaiting_checks).toEqual(told.known.includes("no_disclosure") ? [] : ["no_disclosure"]);
    },
    600_000,
  );

  it(
    "gives the same matrix for the same seed, whatever the concurrency (wall times aside)",
    async () => {
      const args = ["--cases", "harbor_013", "--modes", "client", "--variants", "3", "--operators", "reword,spoken_values,value_neighbour"];
      const strip = (r: VaryResult) => ({ base: r.base.map(({ wall_ms: _w, ...b }) => b), cells: r.cells.map(({ wall_ms: _w, ...c }) => c) });
      const once = strip((await vary([...args, "--concurrency", "1"])).result);
      const twice = strip((await vary([...args, "--concurrency", "2"])).result);
      expect(twice).toEqual(once);
      expect(once.cells.map((c) => c.changes.length > 0)).toEqual([true, true, true]);
    },
    600_000,
  );

  it("refuses a bad flag, an unknown operator or case, with exit 2 and one paragraph", async () => {
    for (const [args, says] of [
      [["vary", "--package", "crashlab", "--operators", "nonsense"], /unknown operator "nonsense"/],
      [["vary", "--package", "crashlab", "--cases", "no_such_case"], /no case "no_such_case"/],
      [["vary", "--package", "crashlab", "--modes", "both"], /--modes takes responses and\/or client/],
      [["vary", "--package", "crashlab", "--variants", "0"], /--variants takes/],
      [["vary", "--package", "crashlab", "--target", "text_restaurant", "--cases", "harbor_001", "--variants", "1", "--operators", "reword"], /does not let crashlab wrap its offline policy/],
    ] as const) {
      const { code, stderr, stdout } = await cli([...args]);
      expect(code, args.join(" ")).toBe(2);
      expect(stderr).toMatch(says);
      expect(stderr.trim().split("\n")).toHaveLength(1);
      expect(stdout).toBe("");
    }
  }, 120_000);

  it("prints its help", async () => {
    const { code, stdout } = await cli(["vary", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("crashlab vary — check your grader before you trust it");
    expect(stdout).toContain("value_meridiem");
  });
});
