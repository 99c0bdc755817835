/**
 * The run settings: one declaration each, from which the flags, --help, crashlab.toml's keys, the
 * environment's variables, a PLAN's defaults and docs/configuration.md's table follow; one resolution
 * with one precedence (flag > environment > config file > PLAN defaults > built-in default), each value
 * with its source; config and env files checked with clear errors naming the file, the line and the key.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { runHelp } from "../src/core/cli/help";
import { parseRunArgs, runOptions, settingFlags } from "../src/core/cli/options";
import { checkSettings } from "../src/core/runner/engine";
import { definePlan, PlanError, type PlanDefinition } from "../src/core/run/plan";
import { readConfigFile } from "../src/core/settings/config-file";
import { digestSettings } from "../src/core/settings/digest";
import { credentialNames, credentialsOf, envLayer, readEnvFile, unreadVariables } from "../src/core/settings/env-file";
import { SettingsError } from "../src/core/settings/errors";
import { explainSettings } from "../src/core/settings/explain";
import type { Setting, SettingValue } from "../src/core/settings/field";
import { planDefaultsProblems, planLayer, type RunDefaults } from "../src/core/settings/plan-defaults";
import { checkedLayer, layerOf, resolveSettings, type Layer } from "../src/core/settings/resolve";
import { settingEntries, staticDefault, type RunSettings } from "../src/core/settings/schema";
import { restaurantTargets } from "../crashlab/adapters/restaurant-targets";
import { importsOf } from "./imports";
import { documentedTable, settingsTable } from "./settings-doc";

const temp = () => mkdtempSync(join(tmpdir(), "settings-"));
const file = (dir: string, name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe("one declaration per setting", () => {
  it("every default is a value its own setting accepts, and no two settings share a flag, a config key or a variable", () => {
    for (const [key, s] of settingEntries()) if (s.default !== undefined && typeof s.default !== "function") expect(s.schema.safeParse(s.default).success, key).toBe(true);
    const flags = settingFlags().map((f) => f.flag);
    expect(new Set(flags).size).toBe(flags.length);
    const configs = settingEntries().flatMap(([, s]) => (s.config ? [s.config] : []));
    expect(new Set(configs).size).toBe(configs.length);
    const envs = settingEntries().flatMap(([, s]) => (s.env ? [s.env] : []));
    expect(new Set(envs).size).toBe(envs.length);
  });

  it("--help states every flag, each setting's crashlab.toml key and variable, from the declarations", () => {
    const help = runHelp();
    for (const flag of Object.keys(runOptions())) expect(help, flag).toContain(`--${flag}`);
    for (const [key, s] of settingEntries().filter(([, s]) => s.flag !== null || s.negation)) {
      if (s.config) expect(help.replace(/\s+/g, " "), key).toContain(`crashlab.toml [${s.config.split(".")[0]}] ${s.config.split(".")[1]}`);
      if (s.env) expect(help, key).toContain(s.env);
    }
    expect(help).toMatch(/--chunk-ms <ms>\s+caller audio chunk length: a whole number from 10 to 200 in steps of 10\s+\(default 20\)/);
  });

  it("docs/configuration.md's table is the declarations' (`pnpm tsx scripts/settings-doc.ts` rewrites it)", () => {
    expect(documentedTable()).toBe(settingsTable());
  });

  it("the plan digest takes exactly the settings declared to enter it, with null for one not set, and no key", () => {
    const { settings } = resolveSettings([]);
    const digested = digestSettings(settings);
    expect(Object.keys(digested).sort()).toEqual(settingEntries().filter(([, s]) => s.digest).map(([k]) => k).sort());
    expect(digested).toMatchObject({ chunk_ms: 20, response_deadline_ms: 5000, endpoint: null });
    expect(Object.keys(digested).some((k) => /api_key_env$|^package$|^results_dir$|^concurrency$/.test(k))).toBe(false);
  });
});

/** Every source file `entry` loads, directly or through others (relative imports of .ts files, types included). */
function importClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of importsOf(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const base = resolve(dirname(file), spec);
      const found = [base, `${base}.ts`, join(base, "index.ts"), base.replace(/\.js$/, ".ts")].find((p) => existsSync(p) && statSync(p).isFile());
      if (found) visit(found);
    }
  };
  visit(entry);
  return seen;
}

/** A value of the setting's kind, different for each `i`, written as a config or PLAN value and as text for a flag or a variable. */
function sample(s: Setting, i: number): { value: SettingValue; text: string } {
  switch (s.kind) {
    case "whole": {
      const { min, max } = rangeOf(s);
      const step = (s.expected.match(/in steps of (\d+)/)?.[1] ?? "1") as string;
      const v = Math.min(max, Math.ceil(min / Number(step)) * Number(step) + i * Number(step));
      return { value: v, text: String(v) };
    }
    case "decimal": {
      const { min, max } = rangeOf(s);
      const v = Math.min(max, min + i + 0.5);
      return { value: v, text: String(v) };
    }
    case "choice":
      return { value: s.choices![i % s.choices!.length]!, text: s.choices![i % s.choices!.length]! };
    case "toggle":
      return { value: i % 2 === 0, text: String(i % 2 === 0) };
    case "list":
      return s.choices ? { value: [s.choices[i % s.choices.length]!], text: s.choices[i % s.choices.length]! } : { value: [`v${i}`], text: `v${i}` };
    default:
      return { value: s.expected.includes("folder name") ? `name${i}` : `v${i}`, text: s.expected.includes("folder name") ? `name${i}` : `v${i}` };
  }
}

function rangeOf(s: Setting): { min: number; max: number } {
  const m = s.expected.match(/from ([\d.]+) to ([\d.]+)/) ?? s.expected.match(/>= ([\d.]+)/);
  return { min: Number(m![1]), max: m![2] ? Number(m![2]) : 1e6 };
}

describe("what a trial worker receives", () => {
  it("the settings are plain data, and no module the worker loads, however deep, is the command line's", () => {
    const { settings } = resolveSettings([parseRunArgs(["--live", "--seed", "4", "--example", "a", "--no-judge"]).flags]);
    expect(JSON.parse(JSON.stringify(settings))).toEqual(settings);
    expect(structuredClone(settings)).toEqual(settings);
    // Every module the worker's entry loads, followed import by import (types too): none is the command line's.
    const loaded = importClosure(join(import.meta.dirname, "../src/worker.ts"));
    expect(loaded.size).toBeGreaterThan(100);
    for (const must of ["src/core/runner/worker.ts", "src/core/runner/engine.ts", "src/core/settings/schema.ts", "src/alpha/index.ts"]) expect(loaded.has(join(import.meta.dirname, "..", must)), must).toBe(true);
    expect([...loaded].filter((f) => f.includes("/src/core/cli/") || f.endsWith("/src/cli.ts"))).toEqual([]);
    // The walk finds a command-line module where one is loaded, however deep: the bin's entry loads cli/.
    expect([...importClosure(join(import.meta.dirname, "../src/cli.ts"))].some((f) => f.includes("/src/core/cli/"))).toBe(true);
  });
});

describe("one resolution: flag > environment > config file > PLAN defaults > built-in default", () => {
  // Every setting that all four sources may give (groups apart: they resolve together, below).
  const full = settingEntries().filter(([, s]) => s.flag !== null && s.env && s.config && s.plan !== false && !s.group);
  it("covers the settings that every source may give", () => expect(full.map(([k]) => k)).toEqual(expect.arrayContaining(["model", "backend_model", "assistant", "tts_model", "judge_model", "judge_reasoning_effort", "completion_model", "results_dir"])));

  it.each(full)("%s takes the highest source that gives it, and says which", (key, s) => {
    const dir = temp();
    const [flagV, envV, configV, planV] = [1, 2, 3, 4].map((i) => sample(s, i));
    const flag = `--${s.flag ?? key.replace(/_/g, "-")}`;
    const layers = {
      flag: parseRunArgs(s.kind === "toggle" ? (flagV.value ? [flag] : [`--${s.negation}`]) : [flag, flagV.text]).flags,
      env: envLayer({ [s.env!]: envV.text }, null),
      config: readConfigFile(file(dir, "crashlab.toml", `[${s.config!.split(".")[0]}]\n# a comment\n${s.config!.split(".")[1]} = ${JSON.stringify(configV.value)}\n`), "crashlab.toml").layer,
      plan: planLayer({ [key]: planV.value } as never),
    };
    const order = ["flag", "env", "config", "plan"] as const;
    for (const [i, top] of order.entries()) {
      const present = order.slice(i).map((k) => layers[k]);
      const r = resolveSettings(present);
      const expected = [flagV, envV, configV, planV][i]!.value;
      expect((r.settings as Record<string, unknown>)[key], `${key} from ${top}`).toEqual(s.path && typeof expected === "string" && top === "config" ? join(dir, expected) : expected);
      expect(r.sources[key]).toEqual({
        kind: top,
        label: { flag, env: `${s.env} (environment)`, config: `crashlab.toml line 3 ([${s.config!.split(".")[0]}] ${s.config!.split(".")[1]})`, plan: `PLAN defaults.${key}` }[top],
      });
    }
    const none = resolveSettings([]);
    expect((none.settings as Record<string, unknown>)[key]).toEqual(typeof s.default === "function" ? expect.anything() : s.default);
    expect(none.sources[key]!.kind).toBe("default");
  });

  it("an endpoint and its key's variable come together from the highest source that gives either", () => {
    const flags = parseRunArgs(["--judge-endpoint", "https://flag.example/v1"]).flags;
    const plan = planLayer({ services: { judge: { endpoint: "https://plan.example/v1", api_key_env: "PLAN_KEY" } } });
    const r = resolveSettings([flags, plan]);
    expect(r.settings.judge_endpoint).toBe("https://flag.example/v1");
    expect(r.settings.judge_api_key_env).toBeUndefined();
    expect(r.sources.judge_api_key_env).toEqual({ kind: "default", label: "--judge-api-key-env" });
    const fromPlan = resolveSettings([parseRunArgs(["--seed", "2"]).flags, plan]);
    expect([fromPlan.settings.judge_endpoint, fromPlan.settings.judge_api_key_env]).toEqual(["https://plan.example/v1", "PLAN_KEY"]);
    expect(fromPlan.sources.judge_endpoint!.label).toBe("PLAN defaults.services.judge.endpoint");
  });

  it("computed defaults follow the settings they depend on, whichever source gave those", () => {
    expect(resolveSettings([]).settings).toMatchObject({ real_time: false, judge: false, speech: "espeak" });
    const live = resolveSettings([parseRunArgs(["--live"]).flags]).settings;
    expect(live).toMatchObject({ real_time: true, judge: true, speech: "openai", concurrency: 1 });
    const remote = resolveSettings([planLayer({ services: { live: { endpoint: "wss://gw.example/v1/live" } } })]).settings;
    expect([remote.real_time, remote.concurrency]).toEqual([true, 1]);
    expect(resolveSettings([parseRunArgs(["--live", "--no-real-time", "--no-judge"]).flags]).settings).toMatchObject({ real_time: false, judge: false });
    expect(() => parseRunArgs(["--real-time", "--no-real-time"])).toThrow("--real-time and --no-real-time contradict each other; pass one");
  });

  it("--example and --scenario are one setting, gathered in order", () => {
    const r = resolveSettings([parseRunArgs(["--example", "a", "--scenario", "b", "--example", "c"]).flags]);
    expect(r.settings.example).toEqual(["a", "c", "b"]);
  });

  it("--explain-settings lists every setting with its value and its source as the user wrote it", () => {
    const dir = temp();
    const config = readConfigFile(file(dir, "crashlab.toml", "[audio]\nchunk_ms = 40\n"), "crashlab.toml");
    const r = resolveSettings([parseRunArgs(["--seed", "7"]).flags, envLayer({ OPENAI_LIVE_MODEL: "gpt-live-test" }, null), config.layer, planLayer({ repetitions: 3 })]);
    const text = explainSettings(r, ["config file: crashlab.toml"]);
    const row = (key: string) => text.split("\n").find((l) => l.startsWith(`  ${key} `))!;
    expect(text.split("\n").filter((l) => /^ {2}\w/.test(l))).toHaveLength(settingEntries().length);
    expect(row("seed")).toMatch(/^ {2}seed +7 +command line: --seed$/);
    expect(row("model")).toMatch(/gpt-live-test +environment: OPENAI_LIVE_MODEL \(environment\)$/);
    expect(row("chunk_ms")).toMatch(/40 +config file: crashlab.toml line 2 \(\[audio\] chunk_ms\)$/);
    expect(row("repetitions")).toMatch(/3 +PLAN defaults: PLAN defaults.repetitions$/);
    expect(row("response_deadline_ms")).toMatch(/5000 +default$/);
    expect(row("endpoint")).toMatch(/\(not set\) +default: the local simulator; with --live OpenAI's$/);
    expect(text).toMatch(/\nconfig file: crashlab.toml$/);
  });
});

describe("checks across settings, made once before anything runs", () => {
  const judgeSettings = settingEntries().filter(([k, s]) => s.section === "judge" && k !== "judge");
  it("covers every judge setting --help lists", () => expect(judgeSettings.map(([k]) => k)).toEqual(["judge_model", "judge_reasoning_effort", "judge_repetitions", "judge_endpoint", "judge_api_key_env", "judge_timeout_seconds", "judge_retries"]));

  it.each(judgeSettings)("%s given for a run whose judge is off is refused from the command line, and a default from crashlab.toml", (key, s) => {
    const flag = `--${s.flag ?? key.replace(/_/g, "-")}`;
    const text = key === "judge_endpoint" ? "http://127.0.0.1:9/v1" : sample(s, 1).text;
    expect(() => checkSettings(resolveSettings([parseRunArgs([flag, text]).flags]), {})).toThrow("judge settings were given but the judge is off: add --judge");
    const dir = temp();
    const value = key === "judge_endpoint" ? "http://127.0.0.1:9/v1" : sample(s, 1).value;
    const config = readConfigFile(file(dir, "crashlab.toml", `[judge]\n${s.config!.split(".")[1]} = ${JSON.stringify(value)}\n`), "crashlab.toml");
    expect(() => checkSettings(resolveSettings([config.layer]), {})).not.toThrow();
  });
});

describe("crashlab.toml", () => {
  // The config file other GPT-Live harnesses ship, byte for byte.
  const SECTIONS = readFileSync(join(import.meta.dirname, "fixtures/settings/harness-config.toml"), "utf8");

  it("takes the four sections other harnesses write, as written: paths relative to the file, an empty string unset", () => {
    const dir = temp();
    const { layer } = readConfigFile(file(dir, "config.toml", SECTIONS), "config.toml");
    const r = resolveSettings([layer]);
    expect(r.settings).toMatchObject({ data: [join(dir, "data/scenarios.json")], concurrency: 1, max_examples: 0, verbose: false, response_timeout_seconds: 30, chunk_ms: 20, sample_rate_hz: 24000, real_time: true, assistant: "responses" });
    expect(r.settings.assistant_endpoint).toBeUndefined();
    expect(r.sources.real_time).toEqual({ kind: "config", label: "config.toml line 13 ([audio] real_time)" });
    expect(r.sources.assistant_endpoint!.kind).toBe("default");
  });

  it("takes [assistant] endpoint as the client-delegation service's URL (docs/remote-assistant.md)", () => {
    const dir = temp();
    const { layer } = readConfigFile(file(dir, "crashlab.toml", '[assistant]\nmode = "client"\nendpoint = "wss://agent.example.com/ws/assistant"\n'), "crashlab.toml");
    const r = resolveSettings([layer]);
    expect(r.settings).toMatchObject({ assistant: "client", assistant_endpoint: "wss://agent.example.com/ws/assistant", real_time: true });
    expect(r.sources.assistant_endpoint).toEqual({ kind: "config", label: "crashlab.toml line 3 ([assistant] endpoint)" });
  });

  it.each([
    ["an unknown key", "[audio]\nchunk_ms = 20\nchunk_size = 20\n", /^crashlab.toml line 3: \[audio\] chunk_size is not a setting \(the keys of \[audio\]: .*chunk_ms.*\)/],
    ["an unknown section", "[execution]\nseed = 1\n\n[simulator]\ntick_ms = 200\n", /^crashlab.toml line 4: unknown section \[simulator\] \(sections: \[dataset\], \[execution\]/],
    ["a key outside any section", "seed = 1\n", /^crashlab.toml line 1: seed is outside any section; settings go in a section/],
    ["a wrong type", "[audio]\n\nchunk_ms = \"20\"\n", 'crashlab.toml line 3: [audio] chunk_ms takes a whole number from 10 to 200 in steps of 10 (got the string "20")'],
    ["a value out of range", "[execution]\nconcurrency = 100\n", "crashlab.toml line 2: [execution] concurrency takes a whole number from 1 to 64 (got 100)"],
    ["a value off its steps", "[audio]\nchunk_ms = 25\n", "crashlab.toml line 2: [audio] chunk_ms takes a whole number from 10 to 200 in steps of 10 (got 25)"],
    ["a choice it does not have", "[assistant]\nmode = \"server\"\n", 'crashlab.toml line 2: [assistant] mode takes one of responses, client (got the string "server")'],
    ["a list item it does not have", "[audio]\ncondition = [\"clean\", \"quiet\"]\n", "crashlab.toml line 2: [audio] condition takes one of clean, noisy, telephony, background_speech, echo, packet_loss, realistic, or a list of them (got an array)"],
    ["another sample rate", "[audio]\nsample_rate_hz = 16000\n", "crashlab.toml line 2: [audio] sample_rate_hz takes 24000 (got 16000)"],
    ["a client-delegation service that is not a string", "[assistant]\nendpoint = 8795\n", 'crashlab.toml line 2: [assistant] endpoint takes a non-empty string (got 8795)'],
    ["not TOML", "[audio]\nchunk_ms = = 20\n", /^crashlab.toml line 2, column \d+: not valid TOML \(.+\); fix that line/],
    ["a table where a section's key belongs", "[audio]\n[audio.chunk_ms]\nx = 1\n", /line 2: \[audio\] chunk_ms takes a whole number/],
  ])("%s is refused naming the file, the line and the key, with what is accepted", (_what, text, message) => {
    const dir = temp();
    const read = () => readConfigFile(file(dir, "crashlab.toml", text), "crashlab.toml");
    expect(read).toThrow(SettingsError);
    if (typeof message === "string") expect(read).toThrow(message);
    else expect(read).toThrow(message);
  });

  it("names every fault of a file in one paragraph", () => {
    const dir = temp();
    expect(() => readConfigFile(file(dir, "crashlab.toml", "[audio]\nchunk_ms = 25\n[execution]\nseed = -1\n"), "crashlab.toml")).toThrow(
      /^crashlab.toml line 2: \[audio\] chunk_ms .*; crashlab.toml line 4: \[execution\] seed takes a whole number >= 0 \(got -1\)\. Fix crashlab.toml/,
    );
  });

  it("a folder, a missing file and one that cannot be read are refused by name", () => {
    const dir = temp();
    mkdirSync(join(dir, "crashlab.toml"));
    expect(() => readConfigFile(join(dir, "crashlab.toml"), "crashlab.toml")).toThrow("config file crashlab.toml: it is a folder, not a file; give --config the path of a TOML file");
    expect(() => readConfigFile(join(dir, "none.toml"), "none.toml")).toThrow("config file none.toml: the file does not exist");
    symlinkSync(join(dir, "loop.toml"), join(dir, "loop.toml"));
    expect(() => readConfigFile(join(dir, "loop.toml"), "loop.toml")).toThrow("config file loop.toml: it is a loop of symbolic links");
  });
});

describe("env files and the environment", () => {
  it("reads the documented variables from the file, the shell winning; an empty value is unset; the rest is left alone", () => {
    const dir = temp();
    const env = readEnvFile(file(dir, ".env", "# models\nOPENAI_LIVE_MODEL=from-file\nOPENAI_EVAL_JUDGE_MODEL=judge-from-file\nOPENAI_TTS_MODEL=\nDATABASE_URL=postgres://app\nOPENAI_LIVE_VOICE=marin\nOPENAI_API_KEY=sk-file-0000\n"), ".env");
    const r = resolveSettings([envLayer({ OPENAI_EVAL_JUDGE_MODEL: "judge-from-shell" }, env)]);
    expect(r.settings).toMatchObject({ model: "from-file", judge_model: "judge-from-shell", tts_model: staticDefault("tts_model") });
    expect(r.sources.model).toEqual({ kind: "env", label: "OPENAI_LIVE_MODEL (.env)" });
    expect(r.sources.judge_model).toEqual({ kind: "env", label: "OPENAI_EVAL_JUDGE_MODEL (environment)" });
    expect(unreadVariables(env, r.settings)).toEqual(["DATABASE_URL", "OPENAI_LIVE_VOICE"]);
    // The key is a credential: read for the run, from the file here, never a setting.
    expect(credentialsOf(credentialNames(r.settings), {}, env)).toEqual({ values: { OPENAI_API_KEY: "sk-file-0000" }, from: { OPENAI_API_KEY: "file" } });
    expect(credentialsOf(credentialNames(r.settings), { OPENAI_API_KEY: "sk-shell-1111" }, env).values).toEqual({ OPENAI_API_KEY: "sk-shell-1111" });
    expect(Object.values(r.settings)).not.toContain("sk-file-0000");
  });

  it("a variable named by a *_api_key_env setting is read from the file too; a bad value names the variable", () => {
    const dir = temp();
    const env = readEnvFile(file(dir, ".env", "CRASHLAB_JUDGE_ENDPOINT=https://gw.example/v1\nCRASHLAB_JUDGE_API_KEY_ENV=GW_KEY\nGW_KEY=gw-secret-2222\n"), ".env");
    const r = resolveSettings([envLayer({}, env)]);
    expect([r.settings.judge_endpoint, r.settings.judge_api_key_env]).toEqual(["https://gw.example/v1", "GW_KEY"]);
    expect(credentialsOf(credentialNames(r.settings), {}, env).values).toEqual({ GW_KEY: "gw-secret-2222" });
    expect(() => envLayer({}, readEnvFile(file(dir, "bad.env", "OPENAI_EVAL_JUDGE_REASONING_EFFORT=max\n"), "bad.env"))).toThrow('OPENAI_EVAL_JUDGE_REASONING_EFFORT (bad.env) takes one of none, minimal, low, medium, high, xhigh (got "max")');
    mkdirSync(join(dir, "folder.env"));
    expect(() => readEnvFile(join(dir, "folder.env"), "folder.env")).toThrow("env file folder.env: it is a folder, not a file");
  });
});

describe("a PLAN's defaults are any setting by name, checked by definePlan", () => {
  const plan = (defaults: unknown) => () => definePlan({ name: "p", targets: restaurantTargets(), cases: [], defaults: defaults as never });

  it("its type is Partial<RunSettings> without the settings of one invocation, and the nested services form (tsc checks this)", () => {
    const invocation = settingEntries().filter(([, s]) => s.plan === false).map(([k]) => k);
    expect(invocation).toEqual(["package", "data", "live", "sample_rate_hz", "shard"]);
    expectTypeOf<Omit<RunDefaults, "services">>().toEqualTypeOf<Partial<Omit<RunSettings, "package" | "data" | "live" | "sample_rate_hz" | "shard">>>();
    expectTypeOf<RunDefaults["chunk_ms"]>().toEqualTypeOf<RunSettings["chunk_ms"] | undefined>();
    expectTypeOf<RunDefaults>().not.toHaveProperty("live");
    expectTypeOf<PlanDefinition["defaults"]>().toEqualTypeOf<RunDefaults | undefined>();
  });

  it("takes every setting a PLAN may set, and the nested services form", () => {
    expect(plan({ chunk_ms: 40, judge_model: "m", speech_detector: "webrtc", require: ["outcome"], services: { live: { endpoint: "wss://x.example/v1" } } })).not.toThrow();
    const layer = planLayer({ chunk_ms: 40, services: { speech: { provider: "cache" } } });
    expect(resolveSettings([layer]).settings).toMatchObject({ chunk_ms: 40, speech: "cache" });
  });

  it.each([
    [{ chunk_ms: 25 }, "PLAN.defaults.chunk_ms: expected a whole number from 10 to 200 in steps of 10 (got 25)"],
    [{ live: true }, 'PLAN.defaults: unknown setting(s) "live"'],
    [{ services: { live: { endpoint: "" } } }, 'PLAN.defaults.services.live.endpoint: expected a non-empty string (got the string "")'],
    [{ services: { tape: {} } }, 'PLAN.defaults.services: unknown setting(s) "tape"'],
    [{ endpoint: "wss://a.example", services: { live: { endpoint: "wss://b.example" } } }, "PLAN.defaults: endpoint and services.live.endpoint are the same setting; give it once"],
  ])("%j is a PlanError naming the setting", (defaults, message) => {
    expect(plan(defaults)).toThrow(PlanError);
    expect(plan(defaults)).toThrow(message);
    expect(planDefaultsProblems(defaults).join("; ")).toContain(message);
  });
});

describe("settings given in code (the library) and stored in run.json", () => {
  it("are checked like every other source, each fault naming where and what", () => {
    expect(() => checkedLayer("code", { chunk_ms: 25, colour: "red" }, "run() settings", "Fix them.")).toThrow(
      'run() settings: unknown setting(s) "colour" (docs/configuration.md lists every setting); run() settings.chunk_ms: expected a whole number from 10 to 200 in steps of 10 (got 25). Fix them.',
    );
    const layer: Layer = checkedLayer("code", { chunk_ms: 40 }, "run() settings", "Fix them.");
    expect(resolveSettings([layer, layerOf("plan", { chunk_ms: 60 }, () => "PLAN")]).sources.chunk_ms).toEqual({ kind: "code", label: "run() settings.chunk_ms" });
  });
});
