/** Matching an expected state against the trial's final world. */

import { jsonEqual, matchesSubset } from "./match";

/** The world as grading sees it: initial and final state, plus the package's view of the final state. */
export interface WorldStates {
  initial: unknown;
  final: unknown;
  view: Record<string, unknown>;
}

/**
 * Match an expected state (docs/datasets.md `expected.state`, or a procedure `state` step's arguments) against the final
 * world: a subset of `{...final, ...view}`, or, with `{"unchanged": true}`, final equal to initial exactly
 * (any other fields still matched as a subset).
 */
export function matchState(expected: Record<string, unknown>, world: WorldStates, diffLength: number): { ok: boolean; rationale: string } {
  if (expected.unchanged === true) {
    const { unchanged: _ignored, ...rest } = expected;
    const same = jsonEqual(world.initial, world.final);
    const restOk = matchesSubset(rest, { ...(world.final as object), ...world.view });
    return same && restOk
      ? { ok: true, rationale: "final state equals the initial state" }
      : { ok: false, rationale: same ? "final state does not match the expected fields" : `state changed (${diffLength} patch operations) but was expected unchanged` };
  }
  const observed = { ...(world.final as object), ...world.view } as Record<string, unknown>;
  const mismatched = Object.entries(expected)
    .filter(([key, value]) => !(key in observed) || !matchesSubset(value, observed[key]))
    .map(([key, value]) => `${key}: expected ${JSON.stringify(value)}, observed ${JSON.stringify(observed[key] ?? null)}`);
  return mismatched.length === 0 ? { ok: true, rationale: "final state matches the expected fields" } : { ok: false, rationale: `final state differs: ${mismatched.join("; ")}` };
}
