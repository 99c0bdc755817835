/**
 * The folders of src/core as their README.md files say: each folder's job (the paragraph under its heading)
 * and the folders it may import (its `May import:` line). test/folders.test.ts holds every import to those
 * lines, and scripts/architecture-doc.ts writes the folders' table of docs/architecture.md from them.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const CORE = resolve(import.meta.dirname, "../src/core");
export const ARCHITECTURE_DOC = resolve(import.meta.dirname, "../docs/architecture.md");

/** The files directly under src/core (version.ts, user-error.ts); src/core/README.md speaks for them. */
export const ROOT_FILES = "(root)";

/** How a README names a folder: `files/`, and `src/core/*.ts` for the files directly under src/core. */
export const nameOf = (folder: string) => (folder === ROOT_FILES ? "src/core/*.ts" : `${folder}/`);

/** The README that speaks for a folder, as a reader finds it from the repository's root. */
export const readmeOf = (folder: string) => (folder === ROOT_FILES ? "src/core/README.md" : `src/core/${folder}/README.md`);

const headingOf = (folder: string) => (folder === ROOT_FILES ? "# src/core/" : `# ${folder}/`);
const FORM = '"May import: `a/`, `b/`." (the files directly under src/core as `src/core/*.ts`) or "May import: nothing of ours."';

export interface FolderRule {
  /** The paragraph under the README's heading, its lines joined. */
  job: string;
  /** The folders it may import besides itself (ROOT_FILES for the files directly under src/core). */
  mayImport: string[];
  /** The README's absolute path. */
  readme: string;
}

/** Each folder of `core` (the files directly under it first) as its README.md says, and what is wrong with the READMEs. */
export function readFolderRules(core: string = CORE): { rules: Map<string, FolderRule>; problems: string[] } {
  const folders = [ROOT_FILES, ...readdirSync(core).filter((n) => statSync(join(core, n)).isDirectory()).sort()];
  const rules = new Map<string, FolderRule>();
  const problems: string[] = [];
  for (const folder of folders) {
    const name = readmeOf(folder);
    const readme = join(core, folder === ROOT_FILES ? "" : folder, "README.md");
    if (!existsSync(readme)) {
      problems.push(`${name} is missing: add it with the heading "${headingOf(folder)}", a paragraph saying the folder's job, and a line ${FORM}`);
      continue;
    }
    const paragraphs = readFileSync(readme, "utf8").split(/\n\s*\n/).map((p) => p.trim());
    if (paragraphs[0] !== headingOf(folder)) problems.push(`${name}: the first line must be "${headingOf(folder)}", alone`);
    const job = paragraphs[1] && !paragraphs[1].startsWith("May import:") ? paragraphs[1].replace(/\s*\n\s*/g, " ") : "";
    if (!job) problems.push(`${name}: no paragraph saying the folder's job under "${headingOf(folder)}"; add one`);
    const lines = paragraphs.filter((p) => p.startsWith("May import:"));
    if (lines.length !== 1) {
      problems.push(`${name} has ${lines.length ? `${lines.length} \`May import:\` lines; keep one` : `no \`May import:\` line; add one listing the folders ${nameOf(folder)} may import`}, of the form ${FORM}`);
      continue;
    }
    const mayImport = parseMayImport(lines[0]!);
    if (typeof mayImport === "string") problems.push(`${name}: ${mayImport}`);
    else rules.set(folder, { job, mayImport, readme });
  }
  for (const [folder, rule] of rules)
    for (const to of rule.mayImport) {
      if (to === folder) problems.push(`${readmeOf(folder)}: \`May import:\` names \`${nameOf(to)}\`, the folder itself, whose own files are always allowed; remove it`);
      else if (!folders.includes(to)) problems.push(`${readmeOf(folder)}: \`May import:\` names \`${nameOf(to)}\`, which is not a folder of src/core; fix the name or remove it`);
    }
  return { rules, problems };
}

/** The folders a `May import:` line lists, or what is wrong with it. */
export function parseMayImport(line: string): string[] | string {
  if (line === "May import: nothing of ours.") return [];
  const list = /^May import: (`[^`\n]+`(?:, `[^`\n]+`)*)\.$/.exec(line);
  if (!list) return `"${line}" is not of the form ${FORM}`;
  const folders: string[] = [];
  for (const [, item] of list[1]!.matchAll(/`([^`]+)`/g)) {
    if (item === nameOf(ROOT_FILES)) folders.push(ROOT_FILES);
    else if (/^[\w-]+\/$/.test(item!)) folders.push(item!.slice(0, -1));
    else return `\`May import:\` names \`${item}\`: write a folder as \`name/\`, the files directly under src/core as \`src/core/*.ts\``;
  }
  return folders;
}

/** Each folder and the folders it may import, as the table folderProblems checks. */
export const allowedOf = (rules: Map<string, FolderRule>): Record<string, readonly string[]> => Object.fromEntries([...rules].map(([folder, rule]) => [folder, rule.mayImport]));

const BEGIN = "<!-- folders table: written by `pnpm tsx scripts/architecture-doc.ts` from each folder's README.md -->";
const END = "<!-- end of folders table -->";

/** A README's relative links made relative to the page that quotes it. */
function relinked(text: string, from: string, to: string): string {
  return text.replace(/\]\(([^)\s]+)\)/g, (whole, target: string) => {
    if (/^[a-z]+:/i.test(target) || target.startsWith("#")) return whole;
    const [path, anchor] = target.split("#");
    return `](${relative(dirname(to), resolve(dirname(from), path!))}${anchor === undefined ? "" : `#${anchor}`})`;
  });
}

/** The table of docs/architecture.md's "Each folder's job", from the READMEs of `core`. */
export function foldersTable(core: string = CORE, doc: string = ARCHITECTURE_DOC): string {
  const { rules, problems } = readFolderRules(core);
  if (problems.length) throw new Error(`the folders' READMEs need fixing first:\n${problems.join("\n")}`);
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  const rows = [...rules].map(([folder, { job, mayImport, readme }]) => {
    const imports = mayImport.length ? mayImport.map((f) => `\`${nameOf(f)}\``).join(", ") : "nothing of ours";
    return `| \`${nameOf(folder)}\` | ${cell(relinked(job, readme, doc))} | ${imports} |`;
  });
  return [BEGIN, "", "| folder | its job | may import |", "|---|---|---|", ...rows, "", END].join("\n");
}

/** The table as docs/architecture.md holds it now ("" when its markers are missing). */
export function documentedFoldersTable(doc: string = ARCHITECTURE_DOC): string {
  const text = readFileSync(doc, "utf8");
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  return start < 0 || end < 0 ? "" : text.slice(start, end + END.length);
}

export function writeFoldersTable(doc: string = ARCHITECTURE_DOC): void {
  const text = readFileSync(doc, "utf8");
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < 0) throw new Error(`${doc} has no folders table markers`);
  writeFileSync(doc, text.slice(0, start) + foldersTable(CORE, doc) + text.slice(end + END.length));
}
