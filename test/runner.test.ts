/**
 * The runner as library callers and the CLI share it: `run()` with a results folder writes the folder
 * `crashlab run` writes; a run folder has one writer at a time; a journal read back is checked row by row.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import * as alpha from "../src/alpha/index";
import { definePlan, run, type FolderRunResult } from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { TrialPool } from "../src/core/runner/pool";
import { PLAN as WITH_DEFAULTS } from "./fixtures/settings/defaults-package/evaluations";
import { PLAN as MAIN_ONLY } from "./fixtures/workers/main-only/evaluations";
import { cli, runFolder } from "./cli-harness";

const repo = resolve(import.meta.dirname, "..");
const tmp = (name: string) => mkdtempSync(join(tmpdir(), `runner-${name}-`));

/** Every file under a folder, relative, sorted. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** A results.json trial row without what differs between two runs of one seed: wall-clock facts. */
function comparableRow(row: Record<string, unknown>) {
  const { wall: _wall, started_at: _started, wall_ms: _ms, ...rest } = row;
  return rest;
}

const results = (dir: string) => JSON.parse(readFileSync(join(dir, "results.json"), "utf8"));
const journalLines = (dir: string) => readFileSync(join(dir, "trials.jsonl"), "utf8").split("\n").filter(Boolean);

describe("run() from the library", () => {
  const workers = new URL("../src/worker.ts", import.meta.url);
  it("writes the same run folder and plan digest as `crashlab run` with the same settings: CRAWL, WALK and RUN cases, the PLAN's defaults, worker threads", async () => {
    const ids = ["harbor_001", "harbor_003_clean", "run_missing_name"];
    const args = [...ids.flatMap((id) => ["--example", id]), "--repetitions", "2", "--artifacts", "all", "--quiet"];
    const out = tmp("cli");
    let stderr = "";
    // Both start a pool of trial worker threads (the PLAN's `defaults.concurrency`: two threads).
    const pool = vi.spyOn(TrialPool, "start");
    let lib: FolderRunResult;
    try {
      const code = await main(["run", ...args, "--results-dir", out], { stdout: () => {}, stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {}, workers });
      expect(code, stderr).toBe(0);
      // The same settings in code; the package named, so trials may run in worker threads as the CLI's do.
      lib = await run(PLAN, { example: ids, repetitions: 2, artifacts: "all", results_dir: tmp("lib"), package: "crashlab", cwd: repo, env: {} });
      expect(pool.mock.calls.map((call) => call[2])).toEqual([2, 2]);
    } finally {
      pool.mockRestore();
    }
    const cliDir = runFolder(out);
    expect(lib.decision.exit_code).toBe(0);
    expect(lib.summary.trials).toBe(6);

    // The same files: run.json, lock gone, journal, results.json, junit.xml, report.html, every artifact.
    expect(files(lib.run_dir)).toEqual(files(cliDir));
    expect(files(cliDir)).toEqual(expect.arrayContaining(["run.json", "trials.jsonl", "results.json", "junit.xml", "report.html"]));
    expect(files(cliDir).filter((f) => f.startsWith("audio/")).length).toBeGreaterThan(0);
    // The same trials, row for row, and the same decision; the PLAN's `defaults.concurrency` honoured by both.
    const a = results(cliDir);
    const b = results(lib.run_dir);
    expect(b.trials.map(comparableRow)).toEqual(a.trials.map(comparableRow));
    expect(b.gates).toEqual(a.gates);
    expect(b.summary).toEqual(a.summary);
    expect({ ...b.run, run_id: 0, started_at: 0, finished_at: 0 }).toEqual({ ...a.run, run_id: 0, started_at: 0, finished_at: 0 });
    expect([a.run.concurrency, b.run.concurrency]).toEqual([PLAN.defaults!.concurrency, PLAN.defaults!.concurrency]);
    // Artifacts (transcripts, events, audio) are byte-identical.
    for (const f of files(cliDir).filter((f) => /^(audio|transcripts|events)\//.test(f))) expect(readFileSync(join(lib.run_dir, f)).equals(readFileSync(join(cliDir, f))), f).toBe(true);
    // The same plan digest and the same settings stored; only the command line differs: the library has none.
    const [metaCli, metaLib] = [cliDir, lib.run_dir].map((d) => JSON.parse(readFileSync(join(d, "run.json"), "utf8")));
    expect(metaLib.plan_digest).toBe(metaCli.plan_digest);
    const { results_dir: _a, quiet: _q, ...cliSettings } = metaCli.settings;
    const { results_dir: _b, quiet: _r, ...libSettings } = metaLib.settings;
    expect(libSettings).toEqual({ ...cliSettings, package: "crashlab" });
    expect(metaCli.argv).toContain("--example");
    expect(metaLib.argv).toEqual([]);
  });

  it("given `data` and a package whose PLAN sets defaults that change its trials: the same cases, worker threads, folder and plan digest as `crashlab run --data`", async () => {
    const dir = tmp("data");
    const crawl = JSON.parse(readFileSync(join(repo, "crashlab/data/crawl.json"), "utf8"));
    const data = join(dir, "two.json");
    writeFileSync(data, JSON.stringify({ ...crawl, scenarios: crawl.scenarios.filter((s: { id: string }) => ["harbor_001", "harbor_003"].includes(s.id)) }));
    const pkg = "test/fixtures/settings/defaults-package";
    const out = tmp("data-cli");
    let stderr = "";
    const pool = vi.spyOn(TrialPool, "start");
    let code: number;
    let lib: FolderRunResult;
    try {
      code = await main(["run", "--package", pkg, "--data", data, "--artifacts", "all", "--quiet", "--results-dir", out], { stdout: () => {}, stderr: (t) => (stderr += t), cwd: repo, alpha: alpha as Record<string, unknown>, env: {}, workers });
      lib = await run(WITH_DEFAULTS, { package: pkg, data: [data], artifacts: "all", results_dir: tmp("data-lib"), cwd: repo, env: {} });
      expect(pool.mock.calls.map((call) => call[2])).toEqual([2, 2]);
    } finally {
      pool.mockRestore();
    }
    expect(stderr).toBe("");
    expect(lib.decision.exit_code).toBe(code);
    const cliDir = runFolder(out);
    // The dataset's two scenarios replaced the PLAN's cases, each run twice (the PLAN's `defaults.repetitions`).
    const ids = ["harbor_001#1", "harbor_001#2", "harbor_003#1", "harbor_003#2"];
    expect(results(cliDir).trials.map((t: { trial_id: string }) => t.trial_id).sort()).toEqual(ids);
    expect(results(lib.run_dir).trials.map((t: { trial_id: string }) => t.trial_id).sort()).toEqual(ids);
    expect(files(lib.run_dir)).toEqual(files(cliDir));
    expect(results(lib.run_dir).trials.map(comparableRow)).toEqual(results(cliDir).trials.map(comparableRow));
    for (const f of files(cliDir).filter((f) => /^(audio|transcripts|events)\//.test(f))) expect(readFileSync(join(lib.run_dir, f)).equals(readFileSync(join(cliDir, f))), f).toBe(true);
    const [metaCli, metaLib] = [cliDir, lib.run_dir].map((d) => JSON.parse(readFileSync(join(d, "run.json"), "utf8")));
    expect(metaLib.plan_digest).toBe(metaCli.plan_digest);
    const { results_dir: _a, quiet: _q, ...cliSettings } = metaCli.settings;
    const { results_dir: _b, quiet: _r, ...libSettings } = metaLib.settings;
    expect(libSettings).toEqual(cliSettings);
    expect(cliSettings).toMatchObject({ data: [data], package: pkg, concurrency: 2, repetitions: 2, chunk_ms: 40, response_deadline_ms: 4500 });
  });

  it("takes each setting from the highest source that gives it: in code, the environment (the shell over the env file), the config file, the PLAN's defaults, the built-in default", async () => {
    const dir = tmp("sources");
    writeFileSync(join(dir, "crashlab.toml"), '[assistant]\nmodel = "m-config"\nbackend_model = "b-config"\n\n[judge]\nmodel = "j-config"\n');
    writeFileSync(join(dir, "ci.env"), "OPENAI_LIVE_MODEL=m-envfile\nOPENAI_LIVE_BACKEND_MODEL=b-envfile\nOPENAI_TTS_MODEL=t-envfile\n");
    const { __crashlab_plan: _brand, ...definition } = PLAN;
    const planned = definePlan({ ...definition, defaults: { ...PLAN.defaults, model: "m-plan", backend_model: "b-plan", judge_model: "j-plan", completion_model: "c-plan" } });
    const r = await run(planned, {
      target: "text_restaurant",
      example: ["harbor_001"],
      model: "m-code",
      results_dir: join(dir, "results"),
      config: join(dir, "crashlab.toml"),
      env_file: join(dir, "ci.env"),
      env: { OPENAI_LIVE_BACKEND_MODEL: "b-shell" },
      cwd: repo,
    });
    expect(JSON.parse(readFileSync(join(r.run_dir, "run.json"), "utf8")).settings).toMatchObject({
      model: "m-code",
      backend_model: "b-shell",
      tts_model: "t-envfile",
      judge_model: "j-config",
      completion_model: "c-plan",
      concurrency: PLAN.defaults!.concurrency,
      speech_detector: "rms",
    });
  });

  it("runs its trials in worker threads when given the package: a package that cannot load in one is refused before any folder exists", async () => {
    const out = tmp("lib-workers");
    await expect(run(MAIN_ONLY, { package: "test/fixtures/workers/main-only", concurrency: 2, results_dir: out, cwd: repo, env: {} })).rejects.toThrow(/loads in the main thread but not in a worker thread/);
    expect(readdirSync(out)).toEqual([]);
    const oneThread = await run(MAIN_ONLY, { package: "test/fixtures/workers/main-only", concurrency: 1, results_dir: out, cwd: repo, env: {} });
    expect(oneThread.summary.trials).toBeGreaterThan(0);
  });

  it("checks what the CLI checks before anything runs: the world preflight, a required judge that would not run, the settings", async () => {
    const out = tmp("lib-checks");
    const world = PLAN.cases[0]!.world;
    const scenario = structuredClone(PLAN.cases[0]!.scenario);
    scenario.expected.tools.required = [{ name: "book_appt", arguments: {}, status: "any" }];
    const typo = definePlan({ name: "typo", targets: PLAN.targets, default_target: "text_restaurant", cases: [{ ...PLAN.cases[0]!, scenario, world }] });
    await expect(run(typo, { results_dir: out, env: {} })).rejects.toThrow(/"book_appt" is not an operation of world "restaurant"/);
    const judged = definePlan({ name: "judged", targets: PLAN.targets, default_target: "text_restaurant", cases: [PLAN.cases[0]!], gates: { "semantic.task_understanding": { required: true } } });
    await expect(run(judged, { results_dir: out, env: {} })).rejects.toThrow(/semantic\.task_understanding is required, but no semantic judge runs/);
    await expect(run(PLAN, { results_dir: out, env: {}, chunk_ms: 25 } as never)).rejects.toThrow("run() settings.chunk_ms: expected a whole number from 10 to 200 in steps of 10 (got 25)");
    await expect(run(PLAN, { results_dir: out, env: {}, concurrency: 9 })).rejects.toThrow(/concurrency 9 is for real-time runs/);
    expect(readdirSync(out)).toEqual([]);
    // In memory (no results_dir), the same front end: PLAN defaults, default caller speech, every record kept.
    const memory = await run(PLAN, { example: ["harbor_001"], env: {} });
    expect(memory.records.map((r) => [r.trial_id, r.status])).toEqual([["harbor_001#1", "passed"]]);
    expect(memory.records[0]!.input.speech).toMatchObject({ provider: "espeak-ng" });
  });

  it("resumes its own folder with the settings it stored: the journal's trials are not run again and the outputs cover them all", async () => {
    const options = { target: "text_restaurant", repetitions: 2, example: ["harbor_001", "harbor_008"], results_dir: tmp("lib-resume"), env: {} };
    const first = await run(PLAN, options);
    const lines = journalLines(first.run_dir);
    expect(lines).toHaveLength(4);
    writeFileSync(join(first.run_dir, "trials.jsonl"), lines.slice(0, 1).join("\n") + "\n");
    const seen: string[] = [];
    const again = await run(PLAN, { resume: first.run_dir, env: {}, reporters: [{ onTrialEnd: (t) => void seen.push(t.trial_id) }] });
    expect(again.run_dir).toBe(first.run_dir);
    expect(seen).toHaveLength(3);
    expect(seen).not.toContain(JSON.parse(lines[0]!).trial_id);
    expect(results(first.run_dir).trials.map(comparableRow)).toEqual(
      lines.map((l) => comparableRow(JSON.parse(l))).sort((x, y) => lines.findIndex((l) => JSON.parse(l).trial_id === x.trial_id) - lines.findIndex((l) => JSON.parse(l).trial_id === y.trial_id)),
    );
    expect(JSON.parse(readFileSync(join(first.run_dir, "run.json"), "utf8")).resumes).toHaveLength(1);
    // The same settings again are the same run; another selection would be another plan: refused, nothing run.
    expect((await run(PLAN, { ...options, resume: first.run_dir })).summary.trials).toBe(4);
    await expect(run(PLAN, { ...options, example: ["harbor_001"], resume: first.run_dir })).rejects.toThrow(/run\(\) settings\.example cannot be changed on resume/);
    await expect(run(PLAN, { resume: first.run_dir, config: "crashlab.toml", env: {} })).rejects.toThrow(`run() settings: config cannot be given with resume — the run in ${first.run_dir} keeps the settings its run.json stored`);
    // A folder an earlier crashlab wrote stores only its command line: `crashlab run --resume` reads that; run() says so and changes nothing.
    const { settings: _settings, ...older } = JSON.parse(readFileSync(join(first.run_dir, "run.json"), "utf8"));
    writeFileSync(join(first.run_dir, "run.json"), JSON.stringify({ ...older, argv: ["--target", "text_restaurant", "--example", "harbor_001", "--repetitions", "2"] }));
    const before = files(first.run_dir).map((f) => [f, readFileSync(join(first.run_dir, f), "utf8")]);
    await expect(run(PLAN, { resume: first.run_dir, env: {} })).rejects.toThrow(
      `${join(first.run_dir, "run.json")} stores only the command line an earlier crashlab ran it with, not its settings: finish that run with \`crashlab run --resume ${first.run_dir}\`, or start a new one`,
    );
    expect(files(first.run_dir).map((f) => [f, readFileSync(join(first.run_dir, f), "utf8")])).toEqual(before);
  });
});

describe("a run folder taken back", () => {
  const base = ["run", "--target", "text_restaurant", "--example", "harbor_001", "--example", "harbor_008", "--repetitions", "2", "--quiet"];

  async function partialRun(name: string): Promise<{ dir: string; lines: string[] }> {
    const out = tmp(name);
    expect((await cli([...base, "--results-dir", out], {})).code).toBe(0);
    const dir = runFolder(out);
    const lines = journalLines(dir);
    writeFileSync(join(dir, "trials.jsonl"), lines.slice(0, 2).join("\n") + "\n");
    return { dir, lines };
  }

  it("refuses a second writer while the first runs, and takes over a lock its holder left behind", async () => {
    const { dir } = await partialRun("lock");
    const [one, two] = await Promise.all([cli(["run", "--resume", dir], {}), cli(["run", "--resume", dir], {})]);
    const codes = [one.code, two.code].sort();
    expect(codes).toEqual([0, 2]);
    const refused = one.code === 2 ? one : two;
    expect(refused.stderr).toContain(join(dir, "run.lock"));
    expect(refused.stderr).toContain(`being written by process ${process.pid}`);
    expect(refused.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(journalLines(dir)).toHaveLength(4);
    expect(readdirSync(dir)).not.toContain("run.lock");

    // A lock whose process is gone (a kill) is stale: the next resume takes it over and says so.
    writeFileSync(join(dir, "trials.jsonl"), journalLines(dir).slice(0, 3).join("\n") + "\n");
    writeFileSync(join(dir, "run.lock"), JSON.stringify({ pid: 2 ** 22 + 17, host: (await import("node:os")).hostname(), since: "2026-01-01T00:00:00.000Z" }));
    const taken = await cli(["run", "--resume", dir], {});
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toContain(`took over the lock left by process ${2 ** 22 + 17}, which is no longer running`);
    expect(journalLines(dir)).toHaveLength(4);
  });

  it("keeps the first row of a trial two writers journaled, and says what it dropped", async () => {
    const { dir, lines } = await partialRun("dupes");
    appendFileSync(join(dir, "trials.jsonl"), lines[1] + "\n" + lines[0] + "\n");
    const resumed = await cli(["run", "--resume", dir], {});
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/kept the first row of 2 trial\(s\) journaled more than once .* dropped 2 later row\(s\)/);
    expect(journalLines(dir).map((l) => JSON.parse(l).trial_id).sort()).toEqual(lines.map((l) => JSON.parse(l).trial_id).sort());
  });

  it("removes the temp files a killed writer left", async () => {
    const { dir } = await partialRun("temps");
    writeFileSync(join(dir, "transcripts", "left.json.tmp-99999"), "{");
    const resumed = await cli(["run", "--resume", dir], {});
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain(`removed 1 temporary file(s) a stopped run left in ${dir} (transcripts/left.json.tmp-99999)`);
    expect(files(dir).filter((f) => /\.tmp-\d+$/.test(f))).toEqual([]);
  });

  it.each([
    ["a status forged to passed", (row: Record<string, any>) => ({ ...row, status: "passed" }), /status says passed but its assessments say failed/],
    ["a seed from another --seed", (row: Record<string, any>) => ({ ...row, seed: row.seed + 1 }), /is not the seed this run gives the trial/],
    ["another package's row", (row: Record<string, any>) => ({ ...row, provenance: { ...row.provenance, parts: { ...row.provenance.parts, package: "sha256:0000" } } }), /is not the package this run was started with/],
    ["a trial not in the run", (row: Record<string, any>) => ({ ...row, trial_id: "harbor_099#1", case_id: "harbor_099" }), /this trial is not one of the run's/],
  ])("refuses a journal row with %s, naming the line, and runs nothing", async (_what, edit, message) => {
    const out = tmp("forged");
    const faulty = ["run", "--target", "text_faulty_double_books", "--example", "harbor_001", "--repetitions", "2", "--results-dir", out, "--quiet"];
    expect((await cli(faulty, {})).code).toBe(1);
    const dir = runFolder(out);
    const rows = journalLines(dir).map((l) => JSON.parse(l));
    expect(rows[0].status).toBe("failed");
    writeFileSync(join(dir, "trials.jsonl"), JSON.stringify(edit(rows[0])) + "\n");
    const before = statSync(join(dir, "trials.jsonl")).mtimeMs;
    const resumed = await cli(["run", "--resume", dir], {});
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`${join(dir, "trials.jsonl")}, line 1`);
    expect(resumed.stderr).toMatch(message);
    expect(resumed.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(statSync(join(dir, "trials.jsonl")).mtimeMs).toBe(before);
    expect(readdirSync(dir)).not.toContain("run.lock");
  });
});

describe("merge reads shards as input", () => {
  it("refuses a shard whose journal row says passed while its assessments say failed, and writes nothing", async () => {
    const out = tmp("merge");
    const shard = (i: number) => cli(["run", "--target", "text_faulty_double_books", "--example", "harbor_001", "--example", "harbor_008", "--shard", `${i}/2`, "--results-dir", join(out, `s${i}`), "--quiet"], {});
    for (const i of [1, 2]) expect([0, 1]).toContain((await shard(i)).code);
    const dirs = [1, 2].map((i) => runFolder(join(out, `s${i}`)));
    const owner = dirs.find((d) => journalLines(d).some((l) => JSON.parse(l).status === "failed"))!;
    const rows = journalLines(owner).map((l) => JSON.parse(l));
    const at = rows.findIndex((r) => r.status === "failed");
    rows[at].status = "passed";
    writeFileSync(join(owner, "trials.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const merged = await cli(["merge", ...dirs, "--results-dir", join(out, "merged")], {});
    expect(merged.code).toBe(2);
    expect(merged.stderr).toContain(`${join(owner, "trials.jsonl")}, line ${at + 1}`);
    expect(merged.stderr).toMatch(/status says passed but its assessments say failed/);
    expect(readdirSync(out).sort()).toEqual(["s1", "s2"]);
  });
});
