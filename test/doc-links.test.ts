import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { MAIN_HELP, runHelp } from "../src/core/cli/help";
import { anchors, brokenLinks, links } from "./markdown-links";

/*
 * The users' docs hold together: every relative link in README.md and docs/ reaches a file inside the
 * repository (and a heading, when it names one), the docs ship in the package, --help names only docs
 * that exist, and the docs never send a reader to the engine's source to learn a rule.
 */

const root = resolve(__dirname, "..");
const docs = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => join(root, "docs", f));
const pages = [join(root, "README.md"), ...docs];

describe("users' docs", () => {
  it("has the pages a package author needs", () => {
    const names = docs.map((f) => relative(join(root, "docs"), f)).sort();
    for (const page of ["README.md", "writing-a-package.md", "datasets.md", "grading.md", "worlds.md", "targets.md", "verifiers-and-clauses.md", "gates.md", "results.md", "cli.md", "gpt-live-protocol.md"])
      expect(names).toContain(page);
  });

  it.each(pages.map((p) => [relative(root, p), p]))("every relative link in %s resolves inside the repository", (_name, page) => {
    expect(brokenLinks([page], (file) => !relative(root, file).startsWith(".."))).toEqual([]);
  });

  it("finds broken links (the check itself can fail)", () => {
    expect(links("see [x](missing.md) and `[y](code.md)` and [z](https://example.com)")).toEqual(["missing.md"]);
    expect(anchors("## The expected state\n### `tool_contract` (CRAWL and WALK)")).toEqual(new Set(["the-expected-state", "tool_contract-crawl-and-walk"]));
  });

  it("the package's README and the docs beside it link only to what the tarball holds", () => {
    // In the tarball, PACKAGE-README.md is README.md (scripts/pack-files.mjs), beside docs/ and dist/.
    const shipped = (file: string) => /^(?:README\.md|package\.json|docs\/.+|dist\/.+)$/.test(relative(root, file));
    const packed = (file: string) => (relative(root, file) === "README.md" ? join(root, "PACKAGE-README.md") : file);
    expect(brokenLinks([join(root, "README.md"), ...docs], shipped, packed)).toEqual([]);
    const readme = readFileSync(join(root, "PACKAGE-README.md"), "utf8");
    expect(readme).toContain("npx crashlab init");
    expect(links(readme)).toContain("docs/writing-a-package.md");
  });

  it("ships the docs in the package", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(pkg.files).toContain("docs");
  });

  it("--help names only docs that exist", () => {
    const named = [...`${MAIN_HELP}\n${runHelp()}`.matchAll(/\bdocs\/[\w.-]+\.md\b/g)].map((m) => m[0]);
    expect(named.length).toBeGreaterThan(0);
    for (const doc of named) expect(existsSync(join(root, doc)), doc).toBe(true);
    expect(`${MAIN_HELP}\n${runHelp()}`).not.toMatch(/evaluation-contract|§/);
  });

  it("never sends a package author to the engine's source to learn a rule", () => {
    // architecture.md is the contributors' page: the source's layout is its subject.
    for (const page of docs.filter((p) => !p.endsWith("architecture.md"))) expect(readFileSync(page, "utf8"), relative(root, page)).not.toMatch(/\b(?:src|dist|core)\//);
  });
});
