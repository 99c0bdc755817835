import type { CaseDefinition } from "./case";
import type { TrialContext, TrialOutcome } from "./context";
import { runSingleTurnTrial } from "./single-turn/driver";

type Driver = (ctx: TrialContext) => Promise<TrialOutcome>;

/** Each kind of case and the driver that runs it. RUN cases have no driver of their own yet: they run as one turn. */
const DRIVERS: Record<CaseDefinition["kind"], Driver> = {
  crawl: runSingleTurnTrial,
  walk: runSingleTurnTrial,
  run: runSingleTurnTrial,
};

/**
 * Run one trial — fresh world, fresh session, the caller's input, then grading — with its case's driver.
 * Never throws: every outcome ends in a trial record with one of the four statuses.
 */
export function runTrial(ctx: TrialContext): Promise<TrialOutcome> {
  return DRIVERS[ctx.spec.case.kind](ctx);
}
