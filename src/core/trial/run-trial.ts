/** One trial run with its case kind's driver: CRAWL and WALK one caller turn, RUN a whole conversation. */

import type { CaseDefinition } from "./case";
import type { TrialContext, TrialResult } from "./context";
import { runConversationTrial } from "./conversation/driver";
import { runSingleTurnTrial } from "./single-turn/driver";

type Driver = (ctx: TrialContext) => Promise<TrialResult>;

/** Each kind of case and the driver that runs it: one caller turn (CRAWL, WALK), or a whole conversation (RUN). */
const DRIVERS: Record<CaseDefinition["kind"], Driver> = {
  crawl: runSingleTurnTrial,
  walk: runSingleTurnTrial,
  run: runConversationTrial,
};

/**
 * Run one trial — fresh world, fresh session, the caller's input, then grading — with its case's driver.
 * Never throws: every outcome ends in a trial record with one of the four statuses.
 */
export function runTrial(ctx: TrialContext): Promise<TrialResult> {
  return DRIVERS[ctx.spec.case.kind](ctx);
}
