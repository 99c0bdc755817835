/**
 * A journal read back as input (resume, merge): every row is checked against the run it claims to belong
 * to — its trial is one of the run's, its seed is the one the run's seed derives for it, its package digest
 * is one the run recorded — and its status is recomputed from its own assessments under the run's gate
 * rules, never trusted. A trial journaled twice (two writers at once, before the folder had a lock) keeps
 * its first row; the rest are reported, not silently merged.
 */
import { trialStatus, type TrialStatus } from "../record/trial-record";
import type { GateConfig } from "../gate/gates";
import { indexJournal, JournalError, JournalReader, type JournalEntry } from "../journal/journal";

export interface JournalExpectations {
  /** The run's trials (its shard's, for a shard) and the seed each must carry. */
  seeds: ReadonlyMap<string, number>;
  /** Package digests the run was started or force-resumed with; null: not recorded (older run folders). */
  package_digests: ReadonlySet<string> | null;
  gate_config: GateConfig;
  /** A forced resume changed the plan: rows of trials no longer in it are left out instead of refused. */
  allow_unplanned: boolean;
  /** What `seeds` holds, for messages: "one of the run's" (default), or e.g. a shard's slice. */
  scope?: string;
}

export interface CheckedJournal {
  /** One entry per trial, the first row of each, in journal order. */
  entries: JournalEntry[];
  /** Later rows of a trial already journaled (left out), by trial id. */
  duplicates: string[];
  /** Rows of trials the (force-changed) plan no longer has (left out). */
  unplanned: string[];
}

interface RowFields {
  seed?: unknown;
  status?: unknown;
  error?: unknown;
  assessments?: unknown;
  provenance?: { parts?: { package?: unknown } };
}

export function checkJournal(path: string, expect: JournalExpectations): CheckedJournal {
  const index = indexJournal(path);
  const seen = new Set<string>();
  const entries: JournalEntry[] = [];
  const duplicates: string[] = [];
  const unplanned: string[] = [];
  if (index.entries.length === 0) return { entries, duplicates, unplanned };
  const reader = new JournalReader(path);
  try {
    index.entries.forEach((entry, i) => {
      const line = `${path}, line ${i + 1} (trial ${entry.trial_id})`;
      const seed = expect.seeds.get(entry.trial_id);
      if (seed === undefined) {
        if (expect.allow_unplanned) return void unplanned.push(entry.trial_id);
        throw new JournalError(`${line}: this trial is not ${expect.scope ?? "one of the run's"}; the journal was edited or holds another run's rows — remove that line (the run folder's other trials are kept)`);
      }
      if (seen.has(entry.trial_id)) return void duplicates.push(entry.trial_id);
      const row = reader.read(entry) as RowFields;
      if (row.seed !== seed) throw new JournalError(`${line}: seed ${String(row.seed)} is not the seed this run gives the trial (${seed}); the row comes from a run with another --seed or was edited — remove that line to run the trial again`);
      const digest = row.provenance?.parts?.package;
      if (expect.package_digests && !(typeof digest === "string" && expect.package_digests.has(digest)))
        throw new JournalError(`${line}: its package digest ${String(digest).slice(0, 19)}… is not the package this run was started with; the row comes from another run or was edited — remove that line to run the trial again`);
      const recomputed = statusOf(row, expect.gate_config);
      if (recomputed === null) throw new JournalError(`${line}: the row has no status, error or assessments a trial row has; the journal was edited or damaged — remove that line to run the trial again`);
      if (recomputed !== row.status)
        throw new JournalError(`${line}: its status says ${String(row.status)} but its assessments say ${recomputed}; a status is never taken on trust — the journal was edited — remove that line to run the trial again`);
      seen.add(entry.trial_id);
      entries.push(entry);
    });
  } finally {
    reader.close();
  }
  return { entries, duplicates, unplanned };
}

/** The status a row's own error and assessments give under the run's gate rules (null: not a trial row). */
function statusOf(row: RowFields, gates: GateConfig): TrialStatus | null {
  if (!Array.isArray(row.assessments) || (row.error !== null && typeof row.error !== "object")) return null;
  const assessments = [];
  for (const a of row.assessments as Array<{ verifier?: unknown; status?: unknown; required?: unknown }>) {
    if (typeof a?.verifier !== "string" || typeof a.status !== "string" || typeof a.required !== "boolean") return null;
    // Whether a verifier counts is the run's rule, not the row's say.
    const required = gates[a.verifier]?.required ?? a.required;
    assessments.push({ required, status: a.status as never });
  }
  return trialStatus(row.error as never, assessments);
}
