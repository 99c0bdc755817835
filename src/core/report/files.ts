import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { dirname, parse, resolve } from "node:path";

/**
 * Result folders are private to the user (0700), files 0600. Missing folders are made one level at a
 * time: a recursive mkdir under /proc never returns, so a path there would hang the command.
 */
export function ensureDir(dir: string): void {
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
      mkdirSync(at, { mode: 0o700 });
    } catch (error) {
      // Made meanwhile by another writer (a trial worker): what was wanted.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
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
