/**
 * A gate decision must never be wrong by accident: what a user can
 * get wrong in flags, PLAN settings, datasets, recordings and the results folder ends as a clear input
 * error (exit 2) before anything runs or is written — and what is right still passes.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, closeSync, existsSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as alpha from "../src/alpha/index";
import { pcm16ToBytes } from "../src/core/audio/pcm";
import { pcm16Wav, readWav } from "../src/core/audio/wav";
import { parseGenerateAudioArgs } from "../src/core/cli/generate-audio";
import { main } from "../src/core/cli/main";
import { runOptions, settingFlags } from "../src/core/cli/options";
import { engineFor, resolveArgs } from "./settings-harness";
import { formatBytes, InputFileError, readInputFile } from "../src/core/dataset/input-file";
import { MAX_JSON_DEPTH } from "../src/core/dataset/json-text";
import { DatasetError, loadDataset, MAX_DATASET_BYTES } from "../src/core/dataset/load";
import { createRunFolder, ResultsFolderError } from "../src/core/report/results-folder";
import { crawl, DEFAULT_MAX_TRIALS, definePlan, MAX_TRIALS_CEILING, PlanError, type CaseDefinition, type PlanDefinition } from "../src/core/run/plan";
import { checkCasesAgainstWorlds } from "../src/core/run/preflight";
import { resolveRun } from "../src/core/run/run";
import { OPENAI_SPEECH_VOICES } from "../src/core/speech/openai-tts";
import { loadRecording, MAX_RECORDING_BYTES, RecordingError } from "../src/core/walk/recordings";
import { restaurantTargets } from "../crashlab/adapters/restaurant-targets";
import { restaurantWorld } from "../crashlab/worlds/restaurant";
import { tones } from "./walk-signal";

const repo = resolve(import.meta.dirname, "..");
const README = readFileSync(join(repo, "README.md"), "utf8");

async function cli(argv: string[], cwd = repo, env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, alpha: alpha as Record<string, unknown>, env });
  return { code, stdout, stderr };
}

/** Exit 2, one line naming the problem, nothing on stdout. */
function refused(result: { code: number; stdout: string; stderr: string }, message: string | RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at |internal error/);
  if (typeof message === "string") expect(result.stderr).toContain(message);
  else expect(result.stderr).toMatch(message);
}

const temp = (prefix = "crashlab-trust-") => mkdtempSync(join(tmpdir(), prefix));

const scenario = (over: Record<string, unknown> = {}) => ({
  id: "s1",
  title: "Book a table",
  interaction: "single_turn",
  tags: ["booking"],
  input: { text: "Book a table for two under Maya on August 14 at 7 p.m." },
  application: { initial_state: {} },
  expected: {
    answer: "Confirms the booking.",
    delegation: "required",
    tools: { required: [{ name: "create_reservation", arguments: { guest_name: "Maya", party_size: 2 } }], prohibited: [] },
    state: { reservation_created: true },
  },
  ...over,
});
const dataset = (...scenarios: unknown[]) => JSON.stringify({ schema_version: "1.0", scenarios });

/** A folder with `d.json` and a package (`pkg/evaluations.ts`) whose CRAWL or WALK cases come from it. */
function workspace(datasetText: string, kind: "crawl" | "walk" = "crawl"): { dir: string; data: string; pkg: string } {
  const dir = temp();
  writeFileSync(join(dir, "d.json"), datasetText);
  mkdirSync(join(dir, "pkg"));
  writeFileSync(
    join(dir, "pkg", "evaluations.ts"),
    `import { ${kind}, definePlan, loadDataset } from "crashlab/alpha";
import { restaurantWorld } from ${JSON.stringify(join(repo, "crashlab/worlds/restaurant.ts"))};
import { restaurantTargets } from ${JSON.stringify(join(repo, "crashlab/adapters/restaurant-targets.ts"))};
export const PLAN = definePlan({ name: "t", targets: restaurantTargets(), cases: ${kind}(loadDataset(new URL("../d.json", import.meta.url)), { world: restaurantWorld }) });
`,
  );
  return { dir, data: join(dir, "d.json"), pkg: join(dir, "pkg") };
}

const voice = tones([220, 660], 6000, 0.5);

describe("every numeric and enum flag and every PLAN setting refuses empty, NaN, infinite, huge and negative values", () => {
  it('--min-pass-rate "" no longer passes every gate: exit 2, nothing written', async () => {
    const out = join(temp(), "out");
    for (const argv of [["--min-pass-rate", ""], ["--min-pass-rate="]]) {
      const r = await cli(["run", "--target", "faulty_double_books", ...argv, "--results-dir", out]);
      refused(r, "--min-pass-rate needs a value (got an empty string)");
    }
    expect(existsSync(out)).toBe(false);
  });

  const judged = ["--judge", "--judge-endpoint", "http://127.0.0.1:9/v1"];
  const bad = ["", "   ", "NaN", "Infinity", "-Infinity", "-1", "1e9", "abc", "0x10", "1,5"];
  const numeric = settingFlags().filter((f) => f.means === "value" && (f.setting.kind === "whole" || f.setting.kind === "decimal")).map((f) => f.flag);
  it.each(numeric)("--%s refuses every bad value with its range, before the package loads", async (flag) => {
    for (const value of bad) {
      const r = await cli(["run", ...(flag.startsWith("judge-") ? judged : []), `--${flag}`, value], "/nonexistent-cwd");
      refused(r, new RegExp(`--${flag} (needs a value|takes (a whole number|a number|a multiple))`));
    }
  });

  it("accepts the values each numeric flag is documented to take", () => {
    const o = engineFor(["--min-pass-rate", ".5", "--seed", "0", "--trial-timeout-seconds", "0.5", "--repetitions", "1000000", "--max-trials", "1000000", "--concurrency", "8", "--chunk-ms", "200", "--max-examples", "0"]);
    expect(o).toMatchObject({ seed: 0, repetitions: 1_000_000, max_trials: 1_000_000, concurrency: 8, gates: { min_pass_rate: 0.5 }, limits: { time_ms: 500 }, audio: { chunk_ms: 200 } });
    expect(engineFor(["--min-pass-rate", "1"]).gates!.min_pass_rate).toBe(1);
    expect(engineFor(["--min-pass-rate", "0"]).gates!.min_pass_rate).toBe(0);
  });

  it("--seed -1 reaches the range check instead of parseArgs' 'argument is ambiguous'", async () => {
    const r = await cli(["run", "--seed", "-1"]);
    refused(r, '--seed takes a whole number >= 0 (got "-1")');
    expect(r.stderr).not.toContain("ambiguous");
  });

  const single = Object.entries(runOptions()).filter(([, o]) => !o.multiple).map(([name]) => name);
  it.each(single)("--%s given twice is refused, not silently overridden", async (flag) => {
    const option = runOptions()[flag]!;
    const twice = option.type === "string" ? [`--${flag}`, "1", `--${flag}`, "2"] : [`--${flag}`, `--${flag}`];
    refused(await cli(["run", ...twice], "/nonexistent-cwd"), `--${flag} was given 2 times`);
  });

  const strings = Object.entries(runOptions()).filter(([, o]) => o.type === "string").map(([name]) => name);
  it.each(strings)('--%s "" is refused: every value must say something', async (flag) => {
    refused(await cli(["run", `--${flag}`, ""], "/nonexistent-cwd"), `--${flag} needs a value (got an empty string)`);
  });

  it("enum flags list their choices", async () => {
    refused(await cli(["run", "--assistant", "server"]), '--assistant takes one of responses, client (got "server")');
    refused(await cli(["run", "--speech-detector", "vad"]), '--speech-detector takes one of rms, webrtc (got "vad")');
    refused(await cli(["run", "--condition", "quiet"]), "--condition takes one of clean, noisy, telephony, background_speech, echo, packet_loss, realistic");
    refused(await cli(["run", ...judged, "--judge-reasoning-effort", "max"]), "--judge-reasoning-effort takes one of none, minimal, low, medium, high, xhigh");
    refused(await cli(["run", "--model", ""]), "--model needs a value (got an empty string)");
  });

  it("generate-audio's flags follow the same rules", () => {
    const io = { cwd: repo, env: {} };
    const base = ["--data", "a.json", "--output-data", "b.json"];
    expect(() => parseGenerateAudioArgs([...base, "--seed", "-1"], io)).toThrow('--seed takes a whole number >= 0 (got "-1")');
    expect(() => parseGenerateAudioArgs([...base, "--seed", "1", "--seed", "1"], io)).toThrow("--seed was given 2 times");
    expect(() => parseGenerateAudioArgs([...base, "--condition", "noisy", "--noise-rms", "NaN"], io)).toThrow('--noise-rms takes a number (got "NaN")');
    expect(() => parseGenerateAudioArgs([...base, "--condition", "noisy", "--noise-rms", ""], io)).toThrow("--noise-rms needs a value");
    expect(() => parseGenerateAudioArgs([...base, "--voice", " "], io)).toThrow("--voice needs a value (got only whitespace)");
    expect(() => parseGenerateAudioArgs([...base, "--data", "c.json"], io)).toThrow("--data was given 2 times");
  });

  const plan = (over: Partial<PlanDefinition>) => () => definePlan({ name: "p", targets: restaurantTargets(), cases: [], ...over } as PlanDefinition);
  it.each([
    ["defaults.repetitions as a string", { defaults: { repetitions: "5" } }, 'PLAN.defaults.repetitions: expected a whole number from 1 to 1000000 (got the string "5")'],
    ["defaults.concurrency 0", { defaults: { concurrency: 0 } }, "PLAN.defaults.concurrency: expected a whole number from 1 to 64 (got 0)"],
    ["defaults.seed -1", { defaults: { seed: -1 } }, "PLAN.defaults.seed: expected a whole number >= 0 (got -1)"],
    ["defaults.seed NaN", { defaults: { seed: NaN } }, "(got NaN)"],
    ["defaults.max_trials 1e9", { defaults: { max_trials: 1e9 } }, "PLAN.defaults.max_trials: expected a whole number from 1 to 1000000 (got 1000000000)"],
    ["defaults.results_dir empty", { defaults: { results_dir: "" } }, 'PLAN.defaults.results_dir: expected a non-empty string (got the string "")'],
    ["an unknown defaults key", { defaults: { repetition: 5 } }, 'PLAN.defaults: unknown setting(s) "repetition"'],
    ["limits.time_ms Infinity", { limits: { time_ms: Infinity } }, "PLAN.limits.time_ms: expected a whole number from 1 to 86400000 (got Infinity)"],
    ["limits.turns -1", { limits: { turns: -1 } }, "PLAN.limits.turns: expected a whole number from 1 to 100000 (got -1)"],
    ["limits as a number", { limits: 5 }, "PLAN.limits: expected an object (got 5)"],
    ['gates.outcome.min_pass_rate ""', { gates: { outcome: { min_pass_rate: "" } } }, 'PLAN.gates.outcome.min_pass_rate: expected a number from 0 to 1 (got the string "")'],
    ["gates.outcome.min_pass_rate 2", { gates: { outcome: { min_pass_rate: 2 } } }, "PLAN.gates.outcome.min_pass_rate: expected a number from 0 to 1 (got 2)"],
    ['gates.outcome.required "false"', { gates: { outcome: { required: "false" } } }, 'PLAN.gates.outcome.required: expected true or false (got the string "false")'],
  ] as Array<[string, Record<string, unknown>, string]>)("PLAN %s is a PlanError naming the setting and the value found", (_name, over, message) => {
    expect(plan(over as Partial<PlanDefinition>)).toThrow(PlanError);
    expect(plan(over as Partial<PlanDefinition>)).toThrow(message);
  });

  it("valid PLAN settings still pass", () => {
    expect(plan({ defaults: { repetitions: 5, concurrency: 2, seed: 0, max_trials: 20_000, results_dir: "out" }, limits: { time_ms: 60_000 }, gates: { outcome: { required: true, min_pass_rate: 0.8, wilson: true } } })()).toMatchObject({ name: "p" });
  });
});

describe("unbounded reads — only regular files, sizes checked before reading", () => {
  it("refuses /dev/zero, a FIFO, a directory and a 5 GiB file without reading them", () => {
    const dir = temp();
    execFileSync("mkfifo", [join(dir, "fifo")]);
    const fd = openSync(join(dir, "huge"), "w");
    ftruncateSync(fd, 5 * 2 ** 30);
    closeSync(fd);
    symlinkSync("/dev/zero", join(dir, "zero-link"));
    const problem = (path: string, max = MAX_RECORDING_BYTES) => {
      try {
        readInputFile(path, max);
      } catch (error) {
        expect(error).toBeInstanceOf(InputFileError);
        return `${(error as InputFileError).problem}: ${(error as InputFileError).detail}`;
      }
      return "read";
    };
    expect(problem("/dev/zero")).toBe("not_a_file: it is a character device, not a regular file");
    expect(problem(join(dir, "zero-link"))).toBe("not_a_file: it is a character device, not a regular file");
    expect(problem(join(dir, "fifo"))).toBe("not_a_file: it is a named pipe (FIFO), not a regular file");
    expect(problem(dir)).toBe("not_a_file: it is a directory, not a regular file");
    expect(problem(join(dir, "huge"))).toBe("too_large: it is 5.0 GiB, more than the 64 MiB accepted");
    expect(problem(join(dir, "missing"))).toBe("missing: the file does not exist");
    writeFileSync(join(dir, "ten"), "0123456789");
    expect(problem(join(dir, "ten"), 10)).toBe("read");
    expect(problem(join(dir, "ten"), 9)).toBe("too_large: it is 10 bytes, more than the 9 bytes accepted");
    expect(readInputFile(join(dir, "ten"), 10).toString()).toBe("0123456789");
  });

  it("validate and run refuse a /dev/zero or FIFO recording and a /dev/zero dataset with exit 2", async () => {
    const ws = workspace(dataset(scenario({ input: { text: "Book a table for two.", recordings: [{ id: "r1", path: "audio/r1.wav" }] } })), "walk");
    mkdirSync(join(ws.dir, "audio"));
    symlinkSync("/dev/zero", join(ws.dir, "audio", "r1.wav"));
    refused(await cli(["validate", ws.data], ws.dir), 'Recording "r1" of scenario "s1" in dataset');
    refused(await cli(["validate", ws.data], ws.dir), "the path is a character device, not a regular file");
    refused(await cli(["run", "--package", ws.pkg, "--results-dir", join(ws.dir, "out")], ws.dir), /scenario "s1", field scenarios\[0\]\.input\.recordings\[0\]: recording "r1" \(audio\/r1\.wav\): the path is a character device/);
    execFileSync("rm", [join(ws.dir, "audio", "r1.wav")]);
    execFileSync("mkfifo", [join(ws.dir, "audio", "r1.wav")]);
    refused(await cli(["validate", ws.data], ws.dir), "the path is a named pipe (FIFO), not a regular file");
    refused(await cli(["validate", "/dev/zero"]), "Invalid dataset /dev/zero: it is a character device, not a regular file");
    expect(existsSync(join(ws.dir, "out"))).toBe(false);
  });

  it("a dataset over the documented maximum is refused before it is read", () => {
    const dir = temp();
    const fd = openSync(join(dir, "big.json"), "w");
    ftruncateSync(fd, MAX_DATASET_BYTES + 1);
    closeSync(fd);
    expect(() => loadDataset(join(dir, "big.json"))).toThrow(`it is ${formatBytes(MAX_DATASET_BYTES + 1)}, more than the 32 MiB accepted. Datasets may be at most 32 MiB`);
  });

  it("the README documents both maxima", () => {
    expect(README).toContain(`${formatBytes(MAX_DATASET_BYTES)}`);
    expect(README).toContain(`${formatBytes(MAX_RECORDING_BYTES)}`);
  });
});

describe("a documented trial-count ceiling, with a message saying how to raise it", () => {
  const small = definePlan({ name: "p", targets: restaurantTargets(), cases: crawl(loadDataset(join(repo, "crashlab/data/crawl.json")), { world: restaurantWorld }) });
  const cases = small.cases.length;

  it("refuses a plan above the ceiling before building its trials", () => {
    const repetitions = Math.floor(DEFAULT_MAX_TRIALS / cases) + 1;
    const trials = repetitions * cases;
    expect(() => resolveRun(small, { repetitions, target: "text_restaurant" })).toThrow(
      `this run would have ${trials.toLocaleString("en-US")} trials (${cases} case(s) × ${repetitions} repetition(s)), more than the ceiling of 10,000: narrow the selection (--example, --tag, --max-examples) or lower --repetitions, or raise the ceiling with --max-trials ${trials}`,
    );
    expect(resolveRun(small, { repetitions, target: "text_restaurant", max_trials: trials }).trials).toHaveLength(trials);
    expect(() => resolveRun(small, { repetitions: 1_000_000, target: "text_restaurant", max_trials: MAX_TRIALS_CEILING })).toThrow("more than the 1,000,000 a run can hold");
  });

  it("--repetitions 1000000000 is refused at once, and the ceiling comes from --max-trials or the PLAN", async () => {
    refused(await cli(["run", "--repetitions", "1000000000"]), '--repetitions takes a whole number from 1 to 1000000 (got "1000000000")');
    refused(await cli(["run", "--repetitions", "500"]), /this run would have 36,000 trials \(72 case\(s\) × 500 repetition\(s\)\).* raise the ceiling with --max-trials 36000/);
    expect(resolveArgs([], { max_trials: 50_000 }).settings.max_trials).toBe(50_000);
    expect(resolveArgs(["--max-trials", "7"], { max_trials: 50_000 }).settings.max_trials).toBe(7);
    expect(resolveArgs([]).settings.max_trials).toBe(DEFAULT_MAX_TRIALS);
  });

  it("the README and --help state the ceiling and how to raise it", async () => {
    expect(README).toMatch(/10,000 trials/);
    expect(README).toContain("--max-trials");
    expect((await cli(["run", "--help"])).stdout).toMatch(/--max-trials <n>\s+[^\n]*\n?[^\n]*\(default 10,000\)/);
  });
});

describe("the results folder is checked before any trial runs", () => {
  const run = (resultsDir: string, cwd = repo) => cli(["run", "--target", "text_restaurant", "--example", "harbor_001", "--results-dir", resultsDir], cwd);

  it("a file, a path under a file, /proc and a link loop: exit 2 with one line, nothing created", async () => {
    const dir = temp();
    writeFileSync(join(dir, "file"), "x");
    symlinkSync("loop", join(dir, "loop"));
    refused(await run(join(dir, "file")), `results folder ${join(dir, "file")} cannot be used: it is a file, not a folder; choose another folder with --results-dir`);
    refused(await run(join(dir, "file", "runs")), `results folder ${join(dir, "file", "runs")} cannot be used: ${join(dir, "file")} is a file, not a folder`);
    refused(await run("/proc/crashlab-x"), "results folder /proc/crashlab-x cannot be used: a folder cannot be created at /proc/crashlab-x");
    refused(await run(join(dir, "loop")), `results folder ${join(dir, "loop")} cannot be used: it is a loop of symbolic links`);
    expect(readdirSync(dir).sort()).toEqual(["file", "loop"]);
    expect(readFileSync(join(dir, "file"), "utf8")).toBe("x");
  });

  it("a folder that cannot be written to: exit 2, not a stack trace", async () => {
    // Root writes anywhere chmod allows nothing: there a kernel file system refuses instead.
    const asRoot = process.getuid?.() === 0;
    let target: string;
    if (asRoot) target = "/sys/crashlab-results";
    else {
      target = join(temp(), "locked");
      mkdirSync(target);
      chmodSync(target, 0o500);
    }
    refused(await run(join(target, "runs")), /cannot be used: .* is not writable \((EACCES|EPERM|EROFS)\)/);
  });

  it("creates missing folders one level at a time, private (0700)", () => {
    const dir = temp();
    const made = createRunFolder(join(dir, "a", "b"), "run-1");
    expect(made).toBe(join(dir, "a", "b", "run-1"));
    for (const p of [join(dir, "a"), join(dir, "a", "b"), made]) expect(statSync(p).mode & 0o777).toBe(0o700);
    expect(() => createRunFolder("/proc/crashlab-y", "r")).toThrow(ResultsFolderError);
  });
});

describe("deeply nested JSON is a typed dataset error in validate and run", () => {
  const deep = (levels: number) => dataset(scenario({ application: { initial_state: {} } })).replace('"initial_state":{}', `"initial_state":{"a":${"[".repeat(levels)}${"]".repeat(levels)}}`);

  it("validate: a typed error naming scenario and field, never a stack trace", async () => {
    const ws = workspace(deep(100_000));
    const r = await cli(["validate", ws.data], ws.dir);
    refused(r, /Invalid dataset .*d\.json: scenario "s1", field scenarios\[0\]\.application\.initial_state\.a\[0\].*: nested more than 64 levels deep/);
  });

  it("run: the dataset is named, not 'the package code'", async () => {
    const ws = workspace(deep(5_000));
    const r = await cli(["run", "--package", ws.pkg, "--results-dir", join(ws.dir, "out")], ws.dir);
    refused(r, "nested more than 64 levels deep");
    expect(r.stderr).not.toContain("package code");
    expect(existsSync(join(ws.dir, "out"))).toBe(false);
  });

  it(`${MAX_JSON_DEPTH} levels load; ${MAX_JSON_DEPTH + 1} do not`, () => {
    // The scenario's own nesting: root, scenarios, scenario, application, initial_state, "a" = 5 containers.
    const at = (levels: number) => {
      const dir = temp();
      writeFileSync(join(dir, "d.json"), deep(levels));
      return () => loadDataset(join(dir, "d.json"));
    };
    expect(at(MAX_JSON_DEPTH - 5)).not.toThrow();
    expect(at(MAX_JSON_DEPTH - 4)).toThrow(DatasetError);
  });
});

/** The message loading this dataset text gives, or "loaded". */
function problem(text: string): string {
  const dir = temp();
  writeFileSync(join(dir, "d.json"), text);
  try {
    loadDataset(join(dir, "d.json"));
  } catch (error) {
    return (error as Error).message;
  }
  return "loaded";
}

describe("precise messages", () => {
  it("a wrong type is not reported as missing", () => {
    expect(problem(JSON.stringify({ schema_version: "1.0", scenarios: {} }))).toContain("field scenarios: wrong type: expected array, got an object");
    expect(problem(dataset(scenario({ title: 5 })))).toContain('scenario "s1", field scenarios[0].title: wrong type: expected string, got a number (5)');
    expect(problem(dataset(scenario({ title: undefined })))).toContain('scenario "s1", field scenarios[0].title: missing (expected string)');
    expect(problem(JSON.stringify({ scenarios: [scenario()] }))).toContain('field schema_version: missing (expected "1.0")');
    expect(problem(JSON.stringify({ schema_version: "2.0", scenarios: [scenario()] }))).toContain('field schema_version: expected "1.0", got a string ("2.0")');
  });

  it("a UTF-8 byte-order mark is accepted", async () => {
    const ws = workspace("\uFEFF" + dataset(scenario()));
    expect(problem("\uFEFF" + dataset(scenario()))).toBe("loaded");
    const r = await cli(["validate", ws.data], ws.dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("valid, 1 scenario(s)");
  });

  it("whitespace-only input.text is exit 2 in validate and run, before anything runs", async () => {
    const ws = workspace(dataset(scenario({ input: { text: "  \n\t " } })));
    const message = 'scenario "s1", field scenarios[0].input.text: is empty or only whitespace; give the caller\'s words';
    refused(await cli(["validate", ws.data], ws.dir), message);
    refused(await cli(["run", "--package", ws.pkg, "--results-dir", join(ws.dir, "out")], ws.dir), message);
    expect(problem(dataset(scenario({ input: { text: "... ?!" } })))).toContain("has no letter or digit");
    expect(existsSync(join(ws.dir, "out"))).toBe(false);
  });

  it("an unknown --voice is exit 2 before anything runs: espeak offline, OpenAI's voices live", async () => {
    const out = join(temp(), "out");
    const offline = await cli(["run", "--target", "restaurant", "--example", "harbor_001", "--voice", "martian", "--results-dir", out]);
    refused(offline, '--voice: espeak-ng speech: voice "martian": espeak-ng has no such voice; use an OpenAI voice name (alloy, ash, ballad, cedar, coral, echo, fable, marin, nova, onyx, sage, shimmer, verse) or an espeak voice');
    refused(await cli(["run", "--target", "restaurant", "--example", "harbor_001", "--voice", "en-us+x9", "--results-dir", out]), 'espeak-ng has no voice variant "+x9"');
    const live = await cli(["run", "--live", "--voice", "en-us", "--results-dir", out], repo, { OPENAI_API_KEY: "sk-test-000000000000" });
    refused(live, `--voice "en-us" is not an OpenAI speech voice; with --live use one of ${OPENAI_SPEECH_VOICES.join(", ")}`);
    expect(existsSync(out)).toBe(false);
    // The live list is the speech endpoint's documented built-in voices, as the SDK describes them.
    const sdk = readFileSync(join(repo, "node_modules/openai/resources/audio/speech.d.ts"), "utf8");
    for (const name of OPENAI_SPEECH_VOICES) expect(sdk).toContain(`\`${name}\``);
  });

  it("a known espeak voice and every OpenAI name still pass offline", async () => {
    const out = join(temp(), "out");
    const r = await cli(["run", "--target", "restaurant", "--example", "harbor_001", "--voice", "en-gb", "--results-dir", out, "--quiet"]);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe("prototype keys, odd-length WAV data and recording paths", () => {
  it("__proto__, constructor and prototype keys are refused in datasets and states, with the path", () => {
    const base = dataset(scenario());
    expect(problem(base.replace('"initial_state":{}', '"initial_state":{"__proto__":{"reservations":[]}}'))).toContain(
      'scenario "s1", field scenarios[0].application.initial_state.__proto__: the key "__proto__" is not allowed',
    );
    expect(problem(base.replace('"state":{"reservation_created":true}', '"state":{"constructor":1}'))).toContain('field scenarios[0].expected.state.constructor: the key "constructor" is not allowed');
    expect(problem(base.replace('"party_size":2}', '"party_size":2,"prototype":{}}'))).toContain('the key "prototype" is not allowed');
    expect(problem(base.replace('"title":"Book a table"', '"title":"Book a table","title":"Other"'))).toContain('field scenarios[0].title: duplicate key "title" in one object (JSON keeps only the last)');
    // Ordinary keys that merely contain those words are data like any other.
    expect(problem(base.replace('"state":{"reservation_created":true}', '"state":{"constructor_name":1}'))).toBe("loaded");
  });

  it("a recording whose data ends in half a sample is refused, not silently shortened", () => {
    const dir = temp();
    mkdirSync(join(dir, "audio"));
    const bytes = pcm16Wav(voice, 24_000);
    const odd = new Uint8Array(bytes.length + 1);
    odd.set(bytes);
    const view = new DataView(odd.buffer);
    view.setUint32(4, view.getUint32(4, true) + 1, true);
    view.setUint32(40, view.getUint32(40, true) + 1, true);
    expect(readWav(odd)).toMatchObject({ frames: voice.length, partialFrameBytes: 1 });
    writeFileSync(join(dir, "audio", "odd.wav"), odd);
    let error: RecordingError | undefined;
    try {
      loadRecording(join(dir, "d.json"), { id: "s1" }, { id: "r1", path: "audio/odd.wav" });
    } catch (e) {
      error = e as RecordingError;
    }
    expect(error?.code).toBe("partial_sample");
    expect(error?.message).toContain(`ends with 1 byte(s) that are not a whole sample (${pcm16ToBytes(voice).length + 1} bytes of audio; 16-bit mono needs an even count)`);
  });

  it("recording paths: absolute and '..' are refused by the dataset; symbolic links are followed to a regular file", async () => {
    const rec = (path: string) => dataset(scenario({ input: { text: "Book a table for two.", recordings: [{ id: "r1", path }] } }));
    expect(problem(rec("/tmp/caller.wav"))).toContain("field scenarios[0].input.recordings[0].path: must be relative to the dataset file, not absolute");
    expect(problem(rec("../shared/caller.wav"))).toContain("field scenarios[0].input.recordings[0].path: must not contain '..'");
    expect(problem(rec("audio\\caller.wav"))).toContain("must use forward slashes");

    const ws = workspace(rec("audio/linked.wav"), "walk");
    mkdirSync(join(ws.dir, "audio"));
    mkdirSync(join(ws.dir, "store"));
    writeFileSync(join(ws.dir, "store", "caller.wav"), pcm16Wav(voice, 24_000));
    symlinkSync(join(ws.dir, "store", "caller.wav"), join(ws.dir, "audio", "linked.wav"));
    const ok = await cli(["validate", ws.data], ws.dir);
    expect(ok.code, ok.stderr).toBe(0);
    const loaded = loadRecording(ws.data, { id: "s1" }, { id: "r1", path: "audio/linked.wav" });
    expect(Buffer.from(loaded.pcm).equals(Buffer.from(pcm16ToBytes(voice)))).toBe(true);
    execFileSync("rm", [join(ws.dir, "audio", "linked.wav")]);
    symlinkSync("/dev/zero", join(ws.dir, "audio", "linked.wav"));
    refused(await cli(["validate", ws.data], ws.dir), "the path is a character device, not a regular file");
  });

  it("the README states the recording-path rules", () => {
    expect(README).toMatch(/relative to the dataset file/);
    expect(README).toMatch(/symbolic link/i);
    expect(README).toContain("'..'");
  });
});

describe("validate --package and run check datasets against the package's world, and agree", () => {
  const typo = dataset(scenario({ expected: { answer: "Books it.", delegation: "required", tools: { required: [{ name: "book_appt", arguments: { guest_name: "Maya" } }] }, state: {} } }));

  it("book_appt is refused up front with the world's operation names, by validate --package and by run alike", async () => {
    const ws = workspace(typo);
    const alone = await cli(["validate", ws.data], ws.dir);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toContain("checked without a world (add --package <package> to check initial states and tool names against it)");
    const validated = await cli(["validate", "--package", ws.pkg], ws.dir);
    refused(validated, 'scenario "s1", field expected.tools.required[0].name: "book_appt" is not an operation of world "restaurant" (it has: check_availability, create_reservation, cancel_reservation)');
    const ran = await cli(["run", "--package", ws.pkg, "--target", "text_restaurant", "--results-dir", join(ws.dir, "out")], ws.dir);
    expect(ran.stderr).toBe(validated.stderr);
    expect(ran.code).toBe(2);
    expect(existsSync(join(ws.dir, "out"))).toBe(false);
    refused(await cli(["validate", "--package", ws.pkg, ws.data], ws.dir), '"book_appt" is not an operation of world "restaurant"');
  });

  it("an initial state the world rejects and an argument it does not take fail both, identically", async () => {
    for (const [text, message] of [
      [dataset(scenario({ application: { initial_state: { tables: 3 } } })), /scenario "s1", field application\.initial_state: .*tables/],
      [dataset(scenario({ expected: { answer: "x", tools: { required: [{ name: "create_reservation", arguments: { partysize: 2 } }] } } })), /field expected\.tools\.required\[0\]\.arguments\.partysize: create_reservation takes no argument "partysize" \(it takes: .*party_size/],
    ] as Array<[string, RegExp]>) {
      const ws = workspace(text);
      const validated = await cli(["validate", "--package", ws.pkg], ws.dir);
      refused(validated, message);
      expect((await cli(["run", "--package", ws.pkg, "--results-dir", join(ws.dir, "out")], ws.dir)).stderr).toBe(validated.stderr);
    }
  });

  it("procedure tool steps and case-authorized tools are checked too", () => {
    const base = crawl(loadDataset(join(repo, "crashlab/data/crawl.json")), { world: restaurantWorld })[0]!;
    const withProcedure: CaseDefinition = {
      ...base,
      scenario: { ...base.scenario, expected: { ...base.scenario.expected, procedure: { id: "p", steps: [{ id: "book", kind: "tool", tool: "book_table", after: [], required: true, critical: false }] } } },
    };
    expect(() => checkCasesAgainstWorlds([withProcedure])).toThrow('field expected.procedure.steps[0].tool: "book_table" is not an operation of world "restaurant"');
    const unauthorized: CaseDefinition = { ...base, tools: ["check_availability"] };
    expect(() => checkCasesAgainstWorlds([unauthorized])).toThrow(`"create_reservation" is expected, but case "${base.id}" does not authorize it as a tool (authorized: check_availability)`);
  });

  it("every bundled case agrees with its world", async () => {
    const r = await cli(["validate", "--package", "crashlab"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/valid, 72 case\(s\) from 3 dataset\(s\) checked against world "restaurant"/);
  });
});
