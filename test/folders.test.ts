/**
 * The rooms of src/core and which others each may import: one direction, no cycle between folders. A new
 * import across folders is a design decision — add it here, where a reviewer sees it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf } from "./imports";

const ROOT_FILES = "(root)"; // version.ts and other files directly under src/core

/** Each folder of src/core, and the folders it may import (its own files are always allowed). */
const ALLOWED: Record<string, readonly string[]> = {
  [ROOT_FILES]: [],
  record: [],
  files: [],
  "run-folder": [ROOT_FILES, "files", "record"],
  time: [],
  stats: [],
  language: [],
  dataset: [ROOT_FILES, "language"],
  settings: [ROOT_FILES, "dataset"],
  services: ["settings"],
  world: [ROOT_FILES, "language"],
  audio: ["time"],
  speech: ["audio", "services", "settings"],
  timeline: ["audio", "language", "settings", "stats"],
  provenance: ["record"],
  gate: ["record", "stats"],
  compare: ["stats"],
  journal: [ROOT_FILES, "files", "provenance", "run-folder", "settings"],
  target: ["services", "settings", "time", "world"],
  live: ["audio", "services", "time"],
  simulator: ["audio", "language", "live", "speech", "target", "time"],
  "client-service": ["target", "world"],
  "gpt-live-target": ["client-service", "live", "services", "simulator", "speech", "target", "world"],
  verify: ["dataset", "language", "record", "timeline", "world"],
  judge: [ROOT_FILES, "dataset", "language", "record", "services", "settings", "timeline", "verify"],
  caller: ["audio", "dataset", "language", "live", "services", "time", "timeline", "world"],
  walk: [ROOT_FILES, "audio", "dataset", "files", "speech", "stats"],
  trial: ["audio", "caller", "dataset", "files", "judge", "language", "provenance", "record", "services", "settings", "target", "time", "timeline", "verify", "walk", "world"],
  run: [ROOT_FILES, "dataset", "gate", "judge", "provenance", "record", "settings", "speech", "stats", "target", "timeline", "trial", "verify", "walk", "world"],
  package: [ROOT_FILES, "dataset", "run", "trial", "world"],
  report: [ROOT_FILES, "audio", "files", "gate", "journal", "judge", "record", "review", "run", "run-folder", "services", "settings", "stats", "target", "timeline", "trial", "walk"],
  runner: [ROOT_FILES, "caller", "dataset", "files", "gate", "gpt-live-target", "journal", "judge", "live", "package", "provenance", "record", "report", "run", "services", "settings", "speech", "target", "trial"],
  review: [ROOT_FILES, "files", "gate", "record", "run-folder", "stats"],
  vary: [ROOT_FILES, "record", "run", "simulator", "target", "trial", "world"],
  init: [ROOT_FILES, "files", "walk"],
  cli: [ROOT_FILES, "audio", "caller", "client-service", "compare", "dataset", "files", "gpt-live-target", "init", "journal", "judge", "live", "package", "provenance", "record", "report", "review", "run", "run-folder", "runner", "services", "settings", "speech", "target", "trial", "vary", "walk"],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const folderOf = (core: string, path: string) => {
  const rel = relative(core, path);
  return rel.includes("/") ? rel.split("/")[0]! : ROOT_FILES;
};

/** Imports between folders that the table does not allow, and the folder graph's cycles. */
export function folderProblems(core: string, allowed: Record<string, readonly string[]>): string[] {
  const problems: string[] = [];
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(core)) {
    const from = folderOf(core, file);
    if (!(from in allowed)) problems.push(`${relative(core, file)}: folder ${from} is not in the table of folders; add it with the folders it may import`);
    for (const spec of importsOf(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const to = folderOf(core, resolve(dirname(file), spec));
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
      if (from in allowed && !allowed[from]!.includes(to)) problems.push(`${relative(core, file)} imports ${spec}: ${from}/ may not import ${to}/`);
    }
  }
  // A cycle between folders (even of allowed imports) means two rooms are one: find one and name it.
  const state = new Map<string, "open" | "done">();
  const visit = (node: string, path: string[]): void => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open") return void problems.push(`folder cycle: ${[...path.slice(path.indexOf(node)), node].join(" → ")}`);
    state.set(node, "open");
    for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, "done");
  };
  for (const node of edges.keys()) visit(node, []);
  return problems;
}

describe("the folders of src/core", () => {
  it("import only the folders the table allows, and no two folders import each other", () => {
    expect(folderProblems(resolve(import.meta.dirname, "../src/core"), ALLOWED)).toEqual([]);
  });

  it("each says its job where it opens (a README.md) and in docs/architecture.md", () => {
    const core = resolve(import.meta.dirname, "../src/core");
    const architecture = readFileSync(resolve(import.meta.dirname, "../docs/architecture.md"), "utf8");
    for (const folder of readdirSync(core).filter((n) => statSync(join(core, n)).isDirectory())) {
      expect(readFileSync(join(core, folder, "README.md"), "utf8"), folder).toMatch(new RegExp(`^# ${folder}/\\n\\n\\S`));
      expect(architecture, folder).toContain(`| \`${folder}/\` |`);
    }
  });

  it("the check fails on an import the table does not allow and on a cycle", () => {
    const core = mkdtempSync(join(tmpdir(), "folders-"));
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(core, path)), { recursive: true });
      writeFileSync(join(core, path), text);
    };
    file("low/a.ts", 'import { b } from "../high/b";\nexport const a = 1;\n');
    file("high/b.ts", 'import { a } from "../low/a";\nexport const b = a;\n');
    file("other/c.ts", 'import { a } from "../low/a";\n');
    expect(folderProblems(core, { low: ["high"], high: ["low"] })).toEqual([
      "other/c.ts: folder other is not in the table of folders; add it with the folders it may import",
      "folder cycle: high → low → high",
    ]);
    expect(folderProblems(core, { low: [], high: ["low"], other: [] })).toEqual(["low/a.ts imports ../high/b: low/ may not import high/", "other/c.ts imports ../low/a: other/ may not import low/", "folder cycle: high → low → high"]);
  });
});
