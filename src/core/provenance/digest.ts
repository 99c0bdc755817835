/** Digests behind a trial's provenance: of the package, the git state, the inputs and the settings. */

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Provenance } from "../record/trial-record";

export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** JSON with sorted keys, so a digest does not depend on property order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]))
      : v,
  );
}

const IGNORED_DIRS = new Set(["node_modules", ".git", "results", ".audio_cache", "dist"]);

/**
 * Digest of an evaluation package: every file under its folder (sorted relative paths and contents)
 * plus the lockfile, so any edit to the package or its dependencies changes every trial's digest.
 */
export function packageDigest(packageDir: string, lockfile?: string): { digest: string; files: number } {
  const hash = createHash("sha256");
  let files = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (IGNORED_DIRS.has(name)) continue;
      const path = join(dir, name);
      const link = lstatSync(path).isSymbolicLink();
      let stat;
      try {
        stat = statSync(path);
      } catch {
        hash.update(relative(packageDir, path)).update("\u0000dangling link\u0000");
        continue;
      }
      // A linked folder is named, not entered: links can form cycles. Only regular files are read
      // (a FIFO or device would never end).
      if (stat.isDirectory() && link) hash.update(relative(packageDir, path)).update(`\u0000link to ${readlinkSync(path)}\u0000`);
      else if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) {
        hash.update(relative(packageDir, path)).update("\u0000");
        hashFile(hash, path);
        hash.update("\u0000");
        files++;
      }
    }
  };
  walk(packageDir);
  if (lockfile) {
    try {
      hash.update("lockfile\u0000");
      hashFile(hash, lockfile);
    } catch {
      hash.update("missing");
    }
  }
  return { digest: hash.digest("hex"), files };
}

/** A file's bytes into the hash, a megabyte at a time: a large file in the package costs time, never memory. */
function hashFile(hash: ReturnType<typeof createHash>, path: string): void {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

export interface GitState {
  commit: string | null;
  dirty: boolean | null;
}

/** Git commit and dirty flag of the folder, where git is available; nulls otherwise. */
export function gitState(dir: string): GitState {
  try {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    const status = execFileSync("git", ["status", "--porcelain", "--", "."], { cwd: dir, stdio: ["ignore", "pipe", "ignore"] }).toString();
    return { commit, dirty: status.trim().length > 0 };
  } catch {
    return { commit: null, dirty: null };
  }
}

export interface ProvenanceInputs {
  package_digest: string;
  crashlab_version: string;
  target: unknown;
  scenario: unknown;
  /** The exact input delivered: caller audio bytes, or the text for text-level targets. */
  input: string | Uint8Array;
  seed: number;
  limits: unknown;
  git: GitState;
}

/** The per-trial provenance digest (architecture, "Identity, provenance, reproducibility"). */
export function provenanceDigest(inputs: ProvenanceInputs): Provenance {
  const parts = {
    package: inputs.package_digest,
    crashlab_version: inputs.crashlab_version,
    target: sha256(canonicalJson(inputs.target)),
    scenario: sha256(canonicalJson(inputs.scenario)),
    input: sha256(inputs.input),
    seed: inputs.seed,
    limits: sha256(canonicalJson(inputs.limits)),
  };
  return {
    digest: sha256(canonicalJson(parts)),
    parts,
    git: { commit: inputs.git.commit, dirty: inputs.git.dirty },
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}
