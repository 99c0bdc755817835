import { gunzipSync } from "node:zlib";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { main } from "../src/core/cli/main";
import { ResultsFile } from "../src/core/record/results";

const repo = resolve(import.meta.dirname, "..");

async function cli(argv: string[], cwd = repo, env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, alpha: alpha as Record<string, unknown>, env });
  return { code, stdout, stderr };
}

/** A throwaway package folder: crashlab/evaluations.ts plus files, and an empty results folder to watch. */
function fixture(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "crashlab-pkg-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const worldImport = JSON.stringify(join(repo, "crashlab/worlds/restaurant.ts"));
const targetImport = JSON.stringify(join(repo, "crashlab/adapters/restaurant-targets.ts"));
const validScenario = {
  id: "s1",
  title: "Hours",
  type: "information",
  interaction: "single_turn",
  tags: [],
  input: { text: "What are your hours?" },
  application: { initial_state: {} },
  expected: { answer: "11 to 10", delegation: "forbidden", state: { unchanged: true } },
};
const packageWith = (dataset: unknown) => ({
  "crashlab/data/d.json": typeof dataset === "string" ? dataset : JSON.stringify(dataset),
  "crashlab/evaluations.ts": `import { crawl, definePlan, loadDataset } from "crashlab/alpha";
import { restaurantWorld } from ${worldImport};
import { restaurantTargets } from ${targetImport};
export const PLAN = definePlan({ name: "t", targets: restaurantTargets(), cases: crawl(loadDataset(new URL("./data/d.json", import.meta.url)), { world: restaurantWorld }) });
`,
});

describe("crashlab CLI: bad input", () => {
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    ["a missing evaluations.ts", {}, /No evaluation package found: looked for crashlab\/evaluations\.ts/],
    ["an evaluations.ts that throws", { "crashlab/evaluations.ts": `throw new Error("boom in package");\nexport const PLAN = 1;` }, /Loading .*evaluations\.ts failed: boom in package \(at .*evaluations\.ts:1\)/],
    ["an evaluations.ts without PLAN", { "crashlab/evaluations.ts": `export const plan = {};` }, /evaluations\.ts does not export PLAN \(it exports: plan\)/],
    ["a PLAN not built with definePlan", { "crashlab/evaluations.ts": `export const PLAN = { cases: [] };` }, /PLAN is not a plan/],
    ["malformed JSON", packageWith('{"schema_version": "1.0", "scenarios": ['), /Invalid dataset .*d\.json: not valid JSON/],
    ["an unknown field", packageWith({ schema_version: "1.0", scenarios: [{ ...validScenario, colour: "red" }] }), /scenario "s1", field scenarios\[0\]: unknown field\(s\) "colour"/],
    ["a duplicate id", packageWith({ schema_version: "1.0", scenarios: [validScenario, { ...validScenario, id: "S1" }] }), /scenario "S1", field scenarios\[1\]\.id: duplicate id/],
    ["an unsafe id", packageWith({ schema_version: "1.0", scenarios: [{ ...validScenario, id: "../x" }] }), /scenario "\.\.\/x", field scenarios\[0\]\.id: must be a safe path component/],
    ["a bad initial state", packageWith({ schema_version: "1.0", scenarios: [{ ...validScenario, application: { initial_state: { tables: 3 } } }] }), /scenario "s1", field application\.initial_state: .*tables/],
  ];
  it.each(cases)("%s: one paragraph naming the file and field, exit 2, no results", async (_name, files, message) => {
    const dir = fixture(files);
    const { code, stdout, stderr } = await cli(["run", "--results-dir", "out"], dir);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toBe("");
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("rejects bad flags and unknown targets or scenarios with exit 2", async () => {
    expect((await cli(["run", "--repetitions", "0"])).stderr).toMatch(/--repetitions takes a whole number from 1 to 1000000 \(got "0"\)/);
    expect((await cli(["run", "--concurrency", "9"])).code).toBe(2);
    expect((await cli(["run", "--bogus"])).stderr).toMatch(/Unknown option '--bogus'/);
    expect((await cli(["run", "--target", "nope", "--results-dir", "/nonexistent/never"])).stderr).toMatch(/unknown target "nope"; the plan declares: restaurant, text_restaurant, /);
    expect((await cli(["run", "--example", "nope"])).stderr).toMatch(/unknown scenario id\(s\): nope/);
    expect((await cli(["frobnicate"])).code).toBe(2);
    expect((await cli(["run", "--assistant", "server"])).stderr).toMatch(/--assistant takes one of responses, client \(got "server"\)/);
    expect((await cli(["run", "--chunk-ms", "25"])).stderr).toMatch(/--chunk-ms takes a whole number from 10 to 200 in steps of 10 \(got "25"\)/);
    expect((await cli(["run", "--endpoint", "http://x"])).stderr).toMatch(/--endpoint takes a ws:\/\/ or wss:\/\/ URL/);
  });

  it("refuses --live without an API key, and says a key alone does not make a run live", async () => {
    const live = await cli(["run", "--live", "--results-dir", "/nonexistent/never"]);
    expect(live.code).toBe(2);
    expect(live.stderr).toMatch(/--live needs OPENAI_API_KEY/);
    const out = mkdtempSync(join(tmpdir(), "crashlab-out-"));
    const offline = await cli(["run", "--target", "text_restaurant", "--max-examples", "1", "--results-dir", out], repo, { OPENAI_API_KEY: "sk-abc-123456789" });
    expect(offline.code).toBe(0);
    expect(offline.stderr).toContain("OPENAI_API_KEY is set; this run is offline — pass --live");
    // Faulty variants exist only offline: asking for one live is a clear input error, not a crash.
    const faultyLive = await cli(["run", "--live", "--target", "faulty_double_books", "--results-dir", out], repo, { OPENAI_API_KEY: "sk-abc-123456789" });
    expect(faultyLive.code).toBe(2);
    expect(faultyLive.stderr).toMatch(/target "faulty_double_books" could not be built with these settings: faults \(double_books\) exist only in the offline policy/);
  });
});

describe("crashlab CLI: run, list, validate", () => {
  it("runs a selection, writes every artifact privately, and results.json validates", async () => {
    const out = mkdtempSync(join(tmpdir(), "crashlab-out-"));
    const ids = alpha.loadDataset(join(repo, "crashlab/data/crawl.json")).dataset.scenarios.slice(0, 3).map((s) => s.id);
    const { code, stdout, stderr } = await cli(["run", "--target", "text_restaurant", "--repetitions", "2", "--results-dir", out, "--run-name", "smoke", ...ids.flatMap((id) => ["--example", id])]);
    expect(stderr).toContain("[6/6]");
    expect(code).toBe(0);
    expect(stdout).toMatch(/6 trials \(target text_restaurant\): 6 passed, 0 failed, 0 inconclusive, 0 infrastructure errors/);
    const [runId] = readdirSync(out);
    expect(runId).toMatch(/^smoke-/);
    const runDir = join(out, runId!);
    const doc = ResultsFile.parse(JSON.parse(readFileSync(join(runDir, "results.json"), "utf8")));
    expect(doc.trials.map((t) => t.trial_id)).toEqual(ids.flatMap((id) => [`${id}#1`, `${id}#2`]));
    expect(doc.summary.cases[0]).toMatchObject({ trials: 2, passes: 2, pass_rate: 1, pass_hat_k: { "1": 1, "2": 1 } });
    for (const t of doc.trials) {
      for (const rel of Object.values(t.artifacts)) {
        const st = statSync(join(runDir, rel));
        expect(st.mode & 0o777).toBe(0o600);
      }
      const lines = gunzipSync(readFileSync(join(runDir, t.artifacts.events!))).toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(lines[0]).toMatchObject({ source: "harness", type: "trial.started" });
    }
    expect(statSync(runDir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(runDir, "junit.xml"), "utf8")).toContain(`<testcase classname="${ids[0]}" name="${ids[0]}#1"`);
  });

  it("exits 1 when a faulty target fails a gate", async () => {
    const out = mkdtempSync(join(tmpdir(), "crashlab-out-"));
    const { code, stdout } = await cli(["run", "--target", "text_faulty_delegates_facts_question", "--tag", "information", "--results-dir", out, "--quiet"]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/decision: FAIL \(exit 1\)/);
  });

  it("lists the package and validates datasets", async () => {
    const list = await cli(["list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("targets: restaurant, text_restaurant, faulty_");
    expect(list.stdout).toContain("verifiers: outcome, no_double_booking");
    const ok = await cli(["validate", "crashlab/data/crawl.json"]);
    expect(ok.stdout).toMatch(/crashlab\/data\/crawl\.json: valid, \d+ scenario\(s\) \(\d+ single_turn\)/);
    const dir = fixture({ "bad.json": '{"schema_version":"1.0","scenarios":[{"id":"x"}]}' });
    const bad = await cli(["validate", "bad.json"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/scenario "x", field scenarios\[0\]\.title: missing/);
  });
});

describe("crashlab CLI: RUN conversations", () => {
  it("--verbose prints a conversation as it unfolds, each caller line with what it meant, then the labelled transcript", async () => {
    const out = mkdtempSync(join(tmpdir(), "crashlab-run-verbose-"));
    const { code, stderr } = await cli(["run", "--example", "run_interrupted_unavailable", "--verbose", "--results-dir", out]);
    expect(code).toBe(0);
    const live = stderr.split("\n").filter((l) => l.startsWith("  run_interrupted_unavailable#1 "));
    expect(live[0]).toMatch(/^ {2}run_interrupted_unavailable#1 +0\.\d\d s {2}CALLER \(opening\): Is there a patio table/);
    expect(live.some((l) => /CALLER \(interrupt\): Sorry to jump in/.test(l))).toBe(true);
    expect(live.some((l) => /\d s {2}ASSISTANT: .*Would you like me to book it\?/.test(l))).toBe(true);
    expect(live.some((l) => /CALLER \(finish\): /.test(l))).toBe(true);
    // The live lines come before the trial's progress line; the transcript after it carries the inferred actions.
    expect(stderr.indexOf("CALLER (opening)")).toBeLessThan(stderr.indexOf("PASS  run_interrupted_unavailable#1"));
    expect(stderr).toMatch(/^ {4}USER \d+\.\.\d+ms \(INTERRUPT\): Sorry to jump in/m);
    expect(stderr).toMatch(/^ {4}USER \d+\.\.\d+ms \(OPENING\): /m);
  }, 120_000);

  it("a package whose datasets hold only conversations but that builds cases with crawl() is told so, not blamed on the filters", async () => {
    const conversationOnly = JSON.parse(readFileSync(join(repo, "crashlab/data/run.json"), "utf8")) as { scenarios: unknown[] };
    const dir = fixture(packageWith({ schema_version: "1.0", scenarios: conversationOnly.scenarios.slice(0, 1) }));
    const { code, stderr } = await cli(["run", "--package", dir]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/has no cases: crawl\(\) and walk\(\) make cases of single-turn scenarios .* converse\(\) of multi-turn ones/);
    expect(stderr).not.toMatch(/selection matches no case/);
  });

  it("a text target skips RUN cases and says why", async () => {
    const out = mkdtempSync(join(tmpdir(), "crashlab-run-text-"));
    const { code, stdout, stderr } = await cli(["run", "--target", "text_restaurant", "--example", "run_missing_name", "--example", "harbor_003", "--results-dir", out, "--json"]);
    expect(code).toBe(0);
    expect(stderr + stdout).toMatch(/skipping 1 case\(s\): target "text_restaurant" takes text; RUN cases hold a spoken conversation \(run_missing_name\)/);
  }, 120_000);
});
