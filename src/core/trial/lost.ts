/** The record of a trial lost outside itself (its worker thread died), read and graded like any errored trial. */

import { machineFaultError, machineFaultInMessage } from "../files/machine-fault";
import { sha256 } from "../provenance/digest";
import type { TrialContext, TrialResult } from "./context";
import { StageError } from "./errors";
import { judge } from "./stages/judge";
import { measure } from "./stages/measure";
import { draftRecord, finishRecord } from "./stages/record";
import { verify } from "./stages/verify";
import { setUpWorld } from "./stages/world-setup";
import { TrialState } from "./state";

/**
 * The record of a trial whose run was lost outside the trial itself (the worker thread running it died):
 * `infrastructure_error` at `stage` with `message`, built by the same record stages as every trial
 * (world set up, nothing delivered, nothing said), so it reads and grades like any other errored trial.
 */
export async function lostTrial(ctx: TrialContext, stage: string, message: string): Promise<TrialResult> {
  // A trial whose files could not be written (a full or read-only disk) is not the trial's error: it stops the
  // run, like the same fault in the main thread, rather than journal an infrastructure_error and go on.
  const fault = machineFaultInMessage(message);
  if (fault) throw machineFaultError(fault);
  const trial = new TrialState(ctx);
  await trial.live(async () => {
    setUpWorld(trial);
    throw new StageError(stage, new Error(message));
  });
  const observed = await measure(trial, null);
  const verification = verify(trial, observed);
  const kind = ctx.spec.case.kind === "run" ? "simulated" : !ctx.target.accepts.includes("audio") ? "text" : ctx.spec.case.recording ? "recording" : "synthetic";
  // Nothing reached the target: the input's digest is that of no bytes.
  const draft = draftRecord(trial, { record: { kind, sha256: sha256(""), duration_ms: null }, digest_input: "" }, observed, verification);
  const assessments = await judge(trial, draft, verification);
  return finishRecord(trial, draft, assessments, observed, null);
}
