/** A finished trial's artifacts written, then the trial reduced to its journal line, slim outcome and progress line. */

import type { EvidenceCatalog } from "../judge/evidence";
import { trialOutcome, type TrialOutcome } from "../run/outcome";
import type { TrialRecord } from "../record/trial-record";
import { writeTrialArtifacts, writeTrialArtifactsPaced, type ArtifactPolicy } from "../report/artifacts";
import type { ProgressRecord } from "../report/console";
import type { Redact } from "../services/redact";
import { resultsRow } from "../report/results";
import type { ReferenceTranscript, TrialMedia } from "../trial/index";
import { verboseTrial } from "../report/console";

/**
 * A finished trial, once its per-trial artifacts are written: what the main thread still needs of it —
 * its journal line, its slim outcome (summary, gates), what its progress line says — and nothing of its
 * evidence, so a trial worker sends back a few kilobytes instead of the whole record.
 */
export interface StoredTrial {
  trial_id: string;
  /** The trial's results.json row, as JSON, redacted: one journal line. */
  row: string;
  outcome: TrialOutcome;
  progress: ProgressRecord;
  /** `--verbose`: the transcript and assessments under the progress line. */
  verbose: string | null;
  /** Where conversation.wav was written (relative to the run folder), for --listen. */
  conversation_wav: string | null;
}

export interface StoreSettings {
  runDir: string;
  redact: Redact;
  artifacts: ArtifactPolicy;
  tags: Readonly<Record<string, readonly string[]>>;
  verbose: boolean;
}

/** Write a finished trial's artifacts and reduce it to what the main thread journals and prints. */
export function storeTrial(record: TrialRecord, media: TrialMedia | null, catalog: EvidenceCatalog | null, s: StoreSettings, reference?: ReferenceTranscript): StoredTrial {
  record.artifacts = writeTrialArtifacts(s.runDir, record, media, catalog, s.redact, s.artifacts, reference);
  return slim(record, s);
}

/**
 * The same, with the files written a piece at a time and `pause` between pieces: in real time, the other
 * sessions' audio ticks run between this trial's files (see TrialState.yieldToOtherSessions).
 */
export async function storeTrialPaced(pause: () => Promise<void>, record: TrialRecord, media: TrialMedia | null, catalog: EvidenceCatalog | null, s: StoreSettings, reference?: ReferenceTranscript): Promise<StoredTrial> {
  await pause();
  record.artifacts = await writeTrialArtifactsPaced(pause, s.runDir, record, media, catalog, s.redact, s.artifacts, reference);
  await pause();
  return slim(record, s);
}

/** The trial's journal line, slim outcome and progress line, once its artifacts are written. */
function slim(record: TrialRecord, s: StoreSettings): StoredTrial {
  const { trial_id, status, error, cleanup_errors, assessments, checks } = record;
  return {
    trial_id,
    row: s.redact(JSON.stringify(resultsRow(record, s.tags[record.case_id] ?? []))),
    outcome: trialOutcome(record),
    progress: { trial_id, status, error, ...(cleanup_errors ? { cleanup_errors } : {}), assessments, checks },
    verbose: s.verbose ? verboseTrial(record) : null,
    conversation_wav: record.artifacts.conversation_wav ?? null,
  };
}
