import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** How the docs' links are checked, by the repository's tests and on the packed tarball alike. */

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const [, title] of markdown.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    out.add(title!.trim().toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-"));
  }
  return out;
}

/** Relative link targets outside code: `[text](target)` and `![alt](target)`. */
export function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

/**
 * Every relative link of `pages` (absolute paths) that leaves what `inside` accepts, reaches no file, or
 * names a heading its page lacks. `source` gives the file that holds a path's text (the same path, unless
 * a file stands in for another, as the package README does for README.md in the tarball).
 */
export function brokenLinks(pages: string[], inside: (file: string) => boolean, source: (file: string) => string = (file) => file): string[] {
  const broken: string[] = [];
  for (const page of pages) {
    for (const target of links(readFileSync(source(page), "utf8"))) {
      const [path, anchor] = target.split("#") as [string, string | undefined];
      const file = path === "" ? page : resolve(dirname(page), decodeURIComponent(path));
      if (!inside(file) || !existsSync(source(file))) broken.push(`${page}: ${target} reaches no file inside`);
      else if (anchor && file.endsWith(".md") && !anchors(readFileSync(source(file), "utf8")).has(anchor)) broken.push(`${page}: ${target}: no heading #${anchor}`);
    }
  }
  return broken;
}
