/**
 * The one engine entry behind `crashlab run` and the library's `run()`: from a PLAN and its resolved
 * settings to a finished run. Everything a user can get wrong is checked here, before any folder exists
 * (the settings together, the world preflight, a required judge that would not run, the caller's voice);
 * then the plan digest, the run session on its folder, trials in this thread or in worker threads, the
 * outputs. The front ends only turn their input (argv, an options object) into settings and say what
 * happened.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { planDigest, type RunMeta } from "../journal/run-meta";
import { sha256 } from "../provenance/digest";
import { planWithDatasets } from "../package/datasets";
import { packageIdentity, type PackageIdentity } from "../provenance/package-files";
import { checkCasesAgainstWorlds } from "../run/preflight";
import { PlanError, type Plan } from "../run/plan";
import { resolveRun, resolvedRunData, run as runInMemory, type ResolvedRun, type RunResult } from "../run/run";
import { parseShard, shardTrials, type Shard } from "../run/shard";
import type { Redact } from "../services/redact";
import { digestSettings } from "../settings/digest";
import { SettingsError } from "../settings/errors";
import { displayName, type Resolution } from "../settings/resolve";
import { checkEspeakVoice, SpeechError } from "../speech/index";
import type { ConversationLine, CallerSpeech } from "../trial/context";
import { CRASHLAB_VERSION } from "../version";
import { checkSettings, engineOptions, type Credentials } from "./engine";
import { execute, type Executed, type RunReporter } from "./execute";
import { TrialPool } from "./pool";
import type { RunRequest } from "./request";
import { RunSession } from "./session";

/** The evaluation package a run's PLAN came from: its file (a worker loads it again), folder, digest and what the digest covers. */
export interface RunPackage {
  file?: string;
  dir?: string;
  digest: string;
  identity?: PackageIdentity;
  /** Where its transpiled code is cached (workers load it from there). */
  cache_dir?: string;
}

export interface FrontRun {
  /** The PLAN as its package (or the library's caller) defines it; the `data` setting's datasets replace its cases here. */
  plan: Plan;
  resolution: Resolution;
  credentials: Credentials;
  package: RunPackage;
  /** The folder the settings' relative paths mean something in. */
  cwd: string;
  /** Write a run folder under `results_dir` (the CLI always does); otherwise the run stays in memory and keeps its records. */
  folder: boolean;
  /** The trial worker's entry module: with it (and the package's file), offline virtual-time trials run in worker threads. */
  workers?: URL | null;
  reporters?: readonly RunReporter[];
  /** Notices worth a line (cases skipped, a resumption): the CLI prints them. */
  say?: (line: string) => void;
  /** Once the session holds its folder, before the first trial. */
  onStart?: (start: { session: RunSession; resolved: ResolvedRun; threads: number; shard: Shard | null }) => void;
  /** RUN conversations as they unfold (`--verbose`), in this thread; from a worker thread, already written out (`workerLine`). */
  onLine?: (line: ConversationLine) => void;
  workerLine?: (text: string) => void;
  redact: Redact;
  secrets: string[][];
  signal?: AbortSignal;
  abandon?: AbortSignal;
  /** Finish this run in its own folder; `force`: although its plan changed. */
  resume?: { dir: string; meta: RunMeta; force: boolean } | null;
  /** What run.json stores as the command line (the library has none). */
  argv?: string[];
  /** Caller speech of the caller's own instead of the settings' (library only; trials then run in this thread). */
  caller_speech?: CallerSpeech;
}

export type FrontResult = { kind: "folder"; executed: Executed; run_dir: string } | { kind: "memory"; result: RunResult };

/**
 * A loaded package as a run names it: what of it ran — every module its load evaluated, the lockfile,
 * dependency versions, git state — hashed once, here, for the whole run (trial workers are handed it).
 */
export function runPackage(loaded: { file: string; dir: string; modules: readonly string[] }, cache_dir?: string): RunPackage {
  const identity = packageIdentity(loaded.dir, loaded.modules);
  return { file: loaded.file, dir: loaded.dir, digest: identity.digest, identity, ...(cache_dir ? { cache_dir } : {}) };
}

/** The refusal when the plan changed since the run began. */
export function planChanged(meta: RunMeta, now: string): SettingsError {
  return new SettingsError(
    `the plan of run ${meta.run_id} changed since it started (plan digest ${meta.plan_digest.slice(0, 19)}… is now ${now.slice(0, 19)}…): the package's files, the target, its settings or the trial list differ, so the finished trials and the rest would not be one experiment — start a new run, or pass --force to finish this one with the changed plan (finished trials keep what they recorded)${
      meta.settings === undefined ? "; this run folder was written by an earlier crashlab, whose plan digest was computed differently, so only --force finishes it" : ""
    }`,
  );
}

export async function startRun(x: FrontRun): Promise<FrontResult> {
  const { resolution, credentials } = x;
  const s = resolution.settings;
  // `data` (--data, [dataset] path, run()'s `data`): the datasets' scenarios against the PLAN's world, as a trial worker applies them too.
  const plan = s.data.length > 0 ? planWithDatasets(x.plan, s.data, x.cwd, x.package.file) : x.plan;
  const name = (key: string) => resolution.sources[key]?.label ?? displayName(key);
  checkSettings(resolution, credentials);
  const shard = s.shard !== undefined ? parseShard(s.shard) : null;
  const where = { ...(x.package.dir ? { package_dir: x.package.dir } : {}), package_digest: x.package.digest, ...(x.package.identity ? { package_identity: x.package.identity } : {}), cwd: x.cwd };
  // Everything a user can get wrong is checked here, before any folder is created.
  const resolved = resolveRun(plan, engineOptions(s, credentials, { ...where, conversations: false }, undefined, name));
  // One line per reason: WALK and RUN cases are skipped by a text target for different reasons.
  for (const reason of new Set(resolved.skipped.map((k) => k.reason))) {
    const ids = resolved.skipped.filter((k) => k.reason === reason).map((k) => k.case_id);
    x.say?.(`skipping ${ids.length} case(s): ${reason} (${ids.slice(0, 4).join(", ")}${ids.length > 4 ? ", …" : ""})`);
  }
  // A required semantic verifier with no judge could never pass: every trial would be inconclusive and the
  // run would end without a decision. Say so before anything runs.
  const needsJudge = resolved.verifiers.filter((v) => v.required && v.verifier.kind === "semantic").map((v) => v.verifier.id);
  if (needsJudge.length > 0 && !s.judge)
    throw new SettingsError(
      `${needsJudge.join(", ")} ${needsJudge.length === 1 ? "is" : "are"} required, but no semantic judge runs: add --judge (with OPENAI_API_KEY, or --judge-endpoint for your own Responses-compatible server), run --live, or make ${needsJudge.length === 1 ? "it" : "them"} advisory (--advisory <id>)`,
    );
  if (plan.cases.length === 0)
    throw new PlanError(`the PLAN${x.package.file ? ` of ${x.package.file}` : ""} has no cases: crawl() and walk() make cases of single-turn scenarios (walk() of those with recordings), converse() of multi-turn ones — check which your datasets hold`);
  if (resolved.trials.length === 0) throw new PlanError("the selection matches no case: check --example/--tag/--max-examples (`crashlab list` shows the cases)");
  checkCasesAgainstWorlds(resolved.trials.map((t) => t.case));
  // Caller speech is synthesized only for CRAWL cases on an audio target: check the voice once, now.
  if (!x.caller_speech && resolved.target.accepts.includes("audio") && resolved.trials.some((t) => !t.case.recording)) await checkCallerVoice(s.speech, s.voice, name("voice"));

  const conversations = resolved.trials.some((t) => t.case.kind === "run");
  const engine = { ...engineOptions(s, credentials, { ...where, conversations }, x.onLine, name), ...(x.caller_speech ? { speech: x.caller_speech } : {}) };
  const target = resolved.target;
  const plan_digest = planDigest({
    crashlab_version: CRASHLAB_VERSION,
    package_digest: x.package.digest,
    target: resolved.target_name,
    target_descriptor: target.describe(),
    // Each trial's scenario too: datasets are read as data, not loaded as modules, so the package digest leaves them out.
    trials: resolved.trials.map((t) => [t.trial_id, t.seed, sha256(JSON.stringify(t.case.scenario))]),
    limits: resolved.limits,
    gates: resolved.gate_config,
    // Datasets given with `data` live outside the package digest: their bytes count too.
    data: s.data.map((file) => ({ file, sha256: sha256(readFileSync(resolve(x.cwd, file))) })),
    settings: digestSettings(s),
  });
  if (x.resume && x.resume.meta.plan_digest !== plan_digest && !x.resume.force) throw planChanged(x.resume.meta, plan_digest);
  const signals = { ...(x.signal ? { signal: x.signal } : {}), ...(x.abandon ? { abandon: x.abandon } : {}) };
  if (!x.folder) return { kind: "memory", result: await runInMemory(plan, { ...engine, ...signals }, resolved) };

  // A shard's slice of the trials; the plan digest above covers the whole plan, so every shard shares it.
  const planTrials = resolved.trials.map((t) => t.trial_id);
  if (shard) resolved.trials = shardTrials(resolved.trials, shard, target.accepts.includes("audio"));
  if (x.resume) resolved.run_id = x.resume.meta.run_id;
  // Offline in virtual time a trial is pure CPU: above concurrency 1 trials run in worker threads, one per
  // core, each loading the package itself. They load now, before any folder exists, so a package that
  // cannot load in a worker is refused like any other bad package.
  const file = x.package.file;
  const threads =
    x.workers && file && x.package.dir && !x.caller_speech && !s.real_time && engine.target_settings?.mode === "offline" ? Math.min(resolved.concurrency, Math.max(2, availableParallelism()), resolved.trials.length) : 1;
  const request: RunRequest | null =
    threads > 1 && file && x.package.dir
      ? {
          package: { file, dir: x.package.dir, digest: x.package.digest, ...(x.package.identity ? { identity: x.package.identity } : {}), ...(x.package.cache_dir ? { cache_dir: x.package.cache_dir } : {}) },
          cwd: x.cwd,
          settings: s,
          credentials: Object.fromEntries(Object.entries(credentials).filter((e): e is [string, string] => typeof e[1] === "string")),
          run: resolvedRunData(resolved),
          conversations,
          secrets: x.secrets,
        }
      : null;
  const pool = request ? await TrialPool.start(x.workers!, request, threads, Math.ceil(resolved.concurrency / threads), (text) => x.workerLine?.(text)) : null;
  try {
    // The last check before any trial runs, and the first thing written: the run folder, its lock and
    // run.json (a resumed run keeps its folder, its id and its start, and notes the resumption).
    const session = RunSession.open({
      results_dir: resolve(x.cwd, s.results_dir),
      run_id: resolved.run_id,
      plan_digest,
      package_digest: x.package.digest,
      ...(x.package.identity ? { package: x.package.identity } : {}),
      seed: resolved.seed,
      trials: resolvedRunData(resolved).trials,
      shard: shard ? { ...shard, plan_trials: planTrials } : null,
      gate_config: resolved.gate_config,
      argv: x.argv ?? [],
      settings: s,
      cwd: x.cwd,
      resume: x.resume ? { dir: x.resume.dir, meta: x.resume.meta } : null,
    });
    try {
      x.onStart?.({ session, resolved, threads: pool ? threads : 1, shard });
      const executed = await execute({
        plan,
        options: { ...engine, ...signals },
        resolved,
        session,
        pool,
        artifacts: s.artifacts,
        verbose: s.verbose,
        redact: x.redact,
        reporters: x.reporters ?? [],
        results: {
          concurrency: resolved.concurrency,
          real_time: s.real_time,
          package_digest: x.package.digest,
          target_descriptor: target.describe(),
          limits: resolved.limits,
          case_tags: Object.fromEntries(resolved.trials.map((t) => [t.case.id, t.case.tags])),
        },
      });
      return { kind: "folder", executed, run_dir: session.dir };
    } finally {
      session.close();
    }
  } finally {
    // Workers end with the run, whatever ends it (an error included), so the process can exit.
    await pool?.close();
  }
}

/** The voice caller speech will use: an unknown one is a settings error before anything runs, not a failed trial. */
async function checkCallerVoice(provider: string, voice: string, label: string): Promise<void> {
  if (provider !== "espeak") return; // checkSettings checked it against OpenAI's voices
  try {
    await checkEspeakVoice(voice);
  } catch (error) {
    if (error instanceof SpeechError && error.code === "unknown_voice") throw new SettingsError(`${label}: ${error.message}`);
    throw error;
  }
}
