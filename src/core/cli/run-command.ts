/**
 * `crashlab run`: the command line turned into settings — flags, the environment and an env file,
 * crashlab.toml, the PLAN's defaults, resolved once — then the engine entry the library's `run()` calls
 * too (src/core/runner/front.ts), and what happened printed. This file decides what to read and what to say.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readRunMeta, type RunMeta } from "../journal/run-meta";
import { findPackage, loadPackage, shownPath, transpileCacheDir } from "../package/load";
import { conversationLine, progressLine, summaryText } from "../report/console";
import { redactor, type Redact } from "../services/redact";
import { CONFIG_FILE, projectDir, readConfigFile } from "../settings/config-file";
import { credentialNames, credentialsOf, ENV_FILE, envLayer, readEnvFile, unreadVariables, type EnvFile } from "../settings/env-file";
import { explainSettings } from "../settings/explain";
import { planLayer } from "../settings/plan-defaults";
import { checkedLayer, resolveSettings, type Layer, type Resolution } from "../settings/resolve";
import { settingOf } from "../settings/schema";
import { runPackage, startRun } from "../runner/front";
import type { RunReporter } from "../runner/execute";
import { onResumeFlags, resumeCwd, resumeLayers } from "../runner/resume";
import { CRASHLAB_VERSION } from "../version";
import { runHelp } from "./help";
import type { CliIO } from "./io";
import { findPlayer } from "./listen";
import { parseRunArgs, UsageError } from "./options";
import { lastFailedCases, storedCommandLine } from "./resume";
import { openReport, reportUrl } from "./view";

export async function runCommand(argv: string[], givenIo: CliIO, cliRedact: Redact, cliSecrets: string[]): Promise<number> {
  const line = parseRunArgs(argv);
  if (line.help) {
    givenIo.stdout(runHelp() + "\n");
    return 0;
  }
  if (line.force && line.resume === undefined) throw new UsageError("--force applies to --resume only (it finishes a run whose plan changed)");
  if (line.last_failed && (line.resume !== undefined || line.flags.values.has("example")))
    throw new UsageError("--last-failed chooses the cases itself (those that failed in the last run): it cannot be combined with --resume, --example or --scenario");
  // --resume: the run's own settings, with only what shows or paces the rest taken from this command line.
  let resume: { dir: string; meta: RunMeta } | null = null;
  let io = givenIo;
  if (line.resume !== undefined) {
    const extra = [...line.flags.values].filter(([key]) => !settingOf(key)?.on_resume).map(([, v]) => v.label);
    if (line.config !== undefined) extra.push("--config");
    if (extra.length > 0)
      throw new UsageError(
        `--resume reruns a run with the settings it started with; ${extra.join(", ")} cannot be changed on resume (beside --resume only --force, --env-file, ${onResumeFlags().join(", ")} are taken) — start a new run to change them`,
      );
    const dir = resolve(io.cwd, line.resume);
    resume = { dir, meta: readRunMeta(dir) };
    io = { ...io, cwd: resumeCwd(resume.meta, io.cwd) };
  }
  const cwd = io.cwd;
  const shell = io.env ?? {};
  // Where the package is decides where crashlab.toml and .env are found; no package code runs until every
  // file and flag has been read and checked.
  const packageGiven = resume ? storedPackage(resume.dir, resume.meta) : (line.flags.values.get("package")?.value as string | undefined);
  const file = findPackage(cwd, packageGiven);
  const besides = projectDir(file);
  const config = resume ? null : line.config !== undefined ? readConfigFile(resolve(cwd, line.config), line.config) : fileBeside(besides, CONFIG_FILE, (p) => readConfigFile(p, shownPath(cwd, p)));
  const envFile = line.env_file !== undefined ? readEnvFile(resolve(cwd, line.env_file), line.env_file) : fileBeside(besides, ENV_FILE, (p) => readEnvFile(p, shownPath(cwd, p)));
  const envSettings = resume ? null : envLayer(shell, envFile);
  // The package's transpiled code is kept in the user's cache folder, so the next run (and each trial
  // worker of this one) loads it without transpiling it again; see transpileCacheDir.
  const cache = transpileCacheDir(shell);
  try {
    const pkg = await loadPackage(file, io.alpha, cache.dir);
    const layers: Layer[] = resume
      ? resumeLayers(resume.dir, resume.meta, line.flags, pkg.plan, storedCommandLine(resume.dir, resume.meta))
      : [line.flags, envSettings!, ...(config ? [config.layer] : []), planLayer(pkg.plan.defaults)];
    let resolution = resolveSettings(layers);
    // Keys are secrets of this run wherever they came from (the shell, the env file, a variable a setting names).
    const credentials = credentialsOf(credentialNames(resolution.settings), shell, envFile);
    const secrets = Object.values(credentials.values).filter((v) => !cliSecrets.includes(v));
    let redact = cliRedact;
    if (secrets.length > 0) {
      const more = redactor(secrets);
      const outer = io;
      redact = (text) => more(cliRedact(text));
      io = { ...outer, stdout: (t) => outer.stdout(more(t)), stderr: (t) => outer.stderr(more(t)) };
    }
    if (line.explain_settings) {
      io.stdout(explainSettings(resolution, notes(config?.shown ?? null, envFile, credentials.from, resolution)) + "\n");
      return 0;
    }
    const quiet = resolution.settings.quiet;
    const unread = unreadVariables(envFile, resolution.settings).filter((n) => /^(CRASHLAB|OPENAI)_/.test(n));
    if (unread.length > 0 && !quiet) io.stderr(`crashlab: ${envFile!.shown}: ${unread.join(", ")} ${unread.length === 1 ? "is" : "are"} not read by crashlab (docs/configuration.md lists the variables it reads); left alone\n`);
    if (line.last_failed) resolution = lastFailed(resolution, cwd, io, quiet);
    if (resolution.settings.example.length === 0 && line.last_failed) return 0;
    const s = resolution.settings;
    const started = await startRun({
      plan: pkg.plan,
      resolution,
      credentials: credentials.values,
      package: runPackage(pkg, cache.dir),
      cwd,
      folder: true,
      workers: io.workers ?? null,
      reporters: [consoleReporter(resolution, io)],
      say: (text) => void (quiet ? undefined : io.stderr(`crashlab: ${text}\n`)),
      workerLine: (text) => io.stderr(`${text}\n`),
      onStart: ({ session, resolved, threads, shard }) => {
        // What taking the folder back repaired is said even with --quiet: the user should know the folder was damaged.
        for (const note of session.notes) io.stderr(`crashlab: ${note}\n`);
        if (quiet) return;
        if (resume) io.stderr(`crashlab: resuming ${session.meta.run_id}: ${resolved.trials.filter((t) => session.finished.has(t.trial_id)).length} of ${resolved.trials.length} trial(s) finished before, the rest run now\n`);
        if (resolved.target_settings.mode === "offline" && credentials.values.OPENAI_API_KEY) io.stderr("crashlab: OPENAI_API_KEY is set; this run is offline — pass --live to evaluate against the real service\n");
        io.stderr(
          `crashlab ${CRASHLAB_VERSION}: ${shard ? `shard ${shard.index}/${shard.count}: ` : ""}${resolved.trials.length} trial(s) of ${new Set(resolved.trials.map((t) => t.case.id)).size} case(s), target ${resolved.target_name}${serviceNote(resolved.target_settings.client_service?.endpoint)}, seed ${resolved.seed}, ${s.real_time ? "real" : "virtual"} time${threads > 1 ? `, ${threads} worker threads` : ""} → ${session.dir}\n`,
        );
      },
      ...(s.verbose ? { onLine: (l) => io.stderr(`${conversationLine(l)}\n`) } : {}),
      redact,
      secrets: secrets.length > 0 ? [cliSecrets, secrets] : [cliSecrets],
      ...(io.signal ? { signal: io.signal } : {}),
      ...(io.abandon ? { abandon: io.abandon } : {}),
      resume: resume ? { ...resume, force: line.force } : null,
      argv,
    });
    if (started.kind !== "folder") throw new Error("crashlab run always writes a run folder");
    const { outputs, result, report } = started.executed;
    if (s.json) io.stdout(readFileSync(outputs.results, "utf8"));
    else io.stdout(summaryText(outputs.summary, outputs.gates, outputs.decision, { run_id: result.run_id, target: result.target, results_dir: outputs.results, interruption: result.interruption }) + "\n");
    if (result.interruption)
      io.stderr(`crashlab: interrupted by ${result.interruption.signal}; ${outputs.finished} finished trial(s) kept, ${result.interruption.not_run.length} not run (listed in ${outputs.results})\n`);
    if (s.visualize) await openReport(reportUrl(started.run_dir), io);
    else if (!quiet && !s.json) io.stderr(`crashlab: report ${report} (\`crashlab view ${started.run_dir}\` opens it)\n`);
    return outputs.decision.exit_code;
  } finally {
    cache.dispose();
  }
}

/** Who answers client delegations, when it is the application's own service: said in the run's first line. */
function serviceNote(endpoint: string | undefined): string {
  return endpoint ? ` (client delegations answered by the service at ${endpoint}; its tool calls and state are its own report)` : "";
}

/** A file beside the package, read when it is there (a folder of that name is read too, and refused). */
function fileBeside<T>(dir: string, name: string, read: (path: string) => T): T | null {
  const path = join(dir, name);
  return existsSync(path) ? read(path) : null;
}

/** The package a resumed run used: from the settings it stored, or from the command line an older folder stored. */
function storedPackage(dir: string, meta: RunMeta): string | undefined {
  if (meta.settings !== undefined) {
    const stored = checkedLayer("stored", meta.settings as Record<string, unknown>, `${join(dir, "run.json")} settings`, "The run folder was edited or written by another crashlab version — start the run again.");
    return stored.values.get("package")?.value as string | undefined;
  }
  return storedCommandLine(dir, meta)(meta.argv).values.get("package")?.value as string | undefined;
}

/** `--last-failed`: the cases that did not pass in the last run under the results folder replace the selection. */
function lastFailed(resolution: Resolution, cwd: string, io: CliIO, quiet: boolean): Resolution {
  const last = lastFailedCases(resolve(cwd, resolution.settings.results_dir));
  if (last.cases.length === 0) {
    io.stderr(`crashlab: the last run (${last.run_id}) had no failed trial; nothing to rerun\n`);
    return { settings: { ...resolution.settings, example: [] }, sources: resolution.sources };
  }
  if (!quiet) io.stderr(`crashlab: --last-failed: rerunning ${last.cases.length} case(s) that failed in ${last.run_id}: ${last.cases.slice(0, 6).join(", ")}${last.cases.length > 6 ? ", …" : ""}\n`);
  return { settings: { ...resolution.settings, example: last.cases }, sources: { ...resolution.sources, example: { kind: "flag", label: "--last-failed" } } };
}

/** What --explain-settings says after the table: the files read, the credentials set (names and where from, never values). */
function notes(config: string | null, envFile: EnvFile | null, from: Record<string, "shell" | "file">, resolution: Resolution): string[] {
  const unread = unreadVariables(envFile, resolution.settings);
  return [
    `config file: ${config ?? `none (no ${CONFIG_FILE} beside the package, and no --config)`}`,
    `env file: ${envFile ? envFile.shown : `none (no ${ENV_FILE} beside the package, and no --env-file)`}`,
    `credentials: ${Object.keys(from).length > 0 ? Object.entries(from).map(([name, where]) => `${name} (${where === "shell" ? "environment" : envFile!.shown})`).join(", ") : "none set"}; their values are never shown`,
    ...(unread.length > 0 ? [`not read from ${envFile!.shown}: ${unread.join(", ")}`] : []),
  ];
}

/** What the person at the terminal sees as trials end: a progress line each, --listen playback, --verbose detail. */
function consoleReporter(resolution: Resolution, io: CliIO): RunReporter {
  const { listen, quiet } = resolution.settings;
  // --listen: caller left, assistant right, after each trial; said plainly (once the run begins) when no player exists.
  const player = listen ? findPlayer(io.env ?? {}) : null;
  let runDir = "";
  return {
    onRunBegin(begin) {
      runDir = begin.run_dir;
      if (player && "missing" in player) io.stderr(`crashlab: --listen found no audio player (looked for ${player.missing.join(", ")}); the run goes on without playback — install one (e.g. alsa-utils for aplay) to listen\n`);
    },
    onTrialEnd(trial, done, total) {
      if (player && "play" in player && trial.conversation_wav) {
        io.stderr(`  ♪ playing ${trial.trial_id} with ${player.name} (caller left, assistant right)\n`);
        const played = player.play(join(runDir, trial.conversation_wav));
        if (!played.ok) io.stderr(`crashlab: --listen could not play ${trial.trial_id}: ${played.message}\n`);
      }
      if (!quiet) io.stderr(progressLine(trial.progress, done, total) + "\n");
      if (trial.verbose) io.stderr(trial.verbose);
    },
  };
}
