/** The machine's faults (disk full, read-only, no permission) told apart from ours, and the one line that reports them. */

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The machine's faults: a full disk, a read-only file system, a permission the process lacks, too many open
 * files. Neither the user's input nor our bug, so neither exit 2's paragraph nor exit 3's stack trace: one
 * line naming the file, the cause in plain words and what to do, exit 3.
 */
export type MachineFaultCode = "ENOSPC" | "EDQUOT" | "EFBIG" | "EROFS" | "EACCES" | "EPERM" | "EMFILE" | "ENFILE" | "EIO";

/**
 * The path's faults: what is at a path is not what the command can use (a loop of links, a folder where a
 * file must be, a file where a folder must be, a pipe with no other end). The user's input, exit 2, said in
 * the same one line — where a command has not said it better itself (a run folder's files are checked
 * before they are read: src/core/run-folder/).
 */
export type PathFaultCode = "ELOOP" | "EISDIR" | "ENOTDIR" | "ENXIO";

const PATH_CAUSES: Record<PathFaultCode, { cause: string; fix: string }> = {
  ELOOP: { cause: "it is a symbolic link loop (the link leads back to itself)", fix: "replace the link with the file itself" },
  EISDIR: { cause: "it is a folder, not a file", fix: "give a file's path, or move the folder away" },
  ENOTDIR: { cause: "a part of its path is a file, not a folder", fix: "give a path whose folders are folders" },
  ENXIO: { cause: "it is a named pipe or a device with nothing at its other end", fix: "give the path of a regular file" },
};

const CAUSES: Record<MachineFaultCode, { cause: string; fix: string }> = {
  ENOSPC: { cause: "the disk is full", fix: "free space" },
  EDQUOT: { cause: "the disk quota is used up", fix: "free space or raise the quota" },
  EFBIG: { cause: "the file would pass the file size limit", fix: "raise the limit (ulimit -f)" },
  EROFS: { cause: "the file system is read-only", fix: "make it writable" },
  EACCES: { cause: "permission denied", fix: "give this user write permission there" },
  EPERM: { cause: "the operation is not permitted", fix: "give this user write permission there" },
  EMFILE: { cause: "too many open files", fix: "raise the limit (ulimit -n) or lower --concurrency" },
  ENFILE: { cause: "the system has too many open files", fix: "close other programs or raise the system's limit" },
  EIO: { cause: "the disk reported an input/output error", fix: "check the disk" },
};

export interface MachineFault {
  code: MachineFaultCode | PathFaultCode;
  /** 3 for the machine's faults, 2 for a path's (the user's input). */
  exit_code: 2 | 3;
  /** The file the operation was on; a temporary file is named by the file it was to become. */
  path: string | null;
  syscall: string | null;
  cause: string;
  fix: string;
}

/** Node's SystemError shape: `code`, `syscall`, and `path` when the call took one. */
export function machineFault(error: unknown): MachineFault | null {
  if (typeof error !== "object" || error === null) return null;
  const { code, path, syscall } = error as NodeJS.ErrnoException;
  if (typeof code !== "string" || !Object.hasOwn(CAUSES, code)) return null;
  return { code: code as MachineFaultCode, exit_code: 3, path: typeof path === "string" ? finalName(path) : null, syscall: syscall ?? null, ...CAUSES[code as MachineFaultCode] };
}

/** A path's fault (ELOOP, EISDIR, ENOTDIR, ENXIO) in the same shape, exit 2; null for anything else. */
export function pathFault(error: unknown): MachineFault | null {
  if (typeof error !== "object" || error === null) return null;
  const { code, path, syscall } = error as NodeJS.ErrnoException;
  if (typeof code !== "string" || !Object.hasOwn(PATH_CAUSES, code)) return null;
  return { code: code as PathFaultCode, exit_code: 2, path: typeof path === "string" ? finalName(path) : null, syscall: syscall ?? null, ...PATH_CAUSES[code as PathFaultCode] };
}

/** `x.wav.tmp-1234` (what an atomic write writes first) is `x.wav` to the user. */
function finalName(path: string): string {
  return path.replace(/\.tmp-\d+$/, "");
}

/**
 * A machine fault read back from an error's message in Node's form (`ENOSPC: no space left on device,
 * write '/x'`): what arrives from a worker thread whose trial could not be written.
 */
export function machineFaultInMessage(message: string): MachineFault | null {
  const m = /\b(E[A-Z]+): [^,]*, (\w+)(?: '(.*)')?/.exec(message);
  if (!m) return null;
  return machineFault(Object.assign(new Error(message), { code: m[1], syscall: m[2], ...(m[3] !== undefined ? { path: m[3] } : {}) }));
}

/** A machine fault as an error to rethrow, so the CLI's catch prints it as one. */
export function machineFaultError(fault: MachineFault): Error {
  return Object.assign(new Error(`${fault.code}: ${fault.cause}, ${fault.syscall ?? "write"}${fault.path ? ` '${fault.path}'` : ""}`), { code: fault.code, syscall: fault.syscall ?? "write", ...(fault.path ? { path: fault.path } : {}) });
}

/** How far below its run folder a run folder's file lies at most (`audio/<trial>/conversation.wav`). */
const RUN_FOLDER_DEPTH = 3;

/**
 * The run folder a path lies in: the nearest folder holding run.json within the depth of a run folder's own
 * layout. Nothing further up is looked at, so a stray run.json in a parent of the results folder is never
 * taken for this run's.
 */
function runFolderOf(path: string): string | null {
  let dir = dirname(path);
  for (let level = 0; level < RUN_FOLDER_DEPTH; level++, dir = dirname(dir)) {
    if (existsSync(join(dir, "run.json"))) return dir;
    if (dirname(dir) === dir) return null;
  }
  return null;
}

const READS = new Set(["read", "scandir", "opendir", "stat", "lstat", "fstat", "readlink", "realpath", "access"]);

/**
 * The one line the user sees (without the `crashlab: ` prefix). For `run`, a fault inside a run folder
 * that has its run.json is resumable: the journal keeps every trial that finished, so the line says how.
 */
export function machineFaultLine(fault: MachineFault, command: string | undefined): string {
  const verb = fault.exit_code === 2 ? "use" : fault.syscall && READS.has(fault.syscall) && !["ENOSPC", "EDQUOT", "EFBIG", "EROFS"].includes(fault.code) ? "read" : fault.syscall === "open" && ["EACCES", "EPERM", "EMFILE", "ENFILE"].includes(fault.code) ? "open" : "write";
  const what = fault.path ?? "a file";
  const fix = verb !== "write" && (fault.code === "EACCES" || fault.code === "EPERM") ? "give this user access to it" : fault.fix;
  let then: string;
  const runDir = command === "run" && fault.path && fault.exit_code === 3 ? runFolderOf(fault.path) : null;
  if (runDir) then = `${fix} and resume with crashlab run --resume ${runDir}`;
  else if (command) then = `${fix} and run crashlab ${command} again`;
  else then = fix;
  return `cannot ${verb} ${what}: ${fault.cause}; ${then}`;
}
