/** The world setup stage: a fresh world for each trial. */

import { createWorld } from "../../world/world";
import { StageError } from "../errors";
import type { TrialState } from "../state";

/** World setup: a fresh world for this trial, from the scenario's initial state and the trial's seed. */
export function setUpWorld(trial: TrialState): void {
  const { spec, clock } = trial;
  try {
    trial.world = createWorld(trial.case.world, { seed: spec.seed, trial: spec.trial_id, initialState: structuredClone(trial.scenario.application.initial_state), now: () => clock.now() });
  } catch (e) {
    throw new StageError("world_setup", e);
  }
}
