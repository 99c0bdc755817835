/**
 * `crashlab vary` at full size on two packages from two domains (docs/vary.md): the bundled restaurant and
 * the airline example under examples/airline, which is written with the public API only. 200 generated
 * variants each, both delegation modes, fixed seeds; every counted cell must keep its verdict (a correct
 * variant) or fail on its own check (a fault). The README's table states these counts and their times.
 */
import { describe, expect, it } from "vitest";
import { cli } from "./cli-harness";
import type { VaryResult } from "../src/core/vary/run";

const PACKAGES = [
  { dir: "crashlab", seed: 7 },
  { dir: "examples/airline", seed: 7 },
];

describe("crashlab vary over 200 variants in two domains", () => {
  it.each(PACKAGES)(
    "$dir: no false fail and no miss over 200 variants (seed $seed)",
    async ({ dir, seed }) => {
      const { code, stdout, stderr } = await cli(["vary", "--package", dir, "--variants", "200", "--seed", String(seed), "--json"]);
      const result = JSON.parse(stdout) as VaryResult;
      const s = result.summary;
      const wrong = result.cells.filter((c) => c.verdict === "false_fail" || c.verdict === "miss").map((c) => `${c.variant} ${c.case_id} ${c.mode}: ${c.verdict} (${c.note ?? ""})`);
      expect(wrong, stderr.slice(-2000)).toEqual([]);
      expect([s.false_fails, s.misses]).toEqual([0, 0]);
      expect(code).toBe(0);
      // The base assistant passes everywhere, and 200 variants really ran: each in both modes, most of them counted.
      expect(result.base.every((b) => b.status === "passed")).toBe(true);
      expect(result.modes).toEqual(["responses", "client"]);
      expect(s.variants).toBe(200);
      expect(s.correct_counted + s.fault_counted).toBeGreaterThanOrEqual(360);
      expect(s.correct_counted).toBeGreaterThan(150);
      expect(s.fault_counted).toBeGreaterThan(150);
      // Every operator in the catalogue that had something to act on was used, correct ones and faults.
      const used = new Set(result.cells.filter((c) => c.verdict === "ok").map((c) => c.operator));
      for (const op of ["reword", "spoken_values", "split_join", "preamble", "longer", "confirm_before_write", "extra_read", "value_neighbour", "value_meridiem", "value_other_record", "claim_before_result", "claim_without_result", "result_omitted", "repeated_write", "disclosure"])
        expect(used.has(op), op).toBe(true);
    },
    1_800_000,
  );
});
