import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/** The one rule between layers (architecture.md, "Layers"), checked by reading every import. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist" || name === "results" || name.startsWith(".")) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [path] : [];
  });
}

/** Every module specifier in a file: static imports/exports, dynamic import(), require(). */
export function importsOf(source: string): string[] {
  const specs: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*["']([^"']+)["']/g, /\bimport\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g];
  for (const p of patterns) for (const m of source.matchAll(p)) specs.push(m[1]!);
  return specs;
}

/** Where an import lands, relative to the repo root ("src/core/…", "crashlab/…", or the package name). */
function target(root: string, file: string, spec: string): string {
  if (spec === "crashlab/alpha") return "crashlab/alpha";
  if (!spec.startsWith(".")) return `npm:${spec}`;
  return relative(root, resolve(dirname(file), spec));
}

function violations(root: string): string[] {
  const problems: string[] = [];
  const folders = ["src", "crashlab", "examples", "test", "bench"];
  for (const folder of folders) {
    if (!existsSync(join(root, folder))) continue;
    for (const file of sourceFiles(join(root, folder))) {
      const rel = relative(root, file);
      for (const spec of importsOf(readFileSync(file, "utf8"))) {
        const to = target(root, file, spec);
        if (rel.startsWith("src/core/") && (to.startsWith("crashlab") || to.startsWith("examples") || to.startsWith("src/alpha")))
          problems.push(`${rel} imports ${spec}: src/core may import only itself and npm packages`);
        if (!rel.startsWith("src/") && !rel.startsWith("test/") && !rel.startsWith("bench/") && to.startsWith("src/"))
          problems.push(`${rel} imports ${spec}: outside src/, import "crashlab/alpha" instead`);
        if ((rel.startsWith("crashlab/") || rel.startsWith("examples/")) && to.startsWith("npm:") && !to.startsWith("npm:node:") && to !== "npm:zod")
          problems.push(`${rel} imports ${spec}: packages import crashlab/alpha (and zod for schemas)`);
        if (rel.startsWith("examples/") && to.startsWith("crashlab/") && to !== "crashlab/alpha")
          problems.push(`${rel} imports ${spec}: the application under test must not import the evaluation package`);
      }
    }
  }
  return problems;
}

describe("layer rule", () => {
  it("holds across the repository", () => {
    expect(violations(root)).toEqual([]);
  });

  it("catches each kind of crossing in a tree that breaks it", () => {
    const fake = mkdtempSync(join(tmpdir(), "layers-"));
    try {
      const put = (path: string, text: string) => {
        mkdirSync(dirname(join(fake, path)), { recursive: true });
        writeFileSync(join(fake, path), text);
      };
      put("src/core/run/a.ts", `import { x } from "../../../crashlab/worlds/restaurant";\nimport {\n  y,\n} from "../../alpha/index";`);
      put("crashlab/evaluations.ts", `import { run } from "../src/core/run/run";\nconst m = await import("ws");`);
      put("examples/restaurant/policy.ts", `export * from "../../crashlab/worlds/restaurant";`);
      put("crashlab/ok.ts", `import { definePlan } from "crashlab/alpha";\nimport { z } from "zod";`);
      expect(violations(fake).sort()).toEqual(
        [
          "crashlab/evaluations.ts imports ../src/core/run/run: outside src/, import \"crashlab/alpha\" instead",
          "crashlab/evaluations.ts imports ws: packages import crashlab/alpha (and zod for schemas)",
          "examples/restaurant/policy.ts imports ../../crashlab/worlds/restaurant: the application under test must not import the evaluation package",
          "src/core/run/a.ts imports ../../../crashlab/worlds/restaurant: src/core may import only itself and npm packages",
          "src/core/run/a.ts imports ../../alpha/index: src/core may import only itself and npm packages",
        ].sort(),
      );
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});
