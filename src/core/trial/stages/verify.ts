import { grade, type Grading, type GradingInput } from "../../verify/deterministic";
import type { TrialState } from "../state";
import type { Observation } from "./measure";

/** A trial's deterministic grading, with the input it was made from (the judge stage regrades from it). */
export type Verification = Grading & { input: GradingInput };

/** Verify: the §5 deterministic grading (dimensions, outcome checks, tool and delegation accuracy) of what was observed. */
export function verify(trial: TrialState, observed: Observation): Verification {
  const input: GradingInput = {
    scenario: trial.scenario,
    case_kind: trial.case.kind,
    completed: observed.completed,
    completion_note: observed.completion_note,
    turns: observed.turns,
    delegations: observed.delegations,
    tool_executions: trial.tools,
    ...(trial.ctx.facts ? { facts: trial.ctx.facts } : {}),
    world: { initial: observed.world.initial, final: observed.world.final, view: observed.world.view, events: observed.world.events, diff: observed.world.diff },
  };
  return { ...grade(input), input };
}
