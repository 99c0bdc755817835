/** Finding and loading a user's evaluation package through jiti, with its transpiled code cached. */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { createJiti } from "jiti";
import { isPlan, type Plan } from "../run/plan";
import { UserError } from "../user-error";

/** A user-causable problem with the evaluation package: names the file and says how to fix it. */
export class PackageError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "PackageError";
  }
}

export interface LoadedPackage {
  /** The evaluations.ts file. */
  file: string;
  /** The package folder (the one holding evaluations.ts). */
  dir: string;
  plan: Plan;
  /**
   * Every file the load evaluated, absolute, evaluations.ts first: the module graph jiti resolved (inside
   * or outside the package folder, node_modules included) and the files it handed to Node's require.
   */
  modules: string[];
}

/** Node's CommonJS cache: jiti hands it JSON and plain CommonJS files, which then never enter jiti's own. */
const requireCache = createRequire(import.meta.url).cache;

/**
 * Where the package is: `--package` may name the evaluations file or a folder holding
 * `evaluations.ts` or `crashlab/evaluations.ts`; by default `./crashlab/evaluations.ts`.
 */
export function findPackage(cwd: string, packageOption?: string): string {
  const candidates: string[] = [];
  if (packageOption) {
    const p = resolve(cwd, packageOption);
    if (existsSync(p) && statSync(p).isFile()) return p;
    // A file name that is not there is a missing file, not a folder to look inside.
    if (!existsSync(p) && /\.(?:[cm]?[jt]s)$/.test(p))
      throw new PackageError(`No evaluation package found: --package ${packageOption} names a file, and ${shownPath(cwd, p)} does not exist. Pass the path of your evaluations.ts (or of the folder that holds it, usually crashlab/).`);
    candidates.push(join(p, "evaluations.ts"), join(p, "crashlab", "evaluations.ts"));
  } else candidates.push(join(cwd, "crashlab", "evaluations.ts"), join(cwd, "evaluations.ts"));
  const found = candidates.find((c) => existsSync(c));
  if (found) return found;
  throw new PackageError(
    `No evaluation package found: looked for ${candidates.map((c) => shownPath(cwd, c)).join(" and ")}. ` +
      `Create crashlab/evaluations.ts exporting \`PLAN = definePlan({...})\` (\`crashlab init\` writes a working one; docs/writing-a-package.md describes it), or pass --package <folder or file>.`,
  );
}

/** The user's own error, as one paragraph: named error types keep their message; others get file:line. */
function describeLoadError(file: string, error: unknown): string {
  const e = error as Error & { code?: string };
  // Errors thrown by our own validators already name the file and field and say how to fix it.
  if (e && (e.name === "DatasetError" || e.name === "PlanError" || e.name === "WorldSetupError" || e.name === "PackageError")) return e.message;
  const where = String(e?.stack ?? "")
    .split("\n")
    .map((l) => l.match(/\(?((?:file:\/\/)?\/[^():]+\.(?:ts|mts|js|mjs)):(\d+):(\d+)\)?/))
    .find((m) => m && !m[1]!.includes("node_modules"));
  const at = where ? ` (at ${relative(process.cwd(), where[1]!.replace(/^file:\/\//, ""))}:${where[2]})` : "";
  const what = e?.code === "MODULE_NOT_FOUND" || e?.code === "ERR_MODULE_NOT_FOUND" ? "an import could not be resolved: " : "";
  // The first line says what went wrong; the rest (require stacks, code frames) would break the paragraph.
  const message = String(e?.message ?? error).split("\n")[0]!.trim();
  return `Loading ${file} failed: ${what}${message}${at}. Fix the package code, then run \`crashlab list\` to check it loads.`;
}

/**
 * Where a run keeps the package's transpiled code: `transpiled/` in the user's cache folder
 * (`$XDG_CACHE_HOME/crashlab`, else `~/.cache/crashlab`), so a second run, and every trial worker of a
 * run, loads the package without transpiling it again (about a second of a run's start). jiti names an
 * entry after the file's path and ends it with a hash of the source it came from, and uses it only when
 * that hash matches: an edited file is transpiled again, and a half-written entry is never run. Where
 * that folder cannot be made, a temporary one serves this run alone and `dispose` removes it.
 */
export function transpileCacheDir(env: Record<string, string | undefined>): { dir: string; dispose: () => void } {
  try {
    const root = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
    const dir = join(root, "crashlab", "transpiled");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { dir, dispose: () => {} };
  } catch {
    const dir = mkdtempSync(join(tmpdir(), "crashlab-package-"));
    return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
  }
}

/**
 * Load a package's PLAN with jiti. `crashlab/alpha` is served from the running copy of crashlab
 * (a virtual module), so the package and the engine share one copy of every class and schema.
 * Transpiled code is cached only where `cacheDir` says (see transpileCacheDir); never in the user's tree.
 */
export async function loadPackage(file: string, alpha: Record<string, unknown>, cacheDir?: string): Promise<LoadedPackage> {
  const jiti = createJiti(import.meta.url, {
    virtualModules: { "crashlab/alpha": alpha },
    moduleCache: false,
    fsCache: cacheDir ?? false,
    interopDefault: false,
  });
  let mod: Record<string, unknown>;
  // jiti.import(file) is this same call with a cache of its own; ours is shared by every module the load
  // evaluates, so afterwards it lists the module graph exactly as jiti resolved it.
  const graph: Record<string, unknown> = {};
  const required = new Set(Object.keys(requireCache));
  let native: string[] = [];
  try {
    mod = (await jiti.evalModule(readFileSync(file, "utf8"), { id: file, filename: file, ext: extname(file), cache: graph as never, async: true })) as Record<string, unknown>;
  } catch (error) {
    throw new PackageError(describeLoadError(file, error));
  } finally {
    // Files Node required for this load outside node_modules: listed, then forgotten (as jiti forgets its
    // own with moduleCache off), so the next load reads them afresh and lists them again.
    native = Object.keys(requireCache).filter((f) => !required.has(f) && !f.split(sep).includes("node_modules"));
    for (const f of native) delete requireCache[f];
  }
  if (!mod || !("PLAN" in mod)) {
    const exported = mod ? Object.keys(mod).filter((k) => k !== "__esModule") : [];
    throw new PackageError(
      `${file} does not export PLAN${exported.length ? ` (it exports: ${exported.join(", ")})` : ""}. Add \`export const PLAN = definePlan({...})\` using definePlan from "crashlab/alpha".`,
    );
  }
  if (!isPlan(mod.PLAN)) {
    throw new PackageError(`${file}: PLAN is not a plan. Build it with \`definePlan({name, targets, cases})\` from "crashlab/alpha".`);
  }
  return { file, dir: dirname(file), plan: mod.PLAN, modules: [...new Set([file, ...Object.keys(graph), ...native])] };
}

/** A path as a message shows it: relative when it lies under the working folder, else absolute (a path of ../../ says little). */
export function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}
