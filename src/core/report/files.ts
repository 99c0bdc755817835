import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Result folders are private to the user (0700), files 0600 (evaluation-contract §7). */
export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Write a file atomically (temp file + rename): a crash never leaves a half-written artifact. */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  ensureDir(dirname(path));
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data, { mode: 0o600 });
  renameSync(tmp, path);
}

/** Artifact file stem for a trial id: `case#3` → `case.r3` (injective; avoids '#' in URLs and reports). */
export function artifactKey(trialId: string): string {
  const at = trialId.lastIndexOf("#");
  return at < 0 ? trialId : `${trialId.slice(0, at)}.r${trialId.slice(at + 1)}`;
}
