/** Where `crashlab init`'s files come from: templates/init/, read and filled in. */

import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { CRASHLAB_VERSION } from "../version";
import { SCAFFOLD_PINS } from "./versions";

/*
 * The files `crashlab init` writes live as real files in templates/init/ at the package root (type-checked
 * by `pnpm typecheck` through templates/tsconfig.json): a small working evaluation package for a bike
 * repair shop's phone assistant. package.json and tsconfig.json there are data filled in on copy; every
 * file under templates/init/crashlab/ is copied as it is.
 */

const MARKER = join("templates", "init", "crashlab", "evaluations.ts");

/**
 * templates/init/, found by walking up from this module: from src/core/init/ when run from the sources,
 * from dist/ (where the bundle's chunks live) in the installed package.
 */
export function templatesDir(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, MARKER))) return join(dir, "templates", "init");
    if (dirname(dir) === dir) throw new Error(`crashlab's scaffold (templates/init/) is missing above ${start}; reinstall crashlab`);
  }
}

/** The scaffold's own files (paths relative to the folder being initialised, with `/`), sorted, and their text. */
export function scaffoldFiles(): Record<string, string> {
  const root = templatesDir();
  const files: Record<string, string> = {};
  const names = readdirSync(join(root, "crashlab"), { recursive: true, encoding: "utf8" }).map((name) => join("crashlab", name));
  for (const name of names.sort()) {
    const path = join(root, name);
    if (statSync(path).isFile()) files[relative(root, path).split(sep).join("/")] = readFileSync(path, "utf8");
  }
  return files;
}

/** The values of the `{{…}}` placeholders in templates/init/package.json, besides the package's name. */
const VERSIONS: Record<string, string> = { crashlab: CRASHLAB_VERSION, ...SCAFFOLD_PINS };

interface PackageTemplate {
  name: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  [key: string]: unknown;
}

/** templates/init/package.json with its placeholders filled: the package name and the pinned versions. */
export function packageTemplate(name = "{{name}}"): PackageTemplate {
  const values: Record<string, string> = { ...VERSIONS, name };
  const text = readFileSync(join(templatesDir(), "package.json"), "utf8");
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value !== "string") return value;
    return value.replace(/\{\{([^}]+)\}\}/g, (placeholder, key: string) => {
      if (!(key in values)) throw new Error(`templates/init/package.json: unknown placeholder ${placeholder}`);
      return values[key]!;
    });
  }) as PackageTemplate;
}

/** templates/init/tsconfig.json, including `include`: a package's TypeScript settings (extensionless imports need `moduleResolution: Bundler`). */
export function tsconfigJson(include: string[]): string {
  const config = JSON.parse(readFileSync(join(templatesDir(), "tsconfig.json"), "utf8")) as Record<string, unknown>;
  return JSON.stringify({ ...config, include }, null, 2) + "\n";
}
