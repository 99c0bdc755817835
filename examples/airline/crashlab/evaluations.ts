/**
 * An airline-rebooking evaluation package, written with the public API only (`crashlab/alpha` and zod):
 * the application under test is in the folder above (tools, instructions, offline policy).
 */
import { converse, crawl, definePlan, loadDataset } from "crashlab/alpha";
import { AIRLINE_FACTS } from "../facts";
import { airlineTargets } from "./adapters/targets";
import { airlineWorld } from "./worlds/airline";

const crawlData = loadDataset(new URL("./data/crawl.json", import.meta.url));
// RUN conversations: a simulated caller pursues each scenario's agenda in one full-duplex call.
const runData = loadDataset(new URL("./data/run.json", import.meta.url));

export const PLAN = definePlan({
  name: "airline",
  targets: airlineTargets(),
  default_target: "airline",
  cases: [...crawl(crawlData, { world: airlineWorld }), ...converse(runData, { world: airlineWorld })],
  // Public facts the assistant may state without a tool; evaluator-only data never goes here.
  facts: AIRLINE_FACTS,
  gates: { outcome: { required: true, min_pass_rate: 1 } },
});
