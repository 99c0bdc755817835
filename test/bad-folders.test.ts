/**
 * The damaged-run-folder corpus (test/fixtures/bad/folders.json): every case is a run folder (or the
 * folder `init` writes into) damaged the way an edit, a copy, a full disk or a killed process damages
 * one, or made hostile the way a shared folder can be (links out of it, `..` and absolute artifact paths,
 * a FIFO), then read by one command — merge, compare, run --resume, run --shard, view (as a file, or
 * `--review`'s server: `serve/`), review, gates, calibrate, audio extract or init.
 * A refused case must end with the documented exit code (2 unless the case says otherwise), one paragraph
 * on stderr that names what it should (the file, the field or line, the fix), no stack trace, nothing on
 * stdout, and nothing written: no merged folder, no temporary file, no report or results rewritten. A case
 * with `stdout` is one the command may carry out (the hostile file is not one it reads): it must exit
 * with `code` (0 unless said), print what it says, and write only the paths in `writes`.
 *
 * Every case also holds the content canaries of `outside/`, a folder beside the run folders that the
 * hostile links point into: no output (stdout, stderr, an HTTP answer, a file written) may hold the
 * canary, and no file under `outside/` may change or appear — nothing outside a run folder is read,
 * served or written. Links and FIFOs are made by the setup steps (`symlink`, `fifo`), not kept in git:
 * git on some systems, and the archives CI artifacts travel in, cannot hold them.
 *
 * A `serve` case starts `view --review` on the folder as it is, then applies `after_start` (a link planted
 * while the server runs), sends its requests and checks each answer's status (and, with `says`, its words);
 * then stops the server, which must end with exit 0 having said on stderr what `expect` holds.
 *
 * The pristine run folders are made once, by real offline runs; each case copies them into a fresh folder,
 * applies its damage steps and runs its one command there.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
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
  /** What stderr must hold (a refused case). */
  expect?: string[];
  /** What stdout must hold: the command may carry this case out. */
  stdout?: string[];
  /** Paths (relative to the case's folder) the command may write; nothing else may change. */
  writes?: string[];
  serve?: { after_start?: Step[]; requests: Request[] };
}

/** One request to the review server, relative to its URL (token included), and the status it must get. */
interface Request {
  method?: "GET" | "POST";
  path: string;
  body?: unknown;
  status: number;
  /** What the answer must say (a refused request's JSON error, in words). */
  says?: string;
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
  | { fifo: string }
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
const FOLDERS = ["a", "b", "c", "s1", "s2", "outside"] as const;
let pristine = "";
/** What every file under outside/ holds; made fresh for each test run. */
const CANARY = `CANARY-${randomBytes(8).toString("hex")}`;

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

/**
 * A snapshot without the paths a case may write, and without the times of the folders holding them (a
 * file made in a folder changes the folder's time): what must stay as it was.
 */
function unchanged(lines: string[], allowed: string[]): string[] {
  return lines
    .filter((line) => !allowed.some((p) => line.startsWith(`${p} `) || line.startsWith(`${p}/`)))
    .map((line) => {
      const [path, kind] = line.split(" ");
      return kind === "dir" && allowed.some((p) => p.startsWith(`${path}/`)) ? `${path} dir` : line;
    });
}

/** `a.b.0.c` → the keys of a JSON path (numbers index arrays); `a.[b.c]` is a key holding a dot (a gate id). */
const keys = (path: string) => (path === "" ? [] : path.match(/\[[^\]]*\]|[^.]+/g)!.map((k) => (/^\d+$/.test(k) ? Number(k) : k.startsWith("[") ? k.slice(1, -1) : k)));

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
    else if ("fifo" in step) {
      rmSync(at(step.fifo), { recursive: true, force: true });
      const made = spawnSync("mkfifo", [at(step.fifo)]);
      if (made.status !== 0) throw new Error(`mkfifo ${at(step.fifo)}: ${made.stderr}`);
    } else wavLie(at(step.wav_lie[0]), step.wav_lie[1]);
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

/**
 * `view --review` started on the folder, `after_start` applied, each request sent, then the server stopped:
 * the answers (status and body) and the command's outputs. The URL is taken from stdout (`--print`) as it is
 * printed — no polling.
 */
async function served(c: Case, argv: string[], dir: string, fill: (text: string) => string) {
  let stdout = "";
  let stderr = "";
  const stop = new AbortController();
  let printed: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (printed = resolve));
  const done = main(argv, {
    stdout: (t) => {
      stdout += t;
      if (stdout.includes("\n")) printed(stdout.trim());
    },
    stderr: (t) => (stderr += t),
    cwd: dir,
    alpha: alpha as Record<string, unknown>,
    env: {},
    signal: stop.signal,
  });
  const started = await Promise.race([url, done.then((code) => ({ code }))]);
  if (typeof started !== "string") throw new Error(`${c.id}: view --review ended (exit ${started.code}) before serving: ${stderr}`);
  applySetup(dir, JSON.parse(fill(JSON.stringify(c.serve!.after_start ?? []))) as Step[]);
  const answers: Array<{ request: Request; status: number; body: string }> = [];
  for (const request of c.serve!.requests) {
    const init: RequestInit = request.method === "POST" ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request.body) } : {};
    // The path is sent as written (encoded traversal included): fetch would resolve a literal "..".
    const response = await fetch(`${started}${request.path}`, init);
    answers.push({ request, status: response.status, body: await response.text() });
  }
  stop.abort("SIGINT");
  return { code: await done, stdout, stderr, answers };
}

/** Every file under a folder, with its content, for the canary check of what a command wrote. */
function contents(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) out.set(path, readFileSync(path, "latin1"));
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** outside/: the files hostile links point to, each holding the canary (valid data of its kind where it matters). */
function makeOutside(at: string): void {
  mkdirSync(join(at, "audio"), { recursive: true });
  mkdirSync(join(at, "transcripts"));
  writeFileSync(join(at, "secret.txt"), `${CANARY} a file outside the run folder\n`);
  // A review of a's first trial a reader following the link would count (and a message would quote).
  writeFileSync(join(at, "reviews.jsonl"), JSON.stringify({ trial_id: "harbor_001#1", verifier: "human.naturalness", verdict: "failed", reviewer: CANARY, note: CANARY, at: "2026-01-01T00:00:00Z" }) + "\n");
  const a = join(pristine, "a");
  const transcript = JSON.parse(readFileSync(join(a, "transcripts/harbor_001.r1.json"), "utf8"));
  for (const t of transcript.turns) t.text = CANARY;
  writeFileSync(join(at, "transcript.json"), JSON.stringify(transcript));
  writeFileSync(join(at, "transcripts", "harbor_001.r1.json"), JSON.stringify(transcript));
  const results = JSON.parse(readFileSync(join(a, "results.json"), "utf8"));
  results.run.run_id = CANARY;
  writeFileSync(join(at, "results.json"), JSON.stringify(results));
  // A conversation.wav that is a's own with the canary after it: served or cut, it would carry the canary.
  writeFileSync(join(at, "audio", "conversation.wav"), Buffer.concat([readFileSync(join(a, "audio/harbor_001.r1/conversation.wav")), Buffer.from(CANARY)]));
  writeFileSync(join(at, "audio", "conversation.transcript.txt"), `${CANARY}\n`);
  writeFileSync(join(at, "trials.jsonl"), readFileSync(join(a, "trials.jsonl")));
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
  makeOutside(join(pristine, "outside"));
}, 180_000);

afterAll(() => {
  if (pristine) rmSync(pristine, { recursive: true, force: true });
});

describe("the damaged-run-folder corpus", () => {
  it("holds at least 150 cases across merge, compare, resume, shard, view, audio extract and init, and the hostile ones across every reader", () => {
    const kinds = (prefix: string) => cases.filter((c) => c.id.startsWith(prefix)).length;
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) expect(c.id, c.id).toMatch(/^(merge|compare|resume|shard|view|serve|review|gates|calibrate|audio|init)\//);
    for (const c of cases) expect(c.expect !== undefined || c.stdout !== undefined || c.serve !== undefined, c.id).toBe(true);
    expect(kinds("merge/")).toBeGreaterThanOrEqual(30);
    expect(kinds("compare/")).toBeGreaterThanOrEqual(20);
    expect(kinds("resume/")).toBeGreaterThanOrEqual(15);
    expect(kinds("shard/")).toBeGreaterThanOrEqual(10);
    expect(kinds("view/")).toBeGreaterThanOrEqual(15);
    expect(kinds("audio/")).toBeGreaterThanOrEqual(15);
    expect(kinds("init/")).toBeGreaterThanOrEqual(10);
    // The hostile folders (links out, .. and absolute artifact paths, linked, dangling and self-linked
    // reviews.jsonl, FIFOs) go through every command that reads a run folder, the review server included.
    // Every hostile kind through every command: the matrix has no empty cell.
    const hostile = cases.filter((c) => c.id.includes("/hostile-"));
    const KINDS: Record<string, RegExp> = {
      "a link to a file outside": /\/hostile-(planted-)?link-(wav|transcript|events|results|report|run-json|journal)-out$/,
      "a link to a folder outside": /\/hostile-(planted-)?link-[a-z]+-folder-out$/,
      "a '..' artifact path": /\/hostile-.*dotdot.*-path$/,
      "an absolute artifact path": /\/hostile-.*absolute.*-path$/,
      "a linked reviews.jsonl": /\/hostile-(planted-)?reviews-link-out$/,
      "a dangling reviews.jsonl": /\/hostile-(planted-)?reviews-dangling-link$/,
      "a self-linked reviews.jsonl": /\/hostile-(planted-)?reviews-self-link$/,
      "a FIFO": /\/hostile-(planted-)?[a-z-]*fifo[a-z-]*$/,
    };
    for (const command of ["view", "serve", "review", "gates", "calibrate", "compare", "audio", "merge"])
      for (const [kind, pattern] of Object.entries(KINDS)) expect(hostile.some((c) => c.id.startsWith(`${command}/`) && pattern.test(c.id)), `${command} × ${kind}`).toBe(true);
    // The README states the corpus size; this keeps the two equal.
    expect(readFileSync(join(repo, "README.md"), "utf8")).toContain(`(\`test/fixtures/bad/folders.json\`, ${cases.length} cases:`);
  });

  it.each(cases.map((c) => [c.id, c] as const))("%s", async (_id, c) => {
    const dir = mkdtempSync(join(tmpdir(), "crashlab-folder-"));
    try {
      for (const name of FOLDERS) cpSync(join(pristine, name), join(dir, name), { recursive: true, preserveTimestamps: true });
      const fill = (text: string) => FOLDERS.reduce((t, name) => t.replaceAll(`{${name}}`, join(dir, name)), text.replaceAll("{dir}", dir).replaceAll("{repo}", repo));
      applySetup(dir, JSON.parse(fill(JSON.stringify(c.setup ?? []))) as Step[]);
      const outside = snapshot(join(dir, "outside"));
      // What the command may write, and what a serve case plants while the server runs.
      const planted = (c.serve?.after_start ?? []).map((step) => ("symlink" in step ? step.symlink[0] : "fifo" in step ? step.fifo : ""));
      const allowed = [...(c.writes ?? []), ...planted].filter((p) => p !== "").map((p) => `/${p}`);
      const before = unchanged(snapshot(dir), allowed);
      const argv = c.argv.map(fill);
      let result: { code: number; stdout: string; stderr: string };
      if (c.serve) {
        const s = await served(c, argv, dir, fill);
        result = s;
        for (const a of s.answers) {
          expect(a.status, `${c.id}: ${a.request.method ?? "GET"} ${a.request.path} (${a.body.slice(0, 300)})`).toBe(a.request.status);
          expect(a.body, `${c.id}: ${a.request.path} answered with the canary`).not.toContain(CANARY);
          if (a.request.says !== undefined) expect(a.body, `${c.id}: ${a.request.path}`).toContain(fill(a.request.says));
        }
        expect(result.code, `${c.id}: ${result.stderr}`).toBe(0);
        expect(result.stderr, c.id).not.toMatch(/internal error|\n\s+at /);
        // What the server said on stderr while it served (a run beside it left out of carrying, and why).
        for (const part of (c.expect ?? []).map(fill)) expect(result.stderr, c.id).toContain(part);
      } else {
        result = await cli(argv, dir);
        if (c.stdout === undefined) expectOneClearParagraph(result, c.code ?? 2, (c.expect ?? []).map(fill), c.id);
        else {
          expect(result.code, `${c.id}: exit code (stderr: ${result.stderr})`).toBe(c.code ?? 0);
          expect(result.stderr, `${c.id}: no stack trace`).not.toMatch(/internal error|\n\s+at /);
          for (const part of c.stdout.map(fill)) expect(result.stdout, c.id).toContain(part);
        }
      }
      // Nothing outside the run folder read (its canary in no output), served or written.
      expect(`${result.stdout}\n${result.stderr}`, `${c.id}: the canary of a file outside reached the output`).not.toContain(CANARY);
      expect(snapshot(join(dir, "outside")), `${c.id}: outside/ changed`).toEqual(outside);
      const after = unchanged(snapshot(dir), allowed);
      expect(after, `${c.id}: nothing written${allowed.length ? ` but ${allowed.join(", ")}` : ""}`).toEqual(before);
      for (const [path, text] of contents(dir)) if (!path.startsWith(join(dir, "outside"))) expect(text.includes(CANARY), `${c.id}: ${path} holds the canary`).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
