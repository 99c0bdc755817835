import { describe, expect, it } from "vitest";
import {
  type CallerAction,
  type CallerSegment,
  callerSegments,
  computeInteractionMetrics,
  type Interval,
  type InteractionInput,
  TimelineInputError,
} from "../src/core/timeline";
import { measuredLatencyMs } from "../src/core/timeline/metrics";

const iv = (start_ms: number, end_ms: number): Interval => ({ start_ms, end_ms });

/** Caller segments from [action, voiced intervals] pairs, in order. */
function caller(...specs: [CallerAction, ...[number, number][]][]): CallerSegment[] {
  return specs.map(([action, ...voiced], utterance) => ({
    utterance,
    action,
    start_ms: voiced[0]![0],
    end_ms: voiced[voiced.length - 1]![1],
    voiced: voiced.map(([s, e]) => iv(s, e)),
  }));
}

function metrics(input: Partial<InteractionInput> & Pick<InteractionInput, "caller" | "observationEndMs">) {
  return computeInteractionMetrics({ assistantVoiced: [], ...input });
}

describe("response opportunities", () => {
  it("an answer exactly at the deadline is timely", () => {
    // u = [1000,3000); answer starts 8000 → latency 8000 − 3000 = 5000 = D → answered.
    const m = metrics({ caller: caller(["SPEAK", [1000, 3000]]), assistantVoiced: [iv(8000, 9000)], observationEndMs: 10000 });
    expect(m.opportunities).toEqual([
      { utterance: 0, action: "SPEAK", request_end_ms: 3000, outcome: "answered", response_start_ms: 8000, latency_ms: 5000 },
    ]);
    expect([m.response_total, m.response_count, m.response_rate, m.response_latency_ms]).toEqual([1, 1, 1, 5000]);
    expect([m.no_response_count, m.response_late_count, m.late_response_latencies_ms]).toEqual([0, 0, []]);
  });

  it("one ms past the deadline is missed (deadline_expired) and the late answer is recorded", () => {
    // latency 8001 − 3000 = 5001 > 5000; no later caller segment; observation 10000 >= 3000 + 5000.
    const m = metrics({ caller: caller(["SPEAK", [1000, 3000]]), assistantVoiced: [iv(8001, 9000)], observationEndMs: 10000 });
    expect(m.opportunities[0]).toMatchObject({ outcome: "missed", reason: "deadline_expired", late_latency_ms: 5001 });
    expect(m.response_total).toBe(1);
    expect(m.response_count).toBe(0);
    expect(m.response_rate).toBe(0); // 0 / 1
    expect(m.response_latency_ms).toBeNull(); // no answered request
    expect(m.no_response_count).toBe(1);
    expect(m.response_late_count).toBe(1);
    expect(m.late_response_latencies_ms).toEqual([5001]);
    expect(m.missed_reasons).toEqual({ next_eligible_request: 0, deadline_expired: 1 });
  });

  it("a custom deadline moves the boundary", () => {
    // D = 3000: latency 6000 − 3000 = 3000 → answered; 6001 − 3000 = 3001 → missed.
    const at = metrics({ caller: caller(["SPEAK", [0, 3000]]), assistantVoiced: [iv(6000, 7000)], observationEndMs: 9000, response_deadline_ms: 3000 });
    const past = metrics({ caller: caller(["SPEAK", [0, 3000]]), assistantVoiced: [iv(6001, 7000)], observationEndMs: 9000, response_deadline_ms: 3000 });
    expect([at.response_rate, at.response_deadline_ms]).toEqual([1, 3000]);
    expect([past.response_rate, past.late_response_latencies_ms]).toEqual([0, [3001]]);
  });

  it("the last request is censored when the observation ends before its deadline", () => {
    // u1 [1000,2000) answered at 2500 (latency 500). u2 [6000,7000) gets no answer and the
    // observation ends at 9000 < 7000 + 5000 = 12000 → censored, not counted in response_total.
    const m = metrics({
      caller: caller(["SPEAK", [1000, 2000]], ["SPEAK", [6000, 7000]]),
      assistantVoiced: [iv(2500, 4000)],
      observationEndMs: 9000,
    });
    expect(m.opportunities[1]).toMatchObject({ outcome: "censored", reason: "observation_ended_before_deadline" });
    expect(m.response_eligible_count).toBe(2); // answered + censored
    expect(m.response_censored_count).toBe(1);
    expect([m.response_total, m.response_rate, m.response_latency_ms]).toEqual([1, 1, 500]);
  });

  it("an observation lasting exactly to u.end + D expires the request instead of censoring it", () => {
    // u [1000,2000): deadline at 7000. Observation 7000 → deadline_expired; 6999 → censored.
    const ran = metrics({ caller: caller(["SPEAK", [1000, 2000]]), observationEndMs: 7000 });
    const short = metrics({ caller: caller(["SPEAK", [1000, 2000]]), observationEndMs: 6999 });
    expect(ran.opportunities[0]).toMatchObject({ outcome: "missed", reason: "deadline_expired", late_latency_ms: null });
    expect(short.opportunities[0]).toMatchObject({ outcome: "censored" });
    expect(short.response_rate).toBeNull(); // response_total = 0
  });

  it("a request overtaken by the next eligible request is missed (next_eligible_request)", () => {
    // u1 [1000,2000), u2 [4000,5000). The first assistant segment after 2000 starts at 5600, after
    // u2 started (4000), so it is not u1's response; u2 starts before 2000 + 5000 = 7000 → missed.
    // u2: latency 5600 − 5000 = 600 → answered.
    const m = metrics({
      caller: caller(["SPEAK", [1000, 2000]], ["SPEAK", [4000, 5000]]),
      assistantVoiced: [iv(5600, 7000)],
      observationEndMs: 12000,
    });
    expect(m.opportunities[0]).toMatchObject({ outcome: "missed", reason: "next_eligible_request", late_latency_ms: null });
    expect(m.opportunities[1]).toMatchObject({ outcome: "answered", latency_ms: 600 });
    expect([m.response_total, m.response_count, m.response_rate, m.response_latency_ms]).toEqual([2, 1, 0.5, 600]);
    expect(m.missed_reasons).toEqual({ next_eligible_request: 1, deadline_expired: 0 });
  });

  it("a next request starting exactly at u.end + D does not make it next_eligible_request", () => {
    // u1 [1000,2000), u2 [7000,8000): 7000 is not before 2000 + 5000 → deadline_expired.
    // The answer at 8500 starts after u2 started, so u1 has no late answer; u2 latency 500.
    const m = metrics({
      caller: caller(["SPEAK", [1000, 2000]], ["SPEAK", [7000, 8000]]),
      assistantVoiced: [iv(8500, 9000)],
      observationEndMs: 15000,
    });
    expect(m.opportunities[0]).toMatchObject({ outcome: "missed", reason: "deadline_expired", late_latency_ms: null });
    expect(m.opportunities[1]).toMatchObject({ outcome: "answered", latency_ms: 500 });
  });

  it("a response starting exactly when the next request starts still answers the earlier one", () => {
    // u1 [1000,2000), u2 [4000,4500); a0 [4000,4300) starts at u2.start ("not after") → u1 latency
    // 4000 − 2000 = 2000. a0 ends before u2 does, so u2 stays eligible and a1 [5000,5500) answers
    // it: latency 500. (a0 starting inside u2's voiced audio is also one interruption.)
    const m = metrics({
      caller: caller(["SPEAK", [1000, 2000]], ["SPEAK", [4000, 4500]]),
      assistantVoiced: [iv(4000, 4300), iv(5000, 5500)],
      observationEndMs: 10000,
    });
    expect(m.opportunities[0]).toMatchObject({ outcome: "answered", latency_ms: 2000 });
    expect(m.opportunities[1]).toMatchObject({ outcome: "answered", latency_ms: 500 });
    expect(m.response_latency_ms).toBe(1250); // (2000 + 500) / 2
    expect(m.interruption_count).toBe(1);
  });

  it("excludes a request that ends while the assistant is speaking (a.start < u.end <= a.end)", () => {
    const request = caller(["SPEAK", [1000, 2000]]);
    // [500,3000): 500 < 2000 <= 3000 → excluded.
    expect(metrics({ caller: request, assistantVoiced: [iv(500, 3000)], observationEndMs: 9000 }).opportunities[0]).toMatchObject({
      outcome: "excluded",
      reason: "assistant_active_at_request_end",
    });
    // [500,2000): 2000 <= 2000 still holds → excluded.
    expect(metrics({ caller: request, assistantVoiced: [iv(500, 2000)], observationEndMs: 9000 }).opportunities[0]).toMatchObject({
      outcome: "excluded",
    });
    // [500,1999) ends before u.end → eligible; the next segment [2000,2500) answers with latency 0.
    const before = metrics({ caller: request, assistantVoiced: [iv(500, 1999), iv(2000, 2500)], observationEndMs: 9000 });
    expect(before.opportunities[0]).toMatchObject({ outcome: "answered", latency_ms: 0 });
    // An assistant starting exactly at u.end is not active at it (2000 < 2000 fails) → answered, latency 0.
    const at = metrics({ caller: request, assistantVoiced: [iv(2000, 2500)], observationEndMs: 9000 });
    expect(at.opportunities[0]).toMatchObject({ outcome: "answered", latency_ms: 0 });
    expect(at.exclusion_reasons.assistant_active_at_request_end).toBe(0);
  });

  it("excludes backchannels and the caller's closing, and skips them when looking for the next request", () => {
    // u0 SPEAK [1000,2000). u1 BACKCHANNEL [2200,2400) ("mm") → excluded. u2 STOP [7000,8000) →
    // excluded. u0 has no next eligible request, so a [2500,6000), starting after the backchannel,
    // still answers it: latency 2500 − 2000 = 500.
    const m = metrics({
      caller: caller(["SPEAK", [1000, 2000]], ["BACKCHANNEL", [2200, 2400]], ["STOP", [7000, 8000]]),
      assistantVoiced: [iv(2500, 6000), iv(8300, 9000)],
      observationEndMs: 9000,
    });
    expect(m.opportunities.map((o) => [o.outcome, "reason" in o ? o.reason : null])).toEqual([
      ["answered", null],
      ["excluded", "backchannel"],
      ["excluded", "caller_closing"],
    ]);
    expect(m.caller_turn_count).toBe(3);
    expect(m.response_eligible_count).toBe(1);
    expect(m.response_excluded_count).toBe(2);
    expect(m.exclusion_reasons).toEqual({ backchannel: 1, caller_closing: 1, assistant_active_at_request_end: 0 });
    expect([m.response_total, m.response_rate, m.response_latency_ms]).toEqual([1, 1, 500]);
  });

  it("treats the observation as lasting at least until the last observed audio", () => {
    // observationEndMs 3000, but assistant audio runs to 8000, so the deadline 2000 + 5000 = 7000
    // was observed: the request is missed (deadline_expired) with a late answer of 7500 − 2000 = 5500.
    const m = metrics({ caller: caller(["SPEAK", [1000, 2000]]), assistantVoiced: [iv(7500, 8000)], observationEndMs: 3000 });
    expect(m.opportunities[0]).toMatchObject({ outcome: "missed", reason: "deadline_expired", late_latency_ms: 5500 });
  });

  it("averages the latency over answered requests only", () => {
    // Latencies 400 (u0 [0,1000) → 1400) and 1100 (u1 [5000,6000) → 7100); u2 [12000,13000) is
    // never answered and the observation runs to 20000 → deadline_expired.
    // rate 2/3, latency (400 + 1100) / 2 = 750.
    const m = metrics({
      caller: caller(["SPEAK", [0, 1000]], ["SPEAK", [5000, 6000]], ["SPEAK", [12000, 13000]]),
      assistantVoiced: [iv(1400, 3000), iv(7100, 9000)],
      observationEndMs: 20000,
    });
    expect(m.response_rate).toBeCloseTo(2 / 3, 12);
    expect(m.response_latency_ms).toBe(750);
    expect(m.no_response_count).toBe(1);
    expect(m.response_late_count).toBe(0);
  });
});

describe("interruption rate", () => {
  it("assistant speech in a pause inside one utterance is not an interruption; a start inside voiced audio is", () => {
    // One utterance voiced [1000,2000) and [3000,4000): segment [1000,4000).
    // a1 [2200,2800) starts in the pause → not counted. a2 [3500,3900) starts at 3500 ∈ [3000,4000)
    // → interruption. a3 [4600,6000) answers: latency 600. count 1 / response_total 1 = 1.
    const segments = callerSegments([{ action: "SPEAK" }], [iv(1000, 2000), iv(3000, 4000)]);
    const m = computeInteractionMetrics({
      caller: segments,
      assistantVoiced: [iv(2200, 2800), iv(3500, 3900), iv(4600, 6000)],
      observationEndMs: 10000,
    });
    expect(m.interruption_count).toBe(1);
    expect(m.interruption_rate).toBe(1);
    expect(m.opportunities[0]).toMatchObject({ outcome: "answered", latency_ms: 600 });
  });

  it("uses half-open [start, end): a start at a voiced start counts, a start at a voiced end does not", () => {
    // u0 voiced [1000,2000); a0 starts at 2000 = end → not inside; also answers u0 with latency 0.
    // u1 voiced [5000,6000); a1 starts at 5000 = start → inside → 1 interruption.
    // a2 [6500,7000) answers u1 (latency 500). count 1 / response_total 2 = 0.5.
    const m = metrics({
      caller: caller(["SPEAK", [1000, 2000]], ["SPEAK", [5000, 6000]]),
      assistantVoiced: [iv(2000, 2500), iv(5000, 5200), iv(6500, 7000)],
      observationEndMs: 10000,
    });
    expect(m.interruption_count).toBe(1);
    expect(m.interruption_rate).toBe(0.5);
    // a1 starts together with u1: simultaneous onset is no yield opportunity.
    expect(m.yield_opportunities).toEqual([]);
    expect(m.yield_rate).toBeNull();
  });

  it("ignores assistant starts inside backchannels and closings", () => {
    // u0 SPEAK [0,1000) is answered by a0 [1500,2100) (latency 500). a1 starts at 2300, inside the
    // BACKCHANNEL [2000,3000), which expects no response → not counted. a2 starts at 8500, inside
    // the STOP [8000,9000) → not counted either. 0 / response_total 1 = 0.
    const m = metrics({
      caller: caller(["SPEAK", [0, 1000]], ["BACKCHANNEL", [2000, 3000]], ["STOP", [8000, 9000]]),
      assistantVoiced: [iv(1500, 2100), iv(2300, 4000), iv(8500, 9500)],
      observationEndMs: 10000,
    });
    expect(m.interruption_count).toBe(0);
    expect(m.interruption_rate).toBe(0); // 0 / response_total 1
  });
});

describe("yield", () => {
  it("yields when the assistant stops within 2000 ms of the caller's onset, not after", () => {
    // a0 [0,5000), u0 SPEAK starts 2000: delay 5000 − 2000 = 3000 > 2000 → not yielded.
    // a1 [10000,13000), u1 SPEAK starts 11000: delay 13000 − 11000 = 2000 → yielded.
    // yield_rate = 1 / (1 + 1) = 0.5.
    const m = metrics({
      caller: caller(["SPEAK", [2000, 3000]], ["SPEAK", [11000, 11500]]),
      assistantVoiced: [iv(0, 5000), iv(10000, 13000)],
      observationEndMs: 20000,
    });
    expect(m.yield_opportunities.map((y) => (y.kind === "yield" ? [y.delay_ms, y.yielded] : null))).toEqual([
      [3000, false],
      [2000, true],
    ]);
    expect([m.yield_count, m.no_yield_count, m.yield_rate]).toEqual([1, 1, 0.5]);
    // Both requests ended while the assistant was still talking → excluded → response metrics null.
    expect(m.exclusion_reasons.assistant_active_at_request_end).toBe(2);
    expect([m.response_rate, m.interruption_rate]).toEqual([null, null]);
  });

  it("an INTERRUPT starting exactly when the assistant stopped is a yield opportunity; a SPEAK is not", () => {
    // a [1000,3000); u starts at 3000 = a.end. INTERRUPT → opportunity, delay 3000 − 3000 = 0 → yielded.
    const interrupt = metrics({ caller: caller(["INTERRUPT", [3000, 4000]]), assistantVoiced: [iv(1000, 3000)], observationEndMs: 9000 });
    expect(interrupt.yield_opportunities).toEqual([
      { utterance: 0, action: "INTERRUPT", caller_start_ms: 3000, assistant_start_ms: 1000, assistant_end_ms: 3000, kind: "yield", delay_ms: 0, yielded: true },
    ]);
    expect(interrupt.yield_rate).toBe(1);
    const speak = metrics({ caller: caller(["SPEAK", [3000, 4000]]), assistantVoiced: [iv(1000, 3000)], observationEndMs: 9000 });
    expect(speak.yield_opportunities).toEqual([]);
    expect(speak.yield_rate).toBeNull();
  });

  it("over a backchannel the assistant should continue; stopping is a false_yield", () => {
    // bc0 [1000,1300) over a0 [0,1500): a.end 1500 > u.end 1300 → continued (though 1500 < 1000 + 1000).
    // bc1 [6000,6500) over a1 [5000,6200): 6200 > 6500? no; 6200 >= 6000 + 1000? no → false_yield.
    // bc2 [9000,10500) over a2 [8000,10000): 10000 > 10500? no; 10000 >= 9000 + 1000 → continued.
    // selectivity = 2 / (2 + 1).
    const m = metrics({
      caller: caller(["BACKCHANNEL", [1000, 1300]], ["BACKCHANNEL", [6000, 6500]], ["BACKCHANNEL", [9000, 10500]]),
      assistantVoiced: [iv(0, 1500), iv(5000, 6200), iv(8000, 10000)],
      observationEndMs: 12000,
    });
    expect(m.yield_opportunities.map((y) => (y.kind === "backchannel" ? y.outcome : null))).toEqual(["continued", "false_yield", "continued"]);
    expect([m.backchannel_continue_count, m.false_yield_count]).toEqual([2, 1]);
    expect(m.selectivity_backchannel).toBeCloseTo(2 / 3, 12);
    // Backchannels are not yield_rate opportunities, and all three are excluded from responses.
    expect(m.yield_rate).toBeNull();
    expect(m.exclusion_reasons.backchannel).toBe(3);
  });

  it("a STOP is never a yield opportunity", () => {
    const m = metrics({ caller: caller(["STOP", [1000, 2000]]), assistantVoiced: [iv(0, 5000)], observationEndMs: 9000 });
    expect(m.yield_opportunities).toEqual([]);
  });
});

describe("speaking duration", () => {
  it("cumulative is all merged assistant speech; maximum is the largest total within one turn", () => {
    // Speech [1000,2000) 1000 + [2200,3400) 1200 + [6000,8000) 2000 = 4200 cumulative.
    // Turns [1000,3400) → 1000 + 1200 = 2200 and [6000,8000) → 2000: maximum 2200.
    const voiced = [iv(1000, 2000), iv(2200, 3400), iv(6000, 8000)];
    const withTurns = metrics({ caller: [], assistantVoiced: voiced, assistantTurns: [iv(1000, 3400), iv(6000, 8000)], observationEndMs: 9000 });
    expect(withTurns.speaking_duration_ms).toEqual({ cumulative: 4200, maximum: 2200 });
    expect(withTurns.timing_source.assistant_turns).toBe("assistant_turns");
    // Without turns each assistant segment is its own turn: maximum = longest segment, 2000.
    const withoutTurns = metrics({ caller: [], assistantVoiced: voiced, observationEndMs: 9000 });
    expect(withoutTurns.speaking_duration_ms).toEqual({ cumulative: 4200, maximum: 2000 });
    expect(withoutTurns.timing_source.assistant_turns).toBe("assistant_segments");
  });

  it("counts overlapping voiced intervals once", () => {
    // [0,1000) ∪ [500,1500) ∪ [1500,1600) = [0,1600) → 1600.
    const m = metrics({ caller: [], assistantVoiced: [iv(0, 1000), iv(500, 1500), iv(1500, 1600)], observationEndMs: 2000 });
    expect(m.speaking_duration_ms).toEqual({ cumulative: 1600, maximum: 1600 });
  });
});

describe("floor-hold silence", () => {
  it("is delegation-active time minus both sides' speech", () => {
    // Delegation [3000,6000). Caller [1000,2800); assistant [3200,3700) and [5500,7000).
    // Silence = [3000,3200) 200 + [3700,5500) 1800 = 2000; longest episode 1800.
    const m = metrics({
      caller: caller(["SPEAK", [1000, 2800]]),
      assistantVoiced: [iv(3200, 3700), iv(5500, 7000)],
      delegations: [{ created_ms: 3000, active_until_ms: 6000 }],
      observationEndMs: 8000,
    });
    expect(m.floor_hold_silence_ms).toEqual({ cumulative: 2000, maximum: 1800 });
  });

  it("counts overlapping delegations once and runs an open one to the end of the observation", () => {
    // d0 [1000,4000) ∪ d1 [2000,5000) = [1000,5000); d2 open from 8000 to the end, 10000.
    // Speech: caller [0,1500), assistant [4500,8500).
    // Silence = [1500,4500) 3000 + [8500,10000) 1500 = 4500; maximum 3000.
    const m = metrics({
      caller: caller(["SPEAK", [0, 1500]]),
      assistantVoiced: [iv(4500, 8500)],
      delegations: [
        { created_ms: 1000, active_until_ms: 4000 },
        { created_ms: 2000, active_until_ms: 5000 },
        { created_ms: 8000, active_until_ms: null },
      ],
      observationEndMs: 10000,
    });
    expect(m.floor_hold_silence_ms).toEqual({ cumulative: 4500, maximum: 3000 });
  });

  it("is zero without delegations and reports the delegation timing source", () => {
    const m = metrics({ caller: [], assistantVoiced: [iv(0, 100)], observationEndMs: 1000, delegationTiming: "server_offset" });
    expect(m.floor_hold_silence_ms).toEqual({ cumulative: 0, maximum: 0 });
    expect(m.timing_source).toEqual({ speech: "voiced_audio", assistant_turns: "assistant_segments", delegation: "server_offset" });
  });

  it("rejects a delegation that ends before it starts", () => {
    expect(() =>
      metrics({ caller: [], delegations: [{ created_ms: 5000, active_until_ms: 4000 }], observationEndMs: 9000 }),
    ).toThrow(TimelineInputError);
  });
});

describe("computeInteractionMetrics as a whole", () => {
  it("gives null response metrics for a transcript-only caller, never invented ones", () => {
    const segments = callerSegments([{ action: "SPEAK", text: "I'd like a table for two" }], []);
    const m = computeInteractionMetrics({ caller: segments, assistantVoiced: [iv(1000, 2000)], observationEndMs: 5000 });
    expect(m).toMatchObject({
      metrics_version: "2.0",
      response_deadline_ms: 5000,
      response_rate: null,
      response_latency_ms: null,
      interruption_rate: null,
      yield_rate: null,
      selectivity_backchannel: null,
      caller_turn_count: 0,
      response_eligible_count: 0,
      response_total: 0,
      response_count: 0,
      no_response_count: 0,
      speaking_duration_ms: { cumulative: 1000, maximum: 1000 },
      floor_hold_silence_ms: { cumulative: 0, maximum: 0 },
    });
  });

  it("is plain JSON", () => {
    const m = metrics({ caller: caller(["SPEAK", [0, 1000]]), assistantVoiced: [iv(1500, 2000)], observationEndMs: 3000 });
    expect(JSON.parse(JSON.stringify(m))).toEqual(m);
  });

  it("scores a two-request conversation with client delegations end to end", () => {
    // Speech times of a restaurant booking call (ms). Caller: u0 SPEAK [4840,8100),
    // u1 SPEAK [16280,19120), u2 STOP [33300,36400).
    // Assistant: greeting [1180,3320), ack [9800,10840), question [11640,14780), ack [20920,21580),
    // confirmation [24240,28360), number [28980,31580), farewell [37440,38400).
    // Delegations: [8400,11500) and [19600,24000) (created → content delivered).
    const m = computeInteractionMetrics({
      caller: caller(["SPEAK", [4840, 8100]], ["SPEAK", [16280, 19120]], ["STOP", [33300, 36400]]),
      assistantVoiced: [
        iv(1180, 3320),
        iv(9800, 10840),
        iv(11640, 14780),
        iv(20920, 21580),
        iv(24240, 28360),
        iv(28980, 31580),
        iv(37440, 38400),
      ],
      delegations: [
        { created_ms: 8400, active_until_ms: 11500 },
        { created_ms: 19600, active_until_ms: 24000 },
      ],
      observationEndMs: 40000,
    });
    // u0 answered by the ack: 9800 − 8100 = 1700; u1: 20920 − 19120 = 1800; u2 is the closing.
    expect([m.response_total, m.response_rate, m.response_latency_ms]).toEqual([2, 1, 1750]);
    expect(m.exclusion_reasons.caller_closing).toBe(1);
    expect(m.interruption_rate).toBe(0);
    // 2140 + 1040 + 3140 + 660 + 4120 + 2600 + 960 = 14660; longest segment 4120.
    expect(m.speaking_duration_ms).toEqual({ cumulative: 14660, maximum: 4120 });
    // [8400,9800) 1400 + [10840,11500) 660 + [19600,20920) 1320 + [21580,24000) 2420 = 5800; max 2420.
    expect(m.floor_hold_silence_ms).toEqual({ cumulative: 5800, maximum: 2420 });
  });
});

describe("metrics, worked examples", () => {
  it("an INTERRUPT that starts after the assistant has already stopped interrupts nothing", () => {
    // a [1000,3000); the caller's INTERRUPT starts at 3500, half a second after: no yield opportunity.
    const m = metrics({ caller: caller(["INTERRUPT", [3500, 4000]]), assistantVoiced: [iv(1000, 3000)], observationEndMs: 9000 });
    expect(m.yield_opportunities).toEqual([]);
    expect(m.yield_rate).toBeNull();
  });

  it("over a backchannel, an assistant that stops exactly when the backchannel ends yielded falsely", () => {
    // bc [1000,1300) over a [0,1300): the assistant neither outlasted it (1300 > 1300? no) nor ran 1000 ms past its onset.
    const m = metrics({ caller: caller(["BACKCHANNEL", [1000, 1300]]), assistantVoiced: [iv(0, 1300)], observationEndMs: 5000 });
    expect(m.yield_opportunities.map((y) => (y.kind === "backchannel" ? y.outcome : null))).toEqual(["false_yield"]);
    expect([m.backchannel_continue_count, m.false_yield_count, m.selectivity_backchannel]).toEqual([0, 1, 0]);
    expect([m.yield_count, m.no_yield_count]).toEqual([0, 0]);
  });

  it("counts one censored request among answered and missed ones", () => {
    // u0 answered (latency 500), u1 never answered with the deadline observed (missed), u2 too late to judge (censored).
    const m = metrics({
      caller: caller(["SPEAK", [0, 1000]], ["SPEAK", [10000, 11000]], ["SPEAK", [20000, 21000]]),
      assistantVoiced: [iv(1500, 2000)],
      observationEndMs: 22000,
    });
    expect(m.opportunities.map((o) => o.outcome)).toEqual(["answered", "missed", "censored"]);
    expect([m.response_eligible_count, m.response_censored_count, m.response_excluded_count]).toEqual([3, 1, 0]);
    expect([m.response_total, m.response_count, m.no_response_count]).toEqual([2, 1, 1]);
  });

  it("callers given out of order are scored in time order", () => {
    // The same conversation as the censoring example above, listed backwards.
    const m = metrics({
      caller: caller(["SPEAK", [20000, 21000]], ["SPEAK", [10000, 11000]], ["SPEAK", [0, 1000]]),
      assistantVoiced: [iv(1500, 2000)],
      observationEndMs: 22000,
    });
    expect(m.opportunities.map((o) => [o.utterance, o.outcome])).toEqual([
      [2, "answered"],
      [1, "missed"],
      [0, "censored"],
    ]);
  });

  it("two caller segments starting together are taken in utterance order", () => {
    const segments: CallerSegment[] = [
      { utterance: 1, action: "SPEAK", start_ms: 1000, end_ms: 2000, voiced: [iv(1000, 2000)] },
      { utterance: 0, action: "BACKCHANNEL", start_ms: 1000, end_ms: 1200, voiced: [iv(1000, 1200)] },
    ];
    const m = metrics({ caller: segments, assistantVoiced: [iv(2500, 3000)], observationEndMs: 9000 });
    expect(m.opportunities.map((o) => o.utterance)).toEqual([0, 1]);
  });

  it("the observation lasts at least until the caller's last audio", () => {
    // observationEndMs says 1000, but the caller spoke until 9000: u0's deadline (2000 + 5000) was observed → missed, not censored.
    const m = metrics({ caller: caller(["SPEAK", [1000, 2000]], ["STOP", [8000, 9000]]), observationEndMs: 1000 });
    expect(m.opportunities[0]).toMatchObject({ outcome: "missed", reason: "deadline_expired", late_latency_ms: null });
  });

  it("floor-hold silence over explicit delegation intervals", () => {
    // Active [1000,3000) and [5000,6000); the assistant speaks [2000,2500): silence 1000 + 500 + 1000 = 2500, longest 1000.
    const m = metrics({
      caller: [],
      assistantVoiced: [iv(2000, 2500)],
      delegations: [{ intervals: [iv(1000, 3000), iv(5000, 6000)] }],
      observationEndMs: 9000,
    });
    expect(m.floor_hold_silence_ms).toEqual({ cumulative: 2500, maximum: 1000 });
  });

  it("a delegation that ends the moment it starts holds the floor for no time; one that ends before it starts is refused", () => {
    const m = metrics({ caller: [], delegations: [{ created_ms: 5000, active_until_ms: 5000 }], observationEndMs: 9000 });
    expect(m.floor_hold_silence_ms).toEqual({ cumulative: 0, maximum: 0 });
    expect(() => metrics({ caller: [], delegations: [{ created_ms: 5000, active_until_ms: 4000 }], observationEndMs: 9000 })).toThrow(
      "delegations[0]: active_until_ms (4000) is before created_ms (5000); use null for a delegation still open at the end",
    );
  });

  it("an open delegation with a silent caller holds the floor until the observation ends", () => {
    // Open from 2000; nobody speaks; the observation ends at 6000 → 4000 ms of floor-hold silence.
    const m = metrics({ caller: [], delegations: [{ created_ms: 2000, active_until_ms: null }], observationEndMs: 6000 });
    expect(m.floor_hold_silence_ms).toEqual({ cumulative: 4000, maximum: 4000 });
  });

  it("delegation timing defaults to the receive clock", () => {
    expect(metrics({ caller: [], observationEndMs: 1000 }).timing_source.delegation).toBe("receive_clock");
  });

  it("refuses a negative or missing deadline and an observation end that is not a finite time", () => {
    expect(metrics({ caller: [], observationEndMs: 1000, response_deadline_ms: 0 }).response_deadline_ms).toBe(0);
    expect(() => metrics({ caller: [], observationEndMs: 1000, response_deadline_ms: -1 })).toThrow("response_deadline_ms: must be a non-negative number of ms, got -1");
    expect(() => metrics({ caller: [], observationEndMs: 1000, response_deadline_ms: Number.NaN })).toThrow("response_deadline_ms: must be a non-negative number of ms, got NaN");
    expect(() => metrics({ caller: [], observationEndMs: Infinity })).toThrow("observationEndMs: must be a finite number of ms, got Infinity");
  });

  it("names the bad interval: assistant audio, caller audio or an assistant turn", () => {
    expect(() => metrics({ caller: [], assistantVoiced: [iv(5, 1)], observationEndMs: 9 })).toThrow(/^assistantVoiced\[0\]: /);
    const bad: CallerSegment = { utterance: 0, action: "SPEAK", start_ms: 5, end_ms: 1, voiced: [iv(5, 1)] };
    expect(() => metrics({ caller: [bad], observationEndMs: 9 })).toThrow(/^caller\.voiced\[0\]: /);
    expect(() => metrics({ caller: [], assistantTurns: [iv(0, 5), iv(8, 6)], observationEndMs: 9 })).toThrow(/^assistantTurns\[1\]\[0\]: interval ends before it starts/);
  });
});

describe("measured latencies, beside the fields", () => {
  it("measures a late answer instead of leaving it blank; only a request with no answer at all is unanswered", () => {
    // u0 [0,1000) answered at 1600: 600 ms. u1 [10000,11000) answered at 17500: 6500 ms, past D = 5000
    // (u2 starts at 20000, after 16000) → missed, deadline_expired. u2 [20000,21000): nothing, ever.
    const m = metrics({
      caller: caller(["SPEAK", [0, 1000]], ["SPEAK", [10000, 11000]], ["SPEAK", [20000, 21000]]),
      assistantVoiced: [iv(1600, 3000), iv(17500, 19000)],
      observationEndMs: 30000,
    });
    // The fields stay as the contract defines them.
    expect([m.response_count, m.no_response_count, m.response_late_count, m.response_latency_ms, m.late_response_latencies_ms]).toEqual([1, 2, 1, 600, [6500]]);
    // Measured: every answer, in caller order; the mean of 600 and 6500 is 3550; P90 = 600 + 0.9 × 5900 = 5910.
    expect(m).toMatchObject({
      response_latencies_ms: [600, 6500],
      response_latency_mean_ms: 3550,
      response_latency_p90_ms: 5910,
      response_latency_max_ms: 6500,
      unanswered_count: 1,
    });
  });

  it("keeps caller order in the list and interpolates the P90 between the closest ranks", () => {
    // Latencies in caller order 900, 300, 600: sorted 300, 600, 900; rank 0.9 × 2 = 1.8 → 600 + 0.8 × 300 = 840.
    const m = metrics({
      caller: caller(["SPEAK", [0, 1000]], ["SPEAK", [5000, 6000]], ["SPEAK", [10000, 11000]]),
      assistantVoiced: [iv(1900, 2500), iv(6300, 7000), iv(11600, 12000)],
      observationEndMs: 20000,
    });
    expect(m).toMatchObject({ response_latencies_ms: [900, 300, 600], response_latency_mean_ms: 600, response_latency_p90_ms: 840, response_latency_max_ms: 900, unanswered_count: 0 });
    // Four answers 1000, 2000, 3000, 4000 (caller order 4000 first): rank 2.7 → 3000 + 0.7 × 1000 = 3700.
    const four = metrics({
      caller: caller(["SPEAK", [0, 1000]], ["SPEAK", [10000, 11000]], ["SPEAK", [20000, 21000]], ["SPEAK", [30000, 31000]]),
      assistantVoiced: [iv(5000, 6000), iv(12000, 13000), iv(23000, 24000), iv(34000, 35000)],
      observationEndMs: 40000,
    });
    expect([four.response_latencies_ms, four.response_latency_p90_ms, four.response_latency_max_ms, four.response_latency_mean_ms]).toEqual([[4000, 1000, 2000, 3000], 3700, 4000, 2500]);
  });

  it("rounds the mean and P90 where they are made", () => {
    // 1000, 1000 and 1001 ms: mean 1000.333…, P90 rank 1.8 → 1000 + 0.8 × 1 = 1000.8.
    const m = metrics({
      caller: caller(["SPEAK", [0, 1000]], ["SPEAK", [10000, 11000]], ["SPEAK", [20000, 21000]]),
      assistantVoiced: [iv(2000, 2500), iv(12000, 12500), iv(22001, 22500)],
      observationEndMs: 30000,
    });
    expect([m.response_latency_mean_ms, m.response_latency_p90_ms]).toEqual([1000.333, 1000.8]);
  });

  it("is null with no answer, and counts neither censored nor excluded requests as unanswered", () => {
    // u0 STOP (excluded); u1 [5000,6000) unanswered and expired; u2 [20000,21000) censored (observation ends at 22000).
    const m = metrics({ caller: caller(["STOP", [0, 1000]], ["SPEAK", [5000, 6000]], ["SPEAK", [20000, 21000]]), observationEndMs: 22000 });
    expect(m.response_censored_count).toBe(1);
    expect(m).toMatchObject({ response_latencies_ms: [], response_latency_mean_ms: null, response_latency_p90_ms: null, response_latency_max_ms: null, unanswered_count: 1 });
    // A request that the next one cut off before any answer: missed, unanswered.
    const cut = metrics({ caller: caller(["SPEAK", [0, 1000]], ["SPEAK", [3000, 4000]]), assistantVoiced: [iv(4500, 5000)], observationEndMs: 12000 });
    expect(cut).toMatchObject({ response_latencies_ms: [500], unanswered_count: 1, no_response_count: 1 });
  });

  it("measuredLatencyMs: what summaries and reports show for a trial", () => {
    expect(measuredLatencyMs(null)).toBeNull();
    expect(measuredLatencyMs(undefined)).toBeNull();
    expect(measuredLatencyMs({ response_latency_ms: null, response_latency_mean_ms: 6680 })).toBe(6680);
    expect(measuredLatencyMs({ response_latency_ms: 700, response_latency_mean_ms: 700 })).toBe(700);
    // Measured and none answered: nothing to show, even if an older field disagreed.
    expect(measuredLatencyMs({ response_latency_ms: 500, response_latency_mean_ms: null })).toBeNull();
    // Records from before the measured fields: the mean of timely answers.
    expect(measuredLatencyMs({ response_latency_ms: 500 })).toBe(500);
    expect(measuredLatencyMs({ response_latency_ms: null })).toBeNull();
    expect(measuredLatencyMs({})).toBeNull();
  });
});
