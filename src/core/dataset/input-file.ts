/**
 * Reading a file a user named (a dataset, a recording): only a regular file, and only up to a size
 * known before reading. `/dev/zero`, a FIFO or a 5 GB file would otherwise be read until memory runs
 * out — or, for a FIFO without a writer, forever. Synchronous, so a PLAN can be built at import time.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";

export type InputFileProblem = "missing" | "not_a_file" | "too_large" | "unreadable";

/** Why a file was not read; callers turn it into their own error naming the dataset, scenario and field. */
export class InputFileError extends Error {
  override readonly name = "InputFileError";
  constructor(
    readonly problem: InputFileProblem,
    readonly path: string,
    /** What the file is or why it cannot be read, as a phrase ("a directory", "5.0 GB, more than the 64 MiB allowed"). */
    readonly detail: string,
  ) {
    super(`${path}: ${detail}`);
  }
}

/** The file's bytes, or an InputFileError; never reads more than `maxBytes`. */
export function readInputFile(path: string, maxBytes: number): Buffer {
  // stat first: it never blocks, where opening a FIFO would wait for a writer.
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw fromErrno(path, error);
  }
  requireRegular(path, stats, maxBytes);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw fromErrno(path, error);
  }
  try {
    // The file may have been swapped or grown since the stat: check what was opened, and never read past the limit.
    const opened = fstatSync(fd);
    requireRegular(path, opened, maxBytes);
    // Read to the end, in pieces: some regular files (under /proc) report size 0 and still hold text.
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(opened.size - length + 1, 1 << 16), maxBytes + 1 - length));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      length += n;
      if (length > maxBytes) throw new InputFileError("too_large", path, `it grew past ${formatBytes(maxBytes)} while being read; that is the most accepted`);
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw fromErrno(path, error);
  } finally {
    closeSync(fd);
  }
}

function requireRegular(path: string, stats: import("node:fs").Stats, maxBytes: number): void {
  if (!stats.isFile()) throw new InputFileError("not_a_file", path, `it is ${kindOf(stats)}, not a regular file`);
  if (stats.size > maxBytes) throw new InputFileError("too_large", path, `it is ${formatBytes(stats.size)}, more than the ${formatBytes(maxBytes)} accepted`);
}

function kindOf(stats: import("node:fs").Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  return "not a regular file";
}

function fromErrno(path: string, error: unknown): InputFileError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return new InputFileError("missing", path, "the file does not exist");
  if (code === "ELOOP") return new InputFileError("unreadable", path, "it is a loop of symbolic links");
  return new InputFileError("unreadable", path, `the file cannot be read (${code ?? String(error)})`);
}

/** "64 MiB", "5.0 GiB": sizes as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes >= 2 ** 30) return `${(bytes / 2 ** 30).toFixed(1)} GiB`;
  if (bytes % 2 ** 20 === 0 && bytes > 0) return `${bytes / 2 ** 20} MiB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} kB`;
  return `${bytes} bytes`;
}
