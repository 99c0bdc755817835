/**
 * Run settings end to end through `crashlab run`: a setting declared in one place reaches the flag,
 * --help, crashlab.toml, the environment, a PLAN's defaults, the plan digest, run.json, a worker thread
 * and the trial; the config file other harnesses write runs as it is; bad config files are refused with
 * nothing written; env files give their variables, the shell wins, keys stay out of every output and a
 * key alone never makes a run live.
 */
// First: the throwaway setting is declared before anything reads the settings (the probe package's PLAN does).
import { removeProbe } from "./fixtures/settings/throwaway";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { runHelp } from "../src/core/cli/help";
import { main } from "../src/core/cli/main";
import { parseRunArgs } from "../src/core/cli/options";
import { definePlan, PlanError } from "../src/core/run/plan";
import { ResultsFile } from "../src/core/record/results";
import { PLAN as BUNDLED_PLAN } from "../crashlab/evaluations";
import { PLAN as PROBE_PLAN } from "./fixtures/settings/package/evaluations";
import { startJudgeServer, type JudgeServer } from "./judge-fixtures";

const repo = resolve(import.meta.dirname, "..");
const PROBE_PACKAGE = "test/fixtures/settings/package";
const workers = new URL("./fixtures/settings/worker.ts", import.meta.url);
afterAll(removeProbe);

async function cli(argv: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd: options.cwd ?? repo, alpha: alpha as Record<string, unknown>, env: options.env ?? {}, workers });
  return { code, stdout, stderr };
}

const temp = (name: string) => mkdtempSync(join(tmpdir(), `settings-${name}-`));
const folder = (out: string) => join(out, readdirSync(out)[0]!);
const runJson = (dir: string) => JSON.parse(readFileSync(join(dir, "run.json"), "utf8"));
/** What each trial's target said, from its transcript. */
const said = (dir: string) =>
  readdirSync(join(dir, "transcripts"))
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .map((f) => readFileSync(join(dir, "transcripts", f), "utf8").match(/probe level \S+ in [a-z ]+thread/)?.[0]);

describe("a setting declared in one place", () => {
  it("is a flag with its range and a --help line with its crashlab.toml key and variable", () => {
    expect(parseRunArgs(["--probe-level", "7"]).flags.values.get("probe_level")).toEqual({ value: 7, label: "--probe-level" });
    expect(() => parseRunArgs(["--probe-level", "10"])).toThrow('--probe-level takes a whole number from 1 to 9 (got "10")');
    expect(runHelp().replace(/\s+/g, " ")).toContain(
      "--probe-level <n> a throwaway setting the tests add to see where a new setting reaches: a whole number from 1 to 9 (default 3). crashlab.toml [execution] probe_level; env CRASHLAB_PROBE_LEVEL",
    );
    expect(() => definePlan({ ...PROBE_PLAN, defaults: { probe_level: 10 } as never })).toThrow(new PlanError("PLAN.defaults.probe_level: expected a whole number from 1 to 9 (got 10). Fix the PLAN in evaluations.ts."));
  });

  it("reaches a worker thread and the trial from the flag, run.json stores it, and it enters the plan digest", async () => {
    const out = temp("probe-flag");
    const r = await cli(["run", "--package", PROBE_PACKAGE, "--probe-level", "7", "--repetitions", "2", "--concurrency", "2", "--results-dir", out, "--quiet"]);
    expect(r.code, r.stderr).toBe(1); // the probe books nothing: the outcome fails, which is not what is tested here
    const dir = folder(out);
    expect(said(dir)).toEqual(Array(4).fill("probe level 7 in a worker thread"));
    expect(runJson(dir).settings.probe_level).toBe(7);
    // In this thread too, from the PLAN's defaults (5) when nothing above gives it; another value, another plan.
    const plain = temp("probe-plan");
    expect((await cli(["run", "--package", PROBE_PACKAGE, "--example", "harbor_001", "--concurrency", "1", "--results-dir", plain, "--quiet"])).code).toBe(1);
    expect(said(folder(plain))).toEqual(["probe level 5 in the main thread"]);
    const again = temp("probe-flag-again");
    expect((await cli(["run", "--package", PROBE_PACKAGE, "--example", "harbor_001", "--concurrency", "1", "--probe-level", "5", "--results-dir", again, "--quiet"])).code).toBe(1);
    expect(runJson(folder(again)).plan_digest).toBe(runJson(folder(plain)).plan_digest);
    const other = temp("probe-other");
    expect((await cli(["run", "--package", PROBE_PACKAGE, "--example", "harbor_001", "--concurrency", "1", "--probe-level", "6", "--results-dir", other, "--quiet"])).code).toBe(1);
    expect(runJson(folder(other)).plan_digest).not.toBe(runJson(folder(plain)).plan_digest);
  });

  it("is read from crashlab.toml and from the environment, in that order of precedence, and --explain-settings says which", async () => {
    const dir = temp("probe-config");
    writeFileSync(join(dir, "crashlab.toml"), "[execution]\nprobe_level = 8\n");
    const byConfig = temp("probe-by-config");
    expect((await cli(["run", "--package", PROBE_PACKAGE, "--example", "harbor_001", "--concurrency", "1", "--config", join(dir, "crashlab.toml"), "--results-dir", byConfig, "--quiet"])).code).toBe(1);
    expect(said(folder(byConfig))).toEqual(["probe level 8 in the main thread"]);
    const env = { CRASHLAB_PROBE_LEVEL: "6" };
    const explained = await cli(["run", "--package", PROBE_PACKAGE, "--config", join(dir, "crashlab.toml"), "--explain-settings"], { env });
    expect(explained.code).toBe(0);
    expect(explained.stdout).toMatch(/\n {2}probe_level +6 +environment: CRASHLAB_PROBE_LEVEL \(environment\)\n/);
    const flagged = await cli(["run", "--package", PROBE_PACKAGE, "--config", join(dir, "crashlab.toml"), "--probe-level", "2", "--explain-settings"], { env });
    expect(flagged.stdout).toMatch(/\n {2}probe_level +2 +command line: --probe-level\n/);
    const configured = await cli(["run", "--package", PROBE_PACKAGE, "--config", join(dir, "crashlab.toml"), "--explain-settings"]);
    expect(configured.stdout).toMatch(new RegExp(`\\n {2}probe_level +8 +config file: ${join(dir, "crashlab.toml").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} line 2 \\(\\[execution\\] probe_level\\)\\n`));
    const planned = await cli(["run", "--package", PROBE_PACKAGE, "--explain-settings"]);
    expect(planned.stdout).toMatch(/\n {2}probe_level +5 +PLAN defaults: PLAN defaults.probe_level\n/);
  });
});

/** The config file other GPT-Live harnesses ship, byte for byte. */
const HARNESS_CONFIG = readFileSync(join(import.meta.dirname, "fixtures/settings/harness-config.toml"), "utf8");

/** A project folder holding a package that is the bundled one, so crashlab.toml and .env can sit beside it. */
function project(name: string, files: Record<string, string>): string {
  const dir = temp(name);
  writeFileSync(join(dir, "evaluations.ts"), `export { PLAN } from ${JSON.stringify(join(repo, "crashlab/evaluations.ts"))};\n`);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

describe("crashlab.toml as other harnesses write it", () => {
  it("runs unchanged: its dataset against the package's world, one trial at a time, in real time", async () => {
    const dir = temp("harness-config");
    mkdirSync(join(dir, "data"));
    const data = JSON.parse(readFileSync(join(repo, "crashlab/data/crawl.json"), "utf8"));
    writeFileSync(join(dir, "data/scenarios.json"), JSON.stringify({ ...data, scenarios: data.scenarios.filter((s: { id: string }) => s.id === "harbor_001") }));
    writeFileSync(join(dir, "config.toml"), HARNESS_CONFIG);
    const out = temp("harness-out");
    const r = await cli(["run", "--config", join(dir, "config.toml"), "--results-dir", out]);
    expect(r.code, r.stderr).toBe(0);
    const results = ResultsFile.parse(JSON.parse(readFileSync(join(folder(out), "results.json"), "utf8")));
    expect(results.run).toMatchObject({ real_time: true, concurrency: 1 });
    expect(results.trials.map((t) => [t.case_id, t.status])).toEqual([["harbor_001", "passed"]]);
    expect(runJson(folder(out)).settings).toMatchObject({ data: [join(dir, "data/scenarios.json")], chunk_ms: 20, response_timeout_seconds: 30, assistant: "responses", verbose: false, real_time: true });
  });

  it("is found beside the package without --config", async () => {
    const dir = project("beside", { "crashlab.toml": "[audio]\nchunk_ms = 40\n" });
    const r = await cli(["run", "--package", dir, "--explain-settings"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\n {2}chunk_ms +40 +config file: \S+crashlab\.toml line 2 \(\[audio\] chunk_ms\)\n/);
    expect(r.stdout).toContain(`config file: ${join(dir, "crashlab.toml")}`);
  });

  const bad: Array<[string, (dir: string) => string, RegExp]> = [
    ["an unknown key", (d) => write(d, "[execution]\nconcurency = 2\n"), /crashlab\.toml line 2: \[execution\] concurency is not a setting \(did you mean concurrency\?\) \(the keys of \[execution\]: .*concurrency/],
    ["a wrong type", (d) => write(d, "[audio]\nreal_time = \"yes\"\n"), /crashlab\.toml line 2: \[audio\] real_time takes true or false \(got the string "yes"\)/],
    ["a value out of range", (d) => write(d, "[execution]\n\nrepetitions = 0\n"), /crashlab\.toml line 3: \[execution\] repetitions takes a whole number from 1 to 1000000 \(got 0\)/],
    ["not TOML", (d) => write(d, "[execution\nseed = 1\n"), /crashlab\.toml line 1, column \d+: not valid TOML/],
    ["a folder", (d) => (mkdirSync(join(d, "crashlab.toml")), join(d, "crashlab.toml")), /config file \S+crashlab\.toml: it is a folder, not a file/],
    ["unreadable", (d) => (symlinkSync(join(d, "crashlab.toml"), join(d, "crashlab.toml")), join(d, "crashlab.toml")), /config file \S+crashlab\.toml: it is a loop of symbolic links/],
  ];
  it.each(bad)("%s: exit 2, one paragraph naming the file and the line, nothing written", async (_what, make, message) => {
    const out = join(temp("bad-config-out"), "results");
    const r = await cli(["run", "--config", make(temp("bad-config")), "--results-dir", out]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    expect(existsSync(out)).toBe(false);
  });
});

function write(dir: string, text: string): string {
  writeFileSync(join(dir, "crashlab.toml"), text);
  return join(dir, "crashlab.toml");
}

describe(".env files", () => {
  let server: JudgeServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  // Neither key is key-shaped (no sk-…): only knowing them as this run's credentials can keep them out.
  const OPENAI_KEY = "envfile-openai-key-4411aa";
  const GATEWAY_KEY = "envfile-gateway-key-7f3a91";

  it("give their variables, the shell winning; other variables are left alone; keys are never shown", async () => {
    const dir = project("env", { ".env": `OPENAI_LIVE_MODEL=gpt-live-from-file\nOPENAI_EVAL_JUDGE_MODEL=judge-from-file\nOPENAI_API_KEY=${OPENAI_KEY}\nDATABASE_URL=postgres://app\nOPENAI_LIVE_VOICE=marin\n` });
    const r = await cli(["run", "--package", dir, "--explain-settings"], { env: { OPENAI_EVAL_JUDGE_MODEL: "judge-from-shell" } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\n {2}model +gpt-live-from-file +environment: OPENAI_LIVE_MODEL \(\S+\.env\)\n/);
    expect(r.stdout).toMatch(/\n {2}judge_model +judge-from-shell +environment: OPENAI_EVAL_JUDGE_MODEL \(environment\)\n/);
    expect(r.stdout).toMatch(/\ncredentials: OPENAI_API_KEY \(\S+\.env\); their values are never shown\n/);
    expect(r.stdout).toMatch(/\nnot read from \S+\.env: DATABASE_URL, OPENAI_LIVE_VOICE\n/);
    expect(r.stdout + r.stderr).not.toContain(OPENAI_KEY);
    // --env-file names another file; a missing one is refused.
    writeFileSync(join(dir, "ci.env"), "OPENAI_LIVE_MODEL=gpt-live-ci\n");
    expect((await cli(["run", "--package", dir, "--env-file", join(dir, "ci.env"), "--explain-settings"])).stdout).toMatch(/\n {2}model +gpt-live-ci +environment: OPENAI_LIVE_MODEL/);
    const missing = await cli(["run", "--package", dir, "--env-file", join(dir, "none.env")]);
    expect([missing.code, missing.stderr]).toEqual([2, `crashlab: env file ${join(dir, "none.env")}: the file does not exist; give --env-file the path of a file of NAME=value lines (docs/configuration.md)\n`]);
  });

  it("a key only in the file does not make the run live: it runs offline, and says the key is set", async () => {
    const dir = project("env-offline", { ".env": `OPENAI_API_KEY=${OPENAI_KEY}\n` });
    const out = temp("env-offline-out");
    const r = await cli(["run", "--package", dir, "--example", "harbor_001", "--results-dir", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("crashlab: OPENAI_API_KEY is set; this run is offline — pass --live to evaluate against the real service");
    expect(runJson(folder(out)).settings).toMatchObject({ live: false, judge: false, real_time: false, speech: "espeak" });
    const results = ResultsFile.parse(JSON.parse(readFileSync(join(folder(out), "results.json"), "utf8")));
    expect(results.run.target_descriptor).toMatchObject({ endpoint: "local-simulator", settings: { mode: "offline", credentials: { live: "none", responses: "none" } } });
    expect(results.trials[0]!.input.speech).toMatchObject({ provider: "espeak-ng" });
  });

  it("keys read from the file are redacted from every output, also when a service echoes them", async () => {
    server = await startJudgeServer(() => ({ status: 401, json: { error: { message: `Incorrect API key provided: ${GATEWAY_KEY}. Also seen: ${OPENAI_KEY}`, type: "invalid_request_error", code: "invalid_api_key" } } }));
    const dir = project("env-redact", { ".env": `OPENAI_API_KEY=${OPENAI_KEY}\nGW_KEY=${GATEWAY_KEY}\n` });
    const out = temp("env-redact-out");
    const r = await cli(["run", "--package", dir, "--example", "harbor_003", "--judge", "--judge-endpoint", server.endpoint, "--judge-api-key-env", "GW_KEY", "--judge-retries", "0", "--results-dir", out, "--verbose", "--json"]);
    expect(r.code).toBe(0);
    expect(server.seen.map((s) => s.auth)).toContain(`Bearer ${GATEWAY_KEY}`);
    const run = folder(out);
    const every = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? every(join(d, n)) : [join(d, n)]));
    const texts = [...every(run).filter((f) => !f.endsWith(".wav")).map((f) => (f.endsWith(".gz") ? gunzipSync(readFileSync(f)).toString("utf8") : readFileSync(f, "utf8"))), r.stdout, r.stderr];
    for (const text of texts) {
      expect(text).not.toContain(GATEWAY_KEY);
      expect(text).not.toContain(OPENAI_KEY);
    }
    // Not vacuous: the echo reached the outputs, redacted.
    expect(readFileSync(join(run, "results.json"), "utf8")).toContain("Incorrect API key provided: [REDACTED]");
    expect(runJson(run).settings.judge_api_key_env).toBe("GW_KEY");
  });

  it("keys never enter the plan digest: runs that differ only in a key's value share it, the library's run too", async () => {
    server = await startJudgeServer(() => ({ status: 401, json: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } } }));
    // Client delegation answered by a Responses endpoint with a key of its own: the key reaches the target's settings.
    const given = ["--example", "harbor_001", "--assistant", "client", "--responses-endpoint", server.endpoint, "--responses-api-key-env", "GW_KEY", "--quiet"];
    const digests: string[] = [];
    for (const key of ["digest-key-one-5c1e0b", "digest-key-two-9d2f7a"]) {
      const out = temp("key-digest");
      await cli(["run", ...given, "--results-dir", out], { env: { GW_KEY: key } });
      // Not vacuous: the run sent this key to the endpoint.
      expect(server.seen.at(-1)?.auth).toBe(`Bearer ${key}`);
      const meta = runJson(folder(out));
      expect(JSON.stringify(meta)).not.toContain(key);
      expect(meta.settings).toMatchObject({ responses_endpoint: server.endpoint, responses_api_key_env: "GW_KEY" });
      digests.push(meta.plan_digest);
    }
    const lib = await alpha.run(BUNDLED_PLAN, {
      package: "crashlab",
      example: ["harbor_001"],
      assistant: "client",
      responses_endpoint: server.endpoint,
      responses_api_key_env: "GW_KEY",
      results_dir: temp("key-digest-lib"),
      cwd: repo,
      env: { GW_KEY: "digest-key-three-0a7b44" },
    });
    expect(server.seen.at(-1)?.auth).toBe("Bearer digest-key-three-0a7b44");
    digests.push(runJson(lib.run_dir).plan_digest);
    expect(digests).toHaveLength(3);
    expect(new Set(digests).size).toBe(1);
  });

  it("never changes the process's own environment", async () => {
    const dir = project("env-untouched", { ".env": "OPENAI_LIVE_MODEL=gpt-live-from-file\n" });
    expect((await cli(["run", "--package", dir, "--explain-settings"])).code).toBe(0);
    expect(process.env.OPENAI_LIVE_MODEL).toBeUndefined();
  });
});
