import { describe, expect, expectTypeOf, it } from "vitest";
import { definePlan, defineVerifier, z, type TrialRecord, type WorldEventRecord } from "../src/alpha/index";
import { restaurantTargets } from "../crashlab/adapters/restaurant-targets";

/**
 * Issue 8 item 17: the public surface types cleanly. A package verifier reads world events without a
 * cast, and `PLAN.facts` takes `as const` objects. (`pnpm test` type-checks this file first, so a
 * regression fails the type check; the runtime assertions keep the test honest.)
 */
describe("issue 8 item 17: precise public types", () => {
  it("world events on the trial record are typed", () => {
    expectTypeOf<TrialRecord["world"]["events"][number]>().toEqualTypeOf<WorldEventRecord>();
    expectTypeOf<WorldEventRecord["operation"]>().toEqualTypeOf<string>();
    expectTypeOf<WorldEventRecord["outcome"]>().toEqualTypeOf<"ok" | "error">();
    const verifier = defineVerifier({
      id: "writes_only",
      version: "1",
      kind: "deterministic",
      description: "every world event is a write",
      required: false,
      // No cast: `operation`, `kind` and `cause.call_id` are typed.
      assess: ({ record }) => {
        const reads = record.world.events.filter((e) => e.kind === "read").map((e) => `${e.operation}:${e.cause.call_id ?? "-"}`);
        return reads.length ? { status: "failed", rationale: reads.join(", "), evidence_ids: [] } : { status: "passed", rationale: "none", evidence_ids: [] };
      },
    });
    expect(verifier.id).toBe("writes_only");
  });

  it("PLAN.facts accepts read-only (`as const`) objects", () => {
    const FACTS = { name: "Trattoria", seating: ["indoor", "outdoor"], hours: { open: "11:00" } } as const;
    const plan = definePlan({ name: "p", targets: restaurantTargets(), cases: [], facts: FACTS });
    expect(plan.facts).toBe(FACTS);
  });
});

describe("issue 11: a package needs no zod of its own", () => {
  it("crashlab/alpha re-exports z, the engine's own zod", async () => {
    const zod = await import("zod");
    expect(z).toBe(zod.z);
    const Day = z.enum(["monday", "tuesday"]);
    expectTypeOf<z.output<typeof Day>>().toEqualTypeOf<"monday" | "tuesday">();
    expect(Day.safeParse("sunday").success).toBe(false);
  });
});
