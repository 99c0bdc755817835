/** Writing files whole (temp file, then rename), making folders one level at a time, clearing killed writers' temp files. */

import { closeSync, constants, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname, join, parse, resolve } from "node:path";
import { reachedTestPoint, testHookArmed } from "./test-hook";

/** Result folders are private to the user (0700), files 0600 (docs/results.md). */
export function ensureDir(dir: string): void {
  makeDirs(dir, 0o700);
}

/**
 * `mkdir -p`, returning the first folder made (undefined when none was). Missing folders are made one level
 * at a time: Node's recursive mkdir never returns under /proc (a path there would hang the command), and
 * says ENOENT when an ancestor cannot be made (a read-only or full disk) where one at a time gives the real
 * error (EROFS, ENOSPC) for the folder it is about.
 */
export function makeDirs(dir: string, mode?: number): string | undefined {
  const options = mode === undefined ? {} : { mode };
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      statSync(at);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || at === parse(at).root) throw error;
      missing.unshift(at);
    }
  }
  for (const at of missing) {
    try {
      mkdirSync(at, options);
    } catch (error) {
      // Made meanwhile by another writer (a trial worker): what was wanted.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  return missing[0];
}

/** O_NOFOLLOW where the platform has it (not on Windows, which has no such links to plant). */
export const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Create a temporary file for writing, exclusively and without following a link: one left by an earlier
 * process with this pid is removed first, and a link planted at its name (to make the write land outside)
 * makes the open fail instead of writing through it.
 */
function openTemp(tmp: string): number {
  rmSync(tmp, { force: true });
  return openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, 0o600);
}

/**
 * Remove a temporary file after a failed write, as far as the disk lets: a file system that turned
 * read-only meanwhile refuses the removal too, and that must not hide the fault that stopped the write (the
 * next `--resume` removes what is left, `removeLeftoverTemps`).
 */
function removeTemp(tmp: string): void {
  try {
    rmSync(tmp, { force: true });
  } catch {
    // left for the next resume
  }
}

function writeAll(fd: number, bytes: Uint8Array, from = 0, to = bytes.length): void {
  let written = from;
  while (written < to) written += writeSync(fd, bytes, written, to - written);
}

/**
 * Write a file atomically (temp file + rename): a crash never leaves a half-written artifact. The rename
 * replaces whatever is at `path`, a link included, and never writes through it.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  ensureDir(dirname(path));
  const tmp = `${path}.tmp-${process.pid}`;
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  try {
    const fd = openTemp(tmp);
    try {
      if (testHookArmed) {
        writeAll(fd, bytes, 0, bytes.length >> 1);
        reachedTestPoint("mid-write", path);
      }
      writeAll(fd, bytes, testHookArmed ? bytes.length >> 1 : 0);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (error) {
    // A failed write or rename (a folder at `path`, a full or read-only disk) leaves no temp file behind.
    removeTemp(tmp);
    throw atPath(error, path);
  }
  reachedTestPoint("after-write", path);
}

/**
 * Give a SystemError the path of the file it was about when the call that raised it had only a file
 * descriptor (`write` says no path): the error then names the file, also where only its message travels
 * (from a trial's worker thread). The message keeps Node's own form, `CODE: text, syscall 'path'`.
 */
export function atPath<T>(error: T, path: string): T {
  const e = error as NodeJS.ErrnoException;
  if (typeof e === "object" && e !== null && typeof e.code === "string" && e.path === undefined) {
    e.path = path;
    if (typeof e.message === "string") e.message = `${e.message} '${path}'`;
  }
  return error;
}

/** Artifact file stem for a trial id: `case#3` → `case.r3` (injective; avoids '#' in URLs and reports). */
export function artifactKey(trialId: string): string {
  const at = trialId.lastIndexOf("#");
  return at < 0 ? trialId : `${trialId.slice(0, at)}.r${trialId.slice(at + 1)}`;
}

/** A file written piece by piece to a temp file and renamed into place on commit (never half-written). */
export class AtomicFileWriter {
  private readonly tmp: string;
  private fd: number | null;
  constructor(readonly path: string) {
    ensureDir(dirname(path));
    this.tmp = `${path}.tmp-${process.pid}`;
    this.fd = openTemp(this.tmp);
  }

  /** A write that fails (a full disk) removes the temp file at once; `abort` after it is harmless. */
  write(text: string): void {
    try {
      writeAll(this.fd!, Buffer.from(text, "utf8"));
    } catch (error) {
      this.abort();
      throw atPath(error, this.path);
    }
  }

  commit(): void {
    const fd = this.fd!;
    // Cleared first: a close that fails (a full disk can surface there) must not be closed twice by abort.
    this.fd = null;
    try {
      closeSync(fd);
      renameSync(this.tmp, this.path);
    } catch (error) {
      this.abort();
      throw atPath(error, this.path);
    }
    reachedTestPoint("after-write", this.path);
  }

  abort(): void {
    const fd = this.fd;
    this.fd = null;
    try {
      if (fd !== null) closeSync(fd);
    } finally {
      removeTemp(this.tmp);
    }
  }
}

/**
 * Remove the temporary files a killed process left in a run folder (`<file>.tmp-<pid>`, anywhere below it):
 * a SIGKILL mid-write leaves one behind, up to a whole conversation.wav, and nothing else ever renames it.
 * Only those of a process that no longer exists are removed: a live process may still be writing its own
 * (a pid reused since keeps its file until a later resume, which costs space, never a file someone is
 * writing). Returns the paths removed.
 */
export function removeLeftoverTemps(runDir: string): string[] {
  const removed: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const pid = /\.tmp-(\d+)$/.exec(entry.name)?.[1];
        if (pid !== undefined && !processLives(Number(pid))) {
          rmSync(path, { force: true });
          removed.push(path);
        }
      }
    }
  };
  walk(runDir);
  return removed;
}

/** Whether a process with this id exists (EPERM: it does, under another user). */
export function processLives(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
