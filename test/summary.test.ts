import { describe, expect, it } from "vitest";
import type { TrialRecord, TrialStatus } from "../src/core/record/trial-record";
import { summarize } from "../src/core/run/summary";

interface Trial {
  case_id: string;
  status: TrialStatus;
  duration_ms: number;
  latency_ms?: number;
  stage?: string;
  condition?: string;
  judge?: { tokens: number; cost_usd: number | null; votes: Array<string | null> };
}

/** Only the fields the summary reads; the cast keeps each example to one line per trial. */
function record(t: Trial): TrialRecord {
  const tokens = { input: 0, cached: 0, cache_write: 0, output: 0, reasoning: 0, total: t.judge?.tokens ?? 0 };
  return {
    case_id: t.case_id,
    status: t.status,
    duration_ms: t.duration_ms,
    ...(t.stage ? { error: { stage: t.stage, message: "boom" } } : {}),
    input: t.condition ? { recording: { condition: t.condition } } : {},
    metrics: t.latency_ms === undefined ? {} : { audio: { response_latency_ms: t.latency_ms } },
    assessments: t.judge
      ? [{ verifier: "semantic.task_understanding", judge: { latency_ms: 100, tokens, cost_usd: t.judge.cost_usd, votes: t.judge.votes.map((reason) => ({ reason })) } }]
      : [],
  } as unknown as TrialRecord;
}

describe("run summary (docs/gates.md)", () => {
  it("a two-case run: counts by status, rates, pass^k and percentiles over durations given in trial order", () => {
    const records = [
      record({ case_id: "book", status: "passed", duration_ms: 900, latency_ms: 700 }),
      record({ case_id: "cancel", status: "failed", duration_ms: 50 }),
      record({ case_id: "book", status: "failed", duration_ms: 100, latency_ms: 1500 }),
      record({ case_id: "book", status: "passed", duration_ms: 300, latency_ms: 400 }),
      record({ case_id: "cancel", status: "infrastructure_error", duration_ms: 10, stage: "session_start" }),
      record({ case_id: "book", status: "inconclusive", duration_ms: 200 }),
      record({ case_id: "cancel", status: "infrastructure_error", duration_ms: 10, stage: "session_start" }),
      record({ case_id: "cancel", status: "infrastructure_error", duration_ms: 10, stage: "respond" }),
    ];
    const s = summarize(records);
    expect(s.trials).toBe(8);
    expect(s.by_status).toEqual({ passed: 2, failed: 2, inconclusive: 1, infrastructure_error: 3 });
    expect(s.pass_rate).toBe(0.25);
    expect(s.wilson_95!.low).toBeCloseTo(0.0715, 4);
    expect(s.wilson_95!.high).toBeCloseTo(0.5907, 4);
    expect(s.errors_by_stage).toEqual({ session_start: 2, respond: 1 });
    expect(s.cases.map((c) => c.case_id)).toEqual(["book", "cancel"]);

    const book = s.cases[0]!;
    expect(book).toMatchObject({ trials: 4, passes: 2, failures: 1, inconclusive: 1, infrastructure_errors: 0, pass_rate: 0.5 });
    expect(book.wilson_95!.low).toBeCloseTo(0.1500, 4);
    expect(book.wilson_95!.high).toBeCloseTo(0.8500, 4);
    // pass^k = C(2, k) / C(4, k): 2/4, 1/6, 0, 0.
    expect(book.pass_hat_k).toEqual({ "1": 0.5, "2": 1 / 6, "3": 0, "4": 0 });
    // Durations sorted: 100, 200, 300, 900 → p50 250, p90 300 + 0.7 × 600 = 720.
    expect(book.duration_ms.p50).toBe(250);
    expect(book.duration_ms.p90).toBeCloseTo(720, 9);
    // Latencies of the three trials that measured one, sorted: 400, 700, 1500 → p50 700, p90 700 + 0.8 × 800 = 1340.
    expect(book.response_latency_ms.p50).toBe(700);
    expect(book.response_latency_ms.p90).toBeCloseTo(1340, 9);

    const cancel = s.cases[1]!;
    expect(cancel).toMatchObject({ trials: 4, passes: 0, failures: 1, inconclusive: 0, infrastructure_errors: 3, pass_rate: 0 });
    expect(cancel.pass_hat_k).toEqual({ "1": 0, "2": 0, "3": 0, "4": 0 });
    expect(cancel.response_latency_ms).toEqual({ p50: null, p90: null });
    expect(s.conditions).toEqual([]);
  });

  it("an empty run has no pass rate and no interval", () => {
    const s = summarize([]);
    expect(s).toMatchObject({ trials: 0, pass_rate: null, wilson_95: null, errors_by_stage: {}, cases: [], conditions: [] });
    expect(s.by_status).toEqual({ passed: 0, failed: 0, inconclusive: 0, infrastructure_error: 0 });
  });

  it("WALK trials are broken down by their recording's condition; trials without a recording are not", () => {
    const s = summarize([
      record({ case_id: "a", status: "passed", duration_ms: 1, condition: "noisy" }),
      record({ case_id: "a", status: "failed", duration_ms: 1, condition: "noisy" }),
      record({ case_id: "b", status: "passed", duration_ms: 1, condition: "clean" }),
      record({ case_id: "c", status: "passed", duration_ms: 1 }),
    ]);
    expect(s.conditions.map((c) => [c.condition, c.trials, c.passes])).toEqual([
      ["clean", 1, 1],
      ["noisy", 2, 1],
    ]);
  });

  it("totals the judge's own usage over every trial's assessments", () => {
    const s = summarize([
      record({ case_id: "a", status: "passed", duration_ms: 1, judge: { tokens: 1200, cost_usd: 0.5, votes: [null, null] } }),
      record({ case_id: "a", status: "passed", duration_ms: 1, judge: { tokens: 300, cost_usd: 0.25, votes: ["request_limit"] } }),
    ]);
    expect(s.judge).toMatchObject({ judged: 2, requests: 2, latency_ms: 200, cost_usd: 0.75, unpriced: 0 });
    expect(s.judge.tokens.total).toBe(1500);
  });

  it("shows measured latency: a trial answered only late counts its late answers, never a blank", () => {
    const audio = (a: Record<string, unknown>) => ({ case_id: "book", status: "failed", duration_ms: 1, input: {}, assessments: [], metrics: { audio: a } }) as unknown as TrialRecord;
    const s = summarize([
      // Answered only after the 5000 ms deadline: has no timely mean, the measured mean is 6680.
      audio({ response_latency_ms: null, response_latency_mean_ms: 6680 }),
      audio({ response_latency_ms: 700, response_latency_mean_ms: 700 }),
      // A record from before the measured fields: its mean still counts.
      audio({ response_latency_ms: 1000 }),
      // Measured, nothing answered: no latency to show.
      audio({ response_latency_ms: null, response_latency_mean_ms: null }),
    ]);
    // Sorted 700, 1000, 6680: p50 1000, p90 1000 + 0.8 × 5680 = 5544.
    expect(s.cases[0]!.response_latency_ms.p50).toBe(1000);
    expect(s.cases[0]!.response_latency_ms.p90).toBeCloseTo(5544, 9);
  });
});
