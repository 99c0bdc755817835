/** Resolving a run from a PLAN and options, and the trial loop that runs it to a result and a decision. */

import { randomBytes } from "node:crypto";
import { evaluateGates, type GateConfig, type GateDecision, type GateRule, type GateVerdict } from "../gate/gates";
import { humanGateConfig, humanGateIds, isKnownHumanGate } from "../gate/human";
import { gitState, type GitState } from "../provenance/digest";
import { DEFAULT_TARGET_SETTINGS, instantiateTarget, type TargetSettings } from "../target/settings";
import type { TargetAdapter } from "../target/types";
import type { EvidenceCatalog } from "../judge/evidence";
import { semanticVerifiers } from "../judge/verifiers";
import type { JudgeSettings } from "../judge/judge";
import { outcomeVerifier, type Verifier } from "../verify/verifier";
import { CRASHLAB_VERSION } from "../version";
import { MAX_REAL_TIME_CONCURRENCY, MAX_VIRTUAL_CONCURRENCY } from "../settings/schema";
import { buildTrials, DEFAULT_LIMITS, DEFAULT_MAX_TRIALS, MAX_TRIALS_CEILING, PlanError, selectCases, type CaseDefinition, type CaseSelection, type Plan, type TrialSpec } from "./plan";
import type { Limits, TrialRecord } from "../record/trial-record";
import { prefetchCallerSpeech } from "./prefetch";
import { summarize, type RunSummary } from "./summary";
import { trialOutcome, type TrialOutcome } from "./outcome";
import { DEFAULT_AUDIO, runTrial, type AudioSettings, type CallerSpeech, type SpeechDetector, type TrialContext, type TrialMedia } from "../trial/index";
import type { ConversationSettings } from "../trial/context";
import { conversationDurationLimit } from "../trial/conversation/duration-limit";
import type { PackageIdentity } from "../provenance/package-files";

export interface GateOverrides {
  /** Verifier ids made required from the CLI. */
  require?: string[];
  /** Verifier ids made advisory from the CLI. */
  advisory?: string[];
  /** Minimum pass rate for every required gate. */
  min_pass_rate?: number;
  /** Compare the Wilson lower bound instead of the raw pass rate. */
  wilson?: boolean;
}

export interface RunOptions {
  target?: string;
  /** The semantic judge; null or absent records applicable dimensions as not assessed (offline default). */
  judge?: JudgeSettings | null;
  /** Settings for target factories (mode, delegation, models, voice, endpoint). */
  target_settings?: Partial<TargetSettings>;
  repetitions?: number;
  concurrency?: number;
  seed?: number;
  /** The trial-count ceiling (default DEFAULT_MAX_TRIALS); a run that would have more is refused. */
  max_trials?: number;
  selection?: CaseSelection;
  real_time?: boolean;
  limits?: Partial<Limits>;
  gates?: GateOverrides;
  run_name?: string;
  /** Evaluation package identity for provenance (the CLI computes it from the package folder). */
  package?: { dir?: string; digest: string; identity?: PackageIdentity };
  /** Called as trials start and finish (live progress, artifact writing). */
  onTrialStart?: (spec: TrialSpec) => void;
  onTrialEnd?: (record: TrialRecord, done: number, total: number, media: TrialMedia | null, catalog: EvidenceCatalog) => void | Promise<void>;
  /** Caller speech for audio targets (the CLI supplies a cached offline or live synthesizer). */
  speech?: CallerSpeech;
  audio?: Partial<AudioSettings>;
  /** Voiced-interval detector for the timeline: "rms" (default, docs/audio-and-metrics.md) or "webrtc". */
  speech_detector?: SpeechDetector;
  /** Log each audio chunk's event instead of one count per kind (`--log-audio-events`). */
  log_audio_events?: boolean;
  /** The response-latency check's deadline in ms (default 5000): an answer later than this counts as late. */
  response_deadline_ms?: number;
  /** RUN: the simulated caller and how conversations are held. */
  conversation?: ConversationSettings;
  /**
   * Interrupt: no new trial starts; trials in progress finish and are kept. Its `reason` names the signal
   * (`"SIGINT"`, `"SIGTERM"`, `"SIGHUP"`), which sets the exit code (any other reason: 130).
   */
  signal?: AbortSignal;
  /** Stop at once (a second signal): trials still in progress are abandoned and listed as not run. */
  abandon?: AbortSignal;
  /**
   * false: a finished trial is handed to `onTrialEnd` (which journals it) and then released; `records` comes
   * back empty and only each trial's slim outcome is kept for the summary and gates. Default true.
   */
  keep_records?: boolean;
  /** Trial ids already finished (a resumed run's journal): not run again, and not listed as not run. */
  skip?: ReadonlySet<string>;
}

/** A selected trial that has no record because the run was interrupted. */
export interface NotRunTrial {
  trial_id: string;
  case_id: string;
  reason: "not started" | "abandoned while running";
}

/** Why a run stopped early, and what it left undone. */
export interface Interruption {
  signal: string;
  not_run: NotRunTrial[];
}

/** The run's decision: the gates' verdict, or `interrupted` (no pass decision exists for a partial run). */
export interface RunDecision {
  ok: boolean;
  decision: GateVerdict | "interrupted";
  exit_code: 0 | 1 | 3 | 4 | 129 | 130 | 143;
  message: string;
}

/** Conventional exit codes for a run stopped by a signal (128 + signal number). */
export const SIGNAL_EXIT_CODES: Readonly<Record<string, 129 | 130 | 143>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/** An interrupted run never passes: its decision is `interrupted`, whatever the finished trials said. */
export function runDecision(gates: GateDecision, interruption: Interruption | null, total: number): RunDecision {
  if (!interruption) return { ok: gates.ok, decision: gates.decision, exit_code: gates.exit_code, message: gates.message };
  const ran = total - interruption.not_run.length;
  return {
    ok: false,
    decision: "interrupted",
    exit_code: SIGNAL_EXIT_CODES[interruption.signal] ?? 130,
    message: `interrupted by ${interruption.signal}: ${ran} of ${total} trial(s) finished, ${interruption.not_run.length} not run — an interrupted run has no pass decision (the gates on the finished trials said: ${gates.message})`,
  };
}

export interface RunResult {
  run_id: string;
  plan: string;
  target: string;
  seed: number;
  repetitions: number;
  started_at: string;
  finished_at: string;
  records: TrialRecord[];
  gate_config: GateConfig;
  /** The gates over the finished trials. */
  gates: GateDecision;
  /** The run's decision: the gates', or `interrupted`. */
  decision: RunDecision;
  /** Set when the run was interrupted before every selected trial finished. */
  interruption: Interruption | null;
  summary: RunSummary;
}

export interface ResolvedRun {
  run_id: string;
  /** Selected cases the target cannot run, with the reason (reported, never silently dropped). */
  skipped: Array<{ case_id: string; reason: string }>;
  target_name: string;
  target: TargetAdapter;
  target_settings: TargetSettings;
  trials: TrialSpec[];
  verifiers: Array<{ verifier: Verifier; required: boolean }>;
  gate_config: GateConfig;
  limits: Limits;
  seed: number;
  repetitions: number;
  concurrency: number;
}

export const DEFAULT_SEED = 1;

/**
 * How many trials may run at once (declared with the settings). A virtual-time trial is pure CPU (trials
 * are spread over worker threads, one per core), so more at once than cores only interleaves the same
 * work; a real-time trial spends nearly all of its life waiting on the audio clock and the network, so one
 * process drives many (pacing lag at 32 and 64 sessions is measured by `pnpm bench realtime-sessions`).
 */
export { MAX_REAL_TIME_CONCURRENCY, MAX_VIRTUAL_CONCURRENCY } from "../settings/schema";

export function virtualConcurrencyRefusal(concurrency: number): string {
  return `concurrency ${concurrency} is for real-time runs: with virtual time every trial is CPU work (one core at most), so at most ${MAX_VIRTUAL_CONCURRENCY} run at once — lower --concurrency, or add --real-time (up to ${MAX_REAL_TIME_CONCURRENCY})`;
}

/** Resolve a run from the plan and options without executing anything: every usage error surfaces here. */
export function resolveRun(plan: Plan, options: RunOptions = {}): ResolvedRun {
  const repetitions = options.repetitions ?? 1;
  if (!Number.isInteger(repetitions) || repetitions < 1) throw new PlanError(`repetitions must be a whole number >= 1 (got ${repetitions})`);
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_REAL_TIME_CONCURRENCY)
    throw new PlanError(`concurrency must be a whole number from 1 to ${MAX_VIRTUAL_CONCURRENCY} (${MAX_REAL_TIME_CONCURRENCY} in real time) (got ${concurrency})`);
  const seed = options.seed ?? DEFAULT_SEED;
  if (!Number.isSafeInteger(seed) || seed < 0) throw new PlanError(`seed must be a non-negative whole number (got ${seed})`);
  const { target_name, target, target_settings } = runTarget(plan, options);
  if (!target_settings.real_time && concurrency > MAX_VIRTUAL_CONCURRENCY) throw new PlanError(virtualConcurrencyRefusal(concurrency));
  const verifierList = runVerifiers(plan, options);
  const ids = new Set(verifierList.map((v) => v.id));
  const semanticIds = [...ids].filter((id) => id.startsWith("semantic."));
  for (const id of [...(options.gates?.require ?? []), ...(options.gates?.advisory ?? [])])
    if (!ids.has(id) && !isKnownHumanGate(id, semanticIds))
      throw new PlanError(`unknown verifier "${id}" in a gate override; verifiers: ${[...ids].join(", ")}; human gates: ${humanGateIds(semanticIds).join(", ")}`);
  const gate_config: GateConfig = {};
  for (const v of verifierList) {
    const fromPlan = plan.gates?.[v.id] ?? {};
    const rule: GateRule = {
      required: fromPlan.required ?? v.required,
      min_pass_rate: fromPlan.min_pass_rate ?? 1,
      wilson: fromPlan.wilson ?? false,
    };
    if (options.gates?.require?.includes(v.id)) rule.required = true;
    if (options.gates?.advisory?.includes(v.id)) rule.required = false;
    if (options.gates?.min_pass_rate !== undefined) rule.min_pass_rate = options.gates.min_pass_rate;
    if (options.gates?.wilson !== undefined) rule.wilson = options.gates.wilson;
    if (!(rule.min_pass_rate >= 0 && rule.min_pass_rate <= 1)) throw new PlanError(`min pass rate for "${v.id}" must be between 0 and 1`);
    gate_config[v.id] = rule;
  }
  // Human gates: no verifier produces them; they wait for reviews (docs/review.md).
  Object.assign(gate_config, humanGateConfig(plan.gates, options.gates));

  const limits: Limits = { ...DEFAULT_LIMITS, ...plan.limits, ...options.limits };
  for (const [k, v] of Object.entries(limits)) if (!Number.isInteger(v) || v <= 0) throw new PlanError(`limit ${k} must be a positive whole number (got ${v})`);
  const selected = selectCases(plan.cases, options.selection ?? {});
  // WALK replays recordings and RUN holds a spoken conversation: a target that takes only text cannot
  // run those cases (sending it the reference transcript instead would hand it evaluator-only data).
  // They are skipped and reported.
  const spoken = (c: CaseDefinition) => c.recording !== undefined || c.kind === "run";
  const cases = target.accepts.includes("audio") ? selected : selected.filter((c) => !spoken(c));
  const skipped = selected
    .filter((c) => !cases.includes(c))
    .map((c) => ({ case_id: c.id, reason: `target "${target_name}" takes text; ${c.kind === "run" ? "RUN cases hold a spoken conversation" : "WALK cases replay recordings"}` }));
  checkTrialCount(cases.length, repetitions, options.max_trials ?? DEFAULT_MAX_TRIALS);
  const trials = buildTrials(cases, repetitions, seed);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..+/, "").replace("T", "-");
  const run_id = `${options.run_name ? `${options.run_name}-` : ""}${stamp}-${randomBytes(2).toString("hex")}`;
  return {
    run_id,
    skipped,
    target_name,
    target,
    target_settings,
    trials,
    verifiers: verifierList.map((verifier) => ({ verifier, required: gate_config[verifier.id]!.required })),
    gate_config,
    limits,
    seed,
    repetitions,
    concurrency,
  };
}

/** The run's target adapter, built from the PLAN's factory with the run's settings. */
function runTarget(plan: Plan, options: RunOptions): { target_name: string; target: TargetAdapter; target_settings: TargetSettings } {
  const names = Object.keys(plan.targets);
  const target_name = options.target ?? plan.default_target ?? names[0]!;
  if (!plan.targets[target_name]) throw new PlanError(`unknown target "${target_name}"; the plan declares: ${names.join(", ")}`);
  const target_settings: TargetSettings = { ...DEFAULT_TARGET_SETTINGS, real_time: options.real_time ?? false, ...options.target_settings };
  if (target_settings.mode === "live" && !target_settings.api_key)
    throw new PlanError("live mode needs an API key: set OPENAI_API_KEY (or run without --live to use the local simulator)");
  try {
    return { target_name, target: instantiateTarget(plan.targets[target_name]!, target_settings), target_settings };
  } catch (error) {
    throw new PlanError(`target "${target_name}" could not be built with these settings: ${(error as Error).message}`);
  }
}

/** Every verifier of the run: the outcome, the PLAN's own, and the semantic judge's clauses. */
function runVerifiers(plan: Plan, options: RunOptions): Verifier[] {
  let semantic: Verifier[];
  try {
    semantic = semanticVerifiers({ judge: options.judge ?? null, ...(plan.clauses ? { clauses: plan.clauses } : {}), ...(plan.facts ? { facts: plan.facts } : {}) }) as Verifier[];
  } catch (error) {
    throw new PlanError(`the semantic judge cannot be set up: ${(error as Error).message}`);
  }
  return [outcomeVerifier, ...(plan.verifiers ?? []), ...semantic];
}

/** One selected trial as data: what crosses to a worker thread and what a run folder's journal is checked against. */
export interface TrialRef {
  trial_id: string;
  case_id: string;
  repetition: number;
  seed: number;
}

/** What a resolved run is as plain data (no closures): enough to rebuild it where the PLAN is loaded again. */
export type ResolvedRunData = Pick<ResolvedRun, "run_id" | "target_name" | "gate_config" | "limits" | "seed" | "repetitions" | "concurrency"> & { trials: TrialRef[] };

export function resolvedRunData(resolved: ResolvedRun): ResolvedRunData {
  const { run_id, target_name, gate_config, limits, seed, repetitions, concurrency } = resolved;
  return { run_id, target_name, gate_config, limits, seed, repetitions, concurrency, trials: resolved.trials.map((t) => ({ trial_id: t.trial_id, case_id: t.case.id, repetition: t.repetition, seed: t.seed })) };
}

/**
 * A run resolved elsewhere (the main thread), rebuilt in a thread that loaded the same PLAN: its trials,
 * seeds, limits and gates are taken as given, never selected again; only what holds closures (the target
 * adapter, the verifiers) is built here. A case the given trials name but this PLAN lacks means the
 * package loaded differently: refused.
 */
export function rebuildRun(plan: Plan, options: RunOptions, given: ResolvedRunData): ResolvedRun {
  const { target, target_settings } = runTarget(plan, { ...options, target: given.target_name });
  const cases = new Map(plan.cases.map((c) => [c.id, c]));
  const trials = given.trials.map((t) => {
    const c = cases.get(t.case_id);
    if (!c) throw new PlanError(`case ${t.case_id} is not in the PLAN loaded here: the package resolved differently than in the main thread`);
    return { trial_id: t.trial_id, case: c, repetition: t.repetition, seed: t.seed };
  });
  const verifiers = runVerifiers(plan, options).map((verifier) => ({ verifier, required: given.gate_config[verifier.id]?.required ?? verifier.required }));
  return { ...given, skipped: [], target, target_settings, trials, verifiers };
}

/** Refuses a run above the trial-count ceiling before any trial is built (a stray zero must not exhaust memory). */
function checkTrialCount(cases: number, repetitions: number, maxTrials: number): void {
  if (!Number.isInteger(maxTrials) || maxTrials < 1 || maxTrials > MAX_TRIALS_CEILING)
    throw new PlanError(`max_trials must be a whole number from 1 to ${MAX_TRIALS_CEILING.toLocaleString("en-US")} (got ${maxTrials})`);
  const trials = cases * repetitions;
  if (trials <= maxTrials) return;
  const what = `this run would have ${trials.toLocaleString("en-US")} trials (${cases} case(s) × ${repetitions.toLocaleString("en-US")} repetition(s))`;
  const narrow = "narrow the selection (--example, --tag, --max-examples) or lower --repetitions";
  if (trials > MAX_TRIALS_CEILING)
    throw new PlanError(`${what}, more than the ${MAX_TRIALS_CEILING.toLocaleString("en-US")} a run can hold: ${narrow}, or split it into several runs`);
  throw new PlanError(`${what}, more than the ceiling of ${maxTrials.toLocaleString("en-US")}: ${narrow}, or raise the ceiling with --max-trials ${trials} (or \`defaults.max_trials\` in the PLAN; at most ${MAX_TRIALS_CEILING.toLocaleString("en-US")})`);
}

/**
 * Run a plan: every selected case × repetition as an independent trial (fresh world, own seed, own
 * session), `concurrency` at a time, then the gates. Repetitions never retry a failure. Trials run here,
 * in this thread: a PLAN holds closures (targets, worlds, verifiers), so only a caller that can load the
 * plan again elsewhere — the CLI, which knows the package file — can spread trials over worker threads
 * (see `runEach`).
 */
export async function run(plan: Plan, options: RunOptions = {}, resolved = resolveRun(plan, options)): Promise<RunResult> {
  const git: GitState = options.package?.identity?.git ?? (options.package?.dir ? gitState(options.package.dir) : { commit: null, dirty: null });
  const keep = options.keep_records !== false;
  const loop = await runEach(options, resolved, async (spec) => {
    const { record, media, catalog } = await runTrial(trialContext(plan, options, resolved, spec, git));
    return { outcome: trialOutcome(record), ...(keep ? { record } : {}), report: (done, total) => options.onTrialEnd?.(record, done, total, media, catalog) };
  });
  const gates = evaluateGates(loop.outcomes, resolved.gate_config);
  return {
    run_id: resolved.run_id,
    plan: plan.name,
    target: resolved.target_name,
    seed: resolved.seed,
    repetitions: resolved.repetitions,
    started_at: loop.started_at,
    finished_at: loop.finished_at,
    records: loop.records,
    gate_config: resolved.gate_config,
    gates,
    decision: runDecision(gates, loop.interruption, resolved.trials.length),
    interruption: loop.interruption,
    summary: summarize(loop.outcomes),
  };
}

/** What runs one trial: the same for every trial of a run, wherever it runs (this thread or a worker). */
export function trialContext(plan: Plan, options: RunOptions, resolved: ResolvedRun, spec: TrialSpec, git: GitState): TrialContext {
  return {
    spec,
    target: resolved.target,
    target_name: resolved.target_name,
    limits: trialLimits(plan, options, resolved, spec),
    verifiers: resolved.verifiers,
    package_digest: options.package?.digest ?? "unknown",
    ...(options.package?.dir ? { package_dir: options.package.dir } : {}),
    ...(options.package?.identity ? { package_identity: options.package.identity } : {}),
    crashlab_version: CRASHLAB_VERSION,
    git,
    real_time: options.real_time ?? false,
    ...(options.speech ? { speech: options.speech } : {}),
    audio: { ...DEFAULT_AUDIO, ...options.audio },
    ...(plan.facts ? { facts: plan.facts } : {}),
    ...(options.speech_detector ? { speech_detector: options.speech_detector } : {}),
    ...(options.log_audio_events ? { log_audio_events: true } : {}),
    ...(options.response_deadline_ms !== undefined ? { response_deadline_ms: options.response_deadline_ms } : {}),
    ...(options.conversation ? { conversation: options.conversation } : {}),
  };
}

/** What a RUN trial's time limit leaves beyond its conversation's duration limit: closing, draining, grading. */
export const RUN_TIME_HEADROOM_MS = 30_000;

/**
 * A trial's limits. A RUN trial's time limit makes room for its own conversation's duration limit (which
 * fits the case) unless a time limit was set on purpose (PLAN, case or run options): the default must not
 * cut a long case short before its conversation's own limit.
 */
function trialLimits(plan: Plan, options: RunOptions, resolved: ResolvedRun, spec: TrialSpec): Limits {
  const limits = { ...resolved.limits, ...spec.case.limits, ...options.limits };
  const chosen = plan.limits?.time_ms ?? spec.case.limits?.time_ms ?? options.limits?.time_ms;
  if (spec.case.kind === "run" && chosen === undefined) {
    const conversation = conversationDurationLimit(spec.case.scenario, options.conversation?.max_duration_ms).ms;
    limits.time_ms = Math.max(limits.time_ms, conversation + RUN_TIME_HEADROOM_MS);
  }
  return limits;
}

/** A finished trial as the scheduler sees it: its slim outcome, its record if kept, and how to report it. */
export interface FinishedTrial {
  outcome: TrialOutcome;
  record?: TrialRecord;
  /** Called once the trial counts as done (journal, progress); not called for a trial abandoned at a second signal. */
  report: (done: number, total: number) => void | Promise<void>;
}

/** What the run loop leaves: the finished trials (records only if kept), what did not run, and when. */
export interface LoopResult {
  started_at: string;
  finished_at: string;
  records: TrialRecord[];
  /** This loop's finished trials, slim; a resumed run's earlier trials are in its journal, not here. */
  outcomes: TrialOutcome[];
  interruption: Interruption | null;
}

/**
 * The run loop shared by every way of executing a trial: hands out trials in order, `concurrency` at a
 * time, skips finished ones (--resume), stops handing out at an interrupt, stops waiting at abandon,
 * then the gates over what finished and the list of what did not.
 */
export async function runEach(
  options: Pick<RunOptions, "signal" | "abandon" | "skip" | "onTrialStart" | "real_time" | "speech">,
  resolved: ResolvedRun,
  execute: (spec: TrialSpec, index: number) => Promise<FinishedTrial>,
): Promise<LoopResult> {
  const started_at = new Date().toISOString();
  const records: Array<TrialRecord | undefined> = [];
  const outcomes: TrialOutcome[] = new Array(resolved.trials.length);
  const started = new Set<number>();
  const skip = options.skip ?? new Set<string>();
  let next = 0;
  let done = resolved.trials.filter((t) => skip.has(t.trial_id)).length;
  if (options.real_time && resolved.target.accepts.includes("audio"))
    await prefetchCallerSpeech(
      resolved.trials.filter((t) => !skip.has(t.trial_id)),
      options.speech,
      options.signal,
    );
  const lane = async () => {
    while (next < resolved.trials.length) {
      if (options.signal?.aborted || options.abandon?.aborted) return;
      const index = next++;
      const spec = resolved.trials[index]!;
      if (skip.has(spec.trial_id)) continue;
      started.add(index);
      options.onTrialStart?.(spec);
      const finished = await execute(spec, index);
      // A trial that ends after the run was abandoned is not reported: the outputs are already written.
      if (options.abandon?.aborted) return;
      if (finished.record) records[index] = finished.record;
      outcomes[index] = finished.outcome;
      done++;
      await finished.report(done, resolved.trials.length);
    }
  };
  const lanes = Promise.all(Array.from({ length: Math.min(resolved.concurrency, Math.max(1, resolved.trials.length)) }, lane));
  await (options.abandon ? Promise.race([lanes, abortedPromise(options.abandon)]) : lanes);
  const finished = records.filter((r): r is TrialRecord => r !== undefined);
  const finishedOutcomes = outcomes.filter((o): o is TrialOutcome => o !== undefined);
  const not_run: NotRunTrial[] = resolved.trials.flatMap((spec, i) =>
    outcomes[i] || skip.has(spec.trial_id) ? [] : [{ trial_id: spec.trial_id, case_id: spec.case.id, reason: started.has(i) ? ("abandoned while running" as const) : ("not started" as const) }],
  );
  const interruption: Interruption | null = not_run.length > 0 ? { signal: signalName(options.signal, options.abandon), not_run } : null;
  return { started_at, finished_at: new Date().toISOString(), records: finished, outcomes: finishedOutcomes, interruption };
}

function abortedPromise(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
}

/** The signal named by the abort reason (the CLI aborts with "SIGINT", "SIGTERM" or "SIGHUP"). */
function signalName(...signals: Array<AbortSignal | undefined>): string {
  for (const s of signals) if (s?.aborted && typeof s.reason === "string" && /^SIG[A-Z]+$/.test(s.reason)) return s.reason;
  return "abort";
}
