import { describe, expect, expectTypeOf, it } from "vitest";
import { createWorld, definePlan, defineVerifier, defineWorld, OperationError, z, type TrialRecord, type WorldEventRecord } from "../src/alpha/index";
import { restaurantTargets } from "../crashlab/adapters/restaurant-targets";

/**
 * The public surface types cleanly. A package verifier reads world events without a
 * cast, and `PLAN.facts` takes `as const` objects. (`pnpm test` type-checks this file first, so a
 * regression fails the type check; the runtime assertions keep the test honest.)
 */
describe("precise public types", () => {
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

describe("a package needs no zod of its own", () => {
  it("crashlab/alpha re-exports z, the engine's own zod", async () => {
    const zod = await import("zod");
    expect(z).toBe(zod.z);
    const Day = z.enum(["monday", "tuesday"]);
    expectTypeOf<z.output<typeof Day>>().toEqualTypeOf<"monday" | "tuesday">();
    expect(Day.safeParse("sunday").success).toBe(false);
  });
});

describe("a world's operations are typed by their own schemas", () => {
  it("defineWorld infers the state from `state` and each operation's `args` from its `args` schema", () => {
    const State = z.strictObject({ stock: z.record(z.string(), z.int().nonnegative()) });
    const world = defineWorld({
      name: "pantry",
      version: "1.0.0",
      state: State,
      operations: {
        count: {
          kind: "read",
          description: "How many of an item are left.",
          args: z.strictObject({ item: z.string() }),
          run: ({ state, args }) => {
            expectTypeOf(args).toEqualTypeOf<{ item: string }>();
            expectTypeOf(state.stock).toEqualTypeOf<Record<string, number>>();
            return { item: args.item, left: state.stock[args.item] ?? 0 };
          },
        },
        take: {
          kind: "write",
          description: "Take some of an item.",
          args: z.strictObject({ item: z.string(), quantity: z.int().positive().optional() }),
          run: ({ state, base, args }) => {
            expectTypeOf(args).toEqualTypeOf<{ item: string; quantity?: number | undefined }>();
            const left = (base.stock[args.item] ?? 0) - (args.quantity ?? 1);
            if (left < 0) throw new OperationError("not_enough", `only ${base.stock[args.item] ?? 0} ${args.item} left`);
            state.stock[args.item] = left;
            return { item: args.item, left };
          },
        },
      },
    });
    // @ts-expect-error: an argument the schema does not have is a type error inside `run`
    const wrong = defineWorld({ name: "w", version: "1", state: State, operations: { r: { kind: "read", description: "d", args: z.strictObject({ item: z.string() }), run: ({ args }) => args.missing } } });
    expect(wrong.name).toBe("w");

    const pantry = createWorld(world, { seed: 1, trial: "t#1", initialState: { stock: { flour: 2 } }, now: () => 0 });
    const cause = { trial: "t#1" };
    expect(pantry.perform("take", { item: "flour" }, cause)).toMatchObject({ outcome: "ok", result: { item: "flour", left: 1 } });
    expect(pantry.perform("count", { item: "flour" }, cause)).toMatchObject({ outcome: "ok", result: { left: 1 } });
    expect(pantry.perform("take", { item: "flour", quantity: 5 }, cause)).toMatchObject({ outcome: "error", error: { code: "not_enough" } });
  });
});
