import { describe, expect, it } from "vitest";
import { ExpectedFact, Scenario } from "../src/core/dataset/schema";
import type { ToolExecution, Turn } from "../src/core/record/trial-record";
import type { WorldEvent } from "../src/core/world/types";
import { checkFacts, describeClaim, describeValue, factValue, readGrounding, type GroundingInput, type Utterance } from "../src/core/verify/grounding";
import { RESTAURANT } from "./restaurant-lexicon";

/**
 * Grounding case by case: which evidence grounds a spoken value and from when, which write backs which
 * outcome claim, and how expected facts are found or contradicted. Lines a case depends on are written in
 * more than one way.
 */

const scenario = Scenario.parse({
  id: "b1",
  title: "booking",
  type: "booking",
  interaction: "single_turn",
  input: { text: "A table for two under Maya, please." },
  application: { initial_state: {} },
  expected: { answer: "book it", delegation: "required", state: {} },
});

const said = (start_ms: number, text: string): Utterance => ({ role: "assistant", text, start_ms, end_ms: start_ms + 1000, evidence_id: `utt.assistant.at.${start_ms}` });

function execution(over: Partial<ToolExecution> = {}): ToolExecution {
  return {
    call_id: "c1",
    name: "create_reservation",
    arguments: { guest_name: "Maya", party_size: 2 },
    raw_arguments: '{"guest_name":"Maya","party_size":2}',
    status: "completed",
    output: { reservation_id: "R-E58827", time: "19:00" },
    requested_ms: 4000,
    completed_ms: 5000,
    world_seq: 1,
    ...over,
  };
}

function event(over: Partial<WorldEvent> = {}): WorldEvent {
  return { seq: 1, at_ms: 5000, operation: "create_reservation", kind: "write", args: {}, outcome: "ok", result: {}, patches: [], cause: { trial: "b1#1", call_id: "c1" }, ...over };
}

function input(utterances: Utterance[], over: Partial<GroundingInput> = {}): GroundingInput {
  return { scenario, case_kind: "crawl", turns: [], utterances, tool_executions: [], events: [], lexicon: RESTAURANT, ...over };
}

/** Each spoken value as `text: grounded|ungrounded`. */
const verdicts = (g: ReturnType<typeof readGrounding>) => g.spoken.map((s) => `${s.value.text}: ${s.grounded ? "grounded" : "ungrounded"}`);

describe("the evidence a value is grounded in", () => {
  it("the request grounds values in CRAWL and WALK, never in RUN, where the caller's lines are turns", () => {
    for (const line of ["Two people under Maya, right?", "So that's for two, under Maya?"]) {
      expect(verdicts(readGrounding(input([said(4000, line)]))), line).toEqual(verdicts(readGrounding(input([said(4000, line)], { case_kind: "walk" }))));
      expect(readGrounding(input([said(4000, line)])).ungrounded).toEqual([]);
      expect(readGrounding(input([said(4000, line)], { case_kind: "run" })).ungrounded.map((u) => u.value.value).sort()).toEqual(["2", "maya"]);
    }
  });

  it("the caller's earlier turn grounds a value; the assistant's own earlier line does not", () => {
    const turns: Turn[] = [{ role: "user", text: "Make it for four.", start_ms: 0, end_ms: 1500 }, { role: "assistant", text: "Shall I say 8 p.m.?", start_ms: 2000, end_ms: 3000 }];
    for (const line of ["Four people at 8 p.m., then.", "So, 8 p.m. for four?"]) {
      const g = readGrounding(input([said(2000, "Shall I say 8 p.m.?"), said(4000, line)], { case_kind: "run", turns }));
      expect(g.spoken.filter((s) => s.utterance.start_ms === 4000).map((s) => [s.value.kind, s.grounded]).sort(), line).toEqual([
        ["count", true],
        ["time", false],
      ]);
    }
  });

  it("a tool's arguments and output ground values from the moment it completed", () => {
    const tool = execution({ arguments: { guest_name: "Maya", party_size: 3 }, output: { reservation_id: "R-E58827" } });
    for (const line of ["Reservation R-E58827, for three.", "That's three people, reference R-E58827."]) {
      expect(readGrounding(input([said(5000, line)], { tool_executions: [tool] })).ungrounded, line).toEqual([]);
      expect(readGrounding(input([said(4999, line)], { tool_executions: [tool] })).ungrounded.map((u) => u.value.kind).sort(), line).toEqual(["count", "reference"]);
    }
  });

  it("a tool's raw arguments ground values when they were not a JSON object", () => {
    const tool = execution({ arguments: null, raw_arguments: "party of 3 at 19:30", output: undefined });
    expect(verdicts(readGrounding(input([said(6000, "Three people at 7:30 p.m.")], { tool_executions: [tool] })))).toEqual(["Three people: grounded", "7:30 p.m.: grounded"]);
    expect(verdicts(readGrounding(input([said(6000, "Three people at 7:30 p.m.")], { tool_executions: [execution({ raw_arguments: "party of 3 at 19:30", arguments: { note: "none" }, output: undefined })] })))).toEqual([
      "Three people: ungrounded",
      "7:30 p.m.: ungrounded",
    ]);
  });

  it("a world event's arguments and result ground values from when it happened", () => {
    const events = [event({ at_ms: 5000, args: { party_size: 3 }, result: { time: "20:00" } })];
    for (const line of ["Three people at 8 p.m.", "Eight in the evening, party of 3."]) {
      expect(readGrounding(input([said(5000, line)], { events })).ungrounded, line).toEqual([]);
      expect(readGrounding(input([said(4000, line)], { events })).ungrounded.length, line).toBe(2);
    }
    expect(readGrounding(input([said(6000, "At 8 p.m.")], { events: [event({ args: { time: "20:00" }, result: undefined })] })).ungrounded).toEqual([]);
  });

  it("context and public facts ground values from the start", () => {
    const withContext = Scenario.parse({ ...scenario, input: { text: "Cancel it.", context: { summary: "The caller holds reservation R-2040." } } });
    for (const line of ["Reservation R-2040, right?", "Cancel R-2040?"]) {
      expect(readGrounding(input([said(100, line)], { scenario: withContext })).ungrounded, line).toEqual([]);
      expect(readGrounding(input([said(100, line)])).ungrounded.length, line).toBe(1);
      expect(readGrounding(input([said(100, line)], { facts: { current: "R-2040" } })).ungrounded, line).toEqual([]);
    }
  });
});

describe("outcome claims and the writes that back them", () => {
  const booked = ["You're booked.", "I've reserved it for you.", "Done, your table has been reserved."];

  it.each(booked)("a completed write the world accepted backs a claim made after it: %s", (line) => {
    const g = readGrounding(input([said(5000, line)], { tool_executions: [execution()], events: [event()] }));
    expect(g.claims.map((c) => c.backing?.call_id)).toEqual(g.claims.map(() => "c1"));
    expect(g.claims.length).toBeGreaterThan(0);
    expect(g.unbacked).toEqual([]);
  });

  it.each(booked)("a claim made before the write completed is unbacked, naming the late write: %s", (line) => {
    const g = readGrounding(input([said(4999, line)], { tool_executions: [execution()], events: [event()] }));
    expect(g.claims.every((c) => c.backing === undefined)).toBe(true);
    expect(g.unbacked.map((u) => u.late?.call_id)).toEqual(g.claims.map(() => "c1"));
    expect(describeClaim(g.unbacked[0]!)).toMatch(/claims (an outcome|"booked") before create_reservation \(c1\) completed at 5000 ms$/);
  });

  it("the world event is found by its sequence number or by the call that caused it", () => {
    const bySeq = input([said(6000, "You're booked.")], { tool_executions: [execution()], events: [event({ cause: { trial: "b1#1" } })] });
    expect(readGrounding(bySeq).unbacked).toEqual([]);
    const byCall = input([said(6000, "You're booked.")], { tool_executions: [execution({ world_seq: undefined })], events: [event({ seq: 7 })] });
    expect(readGrounding(byCall).unbacked).toEqual([]);
    const neither = input([said(6000, "You're booked.")], { tool_executions: [execution({ world_seq: 2 })], events: [event({ cause: { trial: "b1#1", call_id: "c9" } })] });
    expect(readGrounding(neither).unbacked.length).toBe(1);
    const noCause = input([said(6000, "You're booked.")], { tool_executions: [execution({ world_seq: undefined })], events: [event({ cause: { trial: "b1#1" } })] });
    expect(readGrounding(noCause).unbacked.length).toBe(1);
  });

  it.each([
    ["a read", { kind: "read" as const }],
    ["a refused write", { outcome: "error" as const }],
  ])("%s backs no claim", (_, over) => {
    for (const line of booked) {
      const g = readGrounding(input([said(6000, line)], { tool_executions: [execution()], events: [event(over)] }));
      expect(g.unbacked.length, line).toBe(g.claims.length);
      expect(g.unbacked.every((u) => u.late === undefined), line).toBe(true);
      expect(describeClaim(g.unbacked[0]!), line).toMatch(/that no completed, successful write backs$/);
    }
  });

  it("a failed execution backs no claim, even when the world wrote", () => {
    const g = readGrounding(input([said(6000, "You're booked.")], { tool_executions: [execution({ status: "failed" })], events: [event()] }));
    expect(g.unbacked.length).toBe(1);
  });

  it("a write backs claims of its own outcome; one whose name says no outcome backs any", () => {
    const cancel = execution({ name: "cancel_reservation" });
    const submit = execution({ name: "submit_request" });
    for (const line of ["Reservation R-2040 is now cancelled.", "I have cancelled your reservation."]) {
      expect(readGrounding(input([said(6000, line)], { tool_executions: [cancel], events: [event()] })).unbacked, line).toEqual([]);
      expect(readGrounding(input([said(6000, line)], { tool_executions: [submit], events: [event()] })).unbacked, line).toEqual([]);
      expect(readGrounding(input([said(6000, line)], { tool_executions: [execution()], events: [event()] })).unbacked.length, line).toBe(1);
    }
    for (const line of ["Your reservation is confirmed.", "You're all set."]) {
      expect(readGrounding(input([said(6000, line)], { tool_executions: [cancel], events: [event()] })).unbacked, line).toEqual([]);
    }
  });

  it("the backing is the first write that completed before the claim; the late one the first after", () => {
    const early = execution({ call_id: "c1", completed_ms: 5000 });
    const late = execution({ call_id: "c2", completed_ms: 7000, world_seq: 2 });
    const later = execution({ call_id: "c3", completed_ms: 8000, world_seq: 3 });
    const events = [event(), event({ seq: 2, cause: { trial: "b1#1", call_id: "c2" } }), event({ seq: 3, cause: { trial: "b1#1", call_id: "c3" } })];
    expect(readGrounding(input([said(7500, "You're booked.")], { tool_executions: [late, early], events })).claims.map((c) => c.backing?.call_id)).toEqual(["c2"]);
    expect(readGrounding(input([said(6000, "You're booked.")], { tool_executions: [later, late], events })).unbacked.map((u) => u.late?.call_id)).toEqual(["c3"]);
  });

  it("describes a claim with its words, span and time", () => {
    const g = readGrounding(input([said(4000, "Your table has been reserved.")]));
    const u = g.unbacked[0]!;
    expect(describeClaim(u)).toBe(`${u.utterance.evidence_id} "${u.claim.text}" (chars ${u.claim.start}–${u.claim.end}, at 4000 ms) claims "booked" that no completed, successful write backs`);
    const any = readGrounding(input([said(4000, "Your reservation is confirmed.")])).unbacked[0]!;
    expect(describeClaim(any)).toContain("claims an outcome that no completed");
  });

  it("describes a value with its reading in words a reader knows", () => {
    const [u] = readGrounding(input([said(0, "Call 555-0199 or pay $12.50.")], { case_kind: "run" })).ungrounded;
    expect(describeValue(u!)).toBe(`${u!.utterance.evidence_id} "555-0199" (phone number 5550199, chars 5–13)`);
    const either = readGrounding(input([said(0, "How about at 8, then?")], { case_kind: "run" })).ungrounded[0]!;
    expect(describeValue(either)).toBe('utt.assistant.at.0 "8" (time 20:00 or 08:00, chars 13–14)');
    const amount = readGrounding(input([said(0, "Call 555-0199 or pay $12.50.")], { case_kind: "run" })).ungrounded[1]!;
    expect(describeValue(amount)).toContain('"$12.50" (amount 12.50, chars 21–27)');
  });
});

// ---- expected facts --------------------------------------------------------------------------------

const fact = (f: Record<string, unknown>) => ExpectedFact.parse(f);
/** The assistant's lines, one a second, as utt.assistant.1, 2, … */
const lines = (...texts: string[]): Utterance[] => texts.map((text, i) => ({ role: "assistant", text, start_ms: 1000 * (i + 1), end_ms: 1000 * (i + 1) + 900, evidence_id: `utt.assistant.${i + 1}` }));

describe("fact values", () => {
  it.each([
    ["August 7", { kind: "date", readings: ["08-07"] }],
    ["August 7!", { kind: "date", readings: ["08-07"] }],
    ["August 7 !", { kind: "text", words: ["august", "7"] }],
    ["August 7 x", { kind: "text", words: ["august", "7", "x"] }],
    ["August 7. ", { kind: "date", readings: ["08-07"] }],
    ["7:05", { kind: "time", readings: ["07:05"] }],
    ["19:00:00", { kind: "time", readings: ["19:00"] }],
    ["10 p.m.", { kind: "time", readings: ["22:00"] }],
    ["“Quay Street”", { kind: "text", words: ["quay", "st"] }],
    ["$12.50", { kind: "money", readings: ["12.50"] }],
    ["at 8 p.m.", { kind: "text", words: ["at", "8", "p", "m"] }],
    ["8 p.m. or later", { kind: "text", words: ["8", "p", "m", "or", "later"] }],
    ["8 p.m. to 10 p.m.", { kind: "text", words: ["8", "p", "m", "to", "10", "p", "m"] }],
    ["Ávenue Road", { kind: "text", words: ["ave", "rd"] }],
    ["12 Harbour Lane, Square Drive Boulevard", { kind: "text", words: ["12", "harbour", "ln", "sq", "dr", "blvd"] }],
  ])("%s", (value, expected) => {
    expect(factValue(value, RESTAURANT)).toEqual(expected);
  });
});

describe("facts the answer must contain", () => {
  const closing = fact({ key: "closing_time", value: "22:00" });

  it.each(["We close at 10 p.m.", "Closing is at ten in the evening.", "We're open till 22:00."])("a typed fact is found in any utterance: %s", (text) => {
    expect(checkFacts([closing], lines("Hello!", text), RESTAURANT)).toEqual([{ fact: closing, ok: true, detail: expect.stringMatching(/^closing_time: utt\.assistant\.2 ".+" \(time 22:00, chars \d+–\d+\) states 22:00$/), evidence_ids: ["utt.assistant.2"] }]);
  });

  it.each(["We close at 11 p.m.", "We close at 10:30 p.m.", "Call 555-0142."])("a typed fact not said fails, citing every utterance: %s", (text) => {
    expect(checkFacts([closing], lines("Hello!", text), RESTAURANT)).toEqual([{ fact: closing, ok: false, detail: 'closing_time: no time 22:00 ("22:00") was said', evidence_ids: ["utt.assistant.1", "utt.assistant.2"] }]);
  });

  it("a fact with two readings names both when neither was said", () => {
    const eight = fact({ key: "last_seating", value: "8 o'clock" });
    expect(checkFacts([eight], lines("Last seating is at 9 p.m."), RESTAURANT).map((v) => v.detail)).toEqual(['last_seating: no time 20:00 or 08:00 ("8 o\'clock") was said']);
    expect(checkFacts([eight], lines("Last seating is at 8 p.m."), RESTAURANT).map((v) => v.ok)).toEqual([true]);
  });

  it("a count fact given as a number", () => {
    const seats = fact({ key: "max_party", value: 8 });
    expect(checkFacts([seats], lines("Up to eight guests."), RESTAURANT).map((v) => v.ok)).toEqual([true]);
    expect(checkFacts([seats], lines("Up to ten guests."), RESTAURANT).map((v) => v.detail)).toEqual(['max_party: no count 8 ("8") was said']);
  });

  it("a typed fact said as it is written counts where no word around it cues its kind", () => {
    const seat = fact({ key: "seat", value: "21C" });
    expect(checkFacts([seat], lines("You're sitting in 21C on flight NW 214."), RESTAURANT).map((v) => [v.ok, v.detail])).toEqual([[true, 'seat: "21C" said in utt.assistant.1']]);
    expect(checkFacts([seat], lines("You're sitting in 21D on flight NW 214."), RESTAURANT).map((v) => v.ok)).toEqual([false]);
    expect(checkFacts([seat], lines("You're in seat two, one, C on flight NW 214."), RESTAURANT).map((v) => v.ok)).toEqual([true]);
    expect(checkFacts([seat], lines("You're in seat two, one, D on flight NW 214."), RESTAURANT).map((v) => v.ok)).toEqual([false]);
    const id = fact({ key: "reservation", value: "R-2040" });
    expect(checkFacts([id], lines("It's R 2040."), RESTAURANT).map((v) => v.ok)).toEqual([true]);
  });

  it("a words fact is found as the words in a row, in any utterance", () => {
    const address = fact({ key: "address", value: "14 Quay Street" });
    for (const text of ["We're at 14 Quay St.", "The address is 14 QUAY STREET."]) {
      expect(checkFacts([address], lines("Hi.", text), RESTAURANT), text).toEqual([{ fact: address, ok: true, detail: 'address: "14 Quay Street" said in utt.assistant.2', evidence_ids: ["utt.assistant.2"] }]);
    }
    for (const text of ["Quay Street, number 14.", "We're at 14 Quay.", "14 Quay Road."]) {
      expect(checkFacts([address], lines("Hi.", text), RESTAURANT), text).toEqual([{ fact: address, ok: false, detail: 'address: "14 Quay Street" was never said', evidence_ids: ["utt.assistant.1", "utt.assistant.2"] }]);
    }
  });

  it("a words fact holds its numbers however they are said: in digits, in words, digit by digit", () => {
    const address = fact({ key: "address", value: "14 Quay Street" });
    for (const text of ["We're at fourteen Quay Street.", "It's one four Quay St.", "Fourteen Quay Street, by the harbour."]) {
      expect(checkFacts([address], lines("Hi.", text), RESTAURANT)[0]!.ok, text).toBe(true);
    }
    for (const text of ["We're at forty Quay Street.", "It's four Quay Street."]) expect(checkFacts([address], lines("Hi.", text), RESTAURANT)[0]!.ok, text).toBe(false);
    const spelled = fact({ key: "address", value: "Twenty-Five Elm Road" });
    expect(checkFacts([spelled], lines("Hi.", "We're at 25 Elm Rd."), RESTAURANT)[0]!.ok).toBe(true);
  });

  it("a words fact at the very end of a line", () => {
    expect(checkFacts([fact({ key: "area", value: "the harbour" })], lines("We're down by the harbour"), RESTAURANT).map((v) => v.ok)).toEqual([true]);
    expect(checkFacts([fact({ key: "area", value: "the harbour" })], lines("the"), RESTAURANT).map((v) => v.ok)).toEqual([false]);
  });
});

describe("facts the answer must not contradict", () => {
  const closing = fact({ key: "closing_time", value: "22:00", must: "not_contradict", about: ["close"] });

  it.each(["We close at 11 p.m.", "Closing is at eleven at night.", "The kitchen closed at 23:00 yesterday."])("another value of its kind in a sentence about the topic contradicts it: %s", (text) => {
    const [v] = checkFacts([closing], lines("Welcome.", text, text), RESTAURANT);
    expect(v).toMatchObject({ ok: false, evidence_ids: ["utt.assistant.2", "utt.assistant.3"] });
    expect(v!.detail).toMatch(/^closing_time: utt\.assistant\.2 ".+" \(time 23:00, chars \d+–\d+\); utt\.assistant\.3 ".+" \(time 23:00, chars \d+–\d+\) contradicts 22:00$/);
  });

  it.each(["We close at 10 p.m.", "We open at 11 a.m.", "We close on August 7.", "Parking is free after 6 p.m.", "Our closet fits coats until 9 p.m."])("the same value, another kind, or another topic is no contradiction: %s", (text) => {
    expect(checkFacts([closing], lines(text), RESTAURANT)).toEqual([{ fact: closing, ok: true, detail: "closing_time: nothing said about close contradicts 22:00", evidence_ids: [] }]);
  });

  it("only the sentence about the topic counts, also after a time's abbreviation", () => {
    expect(checkFacts([closing], lines("We close at 10 p.m. Parking opens at 6 p.m."), RESTAURANT).map((v) => v.ok)).toEqual([true]);
    expect(checkFacts([closing], lines("Parking opens at 6 p.m. We close at 9 p.m."), RESTAURANT).map((v) => v.ok)).toEqual([false]);
    expect(checkFacts([closing], lines("Parking is free from 6 p.m. We close at 10 p.m."), RESTAURANT).map((v) => v.ok)).toEqual([true]);
    expect(checkFacts([closing], lines("Parking opens at 6 p.m. and we close at 10 p.m."), RESTAURANT).map((v) => v.ok)).toEqual([false]);
  });

  it("a value at the very start or end of the sentence about the topic counts", () => {
    expect(checkFacts([closing], lines("11 p.m. is when we close."), RESTAURANT).map((v) => v.detail)).toEqual(['closing_time: utt.assistant.1 "11 p.m." (time 23:00, chars 0–7) contradicts 22:00']);
    expect(checkFacts([closing], lines("We close at 23:00"), RESTAURANT).map((v) => v.detail)).toEqual(['closing_time: utt.assistant.1 "23:00" (time 23:00, chars 12–17) contradicts 22:00']);
  });

  it("cites an utterance once however many values in it contradict", () => {
    const [v] = checkFacts([closing], lines("We close at 11 p.m., or at 9 p.m. on Sundays.", "Thanks!"), RESTAURANT);
    expect(v!.evidence_ids).toEqual(["utt.assistant.1"]);
    expect(v!.detail).toContain('"11 p.m." (time 23:00, chars 12–19); utt.assistant.1 "9 p.m." (time 21:00');
  });

  it("names every topic word when nothing contradicts", () => {
    const either = fact({ key: "closing_time", value: "22:00", must: "not_contradict", about: ["close", "shut"] });
    expect(checkFacts([either], lines("We shut at 10 p.m."), RESTAURANT)[0]!.detail).toBe("closing_time: nothing said about close/shut contradicts 22:00");
    expect(checkFacts([either], lines("We shut at 9 p.m."), RESTAURANT)[0]!.ok).toBe(false);
  });

  it("a word that is the topic's stem without its final e is no form of it", () => {
    const room = fact({ key: "room_hours", value: "22:00", must: "not_contradict", about: ["use"] });
    expect(checkFacts([room], lines("The private room is yours to use until 10 p.m. Call us at 9 p.m. to book it."), RESTAURANT).map((v) => v.ok)).toEqual([true]);
    expect(checkFacts([room], lines("The private room is yours to use until 9 p.m."), RESTAURANT).map((v) => v.ok)).toEqual([false]);
  });

  it("a topic word is found in its forms", () => {
    const opening = fact({ key: "opening_time", value: "11:00", must: "not_contradict", about: ["Open"] });
    for (const text of ["We open at noon.", "We're opening at noon.", "The bar opens at noon.", "We opened at noon.", "An opener at noon."]) {
      expect(checkFacts([opening], lines(text), RESTAURANT)[0]!.ok, text).toBe(false);
    }
    expect(checkFacts([opening], lines("Our opening hours start at noon."), RESTAURANT).map((v) => v.ok)).toEqual([false]);
    const booking = fact({ key: "booking_line", value: "20:00", must: "not_contradict", about: ["book"] });
    expect(checkFacts([booking], lines("Our booker takes calls until 9 p.m."), RESTAURANT).map((v) => v.ok)).toEqual([false]);
    const closed = fact({ key: "closed_from", value: "22:00", must: "not_contradict", about: ["closed"] });
    expect(checkFacts([closed], lines("We are closed by 9 p.m."), RESTAURANT).map((v) => v.ok)).toEqual([false]);
    for (const text of ["Opens? Yes. Lunch is at noon.", "OpenTable lists lunch at noon."]) {
      expect(checkFacts([opening], lines(text), RESTAURANT)[0]!.ok, text).toBe(true);
    }
    const reserve = fact({ key: "hold", value: "15:00", must: "not_contradict", about: ["reserve"] });
    const sit = fact({ key: "seating", value: "18:00", must: "not_contradict", about: ["sit"] });
    expect(checkFacts([sit], lines("We sat them at 7 p.m."), RESTAURANT).map((v) => v.ok)).toEqual([false]);
    for (const text of ["Tables are reserved at 4 p.m.", "We reserve at 4 p.m.", "Reserving at 4 p.m. is fine.", "Our reserves last until 4 p.m."]) {
      expect(checkFacts([reserve], lines(text), RESTAURANT)[0]!.ok, text).toBe(false);
    }
  });

  it("a fact built without topic words (outside the schema) has no sentence to be contradicted in", () => {
    const bare: ExpectedFact = { key: "closing_time", value: "22:00", must: "not_contradict" };
    expect(checkFacts([bare], lines("We close at 11 p.m."), RESTAURANT)).toEqual([{ fact: bare, ok: true, detail: "closing_time: nothing said about  contradicts 22:00", evidence_ids: [] }]);
  });

  it("a words fact cannot be contradicted: the verdict says to use contain", () => {
    const address = fact({ key: "address", value: "14 Quay Street", must: "not_contradict", about: ["address"] });
    expect(checkFacts([address], lines("Our address is 16 Quay Street."), RESTAURANT)).toEqual([
      { fact: address, ok: false, detail: 'address: "14 Quay Street" is not a time, date, count, amount, phone number or record id, so it cannot be contradicted; use must "contain"', evidence_ids: [] },
    ]);
  });
});
