import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
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
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) {
        hash.update(relative(packageDir, path)).update("\u0000").update(readFileSync(path)).update("\u0000");
        files++;
      }
    }
  };
  walk(packageDir);
  if (lockfile) {
    try {
      hash.update("lockfile\u0000").update(readFileSync(lockfile));
    } catch {
      hash.update("lockfile\u0000missing");
    }
  }
  return { digest: hash.digest("hex"), files };
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
