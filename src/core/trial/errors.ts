/** A trial's errors: a limit hit (the target's fault, a failure) told apart from a stage's failure (infrastructure). */

import type { LimitUsage } from "../record/trial-record";

/** A trial limit was hit: the target's own doing, so the trial fails (it is not an infrastructure error). */
export class LimitExceeded extends Error {
  constructor(
    readonly limit: NonNullable<LimitUsage["exceeded"]>,
    readonly value: number,
  ) {
    super(`limit ${limit} exceeded (${value})`);
    this.name = "LimitExceeded";
  }
}

/** An unexpected failure at a named stage of the trial: becomes `infrastructure_error`. */
export class StageError extends Error {
  constructor(
    readonly stage: string,
    fault: unknown,
  ) {
    super(errorMessage(fault), { cause: fault });
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** A target that reports a fatal protocol or provider error names its own stage (e.g. `protocol`, `provider`). */
export function targetFault(error: unknown): string | undefined {
  const stage = (error as { stage?: unknown })?.stage;
  return typeof stage === "string" && /^[a-z_]+$/.test(stage) ? stage : undefined;
}
