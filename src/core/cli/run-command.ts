/**
 * `crashlab run`: the command line turned into a run request, a run session opened on its folder, the
 * trials executed (in worker threads offline above --concurrency 1), and what happened printed. The
 * runner does the work; this file decides what to run and what to say.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { sha256 } from "../provenance/digest";
import { packageIdentity } from "../provenance/package-files";
import { checkEspeakVoice, SpeechError } from "../speech/index";
import { conversationLine, progressLine, summaryText } from "../report/console";
import { checkCasesAgainstWorlds } from "../run/preflight";
import { planDigest } from "../journal/run-meta";
import { digestInputs, lastFailedCases, planChanged, resumeArgs, type Resumption } from "./resume";
import { parseShard, shardTrials } from "../run/shard";
import { redactor, type Redact } from "../services/redact";
import { resolveRun, resolvedRunData } from "../run/run";
import { CRASHLAB_VERSION } from "../version";
import { findPlayer } from "./listen";
import { RUN_HELP } from "./help";
import { openReport, reportUrl } from "./view";
import { findPackage, loadPackage, transpileCacheDir } from "../package/load";
import { checkRunName } from "./flags";
import { planWithDatasets } from "../package/datasets";
import { parseRunArgs, resolveOptions, UsageError, type RawRunArgs, type ResolvedRunOptions } from "./options";
import { engineSetup } from "./run-settings";
import { TrialPool } from "../runner/pool";
import { RunSession } from "../runner/session";
import { execute, type RunReporter } from "../runner/execute";
import type { RunRequest } from "../runner/request";
import type { CliIO } from "./io";

export async function runCommand(argv: string[], givenIo: CliIO, cliRedact: Redact, cliSecrets: string[]): Promise<number> {
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
    return await runPackage({ cli, io, redact: cliRedact, secrets: cliSecrets, argv, resumption, shard, file, cacheDir: cache.dir });
  } finally {
    cache.dispose();
  }
}

interface RunInvocation {
  cli: RawRunArgs;
  io: CliIO;
  redact: Redact;
  secrets: string[];
  argv: string[];
  resumption: Resumption | null;
  shard: ReturnType<typeof parseShard> | null;
  file: string;
  cacheDir: string | undefined;
}

async function runPackage(given: RunInvocation): Promise<number> {
  const { cli, argv, resumption, shard } = given;
  let { io, redact } = given;
  const pkg = await loadPackage(given.file, io.alpha, given.cacheDir);
  const plan = cli.data && cli.data.length > 0 ? planWithDatasets(pkg.plan, cli.data, io.cwd, pkg.file) : pkg.plan;
  // Keys the PLAN names (defaults.services.*.api_key_env) are secrets of this run too.
  const planKeys = Object.values(plan.defaults?.services ?? {}).flatMap((s) => (s && typeof s === "object" && s.api_key_env ? [io.env?.[s.api_key_env]] : [])).filter((k): k is string => typeof k === "string" && k !== "");
  if (planKeys.length > 0) {
    const planRedact = redactor(planKeys);
    const outer = io;
    redact = (text) => planRedact(given.redact(text));
    io = { ...outer, stdout: (t) => outer.stdout(planRedact(t)), stderr: (t) => outer.stderr(planRedact(t)) };
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
  // What of the package ran — every file its load evaluated, the lockfile, git — hashed once, here, for
  // the whole run: trial workers load the package again but are handed this.
  const identity = packageIdentity(pkg.dir, pkg.modules);
  const digest = identity.digest;
  const where = { package_dir: pkg.dir, package_digest: digest, package_identity: identity, cwd: io.cwd };
  // Everything a user can get wrong is checked here, before any folder is created.
  const resolved = resolveRun(plan, engineSetup(options, { ...where, conversations: false }));
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

  const conversations = resolved.trials.some((t) => t.case.kind === "run");
  const engine = engineSetup(options, { ...where, conversations }, options.verbose ? (line) => io.stderr(`${conversationLine(line)}\n`) : undefined);
  const target = resolved.target;
  const plan_digest = planDigest(
    digestInputs(options, {
      package_digest: digest,
      target: resolved.target_name,
      target_descriptor: target.describe(),
      // Each trial's scenario too: datasets are read as data, not loaded as modules, so the package digest leaves them out.
      trials: resolved.trials.map((t) => [t.trial_id, t.seed, sha256(JSON.stringify(t.case.scenario))]),
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
  if (resumption) resolved.run_id = resumption.meta.run_id;
  const request: RunRequest = {
    package: { file: pkg.file, dir: pkg.dir, digest, identity, ...(given.cacheDir ? { cache_dir: given.cacheDir } : {}) },
    cwd: io.cwd,
    data: cli.data ?? [],
    settings: options,
    run: resolvedRunData(resolved),
    conversations,
    artifacts: options.artifacts,
    verbose: options.verbose,
    secrets: planKeys.length > 0 ? [given.secrets, planKeys] : [given.secrets],
  };
  // Offline in virtual time a trial is pure CPU: above --concurrency 1 trials run in worker threads, one
  // per core, each loading the package itself. They load now, before any folder exists, so a package that
  // cannot load in a worker is refused like any other bad package.
  const threads = io.workers && !options.real_time && options.target_settings.mode === "offline" ? Math.min(resolved.concurrency, Math.max(2, availableParallelism()), resolved.trials.length) : 1;
  const pool = threads > 1 ? await TrialPool.start(io.workers!, request, threads, Math.ceil(resolved.concurrency / threads), (text) => io.stderr(`${text}\n`)) : null;
  try {
    // The last check before any trial runs, and the first thing written: the run folder, its lock and
    // run.json (a resumed run keeps its folder, its id and its start, and notes the resumption).
    const session = RunSession.open({
      results_dir: resolve(io.cwd, options.results_dir),
      run_id: resolved.run_id,
      plan_digest,
      package_digest: digest,
      package: identity,
      seed: resolved.seed,
      trials: request.run.trials,
      shard: shard ? { ...shard, plan_trials: planTrials } : null,
      gate_config: resolved.gate_config,
      argv: storedArgv,
      cwd: io.cwd,
      resume: resumption ? { dir: resumption.dir, meta: resumption.meta } : null,
    });
    try {
      // What taking the folder back repaired is said even with --quiet: the user should know the folder was damaged.
      for (const note of session.notes) io.stderr(`crashlab: ${note}\n`);
      if (resumption && !options.quiet)
        io.stderr(`crashlab: resuming ${session.meta.run_id}: ${resolved.trials.filter((t) => session.finished.has(t.trial_id)).length} of ${resolved.trials.length} trial(s) finished before, the rest run now\n`);
      if (!options.quiet && options.target_settings.mode === "offline" && io.env?.OPENAI_API_KEY) io.stderr("crashlab: OPENAI_API_KEY is set; this run is offline — pass --live to evaluate against the real service\n");
      if (!options.quiet)
        io.stderr(`crashlab ${CRASHLAB_VERSION}: ${shard ? `shard ${shard.index}/${shard.count}: ` : ""}${resolved.trials.length} trial(s) of ${new Set(resolved.trials.map((t) => t.case.id)).size} case(s), target ${resolved.target_name}, seed ${resolved.seed}, ${options.real_time ? "real" : "virtual"} time${pool ? `, ${threads} worker threads` : ""} → ${session.dir}\n`);
      const { outputs, result, report } = await execute({
        plan,
        options: { ...engine, ...(io.signal ? { signal: io.signal } : {}), ...(io.abandon ? { abandon: io.abandon } : {}) },
        resolved,
        session,
        pool,
        artifacts: options.artifacts,
        verbose: options.verbose,
        redact,
        reporters: [consoleReporter(options, io)],
        results: { concurrency: resolved.concurrency, real_time: options.real_time, package_digest: digest, target_descriptor: target.describe(), limits: resolved.limits, case_tags: Object.fromEntries(resolved.trials.map((t) => [t.case.id, t.case.tags])) },
      });
      if (options.json) io.stdout(readFileSync(outputs.results, "utf8"));
      else io.stdout(summaryText(outputs.summary, outputs.gates, outputs.decision, { run_id: result.run_id, target: result.target, results_dir: outputs.results, interruption: result.interruption }) + "\n");
      if (result.interruption)
        io.stderr(`crashlab: interrupted by ${result.interruption.signal}; ${outputs.finished} finished trial(s) kept, ${result.interruption.not_run.length} not run (listed in ${outputs.results})\n`);
      if (options.visualize) await openReport(reportUrl(session.dir), io);
      else if (!options.quiet && !options.json) io.stderr(`crashlab: report ${report} (\`crashlab view ${session.dir}\` opens it)\n`);
      return outputs.decision.exit_code;
    } finally {
      session.close();
    }
  } finally {
    // Workers end with the run, whatever ends it (an error included), so the process can exit.
    await pool?.close();
  }
}

/** What the person at the terminal sees as trials end: a progress line each, --listen playback, --verbose detail. */
function consoleReporter(options: ResolvedRunOptions, io: CliIO): RunReporter {
  // --listen: caller left, assistant right, after each trial; said plainly when no player exists.
  const player = options.listen ? findPlayer(io.env ?? {}) : null;
  if (player && "missing" in player) io.stderr(`crashlab: --listen found no audio player (looked for ${player.missing.join(", ")}); the run goes on without playback — install one (e.g. alsa-utils for aplay) to listen\n`);
  let runDir = "";
  return {
    onRunBegin(begin) {
      runDir = begin.run_dir;
    },
    onTrialEnd(trial, done, total) {
      if (player && "play" in player && trial.conversation_wav) {
        io.stderr(`  ♪ playing ${trial.trial_id} with ${player.name} (caller left, assistant right)\n`);
        const played = player.play(join(runDir, trial.conversation_wav));
        if (!played.ok) io.stderr(`crashlab: --listen could not play ${trial.trial_id}: ${played.message}\n`);
      }
      if (!options.quiet) io.stderr(progressLine(trial.progress, done, total) + "\n");
      if (trial.verbose) io.stderr(trial.verbose);
    },
  };
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
