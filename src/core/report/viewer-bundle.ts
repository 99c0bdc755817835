/** The report page's script, bundled from report/client/: read from dist/, or built on the fly from the sources. */

import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/**
 * The report page's script (src/core/report/client/, bundled into one IIFE). The build writes it to
 * dist/viewer.js beside the built code (tsup.config.ts), and the built CLI reads it from there. Running
 * from the sources (vitest, tsx) there is no dist/: the bundle is then made on the fly with esbuild, a
 * devDependency present wherever the sources run. Building it in process rather than keeping a copy
 * means no generated file to go stale and nothing to rebuild before a test.
 */

export const VIEWER_FILE = "viewer.js";

/** The esbuild options of the bundle: one for the build and for running from the sources. */
export function viewerBuildOptions(entry: string): { entryPoints: string[]; bundle: true; format: "iife"; target: string; minify: true; legalComments: "none"; charset: "utf8"; write: false } {
  return { entryPoints: [entry], bundle: true, format: "iife", target: "es2020", minify: true, legalComments: "none", charset: "utf8", write: false };
}

let cached: string | null = null;

export function viewerScript(): string {
  if (cached !== null) return cached;
  const built = fileURLToPath(new URL(`./${VIEWER_FILE}`, import.meta.url));
  if (existsSync(built)) return (cached = readFileSync(built, "utf8"));
  const entry = fileURLToPath(new URL("./client/main.ts", import.meta.url));
  if (!existsSync(entry)) throw new Error(`${built} is missing: this copy of crashlab was built without its report page script; build it again with \`pnpm build\``);
  // createRequire keeps tsup from bundling esbuild: the built code never reaches this line.
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  return (cached = esbuild.buildSync(viewerBuildOptions(entry)).outputFiles[0]!.text.trim());
}
