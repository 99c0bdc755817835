import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importsOf } from "./imports";

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
        if (rel.startsWith("src/core/record/") && !to.startsWith("npm:") && !to.startsWith("src/core/record/"))
          problems.push(`${rel} imports ${spec}: the record module (the contract every layer reads) imports nothing of ours`);
        if (rel.startsWith("examples/") && to.startsWith("crashlab/") && to !== "crashlab/alpha")
          problems.push(`${rel} imports ${spec}: the application under test must not import the evaluation package`);
      }
    }
  }
  return problems;
}

/** The file a relative import names: `x.ts`, or `x/index.ts` for a folder (null for anything else). */
function importedFile(file: string, spec: string): string | null {
  const base = resolve(dirname(file), spec);
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

/**
 * Import circles among the files of src/core, type-only imports included (a circle of types is still a
 * circle in the design). Each is reported once, as the path that closes it, starting from its first file.
 */
function importCycles(root: string): string[] {
  const dir = join(root, "src", "core");
  if (!existsSync(dir)) return [];
  const files = sourceFiles(dir).sort();
  const edges = new Map(files.map((f) => [f, [...new Set(importsOf(readFileSync(f, "utf8")).filter((s) => s.startsWith(".")).map((s) => importedFile(f, s)))].filter((t): t is string => t !== null).sort()]));
  const cycles = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") {
        const loop = stack.slice(stack.indexOf(next)).map((f) => relative(root, f));
        const first = loop.indexOf([...loop].sort()[0]!);
        const path = [...loop.slice(first), ...loop.slice(0, first)];
        cycles.add([...path, path[0]].join(" → "));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return [...cycles].sort();
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
      put("src/core/record/trial-record.ts", `import { z } from "zod";\nimport { Assessment } from "./assessment";\nimport type { Json } from "../world/types";`);
      expect(violations(fake).sort()).toEqual(
        [
          "crashlab/evaluations.ts imports ../src/core/run/run: outside src/, import \"crashlab/alpha\" instead",
          "crashlab/evaluations.ts imports ws: packages import crashlab/alpha (and zod for schemas)",
          "examples/restaurant/policy.ts imports ../../crashlab/worlds/restaurant: the application under test must not import the evaluation package",
          "src/core/run/a.ts imports ../../../crashlab/worlds/restaurant: src/core may import only itself and npm packages",
          "src/core/run/a.ts imports ../../alpha/index: src/core may import only itself and npm packages",
          "src/core/record/trial-record.ts imports ../world/types: the record module (the contract every layer reads) imports nothing of ours",
        ].sort(),
      );
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});

describe("import circles in src/core", () => {
  it("there are none", () => {
    expect(importCycles(root)).toEqual([]);
  });

  it("are found in a tree that has them, type-only imports included, and a shared import is not one", () => {
    const fake = mkdtempSync(join(tmpdir(), "cycles-"));
    try {
      const put = (path: string, text: string) => {
        mkdirSync(dirname(join(fake, path)), { recursive: true });
        writeFileSync(join(fake, path), text);
      };
      // trial → metrics → conversation → trial, the last one type-only; a two-file circle through a folder index.
      put("src/core/run/trial.ts", `import { metrics } from "./metrics";\nimport { zod } from "zod";`);
      put("src/core/run/metrics.ts", `import {\n  tracks,\n} from "./conversation";\nimport { Turn } from "../record/trial-record";`);
      put("src/core/run/conversation.ts", `import type { Media } from "./trial";`);
      put("src/core/audio/index.ts", `export * from "./pcm";`);
      put("src/core/audio/pcm.ts", `const wav = await import("../audio");`);
      // A diamond is no circle.
      put("src/core/record/trial-record.ts", `import { Assessment } from "./assessment";\nimport { Check } from "./check";`);
      put("src/core/record/assessment.ts", `import { Check } from "./check";`);
      put("src/core/record/check.ts", `import { z } from "zod";`);
      expect(importCycles(fake)).toEqual([
        "src/core/audio/index.ts → src/core/audio/pcm.ts → src/core/audio/index.ts",
        "src/core/run/conversation.ts → src/core/run/trial.ts → src/core/run/metrics.ts → src/core/run/conversation.ts",
      ]);
    } finally {
      rmSync(fake, { recursive: true, force: true });
    }
  });
});
