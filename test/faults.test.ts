import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cli } from "./cli-harness";
import { line, tmp, writeRun } from "./review-fixtures";
import { ResultsFile } from "../src/core/record/results";

/**
 * The machine's faults, end to end with the real bin (src/cli.ts through tsx) in a child process: SIGKILL at
 * several points of a run and of a merge, a full disk and a read-only file system in the middle of a run.
 * After each, the run is resumed (or the merge retried) and must equal an uninterrupted one, with no
 * temporary file and no half-written folder left.
 *
 * The full disk is a 3 MB tmpfs and the read-only file system a read-only bind mount, each made in a private
 * mount namespace (`unshare -m`, as root on Linux, as CI runs). Where namespaces are not allowed the same tests
 * run with a file size limit instead (`ulimit -f`, which fails writes with EFBIG): they say so, and skip nothing.
 *
 * Every kill and stop lands at a named point of the child's work through the test-only hook
 * `CRASHLAB_TEST_SIGNAL_AT=<signal>@<point>` (docs/architecture.md, "Test hooks"): the child signals itself
 * there, so a fast run or a loaded machine cannot slip past the moment a poll was waiting for. Where the
 * test must act while the child waits (a second resume, a read-only mount), the child stops itself
 * (SIGSTOP) and the test waits for that lasting state, then continues it.
 */
const repo = resolve(import.meta.dirname, "..");
// 8 trials, every conversation.wav kept (about 1 MB each) so a run writes enough to fill a small disk.
const ARGS = ["--tag", "crawl", "--max-examples", "4", "--repetitions", "2", "--seed", "5", "--artifacts", "all"];
const TOTAL = 8;
const TSX = [process.execPath, "--import", "tsx", "src/cli.ts"];

const namespaces = process.env.CRASHLAB_TEST_NO_UNSHARE !== "1" && spawnSync("unshare", ["-m", "sh", "-c", `mount -t tmpfs -o size=1m tmpfs "${tmpdir()}" && umount "${tmpdir()}"`]).status === 0;
if (!namespaces) console.warn("faults.test: unshare -m cannot mount here; the full and read-only disk tests use a file size limit (EFBIG) instead");


const runFolders = (out: string) => (existsSync(out) ? readdirSync(out).filter((n) => !n.startsWith(".")) : []);
const folder = (out: string) => join(out, runFolders(out)[0]!);
const results = (dir: string) => ResultsFile.parse(JSON.parse(readFileSync(join(dir, "results.json"), "utf8")));
/** A trial row without what the wall clock decides (when it started, how long it took in real time). */
const comparable = ({ started_at: _s, wall_ms: _w, ...rest }: ResultsFile["trials"][number]) => rest;
const allFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? allFiles(join(dir, n)) : [join(dir, n)])) : []);
const temps = (dir: string) => allFiles(dir).filter((f) => /\.tmp-\d+$/.test(f));
/** The journal's whole lines, each parsed: a valid journal is whole JSON lines, then at most one torn line. */
function journal(dir: string): { rows: Array<{ trial_id: string }>; torn: boolean } {
  const file = join(dir, "trials.jsonl");
  if (!existsSync(file)) return { rows: [], torn: false };
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const tail = lines.pop()!;
  return { rows: lines.map((l) => JSON.parse(l) as { trial_id: string }), torn: tail !== "" };
}

/** The bin in a child; `signalAt` arms the test hook (`<signal>@<point>`, docs/architecture.md). */
function started(argv: string[], signalAt?: string): { child: ChildProcess; closed: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> } {
  const { CRASHLAB_TEST_SIGNAL_AT: _inherited, ...inherited } = process.env;
  const env = { ...inherited, OPENAI_API_KEY: "", ...(signalAt ? { CRASHLAB_TEST_SIGNAL_AT: signalAt } : {}) };
  const child = spawn(TSX[0]!, [...TSX.slice(1), ...argv], { cwd: repo, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  return { child, closed: new Promise((done) => child.on("close", (code, signal) => done({ code, signal, stderr }))) };
}

/** Run the bin until it kills itself at `point` (SIGKILL: no handler runs, nothing is flushed); whether it did. */
async function killedAt(argv: string[], point: string): Promise<{ killed: boolean; stderr: string }> {
  const end = await started(argv, `SIGKILL@${point}`).closed;
  return { killed: end.signal === "SIGKILL", stderr: end.stderr };
}

/** Whether a process is stopped (state T in /proc/<pid>/stat); false once it is gone. */
function isStopped(pid: number): boolean {
  try {
    return /^\d+ \(.*\) T /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Wait for a child that stops itself at its armed point: a state that lasts, so waiting for it cannot race. */
async function stopped(run: ReturnType<typeof started>): Promise<void> {
  let ended = false;
  void run.closed.then(() => (ended = true));
  while (!isStopped(run.child.pid!)) {
    if (ended) throw new Error(`the child ended without reaching its point: ${(await run.closed).stderr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

let reference: ResultsFile;
let referenceDir: string;

beforeAll(async () => {
  const whole = mkdtempSync(join(tmpdir(), "faults-whole-"));
  const r = await cli(["run", ...ARGS, "--results-dir", whole, "--quiet"]);
  expect(r.code).toBe(0);
  referenceDir = folder(whole);
  reference = results(referenceDir);
  expect(reference.trials).toHaveLength(TOTAL);
}, 180_000);

/** The resumed run equals the uninterrupted one, trial for trial, and leaves no temporary file. */
async function resumeAndCompare(dir: string) {
  const resumed = await cli(["run", "--resume", dir]);
  expect(resumed.code, resumed.stderr).toBe(0);
  const got = results(dir);
  expect(got.trials.map(comparable)).toEqual(reference.trials.map(comparable));
  expect(got.summary).toEqual(reference.summary);
  expect(got.gates).toEqual(reference.gates);
  expect(journal(dir).rows.map((r) => r.trial_id).sort()).toEqual(reference.trials.map((t) => t.trial_id).sort());
  expect(temps(dir)).toEqual([]);
  return resumed;
}

describe("SIGKILL at any point of a run, then --resume, equals the uninterrupted run", () => {
  const points: Array<[string, string, number]> = [
    ["before any trial is journaled (the run folder just made)", "after-write:run.json", 0],
    ["after some trials are journaled", "journal:2", 2],
    ["after most trials are journaled", `journal:${TOTAL - 2}`, TOTAL - 2],
  ];
  for (const [when, point, journaled] of points)
    it(`killed ${when}`, async () => {
      const out = mkdtempSync(join(tmpdir(), "faults-kill-"));
      const { killed, stderr } = await killedAt(["run", ...ARGS, "--results-dir", out, "--quiet"], point);
      expect(killed, stderr).toBe(true);
      const dir = folder(out);
      expect(existsSync(join(dir, "run.json"))).toBe(true);
      expect(existsSync(join(dir, "results.json"))).toBe(false);
      expect(journal(dir).rows).toHaveLength(journaled);
      await resumeAndCompare(dir);
    }, 180_000);

  it("killed twice: during the run, then during its resume (which left its lock behind); the next resume finishes it", async () => {
    const out = mkdtempSync(join(tmpdir(), "faults-kill-resume-"));
    expect((await killedAt(["run", ...ARGS, "--results-dir", out, "--quiet"], "journal:2")).killed).toBe(true);
    const dir = folder(out);
    expect(journal(dir).rows).toHaveLength(2);
    // The resume is killed after it journaled two more trials, holding the folder's lock.
    expect((await killedAt(["run", "--resume", dir], "journal:2")).killed).toBe(true);
    expect(existsSync(join(dir, "run.lock"))).toBe(true);
    expect(journal(dir).rows).toHaveLength(4);
    const resumed = await resumeAndCompare(dir);
    expect(resumed.stderr).toMatch(/took over the lock left by process \d+, which is no longer running/);
    expect(existsSync(join(dir, "run.lock"))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, "run.json"), "utf8")).resumes).toHaveLength(2);
  }, 240_000);

  it("two resumes of one folder started at once, as two processes: one runs it, the other is refused and writes nothing", async () => {
    const out = mkdtempSync(join(tmpdir(), "faults-two-resumes-"));
    expect((await killedAt(["run", ...ARGS, "--results-dir", out, "--quiet"], "journal:1")).killed).toBe(true);
    const dir = folder(out);
    // Each stops itself once it holds the lock: whichever takes it waits there while the other meets it —
    // however the two are scheduled, the second never finds a folder the first has already finished.
    const both = [started(["run", "--resume", dir, "--quiet"], "SIGSTOP@locked"), started(["run", "--resume", dir, "--quiet"], "SIGSTOP@locked")];
    const refused = await Promise.race(both.map((r, i) => r.closed.then((end) => ({ ...end, i }))));
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`^crashlab: ${join(dir, "run.lock").replaceAll("/", "\\/")}: this run folder is being written by process \\d+ .*resume again`));
    expect(refused.stderr.trimEnd().split("\n")).toHaveLength(1);
    const winner = both[1 - refused.i]!;
    await stopped(winner);
    // The refused one wrote nothing: one trial journaled, the lock the winner's.
    expect(journal(dir).rows).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dir, "run.lock"), "utf8")).pid).toBe(winner.child.pid);
    winner.child.kill("SIGCONT");
    expect((await winner.closed).code).toBe(0);
    // The folder holds the one writer's work: every trial once, equal to the uninterrupted run.
    const got = results(dir);
    expect(got.trials.map(comparable)).toEqual(reference.trials.map(comparable));
    expect(journal(dir).rows).toHaveLength(TOTAL);
    expect(existsSync(join(dir, "run.lock"))).toBe(false);
  }, 240_000);

  it("killed in the middle of writing a file: the temporary file it left is removed by --resume", async () => {
    const out = mkdtempSync(join(tmpdir(), "faults-midwrite-"));
    // Not --quiet: the resume (which keeps the run's flags) then says what it removed. The child kills itself
    // with half of the first conversation.wav in its temporary file.
    const { killed, stderr } = await killedAt(["run", ...ARGS, "--results-dir", out], "mid-write:conversation.wav");
    expect(killed, stderr).toBe(true);
    const dir = folder(out);
    const left = temps(dir);
    const wav = left.filter((f) => /\/conversation\.wav\.tmp-\d+$/.test(f));
    expect(wav).toHaveLength(1);
    expect(existsSync(wav[0]!.replace(/\.tmp-\d+$/, ""))).toBe(false);
    // Half of a stereo WAV of the conversation: more than its header, less than the whole.
    expect(statSync(wav[0]!).size).toBeGreaterThan(44);
    const resumed = await resumeAndCompare(dir);
    expect(resumed.stderr).toContain(`crashlab: removed ${left.length} temporary file(s) a stopped run left in ${dir}`);
  }, 180_000);
});

describe("SIGKILL during crashlab merge", () => {
  it("leaves no run folder; the next merge removes what the killed one left and equals an unkilled merge", async () => {
    const shards = mkdtempSync(join(tmpdir(), "faults-shards-"));
    for (const i of [1, 2]) expect((await cli(["run", ...ARGS, "--shard", `${i}/2`, "--results-dir", join(shards, String(i)), "--quiet"])).code).toBe(0);
    const blobs = [folder(join(shards, "1")), folder(join(shards, "2"))];
    const whole = mkdtempSync(join(tmpdir(), "faults-merge-whole-"));
    expect((await cli(["merge", ...blobs, "--results-dir", whole, "--quiet"])).code).toBe(0);
    const expected = results(folder(whole));

    const out = mkdtempSync(join(tmpdir(), "faults-merge-killed-"));
    // Killed once the merged run's artifacts, journal and run.json are in its hidden folder, before its results.
    const { killed, stderr } = await killedAt(["merge", ...blobs, "--results-dir", out], "after-write:run.json");
    expect(killed, stderr).toBe(true);
    // What the killed merge left is hidden and unfinished: no run folder, nothing --last-failed or view would take for a run.
    expect(runFolders(out)).toEqual([]);
    expect(readdirSync(out)).toHaveLength(1);
    expect(readdirSync(out)[0]).toMatch(/\.merging-\d+$/);
    expect(existsSync(join(out, readdirSync(out)[0]!, "run.json"))).toBe(true);
    expect(existsSync(join(out, readdirSync(out)[0]!, "results.json"))).toBe(false);

    const again = await cli(["merge", ...blobs, "--results-dir", out, "--quiet"]);
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(runFolders(out));
    expect(runFolders(out)).toHaveLength(1);
    const got = results(folder(out));
    expect(got.trials.map(comparable)).toEqual(expected.trials.map(comparable));
    expect(got.trials.map(comparable)).toEqual(reference.trials.map(comparable));
    expect(got.gates).toEqual(expected.gates);
    expect(temps(folder(out))).toEqual([]);
  }, 240_000);
});

/**
 * Run `crashlab run ARGS` with its results folder on a disk that fails: `setup` is shell run first (as root in
 * a private mount namespace when there is one), `during` once the run has journaled a trial. The run folder is
 * copied out (a tmpfs goes with its namespace) with the exit code and stderr.
 */
function faultyRun(kind: "full" | "read-only"): { code: number; stderr: string; dir: string; named: string } {
  const work = mkdtempSync(join(tmpdir(), `faults-${kind}-`));
  const out = join(work, "results");
  const keep = join(work, "kept");
  mkdirSync(out);
  mkdirSync(keep);
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const run = [...TSX, "run", ...ARGS, "--results-dir", out, "--quiet"].map(q).join(" ");
  // The read-only run stops itself once it journaled its first trial (the test hook); the script waits for
  // that lasting state, lays the mount and continues it — at any load, the mount comes mid-run.
  const stoppedRun = `CRASHLAB_TEST_SIGNAL_AT=SIGSTOP@journal:1 ${run}`;
  const waitForStop = `until grep -q '^[0-9]* ([^)]*) T ' /proc/$pid/stat 2>/dev/null; do kill -0 $pid 2>/dev/null || exit 92; sleep 0.02; done`;
  let script: string;
  if (namespaces && kind === "full")
    // 3 MB: the run folder fills it within a few trials.
    script = `mount -t tmpfs -o size=3m tmpfs ${q(out)} || exit 90; ${run} 2>${q(keep)}/stderr; echo $? >${q(keep)}/code; cp -a ${q(out)}/. ${q(keep)}/results`;
  else if (namespaces)
    // A read-only mount laid over the results folder once a trial is journaled: the writes already open go on
    // (they belong to the mount below), every new file is refused with EROFS.
    script = `${stoppedRun} 2>${q(keep)}/stderr & pid=$!; ${waitForStop}; mount --bind ${q(out)} ${q(out)} && mount -o remount,bind,ro ${q(out)} || { kill -9 $pid; exit 91; }; kill -CONT $pid; wait $pid; echo $? >${q(keep)}/code; umount ${q(out)}; cp -a ${q(out)}/. ${q(keep)}/results`;
  else
    // No namespaces: a file size limit (in 512-byte blocks; SIGXFSZ ignored so the write fails with EFBIG).
    script = `trap '' XFSZ; ulimit -f 1000; ${run} 2>${q(keep)}/stderr; echo $? >${q(keep)}/code; cp -a ${q(out)}/. ${q(keep)}/results`;
  const shell = spawnSync(namespaces ? "unshare" : "sh", namespaces ? ["-m", "sh", "-c", script] : ["-c", script], { cwd: repo, env: { ...process.env, OPENAI_API_KEY: "" }, encoding: "utf8", timeout: 170_000 });
  expect(shell.status, shell.stderr).toBe(0);
  const results = join(keep, "results");
  const id = runFolders(results)[0]!;
  // `named`: the run folder where the run wrote it, as the message names it; `dir`: the copy to resume.
  return { code: Number(readFileSync(join(keep, "code"), "utf8")), stderr: readFileSync(join(keep, "stderr"), "utf8"), dir: join(results, id), named: join(out, id) };
}

describe("a disk that fails mid-run: exit 3, one line, a journal to resume from", () => {
  it(`the disk fills up (${namespaces ? "a 3 MB tmpfs: ENOSPC" : "a file size limit: EFBIG"}): one line naming the file and the cause, then --resume finishes the run`, async () => {
    const { code, stderr, dir, named } = faultyRun("full");
    expect(code).toBe(3);
    const cause = namespaces ? "the disk is full; free space" : "the file would pass the file size limit; raise the limit \\(ulimit -f\\)";
    const esc = named.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(stderr).toMatch(new RegExp(`^crashlab: cannot write ${esc}/\\S+: ${cause} and resume with crashlab run --resume ${esc}\\n$`));
    expect(stderr).not.toMatch(/internal error|    at /);
    // The journal: whole JSON lines of finished trials (a torn last line is allowed: resume cuts it off).
    const before = journal(dir);
    expect(before.rows.length).toBeLessThan(TOTAL);
    for (const row of before.rows) expect(reference.trials.map(comparable)).toContainEqual(comparable(row as ResultsFile["trials"][number]));
    expect(existsSync(join(dir, "results.json"))).toBe(false);
    expect(temps(dir)).toEqual([]);
    // Space freed (the folder is on a real disk now): --resume finishes it like an uninterrupted run.
    await resumeAndCompare(dir);
  }, 240_000);

  it(`the file system turns read-only mid-run (${namespaces ? "EROFS" : "a file size limit: EFBIG"}): one line naming the file and the cause, then --resume finishes the run`, async () => {
    const { code, stderr, dir, named } = faultyRun("read-only");
    expect(code).toBe(3);
    const cause = namespaces ? "the file system is read-only; make it writable" : "the file would pass the file size limit; raise the limit \\(ulimit -f\\)";
    const esc = named.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(stderr).toMatch(new RegExp(`^crashlab: cannot write ${esc}/\\S+: ${cause} and resume with crashlab run --resume ${esc}\\n$`));
    const before = journal(dir);
    // The mount turned read-only once a trial was journaled (a file size limit stops at the first large file).
    if (namespaces) expect(before.rows.length).toBeGreaterThanOrEqual(1);
    expect(before.rows.length).toBeLessThan(TOTAL);
    // A file a trial was writing when the mount turned read-only (opened below it, so its write went on)
    // cannot be renamed nor removed on the read-only disk: at most one per trial running then, each a temporary
    // file of this run, none anywhere else. The resume removes them (resumeAndCompare checks none is left).
    const left = temps(dir);
    if (!namespaces) expect(left).toEqual([]);
    for (const t of left) expect(t).toMatch(/\/(audio|events|transcripts)\/.+\.tmp-\d+$/);
    // The run's trials at once: as many as the machine has cores, at most 8 (its default concurrency).
    expect(left.length).toBeLessThanOrEqual(Math.min(8, availableParallelism()));
    await resumeAndCompare(dir);
  }, 240_000);
});

describe("the other commands that write: a read-only file system is one line, exit 3", () => {
  it(`view, compare --html, audio extract, review, init and generate-audio (${namespaces ? "a read-only bind mount: EROFS" : "a file size limit: EFBIG"})`, () => {
    const work = mkdtempSync(join(tmpdir(), "faults-commands-"));
    const ro = join(work, "ro");
    const logs = join(work, "logs");
    mkdirSync(ro);
    mkdirSync(logs);
    const q = (x: string) => `'${x.replace(/'/g, `'\\''`)}'`;
    const trial = reference.trials[0]!.trial_id;
    const commands: Record<string, string[]> = {
      view: ["view", join(ro, "run"), "--print"],
      compare: ["compare", referenceDir, referenceDir, "--html", join(ro, "compare.html")],
      audio: ["audio", "extract", join(ro, "run"), "--trial", trial],
      // A review is one short line, which a file size limit lets through: only a read-only mount refuses it.
      ...(namespaces ? { review: ["review", join(ro, "run"), "--trial", trial, "--verifier", "human.naturalness", "--verdict", "passed", "--reviewer", "ro"] } : {}),
      init: ["init", join(ro, "pkg")],
      generate: ["generate-audio", "--data", "crashlab/data/crawl.json", "--output-data", join(ro, "walk.json"), "--example", "harbor_001"],
    };
    const runs = Object.entries(commands)
      .map(([name, argv]) => `${[...TSX, ...argv].map(q).join(" ")} >/dev/null 2>${q(join(logs, name))}; echo $? >${q(join(logs, `${name}.code`))}`)
      .join("; ");
    // A copy of a finished run without its report, so `view` must write one.
    const copy = `cp -a ${q(referenceDir)} ${q(join(ro, "run"))} && rm ${q(join(ro, "run", "report.html"))}`;
    const script = namespaces
      ? `${copy} && mount --bind ${q(ro)} ${q(ro)} && mount -o remount,bind,ro ${q(ro)} || exit 91; ${runs}`
      : `${copy} || exit 91; trap '' XFSZ; ulimit -f 1; ${runs}`;
    const shell = spawnSync(namespaces ? "unshare" : "sh", namespaces ? ["-m", "sh", "-c", script] : ["-c", script], { cwd: repo, env: { ...process.env, OPENAI_API_KEY: "" }, encoding: "utf8", timeout: 170_000 });
    expect(shell.status, shell.stderr).toBe(0);
    const cause = namespaces ? "the file system is read-only; make it writable" : "the file would pass the file size limit; raise the limit \\(ulimit -f\\)";
    const esc = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // Per command: the file named (a fixed folder, then a pattern for the rest) and the command to run again.
    const expected: Record<string, [string, string, string]> = {
      view: [join(ro, "run", "report.html"), "", "view"],
      compare: [join(ro, "compare.html"), "", "compare"],
      audio: [join(ro, "run", "audio"), "/\\S+\\.wav", "audio extract"],
      // Opened for appending, never through a link: the review is refused by the disk, one line.
      ...(namespaces ? { review: [join(ro, "run", "reviews.jsonl"), "", "review"] as [string, string, string] } : {}),
      // Under a file size limit init fails first in its scratch folder (where it generates the WALK recording).
      init: namespaces ? [join(ro, "pkg"), "(/\\S+)?", "init"] : ["/", "\\S+", "init"],
      generate: [ro, "/\\S+", "generate-audio"],
    };
    for (const [name, [fixed, rest, command]] of Object.entries(expected)) {
      const stderr = readFileSync(join(logs, name), "utf8");
      expect(readFileSync(join(logs, `${name}.code`), "utf8").trim(), `${name}: ${stderr}`).toBe("3");
      expect(stderr, name).not.toMatch(/internal error|\n\s+at /);
      // view says first that it builds the missing report, generate-audio what it is making; the fault is then one line.
      const lines = stderr.trimEnd().split("\n");
      expect(lines.length, name).toBe(name === "view" || name === "generate" ? 2 : 1);
      expect(lines.at(-1), name).toMatch(new RegExp(`^crashlab: cannot write ${esc(fixed)}${rest}: ${cause} and run crashlab ${command} again$`));
    }
    // Nothing was left half-written where writing was possible.
    expect(temps(work)).toEqual([]);
  }, 240_000);
});

/**
 * The bin as a user who lacks a permission. As root (how CI runs) permission bits bind nobody, so there the
 * child runs without the two capabilities that let root pass them (`setpriv` drops CAP_DAC_OVERRIDE and
 * CAP_DAC_READ_SEARCH from its bounding set): chmod then holds for it as for any user. Elsewhere chmod
 * alone does. Either way the faults are the kernel's own EACCES.
 */
const asRoot = process.getuid?.() === 0;
const WITHOUT_DAC = asRoot ? ["setpriv", "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search", "--"] : [];
const bin = (argv: string[]) => [...WITHOUT_DAC, ...TSX, ...argv];

function runAsUser(argv: string[]): { code: number | null; stdout: string; stderr: string } {
  const [command, ...args] = bin(argv);
  const r = spawnSync(command!, args, { cwd: repo, env: { ...process.env, OPENAI_API_KEY: "", CRASHLAB_TEST_SIGNAL_AT: "" }, encoding: "utf8", timeout: 120_000 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A file's bytes and mode, to check that a refused command changed neither. */
const fileState = (file: string) => `${statSync(file).mode.toString(8)} ${readFileSync(file, "base64")}`;

describe("a permission the reader lacks: said as such (exit 3, one line), never as a damaged file", () => {
  const TWO = [{ id: "a#1" }, { id: "a#2" }];

  it("a reviews.jsonl or results.json this user may not read, and a reviews.jsonl it may not write", () => {
    // The child really lacks the permission: the test proves the fault, not a stand-in for it.
    const probe = join(tmp(), "probe");
    writeFileSync(probe, "x", { mode: 0o000 });
    const probed = spawnSync(WITHOUT_DAC[0] ?? "cat", [...WITHOUT_DAC.slice(1), ...(asRoot ? ["cat"] : []), probe], { encoding: "utf8" });
    expect(probed.status, `${probed.stderr} (as root: setpriv must be able to drop root's capabilities here)`).not.toBe(0);
    expect(probed.stderr).toMatch(/Permission denied/);

    const parent = tmp();
    const dir = writeRun(parent, { trials: TWO, reviews: line("a#1", "human.pacing", "passed") });
    const readers = (command: string): string[] => (command === "review" ? ["review", dir, "--trial", "a#2", "--verifier", "human.pacing", "--verdict", "failed", "--reviewer", "bo"] : command === "view" ? ["view", dir, "--print"] : [command, dir]);
    for (const file of ["reviews.jsonl", "results.json"]) {
      chmodSync(join(dir, file), 0o000);
      const before = fileState(join(dir, file));
      for (const command of ["gates", "calibrate", "review-queue", "review", "view"]) {
        const r = runAsUser(readers(command));
        expect(r.code, `${command} (${file}): ${r.stderr}`).toBe(3);
        expect(r.stdout, command).toBe("");
        expect(r.stderr, `${command} (${file})`).toBe(`crashlab: cannot open ${join(dir, file)}: permission denied; give this user access to it and run crashlab ${command} again\n`);
      }
      expect(fileState(join(dir, file))).toBe(before);
      chmodSync(join(dir, file), 0o600);
    }
    // Read-only: read by every reader, and a review is refused by the disk's permission, nothing appended.
    chmodSync(join(dir, "reviews.jsonl"), 0o444);
    const before = fileState(join(dir, "reviews.jsonl"));
    expect(runAsUser(["gates", dir]).code).toBe(0);
    const review = runAsUser(readers("review"));
    expect(review.code, review.stderr).toBe(3);
    expect(review.stderr).toBe(`crashlab: cannot open ${join(dir, "reviews.jsonl")}: permission denied; give this user access to it and run crashlab review again\n`);
    expect(fileState(join(dir, "reviews.jsonl"))).toBe(before);
  }, 240_000);

  it("view --review: a read-only reviews.jsonl refuses a verdict in words (no raw 500), and runs beside it this user may not read are left out, not in the way", async () => {
    const parent = tmp();
    const earlier = writeRun(parent, { run_id: "run-0", started_at: "2026-01-01T08:00:00.000Z", trials: TWO, reviews: line("a#1", "human.pacing", "passed", "ana") });
    const dir = writeRun(parent, { run_id: "run-1", started_at: "2026-01-01T09:00:00.000Z", trials: TWO, reviews: line("a#2", "human.pacing", "failed", "bo") });
    chmodSync(join(earlier, "results.json"), 0o000);
    chmodSync(join(dir, "reviews.jsonl"), 0o444);
    const before = fileState(join(dir, "reviews.jsonl"));
    const [command, ...args] = bin(["view", "--review", dir, "--print", "--reviewer", "zed"]);
    const child = spawn(command!, args, { cwd: repo, env: { ...process.env, OPENAI_API_KEY: "", CRASHLAB_TEST_SIGNAL_AT: "" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    // The server says it serves (stderr), then prints the URL (stdout, --print): both waited for as they arrive, not polled.
    const url = await new Promise<string>((resolve, reject) => {
      const ready = () => {
        if (stdout.includes("\n") && stderr.includes("Press Ctrl-C to stop.")) resolve(stdout.trim());
      };
      child.stdout!.on("data", (d: Buffer) => {
        stdout += d.toString();
        ready();
      });
      child.stderr!.on("data", ready);
      void closed.then((code) => reject(new Error(`view --review ended (exit ${code}) before serving: ${stderr}`)));
    });
    try {
      expect(stderr).toContain(`crashlab: not carrying reviews from ${earlier}: cannot open ${join(earlier, "results.json")}: permission denied; give this user access to it\n`);
      expect((await fetch(url)).status).toBe(200);
      const reviews = await fetch(`${url}reviews`);
      expect(reviews.status).toBe(200);
      const post = await fetch(`${url}reviews`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ trial_id: "a#1", verifier: "human.pacing", verdict: "passed", note: "" }) });
      expect(post.status).toBe(500);
      expect(await post.json()).toEqual({ error: `cannot open ${join(dir, "reviews.jsonl")}: permission denied; give this user access to it and run crashlab view --review again` });
      expect(fileState(join(dir, "reviews.jsonl"))).toBe(before);
    } finally {
      child.kill("SIGINT");
    }
    expect(await closed).toBe(0);
    expect(stderr).not.toMatch(/internal error|\n\s+at /);
  }, 240_000);

  it("a results folder this user may pass through but not list: the run's own reviews decide, carrying says why it found none", () => {
    const parent = tmp();
    const dir = writeRun(parent, { trials: TWO, gates: { "human.pacing": { required: true, min_pass_rate: 1, wilson: false, min_reviewed: 1, min_reviewed_share: 0 } }, reviews: line("a#1", "human.pacing", "passed") });
    chmodSync(parent, 0o300);
    try {
      const r = runAsUser(["gates", dir, "--carry"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("decision: PASS (exit 0)");
      expect(r.stderr).toBe(`crashlab: not carrying reviews from ${parent}: cannot read ${parent}: permission denied; give this user access to it\n`);
    } finally {
      chmodSync(parent, 0o700);
    }
  }, 240_000);
});
