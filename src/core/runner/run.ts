/**
 * `run()` for library callers: the same front end as `crashlab run`. The settings given in code are the
 * highest source, then the environment (and an env file), a config file, the PLAN's `defaults`, the
 * built-in defaults — resolved once, checked, preflighted, digested and run by the same engine entry the
 * CLI calls. Without `results_dir` it runs in memory and returns every record; with it, it writes the run
 * folder the CLI writes (and, given the package's file, runs offline trials in worker threads); `resume`
 * finishes such a folder with the settings it stored.
 */
import { resolve } from "node:path";
import { readRunMeta } from "../journal/run-meta";
import { findPackage, loadPackage } from "../package/load";
import type { Plan } from "../run/plan";
import type { RunResult } from "../run/run";
import { redactor } from "../services/redact";
import { credentialNames, credentialsOf, envLayer, readEnvFile } from "../settings/env-file";
import { readConfigFile } from "../settings/config-file";
import { planLayer } from "../settings/plan-defaults";
import { SettingsError } from "../settings/errors";
import { checkedLayer, resolveSettings, type Layer } from "../settings/resolve";
import type { RunSettings } from "../settings/schema";
import type { CallerSpeech } from "../trial/context";
import type { RunReporter } from "./execute";
import { runPackage, startRun, type RunPackage } from "./front";
import { resumeCwd, resumeLayers } from "./resume";

/** What a library call gives besides settings. */
export interface LibraryExtras {
  /** Finish the run in this folder (one `run()` or `crashlab run` wrote), with the settings it stored (a folder that stored only a command line: `crashlab run --resume`). */
  resume?: string;
  /** With `resume`: finish it although its plan changed. */
  force?: boolean;
  /** The environment: credentials and the settings' variables (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** An env file to read beside `env` (which wins over it). */
  env_file?: string;
  /** A crashlab.toml to read (below the settings given here and the environment). */
  config?: string;
  /** The folder relative paths mean something in (default the process's). */
  cwd?: string;
  /** Told as the run begins, as each trial ends and once the outputs exist (run folders only). */
  reporters?: RunReporter[];
  /** Interrupt: no new trial starts, trials in progress finish, outputs are written. */
  signal?: AbortSignal;
  /** Stop at once (a second interrupt). */
  abandon?: AbortSignal;
  /** Caller speech of your own instead of the settings' (trials then run in this thread). */
  caller_speech?: CallerSpeech;
}

/** The settings of docs/configuration.md by name, and what a library call adds. */
export type LibraryRunOptions = Partial<RunSettings> & LibraryExtras;

export interface FolderRunResult extends RunResult {
  /** The run folder; `records` is empty: the trials are in its results.json. */
  run_dir: string;
  results: string;
  report: string;
}

const EXTRAS = new Set<string>(["resume", "force", "env", "env_file", "config", "cwd", "reporters", "signal", "abandon", "caller_speech"]);

/** The trial worker entry beside this module: dist/worker.js in the built package, src/worker.ts from the sources. */
const WORKER_ENTRY = new URL(import.meta.url.endsWith(".ts") ? "../../worker.ts" : "./worker.js", import.meta.url);

export async function run(plan: Plan, options: LibraryRunOptions & { results_dir: string }): Promise<FolderRunResult>;
export async function run(plan: Plan, options: LibraryRunOptions & { resume: string }): Promise<FolderRunResult>;
export async function run(plan: Plan, options?: LibraryRunOptions): Promise<RunResult>;
export async function run(plan: Plan, options: LibraryRunOptions = {}): Promise<RunResult | FolderRunResult> {
  let cwd = resolve(options.cwd ?? process.cwd());
  const shell = options.env ?? process.env;
  const given = Object.fromEntries(Object.entries(options).filter(([k]) => !EXTRAS.has(k)));
  const envFile = options.env_file !== undefined ? readEnvFile(resolve(cwd, options.env_file), options.env_file) : null;
  let layers: Layer[];
  let resume = null;
  if (options.resume !== undefined) {
    const dir = resolve(cwd, options.resume);
    // As --config beside --resume: a resumed run keeps the settings it stored, so a config file would do nothing.
    if (options.config !== undefined)
      throw new SettingsError(`run() settings: config cannot be given with resume — the run in ${dir} keeps the settings its run.json stored; start a new run to read ${options.config}`);
    const meta = readRunMeta(dir);
    cwd = resumeCwd(meta, cwd);
    layers = resumeLayers(dir, meta, checkedLayer("code", given, "run() settings", "Fix the settings given to run()."), plan);
    resume = { dir, meta, force: options.force === true };
  } else {
    const config = options.config !== undefined ? readConfigFile(resolve(cwd, options.config), options.config) : null;
    layers = [checkedLayer("code", given, "run() settings", "Fix the settings given to run()."), envLayer(shell, envFile), ...(config ? [config.layer] : []), planLayer(plan.defaults)];
  }
  const resolution = resolveSettings(layers);
  const s = resolution.settings;
  const credentials = credentialsOf(credentialNames(s), shell, envFile).values;
  const secrets = Object.values(credentials);
  const pkg: RunPackage = s.package !== undefined ? await identityOf(findPackage(cwd, s.package)) : { digest: "unknown" };
  const started = await startRun({
    plan,
    resolution,
    credentials,
    package: pkg,
    cwd,
    folder: options.results_dir !== undefined || resume !== null,
    workers: WORKER_ENTRY,
    reporters: options.reporters ?? [],
    redact: redactor(secrets),
    secrets: [secrets],
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.abandon ? { abandon: options.abandon } : {}),
    ...(options.caller_speech ? { caller_speech: options.caller_speech } : {}),
    resume,
  });
  if (started.kind === "memory") return started.result;
  const { result, outputs, report } = started.executed;
  return { ...result, records: [], run_dir: started.run_dir, results: outputs.results, report };
}

/** `crashlab/alpha` of this copy of crashlab, as the worker entry beside this module serves it to a package. */
const ALPHA_ENTRY = new URL(import.meta.url.endsWith(".ts") ? "../../alpha/index.ts" : "./alpha.js", import.meta.url);

/**
 * The named package as the CLI names it: loaded once here (as a trial worker would load it) so that its
 * digest covers the modules its load evaluated, inside its folder or outside — the same digest
 * `crashlab run` computes for it.
 */
async function identityOf(file: string): Promise<RunPackage> {
  const alpha = (await import(ALPHA_ENTRY.href)) as Record<string, unknown>;
  return runPackage(await loadPackage(file, alpha));
}
