/** The session start stage: the target's session opened with its configuration and the caller's authorized context. */

import type { Scenario } from "../../dataset/schema";
import type { TargetSession } from "../../target/types";
import { StageError, targetFault } from "../errors";
import { sessionIO } from "../session-io";
import type { TrialState } from "../state";

/**
 * Session start: the target's own configuration, labelled with the trial id, plus the caller's
 * authorized context; nothing evaluator-only. The session reaches the trial only through its SessionIO.
 *
 * `callerAudio` is for offline targets only: the simulator has no recognizer, so the session request tells
 * it the words of these exact bytes (its stand-in for speech recognition); nothing crosses the wire, live
 * targets ignore it.
 */
export async function startSession(trial: TrialState, callerAudio?: { pcm: Uint8Array; text: string }): Promise<TargetSession> {
  const { target } = trial.ctx;
  const scenario = trial.scenario;
  const base = target.session();
  try {
    trial.session = await target.start(
      { ...base, session_label: trial.spec.trial_id, ...(scenario.input.context ? { context: callerContext(scenario) } : {}), ...(callerAudio ? { caller_audio: callerAudio } : {}) },
      sessionIO(trial),
    );
  } catch (e) {
    // A target that names the stage of its failure keeps it (a client-delegation service's: `remote_service`).
    throw new StageError(targetFault(e) ?? "session_start", e);
  }
  return trial.session;
}

/** The caller input of a case, copied so the target never holds a reference into the scenario. */
function callerContext(scenario: Scenario) {
  return scenario.input.context ? structuredClone(scenario.input.context) : undefined;
}
