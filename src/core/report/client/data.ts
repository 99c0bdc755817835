/**
 * The data report.html embeds: what the page script renders. Plain JSON only (the page is built from a
 * run folder, and works from file:// without any request), shared by the generator and the page script.
 */
import type { HumanGateSummary } from "../../gate/human";

/** A decision a person reads first. Only `pass` and `fail` are decisions; the others say why there is none. */
export type DecisionState = "pass" | "fail" | "infrastructure" | "evaluation_error" | "interrupted";

/**
 * A gate as shown: `not_assessed` (no verdict at all, e.g. the judge offline) is its own neutral state,
 * never a failure; an advisory gate that failed is a warning, not decisive; `blocked` means only missing
 * verdicts (infrastructure errors, a verifier that did not run) stood in the way, and its reasons say which.
 */
export type GateState = "passed" | "failed" | "advisory_failed" | "not_assessed" | "too_few_reviews" | "blocked";

/** A human gate's standing (people's verdicts), as the gate computed it: awaiting any review, reviewed too little, or decided. */
export type HumanGateView = Pick<HumanGateSummary, "status" | "reviewed_verifier" | "trials" | "reviewed" | "passes" | "failures" | "unsure" | "min_reviewed" | "min_reviewed_share">;

export interface RateRow {
  label: string;
  trials: number;
  passes: number;
  rate: number | null;
  /** 95% Wilson interval, null without trials. */
  low: number | null;
  high: number | null;
  errors: number;
}

export interface Percentiles {
  p50: number | null;
  p90: number | null;
  n: number;
}

export interface GateView {
  verifier: string;
  required: boolean;
  min_pass_rate: number;
  wilson: boolean;
  state: GateState;
  verdicts: number;
  message: string;
  /** Why a gate ended inconclusive or unassessed: reason codes with counts, e.g. "judge_timeout × 2". */
  reasons: string[];
  /** A human gate's standing; null for any other gate. */
  human: HumanGateView | null;
}

/** One review as the page shows it (a reviews.jsonl line; `carried_from` names the earlier run it came from). */
export interface ReviewView {
  trial_id: string;
  verifier: string;
  verdict: "passed" | "failed" | "unsure";
  reviewer: string;
  note: string;
  at: string;
  anchor?: { utterance_id: string } | { start_ms: number; end_ms: number };
  carried_from?: string;
}

/** The judge against people on one semantic clause (`crashlab calibrate` over this run). */
export interface CalibrationView {
  verifier: string;
  n: number;
  agreement: number | null;
  kappa: number | null;
  kappa_ci95: [number, number] | null;
  unsure: number;
  judge_inconclusive: number;
  disagreements: number;
}

/**
 * People's reviews of the run (a later line by the same reviewer supersedes an earlier one), the human gates
 * decided again with them, and the judge's calibration against them.
 */
export interface ReviewsView {
  /** The reviews that count: the latest per trial, verifier and reviewer; carried ones marked. */
  reviews: ReviewView[];
  /** What may be reviewed in this run: the human dimensions and the run's semantic clauses. */
  reviewable: string[];
  /** The run's human gates decided again with these reviews (results.json keeps the decision it ended with). */
  human_gates: GateView[];
  /** The run decided again with these reviews, as `crashlab gates` would; null when the run has no human gate. */
  decision: { state: DecisionState; exit_code: number; message: string } | null;
  calibration: CalibrationView[];
  /** Reviews carried over from earlier runs are counted (`crashlab gates --carry`). */
  carried: boolean;
}

/** Served by `crashlab view --review`: the page may record reviews through its server. */
export interface ReviewMode {
  reviewer: string;
  /** Trial ids in review-queue order (crashlab review-queue); the list shows them first, in this order. */
  queue: string[];
}

export interface CaseView extends RateRow {
  failures: number;
  inconclusive: number;
  /** pass^k at k = trials (null when undefined). */
  pass_hat_n: number | null;
  response_latency_ms: { p50: number | null; p90: number | null };
  duration_ms: { p50: number | null; p90: number | null };
}

export interface TokenTotals {
  input: number;
  output: number;
  total: number;
}

export interface ReportData {
  version: 1;
  run: {
    run_id: string;
    plan: string;
    target: string;
    seed: number;
    repetitions: number;
    concurrency: number;
    real_time: boolean;
    started_at: string;
    finished_at: string;
    crashlab_version: string;
    package_digest: string;
    interrupted: boolean;
    interrupted_by: string | null;
    /** Trials selected but not run (the run was interrupted). */
    not_run: number;
  };
  decision: { state: DecisionState; exit_code: number; message: string; reasons: string[] };
  gates: GateView[];
  summary: {
    trials: number;
    by_status: Record<TrialStatus, number>;
    rate: number | null;
    low: number | null;
    high: number | null;
    errors_by_stage: Record<string, number>;
  };
  cases: CaseView[];
  tags: RateRow[];
  conditions: RateRow[];
  kinds: RateRow[];
  timing: { response_latency_ms: Percentiles; duration_ms: Percentiles };
  consumption: {
    /** The system under test: voice frontend audio seconds and reasoning backend tokens. */
    target: { audio_seconds: number | null; trials_with_audio: number; backend_tokens: number | null; backend_tokens_by_model: Record<string, number> };
    judge: { judged: number; requests: number; tokens: TokenTotals; cost_usd: number | null; unpriced: number };
  };
  /** Trials whose service reported serving another model than the one asked for, and what differed. */
  models: { mismatched_trials: string[]; mismatches: string[] };
  /** Trials whose tool calls and state the target reported itself (a client-delegation service, docs/remote-assistant.md). */
  reported_evidence: { trials: number };
  trials: TrialRow[];
  /** Problems met while building the report (a missing artifact, an unreadable WAV): shown, never hidden. */
  problems: string[];
  /** People's reviews (reviews.jsonl) when the run has any, or when served for review; null otherwise. */
  reviews: ReviewsView | null;
  /** Set when served by `crashlab view --review`; null in report.html (read-only). */
  review_mode: ReviewMode | null;
}

export type TrialStatus = "passed" | "failed" | "inconclusive" | "infrastructure_error";

/** One line of the trial list: small, so thousands of trials load at once. */
export interface TrialRow {
  id: string;
  case: string;
  kind: string;
  status: TrialStatus;
  tags: string[];
  condition: string | null;
  duration_ms: number;
  latency_ms: number | null;
  /** Required checks and verifiers that did not pass. */
  failing: string[];
  error: string | null;
  /** The caller's first words, for text search. */
  text: string;
}

export type Span = [number, number];

export interface AudioView {
  /** conversation.wav, relative to report.html. */
  src: string;
  duration_ms: number;
  /** Waveform bin length: one character per bin and channel. */
  bin_ms: number;
  /** Peak level per bin, 0–63, each as one character of WAVEFORM_ALPHABET. */
  caller: string;
  assistant: string;
  caller_speech: Span[];
  assistant_speech: Span[];
  overlaps: Span[];
  detector: string;
}

export const WAVEFORM_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export interface TurnView {
  eid: string;
  role: "user" | "assistant";
  text: string;
  start_ms: number;
  end_ms: number;
  /** The simulated caller's action (OPENING, SPEAK, BACKCHANNEL, INTERRUPT, STOP), when the trial has one. */
  action: string | null;
  /** For an assistant turn: the response latency of the request it answered. */
  latency_ms: number | null;
}

export interface LabelledSpan {
  start_ms: number;
  end_ms: number;
  label: string;
  tone: "ok" | "warn" | "bad";
}

export interface EvidenceView {
  eid: string;
  kind: string;
  at_ms: number | null;
  end_ms: number | null;
  /** One line a person reads. */
  line: string;
  /** Full item for the details panes. */
  item: Record<string, unknown>;
}

export interface AssessmentView {
  verifier: string;
  version: string;
  kind: "deterministic" | "semantic";
  status: string;
  required: boolean;
  score: number | null;
  rationale: string;
  evidence_ids: string[];
  judge: null | {
    model: string;
    clause: string;
    reason: string | null;
    latency_ms: number;
    tokens: number;
    cost_usd: number | null;
    repetitions: number;
    task_completed: boolean | null;
  };
}

export interface TrialDetail {
  id: string;
  case: string;
  scenario: string;
  kind: string;
  status: TrialStatus;
  target: string;
  seed: number;
  repetition: number;
  duration_ms: number;
  started_at: string;
  wall_ms: number;
  error: { stage: string; message: string } | null;
  input: Record<string, unknown>;
  turns: TurnView[];
  delegations: EvidenceView[];
  tools: EvidenceView[];
  world_events: EvidenceView[];
  state_changes: EvidenceView[];
  /** Facts and context the catalog holds (citable, not on the timeline). */
  other_evidence: EvidenceView[];
  checks: Array<{ id: string; status: string; required: boolean; rationale: string; evidence_ids: string[] }>;
  assessments: AssessmentView[];
  dimensions: Record<string, { status: string; rationale: string }>;
  metrics: { task: Record<string, unknown>; audio: Record<string, unknown> | null; consumption: Record<string, unknown> };
  latency_spans: LabelledSpan[];
  yield_spans: LabelledSpan[];
  audio: AudioView | null;
  /** Why the trial has no conversation.wav although it had audio (`--artifacts`); null otherwise. */
  audio_note: string | null;
  limits: Record<string, unknown>;
  provenance: Record<string, unknown>;
  artifacts: Record<string, string>;
  /** The target reported its own tool calls and state: how many, and whether it received the initial state. */
  reported_evidence: { tool_calls: number; state_snapshots: number; initial_state: string } | null;
  problems: string[];
}
