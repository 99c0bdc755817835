/**
 * Timing verifiers: checks on how the assistant behaved in time, read from the metrics the measure
 * stage recorded (never from a live session). They sit beside the outcome checks, which say what was
 * done; these say whether it was done as a good conversational partner would.
 */
import type { TrialRecord } from "../record/trial-record";
import type { YieldOpportunity } from "../timeline/metrics";
import { defineVerifier, type Verdict, type Verifier } from "./verifier";

/**
 * The caller's interruptions the assistant did not yield to (it stops within 2000 ms of the caller's
 * onset, a pause under 700 ms counting as the same speech). Null when the record has no audio metrics.
 */
export function unyieldedInterruptions(record: Pick<TrialRecord, "metrics">): Interruption[] | null {
  const audio = record.metrics.audio;
  if (!audio || !Array.isArray(audio.yield_opportunities)) return null;
  return (audio.yield_opportunities as unknown as YieldOpportunity[]).filter(isInterruption).filter((o) => !o.yielded);
}

export type Interruption = YieldOpportunity & { kind: "yield" };

/** The measure stage gives every INTERRUPT kind "yield" (only a BACKCHANNEL is a "backchannel"); the kind test narrows the type. */
function isInterruption(o: YieldOpportunity): o is Interruption {
  return o.action === "INTERRUPT" && o.kind === "yield";
}

/** The caller turn (`utt.user.<n>`) whose words the interruption started, for the verdict's evidence. */
function callerEvidence(record: Pick<TrialRecord, "turns">, at_ms: number): string[] {
  const callers = record.turns.filter((t) => t.role === "user");
  const i = callers.findIndex((t) => t.start_ms <= at_ms + 500 && at_ms <= t.end_ms);
  return i < 0 ? [] : [`utt.user.${i + 1}`];
}

/**
 * yields_to_interruption: in a conversation, when the caller cuts in, the assistant stops talking. Not
 * applicable to single requests (CRAWL, WALK) or to conversations in which the caller never interrupted.
 */
export const yieldsToInterruption = defineVerifier({
  id: "yields_to_interruption",
  version: "1.0",
  kind: "deterministic",
  description: "When the caller interrupts, the assistant stops speaking within 2000 ms (docs/audio-and-metrics.md, yield)",
  required: true,
  assess({ record }): Verdict {
    const audio = record.metrics.audio;
    if (!record.conversation) return { status: "not_applicable", rationale: "not a conversation", evidence_ids: [] };
    const missed = unyieldedInterruptions(record);
    if (missed === null) return { status: "not_applicable", rationale: "no audio metrics were recorded", evidence_ids: [] };
    const interruptions = (audio!.yield_opportunities as unknown as YieldOpportunity[]).filter(isInterruption);
    if (interruptions.length === 0) return { status: "not_applicable", rationale: "the caller never interrupted the assistant", evidence_ids: [] };
    if (missed.length === 0) {
      return {
        status: "passed",
        score: 1,
        rationale: `yielded to ${interruptions.length} interruption(s), after ${interruptions.map((o) => `${o.delay_ms} ms`).join(", ")}`,
        evidence_ids: interruptions.flatMap((o) => callerEvidence(record, o.caller_start_ms)),
      };
    }
    return {
      status: "failed",
      score: (interruptions.length - missed.length) / interruptions.length,
      rationale: missed.map((o) => `kept talking ${o.delay_ms} ms after the caller cut in at ${o.caller_start_ms} ms`).join("; "),
      evidence_ids: missed.flatMap((o) => callerEvidence(record, o.caller_start_ms)),
    };
  },
});

/** What a `responsiveness` gate allows, per trial; each budget is optional, at least one is set. */
export interface ResponsivenessBudget {
  /** Largest P90 of the trial's response latencies (every answered request, late answers included). */
  p90_ms?: number;
  /** Largest single response latency. */
  max_ms?: number;
  /** Most requests left with no answer at all (default 0 when the budget sets it; unchecked otherwise). */
  max_unanswered?: number;
}

/** The measured latency fields of a record's audio metrics (see InteractionMetrics.response_latencies_ms). */
interface MeasuredLatency {
  latencies: number[];
  p90: number | null;
  max: number | null;
  unanswered: number;
  /** Requests that expected an answer: the utterance and when the caller stopped, with the answer's latency. */
  requests: Array<{ request_end_ms: number; latency_ms: number | null }>;
}

function measuredLatency(audio: Readonly<Record<string, unknown>>): MeasuredLatency | null {
  if (!Array.isArray(audio.response_latencies_ms) || typeof audio.unanswered_count !== "number") return null;
  // Stryker disable next-line ArrayDeclaration: equivalent, the filter below drops anything that is not an opportunity
  const opportunities = Array.isArray(audio.opportunities) ? (audio.opportunities as Array<Record<string, unknown>>) : [];
  const requests = opportunities
    .filter((o) => o.outcome === "answered" || o.outcome === "missed")
    .map((o) => ({ request_end_ms: o.request_end_ms as number, latency_ms: o.outcome === "answered" ? (o.latency_ms as number) : ((o.late_latency_ms as number | null) ?? null) }));
  return {
    latencies: audio.response_latencies_ms as number[],
    p90: (audio.response_latency_p90_ms as number | null) ?? null,
    max: (audio.response_latency_max_ms as number | null) ?? null,
    unanswered: audio.unanswered_count,
    requests,
  };
}

/** The caller turn (`utt.user.<n>`) that ended closest to a request's end (within 1500 ms), for evidence. */
function requestEvidence(record: Pick<TrialRecord, "turns">, request_end_ms: number): string[] {
  const callers = record.turns.filter((t) => t.role === "user");
  let best = -1;
  for (let i = 0; i < callers.length; i++) {
    const gap = Math.abs(callers[i]!.end_ms - request_end_ms);
    if (gap <= 1500 && (best < 0 || gap < Math.abs(callers[best]!.end_ms - request_end_ms))) best = i;
  }
  return best < 0 ? [] : [`utt.user.${best + 1}`];
}

function checkBudget(name: keyof ResponsivenessBudget, value: number | undefined): void {
  if (value === undefined) return;
  // Number.isFinite does not coerce: a string is refused too.
  if (!(Number.isFinite(value) && value >= 0)) {
    throw new RangeError(`responsiveness({ ${name} }): must be a non-negative number${name === "max_unanswered" ? "" : " of ms"}, got ${String(value)}`);
  }
}

/**
 * responsiveness: in every trial with audio, the assistant answers in time — the P90 of its response
 * latencies, its slowest answer and the requests it never answered stay within the budgets the plan sets
 * (docs/audio-and-metrics.md, response opportunities). Late answers are measured, not dropped: a 6 s
 * answer counts as 6 s. Not applicable without audio metrics (a text-level target) or without any
 * request that expected an answer.
 */
export function responsiveness(budget: ResponsivenessBudget): Verifier {
  checkBudget("p90_ms", budget.p90_ms);
  checkBudget("max_ms", budget.max_ms);
  checkBudget("max_unanswered", budget.max_unanswered);
  if (budget.p90_ms === undefined && budget.max_ms === undefined && budget.max_unanswered === undefined) {
    throw new RangeError("responsiveness(): set at least one budget (p90_ms, max_ms or max_unanswered), e.g. responsiveness({ p90_ms: 2500 })");
  }
  const limits = [
    budget.p90_ms === undefined ? null : `P90 ≤ ${budget.p90_ms} ms`,
    budget.max_ms === undefined ? null : `each answer ≤ ${budget.max_ms} ms`,
    budget.max_unanswered === undefined ? null : `at most ${budget.max_unanswered} unanswered`,
  ].filter((x) => x !== null);
  return defineVerifier({
    id: "responsiveness",
    version: "1.0",
    kind: "deterministic",
    description: `The assistant answers in time: ${limits.join(", ")} per trial (docs/audio-and-metrics.md, response opportunities)`,
    required: true,
    assess({ record }): Verdict {
      const audio = record.metrics.audio;
      if (!audio) return { status: "not_applicable", rationale: "no audio metrics were recorded (a text-level target has no audio)", evidence_ids: [] };
      const m = measuredLatency(audio);
      if (!m) return { status: "not_applicable", rationale: "the audio metrics hold no measured response latencies (recorded by an older crashlab)", evidence_ids: [] };
      const total = m.latencies.length + m.unanswered;
      if (total === 0) return { status: "not_applicable", rationale: "no caller request expected an answer", evidence_ids: [] };

      // An unset budget is no limit at all (Infinity), so each check below is one comparison.
      const p90Ms = budget.p90_ms ?? Infinity;
      const maxMs = budget.max_ms ?? Infinity;
      const problems: string[] = [];
      if ((m.p90 ?? -Infinity) > p90Ms) problems.push(`P90 response latency ${m.p90} ms is over the ${p90Ms} ms budget`);
      const over = m.requests.filter((r) => (r.latency_ms ?? -Infinity) > maxMs);
      if (over.length) problems.push(`${over.length} answer(s) over ${maxMs} ms: ${over.map((r) => `${r.latency_ms} ms after the caller stopped at ${r.request_end_ms} ms`).join(", ")}`);
      const tooManyUnanswered = m.unanswered > (budget.max_unanswered ?? Infinity);
      const unanswered = m.requests.filter((r) => tooManyUnanswered && r.latency_ms === null);
      if (tooManyUnanswered) {
        problems.push(`${m.unanswered} request(s) never answered (budget ${budget.max_unanswered})${unanswered.length ? `: the caller stopped at ${unanswered.map((r) => `${r.request_end_ms} ms`).join(", ")}` : ""}`);
      }
      const slow = [...over, ...unanswered];
      const measured = `${m.latencies.length} answered request(s): P90 ${m.p90 ?? "-"} ms, slowest ${m.max ?? "-"} ms, ${m.unanswered} unanswered`;
      const withinMax = m.latencies.filter((l) => l <= maxMs).length;
      if (problems.length === 0) {
        return { status: "passed", score: 1, rationale: `${measured} (budget: ${limits.join(", ")})`, evidence_ids: [] };
      }
      return {
        status: "failed",
        score: Math.round((withinMax / total) * 1000) / 1000,
        rationale: `${problems.join("; ")} — ${measured}`,
        evidence_ids: [...new Set(slow.sort((a, b) => a.request_end_ms - b.request_end_ms).flatMap((r) => requestEvidence(record, r.request_end_ms)))],
      };
    },
  });
}
