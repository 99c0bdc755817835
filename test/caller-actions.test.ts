import { describe, expect, it } from "vitest";
import {
  callerAnnotations,
  callerSegments,
  callerTurns,
  computeInteractionMetrics,
  type Interval,
  labelCallerActions,
  type RecordedCallerUtterance,
  TimelineInputError,
} from "../src/core/timeline";

const iv = (start_ms: number, end_ms: number): Interval => ({ start_ms, end_ms });
const say = (text: string, start_ms: number, end_ms: number): RecordedCallerUtterance => ({ text, start_ms, end_ms });
const actions = (labelled: ReturnType<typeof labelCallerActions>) => labelled.map((u) => u.action);

describe("caller actions labelled after the fact", () => {
  it("labels a conversation the assistant opened", () => {
    // Assistant voice: greeting [0,2000), question [5600,8000), long explanation [16000,19000), wrap-up [21800,25000).
    const assistantVoiced = [iv(0, 2000), iv(5600, 8000), iv(16000, 19000), iv(21800, 25000)];
    const labelled = labelCallerActions({
      callerSpokeFirst: false,
      assistantVoiced,
      backchannels: ["Mm-hmm.", "Right."],
      utterances: [
        say("I'd like to book a table on August 7th.", 2500, 5000), //   after the greeting ended: SPEAK
        say("Seven p.m., for two.", 8600, 10000), //                     after the question: SPEAK
        say("Mm-hmm.", 17000, 17400), //                                 persona phrase inside [16000,19000): BACKCHANNEL
        say("Sorry, could we do the 9th instead?", 18000, 20000), //    onset 18000 inside [16000,19000): INTERRUPT
        say("Yes.", 20400, 20800), //                                    into silence (after 19000, before 21800): SPEAK
        say("Great, thank you. Bye!", 25600, 27000), //                  goodbye at the end: STOP
      ],
    });
    expect(actions(labelled)).toEqual(["SPEAK", "SPEAK", "BACKCHANNEL", "INTERRUPT", "SPEAK", "STOP"]);
    expect(labelled[3]!.reason).toBe("began at 18000 ms while the assistant spoke [16000, 19000) ms");
    expect(labelled[5]!.reason).toBe('a goodbye ("bye") closing the call');
    // As the record's user turns, each with its action.
    expect(callerTurns(labelled)[2]).toEqual({ role: "user", text: "Mm-hmm.", start_ms: 17000, end_ms: 17400, action: "BACKCHANNEL" });
  });

  it("labels the caller's first utterance OPENING when the caller spoke first", () => {
    const labelled = labelCallerActions({ callerSpokeFirst: true, assistantVoiced: [iv(3000, 5000)], utterances: [say("Hi, I need a table.", 0, 2000), say("Four people.", 5500, 6500)] });
    expect(actions(labelled)).toEqual(["OPENING", "SPEAK"]);
  });

  it("an acknowledgement in silence is an answer; over the assistant's voice it is a backchannel", () => {
    const base = { callerSpokeFirst: false, assistantVoiced: [iv(0, 2000), iv(4000, 9000)] };
    expect(actions(labelCallerActions({ ...base, utterances: [say("Yes.", 2500, 3000)] }))).toEqual(["SPEAK"]);
    expect(actions(labelCallerActions({ ...base, utterances: [say("Yes.", 5000, 5400)] }))).toEqual(["BACKCHANNEL"]);
    // A longer sentence over the assistant's voice is an interruption, not a backchannel.
    expect(actions(labelCallerActions({ ...base, utterances: [say("Yes, but for five people.", 5000, 6400)] }))).toEqual(["INTERRUPT"]);
  });

  it("an onset exactly at the assistant's start or end is not an interruption", () => {
    // Simultaneous onset (5000 = a.start) and an onset exactly when the assistant stopped (9000 = a.end).
    const base = { callerSpokeFirst: false, assistantVoiced: [iv(5000, 9000)] };
    expect(actions(labelCallerActions({ ...base, utterances: [say("Can I ask something?", 5000, 6000)] }))).toEqual(["SPEAK"]);
    expect(actions(labelCallerActions({ ...base, utterances: [say("Can I ask something?", 9000, 10000)] }))).toEqual(["SPEAK"]);
  });

  it("measures an utterance by its voiced audio when the caller's voiced intervals are given", () => {
    // The utterance's window opens at 1000 ms, inside the assistant's [0,1100), but its voice starts at 1200.
    const input = { callerSpokeFirst: false, assistantVoiced: [iv(0, 1100)], utterances: [say("Two people.", 1000, 3000)] };
    expect(actions(labelCallerActions(input))).toEqual(["INTERRUPT"]);
    expect(actions(labelCallerActions({ ...input, callerVoiced: [iv(1200, 2800)] }))).toEqual(["SPEAK"]);
  });

  it("goodbyes followed only by backchannels or more goodbyes all close the call; an earlier thanks does not", () => {
    const labelled = labelCallerActions({
      callerSpokeFirst: false,
      assistantVoiced: [iv(0, 1000), iv(6000, 8000)],
      utterances: [say("Thanks.", 1500, 2000), say("And is there parking?", 2500, 4000), say("Perfect, thanks, bye.", 4500, 5500), say("Right.", 6500, 6800)],
    });
    expect(actions(labelled)).toEqual(["SPEAK", "SPEAK", "STOP", "BACKCHANNEL"]);
  });

  it("refuses utterances out of time order", () => {
    expect(() => labelCallerActions({ callerSpokeFirst: false, assistantVoiced: [], utterances: [say("a b", 1000, 2000), say("c d", 1500, 2500)] })).toThrow(TimelineInputError);
  });
});

describe("caller actions, worked examples", () => {
  it("says why each label was given", () => {
    const labelled = labelCallerActions({
      callerSpokeFirst: true,
      assistantVoiced: [iv(2500, 6000)],
      utterances: [say("Hi, a table for two please.", 0, 2000), say("Uh-huh.", 3000, 3300), say("Around eight.", 6500, 7500)],
    });
    expect(labelled.map((u) => [u.action, u.reason])).toEqual([
      ["OPENING", "the caller opened the conversation"],
      ["BACKCHANNEL", "a backchannel phrase while the assistant spoke [2500, 6000) ms"],
      ["SPEAK", "took the floor while the assistant was silent"],
    ]);
  });

  it("recognises the persona's own backchannel phrase", () => {
    // "Go on then." is no general acknowledgement word, but this persona says it to keep listening.
    const input = { callerSpokeFirst: false, assistantVoiced: [iv(0, 5000)], utterances: [say("Go on then.", 2000, 2600)] };
    expect(actions(labelCallerActions(input))).toEqual(["INTERRUPT"]);
    expect(actions(labelCallerActions({ ...input, backchannels: ["Go on then."] }))).toEqual(["BACKCHANNEL"]);
  });

  it("a backchannel that only touches the assistant's voice was said into silence", () => {
    // "Okay." ending exactly when the assistant starts, or starting exactly when it stopped: an answer (SPEAK).
    const base = { callerSpokeFirst: false, assistantVoiced: [iv(3000, 5000)] };
    expect(actions(labelCallerActions({ ...base, utterances: [say("Okay.", 2500, 3000)] }))).toEqual(["SPEAK"]);
    expect(actions(labelCallerActions({ ...base, utterances: [say("Okay.", 5000, 5400)] }))).toEqual(["SPEAK"]);
  });

  it("a caller whose only words are a goodbye closes the call", () => {
    expect(actions(labelCallerActions({ callerSpokeFirst: false, assistantVoiced: [iv(0, 2000)], utterances: [say("No thanks, bye.", 2500, 3500)] }))).toEqual(["STOP"]);
  });

  it("accepts touching and zero-length utterances, and says what is wrong with a bad one", () => {
    const ok = labelCallerActions({ callerSpokeFirst: false, assistantVoiced: [], utterances: [say("Two.", 1000, 2000), say("People.", 2000, 2000)] });
    expect(actions(ok)).toEqual(["SPEAK", "SPEAK"]);
    const bad = (utterances: RecordedCallerUtterance[]) => () => labelCallerActions({ callerSpokeFirst: false, assistantVoiced: [], utterances });
    expect(bad([say("a", 2000, 1000)])).toThrow("utterances[0]: needs finite start_ms <= end_ms, got [2000, 1000)");
    expect(bad([say("a", Number.NaN, 1000)])).toThrow("utterances[0]: needs finite start_ms <= end_ms, got [NaN, 1000)");
    expect(bad([say("a", 0, Infinity)])).toThrow("utterances[0]: needs finite start_ms <= end_ms, got [0, Infinity)");
    expect(bad([say("a", 1000, 2000), say("b", 1500, 2500)])).toThrow(
      "utterances[1]: starts at 1500 ms, before the previous utterance ends (2000 ms); list caller utterances in time order",
    );
  });

  it("names the bad voiced interval, the assistant's or the caller's", () => {
    const input = { callerSpokeFirst: false, utterances: [say("a", 0, 10)] };
    expect(() => labelCallerActions({ ...input, assistantVoiced: [iv(5, 1)] })).toThrow(/^assistantVoiced\[0\]: /);
    expect(() => labelCallerActions({ ...input, assistantVoiced: [], callerVoiced: [iv(5, 1)] })).toThrow(/^callerVoiced\[0\]: /);
  });
});

describe("labelled caller segments drive the yield metrics", () => {
  // Assistant: greeting [0,2000); the unavailable-slot explanation starts at 3000.
  // Caller: answer [2200,2800); "Mm-hmm." [4000,4400) over the explanation; an interruption at 6000–7500.
  const utterances = [say("For two, at seven.", 2200, 2800), say("Mm-hmm.", 4000, 4400), say("Sorry, what about the ninth instead?", 6000, 7500)];
  const callerVoiced = [iv(2200, 2800), iv(4000, 4400), iv(6000, 7500)];

  function metricsWith(assistantVoiced: Interval[]) {
    const labelled = labelCallerActions({ callerSpokeFirst: false, assistantVoiced, callerVoiced, utterances, backchannels: ["Mm-hmm."] });
    const caller = callerSegments(callerAnnotations(labelled), callerVoiced);
    return { labels: actions(labelled), m: computeInteractionMetrics({ caller, assistantVoiced, observationEndMs: 15000 }) };
  }

  it("an assistant that stops within 2000 ms of the interruption yields, and keeps talking over the backchannel", () => {
    // Explanation [3000,6800): the interruption at 6000 → delay 6800 − 6000 = 800 <= 2000 → yielded.
    // The backchannel at 4000–4400: 6800 > 4400 → continued. Answer to the interruption at [8200,10000).
    const { labels, m } = metricsWith([iv(0, 2000), iv(3000, 6800), iv(8200, 10000)]);
    expect(labels).toEqual(["SPEAK", "BACKCHANNEL", "INTERRUPT"]);
    expect([m.yield_count, m.no_yield_count, m.yield_rate]).toEqual([1, 0, 1]);
    expect([m.backchannel_continue_count, m.false_yield_count, m.selectivity_backchannel]).toEqual([1, 0, 1]);
    // Responses: the answer at 2800 → 3000 (200 ms); the interruption ending 7500 → 8200 (700 ms); the backchannel excluded.
    expect(m.opportunities.map((o) => o.outcome)).toEqual(["answered", "excluded", "answered"]);
    expect(m.response_latency_ms).toBe((200 + 700) / 2);
  });

  it("talks_through_interruption: the assistant keeps talking 3000 ms past the caller's onset", () => {
    // Explanation [3000,9000): delay 9000 − 6000 = 3000 > 2000 → not yielded; yield_rate 0 / 1 = 0.
    // The interruption ends at 7500, inside [3000,9000): excluded (assistant_active_at_request_end).
    // The answer starts 800 ms after the explanation ends: a new turn, not the same speech resumed.
    const { labels, m } = metricsWith([iv(0, 2000), iv(3000, 9000), iv(9800, 11000)]);
    expect(labels).toEqual(["SPEAK", "BACKCHANNEL", "INTERRUPT"]);
    expect([m.yield_count, m.no_yield_count, m.yield_rate]).toEqual([0, 1, 0]);
    expect(m.yield_opportunities.find((y) => y.kind === "yield")).toMatchObject({ delay_ms: 3000, yielded: false });
    expect(m.exclusion_reasons.assistant_active_at_request_end).toBe(1);
  });

  it("a pause shorter than 700 ms is not a stop: speech that resumes counts as talking through", () => {
    // The explanation pauses 300 ms at 6800 (between sentences), resumes and ends at 9000: not a yield
    // at 6800 (delay 800) but 9000 − 6000 = 3000 > 2000 → not yielded.
    const { m } = metricsWith([iv(0, 2000), iv(3000, 6800), iv(7100, 9000), iv(9800, 11000)]);
    expect([m.yield_count, m.no_yield_count]).toEqual([0, 1]);
    expect(m.yield_opportunities.find((y) => y.kind === "yield")).toMatchObject({ delay_ms: 3000, yielded: false });
    // A 700 ms pause is a stop: the assistant yielded at 6800.
    const stopped = metricsWith([iv(0, 2000), iv(3000, 6800), iv(7500, 9000), iv(9800, 11000)]).m;
    expect(stopped.yield_opportunities.find((y) => y.kind === "yield")).toMatchObject({ delay_ms: 800, yielded: true });
  });

  it("an assistant that stops at a backchannel makes a false yield", () => {
    // Explanation cut at 4300, inside the backchannel [4000,4400): 4300 > 4400? no; 4300 >= 4000 + 1000? no.
    const { labels, m } = metricsWith([iv(0, 2000), iv(3000, 4300), iv(8200, 10000)]);
    expect(labels).toEqual(["SPEAK", "BACKCHANNEL", "SPEAK"]); // the assistant was silent at 6000: a plain answer
    expect([m.backchannel_continue_count, m.false_yield_count, m.selectivity_backchannel]).toEqual([0, 1, 0]);
  });
});
