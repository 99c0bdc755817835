/** The report's data from a run folder's files: overview, trial list, gates and each trial's details. */

import { buildEvidenceCatalog, evidenceLine, type EvidenceCatalog, type EvidenceItem } from "../judge/evidence";
import type { Assessment } from "../record/assessment";
import type { Delegation, ToolExecution, Turn } from "../record/trial-record";
import { percentile, wilsonInterval } from "../stats/rates";
import { measuredLatencyMs } from "../timeline/metrics";
import type { AssessmentView, AudioView, CaseView, DecisionState, EvidenceView, GateState, GateView, LabelledSpan, RateRow, ReportData, ReviewMode, ReviewsView, TrialDetail, TrialRow, TurnView } from "./client/data";
import type { ResultsFile } from "../record/results";

/**
 * The report's data, built from what a run folder holds: results.json, each trial's transcripts/<trial>.json
 * and the conversation view read from its conversation.wav. Pure: no files, no live objects.
 */

type ResultsTrial = ResultsFile["trials"][number];

/**
 * What the overview and trial list read of a trial: a results.json row, or the lean copy a report built
 * a trial at a time keeps (`reportTrial`), so the overview of thousands of trials fits in little memory.
 */
export interface ReportTrial {
  trial_id: string;
  case_id: string;
  case_kind: ResultsTrial["case_kind"];
  status: ResultsTrial["status"];
  tags?: readonly string[] | undefined;
  duration_ms: number;
  error: { stage: string; message: string } | null;
  input: { recording?: { condition: string } | undefined };
  metrics: {
    audio: Readonly<Record<string, unknown>> | null;
    consumption: { frontend: { audio_duration_ms: number | null }; backend: { total: number; per_model?: Record<string, { total: number }> } | null };
  };
  /** The model mismatches the trial's provenance states (absent in records older than the field). */
  provenance: { models?: { mismatches: string[] } };
  /** The target reported its own tool calls and state (docs/remote-assistant.md). */
  reported?: boolean;
  checks: ReadonlyArray<{ id: string; required: boolean; status: string }>;
  assessments: ReadonlyArray<{ verifier: string; status: string; required: boolean; rationale: string; judge?: { reason: string | null } | undefined }>;
}

/** The lean copy of a results.json row that the overview needs (rationales cut to what it shows). */
export function reportTrial(t: ResultsTrial): ReportTrial {
  return {
    trial_id: t.trial_id,
    case_id: t.case_id,
    case_kind: t.case_kind,
    status: t.status,
    tags: t.tags,
    duration_ms: t.duration_ms,
    error: t.error ? { stage: t.error.stage, message: t.error.message } : null,
    input: t.input.recording ? { recording: { condition: t.input.recording.condition } } : {},
    metrics: {
      audio: t.metrics.audio ? { response_latency_mean_ms: measuredLatencyMs(t.metrics.audio) } : null,
      consumption: {
        frontend: { audio_duration_ms: t.metrics.consumption.frontend.audio_duration_ms },
        backend: t.metrics.consumption.backend ? { total: t.metrics.consumption.backend.total, per_model: Object.fromEntries(Object.entries(t.metrics.consumption.backend.per_model ?? {}).map(([m, u]) => [m, { total: u.total }])) } : null,
      },
    },
    provenance: t.provenance.models ? { models: { mismatches: [...t.provenance.models.mismatches] } } : {},
    ...(t.reported_evidence ? { reported: true } : {}),
    checks: t.checks.map((c) => ({ id: c.id, required: c.required, status: c.status })),
    assessments: t.assessments.map((a) => ({ verifier: a.verifier, status: a.status, required: a.required, rationale: a.rationale.slice(0, 160), ...(a.judge ? { judge: { reason: a.judge.reason } } : {}) })),
  };
}

/** A run's results with lean trials: what `reportData` reads. */
export type ReportResults = Omit<ResultsFile, "trials"> & { trials: readonly ReportTrial[] };

/** transcripts/<trial>.json as written by the artifact writer (fields the report reads). */
export interface TranscriptFile {
  turns: Array<Turn & { action?: string }>;
  delegations: Delegation[];
  tool_executions: ToolExecution[];
  world: { events: unknown[]; diff: unknown[] } & Record<string, unknown>;
  evidence_catalog?: EvidenceCatalog | null;
  /** RUN: the simulated caller's utterances with their intents. */
  conversation?: { utterances?: Array<{ intent: string; start_ms: number }> } | null;
  /** Where the input lies in conversation.wav, or why the trial's audio was not kept (`--artifacts`). */
  audio?: { kept: true } | { kept: false; reason: string };
}

/** A RUN caller turn's label: its own action, else the intent of the caller utterance that starts with it. */
function callerAction(turn: { start_ms: number; action?: string } | undefined, transcript: TranscriptFile | null): string | null {
  if (!turn) return null;
  if (typeof turn.action === "string") return turn.action;
  let best: { intent: string; start_ms: number } | null = null;
  for (const u of transcript?.conversation?.utterances ?? [])
    if (Math.abs(u.start_ms - turn.start_ms) <= 1500 && (!best || Math.abs(u.start_ms - turn.start_ms) < Math.abs(best.start_ms - turn.start_ms))) best = u;
  return best ? best.intent.toUpperCase() : null;
}

export interface TrialSource {
  trial: ResultsTrial;
  transcript: TranscriptFile | null;
  audio: AudioView | null;
  /** What went wrong reading this trial's artifacts. */
  problems: string[];
}

const round = (x: number | null, digits = 0) => (x === null ? null : Number(x.toFixed(digits)));

function rateRow(label: string, trials: readonly Pick<ResultsTrial, "status">[]): RateRow {
  const passes = trials.filter((t) => t.status === "passed").length;
  const w = wilsonInterval(passes, trials.length);
  return {
    label,
    trials: trials.length,
    passes,
    rate: trials.length ? passes / trials.length : null,
    low: w?.low ?? null,
    high: w?.high ?? null,
    errors: trials.filter((t) => t.status === "infrastructure_error").length,
  };
}

function groupRows(trials: readonly ReportTrial[], keys: (t: ReportTrial) => readonly string[]): RateRow[] {
  const groups = new Map<string, ReportTrial[]>();
  for (const t of trials) for (const k of keys(t)) (groups.get(k) ?? groups.set(k, []).get(k)!).push(t);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, ts]) => rateRow(k, ts));
}

const condition = (t: ReportTrial) => t.input.recording?.condition ?? null;
/** A trial's measured latency: every answered request, late answers included (never blank when one came). */
const latency = (t: Pick<ReportTrial, "metrics">) => measuredLatencyMs(t.metrics.audio);

/** Required checks and verifiers that did not pass: what the list's "failing check" filter offers. */
function failing(t: ReportTrial): string[] {
  const out = new Set<string>();
  for (const c of t.checks) if (c.required && c.status === "failed") out.add(c.id);
  for (const a of t.assessments) if (a.required && a.verifier !== "outcome" && !["passed", "not_applicable"].includes(a.status)) out.add(a.verifier);
  return [...out];
}

/** Why a gate's verdicts were missing or inconclusive, counted by reason code. */
function gateReasons(verifier: string, trials: readonly ReportTrial[]): string[] {
  const counts = new Map<string, number>();
  for (const t of trials) {
    const a = t.assessments.find((x) => x.verifier === verifier);
    let reason: string | null = null;
    if (t.status === "infrastructure_error") reason = `infrastructure error at ${t.error?.stage ?? "unknown stage"}`;
    else if (!a) reason = "not run";
    else if (a.status === "inconclusive") reason = `inconclusive: ${a.judge?.reason ?? a.rationale.slice(0, 120)}`;
    else if (a.status === "not_run") reason = `not assessed: ${a.rationale.slice(0, 160)}`;
    else if (a.status === "error") reason = `verifier error: ${a.rationale.slice(0, 160)}`;
    if (reason) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} (${n} trial${n === 1 ? "" : "s"})`);
}

type GateResultRow = ResultsFile["gates"]["results"][number];

function gateState(g: GateResultRow): GateState {
  // A human gate awaiting reviews is not a failure of the target: it says what it waits for.
  if (g.human && g.human.status !== "assessed") return g.human.status;
  if (g.verdicts === 0 && !g.rule.required) return "not_assessed";
  if (g.ok) return "passed";
  if (g.blocked_by_infrastructure || g.blocked_by_verifier_error) return "blocked";
  return g.rule.required ? "failed" : "advisory_failed";
}

export function decisionState(results: Pick<ResultsFile, "run" | "gates">): DecisionState {
  return results.run.interrupted ? "interrupted" : results.gates.decision;
}

/** A gate as the overview shows it. */
export function gateView(g: GateResultRow, trials: readonly ReportTrial[]): GateView {
  const state = gateState(g);
  const h = g.human;
  return {
    verifier: g.verifier,
    required: g.rule.required,
    min_pass_rate: g.rule.min_pass_rate,
    wilson: g.rule.wilson,
    state,
    verdicts: g.verdicts,
    // The gate's message starts with its verifier id, already in the row.
    message: state === "not_assessed" && !h ? `no verdicts${g.verifier.startsWith("semantic.") ? ": the semantic judge runs with --live or --judge" : ""}` : g.message.replace(`${g.verifier}: `, ""),
    reasons: state === "passed" || state === "not_assessed" || h ? [] : gateReasons(g.verifier, trials),
    human: h
      ? { status: h.status, reviewed_verifier: h.reviewed_verifier, trials: h.trials, reviewed: h.reviewed, passes: h.passes, failures: h.failures, unsure: h.unsure, min_reviewed: h.min_reviewed, min_reviewed_share: h.min_reviewed_share }
      : null,
  };
}

/** What a report adds to a run's results: people's reviews, and whether the page is served for review. */
export interface ReportExtras {
  reviews?: ReviewsView | null;
  review_mode?: ReviewMode | null;
}

/** The overview and trial list of a run; `callerText` (first caller words by trial id) feeds the text search. */
export function reportData(results: ReportResults, callerText: ReadonlyMap<string, string> = new Map(), problems: readonly string[] = [], extras: ReportExtras = {}): ReportData {
  const trials = results.trials;
  const gates = results.gates.results.map((g) => gateView(g, trials));
  const state = decisionState(results);
  const reasons = gates.filter((g) => g.required && g.state !== "passed").map((g) => `${g.verifier}: ${g.message}${g.reasons.length ? ` — ${g.reasons.join("; ")}` : ""}`);
  if (results.run.interrupted)
    reasons.unshift(
      `the run was interrupted${results.run.interrupted_by ? ` by ${results.run.interrupted_by}` : ""}: ${results.run.not_run.length} trial(s) not run${results.run.cases_not_run.length ? ` (${results.run.cases_not_run.slice(0, 8).join(", ")}${results.run.cases_not_run.length > 8 ? ", …" : ""})` : ""}; the gates cover the finished trials only`,
    );
  const caseTrials = new Map<string, ReportTrial[]>();
  for (const t of trials) (caseTrials.get(t.case_id) ?? caseTrials.set(t.case_id, []).get(t.case_id)!).push(t);
  const cases: CaseView[] = results.summary.cases.map((c) => ({
    ...rateRow(c.case_id, caseTrials.get(c.case_id) ?? []),
    failures: c.failures,
    inconclusive: c.inconclusive,
    pass_hat_n: c.pass_hat_k[String(c.trials)] ?? null,
    response_latency_ms: c.response_latency_ms,
    duration_ms: c.duration_ms,
  }));
  const latencies = trials.map(latency).filter((x): x is number => x !== null);
  const durations = trials.map((t) => t.duration_ms);
  const audio = trials.map((t) => t.metrics.consumption.frontend.audio_duration_ms).filter((x): x is number => typeof x === "number");
  const backend = trials.map((t) => t.metrics.consumption.backend?.total).filter((x): x is number => typeof x === "number");
  const byModel: Record<string, number> = {};
  for (const t of trials) for (const [model, usage] of Object.entries(t.metrics.consumption.backend?.per_model ?? {})) byModel[model] = (byModel[model] ?? 0) + usage.total;
  // Trials whose service reported another model than the one asked for (records before this field have none).
  const mismatched = trials.filter((t) => (t.provenance.models?.mismatches.length ?? 0) > 0);
  const judge = results.summary.judge;
  const wilson = results.summary.wilson_95;
  const rows: TrialRow[] = trials.map((t) => ({
    id: t.trial_id,
    case: t.case_id,
    kind: t.case_kind,
    status: t.status,
    tags: [...(t.tags ?? [])],
    condition: condition(t),
    duration_ms: Math.round(t.duration_ms),
    latency_ms: round(latency(t)),
    failing: failing(t),
    error: t.error ? `${t.error.stage}: ${t.error.message}` : null,
    text: (callerText.get(t.trial_id) ?? "").slice(0, 200),
  }));
  return {
    version: 1,
    run: {
      run_id: results.run.run_id,
      plan: results.run.plan,
      target: results.run.target,
      seed: results.run.seed,
      repetitions: results.run.repetitions,
      concurrency: results.run.concurrency,
      real_time: results.run.real_time,
      started_at: results.run.started_at,
      finished_at: results.run.finished_at,
      crashlab_version: results.run.crashlab_version,
      package_digest: results.run.package_digest,
      interrupted: results.run.interrupted,
      interrupted_by: results.run.interrupted_by,
      not_run: results.run.not_run.length,
    },
    decision: { state, exit_code: results.gates.exit_code, message: results.gates.message, reasons },
    gates,
    summary: {
      trials: results.summary.trials,
      by_status: results.summary.by_status,
      rate: results.summary.pass_rate,
      low: wilson?.low ?? null,
      high: wilson?.high ?? null,
      errors_by_stage: results.summary.errors_by_stage,
    },
    cases,
    tags: groupRows(trials, (t) => t.tags ?? []),
    conditions: groupRows(trials, (t) => (condition(t) ? [condition(t)!] : [])),
    kinds: groupRows(trials, (t) => [t.case_kind]),
    timing: {
      response_latency_ms: { p50: round(percentile(latencies, 0.5)), p90: round(percentile(latencies, 0.9)), n: latencies.length },
      duration_ms: { p50: round(percentile(durations, 0.5)), p90: round(percentile(durations, 0.9)), n: durations.length },
    },
    consumption: {
      target: { audio_seconds: audio.length ? round(audio.reduce((a, b) => a + b, 0) / 1000, 1) : null, trials_with_audio: audio.length, backend_tokens: backend.length ? backend.reduce((a, b) => a + b, 0) : null, backend_tokens_by_model: byModel },
      judge: { judged: judge.judged, requests: judge.requests, tokens: { input: judge.tokens.input, output: judge.tokens.output, total: judge.tokens.total }, cost_usd: judge.cost_usd, unpriced: judge.unpriced },
    },
    models: { mismatched_trials: mismatched.map((t) => t.trial_id), mismatches: [...new Set(mismatched.flatMap((t) => t.provenance.models!.mismatches))] },
    reported_evidence: { trials: trials.filter((t) => t.reported).length },
    trials: rows,
    problems: [...problems],
    reviews: extras.reviews ?? null,
    review_mode: extras.review_mode ?? null,
  };
}

/**
 * One evidence item as the viewer needs it: its readable line, its times, and only the fields the page
 * shows apart from the line (a tool call's arguments and result, an event's kind), so thousands of
 * trials stay small.
 */
function evidenceView(item: EvidenceItem): EvidenceView {
  const view = (at: number | null, end: number | null, fields: Record<string, unknown>): EvidenceView => ({ eid: item.id, kind: item.kind, at_ms: at, end_ms: end, line: evidenceLine(item), item: fields });
  switch (item.kind) {
    case "utterance":
      return view(item.start_ms, item.end_ms, {});
    case "delegation":
      return view(item.created_ms, item.completed_ms ?? item.content_ms, { target: item.target, content_ms: item.content_ms });
    case "tool_call":
      return view(item.requested_ms, item.completed_ms, { name: item.name, status: item.status, arguments: item.arguments, output: item.output, error: item.error, delegation_id: item.delegation_id });
    case "world_event":
      return view(item.at_ms, null, { operation: item.operation, operation_kind: item.operation_kind, outcome: item.outcome });
    default:
      return view(null, null, {});
  }
}

/** The catalog the trial recorded, else rebuilt from its transcript; null (with the reason) when neither works. */
function catalogOf(trialId: string, transcript: TranscriptFile | null): { catalog: EvidenceCatalog | null; problem: string | null } {
  if (!transcript) return { catalog: null, problem: null };
  if (transcript.evidence_catalog) return { catalog: transcript.evidence_catalog, problem: null };
  try {
    return { catalog: buildEvidenceCatalog({ trial_id: trialId, turns: transcript.turns, delegations: transcript.delegations, tool_executions: transcript.tool_executions, world: transcript.world as never }), problem: null };
  } catch (error) {
    return { catalog: null, problem: `evidence catalog unavailable: ${(error as Error).message}` };
  }
}

interface Opportunity {
  outcome?: string;
  request_end_ms?: number;
  response_start_ms?: number;
  latency_ms?: number;
  late_latency_ms?: number | null;
  reason?: string;
}

/** Response-latency spans (docs/audio-and-metrics.md opportunities): request end → response start, with the value. */
function latencySpans(audio: Record<string, unknown> | null): LabelledSpan[] {
  const opportunities = Array.isArray(audio?.opportunities) ? (audio.opportunities as Opportunity[]) : [];
  const spans: LabelledSpan[] = [];
  for (const o of opportunities) {
    if (typeof o.request_end_ms !== "number") continue;
    if (o.outcome === "answered" && typeof o.response_start_ms === "number")
      spans.push({ start_ms: o.request_end_ms, end_ms: o.response_start_ms, label: `${Math.round(o.latency_ms ?? o.response_start_ms - o.request_end_ms)} ms`, tone: "ok" });
    else if (o.outcome === "missed" && typeof o.late_latency_ms === "number")
      spans.push({ start_ms: o.request_end_ms, end_ms: o.request_end_ms + o.late_latency_ms, label: `late ${Math.round(o.late_latency_ms)} ms`, tone: "bad" });
    else if (o.outcome === "missed") spans.push({ start_ms: o.request_end_ms, end_ms: o.request_end_ms, label: `no response (${o.reason ?? "missed"})`, tone: "bad" });
  }
  return spans;
}

/** Yield spans from any `yield_*` list in the metrics: the caller's onset → the assistant stopping. */
function yieldSpans(audio: Record<string, unknown> | null): LabelledSpan[] {
  const spans: LabelledSpan[] = [];
  for (const [key, value] of Object.entries(audio ?? {})) {
    if (!key.startsWith("yield_") || !Array.isArray(value)) continue;
    for (const y of value as Array<Record<string, unknown>>) {
      const start = y.caller_start_ms;
      const end = y.assistant_end_ms;
      if (typeof start !== "number" || typeof end !== "number") continue;
      if (y.kind === "backchannel") spans.push({ start_ms: start, end_ms: Math.max(start, end), label: y.outcome === "false_yield" ? "false yield on backchannel" : "kept talking over backchannel", tone: y.outcome === "false_yield" ? "bad" : "ok" });
      else {
        const delay = typeof y.delay_ms === "number" ? y.delay_ms : end - start;
        spans.push({ start_ms: start, end_ms: Math.max(start, end), label: `${y.yielded === false ? "no yield" : "yield"} ${Math.round(delay)} ms`, tone: y.yielded === false ? "bad" : "ok" });
      }
    }
  }
  return spans;
}

function assessmentView(a: Assessment): AssessmentView {
  const j = a.judge;
  return {
    verifier: a.verifier,
    version: a.version,
    kind: a.kind,
    status: a.status,
    required: a.required,
    score: a.score ?? null,
    rationale: a.rationale,
    evidence_ids: a.evidence_ids,
    judge: j
      ? {
          model: j.observed_models.join(", ") || j.model,
          clause: `${j.clause.id} v${j.clause.version}`,
          reason: j.reason,
          latency_ms: j.latency_ms,
          tokens: j.tokens.total,
          cost_usd: j.cost_usd,
          repetitions: j.settings.repetitions,
          task_completed: j.task_completed,
        }
      : null,
  };
}

/** Everything the conversation viewer shows for one trial. */
export function trialDetail(source: TrialSource): TrialDetail {
  const { trial: t, transcript, audio } = source;
  const problems = [...source.problems];
  const { catalog, problem } = catalogOf(t.trial_id, transcript);
  if (problem) problems.push(problem);
  const items = catalog?.items ?? [];
  const views = items.map(evidenceView);
  const of = (kind: string) => views.filter((v) => v.kind === kind);
  const metricsAudio = (t.metrics.audio ?? null) as Record<string, unknown> | null;
  const cited = new Set([...t.assessments.flatMap((a) => a.evidence_ids), ...t.checks.flatMap((c) => c.evidence_ids)]);
  const latencySpanList = latencySpans(metricsAudio);
  // Late answers are answers too: their turn shows its latency (a missed request's span has no length).
  const answered = latencySpanList.filter((s) => s.tone === "ok" || s.end_ms > s.start_ms);
  const recordedTurns = transcript?.turns ?? [];
  const utterances = items.filter((i): i is Extract<EvidenceItem, { kind: "utterance" }> => i.kind === "utterance");
  const turns: TurnView[] = (utterances.length ? utterances : []).map((u, i) => {
    const action = u.role === "user" ? callerAction(recordedTurns[i], transcript) : null;
    const response = u.role === "assistant" ? answered.find((s) => s.end_ms >= u.start_ms - 1000 && s.end_ms <= u.end_ms) : undefined;
    return {
      eid: u.id,
      role: u.role,
      text: u.text,
      start_ms: u.start_ms,
      end_ms: u.end_ms,
      action,
      latency_ms: response ? response.end_ms - response.start_ms : null,
    };
  });
  return {
    id: t.trial_id,
    case: t.case_id,
    scenario: t.scenario_id,
    kind: t.case_kind,
    status: t.status,
    target: t.target,
    seed: t.seed,
    repetition: t.repetition,
    duration_ms: t.duration_ms,
    started_at: t.started_at,
    wall_ms: t.wall_ms,
    error: t.error,
    input: t.input as unknown as Record<string, unknown>,
    turns,
    delegations: of("delegation"),
    tools: of("tool_call"),
    world_events: of("world_event"),
    state_changes: of("state_change"),
    // The context the target was given, and the package facts this trial's verdicts cite (facts are the
    // same in every trial: repeating all of them would only weigh the report down).
    other_evidence: views.filter((v) => v.kind.startsWith("context_") || (v.kind === "fact" && cited.has(v.eid))),
    checks: t.checks.map((c) => ({ id: c.id, status: c.status, required: c.required, rationale: c.rationale, evidence_ids: c.evidence_ids })),
    assessments: t.assessments.map(assessmentView),
    dimensions: Object.fromEntries(Object.entries(t.dimensions).map(([k, d]) => [k, { status: d.status, rationale: d.rationale }])),
    metrics: { task: t.metrics.task as unknown as Record<string, unknown>, audio: metricsAudio, consumption: t.metrics.consumption as unknown as Record<string, unknown> },
    latency_spans: latencySpanList,
    yield_spans: yieldSpans(metricsAudio),
    audio,
    audio_note: transcript?.audio && !transcript.audio.kept ? `audio not kept: ${transcript.audio.reason}` : null,
    limits: t.limits as unknown as Record<string, unknown>,
    provenance: t.provenance as unknown as Record<string, unknown>,
    artifacts: t.artifacts,
    reported_evidence: t.reported_evidence ? { tool_calls: t.reported_evidence.tool_calls, state_snapshots: t.reported_evidence.state_snapshots, initial_state: t.reported_evidence.initial_state } : null,
    problems,
  };
}
