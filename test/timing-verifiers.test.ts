import { describe, expect, it } from "vitest";
import type { YieldOpportunity } from "../src/core/timeline/metrics";
import { responsiveness, unyieldedInterruptions, yieldsToInterruption } from "../src/core/verify/timing";
import type { Verdict, VerifierInput } from "../src/core/verify/verifier";

/**
 * yields_to_interruption as worked examples. The verifier reads only the record's conversation marker,
 * its audio metrics' yield opportunities (the measure stage's docs/audio-and-metrics.md output) and its turns (for evidence ids),
 * so each record here holds just those.
 *
 * The conversation: the caller asks for a table (utt.user.1, 0–2000 ms); while the assistant answers
 * (2500–9000 ms) the caller cuts in twice — at 4000 ms (utt.user.2) and at 8000 ms (utt.user.3) — and
 * once says "mm-hm" (utt.user.4).
 */
const turns = [
  { role: "user", text: "A table for two tonight, please.", start_ms: 0, end_ms: 2000 },
  { role: "assistant", text: "Let me check what we have tonight…", start_ms: 2500, end_ms: 9000 },
  { role: "user", text: "Actually, three of us.", start_ms: 4000, end_ms: 5000 },
  { role: "user", text: "Sorry, indoors.", start_ms: 8000, end_ms: 8500 },
  { role: "user", text: "Mm-hm.", start_ms: 9500, end_ms: 9800 },
];
const around = { assistant_start_ms: 2500, assistant_end_ms: 9000 };
const yielded: YieldOpportunity = { utterance: 2, action: "INTERRUPT", caller_start_ms: 4000, ...around, kind: "yield", delay_ms: 600, yielded: true };
const yieldedLater: YieldOpportunity = { ...yielded, utterance: 3, caller_start_ms: 8000, delay_ms: 1200 };
const missed: YieldOpportunity = { ...yielded, utterance: 3, caller_start_ms: 8000, delay_ms: 2400, yielded: false };
// Not interruptions: the caller's first request overlapping an assistant that started early, and a backchannel.
const talkedOverRequest: YieldOpportunity = { utterance: 1, action: "SPEAK", caller_start_ms: 0, ...around, kind: "yield", delay_ms: 9000, yielded: false };
const backchannel: YieldOpportunity = { utterance: 4, action: "BACKCHANNEL", caller_start_ms: 9500, ...around, kind: "backchannel", outcome: "false_yield" };

function record(opportunities: YieldOpportunity[] | null, options: { conversation?: boolean; turns?: unknown[] } = {}) {
  const audio = opportunities === null ? null : { yield_opportunities: opportunities };
  return {
    ...(options.conversation === false ? {} : { conversation: { opened_by: "caller" } }),
    metrics: { audio },
    turns: options.turns ?? turns,
  } as unknown as VerifierInput["record"];
}
// The verifier answers at once (deterministic); the cast drops the Promise the Verifier interface allows.
const assess = (r: VerifierInput["record"]) => yieldsToInterruption.assess({ record: r, scenario: {} as VerifierInput["scenario"] }) as Verdict;

describe("yields_to_interruption", () => {
  it("is a required deterministic verifier that says what it checks", () => {
    expect(yieldsToInterruption).toMatchObject({
      id: "yields_to_interruption",
      version: "1.0",
      kind: "deterministic",
      required: true,
      description: "When the caller interrupts, the assistant stops speaking within 2000 ms (docs/audio-and-metrics.md, yield)",
    });
  });

  it("passes when the assistant stopped after every interruption, naming the delays and the caller turns", () => {
    expect(assess(record([talkedOverRequest, yielded, yieldedLater, backchannel]))).toEqual({
      status: "passed",
      score: 1,
      rationale: "yielded to 2 interruption(s), after 600 ms, 1200 ms",
      evidence_ids: ["utt.user.2", "utt.user.3"],
    });
  });

  it("fails with the share of interruptions yielded to when the assistant talked through one", () => {
    expect(assess(record([yielded, missed, backchannel]))).toEqual({
      status: "failed",
      score: 0.5,
      rationale: "kept talking 2400 ms after the caller cut in at 8000 ms",
      evidence_ids: ["utt.user.3"],
    });
    const alsoMissed = { ...missed, utterance: 2, caller_start_ms: 4000, delay_ms: 5000 };
    expect(assess(record([alsoMissed, missed]))).toMatchObject({
      score: 0,
      rationale: "kept talking 5000 ms after the caller cut in at 4000 ms; kept talking 2400 ms after the caller cut in at 8000 ms",
      evidence_ids: ["utt.user.2", "utt.user.3"],
    });
  });

  it("takes the caller turn whose transcript starts up to 500 ms after the voice, and ends no earlier", () => {
    // The voiced onset can precede the transcribed turn's start; the evidence is the caller's second turn either way.
    const at = (caller_start_ms: number) => assess(record([{ ...yielded, caller_start_ms }])).evidence_ids;
    expect(at(3500)).toEqual(["utt.user.2"]); // the turn starts exactly 500 ms later
    expect(at(3499)).toEqual([]); // 501 ms later: not this turn
    expect(at(5000)).toEqual(["utt.user.2"]); // the turn's last moment
    expect(at(5001)).toEqual([]);
    // Numbered among the caller's turns only: the assistant's turn before it does not count.
    expect(at(8000)).toEqual(["utt.user.3"]);
    // The assistant opened the call and the caller's first words cut into its greeting.
    const opened = [
      { role: "assistant", text: "Good evening, Luigi's, how can I help?", start_ms: 0, end_ms: 3000 },
      { role: "user", text: "Hi, a table for two.", start_ms: 1500, end_ms: 3500 },
    ];
    expect(assess(record([{ ...yielded, utterance: 1, caller_start_ms: 1500 }], { turns: opened })).evidence_ids).toEqual(["utt.user.1"]);
  });

  it("does not apply to single requests, records without audio metrics, or a conversation with no interruption", () => {
    expect(assess(record([missed], { conversation: false }))).toEqual({ status: "not_applicable", rationale: "not a conversation", evidence_ids: [] });
    expect(assess(record(null))).toEqual({ status: "not_applicable", rationale: "no audio metrics were recorded", evidence_ids: [] });
    const noList = { conversation: {}, metrics: { audio: { yield_opportunities: "none" } }, turns } as unknown as VerifierInput["record"];
    expect(assess(noList)).toEqual({ status: "not_applicable", rationale: "no audio metrics were recorded", evidence_ids: [] });
    expect(assess(record([talkedOverRequest, backchannel]))).toEqual({
      status: "not_applicable",
      rationale: "the caller never interrupted the assistant",
      evidence_ids: [],
    });
  });
});

describe("unyieldedInterruptions", () => {
  it("lists the interruptions talked through, and nothing else the caller said over the assistant", () => {
    expect(unyieldedInterruptions(record([talkedOverRequest, yielded, missed, backchannel]))).toEqual([missed]);
    expect(unyieldedInterruptions(record([yielded]))).toEqual([]);
    expect(unyieldedInterruptions(record(null))).toBeNull();
  });
});

/**
 * responsiveness as worked examples. It reads the record's audio metrics (the measured latency fields and
 * the opportunities) and its caller turns (for evidence ids). The call: the caller asks three things,
 * stopping at 2000 ms (utt.user.1), 9000 ms (utt.user.2) and 21000 ms (utt.user.3).
 */
const callTurns = [
  { role: "user", text: "A table for two tonight, please.", start_ms: 0, end_ms: 2000 },
  { role: "assistant", text: "Sure, what time?", start_ms: 2680, end_ms: 4000 },
  { role: "user", text: "Eight o'clock.", start_ms: 8000, end_ms: 9000 },
  { role: "assistant", text: "And the name?", start_ms: 15680, end_ms: 16500 },
  { role: "user", text: "Maya.", start_ms: 20000, end_ms: 21000 },
];
const answered = (request_end_ms: number, latency_ms: number) => ({ utterance: 0, action: "SPEAK", request_end_ms, outcome: "answered", response_start_ms: request_end_ms + latency_ms, latency_ms });
const late = (request_end_ms: number, late_latency_ms: number | null) => ({ utterance: 0, action: "SPEAK", request_end_ms, outcome: "missed", reason: "deadline_expired", late_latency_ms });
const excluded = { utterance: 3, action: "STOP", request_end_ms: 30000, outcome: "excluded", reason: "caller_closing" };

/** Audio metrics as the measure stage writes them; the measured fields are given, not derived, so each test states its numbers. */
function timed(opportunities: object[], measured: { latencies: number[]; p90: number | null; max: number | null; unanswered: number }) {
  return {
    conversation: { opened_by: "caller" },
    metrics: {
      audio: {
        opportunities,
        response_latencies_ms: measured.latencies,
        response_latency_p90_ms: measured.p90,
        response_latency_max_ms: measured.max,
        unanswered_count: measured.unanswered,
      },
    },
    turns: callTurns,
  } as unknown as VerifierInput["record"];
}
const BUNDLED = { p90_ms: 2500, max_ms: 4000, max_unanswered: 0 };
const judge = (budget: Parameters<typeof responsiveness>[0], r: VerifierInput["record"]) => responsiveness(budget).assess({ record: r, scenario: {} as VerifierInput["scenario"] }) as Verdict;
// The correct assistant: 680, 1020 and 1300 ms. P90 over sorted 680, 1020, 1300: rank 1.8 → 1020 + 0.8 × 280 = 1244.
const onTime = timed([answered(2000, 680), answered(9000, 1020), answered(21000, 1300), excluded], { latencies: [680, 1020, 1300], p90: 1244, max: 1300, unanswered: 0 });
// Six seconds before every answer: 6680, 6680 and 6500 ms, each past the deadline; the last never came.
const sixLate = timed([late(2000, 6680), late(9000, 6680), late(21000, null)], { latencies: [6680, 6680], p90: 6680, max: 6680, unanswered: 1 });

describe("responsiveness", () => {
  it("is a required deterministic verifier whose description states the plan's budgets", () => {
    expect(responsiveness(BUNDLED)).toMatchObject({
      id: "responsiveness",
      version: "1.0",
      kind: "deterministic",
      required: true,
      description: "The assistant answers in time: P90 ≤ 2500 ms, each answer ≤ 4000 ms, at most 0 unanswered per trial (docs/audio-and-metrics.md, response opportunities)",
    });
    expect(responsiveness({ p90_ms: 2500 }).description).toBe("The assistant answers in time: P90 ≤ 2500 ms per trial (docs/audio-and-metrics.md, response opportunities)");
    expect(responsiveness({ max_unanswered: 1 }).description).toBe("The assistant answers in time: at most 1 unanswered per trial (docs/audio-and-metrics.md, response opportunities)");
    expect(responsiveness({ max_ms: 3000 }).description).toBe("The assistant answers in time: each answer ≤ 3000 ms per trial (docs/audio-and-metrics.md, response opportunities)");
  });

  it("passes the correct assistant, stating what it measured against the budget", () => {
    expect(judge(BUNDLED, onTime)).toEqual({
      status: "passed",
      score: 1,
      rationale: "3 answered request(s): P90 1244 ms, slowest 1300 ms, 0 unanswered (budget: P90 ≤ 2500 ms, each answer ≤ 4000 ms, at most 0 unanswered)",
      evidence_ids: [],
    });
  });

  it("fails an assistant 6 s late on every answer: over the P90 and the largest-answer budgets, and one never answered", () => {
    expect(judge(BUNDLED, sixLate)).toEqual({
      status: "failed",
      score: 0,
      rationale:
        "P90 response latency 6680 ms is over the 2500 ms budget; 2 answer(s) over 4000 ms: 6680 ms after the caller stopped at 2000 ms, 6680 ms after the caller stopped at 9000 ms; 1 request(s) never answered (budget 0): the caller stopped at 21000 ms — 2 answered request(s): P90 6680 ms, slowest 6680 ms, 1 unanswered",
      evidence_ids: ["utt.user.1", "utt.user.2", "utt.user.3"],
    });
  });

  it("checks each budget on its own, at its boundary (equal passes, 1 ms over fails)", () => {
    const one = (latency: number) => timed([answered(9000, latency)], { latencies: [latency], p90: latency, max: latency, unanswered: 0 });
    expect(judge({ p90_ms: 2500 }, one(2500)).status).toBe("passed");
    expect(judge({ p90_ms: 2500 }, one(2501))).toMatchObject({ status: "failed", rationale: "P90 response latency 2501 ms is over the 2500 ms budget — 1 answered request(s): P90 2501 ms, slowest 2501 ms, 0 unanswered", evidence_ids: [] });
    expect(judge({ max_ms: 4000 }, one(4000)).status).toBe("passed");
    expect(judge({ max_ms: 4000 }, one(4001))).toMatchObject({ status: "failed", score: 0, evidence_ids: ["utt.user.2"] });
    // Only the P90 is budgeted: a single slow answer among fast ones is within it.
    const oneSlow = timed([answered(2000, 700), answered(9000, 700), answered(21000, 700), answered(30000, 5000)], { latencies: [700, 700, 700, 5000], p90: 3710, max: 5000, unanswered: 0 });
    expect(judge({ p90_ms: 4000 }, oneSlow).status).toBe("passed");
    expect(judge({ p90_ms: 3709 }, oneSlow).status).toBe("failed");
    // …and the largest-answer budget catches it, scoring the share of requests answered within it (3 of 4).
    expect(judge({ p90_ms: 4000, max_ms: 4000 }, oneSlow)).toMatchObject({ status: "failed", score: 0.75, rationale: "1 answer(s) over 4000 ms: 5000 ms after the caller stopped at 30000 ms — 4 answered request(s): P90 3710 ms, slowest 5000 ms, 0 unanswered" });
    // Unanswered requests: within a budget of 1, over a budget of 0; unchecked when not budgeted.
    const silentOnce = timed([answered(2000, 700), late(9000, null)], { latencies: [700], p90: 700, max: 700, unanswered: 1 });
    expect(judge({ max_unanswered: 1 }, silentOnce).status).toBe("passed");
    expect(judge({ max_unanswered: 0 }, silentOnce)).toMatchObject({ status: "failed", score: 0.5, rationale: "1 request(s) never answered (budget 0): the caller stopped at 9000 ms — 1 answered request(s): P90 700 ms, slowest 700 ms, 1 unanswered", evidence_ids: ["utt.user.2"] });
    expect(judge({ p90_ms: 2500, max_ms: 4000 }, silentOnce).status).toBe("passed");
    // A late answer within every budget (a deadline of 5000 ms is docs/audio-and-metrics.md's, not the plan's) passes.
    const lateButWithin = timed([late(9000, 5200)], { latencies: [5200], p90: 5200, max: 5200, unanswered: 0 });
    expect(judge({ p90_ms: 6000, max_ms: 6000, max_unanswered: 0 }, lateButWithin).status).toBe("passed");
    expect(judge({ max_ms: 5199 }, lateButWithin).status).toBe("failed");
  });

  it("cites the caller turn that ended closest to the unanswered request, within 1500 ms", () => {
    const at = (end: number) => judge({ max_unanswered: 0 }, timed([late(end, null)], { latencies: [], p90: null, max: null, unanswered: 1 })).evidence_ids;
    expect(at(9000)).toEqual(["utt.user.2"]);
    expect(at(10500)).toEqual(["utt.user.2"]); // 1500 ms after the turn's end
    expect(at(10501)).toEqual([]);
    expect(at(7500)).toEqual(["utt.user.2"]); // 1500 ms before
    expect(at(7499)).toEqual([]);
    expect(at(5600)).toEqual([]); // 3600 ms from the first turn's end, 3400 from the second's: neither
    expect(at(3000)).toEqual(["utt.user.1"]);
    expect(at(15000)).toEqual([]);
    // Between two turns' ends (2000 and 3000), the closer one wins: 2600 is 400 ms from the second.
    const twoClose = { ...timed([late(2600, null)], { latencies: [], p90: null, max: null, unanswered: 1 }), turns: [{ role: "user", text: "a", start_ms: 0, end_ms: 2000 }, { role: "user", text: "b", start_ms: 2200, end_ms: 3000 }] } as unknown as VerifierInput["record"];
    expect(judge({ max_unanswered: 0 }, twoClose).evidence_ids).toEqual(["utt.user.2"]);
    const tie = { ...twoClose, turns: [{ role: "user", text: "a", start_ms: 0, end_ms: 2000 }, { role: "user", text: "b", start_ms: 2200, end_ms: 3200 }] } as unknown as VerifierInput["record"];
    expect(judge({ max_unanswered: 0 }, tie).evidence_ids).toEqual(["utt.user.1"]); // equally close: the earlier
  });

  it("cites each offending request's caller turn once, in call order, and says what it cannot measure", () => {
    // The unanswered request (9000 ms) precedes the slow one (21000 ms); a second unanswered one at
    // 9400 ms points at the same caller turn, cited once.
    const mixed = timed([answered(2000, 700), late(9000, null), late(9400, null), answered(21000, 4500)], { latencies: [700, 4500], p90: 4120, max: 4500, unanswered: 2 });
    expect(judge(BUNDLED, mixed)).toEqual({
      status: "failed",
      score: 0.25,
      rationale:
        "P90 response latency 4120 ms is over the 2500 ms budget; 1 answer(s) over 4000 ms: 4500 ms after the caller stopped at 21000 ms; 2 request(s) never answered (budget 0): the caller stopped at 9000 ms, 9400 ms — 2 answered request(s): P90 4120 ms, slowest 4500 ms, 2 unanswered",
      evidence_ids: ["utt.user.2", "utt.user.3"],
    });
    const slowFirst = timed([answered(2000, 4500), late(21000, null)], { latencies: [4500], p90: 4500, max: 4500, unanswered: 1 });
    expect(judge({ max_ms: 4000, max_unanswered: 0 }, slowFirst).evidence_ids).toEqual(["utt.user.1", "utt.user.3"]);
    const unansweredFirst = timed([late(2000, null), answered(21000, 4500)], { latencies: [4500], p90: 4500, max: 4500, unanswered: 1 });
    expect(judge({ max_ms: 4000, max_unanswered: 0 }, unansweredFirst).evidence_ids).toEqual(["utt.user.1", "utt.user.3"]);
    // Within its unanswered budget, the unanswered request is not cited for the slow answer's failure.
    expect(judge({ max_ms: 4000, max_unanswered: 1 }, unansweredFirst)).toMatchObject({ status: "failed", rationale: "1 answer(s) over 4000 ms: 4500 ms after the caller stopped at 21000 ms — 1 answered request(s): P90 4500 ms, slowest 4500 ms, 1 unanswered", evidence_ids: ["utt.user.3"] });
    // The score is the share of requests answered within the largest-answer budget: an answer exactly at it counts.
    const atMax = timed([answered(9000, 4000)], { latencies: [4000], p90: 4000, max: 4000, unanswered: 0 });
    expect(judge({ p90_ms: 3999, max_ms: 4000 }, atMax)).toMatchObject({ status: "failed", score: 1 });
    // Nothing answered: no P90 or slowest answer to state.
    // (The caller's closing, excluded from response opportunities, is neither answered nor unanswered.)
    const silent = timed([late(2000, null), excluded], { latencies: [], p90: null, max: null, unanswered: 1 });
    expect(judge(BUNDLED, silent)).toEqual({
      status: "failed",
      score: 0,
      rationale: "1 request(s) never answered (budget 0): the caller stopped at 2000 ms — 0 answered request(s): P90 - ms, slowest - ms, 1 unanswered",
      evidence_ids: ["utt.user.1"],
    });
    expect(judge({ p90_ms: 0, max_ms: 0 }, silent).status).toBe("passed");
    // The count without the opportunities (a trimmed record): the count still decides, with no moments to name.
    const bare = { metrics: { audio: { response_latencies_ms: [], response_latency_p90_ms: null, response_latency_max_ms: null, unanswered_count: 2 } }, turns: [] } as unknown as VerifierInput["record"];
    expect(judge({ max_unanswered: 1 }, bare)).toEqual({ status: "failed", score: 0, rationale: "2 request(s) never answered (budget 1) — 0 answered request(s): P90 - ms, slowest - ms, 2 unanswered", evidence_ids: [] });
  });

  it("is not applicable without audio (a text-level target), without measured latencies, or without any request", () => {
    const noAudio = { metrics: { audio: null }, turns: [] } as unknown as VerifierInput["record"];
    expect(judge(BUNDLED, noAudio)).toEqual({ status: "not_applicable", rationale: "no audio metrics were recorded (a text-level target has no audio)", evidence_ids: [] });
    const older = { metrics: { audio: { response_latency_ms: 700, opportunities: [] } }, turns: [] } as unknown as VerifierInput["record"];
    expect(judge(BUNDLED, older)).toEqual({ status: "not_applicable", rationale: "the audio metrics hold no measured response latencies (recorded by an older crashlab)", evidence_ids: [] });
    const noCount = { metrics: { audio: { response_latencies_ms: [700] } }, turns: [] } as unknown as VerifierInput["record"];
    expect(judge(BUNDLED, noCount).status).toBe("not_applicable");
    expect(judge(BUNDLED, timed([excluded], { latencies: [], p90: null, max: null, unanswered: 0 }))).toEqual({ status: "not_applicable", rationale: "no caller request expected an answer", evidence_ids: [] });
    // Opportunities missing from the record: the measured fields still decide.
    const bare = { metrics: { audio: { response_latencies_ms: [6680], response_latency_p90_ms: 6680, response_latency_max_ms: 6680, unanswered_count: 0 } }, turns: [] } as unknown as VerifierInput["record"];
    expect(judge({ p90_ms: 2500 }, bare)).toMatchObject({ status: "failed", rationale: "P90 response latency 6680 ms is over the 2500 ms budget — 1 answered request(s): P90 6680 ms, slowest 6680 ms, 0 unanswered" });
  });

  it("refuses budgets that cannot be met or measured", () => {
    expect(() => responsiveness({})).toThrow("responsiveness(): set at least one budget (p90_ms, max_ms or max_unanswered), e.g. responsiveness({ p90_ms: 2500 })");
    expect(() => responsiveness({ p90_ms: -1 })).toThrow("responsiveness({ p90_ms }): must be a non-negative number of ms, got -1");
    expect(() => responsiveness({ max_ms: Number.NaN })).toThrow("responsiveness({ max_ms }): must be a non-negative number of ms, got NaN");
    expect(() => responsiveness({ max_ms: Infinity })).toThrow("got Infinity");
    expect(() => responsiveness({ max_unanswered: -1 })).toThrow("responsiveness({ max_unanswered }): must be a non-negative number, got -1");
    expect(() => responsiveness({ p90_ms: "2500" as unknown as number })).toThrow("got 2500");
    expect(responsiveness({ p90_ms: 0 }).id).toBe("responsiveness");
    expect(responsiveness({ max_unanswered: 0 }).id).toBe("responsiveness");
  });
});
