/**
 * A run folder's files, read and written only inside it. A run folder is input: it is downloaded from CI,
 * shared, edited, and may hold links planted to make a reader read, serve or write a file elsewhere. So a
 * path taken from a run folder (a file it holds, an artifact path in results.json, reviews.jsonl) is
 * resolved by its real path and must lie inside the folder; `..` segments, absolute paths, links out of the
 * folder and anything but a regular file are refused, naming the file (docs/results.md, "What readers
 * refuse"). Reads open without following a last link and without blocking on a FIFO, and check that the
 * file opened is the file checked; writes never go through a link: folders on the way must be real folders,
 * a file is appended to only when opened with O_NOFOLLOW, and a whole file is written to a temporary file
 * opened exclusively, then renamed into place.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, statSync, writeSync, type Stats } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { atPath, O_NOFOLLOW, writeFileAtomic } from "../files/atomic";
import { ARTIFACT_PATH } from "../record/trial-record";
import { shown } from "./text";
import { UserError } from "../user-error";

/** A run folder, or a file in it, that cannot be used: one paragraph naming the file and the fix (exit 2). */
export class RunFolderError extends UserError {
  override readonly name = "RunFolderError";
}

const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** What a path is, in words, for a message: "a folder", "a named pipe (FIFO)", … */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a named pipe (FIFO)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSymbolicLink()) return "a symbolic link";
  return st.isFile() ? "a file" : "not a regular file";
}

const code = (error: unknown) => (error as NodeJS.ErrnoException)?.code;

/** A SystemError made to name the file as the user knows it (a machine fault's line names that path). */
function named<T>(error: T, path: string): T {
  const e = error as NodeJS.ErrnoException;
  if (typeof e === "object" && e !== null && typeof e.code === "string") e.path = path;
  return error;
}

/** Why `rel` is not a plain path inside a folder, or null: the rule artifact paths follow (record/). */
export function pathProblem(rel: string): string | null {
  if (typeof rel !== "string" || rel === "") return "is empty";
  if (rel.length > 1024) return `is ${rel.length} characters long, more than a run folder's paths (1024)`;
  if (rel.startsWith("/") || /^[A-Za-z]:/.test(rel)) return "is absolute";
  if (rel.split(/[/\\]/).some((s) => s === "..")) return "has a '..' segment";
  if (!ARTIFACT_PATH.test(rel)) return "is not a plain relative path (segments joined by /, none empty or '.', no backslash, colon or control character)";
  return null;
}

const inside = (root: string, real: string) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);

/** The run folder's own real path (it may itself be reached through a link: the user named it). */
function rootOf(runDir: string): string {
  try {
    const root = realpathSync(runDir);
    if (!statSync(root).isDirectory()) throw new RunFolderError(`${runDir} is not a folder: pass one run's folder, e.g. results/<run-id>`);
    return root;
  } catch (error) {
    if (error instanceof RunFolderError) throw error;
    if (code(error) === "ENOENT" || code(error) === "ENOTDIR") throw new RunFolderError(`${runDir} is not a folder: pass one run's folder, e.g. results/<run-id>`);
    if (code(error) === "ELOOP") throw new RunFolderError(`${runDir} is a loop of symbolic links: pass one run's folder, e.g. results/<run-id>`);
    throw named(error, runDir);
  }
}

/** A file of the run folder where it really is; `path` is how the user knows it (the folder they named, then `rel`). */
interface Located {
  path: string;
  real: string;
}

function checkedRel(runDir: string, rel: string): void {
  const problem = pathProblem(rel);
  if (problem) throw new RunFolderError(`${runDir}: the path ${JSON.stringify(shown(rel))} ${problem}; a run folder's files are named by plain paths inside it, so nothing outside it is read — the run folder was edited: run again`);
}

/** The first link on the way to `rel` whose target does not exist, or null when the path is plainly missing. */
function danglingLink(root: string, rel: string): { at: string; to: string } | null {
  let at = root;
  for (const part of rel.split("/")) {
    at = join(at, part);
    let st: Stats;
    try {
      st = lstatSync(at);
    } catch {
      return null;
    }
    if (st.isSymbolicLink()) {
      try {
        statSync(at);
      } catch {
        return { at, to: readlinkSync(at) };
      }
    }
  }
  return null;
}

/**
 * Resolve `rel` in the run folder by its real path: null when there is nothing there; a RunFolderError for
 * a link to nothing, a loop of links, a path whose real place is outside the folder or runs through a file.
 */
function locate(runDir: string, rel: string): Located | null {
  checkedRel(runDir, rel);
  const root = rootOf(runDir);
  const path = join(runDir, rel);
  let real: string;
  try {
    real = realpathSync(join(root, rel));
  } catch (error) {
    if (code(error) === "ENOENT") {
      const link = danglingLink(root, rel);
      if (link)
        throw new RunFolderError(`${join(runDir, link.at.slice(root.length + 1))} is a symbolic link to nothing (${shown(link.to)}): the run folder is damaged — put the file itself back, or run again`);
      return null;
    }
    if (code(error) === "ELOOP") throw new RunFolderError(`${path} is a symbolic link loop (it leads back to itself): the run folder is damaged — replace the link with the file itself, or run again`);
    if (code(error) === "ENOTDIR") throw new RunFolderError(`${path} cannot be read: a part of its path is a file, not a folder; the run folder is damaged — run again`);
    throw named(error, path);
  }
  if (!inside(root, real))
    throw new RunFolderError(
      `${path} leads out of the run folder (a symbolic link to ${shown(real)}): crashlab reads a run folder's files only inside it — copy the file itself into the folder in place of the link, or run again`,
    );
  return { path, real };
}

/** A run folder's file, open for reading: checked to be a regular file inside the folder. */
export interface RunFile {
  /** The file as the user knows it (the run folder they named, then the relative path). */
  path: string;
  fd: number;
  stats: Stats;
  close(): void;
}

/**
 * Open a file of the run folder for reading, or null when it does not exist. Refused with a RunFolderError:
 * a path that is not plain (absolute, `..`), a link out of the folder, to nothing or to itself, and anything
 * that is not a regular file (a folder, a FIFO, a device). The machine's faults (no permission to read)
 * are thrown as they are, naming the file, so the CLI says them as such.
 */
export function openRunFile(runDir: string, rel: string): RunFile | null {
  const at = locate(runDir, rel);
  if (!at) return null;
  let before: Stats;
  let fd: number;
  try {
    before = lstatSync(at.real);
    // Without blocking: a FIFO would otherwise hold the open until something writes to it.
    fd = openSync(at.real, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    if (code(error) === "ENOENT") return null;
    if (code(error) === "ELOOP") throw changed(at.path);
    throw named(error, at.path);
  }
  const stats = fstatSync(fd);
  if (stats.dev !== before.dev || stats.ino !== before.ino) {
    closeSync(fd);
    throw changed(at.path);
  }
  if (!stats.isFile()) {
    closeSync(fd);
    throw new RunFolderError(`${at.path} is ${kindOf(stats)}, not a file: the run folder is damaged or was edited — move it away, or run again`);
  }
  return { path: at.path, fd, stats, close: () => closeSync(fd) };
}

const changed = (path: string) => new RunFolderError(`${path} changed while it was opened (a symbolic link took its place): crashlab reads a run folder's files only inside it — run again`);

/** The checks of `openRunFile` without reading: the file's size and times, or null when it does not exist. */
export function statRunFile(runDir: string, rel: string): { path: string; stats: Stats } | null {
  const file = openRunFile(runDir, rel);
  if (!file) return null;
  file.close();
  return { path: file.path, stats: file.stats };
}

export interface ReadLimit {
  /** The most bytes the file may hold. */
  bytes: number;
  /** What such a file is, and what to do about one that large: "a reviews.jsonl (…)". */
  what: string;
}

const size = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(n >= 10 << 20 ? 0 : 1)} MB` : `${n} bytes`);

/** A file of the run folder, whole (through `openRunFile`'s checks), or null when it does not exist; at most `limit.bytes`. */
export function readRunFile(runDir: string, rel: string, limit: ReadLimit): Buffer | null {
  const file = openRunFile(runDir, rel);
  if (!file) return null;
  try {
    if (file.stats.size > limit.bytes) throw new RunFolderError(`${file.path} is ${size(file.stats.size)}, more than the ${size(limit.bytes)} ${limit.what}`);
    const buffer = Buffer.allocUnsafe(file.stats.size);
    let got = 0;
    while (got < buffer.length) {
      const n = readSync(file.fd, buffer, got, buffer.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return buffer.subarray(0, got);
  } catch (error) {
    throw error instanceof RunFolderError ? error : atPath(error, file.path);
  } finally {
    file.close();
  }
}

/**
 * The folder `relDir` inside the run folder, made (0700) where missing; every folder on the way must be a
 * real folder — a link there would carry the write out of the run folder. Returns its real path.
 */
function folderForWriting(runDir: string, root: string, relDir: string): string {
  let at = root;
  let shownAt = runDir;
  for (const part of relDir === "." ? [] : relDir.split("/")) {
    at = join(at, part);
    shownAt = join(shownAt, part);
    let st: Stats;
    try {
      st = lstatSync(at);
    } catch (error) {
      if (code(error) !== "ENOENT") throw named(error, shownAt);
      try {
        mkdirSync(at, { mode: 0o700 });
      } catch (made) {
        // Made meanwhile by another writer (a trial worker): checked below like any other.
        if (code(made) !== "EEXIST") throw named(made, shownAt);
      }
      st = lstatSync(at);
    }
    if (st.isSymbolicLink()) throw refusedWrite(shownAt, "is a symbolic link", "crashlab writes into a run folder only through its own folders — replace the link with a real folder");
    if (!st.isDirectory()) throw refusedWrite(shownAt, `is ${kindOf(st)}, not a folder`, "move it away");
  }
  return at;
}

const refusedWrite = (path: string, what: string, fix: string) => new RunFolderError(`${path} ${what}: nothing was written through it; ${fix}, then run the command again`);

/** Where a file of the run folder is written: its real folder checked, the file itself not a link nor anything but a file. */
function writablePath(runDir: string, rel: string): { path: string; real: string } {
  checkedRel(runDir, rel);
  const root = rootOf(runDir);
  const real = join(folderForWriting(runDir, root, dirname(rel)), basename(rel));
  const path = join(runDir, rel);
  let st: Stats | null = null;
  try {
    st = lstatSync(real);
  } catch (error) {
    if (code(error) !== "ENOENT") throw named(error, path);
  }
  if (st?.isSymbolicLink()) throw refusedWrite(path, "is a symbolic link", "remove the link");
  if (st && !st.isFile()) throw refusedWrite(path, `is ${kindOf(st)}, not a file`, "move it away");
  return { path, real };
}

/**
 * Write a file of the run folder whole (a temporary file opened exclusively without following links, then
 * renamed into place), never through a link. Returns the path as the user knows it.
 */
export function writeRunFile(runDir: string, rel: string, data: string | Uint8Array): string {
  const { path, real } = writablePath(runDir, rel);
  try {
    writeFileAtomic(real, data);
  } catch (error) {
    throw named(error, path);
  }
  return path;
}

/** A file of the run folder open for appending: the descriptor and the size it had when opened. */
export interface AppendFile {
  path: string;
  fd: number;
  size: number;
}

/**
 * Open a file of the run folder for appending (made, 0600, when missing), with O_NOFOLLOW: a link at its
 * name — to a file outside, to nothing, to itself — is refused, also one planted after the checks. The
 * file opened must be a regular file and the one at its name.
 */
export function openRunFileForAppend(runDir: string, rel: string): AppendFile {
  const { path, real } = writablePath(runDir, rel);
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o600);
  } catch (error) {
    if (code(error) === "ELOOP") throw refusedWrite(path, "is a symbolic link", "remove the link");
    if (code(error) === "EISDIR") throw refusedWrite(path, "is a folder, not a file", "move it away");
    throw named(error, path);
  }
  const stats = fstatSync(fd);
  let now: Stats | null = null;
  try {
    now = lstatSync(real);
  } catch {
    now = null;
  }
  if (!stats.isFile() || !now || now.dev !== stats.dev || now.ino !== stats.ino) {
    closeSync(fd);
    throw refusedWrite(path, stats.isFile() ? "changed while it was opened" : `is ${kindOf(stats)}, not a file`, "move it away");
  }
  return { path, fd, size: stats.size };
}

/**
 * Append one line to a file of the run folder with one write (two writers at once each add a whole line);
 * a file whose last line lacks its newline (edited by hand) gets it first.
 */
export function appendRunLine(runDir: string, rel: string, line: string): string {
  const file = openRunFileForAppend(runDir, rel);
  try {
    let lead = "";
    if (file.size > 0) {
      const last = Buffer.alloc(1);
      readSync(file.fd, last, 0, 1, file.size - 1);
      if (last[0] !== 0x0a) lead = "\n";
    }
    const bytes = Buffer.from(`${lead}${line}\n`, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(file.fd, bytes, written, bytes.length - written);
  } catch (error) {
    throw atPath(error, file.path);
  } finally {
    closeSync(file.fd);
  }
  return file.path;
}

/**
 * Every artifact the trials name, checked as `openRunFile` checks a file, without reading it: a run folder
 * holding a link out of it, or a FIFO where an artifact should be, is refused by every command that reads
 * its results.json (docs/results.md, "What readers refuse"). A missing artifact is not refused here: the
 * report names it.
 */
export function checkArtifacts(runDir: string, trials: Iterable<{ artifacts: Readonly<Record<string, string>> }>): void {
  for (const t of trials) for (const rel of Object.values(t.artifacts)) statRunFile(runDir, rel);
}

/** A file found under a folder of the run folder: its path relative to the run folder, and where it really is. */
export interface ListedFile {
  rel: string;
  real: string;
}

/**
 * Every file under `relDir` (none when it does not exist), each checked as `openRunFile` checks one: a
 * link is followed only to a file inside the run folder, never to a folder (which could loop), and
 * anything but files and folders is refused.
 */
export function listRunFiles(runDir: string, relDir: string): ListedFile[] {
  const top = locate(runDir, relDir);
  if (!top) return [];
  const st = statSync(top.real);
  if (!st.isDirectory()) throw new RunFolderError(`${top.path} is ${kindOf(st)}, not a folder: the run folder is damaged — run again`);
  const out: ListedFile[] = [];
  const walk = (rel: string, real: string) => {
    let names: string[];
    try {
      names = readdirSync(real).sort();
    } catch (error) {
      throw named(error, join(runDir, rel));
    }
    for (const name of names) {
      const child = `${rel}/${name}`;
      const lst = lstatSync(join(real, name));
      if (lst.isDirectory()) walk(child, join(real, name));
      else if (lst.isFile()) out.push({ rel: child, real: join(real, name) });
      else if (lst.isSymbolicLink()) {
        const at = locate(runDir, child);
        if (!at) throw new RunFolderError(`${join(runDir, child)} is a symbolic link to nothing: the run folder is damaged — put the file itself back, or run again`);
        const target = statSync(at.real);
        if (!target.isFile()) throw new RunFolderError(`${at.path} is a symbolic link to ${kindOf(target)}: a run folder's links may lead only to files inside it — replace it with the folder itself, or run again`);
        out.push({ rel: child, real: at.real });
      } else throw new RunFolderError(`${join(runDir, child)} is ${kindOf(lst)}, not a file: a run folder holds only files and folders — remove it, or run again`);
    }
  };
  walk(relDir, top.real);
  return out;
}
