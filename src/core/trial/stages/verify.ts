/** The verify stage: the deterministic grading of what a trial observed. */

import { lexiconOf } from "../../language/vocabulary";
import { grade, type Grading, type GradingInput } from "../../verify/deterministic";
import type { ProcedureResult } from "../../record/trial-record";
import type { ProcedureCallerLine } from "../../verify/procedure";
import { accessRecords } from "../../verify/disclosure";
import type { TrialState } from "../state";
import type { Observation } from "./measure";

/** A trial's deterministic grading, with the input it was made from (the judge stage regrades from it). */
export type Verification = Grading & { input: GradingInput };

/** Verify: the deterministic grading (dimensions, outcome checks, tool and delegation accuracy) of what was observed. */
export function verify(trial: TrialState, observed: Observation, caller?: readonly ProcedureCallerLine[]): Verification {
  const input: GradingInput = {
    scenario: trial.scenario,
    case_kind: trial.case.kind,
    completed: observed.completed,
    completion_note: observed.completion_note,
    turns: observed.turns,
    delegations: observed.delegations,
    tool_executions: trial.tools,
    operation_kinds: Object.fromEntries(Object.entries(trial.case.world.operations).map(([name, op]) => [name, op.kind])),
    ...access(trial, observed),
    ...(caller ? { caller } : {}),
    ...(trial.ctx.facts ? { facts: trial.ctx.facts } : {}),
    lexicon: lexiconOf(trial.case.world),
    world: {
      initial: observed.world.initial,
      final: observed.world.final,
      view: observed.world.view,
      events: observed.world.events,
      diff: observed.world.diff,
      ...(observed.world.reported_by ? { reported_by: observed.world.reported_by } : {}),
    },
  };
  const grading = grade(input);
  const cutShort = !observed.completed && trial.error === null && (trial.limitHit !== null || trial.timedOut !== null);
  const note = cutShort ? limitAfterProcedure(observed.completion_note, grading.procedure) : null;
  // The note is part of the input, so the judge stage's regrade states it too.
  if (note === null) return { ...grading, input };
  const noted = { ...input, completion_note: note };
  return { ...grade(noted), input: noted };
}

/**
 * A limit that cut the conversation after every procedure step had passed says exactly that: the task's
 * steps were done, the conversation ran out of time (or turns) while closing. Null otherwise.
 */
export function limitAfterProcedure(note: string, procedure: ProcedureResult | null): string | null {
  const steps = procedure?.steps ?? [];
  if (steps.length === 0 || steps.some((s) => s.status !== "passed")) return null;
  return `${note} — hit after every procedure step had passed (${steps.length} of ${steps.length}: ${steps.map((s) => s.id).join(", ")})`;
}

/** The world's records at the start with who may read them, when the world declares access. */
function access(trial: TrialState, observed: Observation): { access?: GradingInput["access"] } {
  const records = accessRecords(trial.case.world.access, observed.world.initial);
  return records === null ? {} : { access: records };
}
