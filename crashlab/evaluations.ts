/**
 * crashlab's own evaluation package for the restaurant assistant, written exactly as a user would write
 * one: it imports only `crashlab/alpha` (and the application under test in examples/restaurant).
 */
import { converse, crawl, definePlan, loadDataset, responsiveness, walk, yieldsToInterruption } from "crashlab/alpha";
import { RESTAURANT_FACTS } from "../examples/restaurant/facts";
import { restaurantTargets } from "./adapters/restaurant-targets";
import { noDoubleBooking } from "./verifiers/no-double-booking";
import { restaurantWorld } from "./worlds/restaurant";

const crawlData = loadDataset(new URL("./data/crawl.json", import.meta.url));
// WALK fixtures generated from crawl.json by `crashlab generate-audio` (scripts/make-walk-fixtures.sh).
const walkData = loadDataset(new URL("./data/walk.json", import.meta.url));
// RUN conversations: a simulated caller pursues each scenario's agenda in one full-duplex call.
const runData = loadDataset(new URL("./data/run.json", import.meta.url));

export const PLAN = definePlan({
  name: "restaurant",
  targets: restaurantTargets(),
  default_target: "restaurant",
  cases: [
    ...crawl(crawlData, { world: restaurantWorld }),
    ...walk(walkData, { world: restaurantWorld }),
    ...converse(runData, { world: restaurantWorld }),
  ],
  // Latency budgets per trial. The correct assistant answers within 1.3 s on every bundled case (measured
  // offline: P90 and slowest ≤ 1,300 ms), so these leave ample room and still fail an assistant that
  // waits 6 s before every answer.
  verifiers: [noDoubleBooking, yieldsToInterruption, responsiveness({ p90_ms: 2500, max_ms: 4000, max_unanswered: 0 })],
  // Public facts the semantic judge may cite (`fact.<key>`); evaluator-only data never goes here.
  facts: RESTAURANT_FACTS,
  // Two trials at once: each has its own world, session and virtual clock, so results do not depend on it.
  defaults: { concurrency: 2 },
  gates: {
    // Every required check, `no_disclosure` among them: the restaurant world declares who may read which
    // reservation (crashlab/worlds/restaurant.ts, `access`), so no trial may tell a caller another guest's.
    outcome: { required: true, min_pass_rate: 1 },
    no_double_booking: { required: true, min_pass_rate: 1 },
    yields_to_interruption: { required: true, min_pass_rate: 1 },
    responsiveness: { required: true, min_pass_rate: 1 },
  },
});
