import { describe, expect, it } from "vitest";
import type { YieldOpportunity } from "../src/core/timeline/metrics";
import { unyieldedInterruptions, yieldsToInterruption } from "../src/core/verify/timing";
import type { Verdict, VerifierInput } from "../src/core/verify/verifier";

/**
 * yields_to_interruption as worked examples. The verifier reads only the record's conversation marker,
 * its audio metrics' yield opportunities (the measure stage's §4 output) and its turns (for evidence ids),
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
