import { datasetCases, definePlan, loadDataset } from "crashlab/alpha";
import { shopTargets } from "./adapters/targets";
import { SHOP_FACTS } from "./facts";
import { oneBookingPerCall } from "./verifiers/one-booking-per-call";
import { shopWorld } from "./worlds/shop";

// Every scenario of a dataset becomes the case its shape calls for: a single-turn scenario is a CRAWL case
// (its words synthesized), one with recordings a WALK case per recording, a multi-turn one a RUN call.
const datasets = ["crawl.json", "walk.json", "run.json"].map((file) => loadDataset(new URL(`./data/${file}`, import.meta.url)));

export const PLAN = definePlan({
  name: "bike-shop",
  targets: shopTargets(),
  default_target: "assistant",
  cases: datasets.flatMap((data) => datasetCases(data, { world: shopWorld })),
  verifiers: [oneBookingPerCall],
  // Public facts the semantic judge may cite; never put expected answers here.
  facts: SHOP_FACTS,
  gates: {
    outcome: { required: true, min_pass_rate: 1 },
    one_booking_per_call: { required: true, min_pass_rate: 1 },
  },
});
