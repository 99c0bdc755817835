/**
 * A run session owns one run folder while trials are written into it: it creates the folder (or takes
 * an existing one back on resume), holds its lock, writes run.json, checks what the journal already holds
 * against the run, clears what a killed writer left (temp files, a torn last line, duplicate rows) and
 * appends each finished trial. The CLI and the library open the same session, so a run folder is the same
 * whoever wrote it.
 */
import { join, relative } from "node:path";
import { removeLeftoverTemps, writeFileAtomic } from "../files/atomic";
import type { GateConfig } from "../gate/gates";
import { indexJournal, JOURNAL_FILE, JournalReader, JournalWriter, trimTornLine, type JournalEntry, type JournalIndex } from "../journal/journal";
import { RUN_META_VERSION, writeRunMeta, type RunMeta } from "../journal/run-meta";
import { createRunFolder } from "../report/results-folder";
import type { TrialRef } from "../run/run";
import type { RunSettings } from "../settings/schema";
import { checkJournal, type CheckedJournal } from "./journal-check";
import { lockRunFolder, type FolderLock } from "./lock";
import type { PackageIdentity } from "../provenance/package-files";

export interface SessionStart {
  /** Where a new run's folder is made (absolute). */
  results_dir: string;
  run_id: string;
  plan_digest: string;
  package_digest: string;
  /** What of the package ran (its files, lockfile, dependencies, git state): run.json keeps it. */
  package?: PackageIdentity;
  seed: number;
  /** This run's (this shard's) trials, in order. */
  trials: readonly TrialRef[];
  /** A shard's place and the whole plan's trial ids; null for an unsharded run. */
  shard: { index: number; count: number; plan_trials: string[] } | null;
  gate_config: GateConfig;
  /** The command line the run was started with, for people (the library has none). */
  argv: string[];
  /** The resolved settings: what a resume runs with. */
  settings: RunSettings;
  cwd?: string;
  /** Take back the folder of this run instead of making one. */
  resume: { dir: string; meta: RunMeta } | null;
}

export class RunSession {
  readonly journal: JournalWriter;
  private constructor(
    readonly dir: string,
    readonly meta: RunMeta,
    /** Trials the journal already holds (a resumed run does not run them again). */
    readonly finished: ReadonlySet<string>,
    /** What taking the folder back repaired, for the user to read. */
    readonly notes: readonly string[],
    private readonly lock: FolderLock,
  ) {
    this.journal = new JournalWriter(join(dir, JOURNAL_FILE));
  }

  static open(start: SessionStart): RunSession {
    // A resumed run's journal is checked before anything in its folder changes (the lock included), so a
    // journal refused leaves the folder exactly as it was.
    const checked = start.resume ? checkOldJournal(start.resume.dir, start.resume.meta, start) : null;
    const dir = start.resume ? start.resume.dir : createRunFolder(start.results_dir, start.run_id);
    const lock = lockRunFolder(dir);
    try {
      const notes: string[] = [];
      if (lock.recovered) notes.push(`${dir}: took over the lock left by process ${lock.recovered.pid}, which is no longer running`);
      let finished = new Set<string>();
      let meta: RunMeta;
      if (start.resume && checked) {
        const old = start.resume.meta;
        const temps = removeLeftoverTemps(dir);
        if (temps.length > 0) notes.push(`removed ${temps.length} temporary file(s) a stopped run left in ${dir} (${temps.slice(0, 2).map((t) => relative(dir, t)).join(", ")}${temps.length > 2 ? ", …" : ""})`);
        finished = repairJournal(dir, checked, notes);
        meta = { ...old, resumes: [...old.resumes, { at: new Date().toISOString(), forced: old.plan_digest !== start.plan_digest, plan_digest: start.plan_digest, package_digest: start.package_digest }] };
      } else
        meta = {
          run_meta_version: RUN_META_VERSION,
          run_id: start.run_id,
          started_at: new Date().toISOString(),
          plan_digest: start.plan_digest,
          package_digest: start.package_digest,
          ...(start.package ? { package: start.package } : {}),
          seed: start.seed,
          argv: start.argv,
          settings: start.settings,
          ...(start.cwd !== undefined ? { cwd: start.cwd } : {}),
          resumes: [],
          ...(start.shard ? { shard: { index: start.shard.index, count: start.shard.count, trials: start.trials.map((t) => t.trial_id) }, plan_trials: start.shard.plan_trials } : {}),
        };
      writeRunMeta(dir, meta);
      return new RunSession(dir, meta, finished, notes, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  get journalPath(): string {
    return this.journal.path;
  }

  /** Append one finished trial's row (redacted) to the journal. */
  append(row: string): void {
    this.journal.appendLine(row);
  }

  /** Stop writing: close the journal and give the folder's lock back (every way a session ends). */
  close(): void {
    try {
      this.journal.close();
    } finally {
      this.lock.release();
    }
  }
}

/** The journal of a resumed run, checked row by row against the run (reading only). */
function checkOldJournal(dir: string, old: RunMeta, start: SessionStart): CheckedJournal & { index: JournalIndex } {
  const path = join(dir, JOURNAL_FILE);
  const index = indexJournal(path);
  const digests = old.package_digest ? new Set([old.package_digest, ...old.resumes.flatMap((r) => (r.forced && r.package_digest ? [r.package_digest] : [])), ...(old.plan_digest !== start.plan_digest ? [start.package_digest] : [])]) : null;
  const checked = checkJournal(path, {
    seeds: new Map(start.trials.map((t) => [t.trial_id, t.seed])),
    package_digests: digests,
    gate_config: start.gate_config,
    allow_unplanned: old.plan_digest !== start.plan_digest,
  });
  return { ...checked, index };
}

/**
 * What a stopped writer left in the journal, repaired by the folder's new writer (which holds the lock):
 * a torn last line (a kill mid-append) is cut; rows a second writer added for trials already journaled
 * are dropped, and the journal rewritten without them. Returns the trials it finished.
 */
function repairJournal(dir: string, checked: CheckedJournal & { index: JournalIndex }, notes: string[]): Set<string> {
  const path = join(dir, JOURNAL_FILE);
  const { index } = checked;
  if (index.torn_bytes > 0) notes.push(`${path}: cut off the last line, torn by a stop (${index.torn_bytes} bytes)`);
  trimTornLine(index);
  if (checked.duplicates.length > 0) {
    rewriteJournal(path, [...checked.entries, ...firstOf(index.entries, checked.unplanned)]);
    notes.push(`${path}: kept the first row of ${new Set(checked.duplicates).size} trial(s) journaled more than once by writers at the same time, dropped ${checked.duplicates.length} later row(s) (${[...new Set(checked.duplicates)].slice(0, 3).join(", ")})`);
  }
  return new Set(checked.entries.map((e) => e.trial_id));
}

function firstOf(entries: readonly JournalEntry[], ids: readonly string[]): JournalEntry[] {
  const want = new Set(ids);
  return entries.filter((e) => want.delete(e.trial_id));
}

/** The journal with only the given rows, in journal order, replaced whole (temp file, then rename). */
function rewriteJournal(path: string, keep: readonly JournalEntry[]): void {
  const reader = new JournalReader(path);
  try {
    const lines = [...keep].sort((a, b) => a.offset - b.offset).map((e) => JSON.stringify(reader.read(e)) + "\n");
    writeFileAtomic(path, lines.join(""));
  } finally {
    reader.close();
  }
}
