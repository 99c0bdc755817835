import type { SessionReport, TargetSession } from "../../target/types";
import { StageError } from "../errors";
import type { TrialState } from "../state";

/** Close: end the session and require that it finalized cleanly; anything else is an error at `session_close`. */
export async function closeSession(trial: TrialState, session: TargetSession): Promise<SessionReport> {
  let report: SessionReport;
  try {
    report = await session.close();
  } catch (e) {
    throw new StageError("session_close", e);
  }
  trial.log("harness", "session.closed", { closed_cleanly: report.closed_cleanly, reason: report.close_reason ?? null, frontend_seconds: report.frontend_seconds ?? null });
  if (!report.closed_cleanly) throw new StageError("session_close", new Error(`the session did not finalize cleanly (${report.close_reason ?? "no session.closed"})`));
  return report;
}
