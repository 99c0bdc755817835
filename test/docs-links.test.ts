import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** Users' docs: every relative link in README.md and docs/*.md resolves inside the repository, anchors included. */
const repo = resolve(import.meta.dirname, "..");
const pages = ["README.md", ...readdirSync(join(repo, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");
}

function anchorsOf(text: string): Set<string> {
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1]!)));
}

describe("relative links in the users' docs", () => {
  it.each(pages)("%s: every relative link and anchor resolves", (page) => {
    const text = readFileSync(join(repo, page), "utf8");
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t));
    const broken: string[] = [];
    for (const link of links) {
      const [path, hash] = link.split("#") as [string, string | undefined];
      const file = path ? resolve(repo, dirname(page), path) : join(repo, page);
      if (!file.startsWith(repo) || !existsSync(file)) broken.push(`${link} (no such file)`);
      else if (hash && file.endsWith(".md") && !anchorsOf(readFileSync(file, "utf8")).has(hash)) broken.push(`${link} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});
