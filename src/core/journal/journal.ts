/**
 * The run's journal: `trials.jsonl` in the run folder, one line per finished trial (its results.json
 * row), appended as the trial ends and then released from memory. Summaries, gates, results.json,
 * junit.xml and the report are built from it afterwards; resume and merge read it too.
 *
 * A line is written with one append (O_APPEND, one buffer), so a process killed at any moment leaves
 * whole lines and at most one torn last line without its newline — which readers ignore, and which a
 * resumed run cuts off before it appends.
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { basename, dirname } from "node:path";
import { atPath, O_NOFOLLOW } from "../files/atomic";
import { reachedTestPoint } from "../files/test-hook";
import { openRunFile, openRunFileForAppend } from "../run-folder/files";
import { UserError } from "../user-error";

export const JOURNAL_FILE = "trials.jsonl";

/** A journal that cannot be read: names the file and the line. */
export class JournalError extends UserError {
  override readonly name = "JournalError";
}

/** Where one trial's line sits in the journal. */
export interface JournalEntry {
  trial_id: string;
  case_id: string;
  status: string;
  offset: number;
  length: number;
}

/** Rows appended by this process, for the test hook's `journal:<n>` point. */
let appended = 0;

/** Open a journal inside its run folder: never through a link, never a file that is not a regular one. */
const openIn = (path: string) => openRunFile(dirname(path), basename(path));

export class JournalWriter {
  private fd: number;
  constructor(readonly path: string) {
    this.fd = openRunFileForAppend(dirname(path), basename(path)).fd;
  }

  /** Append one trial's row as one line (the caller has redacted it). */
  appendLine(json: string): void {
    if (json.includes("\n")) throw new Error("a journal line cannot hold a newline");
    const bytes = Buffer.from(json + "\n", "utf8");
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
    } catch (error) {
      // A full disk: the error names the journal (a torn last line is cut off on resume).
      throw atPath(error, this.path);
    }
    reachedTestPoint("journal", ++appended);
  }

  /** Close the file; a second call does nothing (a run's session closes it on every way out). */
  close(): void {
    if (this.fd < 0) return;
    closeSync(this.fd);
    this.fd = -1;
  }
}

/** The journal's whole lines; `torn_bytes` counts the bytes of a last line that has no newline yet. */
export interface JournalIndex {
  path: string;
  entries: JournalEntry[];
  /** Byte length of the whole lines (where a resumed run appends). */
  complete_bytes: number;
  torn_bytes: number;
}

const CHUNK = 1 << 20;

/** Scan a journal line by line (bounded memory: one line at a time is parsed and dropped). */
export function indexJournal(path: string): JournalIndex {
  const file = openIn(path);
  if (!file) return { path, entries: [], complete_bytes: 0, torn_bytes: 0 };
  const fd = file.fd;
  const entries: JournalEntry[] = [];
  let pending: Buffer[] = [];
  let pendingStart = 0;
  let position = 0;
  let lineNo = 0;
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, position);
      if (n === 0) break;
      let from = 0;
      for (;;) {
        const nl = buffer.indexOf(10, from);
        if (nl < 0 || nl >= n) break;
        pending.push(buffer.subarray(from, nl));
        const line = Buffer.concat(pending);
        lineNo++;
        entries.push(entryOf(path, lineNo, line, pendingStart));
        pending = [];
        from = nl + 1;
        pendingStart = position + from;
      }
      if (from < n) pending.push(Buffer.from(buffer.subarray(from, n)));
      position += n;
    }
  } finally {
    closeSync(fd);
  }
  const torn = pending.reduce((s, b) => s + b.length, 0);
  return { path, entries, complete_bytes: position - torn, torn_bytes: torn };
}

function entryOf(path: string, lineNo: number, line: Buffer, offset: number): JournalEntry {
  let row: { trial_id?: unknown; case_id?: unknown; status?: unknown };
  try {
    row = JSON.parse(line.toString("utf8"));
  } catch (error) {
    throw new JournalError(`${path}, line ${lineNo}: not a JSON trial row (${(error as Error).message}); the journal was edited or damaged`);
  }
  if (typeof row?.trial_id !== "string" || typeof row.case_id !== "string" || typeof row.status !== "string")
    throw new JournalError(`${path}, line ${lineNo}: a trial row needs trial_id, case_id and status; the journal was edited or damaged`);
  return { trial_id: row.trial_id, case_id: row.case_id, status: row.status, offset, length: line.length };
}

/** Reads rows back by position, in whatever order the caller needs (e.g. the plan's). */
export class JournalReader {
  private fd: number;
  constructor(readonly path: string) {
    const file = openIn(path);
    if (!file) throw new JournalError(`${path} is missing: it was removed while it was read`);
    this.fd = file.fd;
  }

  read(entry: JournalEntry): unknown {
    const buffer = Buffer.allocUnsafe(entry.length);
    let got = 0;
    while (got < entry.length) {
      const n = readSync(this.fd, buffer, got, entry.length - got, entry.offset + got);
      if (n === 0) throw new JournalError(`${this.path} ended before the row of ${entry.trial_id}; the journal changed while it was read`);
      got += n;
    }
    return JSON.parse(buffer.toString("utf8"));
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Cut a torn last line off (a run killed mid-append), so the next append starts a whole line. */
export function trimTornLine(index: JournalIndex): void {
  if (index.torn_bytes === 0) return;
  const fd = openSync(index.path, constants.O_RDWR | O_NOFOLLOW);
  try {
    if (fstatSync(fd).size > index.complete_bytes) ftruncateSync(fd, index.complete_bytes);
  } finally {
    closeSync(fd);
  }
}
