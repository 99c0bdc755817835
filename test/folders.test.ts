/**
 * The rooms of src/core and which others each may import: one direction, no cycle between folders. Each
 * folder's README.md says what it may import, in its `May import:` line (test/folder-rules.ts reads them);
 * a new import across folders is a design decision, made there where a reviewer sees it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { allowedOf, CORE, documentedFoldersTable, foldersTable, nameOf, readFolderRules, readmeOf, ROOT_FILES } from "./folder-rules";
import { importsOf } from "./imports";
import { brokenLinks } from "./markdown-links";

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

/** Imports between folders that `allowed` (each folder's `May import:` line) does not allow, and the folder graph's cycles. */
export function folderProblems(core: string, allowed: Record<string, readonly string[]>): string[] {
  const problems: string[] = [];
  const edges = new Map<string, Set<string>>();
  const unlisted = new Set<string>(); // folders already said to have no line: once each, not once per file
  for (const file of sourceFiles(core)) {
    const from = folderOf(core, file);
    if (!(from in allowed) && !unlisted.has(from)) {
      unlisted.add(from);
      problems.push(`${relative(core, file)}: folder ${nameOf(from)} has no \`May import:\` line in ${readmeOf(from)}; add one listing the folders it may import`);
    }
    for (const spec of importsOf(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const to = folderOf(core, resolve(dirname(file), spec));
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
      if (from in allowed && !allowed[from]!.includes(to)) problems.push(`${relative(core, file)} imports ${spec}: ${nameOf(from)} may not import ${nameOf(to)}; if it should, add \`${nameOf(to)}\` to the \`May import:\` line of ${readmeOf(from)}`);
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

const { rules, problems } = readFolderRules();

describe("the folders of src/core", () => {
  it("each says its job and what it may import in its README.md, naming only folders that exist", () => {
    expect(problems).toEqual([]);
    const root = resolve(CORE, "../..");
    expect(brokenLinks([...rules.values()].map((r) => r.readme), (file) => !relative(root, file).startsWith(".."))).toEqual([]);
  });

  it("import only the folders their README.md allows, and no two folders import each other", () => {
    expect(folderProblems(CORE, allowedOf(rules))).toEqual([]);
  });

  it("docs/architecture.md lists them as their READMEs say", () => {
    expect(documentedFoldersTable(), "docs/architecture.md's table of folders differs from the folders' README.md files: run `pnpm tsx scripts/architecture-doc.ts` and read the diff").toBe(foldersTable());
  });

  it("the check fails on an import the README does not allow and on a cycle", () => {
    const core = mkdtempSync(join(tmpdir(), "folders-"));
    const file = (path: string, text: string) => {
      mkdirSync(dirname(join(core, path)), { recursive: true });
      writeFileSync(join(core, path), text);
    };
    file("low/a.ts", 'import { b } from "../high/b";\nexport const a = 1;\n');
    file("high/b.ts", 'import { a } from "../low/a";\nexport const b = a;\n');
    file("other/c.ts", 'import { a } from "../low/a";\n');
    file("d.ts", 'import { a } from "./low/a";\n');
    expect(folderProblems(core, { [ROOT_FILES]: ["low"], low: ["high"], high: ["low"] })).toEqual([
      "other/c.ts: folder other/ has no `May import:` line in src/core/other/README.md; add one listing the folders it may import",
      "folder cycle: low → high → low",
    ]);
    expect(folderProblems(core, { [ROOT_FILES]: [], low: [], high: ["low"], other: [] })).toEqual([
      "d.ts imports ./low/a: src/core/*.ts may not import low/; if it should, add `low/` to the `May import:` line of src/core/README.md",
      "low/a.ts imports ../high/b: low/ may not import high/; if it should, add `high/` to the `May import:` line of src/core/low/README.md",
      "other/c.ts imports ../low/a: other/ may not import low/; if it should, add `low/` to the `May import:` line of src/core/other/README.md",
      "folder cycle: low → high → low",
    ]);
  });

  it("the READMEs are read strictly: a missing README or line, a malformed line or an unknown folder is named with its fix", () => {
    const core = mkdtempSync(join(tmpdir(), "folder-readmes-"));
    const readme = (folder: string, text: string) => {
      mkdirSync(join(core, folder), { recursive: true });
      writeFileSync(join(core, folder, "README.md"), text);
    };
    readme("", "# src/core/\n\nShared files.\n\nMay import: nothing of ours.\n");
    readme("good", "# good/\n\nA job,\nover two lines.\n\nMay import: `src/core/*.ts`, `plain/`.\n");
    readme("plain", "# plain/\n\nA job.\n\nMay import: nothing of ours.\n");
    mkdirSync(join(core, "bare"));
    readme("silent", "# silent/\n\nA job.\n");
    readme("ghost", "# ghost/\n\nA job.\n\nMay import: `good/`, `nowhere/`.\n");
    readme("loose", "# loose/\n\nA job.\n\nMay import: good/ and plain/\n");
    readme("odd", "# odd/\n\nA job.\n\nMay import: `../good`.\n");
    const { rules, problems } = readFolderRules(core);
    expect(problems).toEqual([
      'src/core/bare/README.md is missing: add it with the heading "# bare/", a paragraph saying the folder\'s job, and a line "May import: `a/`, `b/`." (the files directly under src/core as `src/core/*.ts`) or "May import: nothing of ours."',
      "src/core/loose/README.md: \"May import: good/ and plain/\" is not of the form \"May import: `a/`, `b/`.\" (the files directly under src/core as `src/core/*.ts`) or \"May import: nothing of ours.\"",
      "src/core/odd/README.md: `May import:` names `../good`: write a folder as `name/`, the files directly under src/core as `src/core/*.ts`",
      'src/core/silent/README.md has no `May import:` line; add one listing the folders silent/ may import, of the form "May import: `a/`, `b/`." (the files directly under src/core as `src/core/*.ts`) or "May import: nothing of ours."',
      "src/core/ghost/README.md: `May import:` names `nowhere/`, which is not a folder of src/core; fix the name or remove it",
    ]);
    expect(allowedOf(rules)).toEqual({ [ROOT_FILES]: [], ghost: ["good", "nowhere"], good: [ROOT_FILES, "plain"], plain: [] });
    expect(rules.get("good")!.job).toBe("A job, over two lines.");
  });
});
