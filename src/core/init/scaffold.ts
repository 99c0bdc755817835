/** `crashlab init`: writing the scaffold into a folder without overwriting anything, and what it prints. */

import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, parse, relative, resolve, sep } from "node:path";
import { generateAudio } from "../walk/generate";
import { machineFault } from "../files/machine-fault";
import { atPath, makeDirs } from "../files/atomic";
import { packageTemplate, scaffoldFiles, tsconfigJson } from "./templates";
import { UserError } from "../user-error";

/*
 * `crashlab init [dir]`: scaffold a working evaluation package into an empty or existing folder. Nothing
 * that exists is overwritten: an existing package.json gains only the scripts and dependencies it lacks,
 * an existing tsconfig.json is left alone (the package gets its own, crashlab/tsconfig.json), and any
 * scaffold file that already exists stops the whole command before anything is written.
 *
 * The WALK case's recording is made the way a user makes one (`crashlab generate-audio`, offline
 * espeak-ng, telephony condition) from the CRAWL dataset's booking scenario, in a scratch folder first:
 * if synthesis fails, nothing has been written.
 */

/** The scaffold's WALK recording: which CRAWL scenario it speaks, under which acoustic condition. */
export const WALK_RECORDING = { scenario: "shop_book_service", condition: "telephony" } as const;
const WALK_FILES = ["crashlab/data/walk.json", `crashlab/data/audio/${WALK_RECORDING.scenario}_${WALK_RECORDING.condition}.wav`];

/** A user-causable problem with the folder being initialised (exit 2, nothing written). */
export class InitError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "InitError";
  }
}

export interface ScaffoldReport {
  dir: string;
  /** Files written, relative to `dir`. */
  written: string[];
  /** Entries added to an existing package.json. */
  merged: string[];
  /** The tsconfig the `typecheck` script uses, relative to `dir`. */
  tsconfig: string;
}

export async function scaffold(dir: string): Promise<ScaffoldReport> {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new InitError(`${dir} is not a folder; give a folder to initialise (it is created when missing)`);
  const own = scaffoldFiles();
  // Checked before the WALK recording is synthesized: a path that cannot hold the package fails at once.
  for (const file of [...Object.keys(own), ...WALK_FILES]) {
    const blocked = notAFolderOnTheWay(dir, dirname(file));
    if (blocked) {
      const { reason, fix } = existsSync(blocked) ? FS_PROBLEMS.ENOTDIR! : { reason: `part of that path (${blocked}) is a symbolic link to nothing`, fix: "remove that link or initialise another folder" };
      throw new InitError(`could not write ${join(dir, file)}: ${reason}; nothing was written — ${fix}`);
    }
  }
  const existing = [...Object.keys(own), ...WALK_FILES].filter((file) => existsSync(join(dir, file)));
  if (existing.length > 0)
    throw new InitError(`${dir} already has ${existing.join(", ")}; crashlab init never overwrites a file — move them away or initialise another folder`);

  const files: Record<string, string | Uint8Array> = { ...own };
  const merged: string[] = [];
  const pkgFile = join(dir, "package.json");
  const hasTsconfig = existsSync(join(dir, "tsconfig.json"));
  const tsconfig = hasTsconfig ? "crashlab/tsconfig.json" : "tsconfig.json";
  if (hasTsconfig && existsSync(join(dir, tsconfig))) throw new InitError(`${dir} already has ${tsconfig}; crashlab init never overwrites a file`);
  // A tsconfig inside crashlab/ includes its own folder; one at the root includes crashlab/.
  files[tsconfig] = tsconfigJson(hasTsconfig ? ["./**/*.ts"] : ["crashlab/**/*.ts"]);
  const template = packageTemplate(packageName(dir));
  const scripts = { ...template.scripts, ...(hasTsconfig ? { typecheck: "tsc --noEmit -p crashlab" } : {}) };

  if (existsSync(pkgFile)) {
    if (!statSync(pkgFile).isFile()) throw new InitError(`${pkgFile} is not a file; move it away, then run crashlab init again`);
    let pkg: Record<string, unknown>;
    try {
      pkg = JSON.parse(readFileSync(pkgFile, "utf8").replace(/^\uFEFF/, "")) as Record<string, unknown>;
    } catch (error) {
      throw new InitError(`${pkgFile} is not valid JSON (${(error as Error).message}); fix it, then run crashlab init again`);
    }
    if (typeof pkg !== "object" || pkg === null || Array.isArray(pkg)) throw new InitError(`${pkgFile} does not hold a JSON object; fix it, then run crashlab init again`);
    const add = (section: string, entries: Record<string, string>) => {
      const current = (pkg[section] ?? {}) as Record<string, unknown>;
      if (typeof current !== "object" || current === null || Array.isArray(current)) throw new InitError(`${pkgFile}: "${section}" is not an object; fix it, then run crashlab init again`);
      for (const [key, value] of Object.entries(entries)) {
        const elsewhere = ["dependencies", "devDependencies"].some((s) => s !== section && typeof pkg[s] === "object" && pkg[s] !== null && key in (pkg[s] as object));
        if (key in current || (section !== "scripts" && elsewhere)) continue;
        current[key] = value;
        merged.push(`${section}.${key}`);
      }
      pkg[section] = current;
    };
    add("scripts", scripts);
    add("dependencies", template.dependencies);
    add("devDependencies", template.devDependencies);
    if (merged.length > 0) files["package.json"] = JSON.stringify(pkg, null, 2) + "\n";
  } else {
    files["package.json"] = JSON.stringify({ ...template, scripts }, null, 2) + "\n";
  }

  Object.assign(files, await walkRecording(own["crashlab/data/crawl.json"]!));
  writeAll(dir, files);
  return { dir, written: Object.keys(files), merged, tsconfig };
}

/** The first path from the root to `dir/sub` that exists but is not a folder (a file, a link to nothing), or null. */
function notAFolderOnTheWay(dir: string, sub: string): string | null {
  const full = resolve(dir, sub);
  let at = parse(full).root;
  for (const part of full.slice(at.length).split(sep).filter(Boolean)) {
    at = join(at, part);
    let exists = true;
    try {
      lstatSync(at);
    } catch {
      exists = false;
    }
    if (!exists) return null;
    if (!existsSync(at) || !statSync(at).isDirectory()) return at;
  }
  return null;
}


/**
 * Write every file, package.json last (the only one that may replace an existing file). When the machine
 * refuses one (a file where a folder must go, no permission, a read-only or full disk), what was written
 * is removed again — the files and the folders this call created — and the reason is one paragraph.
 */
function writeAll(dir: string, files: Record<string, string | Uint8Array>): void {
  const order = Object.keys(files).sort((a, b) => Number(a === "package.json") - Number(b === "package.json"));
  const created: string[] = [];
  let at = dir;
  try {
    for (const file of order) {
      at = join(dir, file);
      const firstNew = makeDirs(dirname(at));
      if (firstNew) created.push(firstNew);
      writeFileSync(at, files[file]!, { flag: file === "package.json" ? "w" : "wx" });
      created.push(at);
    }
  } catch (error) {
    for (const path of created.reverse()) rmSync(path, { recursive: true, force: true });
    // A full or read-only disk, a permission the process lacks: the machine's fault, one line and exit 3 from the CLI.
    if (machineFault(error)) throw atPath(error, at);
    const { code, message } = error as NodeJS.ErrnoException;
    const known = FS_PROBLEMS[code ?? ""];
    throw new InitError(`could not write ${at}: ${known?.reason ?? message}; nothing was written — ${known?.fix ?? "fix that, then run crashlab init again"}`);
  }
}

/** What a file-system error code means here, and what to do about it. */
const FS_PROBLEMS: Record<string, { reason: string; fix: string }> = {
  ENOTDIR: { reason: "part of that path is a file, not a folder", fix: "move that file away or initialise another folder" },
  EEXIST: { reason: "something is already there", fix: "move it away or initialise another folder" },
  EISDIR: { reason: "a folder is in the way", fix: "move that folder away or initialise another folder" },
};

/** walk.json and its WAV, generated from the scaffold's CRAWL dataset in a scratch folder. */
async function walkRecording(crawl: string): Promise<Record<string, string | Uint8Array>> {
  const scratch = mkdtempSync(join(tmpdir(), "crashlab-init-"));
  try {
    const source = join(scratch, "crawl.json");
    try {
      writeFileSync(source, crawl);
    } catch (error) {
      throw atPath(error, source);
    }
    await generateAudio({ data: join(scratch, "crawl.json"), outputData: join(scratch, "walk.json"), examples: [WALK_RECORDING.scenario], condition: WALK_RECORDING.condition });
    const [dataset, wav] = WALK_FILES as [string, string];
    return { [dataset]: readFileSync(join(scratch, "walk.json"), "utf8"), [wav]: readFileSync(join(scratch, "audio", basename(wav))) };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Commands with their comments in one column. */
function aligned(rows: Array<[string, string]>): string[] {
  const width = Math.max(...rows.map(([command]) => command.length));
  return rows.map(([command, comment]) => (comment ? `  ${command.padEnd(width)}  # ${comment}` : `  ${command}`));
}

/** An npm package name from the folder's name. */
function packageName(dir: string): string {
  const name = basename(resolve(dir)).toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[._-]+/, "");
  return name || "evaluations";
}

/** What `crashlab init` prints: what was written, and what to run next. */
export function scaffoldSummary(report: ScaffoldReport, cwd: string): string {
  const where = relative(cwd, report.dir) || ".";
  const cd = where === "." ? "" : `cd ${where} && `;
  return [
    `crashlab init: wrote an evaluation package in ${where}:`,
    ...report.written.map((f) => `  ${f}`),
    ...(report.merged.length > 0 ? [`  (package.json: added ${report.merged.join(", ")})`] : []),
    "",
    "Next:",
    ...aligned([
      [`${cd}npm install`, "crashlab, zod and TypeScript as pinned"],
      ["npx crashlab run", "4 CRAWL, 1 WALK and 1 RUN case against the assistant (offline): exit 0"],
      ["npx crashlab run --target faulty", "a deliberate defect, caught: exit 1"],
      ["npm run typecheck", ""],
    ]),
    "Then read crashlab/README.md: it says what to edit first.",
  ].join("\n");
}
