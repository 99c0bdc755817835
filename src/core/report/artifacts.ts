import { join } from "node:path";
import type { TrialRecord } from "../run/record";
import { artifactKey, redactSecrets, writeFileAtomic } from "./files";

/**
 * Per-trial artifacts of evaluation-contract §7 that exist at every level: the event log (no audio
 * payloads, secrets redacted) and the transcript file (tool executions, world diff, checks, grades).
 * Returns the artifact paths relative to the run folder.
 */
export function writeTrialArtifacts(runDir: string, record: TrialRecord): Record<string, string> {
  const key = artifactKey(record.trial_id);
  const events = `events/${key}.jsonl`;
  const transcript = `transcripts/${key}.json`;
  writeFileAtomic(join(runDir, events), record.events.map((e) => JSON.stringify(redactSecrets(e))).join("\n") + (record.events.length ? "\n" : ""));
  const detail = {
    trial_id: record.trial_id,
    status: record.status,
    error: record.error,
    turns: record.turns,
    delegations: record.delegations,
    tool_executions: record.tool_executions,
    world: record.world,
    dimensions: record.dimensions,
    checks: record.checks,
    assessments: record.assessments,
    semantic_grades: record.assessments.filter((a) => a.kind === "semantic"),
    limits: record.limits,
    provenance: record.provenance,
  };
  writeFileAtomic(join(runDir, transcript), JSON.stringify(redactSecrets(detail), null, 2) + "\n");
  return { events, transcript };
}
