/** The completion stage: a driver's input delivery run under the trial's time limit, and how it ended. */

import { StageError, targetFault } from "../errors";
import type { TrialState } from "../state";

/** What a driver's input delivery reports when it returns: its completion rule held, or time ran out. */
export type DeliveryEnd = "complete" | "response_timeout";

/** How the conversation part of a trial ended. */
export type CompletionOutcome =
  /** The driver's completion rule held (see `untilComplete` for the one other way to get here). */
  | { ended: "complete" }
  /** No complete response within the driver's response timeout. */
  | { ended: "response_timeout" }
  /** A limit was hit or the world failed (`trial.limitHit`, `trial.worldFault`): delivery was stopped. */
  | { ended: "stopped" }
  /** The target failed: an exception from its session, or a fatal error it reported at its own stage. */
  | { ended: "target_fault"; error: StageError };

/**
 * Completion: run the driver's delivery under the trial's time limit and say how it ended. The time
 * limit runs from session start until the delivery ends; its timer is cancelled then, while the trial's
 * stop signal stays for real stops (a limit, a world fault), so a finished session can still close.
 *
 * A stop also cancels the timer, and when the cancelled timer settles first the delivery counts as
 * complete; the limit hit is still on the trial, so grading sees the conversation as not completed.
 */
export async function untilComplete(trial: TrialState, deliver: () => Promise<DeliveryEnd | void>): Promise<CompletionOutcome> {
  const limit = armTimeLimit(trial);
  try {
    const delivered = await Promise.race([deliver(), limit.expired]);
    if (delivered === "response_timeout") return trial.stopped ? { ended: "stopped" } : { ended: "response_timeout" };
    return { ended: "complete" };
  } catch (e) {
    if (trial.stopped) return { ended: "stopped" };
    return { ended: "target_fault", error: e instanceof StageError ? e : new StageError(targetFault(e) ?? "respond", e) };
  } finally {
    limit.disarm();
  }
}

/** The time limit: `expired` rejects with the limit hit when it passes, and resolves once disarmed. */
function armTimeLimit(trial: TrialState): { expired: Promise<undefined>; disarm: () => void } {
  const { clock } = trial;
  const done = new AbortController();
  trial.signal.addEventListener("abort", () => done.abort(), { once: true });
  const expired = clock.sleep(trial.limits.time_ms, done.signal).then(
    () => {
      throw trial.exceed("time_ms", clock.now());
    },
    () => undefined,
  );
  return { expired, disarm: () => done.abort() };
}
