import { describe, expect, it } from "vitest";
import { PLAN } from "../crashlab/evaluations";
import { RESTAURANT_FACTS } from "../examples/restaurant/facts";
import { readClaims } from "../src/core/language/claims";
import { toolOutcome as outcomeOf } from "../src/core/language/vocabulary";
import { evidenceValues, inEvidence, readValues } from "../src/core/language/values";
import { Dataset, Scenario } from "../src/core/dataset/schema";
import type { ToolExecution, Turn } from "../src/core/record/trial-record";
import { grade, type GradingInput } from "../src/core/verify/deterministic";
import { factValue } from "../src/core/verify/grounding";
import { RESTAURANT } from "./restaurant-lexicon";

/**
 * Grounding reads speech through the language layer: values are normalized before they are compared, and
 * outcome claims are told apart from intentions, offers, failures and unavailability. Every assistant line
 * a test depends on is written in at least three ways.
 */

const values = (text: string) => readValues(text, { year: 2026, lexicon: RESTAURANT }).map((v) => `${v.kind}:${v.readings.join("/")}`);

describe("spoken values", () => {
  it.each([
    ["We close at 10 p.m.", "time:22:00"],
    ["We close at ten in the evening.", "time:22:00"],
    ["We close at 10 o'clock in the evening.", "time:22:00"],
    ["We close at ten at night.", "time:22:00"],
    ["Closing time is 22:00.", "time:22:00"],
    ["We're open till 10pm.", "time:22:00"],
    ["Your table is at 7:30 p.m.", "time:19:30"],
    ["Your table is at seven thirty in the evening.", "time:19:30"],
    ["Your table is at half past seven in the evening.", "time:19:30"],
    ["We open at 11 a.m.", "time:11:00"],
    ["We open at eleven in the morning.", "time:11:00"],
    ["Lunch starts at noon.", "time:12:00"],
  ])("%s → %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it("keeps both readings of an hour said without a half of the day", () => {
    expect(values("How about at 8?")).toEqual(["time:20:00/08:00"]);
    expect(values("How about at eight on Friday?")).toEqual(["time:20:00/08:00"]);
    expect(values("Closing is at ten o'clock.")).toEqual(["time:22:00/10:00"]);
  });

  it.each([
    ["You're down for August 7.", "date:2026-08-07"],
    ["You're down for the seventh of August.", "date:2026-08-07"],
    ["You're down for 2026-08-07.", "date:2026-08-07"],
    ["You're down for August 7th, 2026.", "date:2026-08-07"],
    ["You're down for Aug. 7.", "date:2026-08-07"],
    ["You're down for the 7th of August.", "date:2026-08-07"],
  ])("%s → %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it("reads a date without a year as month and day when no year is given", () => {
    expect(readValues("See you on August 7.", { lexicon: RESTAURANT }).map((v) => v.value)).toEqual(["08-07"]);
  });

  it.each([
    ["A table for two.", "count:2"],
    ["A table for 2.", "count:2"],
    ["That's six people.", "count:6"],
    ["A party of six.", "count:6"],
    ["Six guests, then.", "count:6"],
    ["A table for twenty five.", "count:25"],
  ])("%s → %s", (text, expected) => {
    expect(values(text)).toEqual([expected]);
  });

  it.each([
    "One moment while I book that.",
    "Sure, one moment please.",
    "Hold on for one moment.",
    "Which one would you like? That one?",
    "First, what name should I put it under?",
    "I'll check that at once.",
    "I can seat you at one of our bar tables.",
    "Give me a second.",
    "I have two options for you.",
    "Thank you for calling Harbor Table. Goodbye!",
  ])("no value in %s", (text) => {
    expect(values(text)).toEqual([]);
  });

  it("reads record ids, money, phone numbers and names", () => {
    expect(values("Reservation R-2040 is cancelled.")).toEqual(["reference:R2040"]);
    expect(values("That's r 2040.")).toEqual(["reference:R2040"]);
    expect(values("Reservation R2040, yes.")).toEqual(["reference:R2040"]);
    expect(values("Your reservation number is R-E58827.")).toEqual(["reference:RE58827"]);
    expect(values("Reservation 2040 is cancelled.")).toEqual(["reference:2040"]);
    expect(values("That's $12.50.")).toEqual(["money:12.50"]);
    expect(values("That's twelve dollars fifty.")).toEqual(["money:12.50"]);
    expect(values("That's twelve dollars and fifty cents.")).toEqual(["money:12.50"]);
    expect(values("Our number is 555-0142.")).toEqual(["phone:5550142"]);
    expect(values("Our number is 555 0142.")).toEqual(["phone:5550142"]);
    expect(values("Call (555) 014-2000.")).toEqual(["phone:5550142000"]);
    expect(values("It's under Maya.")).toEqual(["name:maya"]);
    expect(values("Book it for Jordan Lee.")).toEqual(["name:jordan lee"]);
    expect(values("Under the name Omar Haddad.")).toEqual(["name:omar haddad"]);
  });

  it("gives each value its span in the text", () => {
    const text = "You're booked: a table for two under Maya on August 14 at 7 p.m. Your reservation number is R-2040.";
    expect(readValues(text, { year: 2026, lexicon: RESTAURANT }).map((v) => [v.kind, v.value, v.text, text.slice(v.start, v.end)])).toEqual([
      ["count", "2", "two", "two"],
      ["name", "maya", "Maya", "Maya"],
      ["date", "2026-08-14", "August 14", "August 14"],
      ["time", "19:00", "7 p.m.", "7 p.m."],
      ["reference", "R2040", "R-2040", "R-2040"],
    ]);
  });

  it("finds the same values in JSON evidence: structured strings, numbers and free text", () => {
    const evidence = evidenceValues({ date: "2026-08-07", time: "19:00", party_size: 4, reservations: { "R-1002": { guest_name: "Maya" } }, note: "Street parking after 6 p.m." }, { lexicon: RESTAURANT });
    const said = (text: string) => readValues(text, { lexicon: RESTAURANT }).every((v) => inEvidence(v, evidence));
    expect(said("August 7 at seven in the evening for four people, reservation R-1002, under Maya.")).toBe(true);
    expect(said("Street parking starts at 6 p.m.")).toBe(true);
    expect(said("At 8 p.m.")).toBe(false);
    expect(said("August 8.")).toBe(false);
    expect(said("Reservation R-1003.")).toBe(false);
    expect(said("Under Priya.")).toBe(false);
    // The caller's own words, read liberally: "make it 7" grounds "7 p.m.".
    expect(readValues("Booked for 7 p.m.", { lexicon: RESTAURANT }).every((v) => inEvidence(v, evidenceValues("Please make it 7.", { lexicon: RESTAURANT })))).toBe(true);
  });
});

describe("outcome claims", () => {
  const kinds = (text: string) => readClaims(text, RESTAURANT).map((c) => c.kind);
  const toolOutcome = (name: string) => outcomeOf(RESTAURANT, name);
  it.each([
    ["You're booked: a table for two.", "created"],
    ["I've reserved it for you.", "created"],
    ["Done — it's booked.", "created"],
    ["Great, that's booked under Maya.", "created"],
    ["Your table has been reserved.", "created"],
    ["I've gone ahead and booked it.", "created"],
    ["Reservation R-2040 is now cancelled.", "cancelled"],
    ["I have cancelled your reservation.", "cancelled"],
    ["Your reservation's been canceled.", "cancelled"],
    ["Your booking has been moved to 8 p.m.", "updated"],
    ["I changed it to four people.", "updated"],
    ["I've rescheduled your reservation.", "updated"],
    ["You're all set: a table for two under Maya.", "any"],
    ["Your reservation is confirmed.", "any"],
  ])("%s claims %s", (text, kind) => {
    expect(kinds(text)).toContain(kind);
  });

  it("a question after a time ends no claim: compromise's sentence after 'p.m.' is split at the capital", () => {
    expect(kinds("You're booked at 7 p.m. Would you like anything else?")).toEqual(["created"]);
    expect(kinds("It's reserved for 8 p.m. Anything else?")).toEqual(["created"]);
    expect(kinds("We have a table at 7 p.m. Would you like me to book it?")).toEqual([]);
  });

  it("reads 'All set, the table is yours' as an outcome that names no action", () => {
    expect(kinds("All set, the table is yours.")).toEqual(["any", "any"]);
  });

  it.each([
    "One moment while I book that.",
    "Let me get that booked for you.",
    "I'll book it.",
    "I'm booking it now.",
    "Would you like me to book it?",
    "Shall I go ahead and cancel it?",
    "Just to confirm, you'd like me to cancel reservation R-2041.",
    "I couldn't book it.",
    "I'm sorry, I couldn't book a table for Maya: that time is fully booked.",
    "It isn't booked yet.",
    "Nothing is booked yet.",
    "No table has been reserved for you.",
    "Nobody has cancelled it.",
    "That time is fully booked.",
    "We're fully booked that night.",
    "I'm sorry, we don't have a table for six available on August 7 at 9 p.m. (that time is fully booked).",
    "All right, I won't cancel reservation R-2040; it stays as it is.",
    "I'm sorry, I couldn't cancel reservation R-1: that reservation was already cancelled.",
    "Once it's booked, I'll text you.",
    "I've confirmed that the table is available.",
    "Thank you for calling Harbor Table. Goodbye!",
  ])("no claim in %s", (text) => {
    expect(kinds(text)).toEqual([]);
  });

  it("maps tool names to the outcome they back", () => {
    expect([toolOutcome("create_reservation"), toolOutcome("bookTable"), toolOutcome("reserve")]).toEqual(["created", "created", "created"]);
    expect([toolOutcome("cancel_reservation"), toolOutcome("cancelBooking")]).toEqual(["cancelled", "cancelled"]);
    expect([toolOutcome("update_reservation"), toolOutcome("modify_booking"), toolOutcome("move_table"), toolOutcome("change_time")]).toEqual(["updated", "updated", "updated", "updated"]);
    expect(toolOutcome("check_availability")).toBeNull();
  });
});

// ---- grading ---------------------------------------------------------------------------------------

const booking = Scenario.parse({
  id: "g1",
  title: "booking",
  type: "booking",
  interaction: "single_turn",
  input: { text: "I'd like to book a table for two under Maya on August 14 at 7 p.m." },
  application: { initial_state: {} },
  expected: {
    answer: "Confirm the booking",
    delegation: "required",
    tools: { required: [{ name: "create_reservation", arguments: { guest_name: "Maya" } }] },
    state: {},
  },
});

const output = { reservation_id: "R-E58827", status: "confirmed", guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 };
const create: ToolExecution = {
  call_id: "c1",
  name: "create_reservation",
  arguments: { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 },
  raw_arguments: "{}",
  status: "completed",
  output,
  requested_ms: 5000,
  completed_ms: 5000,
  world_seq: 1,
};

function trial(assistant: Array<[number, string]>, over: Partial<GradingInput> = {}): GradingInput {
  const turns: Turn[] = [{ role: "user", text: booking.input.text, start_ms: 0, end_ms: 4000 }, ...assistant.map(([at, text]) => ({ role: "assistant" as const, text, start_ms: at, end_ms: at + 1000 }))];
  return {
    scenario: booking,
    case_kind: "crawl",
    completed: true,
    completion_note: "completed",
    turns,
    delegations: [{ delegation_id: "d1", target: "responses", created_ms: 4600 }],
    tool_executions: [create],
    world: {
      initial: {},
      final: {},
      view: {},
      events: [{ seq: 1, at_ms: 5000, operation: "create_reservation", kind: "write", args: create.arguments!, outcome: "ok", result: output, patches: [], cause: { trial: "g1#1", call_id: "c1" } }],
      diff: [],
    },
    facts: RESTAURANT_FACTS,
    lexicon: RESTAURANT,
    ...over,
  };
}

const checkOf = (g: ReturnType<typeof grade>, id: string) => g.checks.find((c) => c.id === id)!;

describe("grounded values and claims in grading", () => {
  const acknowledgements = ["One moment while I book that.", "Let me get that booked for you.", "Sure, I'll book it right away."];
  const relays = [
    "You're booked: a table for two under Maya on August 14 at 7 p.m. Your reservation number is R-E58827.",
    "Done — it's booked. Table for 2, Maya, the fourteenth of August at seven in the evening; reference R-E58827.",
    "All set, the table is yours: two people on 2026-08-14 at 19:00, reservation R-E58827.",
  ];

  it.each(relays.map((r, i) => [acknowledgements[i]!, r]))("passes an acknowledgement, then the relayed result: %s / %s", (ack, relay) => {
    const g = grade(trial([[4600, ack], [6000, relay]]));
    expect(checkOf(g, "grounded_response")).toMatchObject({ required: true, status: "passed" });
    expect(g.dimensions.grounded_relay_order!.status).toBe("passed");
  });

  const invented = ["You're booked for August 14 at 7 p.m.!", "Great news, I've reserved it for you.", "All set, the table is yours."];

  it.each(invented)("fails an outcome invented before the tool, though the real result is relayed after: %s", (claim) => {
    for (const case_kind of ["crawl", "run"]) {
      const g = grade(trial([[4600, claim], [6000, relays[0]!]], { case_kind }));
      expect(g.dimensions.grounded_relay_order).toMatchObject({ status: "failed" });
      expect(g.dimensions.grounded_relay_order!.rationale).toContain("utt.assistant.1");
      expect(g.dimensions.grounded_relay_order!.rationale).toContain("before create_reservation (c1) completed at 5000 ms");
      expect(g.dimensions.grounded_relay_order!.evidence_ids).toEqual(["utt.assistant.1", "tool.c1"]);
      const check = checkOf(g, "grounded_response");
      expect(check).toMatchObject({ required: true, status: "failed" });
      expect(check.rationale).toContain("outcome claimed before the result that backs it: utt.assistant.1");
    }
  });

  it.each(invented)("fails an invented outcome with nothing after it but a goodbye (RUN): %s", (claim) => {
    const g = grade(trial([[4600, claim], [6000, "Thank you for calling. Goodbye!"]], { case_kind: "run" }));
    expect(checkOf(g, "grounded_response").status).toBe("failed");
    expect(g.dimensions.grounded_relay_order!.status).toBe("failed");
  });

  it.each(invented)("fails an outcome claimed with no booking tool at all: %s", (claim) => {
    const g = grade(trial([[4600, claim]], { tool_executions: [], world: { initial: {}, final: {}, view: {}, events: [], diff: [] } }));
    expect(checkOf(g, "grounded_response").rationale).toContain("that no completed, successful write backs");
    expect(checkOf(g, "grounded_response").status).toBe("failed");
  });

  it("a cancellation claim is not backed by a booking", () => {
    const g = grade(trial([[6000, "Reservation R-E58827 is now cancelled."]]));
    expect(checkOf(g, "grounded_response").rationale).toContain('claims "cancelled" that no completed, successful write backs');
  });

  it("a write the world refused backs no claim", () => {
    const refused = trial([[6000, "You're booked: reservation R-E58827."]]);
    refused.world = { ...refused.world, events: [{ ...refused.world.events[0]!, outcome: "error" }] };
    expect(checkOf(grade(refused), "grounded_response").status).toBe("failed");
  });

  it.each([
    ["You're booked: a table for two under Maya on August 14 at 8 p.m.", "8 p.m.", "time 20:00"],
    ["You're booked for the fifteenth of August.", "the fifteenth of August", "date 08-15"],
    ["You're booked: a table for three under Maya.", "three", "count 3"],
    ["You're booked under Priya.", "Priya", "name priya"],
    ["Your reservation number is R-9999.", "R-9999", "record id R9999"],
  ])("fails a value no evidence holds, citing the utterance and span: %s", (relay, span, reading) => {
    const g = grade(trial([[6000, relay]]));
    const check = checkOf(g, "grounded_response");
    expect(check.status).toBe("failed");
    const start = relay.indexOf(span);
    expect(check.rationale).toContain(`utt.assistant.1 "${span}" (${reading}, chars ${start}–${start + span.length})`);
    expect(check.evidence_ids).toContain("utt.assistant.1");
  });

  it("evidence counts only from before the utterance: an id read out before the tool returned it is ungrounded", () => {
    const g = grade(trial([[4600, "Your reservation number is R-E58827."], [6000, relays[0]!]]));
    expect(checkOf(g, "grounded_response").rationale).toContain('utt.assistant.1 "R-E58827"');
  });

  it("the caller's earlier words, the context and the public facts ground values without a tool", () => {
    const ask = Scenario.parse({ ...booking, id: "g2", type: "clarification", expected: { answer: "ask", delegation: "forbidden", state: {} } });
    const quiet = { initial: {}, final: {}, view: {}, events: [], diff: [] };
    for (const line of ["A table for two on August 14 at 7 p.m. under Maya — could you confirm?", "So that's 2 people, the 14th of August, seven in the evening?", "Two guests on 2026-08-14 at 19:00, right?"]) {
      const g = grade(trial([[4600, line]], { scenario: ask, tool_executions: [], world: quiet, delegations: [] }));
      expect(checkOf(g, "grounded_response"), line).toMatchObject({ status: "passed" });
    }
    const withContext = Scenario.parse({ ...ask, input: { text: "Cancel it, please.", context: { summary: "The caller's reservation is R-2040 for Friday." } } });
    const g = grade(trial([[4600, "Just to confirm: reservation R-2040?"]], { scenario: withContext, tool_executions: [], world: quiet, delegations: [] }));
    expect(checkOf(g, "grounded_response").status).toBe("passed");
  });

  it("in RUN, the caller's line counts only once it has ended", () => {
    const conversation = trial([[3000, "Under Priya, then?"]], { case_kind: "run", tool_executions: [], world: { initial: {}, final: {}, view: {}, events: [], diff: [] } });
    conversation.turns = [{ role: "user", text: "It's under Priya.", start_ms: 2000, end_ms: 3500 }, conversation.turns[1]!];
    expect(checkOf(grade(conversation), "grounded_response").status).toBe("failed");
    conversation.turns = [{ role: "user", text: "It's under Priya.", start_ms: 1000, end_ms: 2500 }, conversation.turns[1]!];
    expect(checkOf(grade(conversation), "grounded_response").status).toBe("passed");
  });
});

// ---- expected facts --------------------------------------------------------------------------------

const closing = Scenario.parse({
  id: "f1",
  title: "closing time",
  type: "information",
  interaction: "single_turn",
  input: { text: "What time does the restaurant close?" },
  application: { initial_state: {} },
  expected: {
    answer: "Say it closes at 10 p.m.",
    delegation: "forbidden",
    facts: [
      { key: "closing_time", value: "22:00", must: "contain" },
      { key: "closing_time", value: "22:00", must: "not_contradict", about: ["close"] },
    ],
  },
});

function answer(text: string, scenario = closing): GradingInput {
  return {
    scenario,
    case_kind: "crawl",
    completed: true,
    completion_note: "completed",
    turns: [
      { role: "user", text: scenario.input.text, start_ms: 0, end_ms: 2000 },
      { role: "assistant", text, start_ms: 2600, end_ms: 5000 },
    ],
    delegations: [],
    tool_executions: [],
    world: { initial: {}, final: {}, view: {}, events: [], diff: [] },
    facts: RESTAURANT_FACTS,
    lexicon: RESTAURANT,
  };
}

describe("expected facts", () => {
  it.each(["We close at 10 p.m.", "Harbor Table is open daily from 11 a.m. until ten in the evening.", "Our kitchen closes at 22:00 every day.", "We're open till 10pm."])("passes a correct closing time without a tool: %s", (text) => {
    const g = grade(answer(text));
    expect(checkOf(g, "expected_facts")).toMatchObject({ required: true, status: "passed" });
    expect(checkOf(g, "grounded_response").status).toBe("passed");
  });

  it.each(["We close at 11 p.m.", "Harbor Table is open daily from 11 a.m. until eleven at night.", "Our kitchen closes at 23:00 every day."])("fails a wrong closing time without a tool, on both checks: %s", (text) => {
    const g = grade(answer(text));
    const facts = checkOf(g, "expected_facts");
    expect(facts).toMatchObject({ required: true, status: "failed" });
    expect(facts.rationale).toContain('closing_time: no time 22:00 ("22:00") was said');
    expect(checkOf(g, "grounded_response").status).toBe("failed");
    expect(checkOf(g, "grounded_response").rationale).toContain("time 23:00");
  });

  it.each(["We close at 10 p.m. — sorry, we close at 11 p.m. on weekends.", "Closing is at 11 p.m.; last orders by 10 p.m.", "We usually close around 9 p.m., at the latest 10 p.m."])(
    "fails a contradiction near the topic even when the fact is also said: %s",
    (text) => {
      const facts = checkFacts(text);
      expect(facts.status).toBe("failed");
      expect(facts.rationale).toContain("contradicts 22:00");
    },
  );
  const checkFacts = (text: string) => checkOf(grade({ ...answer(text), facts: { hours: { open: "11:00", close: "22:00" }, late: "23:00", early: "21:00" } }), "expected_facts");

  it("does not call another time a contradiction when it is about something else", () => {
    expect(checkFacts("We close at 10 p.m. Street parking is free after 6 p.m.").status).toBe("passed");
  });

  it("finds words and typed values in facts: an address, a phone number", () => {
    expect(factValue("14 Quay Street", RESTAURANT)).toEqual({ kind: "text", words: ["14", "quay", "st"] });
    expect(factValue("555-0142", RESTAURANT)).toEqual({ kind: "phone", readings: ["5550142"] });
    expect(factValue("10 p.m.", RESTAURANT)).toEqual({ kind: "time", readings: ["22:00"] });
    expect(factValue(4, RESTAURANT)).toEqual({ kind: "count", readings: ["4"] });
    const address = Scenario.parse({ ...closing, expected: { answer: "address", facts: [{ key: "address", value: "14 Quay Street" }] } });
    for (const text of ["We're at 14 Quay Street.", "You'll find us at 14 Quay St.", "The address is 14 quay street, by the harbor."]) expect(checkOf(grade(answer(text, address)), "expected_facts").status, text).toBe("passed");
    expect(checkOf(grade(answer("We're at 16 Quay Street.", address)), "expected_facts").status).toBe("failed");
    const phone = Scenario.parse({ ...closing, expected: { answer: "phone", facts: [{ key: "phone", value: "555-0142" }] } });
    for (const text of ["Our phone number is 555-0142.", "Call us on 555 0142.", "It's 555-0142, any time."]) expect(checkOf(grade(answer(text, phone)), "expected_facts").status, text).toBe("passed");
    expect(checkOf(grade(answer("Our phone number is 555-0143.", phone)), "expected_facts").status).toBe("failed");
  });

  it("does not apply without facts", () => {
    const none = Scenario.parse({ ...closing, expected: { answer: "x" } });
    expect(checkOf(grade(answer("We close at 10 p.m.", none)), "expected_facts")).toEqual({ id: "expected_facts", required: false, status: "not_applicable", rationale: "no expected facts", evidence_ids: [] });
  });

  it("rejects a not_contradict fact without its topic, naming the field", () => {
    const bad = { ...closing, expected: { answer: "x", facts: [{ key: "closing_time", value: "22:00", must: "not_contradict" }] } };
    const result = Dataset.safeParse({ schema_version: "1.0", scenarios: [bad] });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error!.issues)).toContain('a \\"not_contradict\\" fact needs \\"about\\"');
    expect(result.error!.issues[0]!.path).toEqual(["scenarios", 0, "expected", "facts", 0, "about"]);
  });

  it("the bundled facts cases state their facts", () => {
    const withFacts = PLAN.cases.filter((c) => c.scenario.expected.facts?.length).map((c) => c.id);
    for (const id of ["harbor_024", "harbor_025", "harbor_026", "harbor_027", "harbor_028", "harbor_024_clean", "harbor_024_telephony", "harbor_028_realistic"]) expect(withFacts).toContain(id);
  });
});
