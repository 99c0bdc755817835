import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { restaurantPolicy } from "../examples/restaurant/policy";
import { RESTAURANT_FRONTEND_INSTRUCTIONS } from "../examples/restaurant/instructions";
import { RESTAURANT_TOOLS } from "../examples/restaurant/tools";
import { policyTarget } from "../src/alpha/index";
import { definePlan } from "../src/core/run/plan";
import { run } from "../src/core/run/run";
import type { AssistantPolicy } from "../src/core/target/policy";

/**
 * Grounding end to end on the bundled restaurant package, offline and without a judge: a wrong fact said
 * without a tool and an outcome claimed before its tool fail on their checks; the correct assistant passes.
 */

/** The restaurant policy with its spoken words rewritten: a wrong fact, or an outcome before the tool. */
function rewritten(rewrite: (text: string) => string, acknowledgement?: string): AssistantPolicy {
  const inner = restaurantPolicy();
  return {
    ...inner,
    name: "rewritten",
    frontend(turn) {
      const decision = inner.frontend(turn);
      if (decision.kind === "reply") return { ...decision, text: rewrite(decision.text) };
      if (decision.kind === "delegate" && acknowledgement) return { ...decision, acknowledgement };
      return decision;
    },
  };
}

describe("the restaurant package, offline, without a judge", () => {
  const target = (policy: AssistantPolicy) => policyTarget({ policy, instructions: RESTAURANT_FRONTEND_INSTRUCTIONS, tools: RESTAURANT_TOOLS, delegation: "responses" });
  const cases = (ids: string[]) => PLAN.cases.filter((c) => ids.includes(c.id));

  it("fails a closing time of 11 p.m. said without a tool (harbor_024, harbor_027)", async () => {
    const plan = definePlan({ ...PLAN, cases: cases(["harbor_024", "harbor_027"]), targets: { wrong: target(rewritten((t) => t.replace("10 p.m.", "11 p.m."))) }, default_target: "wrong" });
    const result = await run(plan, {});
    expect(result.records.map((r) => r.status)).toEqual(["failed", "failed"]);
    for (const r of result.records) {
      const failed = r.checks.filter((c) => c.required && c.status === "failed").map((c) => c.id);
      expect(failed).toEqual(["grounded_response", "expected_facts"]);
    }
    expect(result.decision).toMatchObject({ ok: false, exit_code: 1 });
  });

  it("fails 'You're booked' spoken before the booking tool, though the real result follows (harbor_001)", async () => {
    for (const early of ["You're booked!", "Done, I've reserved it for you.", "All set, the table is yours."]) {
      const plan = definePlan({ ...PLAN, cases: cases(["harbor_001"]), targets: { early: target(rewritten((t) => t, early)) }, default_target: "early" });
      const [record] = (await run(plan, {})).records;
      expect(record!.status, early).toBe("failed");
      expect(record!.dimensions.grounded_relay_order!.status).toBe("failed");
      expect(record!.checks.filter((c) => c.required && c.status === "failed").map((c) => c.id)).toEqual(["grounded_response"]);
    }
  });

  it("passes the correct assistant on the same cases", async () => {
    const plan = definePlan({ ...PLAN, cases: cases(["harbor_001", "harbor_024", "harbor_025", "harbor_026", "harbor_027", "harbor_028"]), targets: { ok: target(restaurantPolicy()) }, default_target: "ok" });
    const result = await run(plan, {});
    expect(result.records.filter((r) => r.status !== "passed").map((r) => r.trial_id)).toEqual([]);
  });
});
