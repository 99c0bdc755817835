/**
 * What of a package ran, as data: every module it loaded (outside node_modules) with its content hash,
 * the lockfile, the versions its dependencies resolved to, and the git state of every repository those
 * files live in. Computed once per run, in the thread that loaded the package (docs/results.md, "Provenance").
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { canonicalJson, sha256 } from "./hash";

/** One file that ran: its path relative to the repository root (`/`-separated) and the sha256 of its bytes. */
export interface PackageFile {
  path: string;
  sha256: string;
}

/** One repository holding a loaded file: its commit, and the loaded files that differ from it. */
export interface RepositoryState {
  /** The repository's folder, relative to the package's repository root ("." for that one). */
  root: string;
  commit: string | null;
  dirty: boolean | null;
  /** Loaded files (and, for the package's repository, files under the package folder) not as committed. */
  changed: string[];
}

export interface GitState {
  /** The commit of the repository that holds the package folder. */
  commit: string | null;
  /** Whether any file that ran (in any repository) differs from its commit; null without git. */
  dirty: boolean | null;
  repositories?: RepositoryState[];
}

export interface PackageIdentity {
  /** sha256 over the files, the lockfile and the resolved dependency versions. */
  digest: string;
  /** The folder paths are relative to: the git repository holding the package, else the folder with its lockfile or package.json, else the package folder. */
  root: string;
  /** The package folder, relative to `root`. */
  package_dir: string;
  files: PackageFile[];
  lockfile: PackageFile | null;
  /** The package's declared dependencies and the versions found under node_modules (null: not installed). */
  dependencies: Record<string, string | null>;
  git: GitState;
}

const LOCKFILES = ["pnpm-lock.yaml", "package-lock.json", "yarn.lock", "bun.lock"];

/** The nearest folder at or above `dir` for which `holds` is true; null at the file system's root. */
function upward(dir: string, holds: (folder: string) => boolean): string | null {
  for (let current = resolve(dir); ; ) {
    if (holds(current)) return current;
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

const gitRoot = (dir: string) => upward(dir, (d) => existsSync(join(d, ".git")));

export function findLockfile(dir: string): string | undefined {
  const folder = upward(dir, (d) => LOCKFILES.some((name) => existsSync(join(d, name))));
  return folder ? join(folder, LOCKFILES.find((name) => existsSync(join(folder, name)))!) : undefined;
}

const slash = (path: string) => path.split(sep).join("/");
const hashOf = (file: string) => sha256(readFileSync(file));

/** Declared dependencies of the package's nearest package.json and the version each resolved to. */
function dependencyVersions(packageDir: string): Record<string, string | null> {
  const folder = upward(packageDir, (d) => existsSync(join(d, "package.json")));
  if (!folder) return {};
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
  const names = [manifest.dependencies, manifest.devDependencies, manifest.optionalDependencies].flatMap((d) => (d && typeof d === "object" ? Object.keys(d) : []));
  const versions: Record<string, string | null> = {};
  for (const name of [...new Set(names)].sort()) {
    const at = upward(folder, (d) => existsSync(join(d, "node_modules", name, "package.json")));
    let version: string | null = null;
    if (at) {
      try {
        const v = (JSON.parse(readFileSync(join(at, "node_modules", name, "package.json"), "utf8")) as { version?: unknown }).version;
        version = typeof v === "string" ? v : null;
      } catch {
        version = null;
      }
    }
    versions[name] = version;
  }
  return versions;
}

const git = (cwd: string, args: string[]) => execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 << 20 }).toString();

/**
 * The git state of every repository holding a file that ran. A repository is dirty when one of those
 * files (or, in the package's own repository, anything under the package folder) is modified, staged,
 * deleted or untracked; the files that are say which.
 */
export function repositoriesState(packageDir: string, files: readonly string[], root: string): GitState {
  const byRepo = new Map<string, string[]>();
  const packageRepo = gitRoot(packageDir);
  if (packageRepo) byRepo.set(packageRepo, [packageDir]);
  for (const file of files) {
    const repo = gitRoot(dirname(file));
    if (!repo) continue;
    (byRepo.get(repo) ?? byRepo.set(repo, []).get(repo)!).push(file);
  }
  const repositories: RepositoryState[] = [];
  for (const [repo, paths] of [...byRepo].sort(([a], [b]) => a.localeCompare(b))) {
    let state: RepositoryState = { root: slash(relative(root, repo)) || ".", commit: null, dirty: null, changed: [] };
    try {
      const commit = git(repo, ["rev-parse", "HEAD"]).trim();
      // -z: names exactly as stored, whatever characters they hold; --no-renames: each path on its own.
      const status = git(repo, ["status", "--porcelain", "-z", "--no-renames", "--untracked-files=all", "--", ...paths.map((p) => relative(repo, p) || ".")]);
      const changed = status
        .split("\0")
        .filter((entry) => entry.length > 3)
        .map((entry) => slash(relative(root, join(repo, entry.slice(3)))))
        .sort();
      state = { ...state, commit, dirty: changed.length > 0, changed };
    } catch {
      // No git on PATH, or a repository without a commit yet: the state is unknown, not clean.
    }
    repositories.push(state);
  }
  const own = repositories.find((r) => packageRepo && r.root === (slash(relative(root, packageRepo)) || "."));
  const known = repositories.filter((r) => r.dirty !== null);
  return {
    commit: own?.commit ?? null,
    // Dirty where any repository is; clean only when every repository's state is known.
    dirty: known.some((r) => r.dirty) ? true : known.length > 0 && known.length === repositories.length ? false : null,
    repositories,
  };
}

/**
 * The identity of a loaded package: `modules` are the absolute paths of every file its load evaluated.
 * Files under node_modules are left to the lockfile and the dependency versions; everything else enters
 * the digest as (path relative to the root, sha256).
 */
/** The folder a package's paths are relative to: its git repository, else the folder with its lockfile or package.json, else the package folder. */
export function packageRoot(packageDir: string): string {
  const dir = resolve(packageDir);
  return gitRoot(dir) ?? upward(dir, (d) => LOCKFILES.some((n) => existsSync(join(d, n))) || existsSync(join(d, "package.json"))) ?? dir;
}

export function packageIdentity(packageDir: string, modules: readonly string[]): PackageIdentity {
  const dir = resolve(packageDir);
  const root = packageRoot(dir);
  const own = [...new Set(modules.map((m) => resolve(m)))].filter((m) => !m.split(sep).includes("node_modules") && existsSync(m) && statSync(m).isFile());
  const files = own.map((m) => ({ path: slash(relative(root, m)), sha256: hashOf(m) })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const lock = findLockfile(dir);
  const lockfile = lock ? { path: slash(relative(root, lock)), sha256: hashOf(lock) } : null;
  const dependencies = dependencyVersions(dir);
  const digest = sha256(canonicalJson({ files: files.map((f) => [f.path, f.sha256]), lockfile: lockfile ? [lockfile.path, lockfile.sha256] : null, dependencies }));
  return { digest, root, package_dir: slash(relative(root, dir)) || ".", files, lockfile, dependencies, git: repositoriesState(dir, [...own, ...(lock ? [lock] : [])], root) };
}
