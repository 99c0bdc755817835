/**
 * Where generate-audio may write (docs/results.md file modes). Generated WAVs live under the output
 * dataset's `audio/` folder and nowhere else; a destination that escapes it, passes through or is a
 * symbolic link, or is not a plain file is refused before anything is written. Writes are atomic
 * (a fresh temporary file, then rename) with 0600 files and 0700 folders.
 */
import { randomUUID } from "node:crypto";
import { atPath, makeDirs } from "../files/atomic";
import { lstatSync, renameSync, rmSync, writeFileSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { UserError } from "../user-error";

export type DestinationErrorCode = "traversal" | "symlink" | "not_a_file" | "collision" | "source_overwrite" | "unowned";

/** A write generate-audio refuses to make; says which path and why, and what to do instead. */
export class DestinationError extends UserError {
  override readonly name = "DestinationError";
  constructor(
    readonly code: DestinationErrorCode,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/** The folder every generated WAV of an output dataset lives in. */
export function audioFolder(outputDataset: string): string {
  return join(dirname(resolve(outputDataset)), "audio");
}

/**
 * The absolute destination of a dataset-relative recording path, refused unless it is a `.wav`
 * strictly inside the output dataset's audio folder.
 */
export function audioDestination(outputDataset: string, recordingPath: string): string {
  const folder = audioFolder(outputDataset);
  const absolute = isAbsolute(recordingPath) ? resolve(recordingPath) : resolve(dirname(resolve(outputDataset)), recordingPath);
  const inside = relative(folder, absolute);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside) || inside.split(sep).includes("..")) {
    throw new DestinationError(
      "traversal",
      absolute,
      `refusing to write ${recordingPath}: generated recordings must stay inside ${folder}${sep} (the output dataset's audio folder); fix the recording path in the output dataset or choose another --output-data`,
    );
  }
  if (!absolute.toLowerCase().endsWith(".wav")) {
    throw new DestinationError("not_a_file", absolute, `refusing to write ${recordingPath}: a generated recording's file name must end in .wav`);
  }
  return absolute;
}

/**
 * Refuses a destination (or any folder between the audio folder and it, or the audio folder itself)
 * that is a symbolic link, and an existing destination that is not a regular file. Returns whether
 * the file exists.
 */
export function checkWriteTarget(outputDataset: string, destination: string): boolean {
  const folder = audioFolder(outputDataset);
  const steps = relative(folder, destination).split(sep);
  let at = folder;
  for (let i = -1; i < steps.length; i++) {
    if (i >= 0) at = join(at, steps[i]!);
    const stats = lstatOrUndefined(at);
    if (!stats) return false; // nothing further down exists yet
    if (stats.isSymbolicLink()) {
      throw new DestinationError(
        "symlink",
        at,
        `refusing to write ${destination}: ${at} is a symbolic link, and generated audio is never written through a link; replace the link with a real ${i === steps.length - 1 ? "file" : "folder"} or choose another --output-data`,
      );
    }
    const last = i === steps.length - 1;
    if (!last && !stats.isDirectory()) throw new DestinationError("not_a_file", at, `refusing to write ${destination}: ${at} is not a folder`);
    if (last && !stats.isFile()) throw new DestinationError("not_a_file", at, `refusing to write ${destination}: it exists and is not a regular file`);
  }
  return true;
}

/** The output dataset file itself: never a link, never a folder. Returns its stats when it exists. */
export function checkDatasetTarget(outputDataset: string): Stats | undefined {
  const stats = lstatOrUndefined(outputDataset);
  if (stats?.isSymbolicLink()) {
    throw new DestinationError("symlink", outputDataset, `refusing to write ${outputDataset}: it is a symbolic link; write the dataset to a real file path with --output-data`);
  }
  if (stats && !stats.isFile()) throw new DestinationError("not_a_file", outputDataset, `refusing to write ${outputDataset}: it exists and is not a regular file`);
  return stats;
}

/** Atomic write: a new temporary file beside the target (created exclusively, 0600), then rename. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  makeDirs(dirname(path), 0o700);
  const temporary = join(dirname(path), `.${basename(path)}.${randomUUID()}.tmp`);
  try {
    writeFileSync(temporary, data, { mode: 0o600, flag: "wx" });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    // Named by the file it was to become, not the temporary one.
    const e = error as NodeJS.ErrnoException;
    if (typeof e?.code === "string" && e.path === temporary) e.path = path;
    throw atPath(error, path);
  }
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
