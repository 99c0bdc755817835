import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { run } from "../src/core/run/run";
import type { TrialRecord } from "../src/core/record/trial-record";

/** Drop what may differ between runs: wall-clock facts only (the run id is not in a trial record). */
function comparable(r: TrialRecord) {
  const { wall: _wall, ...rest } = r;
  return rest;
}

describe("determinism", () => {
  it("gives identical trial records for one seed, apart from wall time", async () => {
    const a = await run(PLAN, { target: "text_restaurant", seed: 42, repetitions: 2, concurrency: 4 });
    const b = await run(PLAN, { target: "text_restaurant", seed: 42, repetitions: 2, concurrency: 1 });
    expect(a.run_id).not.toBe(b.run_id);
    expect(a.records.map(comparable)).toEqual(b.records.map(comparable));
  });

  it("derives different trial seeds (and reservation ids) from a different run seed", async () => {
    const booking = PLAN.cases.find((c) => c.scenario.expected.state.reservation_created === true)!;
    const a = await run(PLAN, { target: "text_restaurant", seed: 1, selection: { ids: [booking.id] } });
    const b = await run(PLAN, { target: "text_restaurant", seed: 2, selection: { ids: [booking.id] } });
    expect(a.records[0]!.seed).not.toBe(b.records[0]!.seed);
    expect(a.records[0]!.world.view.reservation_id).not.toBe(b.records[0]!.world.view.reservation_id);
    expect(a.records[0]!.provenance.digest).not.toBe(b.records[0]!.provenance.digest);
  });
});
