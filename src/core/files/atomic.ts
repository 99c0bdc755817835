import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** Result folders are private to the user (0700), files 0600 (evaluation-contract §7). */
export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Write a file atomically (temp file + rename): a crash never leaves a half-written artifact. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  ensureDir(dirname(path));
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (error) {
    // A failed write or rename (a folder at `path`, a full or read-only disk) leaves no temp file behind.
    rmSync(tmp, { force: true });
    throw error;
  }
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
    this.fd = openSync(this.tmp, "w", 0o600);
  }

  write(text: string): void {
    const bytes = Buffer.from(text, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd!, bytes, written, bytes.length - written);
  }

  commit(): void {
    closeSync(this.fd!);
    this.fd = null;
    renameSync(this.tmp, this.path);
  }

  abort(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.tmp, { force: true });
  }
}

/**
 * Remove the temp files a stopped writer left under a folder (`<name>.tmp-<pid>`): a file written whole
 * is renamed into place, so a temp file is always an unfinished write. Called by the folder's new writer,
 * which holds its lock, so no live writer's temp file can be among them. Returns them, relative.
 */
export function removeLeftoverTemps(dir: string): string[] {
  const removed: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile() && /\.tmp-\d+$/.test(entry.name)) {
      const path = join(entry.parentPath, entry.name);
      rmSync(path, { force: true });
      removed.push(relative(dir, path));
    }
  return removed.sort();
}
