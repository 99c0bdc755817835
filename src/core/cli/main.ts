import { existsSync, readFileSync, realpathSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, relative, resolve } from "node:path";
import { loadDataset } from "../dataset/load";
import { gitState, packageDigest, sha256 } from "../provenance/digest";
import { checkEspeakVoice, SpeechError } from "../speech/index";
import { progressLine, summaryText } from "../report/console";
import { createRunFolder } from "../report/results-folder";
import { checkCasesAgainstWorlds } from "../run/preflight";
import { writeRunReport } from "../report/run-folder";
import { removeLeftoverTemps } from "../report/files";
import { writeOutputsFromJournal } from "../report/from-journal";
import { indexJournal, JOURNAL_FILE, JournalWriter, trimTornLine } from "../journal/journal";
import { planDigest, RUN_META_VERSION, writeRunMeta, type RunMeta } from "../journal/run-meta";
import { digestInputs, lastFailedCases, planChanged, resumeArgs } from "./resume";
import { parseShard, shardTrials } from "../run/shard";
import { resultsJsonSchema } from "../report/results-schema";
import { redactor, type Redact } from "../report/redact";
import { PlanError } from "../run/plan";
import { resolveRun, run, runEach, trialContext, type RunResult } from "../run/run";
import { lostTrial } from "../trial/lost";
import { CRASHLAB_VERSION } from "../version";
import { validateRecordings } from "../walk/recordings";
import { generateAudioCommand } from "./generate-audio";
import { audioCommand } from "./audio-extract";
import { mergeCommand } from "./merge";
import { compareCommand } from "./compare";
import { findPlayer } from "./listen";
import { INIT_HELP, MAIN_HELP, RUN_HELP } from "./help";
import { openReport, reportUrl, viewCommand } from "./view";
import { findPackage, loadPackage, PackageError, transpileCacheDir } from "./load-package";
import type { ConversationLine } from "../trial/context";
import { checkRunName, parseFlags } from "./flags";
import { planWithDatasets } from "./dataset-plan";
import { scaffold, scaffoldSummary } from "../init/scaffold";
import { parseRunArgs, resolveOptions, UsageError, type RawRunArgs, type ResolvedRunOptions } from "./options";
import { callerSpeech, conversationLine, conversationSettings, runOptionsOf } from "./run-settings";
import { settleTrial, settleTrialPaced, type SettledTrial } from "./trial-output";
import { TrialPool } from "./trial-pool";
import { machineFault, machineFaultLine } from "./machine-fault";

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** The public API module (`crashlab/alpha`) of this very copy of crashlab, served to the package. */
  alpha: Record<string, unknown>;
  /**
   * Interrupts a run in progress (the first SIGINT, SIGTERM or SIGHUP; the abort reason names the signal):
   * no new trial starts, trials in progress finish, outputs are written.
   */
  signal?: AbortSignal;
  /** A second signal: stop waiting for trials in progress, write the outputs of the finished ones, return. */
  abandon?: AbortSignal;
  /** The environment (only OPENAI_API_KEY is read). */
  env?: Record<string, string | undefined>;
  /**
   * The trial worker's entry module (the bin's sibling, dist/worker.js). With it, an offline run above
   * --concurrency 1 runs its trials in worker threads, one per core; without it (library callers, most
   * tests) every trial runs in this thread. Records and artifacts are the same either way.
   */
  workers?: URL;
}

/** User-causable errors: one paragraph, exit 2, never a stack trace. */
function isInputError(error: unknown): error is Error {
  const name = (error as Error)?.name;
  return ["UsageError", "PackageError", "DatasetError", "PlanError", "WorldSetupError", "WhereError", "RecordingError", "ConditionError", "DestinationError", "GenerateAudioError", "JudgeConfigError", "ResultsFolderError", "RunFolderError", "InitError", "JournalError", "RunMetaError", "MergeError"].includes(name);
}

/**
 * The secrets this invocation may hold: OPENAI_API_KEY and every variable a `--…-api-key-env NAME` names.
 * Every output channel (console and files) passes through one redaction built from them.
 */
function knownSecrets(argv: readonly string[], env: Record<string, string | undefined>): string[] {
  const named = argv.flatMap((a, i) => (/^--[a-z-]+-api-key-env(=|$)/.test(a) ? [a.includes("=") ? a.slice(a.indexOf("=") + 1) : (argv[i + 1] ?? "")] : []));
  return [env.OPENAI_API_KEY, ...named.map((name) => env[name])].filter((s): s is string => typeof s === "string");
}

/** The whole CLI as a function: tests call it directly; the bin is a thin wrapper. Returns the exit code. */
export async function main(argv: string[], rawIo: CliIO): Promise<number> {
  const secrets = knownSecrets(argv, rawIo.env ?? {});
  const redact = redactor(secrets);
  const io: CliIO = { ...rawIo, stdout: (t) => rawIo.stdout(redact(t)), stderr: (t) => rawIo.stderr(redact(t)) };
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.stdout(MAIN_HELP + "\n");
        return command === undefined ? 2 : 0;
      case "--version":
      case "-v":
        io.stdout(`${CRASHLAB_VERSION}\n`);
        return 0;
      case "run":
        return await runCommand(rest, io, redact, secrets);
      case "list":
        return await listCommand(rest, io);
      case "validate":
        return await validateCommand(rest, io);
      case "generate-audio":
        return await generateAudioCommand(rest, io);
      case "view":
        return await viewCommand(rest, io);
      case "init":
        return await initCommand(rest, io);
      case "audio":
        return await audioCommand(rest, io);
      case "merge":
        return await mergeCommand(rest, io, redact);
      case "compare":
        return await compareCommand(rest, io);
      case "schema":
        io.stdout(JSON.stringify(resultsJsonSchema(), null, 2) + "\n");
        return 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (error) {
    if (isInputError(error)) {
      io.stderr(`crashlab: ${oneParagraph(error.message)}${error.name === "UsageError" ? " (see `crashlab --help`)" : ""}\n`);
      return 2;
    }
    // The machine's fault (a full disk, a read-only file system, …): one line with what to do, exit 3.
    const fault = machineFault(error);
    if (fault) {
      io.stderr(`crashlab: ${machineFaultLine(fault, command === "audio" ? "audio extract" : command)}\n`);
      return 3;
    }
    // Our own bug: the stack helps us fix it; it goes through the same redaction as every other output.
    io.stderr(`crashlab: internal error: ${(error as Error)?.stack ?? String(error)}\nPlease report this with the command you ran.\n`);
    return 3;
  }
}

/** An input error is one paragraph: line breaks inside it (quoted JSON, a value with a newline) become spaces. */
function oneParagraph(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

async function runCommand(argv: string[], givenIo: CliIO, cliRedact: Redact, cliSecrets: string[]): Promise<number> {
  let io = givenIo;
  let cli = parseRunArgs(argv);
  if (cli.help) {
    io.stdout(RUN_HELP + "\n");
    return 0;
  }
  if (cli.force && cli.resume === undefined) throw new UsageError("--force applies to --resume only (it finishes a run whose plan changed)");
  if (cli["last-failed"] && (cli.resume !== undefined || cli.example || cli.scenario))
    throw new UsageError("--last-failed chooses the cases itself (those that failed in the last run): it cannot be combined with --resume, --example or --scenario");
  // --resume: the run's own command line, with only presentation flags taken from this one.
  const resumption = cli.resume !== undefined ? resumeArgs(cli, io.cwd) : null;
  if (resumption) {
    cli = resumption.cli;
    io = { ...io, cwd: resumption.cwd };
    // A kill mid-write leaves `<file>.tmp-<pid>` files (a whole conversation.wav at times) that nothing renames.
    const leftovers = removeLeftoverTemps(resumption.dir);
    if (leftovers.length > 0 && !cli.quiet) io.stderr(`crashlab: removed ${leftovers.length} temporary file(s) a stopped run left in ${resumption.dir}\n`);
  }
  const shard = cli.shard !== undefined ? parseShard(cli.shard) : null;
  checkRunName(cli["run-name"]);
  // Every flag is checked before the package's own code runs; the PLAN's defaults are merged after.
  resolveOptions(cli, {}, io.env ?? {});
  const file = findPackage(io.cwd, cli.package);
  // The package's transpiled code is kept in the user's cache folder, so the next run (and each trial
  // worker of this one) loads it without transpiling it again; see transpileCacheDir.
  const cache = transpileCacheDir(io.env ?? {});
  try {
    return await runPackage(cli, io, cliRedact, cliSecrets, argv, resumption, shard, file, cache.dir);
  } finally {
    cache.dispose();
  }
}

async function runPackage(
  cli: RawRunArgs,
  cliIo: CliIO,
  cliRedact: Redact,
  cliSecrets: string[],
  argv: string[],
  resumption: ReturnType<typeof resumeArgs> | null,
  shard: ReturnType<typeof parseShard> | null,
  file: string,
  cacheDir: string | undefined,
): Promise<number> {
  let io = cliIo;
  let redact = cliRedact;
  const pkg = await loadPackage(file, io.alpha, cacheDir);
  const plan = cli.data && cli.data.length > 0 ? planWithDatasets(pkg.plan, cli.data, io.cwd, pkg.file) : pkg.plan;
  // Keys the PLAN names (defaults.services.*.api_key_env) are secrets of this run too.
  const planKeys = Object.values(plan.defaults?.services ?? {}).flatMap((s) => (s && typeof s === "object" && s.api_key_env ? [io.env?.[s.api_key_env]] : []));
  if (planKeys.some(Boolean)) {
    const planRedact = redactor(planKeys);
    redact = (text) => planRedact(cliRedact(text));
    io = { ...cliIo, stdout: (t) => cliIo.stdout(planRedact(t)), stderr: (t) => cliIo.stderr(planRedact(t)) };
  }
  const options = resolveOptions(cli, plan.defaults, io.env ?? {});
  // What run.json stores to resume this run: its arguments, with --last-failed replaced by the cases it chose.
  let storedArgv = argv;
  if (cli["last-failed"]) {
    const last = lastFailedCases(resolve(io.cwd, options.results_dir));
    if (last.cases.length === 0) {
      io.stderr(`crashlab: the last run (${last.run_id}) had no failed trial; nothing to rerun\n`);
      return 0;
    }
    if (!options.quiet) io.stderr(`crashlab: --last-failed: rerunning ${last.cases.length} case(s) that failed in ${last.run_id}: ${last.cases.slice(0, 6).join(", ")}${last.cases.length > 6 ? ", …" : ""}\n`);
    options.ids = last.cases;
    storedArgv = [...argv.filter((a) => a !== "--last-failed"), ...last.cases.flatMap((id) => ["--example", id])];
  }
  const runOptions = runOptionsOf(options, pkg.dir);
  // Everything a user can get wrong is checked here, before any folder is created.
  const resolved = resolveRun(plan, runOptions);
  if (resolved.skipped.length > 0 && !options.quiet)
    // One line per reason: WALK and RUN cases are skipped by a text target for different reasons.
    for (const reason of new Set(resolved.skipped.map((s) => s.reason))) {
      const ids = resolved.skipped.filter((s) => s.reason === reason).map((s) => s.case_id);
      io.stderr(`crashlab: skipping ${ids.length} case(s): ${reason} (${ids.slice(0, 4).join(", ")}${ids.length > 4 ? ", …" : ""})\n`);
    }
  // A required semantic verifier with no judge could never pass: every trial would be inconclusive and the
  // run would end without a decision. Say so before anything runs.
  const needsJudge = resolved.verifiers.filter((v) => v.required && v.verifier.kind === "semantic").map((v) => v.verifier.id);
  if (needsJudge.length > 0 && !options.judge)
    throw new UsageError(
      `${needsJudge.join(", ")} ${needsJudge.length === 1 ? "is" : "are"} required, but no semantic judge runs: add --judge (with OPENAI_API_KEY, or --judge-endpoint for your own Responses-compatible server), run --live, or make ${needsJudge.length === 1 ? "it" : "them"} advisory (--advisory <id>)`,
    );
  if (pkg.plan.cases.length === 0)
    throw new UsageError(
      `the PLAN of ${pkg.file} has no cases: crawl() and walk() make cases of single-turn scenarios (walk() of those with recordings), converse() of multi-turn ones — check which your datasets hold`,
    );
  if (resolved.trials.length === 0) throw new UsageError("the selection matches no case: check --example/--tag/--max-examples (`crashlab list` shows the cases)");
  checkCasesAgainstWorlds(resolved.trials.map((t) => t.case));
  // Caller speech is synthesized only for CRAWL cases on an audio target: check the voice once, now.
  if (resolved.target.accepts.includes("audio") && resolved.trials.some((t) => !t.case.recording)) await checkCallerVoice(options.speech);

  const speech = callerSpeech(options.speech, options.services.speech, pkg.dir);
  const conversation = resolved.trials.some((t) => t.case.kind === "run")
    ? { ...conversationSettings(options, pkg.dir, io.cwd), ...(options.verbose ? { onLine: (line: ConversationLine) => io.stderr(`${conversationLine(line)}\n`) } : {}) }
    : undefined;
  const lockfile = findLockfile(pkg.dir);
  const digest = packageDigest(pkg.dir, lockfile).digest;
  const target = resolved.target;
  const plan_digest = planDigest(
    digestInputs(options, {
      package_digest: digest,
      target: resolved.target_name,
      target_descriptor: target.describe(),
      trials: resolved.trials.map((t) => [t.trial_id, t.seed]),
      limits: resolved.limits,
      gates: resolved.gate_config,
      // Datasets given with --data live outside the package digest: their bytes count too.
      data: (cli.data ?? []).map((file) => ({ file, sha256: sha256(readFileSync(resolve(io.cwd, file))) })),
    }),
  );
  if (resumption && resumption.meta.plan_digest !== plan_digest && !cli.force) throw planChanged(resumption.meta, plan_digest);
  // --shard i/n: this machine's slice; the plan digest above covers the whole plan, so every shard shares it.
  const planTrials = resolved.trials.map((t) => t.trial_id);
  if (shard) resolved.trials = shardTrials(resolved.trials, shard, target.accepts.includes("audio"));
  // Offline in virtual time a trial is pure CPU: above --concurrency 1 trials run in worker threads, one
  // per core, each loading the package itself. They load now, before any folder exists, so a package that
  // cannot load in a worker is refused like any other bad package.
  const threads = io.workers && !options.real_time && options.target_settings.mode === "offline" ? Math.min(resolved.concurrency, Math.max(2, availableParallelism()), resolved.trials.length) : 1;
  const pool =
    threads > 1
      ? await TrialPool.start(
          io.workers!,
          { file: pkg.file, ...(cacheDir ? { cacheDir } : {}), cwd: io.cwd, env: { ...io.env }, cli, ids: options.ids, package_digest: digest, secrets: planKeys.some(Boolean) ? [cliSecrets, planKeys.filter((k): k is string => typeof k === "string")] : [cliSecrets] },
          threads,
          Math.ceil(resolved.concurrency / threads),
          (text) => io.stderr(`${text}\n`),
        )
      : null;
  try {
    // The last check before any trial runs, and the first thing written: the run folder and its run.json
    // (a resumed run keeps its folder, its id and its start, and notes the resumption).
    const runDir = resumption ? resumption.dir : createRunFolder(resolve(io.cwd, options.results_dir), resolved.run_id);
    const meta: RunMeta = resumption
      ? { ...resumption.meta, resumes: [...resumption.meta.resumes, { at: new Date().toISOString(), forced: resumption.meta.plan_digest !== plan_digest, plan_digest }] }
      : {
          run_meta_version: RUN_META_VERSION,
          run_id: resolved.run_id,
          started_at: new Date().toISOString(),
          plan_digest,
          argv: storedArgv,
          cwd: io.cwd,
          resumes: [],
          ...(shard ? { shard: { ...shard, trials: resolved.trials.map((t) => t.trial_id) }, plan_trials: planTrials } : {}),
        };
    writeRunMeta(runDir, meta);
    resolved.run_id = meta.run_id;
    // The journal's whole lines are the finished trials; a line torn by a kill is cut off.
    const journalIndex = indexJournal(join(runDir, JOURNAL_FILE));
    trimTornLine(journalIndex);
    const finished = new Set(journalIndex.entries.map((e) => e.trial_id));
    if (resumption && !options.quiet)
      io.stderr(`crashlab: resuming ${meta.run_id}: ${resolved.trials.filter((t) => finished.has(t.trial_id)).length} of ${resolved.trials.length} trial(s) finished before, the rest run now\n`);
    if (!options.quiet && options.target_settings.mode === "offline" && io.env?.OPENAI_API_KEY) io.stderr("crashlab: OPENAI_API_KEY is set; this run is offline — pass --live to evaluate against the real service\n");
    if (!options.quiet) io.stderr(`crashlab ${CRASHLAB_VERSION}: ${shard ? `shard ${shard.index}/${shard.count}: ` : ""}${resolved.trials.length} trial(s) of ${new Set(resolved.trials.map((t) => t.case.id)).size} case(s), target ${resolved.target_name}, seed ${resolved.seed}, ${options.real_time ? "real" : "virtual"} time${pool ? `, ${threads} worker threads` : ""} → ${runDir}\n`);

    // --listen: caller left, assistant right, after each trial; said plainly when no player exists.
    const player = options.listen ? findPlayer(io.env ?? {}) : null;
    if (player && "missing" in player) io.stderr(`crashlab: --listen found no audio player (looked for ${player.missing.join(", ")}); the run goes on without playback — install one (e.g. alsa-utils for aplay) to listen\n`);
    const tags = Object.fromEntries(resolved.trials.map((t) => [t.case.id, t.case.tags]));
    // Each finished trial goes to the journal as its results.json row, then is released.
    const journal = new JournalWriter(join(runDir, JOURNAL_FILE));
    const settle = { runDir, redact, artifacts: options.artifacts, tags, verbose: options.verbose };
    const report = (trial: SettledTrial, done: number, total: number) => {
      journal.appendLine(trial.row);
      if (player && "play" in player && trial.conversation_wav) {
        io.stderr(`  ♪ playing ${trial.trial_id} with ${player.name} (caller left, assistant right)\n`);
        const played = player.play(join(runDir, trial.conversation_wav));
        if (!played.ok) io.stderr(`crashlab: --listen could not play ${trial.trial_id}: ${played.message}\n`);
      }
      if (!options.quiet) io.stderr(progressLine(trial.progress, done, total) + "\n");
      if (trial.verbose) io.stderr(trial.verbose);
    };
    const engineOptions = {
      ...runOptions,
      package: { dir: pkg.dir, digest },
      speech,
      ...(conversation ? { conversation } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      ...(io.abandon ? { abandon: io.abandon } : {}),
      keep_records: false,
      skip: finished,
    };
    let result: RunResult;
    try {
      if (pool) {
        const git = gitState(pkg.dir);
        pool.begin({ runDir, git });
        result = await runEach(plan, engineOptions, resolved, async (spec) => {
          const pooled = await pool.run(spec.trial_id);
          // A trial its worker lost (the worker died) still ends with a record: infrastructure_error at stage "worker".
          let trial: SettledTrial;
          if ("settled" in pooled) trial = pooled.settled;
          else {
            const lost = await lostTrial(trialContext(plan, engineOptions, resolved, spec, git), "worker", pooled.lost);
            trial = settleTrial(lost.record, lost.media, lost.catalog, settle);
          }
          return { outcome: trial.outcome, report: (done, total) => report(trial, done, total) };
        });
      } else {
        // Real time: other sessions' audio ticks run between this trial's files.
        const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
        result = await run(
          plan,
          {
            ...engineOptions,
            onTrialEnd: async (record, done, total, media, catalog) =>
              report(options.real_time ? await settleTrialPaced(breathe, record, media, catalog, settle) : settleTrial(record, media, catalog, settle), done, total),
          },
          resolved,
        );
      }
    } finally {
      journal.close();
    }
    // The workers' part is done: they stop (and free their memory) while the outputs are written.
    const stopping = pool?.close();
    // Summary, gates, results.json and junit.xml come from the journal, a row at a time.
    const outputs = writeOutputsFromJournal(
      runDir,
      journal.path,
      resolved.trials.map((t) => t.trial_id),
      { run_id: meta.run_id, plan: result.plan, target: result.target, seed: result.seed, repetitions: result.repetitions, started_at: resumption ? meta.started_at : result.started_at, finished_at: result.finished_at, gate_config: result.gate_config },
      result.interruption,
      { concurrency: resolved.concurrency, real_time: options.real_time, package_digest: digest, target_descriptor: target.describe(), limits: resolved.limits, case_tags: tags },
      redact,
    );
    // The report is built from the run folder alone, exactly as `crashlab view` would rebuild it.
    const reportFile = await writeRunReport(runDir, redact, true);
    await stopping;
    if (options.json) io.stdout(readFileSync(outputs.results, "utf8"));
    else io.stdout(summaryText(outputs.summary, outputs.gates, outputs.decision, { run_id: result.run_id, target: result.target, results_dir: outputs.results, interruption: result.interruption }) + "\n");
    if (result.interruption)
      io.stderr(`crashlab: interrupted by ${result.interruption.signal}; ${outputs.finished} finished trial(s) kept, ${result.interruption.not_run.length} not run (listed in ${outputs.results})\n`);
    if (options.visualize) await openReport(reportUrl(runDir), io);
    else if (!options.quiet && !options.json) io.stderr(`crashlab: report ${reportFile} (\`crashlab view ${runDir}\` opens it)\n`);
    return outputs.decision.exit_code;
  } finally {
    // Workers end with the run, whatever ends it (an error included), so the process can exit.
    await pool?.close();
  }
}

/** The voice caller speech will use: an unknown one is a usage error before anything runs, not a failed trial. */
async function checkCallerVoice(speech: ResolvedRunOptions["speech"]): Promise<void> {
  if (speech.provider !== "espeak") return; // resolveOptions checked it against OpenAI's voices
  try {
    await checkEspeakVoice(speech.voice);
  } catch (error) {
    if (error instanceof SpeechError && error.code === "unknown_voice") throw new UsageError(`--voice: ${error.message}`);
    throw error;
  }
}

function findLockfile(dir: string): string | undefined {
  let current = resolve(dir);
  for (;;) {
    for (const name of ["pnpm-lock.yaml", "package-lock.json", "yarn.lock"]) if (existsSync(join(current, name))) return join(current, name);
    const parent = resolve(current, "..");
    if (parent === current) return undefined;
    current = parent;
  }
}

/** `crashlab init [dir]`: a working evaluation package in an empty or existing folder. */
async function initCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { help: { type: "boolean", short: "h" } }, 1);
  if (values.help) {
    io.stdout(INIT_HELP + "\n");
    return 0;
  }
  const report = await scaffold(resolve(io.cwd, positionals[0] ?? "."));
  io.stdout(scaffoldSummary(report, io.cwd) + "\n");
  return 0;
}

async function listCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags(argv, { package: { type: "string" }, json: { type: "boolean" }, data: { type: "string", multiple: true } });
  const pkg = await loadPackage(findPackage(io.cwd, values.package), io.alpha);
  const plan = values.data && values.data.length > 0 ? planWithDatasets(pkg.plan, values.data, io.cwd, pkg.file) : pkg.plan;
  const verifiers = ["outcome", ...(plan.verifiers ?? []).map((v) => v.id)];
  if (values.json) {
    io.stdout(
      JSON.stringify(
        {
          plan: plan.name,
          targets: Object.keys(plan.targets),
          default_target: plan.default_target ?? Object.keys(plan.targets)[0],
          verifiers,
          cases: plan.cases.map((c) => ({ id: c.id, kind: c.kind, title: c.scenario.title, tags: c.tags })),
        },
        null,
        2,
      ) + "\n",
    );
    return 0;
  }
  const lines = [`plan ${plan.name} (${pkg.file})`, `targets: ${Object.keys(plan.targets).join(", ")}`, `verifiers: ${verifiers.join(", ")}`, `cases (${plan.cases.length}):`];
  const w = Math.max(...plan.cases.map((c) => c.id.length), 4);
  for (const c of plan.cases) lines.push(`  ${c.id.padEnd(w)}  ${c.kind.padEnd(5)}  ${c.scenario.title}${c.tags.length ? `  [${c.tags.join(", ")}]` : ""}`);
  io.stdout(lines.join("\n") + "\n");
  return 0;
}

async function validateCommand(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, { package: { type: "string" } }, 1);
  const [given] = positionals;
  if (given === undefined && values.package === undefined) throw new UsageError("usage: crashlab validate <dataset.json> | crashlab validate --package <package> [dataset.json]");
  if (values.package === undefined) {
    const file = resolve(io.cwd, given!);
    const { dataset } = loadDataset(file);
    // Recordings are part of a dataset's validity: every problem is reported, each with its fix.
    const problems = validateRecordings(dataset, file);
    if (problems.length > 0) {
      io.stderr(problems.map((p) => `crashlab: ${oneParagraph(p.message)}`).join("\n") + "\n");
      return 2;
    }
    io.stdout(`${given}: valid, ${describeDataset(dataset)}; checked without a world (add --package <package> to check initial states and tool names against it)\n`);
    return 0;
  }
  // With the package: what `run` checks before its first trial, on every case (or those of one dataset).
  const pkg = await loadPackage(findPackage(io.cwd, values.package), io.alpha);
  let cases = pkg.plan.cases;
  if (given !== undefined) {
    const file = resolve(io.cwd, given);
    loadDataset(file);
    const same = (a: string, b: string) => realOrResolved(a) === realOrResolved(b);
    cases = cases.filter((c) => same(c.dataset_file, file));
    // A dataset outside the PLAN is checked as `run --data` would run it: against the package's world.
    if (cases.length === 0) cases = planWithDatasets(pkg.plan, [given], io.cwd, pkg.file).cases;
  }
  checkCasesAgainstWorlds(cases);
  const datasets = new Set(cases.map((c) => c.dataset_file));
  const worlds = [...new Set(cases.map((c) => c.world.name))];
  io.stdout(`${given ?? pkg.file}: valid, ${cases.length} case(s) from ${datasets.size} dataset(s) checked against world ${worlds.map((w) => `"${w}"`).join(", ")}\n`);
  return 0;
}

function describeDataset(dataset: import("../dataset/schema").Dataset): string {
  const kinds = dataset.scenarios.reduce<Record<string, number>>((acc, s) => ({ ...acc, [s.interaction]: (acc[s.interaction] ?? 0) + 1 }), {});
  const recordings = dataset.scenarios.reduce((n, s) => n + (s.input.recordings?.length ?? 0), 0);
  return `${dataset.scenarios.length} scenario(s) (${Object.entries(kinds).map(([k, v]) => `${v} ${k}`).join(", ")})${recordings ? `, ${recordings} recording(s) checked` : ""}`;
}

function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
