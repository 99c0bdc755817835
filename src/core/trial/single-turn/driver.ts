/** The single-turn driver (CRAWL and WALK): one caller turn, the target's response, then grading. */

import type { TrialContext, TrialResult } from "../context";
import { closeSession } from "../stages/close";
import { untilComplete } from "../stages/completion";
import { judge } from "../stages/judge";
import { measure } from "../stages/measure";
import { draftRecord, finishRecord } from "../stages/record";
import { startSession } from "../stages/session-start";
import { verify } from "../stages/verify";
import { setUpWorld } from "../stages/world-setup";
import { TrialState } from "../state";
import { prepareCallerInput, textInput, type CallerInput } from "./caller-input";
import { deliverAudio, deliverText, responseTimeout } from "./deliver";
import { ResponseCompletion } from "./response-completion";

/**
 * The single-turn driver (CRAWL and WALK): one caller turn — the scenario's text for a text-level
 * target; synthesized speech or the case's recording for an audio target — and the target's response.
 * Never throws: every outcome, unexpected exceptions included, ends in a record with one of the four statuses.
 */
export async function runSingleTurnTrial(ctx: TrialContext): Promise<TrialResult> {
  const trial = new TrialState(ctx);
  const completion = new ResponseCompletion(trial.audio.chunk_ms, () => trial.assistant.voiced());
  trial.observe(completion);
  let input: CallerInput = textInput(trial.scenario);

  await trial.live(async () => {
    setUpWorld(trial);
    input = await prepareCallerInput(trial);
    const caller = input.audio;
    const session = await startSession(trial, caller ? { pcm: caller.pcm, text: trial.scenario.input.text } : undefined);
    const end = await untilComplete(trial, () => (caller ? deliverAudio(trial, session, caller, completion) : deliverText(trial, session)));
    if (end.ended === "target_fault") throw end.error;
    // The target's silence or stall is the target's failure (exit 1), not infrastructure.
    if (end.ended === "response_timeout") trial.timeOut(responseTimeout(trial, completion));
    trial.completed = end.ended === "complete";
    if (trial.worldFault) throw trial.worldFault;
    await closeSession(trial, session);
  });

  await trial.yieldToOtherSessions();
  const observed = await measure(trial, input.audio);
  await trial.yieldToOtherSessions();
  const verification = verify(trial, observed);
  await trial.yieldToOtherSessions();
  const draft = draftRecord(trial, input, observed, verification);
  const assessments = await judge(trial, draft, verification);
  await trial.yieldToOtherSessions();
  return finishRecord(trial, draft, assessments, observed, input.audio);
}
