/**
 * The damaged-run-folder corpus (test/fixtures/bad/folders.json): every case is a run folder (or the
 * folder `init` writes into) damaged the way an edit, a copy, a full disk or a killed process damages
 * one, then read by one command — merge, compare, run --resume, run --shard, view, audio extract or init.
 * Each must end with the documented exit code (2 unless the case says otherwise), one paragraph on stderr
 * that names what it should (the file, the field or line, the fix), no stack trace, nothing on stdout, and
 * nothing written: no merged folder, no temporary file, no report or results rewritten.
 *
 * The pristine run folders are made once, by real offline runs; each case copies them into a fresh folder,
 * applies its damage steps and runs its one command there.
 */
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";

const repo = resolve(import.meta.dirname, "..");
const fixtures = join(repo, "test/fixtures/bad");

interface Case {
  id: string;
  /** Placeholders: {dir} the case's folder; {a} {b} {c} {s1} {s2} the run folders copied into it; {repo}. */
  argv: string[];
  setup?: Step[];
  code?: number;
  expect: string[];
}

/** A damage step; paths are relative to the case's folder (a/results.json, s1/run.json, …). */
type Step =
  | { truncate: [string, number] }
  | { json_set: [string, string, unknown] }
  | { json_delete: [string, string] }
  | { jsonl_set: [string, number, string, unknown] }
  | { jsonl_delete: [string, number, string] }
  | { replace: [string, string] }
  | { mkdir_for_file: string }
  | { mkdir: string }
  | { append_line: [string, string] }
  | { copy_line: [string, number, string] }
  | { rm: string }
  | { copy: [string, string] }
  | { symlink: [string, string] }
  | { chmod: [string, number] }
  | { wav_lie: [string, WavLie] };

/** conversation.wav altered in place: its sizes lie, it is cut, or a sample changes. */
interface WavLie {
  /** The data chunk's declared size. */
  data_size?: number;
  /** The RIFF size at byte 4. */
  riff_size?: number;
  /** The fmt chunk's channel count or sample rate. */
  channels?: number;
  rate?: number;
  /** Cut the file to this many bytes. */
  cut?: number;
  /** Flip the bits of the byte at this offset. */
  flip?: number;
}

const cases = JSON.parse(readFileSync(join(fixtures, "folders.json"), "utf8")) as Case[];
const FOLDERS = ["a", "b", "c", "s1", "s2"] as const;
let pristine = "";

/** Files and their sizes and times under a folder, without following links. */
function snapshot(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const st = lstatSync(path);
      out.push(`${path.slice(dir.length)} ${st.isDirectory() ? "dir" : st.isSymbolicLink() ? "link" : st.size} ${st.mtimeMs} ${st.mode.toString(8)}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(dir);
  return out;
}

/** `a.b.0.c` → the keys of a JSON path (numbers index arrays). */
const keys = (path: string) => (path === "" ? [] : path.split(".").map((k) => (/^\d+$/.test(k) ? Number(k) : k)));

function setPath(doc: unknown, path: string, value: unknown, remove = false): unknown {
  const ks = keys(path);
  if (ks.length === 0) return value;
  let at = doc as Record<string | number, unknown>;
  for (const k of ks.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = ks.at(-1)!;
  if (remove) {
    if (Array.isArray(at)) at.splice(last as number, 1);
    else delete at[last];
  } else at[last] = value;
  return doc;
}

function applySetup(dir: string, steps: Step[]): void {
  const at = (p: string) => join(dir, p);
  const lines = (p: string) => readFileSync(at(p), "utf8").split("\n").filter((l) => l !== "");
  for (const step of steps) {
    if ("truncate" in step) truncateSync(at(step.truncate[0]), step.truncate[1]);
    else if ("json_set" in step || "json_delete" in step) {
      const [file, path, value] = "json_set" in step ? step.json_set : [...step.json_delete, undefined];
      writeFileSync(at(file), JSON.stringify(setPath(JSON.parse(readFileSync(at(file), "utf8")), path, value, "json_delete" in step), null, 2));
    } else if ("jsonl_set" in step || "jsonl_delete" in step) {
      const [file, n, path, value] = "jsonl_set" in step ? step.jsonl_set : [...step.jsonl_delete, undefined];
      const all = lines(file);
      all[n] = JSON.stringify(setPath(JSON.parse(all[n]!), path, value, "jsonl_delete" in step));
      writeFileSync(at(file), all.join("\n") + "\n");
    } else if ("replace" in step) {
      mkdirSync(join(at(step.replace[0]), ".."), { recursive: true });
      writeFileSync(at(step.replace[0]), step.replace[1]);
    }
    else if ("mkdir_for_file" in step) {
      rmSync(at(step.mkdir_for_file), { force: true });
      mkdirSync(at(step.mkdir_for_file), { recursive: true });
    } else if ("mkdir" in step) mkdirSync(at(step.mkdir), { recursive: true });
    else if ("append_line" in step) writeFileSync(at(step.append_line[0]), step.append_line[1] + "\n", { flag: "a" });
    else if ("copy_line" in step) {
      // Line n of one journal appended to another (or to itself).
      const [from, n, to] = step.copy_line;
      writeFileSync(at(to), lines(from)[n]! + "\n", { flag: "a" });
    } else if ("rm" in step) rmSync(at(step.rm), { recursive: true, force: true });
    else if ("copy" in step) cpSync(at(step.copy[0]), at(step.copy[1]), { recursive: true });
    else if ("symlink" in step) {
      rmSync(at(step.symlink[0]), { recursive: true, force: true });
      mkdirSync(join(at(step.symlink[0]), ".."), { recursive: true });
      symlinkSync(step.symlink[1], at(step.symlink[0]));
    } else if ("chmod" in step) chmodSync(at(step.chmod[0]), step.chmod[1]);
    else wavLie(at(step.wav_lie[0]), step.wav_lie[1]);
  }
}

function wavLie(file: string, lie: WavLie): void {
  let bytes = readFileSync(file);
  // The header crashlab writes: RIFF, fmt at 12 (channels at 22, rate at 24), data's size at 40.
  if (lie.riff_size !== undefined) bytes.writeUInt32LE(lie.riff_size, 4);
  if (lie.channels !== undefined) bytes.writeUInt16LE(lie.channels, 22);
  if (lie.rate !== undefined) bytes.writeUInt32LE(lie.rate, 24);
  if (lie.data_size !== undefined) bytes.writeUInt32LE(lie.data_size, 40);
  if (lie.flip !== undefined) bytes[lie.flip] = bytes[lie.flip]! ^ 0xff;
  if (lie.cut !== undefined) bytes = bytes.subarray(0, lie.cut);
  writeFileSync(file, bytes);
}

async function cli(argv: string[], cwd: string) {
  let stdout = "";
  let stderr = "";
  // main() must return for a damaged folder, never throw: a throw fails the case here.
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, alpha: alpha as Record<string, unknown>, env: {} });
  return { code, stdout, stderr };
}

function expectOneClearParagraph(result: { code: number; stdout: string; stderr: string }, code: number, expected: string[], label: string): void {
  expect(result.code, `${label}: exit code (stderr: ${result.stderr}; stdout: ${result.stdout.slice(0, 300)})`).toBe(code);
  expect(result.stdout, label).toBe("");
  expect(result.stderr, label).toMatch(/^crashlab: /);
  expect(result.stderr.trimEnd().split("\n"), `${label}: one paragraph`).toHaveLength(1);
  expect(result.stderr, `${label}: no stack trace`).not.toMatch(/\n\s+at |internal error|\bat .*\.ts:\d+:\d+\)/);
  for (const part of expected) expect(result.stderr, `${label}: ${result.stderr}`).toContain(part);
}

/** One offline run (in this process), its folder moved to `<pristine>/<name>`. */
async function pristineRun(name: string, argv: string[]): Promise<void> {
  const out = join(pristine, `${name}-out`);
  const ran = await cli(["run", "--package", join(repo, "crashlab"), ...argv, "--concurrency", "1", "--results-dir", out, "--quiet"], repo);
  expect(ran.code, ran.stderr).toBe(0);
  renameSync(join(out, readdirSync(out)[0]!), join(pristine, name));
  rmSync(out, { recursive: true });
}

beforeAll(async () => {
  pristine = mkdtempSync(join(tmpdir(), "crashlab-folders-"));
  // a: an audio run whose first trial kept its conversation.wav and whose second did not; b: another case
  // at the text level; c: a's case at the text level; s1, s2: the two shards of one text-level run.
  await pristineRun("a", ["--example", "harbor_001", "--repetitions", "2", "--seed", "3"]);
  await pristineRun("b", ["--target", "text_restaurant", "--example", "harbor_002"]);
  await pristineRun("c", ["--target", "text_restaurant", "--example", "harbor_001", "--repetitions", "2"]);
  for (const i of [1, 2]) await pristineRun(`s${i}`, ["--target", "text_restaurant", "--example", "harbor_001", "--example", "harbor_002", "--repetitions", "2", "--shard", `${i}/2`]);
}, 180_000);

afterAll(() => {
  if (pristine) rmSync(pristine, { recursive: true, force: true });
});

describe("the damaged-run-folder corpus", () => {
  it("holds at least 150 cases across merge, compare, resume, shard, view, audio extract and init", () => {
    const kinds = (prefix: string) => cases.filter((c) => c.id.startsWith(prefix)).length;
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) expect(c.id, c.id).toMatch(/^(merge|compare|resume|shard|view|audio|init)\//);
    expect(kinds("merge/")).toBeGreaterThanOrEqual(30);
    expect(kinds("compare/")).toBeGreaterThanOrEqual(20);
    expect(kinds("resume/")).toBeGreaterThanOrEqual(15);
    expect(kinds("shard/")).toBeGreaterThanOrEqual(10);
    expect(kinds("view/")).toBeGreaterThanOrEqual(15);
    expect(kinds("audio/")).toBeGreaterThanOrEqual(15);
    expect(kinds("init/")).toBeGreaterThanOrEqual(10);
    // The README states the corpus size; this keeps the two equal.
    expect(readFileSync(join(repo, "README.md"), "utf8")).toContain(`(\`test/fixtures/bad/folders.json\`, ${cases.length} cases:`);
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    const dir = mkdtempSync(join(tmpdir(), "crashlab-folder-"));
    try {
      for (const name of FOLDERS) cpSync(join(pristine, name), join(dir, name), { recursive: true, preserveTimestamps: true });
      const fill = (text: string) => FOLDERS.reduce((t, name) => t.replaceAll(`{${name}}`, join(dir, name)), text.replaceAll("{dir}", dir).replaceAll("{repo}", repo));
      applySetup(dir, JSON.parse(fill(JSON.stringify(c.setup ?? []))) as Step[]);
      const before = snapshot(dir);
      const result = await cli(c.argv.map(fill), dir);
      expectOneClearParagraph(result, c.code ?? 2, c.expect.map(fill), c.id);
      expect(snapshot(dir), `${c.id}: nothing written`).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
