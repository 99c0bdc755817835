/**
 * The run's results folder, made before any trial runs. Every folder on the way is checked and created
 * one level at a time (a recursive mkdir under /proc never returns), so a results path that is a file,
 * lies under a file, cannot be written or is not a real folder is one clear input error — and nothing
 * the check made is left behind.
 */
import { mkdirSync, rmdirSync, statSync } from "node:fs";
import { dirname, join, parse, resolve } from "node:path";
import { UserError } from "../user-error";

/** The results folder cannot hold this run: says which path and why, and what to do instead. */
export class ResultsFolderError extends UserError {
  override readonly name = "ResultsFolderError";
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const HINT = "choose another folder with --results-dir (or `defaults.results_dir` in the PLAN)";

/**
 * Create `<resultsDir>/<runId>` (folders 0700) and return its absolute path. Throws ResultsFolderError,
 * having removed any folder it made, when that cannot be done.
 */
export function createRunFolder(resultsDir: string, runId: string): string {
  const target = resolve(resultsDir, runId);
  const missing: string[] = [];
  let at = target;
  // Walk up to the nearest thing that exists; it must be a folder.
  for (;;) {
    let stats;
    try {
      stats = statSync(at);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && at !== parse(at).root) {
        missing.unshift(at);
        at = dirname(at);
        continue;
      }
      if (code === "ENOTDIR") throw notAFolder(resultsDir, nearestNonFolder(at));
      // The run's own folder is new: a failure there is the results folder's.
      const where = at === target ? resolve(resultsDir) : at;
      const why = code === "ELOOP" ? "is a loop of symbolic links" : `cannot be read (${code ?? String(error)})`;
      throw new ResultsFolderError(where, `results folder ${resultsDir} cannot be used: ${where === resolve(resultsDir) ? "it" : where} ${why}; ${HINT}`);
    }
    if (!stats.isDirectory()) throw notAFolder(resultsDir, at);
    break;
  }
  const made: string[] = [];
  try {
    for (const dir of missing) {
      mkdirSync(dir, { mode: 0o700 });
      made.push(dir);
    }
  } catch (error) {
    for (const dir of made.reverse()) rmdirSync(dir);
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "EACCES" || code === "EPERM" || code === "EROFS"
        ? `${dirname(missing[made.length]!)} is not writable (${code})`
        : `a folder cannot be created at ${missing[made.length]!} (${code ?? String(error)}; is it a real file system?)`;
    throw new ResultsFolderError(missing[made.length]!, `results folder ${resultsDir} cannot be used: ${why}; ${HINT}`);
  }
  return target;
}

function notAFolder(resultsDir: string, at: string): ResultsFolderError {
  let kind = "not a folder";
  try {
    if (statSync(at).isFile()) kind = "a file, not a folder";
  } catch {
    // gone since: "not a folder" still holds
  }
  const what = at === resolve(resultsDir) ? `it is ${kind}` : `${at} is ${kind}`;
  return new ResultsFolderError(at, `results folder ${resultsDir} cannot be used: ${what}; ${HINT}`);
}

/** The first ancestor of `path` that exists and is not a folder (what made a lookup fail with ENOTDIR). */
function nearestNonFolder(path: string): string {
  let at = parse(path).root;
  for (const part of path.slice(at.length).split(/[\\/]/)) {
    at = join(at, part);
    try {
      if (!statSync(at).isDirectory()) return at;
    } catch {
      return at;
    }
  }
  return path;
}
