/** The close stage: end the session and require it to finalize cleanly. */

import type { SessionReport, TargetSession } from "../../target/types";
import { StageError, targetFault } from "../errors";
import type { TrialState } from "../state";

/**
 * Close: end the session and require that it finalized cleanly; anything else is an error at
 * `session_close`. When the target had already failed on its own (a limit, a response timeout), the
 * outcome is decided: a failed close is recorded beside it (`cleanup_errors`), never instead of it.
 */
export async function closeSession(trial: TrialState, session: TargetSession): Promise<SessionReport | null> {
  let report: SessionReport;
  try {
    report = await session.close();
  } catch (e) {
    // A target that names its own stage for the failure (a client-delegation service's, `remote_service`) keeps it.
    return closeFailed(trial, new StageError(targetFault(e) ?? "session_close", e));
  }
  trial.log("harness", "session.closed", { closed_cleanly: report.closed_cleanly, reason: report.close_reason ?? null, frontend_seconds: report.frontend_seconds ?? null });
  if (!report.closed_cleanly) return closeFailed(trial, new StageError("session_close", new Error(`the session did not finalize cleanly (${report.close_reason ?? "no session.closed"})`)));
  return report;
}

function closeFailed(trial: TrialState, error: StageError): null {
  if (!trial.targetFailed) throw error;
  const beside = { stage: error.stage, message: error.message };
  trial.cleanupErrors.push(beside);
  trial.log("harness", "cleanup.error", beside);
  return null;
}
