// Grounding rules, first half of grounding.ts: the evidence timeline (world's words, history roles, event results, caller acts), supersession by words and by acts and its time bounds, a claim's values against its backing write (arguments, output, world event, own sentence, names, enum kinds), strict result and fact values, and the availability reader.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { airlineWorld } from "../examples/airline/crashlab/worlds/airline";
import type { ToolExecution, Turn } from "../src/core/record/trial-record";
import { GENERIC, lexiconOf, type Lexicon } from "../src/core/language/vocabulary";
import {
  availabilitySaid,
  describeContradiction,
  readGrounding,
  resultValues,
  supersessionsByActs,
  supersessionsInWords,
  topicalValues,
  type GroundingCallerLine,
  type GroundingInput,
  type Utterance,
} from "../src/core/verify/grounding";
import type { Json, WorldEvent } from "../src/core/world/types";
import { clinicWorld, scenarioWith } from "./grading-rules-fixtures";
import { RESTAURANT } from "./restaurant-lexicon";

/**
 * Each rule is checked in more than one domain (restaurant, clinic, airline, and a small visits world with
 * two enum fields that share a value), with the lines generated from parts where the rule is about wording,
 * and at its time bounds (equal, one millisecond before, one after) where it is about order.
 */

const CLINIC = lexiconOf(clinicWorld);
const AIRLINE = lexiconOf(airlineWorld);
/** A visits world: a department and a referral share "cardiology" (one span, two kinds); a wing is a third kind. */
const VISITS = lexiconOf({
  operations: {
    book_visit: {
      kind: "write",
      effect: "create",
      entity: "visit",
      args: z.strictObject({ patient: z.string(), department: z.enum(["cardiology", "dermatology", "general_practice"]), referral: z.enum(["cardiology", "radiology"]), wing: z.enum(["east_wing", "west_wing"]) }),
    },
  },
  vocabulary: { verbs: { book: "create" } },
});

/** A JSON object, as tool arguments, outputs and event results are. */
type Obj = { [key: string]: Json };

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** A sentence ending in one full stop, whether its last word ("p.m.") already has one. */
const stop = (s: string) => (s.endsWith(".") ? s : `${s}.`);
const said = (start_ms: number, text: string, n = 1): Utterance => ({ role: "assistant", text, start_ms, end_ms: start_ms + 800, evidence_id: `utt.assistant.${n}` });
const user = (start_ms: number, end_ms: number, text: string): Turn => ({ role: "user", text, start_ms, end_ms });

function execution(over: Partial<ToolExecution> & Pick<ToolExecution, "call_id" | "name">): ToolExecution {
  const completed_ms = over.completed_ms ?? 5000;
  return { arguments: {}, raw_arguments: "{}", status: "completed", output: null, requested_ms: completed_ms - 200, completed_ms, ...over };
}

function event(seq: number, call_id: string, at_ms: number, over: Partial<WorldEvent> = {}): WorldEvent {
  return { seq, at_ms, operation: "op", kind: "write", args: {}, outcome: "ok", result: {}, patches: [], cause: { trial: "t#1", call_id }, ...over };
}

/** A grounding input: the request (CRAWL unless told), an optional context, and everything else as given. */
function input(text: string, over: Partial<GroundingInput> & { context?: Record<string, unknown> } = {}): GroundingInput {
  const { context, ...rest } = over;
  const base = scenarioWith(text, []);
  const scenario = context ? { ...base, input: { ...base.input, context } } : base;
  return { scenario: scenario as GroundingInput["scenario"], case_kind: "crawl", turns: [], utterances: [], tool_executions: [], events: [], ...rest };
}

/** Each spoken value as `text: grounded|superseded|ungrounded`. */
function verdicts(g: ReturnType<typeof readGrounding>): string[] {
  return g.spoken.map((s) => `${s.value.text}: ${s.grounded ? "grounded" : g.superseded.some((x) => x.utterance === s.utterance && x.value.start === s.value.start) ? "superseded" : "ungrounded"}`);
}

const brief = (s: { kind: string; readings: string[]; replaced_by: string }) => `${s.kind} ${s.readings.join("|")} → ${s.replaced_by}`;

// ── The evidence timeline ────────────────────────────────────────────────────────────────────────────

describe("the evidence a value is grounded in is read with the world's words", () => {
  // Record ids only the world's id cues make ids ("booking", an operation's entity): generic English reads none here.
  const cases: Array<{ domain: string; lexicon: Lexicon; evidence: string; line: string; value: string }> = [
    { domain: "restaurant", lexicon: RESTAURANT, evidence: "The caller holds booking 2040.", line: "Booking 2040, is that right?", value: "2040" },
    { domain: "restaurant", lexicon: RESTAURANT, evidence: "Their booking 7315 is for Friday.", line: "I see booking 7315 on file.", value: "7315" },
    { domain: "clinic", lexicon: CLINIC, evidence: "The patient has appointment 4417 with Dr Osei.", line: "Appointment 4417, is that right?", value: "4417" },
    { domain: "airline", lexicon: AIRLINE, evidence: "The passenger sits in seat 14C.", line: "You're in seat 14C, correct?", value: "14C" },
    { domain: "airline", lexicon: AIRLINE, evidence: "Record locator 8812 is on file.", line: "Locator 8812, is that right?", value: "8812" },
  ];

  for (const c of cases) {
    it(`${c.domain}: "${c.evidence}" grounds "${c.line}" from the context, the facts and the request alike`, () => {
      const line = said(1000, c.line);
      const read = (g: ReturnType<typeof readGrounding>) => g.spoken.filter((s) => s.value.kind === "reference").map((s) => [s.value.value, s.grounded]);
      expect(read(readGrounding(input("Please help me.", { lexicon: c.lexicon, context: { summary: c.evidence }, utterances: [line] })))).toEqual([[c.value, true]]);
      expect(read(readGrounding(input("Please help me.", { lexicon: c.lexicon, facts: { note: c.evidence }, utterances: [line] })))).toEqual([[c.value, true]]);
      expect(read(readGrounding(input(c.evidence, { lexicon: c.lexicon, utterances: [line] })))).toEqual([[c.value, true]]);
      // Without it, nothing holds the id.
      expect(read(readGrounding(input("Please help me.", { lexicon: c.lexicon, utterances: [line] })))).toEqual([[c.value, false]]);
    });
  }
});

describe("the context's history: the caller's lines correct, the assistant's never do", () => {
  const domains = [
    { domain: "restaurant", first: "two people", then: "four people", line: "Two people, then.", value: "Two people", replaced: "4" },
    { domain: "clinic", first: "September 14", then: "September 15", line: "September 14, then.", value: "September 14", replaced: "09-15" },
  ];
  for (const d of domains) {
    it(`${d.domain}: a correction in a user line of the history supersedes; the same words in an assistant line do not`, () => {
      for (const cue of ["sorry", "actually", "I mean"]) {
        const byCaller = input("Yes, please book it.", { context: { history: [{ role: "user", text: `Book it for ${d.first}, ${cue}, ${d.then}.` }] }, utterances: [said(1000, d.line)] });
        const g = readGrounding(byCaller);
        expect(g.superseded.map((s) => [s.value.text, s.supersession.replaced_by, s.supersession.at_ms]), cue).toEqual([[d.value, d.replaced, -1]]);
        const byAssistant = input("Yes, please book it.", {
          context: { history: [{ role: "user", text: `Book it for ${d.first}.` }, { role: "assistant", text: `${cap(cue)}, I have ${d.then} down.` }] },
          utterances: [said(1000, d.line)],
        });
        expect(readGrounding(byAssistant).superseded, cue).toEqual([]);
        expect(verdicts(readGrounding(byAssistant)), cue).toEqual([`${d.value}: grounded`]);
      }
    });
  }
});

describe("a world event's result grounds every kind of value, from when it happened", () => {
  const cases: Array<{ domain: string; result: Obj; line: string }> = [
    { domain: "restaurant", result: { reservation_id: "R-3300", party_size: 3 }, line: "Reservation R-3300, for three people." },
    { domain: "clinic", result: { appointment_id: "C-771", visits_left: 2 }, line: "Appointment C-771, and two visits left." },
  ];
  for (const c of cases) {
    it(`${c.domain}: values only the event's result holds`, () => {
      const events = [event(1, "c1", 5000, { args: {}, result: c.result })];
      const at = (ms: number) => readGrounding(input("Please help me.", { lexicon: c.domain === "clinic" ? CLINIC : RESTAURANT, events, utterances: [said(ms, c.line)] })).spoken.map((s) => s.grounded);
      expect(at(5000)).toEqual([true, true]);
      expect(at(5001)).toEqual([true, true]);
      expect(at(4999)).toEqual([false, false]);
    });
  }
});

describe("RUN: the caller's acts decide corrections when any line carries them; otherwise the words do", () => {
  it("a line without acts among lines with acts: the acts still decide", () => {
    const turns = [user(0, 500, "It's for two people."), user(1000, 1500, "Let me think."), user(3000, 3500, "We'll be six.")];
    const caller: GroundingCallerLine[] = [
      { start_ms: 0, end_ms: 500, acts: [{ kind: "give", field: "party_size", value: 2 }] },
      { start_ms: 1000, end_ms: 1500 },
      { start_ms: 3000, end_ms: 3500, acts: [{ kind: "correct", field: "party_size", value: 6 }] },
    ];
    const g = readGrounding(input("unused", { case_kind: "run", turns, caller, utterances: [said(4000, "A table for two people, then.")] }));
    expect(g.superseded.map((s) => s.supersession)).toEqual([{ kind: "count", readings: ["2"], at_ms: 3500, replaced_by: "6" }]);
  });

  it("caller lines that carry no acts at all: a correction in the words supersedes", () => {
    for (const [first, then, line, replaced] of [
      ["Two people, please.", "Sorry, four people.", "A table for two people, then.", "4"],
      ["September 14, please.", "Actually, September 15.", "September 14, then.", "09-15"],
    ] as const) {
      const turns = [user(0, 500, first), user(3000, 3500, then)];
      const caller: GroundingCallerLine[] = [
        { start_ms: 0, end_ms: 500 },
        { start_ms: 3000, end_ms: 3500 },
      ];
      const g = readGrounding(input("unused", { case_kind: "run", turns, caller, utterances: [said(4000, line)] }));
      expect(g.superseded.map((s) => [s.supersession.replaced_by, s.supersession.at_ms]), line).toEqual([[replaced, 3500]]);
    }
  });
});

// ── Supersession from the caller's words ───────────────────────────────────────────────────────────

describe("supersession from the caller's words", () => {
  const cues = ["sorry", "actually", "no wait", "I mean", "make that"];

  it("names are never superseded, and a correction after a name takes the next value that is no name", () => {
    for (const [a, b] of [["Maya", "Noah"], ["Omar", "Lena"]]) {
      for (const cue of cues) {
        const one = (text: string) => supersessionsInWords([{ text, at_ms: 0, caller: true }]).map(brief);
        expect(one(`Under ${a}, ${cue}, under ${b}, for two people.`), cue).toEqual([]);
        expect(one(`Two people under ${a}, ${cue}, under ${b}, four people.`), cue).toEqual(["count 2 → 4"]);
      }
    }
    // And the assistant repeating the first name is grounded: the caller said it.
    const g = readGrounding(input("Book it under Maya, sorry, under Noah, for two people.", { utterances: [said(1000, "It's under Maya, for two people.")] }));
    expect(verdicts(g)).toEqual(["Maya: grounded", "two people: grounded"]);
  });

  it("values are read with the world's words: guests, visits, bags and seats count only there", () => {
    const cases: Array<[Lexicon, string, string, string]> = [
      [RESTAURANT, "four guests", "six guests", "count 4 → 6"],
      [CLINIC, "two visits", "three visits", "count 2 → 3"],
      [AIRLINE, "two bags", "three bags", "count 2 → 3"],
      [AIRLINE, "seat 12A", "seat 14C", "reference 12A → 14C"],
    ];
    for (const [lexicon, first, then, expected] of cases) {
      for (const cue of ["sorry", "actually", "I mean"]) {
        const text = `${cap(first)}, ${cue}, ${then}.`;
        expect(supersessionsInWords([{ text, at_ms: 0, caller: true }], lexicon).map(brief), text).toEqual([expected]);
        // Generic English reads no value in them.
        expect(supersessionsInWords([{ text, at_ms: 0, caller: true }], GENERIC), text).toEqual([]);
      }
    }
  });

  it("a line the caller did not say corrects nothing, even when it follows the caller's words with another value", () => {
    for (const [first, other] of [["Two people at 7 p.m.", "Four people at 8 p.m."], ["September 14 at 9 a.m.", "September 15 at 10 a.m."]]) {
      expect(supersessionsInWords([{ text: first, at_ms: 0, caller: true }, { text: other, at_ms: 1000, caller: false }])).toEqual([]);
      expect(supersessionsInWords([{ text: first, at_ms: 0, caller: true }, { text: `Sorry, ${other.toLowerCase()}`, at_ms: 1000, caller: false }])).toEqual([]);
    }
  });

  it("a cue after every value corrects nothing; one between values still corrects", () => {
    for (const cue of cues) {
      const one = (text: string) => supersessionsInWords([{ text, at_ms: 0, caller: true }]).map(brief);
      expect(one(`Two people at 7 p.m., ${cue}.`), cue).toEqual([]);
      expect(one(`August 7, ${cue}, August 6, ${cue}.`), cue).toEqual(["date 08-07 → 08-06"]);
    }
  });

  it("the latest earlier value of the corrected kind is the one replaced", () => {
    const one = (text: string) => supersessionsInWords([{ text, at_ms: 0, caller: true }]).map(brief);
    expect(one("Two people, no wait, three people, sorry, four people.")).toEqual(["count 2 → 3", "count 3 → 4"]);
    expect(one("September 14, actually September 15, no wait, September 16.")).toEqual(["date 09-14 → 09-15", "date 09-15 → 09-16"]);
    // Across lines, the latest before the cue.
    expect(supersessionsInWords([{ text: "Two people.", at_ms: 0, caller: true }, { text: "Three people.", at_ms: 1000, caller: true }, { text: "Sorry, four people.", at_ms: 2000, caller: true }]).map(brief)).toEqual(["count 3 → 4"]);
    // A value of another kind in between is not the one replaced.
    expect(one("Two people on August 7, sorry, three people.")).toEqual(["count 2 → 3"]);
    expect(one("September 14 for two people, actually September 15.")).toEqual(["date 09-14 → 09-15"]);
    expect(one("Seat 12A for two bags, sorry, seat 14C.")).toEqual([]);
    expect(supersessionsInWords([{ text: "Seat 12A for two bags, sorry, seat 14C.", at_ms: 0, caller: true }], AIRLINE).map(brief)).toEqual(["reference 12A → 14C"]);
  });
});

// ── Supersession from the caller's acts ────────────────────────────────────────────────────────────

describe("supersession from the caller's acts", () => {
  const line = (end_ms: number, ...acts: Array<{ kind: string; field?: string; value?: unknown }>): GroundingCallerLine => ({ start_ms: end_ms - 500, end_ms, acts });

  it("a structured value (a seat, a time, a date, an id) is read exactly", () => {
    for (const [field, a, b, expected] of [
      ["seat", "12A", "14C", "reference 12A → 14C"],
      ["time", "19:00", "20:30", "time 19:00 → 20:30"],
      ["date", "2026-09-14", "2026-09-15", "date 2026-09-14 → 2026-09-15"],
      ["reservation_id", "R-2040", "R-2041", "reference R2040 → R2041"],
    ] as const) {
      expect(supersessionsByActs([line(1000, { kind: "give", field, value: a }), line(2000, { kind: "correct", field, value: b })]).map(brief), field).toEqual([expected]);
    }
  });

  it("a spoken value is read with the world's words", () => {
    for (const [lexicon, a, b, expected] of [
      [RESTAURANT, "two guests", "six guests", "count 2 → 6"],
      [CLINIC, "two visits", "three visits", "count 2 → 3"],
      [AIRLINE, "two bags", "three bags", "count 2 → 3"],
    ] as const) {
      const acts = [line(1000, { kind: "give", field: "size", value: a }), line(2000, { kind: "correct", field: "size", value: b })];
      expect(supersessionsByActs(acts, lexicon).map(brief), a).toEqual([expected]);
      expect(supersessionsByActs(acts).map(brief), a).toEqual([]);
    }
  });

  it("a value that is a name, several values or none is not one value: nothing is superseded", () => {
    for (const [a, b] of [
      ["under Maya", "under Noah"],
      ["the name is Omar Haddad", "the name is Lena Haddad"],
      ["two people at 7 p.m.", "four people at 7 p.m."],
      ["September 14 at 9 a.m.", "September 15 at 9 a.m."],
      ["whenever suits", "as soon as possible"],
    ]) {
      expect(supersessionsByActs([line(1000, { kind: "give", field: "x", value: a }), line(2000, { kind: "correct", field: "x", value: b })]), a).toEqual([]);
    }
  });

  it("only give and correct acts with a field count", () => {
    for (const kind of ["confirm", "ask", "deny"]) {
      expect(supersessionsByActs([line(1000, { kind, field: "time", value: "8 p.m." }), line(2000, { kind: "correct", field: "time", value: "7 p.m." })]), kind).toEqual([]);
    }
    // Without a field, a value belongs to nothing a correction could replace.
    expect(supersessionsByActs([line(1000, { kind: "give", value: 2 }), line(2000, { kind: "correct", value: 6 })])).toEqual([]);
    expect(supersessionsByActs([line(1000, { kind: "give", field: "party_size", value: 2 }), line(2000, { kind: "correct", value: 6 })])).toEqual([]);
    // The same with the field: a correction.
    expect(supersessionsByActs([line(1000, { kind: "give", field: "party_size", value: 2 }), line(2000, { kind: "correct", field: "party_size", value: 6 })]).map(brief)).toEqual(["count 2 → 6"]);
    // A line without acts among them changes nothing.
    expect(supersessionsByActs([line(1000, { kind: "give", field: "party_size", value: 2 }), { start_ms: 1500, end_ms: 1800 }, line(2000, { kind: "correct", field: "party_size", value: 6 })]).map(brief)).toEqual(["count 2 → 6"]);
  });

  it("a correction replaces only an earlier value of its own kind; an unreadable earlier value is none", () => {
    expect(supersessionsByActs([line(1000, { kind: "give", field: "when", value: "2026-08-12" }), line(2000, { kind: "correct", field: "when", value: "7 p.m." })])).toEqual([]);
    expect(supersessionsByActs([line(1000, { kind: "give", field: "when", value: "19:00" }), line(2000, { kind: "correct", field: "when", value: "2026-08-13" })])).toEqual([]);
    expect(supersessionsByActs([line(1000, { kind: "give", field: "party_size", value: "a few" }), line(2000, { kind: "correct", field: "party_size", value: 6 })])).toEqual([]);
    expect(supersessionsByActs([line(1000, { kind: "give", field: "party_size", value: true }), line(2000, { kind: "correct", field: "party_size", value: 6 })])).toEqual([]);
    // A correction as the first word on a field replaces nothing.
    expect(supersessionsByActs([line(2000, { kind: "correct", field: "party_size", value: 6 })])).toEqual([]);
  });
});

// ── When a supersession applies ────────────────────────────────────────────────────────────────────

describe("a supersession applies from the moment the correction ended, to words said before it", () => {
  const domains = [
    { domain: "restaurant", first: "two people", then: "four people", again: "Let's go with two people after all.", replaced: "4" },
    { domain: "clinic", first: "September 14", then: "September 15", again: "Let's go with September 14 after all.", replaced: "09-15" },
  ];
  for (const d of domains) {
    it(`${d.domain}: the old value is grounded until the correction ended and superseded from then on (equal, before, after)`, () => {
      for (const cue of ["Sorry", "Actually", "No wait"]) {
        const turns = [user(0, 500, `${cap(d.first)}, please.`), user(2000, 3000, `${cue}, ${d.then}.`)];
        const line = `${cap(d.first)}, then.`;
        const g = readGrounding(input("unused", { case_kind: "run", turns, utterances: [said(2999, line, 1), said(3000, line, 2), said(3001, line, 3)] }));
        expect(g.spoken.map((s) => [s.utterance.start_ms, s.grounded]), cue).toEqual([
          [2999, true],
          [3000, false],
          [3001, false],
        ]);
        expect(g.superseded.map((s) => [s.utterance.start_ms, s.supersession.replaced_by, s.supersession.at_ms]), cue).toEqual([
          [3000, d.replaced, 3000],
          [3001, d.replaced, 3000],
        ]);
      }
    });

    it(`${d.domain}: the caller's line grounds from the moment it ended (equal, before)`, () => {
      const turns = [user(1000, 3000, `${cap(d.then)}, please.`)];
      const line = `${cap(d.then)}, then.`;
      const g = readGrounding(input("unused", { case_kind: "run", turns, utterances: [said(2999, line, 1), said(3000, line, 2)] }));
      expect(g.spoken.map((s) => [s.utterance.start_ms, s.grounded])).toEqual([
        [2999, false],
        [3000, true],
      ]);
      expect(g.ungrounded.map((u) => u.utterance.start_ms)).toEqual([2999]);
    });

    it(`${d.domain}: words said again after the correction are not taken back by it`, () => {
      const correction = user(0, 500, `${cap(d.first)}, sorry, ${d.then}.`);
      const line = said(3000, `${cap(d.first)}, then.`);
      const again = readGrounding(input("unused", { case_kind: "run", turns: [correction, user(2000, 2500, d.again)], utterances: [line] }));
      expect(again.superseded).toEqual([]);
      expect(again.spoken.map((s) => s.grounded)).toEqual([true]);
      const once = readGrounding(input("unused", { case_kind: "run", turns: [correction], utterances: [line] }));
      expect(once.superseded.map((s) => s.supersession.replaced_by)).toEqual([d.replaced]);
    });
  }

  it("with acts: a give after the correction makes the old value current again", () => {
    const turns = [user(0, 500, "It's for two people."), user(1000, 1500, "We'll be six."), user(2000, 2500, "Two people after all.")];
    const caller: GroundingCallerLine[] = [
      { start_ms: 0, end_ms: 500, acts: [{ kind: "give", field: "party_size", value: 2 }] },
      { start_ms: 1000, end_ms: 1500, acts: [{ kind: "correct", field: "party_size", value: 6 }] },
      { start_ms: 2000, end_ms: 2500, acts: [{ kind: "give", field: "party_size", value: 2 }] },
    ];
    const at = (ms: number) => readGrounding(input("unused", { case_kind: "run", turns, caller, utterances: [said(ms, "Two people, then.")] }));
    expect(at(1800).superseded.map((s) => s.supersession.at_ms)).toEqual([1500]);
    expect(at(3000).superseded).toEqual([]);
    expect(at(3000).spoken.map((s) => s.grounded)).toEqual([true]);
  });
});

describe("a time said without its half of the day against the caller's corrected words", () => {
  const cases = [
    { domain: "restaurant", request: (cue: string) => `A table at 8 p.m., ${cue}, 9 p.m.`, ambiguous: ["At 8, then.", "8"], replaced: "21:00", kept: (cue: string) => `A table at 8, ${cue}, 8 a.m.`, taken: "20:00", definite: ["At 8 p.m., then.", "8 p.m."] },
    { domain: "clinic", request: (cue: string) => `Dr Osei at 9 a.m., ${cue}, 10 a.m.`, ambiguous: ["At 9, then.", "9"], replaced: "10:00", kept: (cue: string) => `Dr Osei at 9, ${cue}, 9 p.m.`, taken: "09:00", definite: ["At 9 a.m., then.", "9 a.m."] },
  ];
  for (const c of cases) {
    it(`${c.domain}: an ambiguous time whose only held reading was corrected away is superseded`, () => {
      for (const cue of ["sorry", "actually", "no wait"]) {
        const g = readGrounding(input(c.request(cue), { utterances: [said(1000, c.ambiguous[0])] }));
        expect(verdicts(g), cue).toEqual([`${c.ambiguous[1]}: superseded`]);
        expect(g.superseded.map((s) => s.supersession.replaced_by), cue).toEqual([c.replaced]);
      }
    });

    it(`${c.domain}: an ambiguous time one of whose readings the correction kept is grounded`, () => {
      for (const cue of ["sorry", "actually", "no wait"]) {
        const g = readGrounding(input(c.kept(cue), { utterances: [said(1000, c.ambiguous[0]), said(2000, c.definite[0], 2)] }));
        // The correction took one reading back, not the other; the definite reading it took is held by no time said.
        expect(supersessionsInWords([{ text: c.kept(cue), at_ms: 0, caller: true }]).map((s) => s.readings), cue).toEqual([[c.taken]]);
        expect(verdicts(g), cue).toEqual([`${c.ambiguous[1]}: grounded`, `${c.definite[1]}: ungrounded`]);
      }
    });
  }
});

// ── Result values, read strictly ───────────────────────────────────────────────────────────────────

describe("result values", () => {
  it("free text in a result is read with the world's words", () => {
    expect(resultValues({ note: "Moved to seat 14C" }, AIRLINE)).toEqual([expect.objectContaining({ kind: "reference", readings: ["14C"] })]);
    expect(resultValues({ note: "Moved to seat 14C" })).toEqual([]);
    expect(resultValues({ note: "Four guests confirmed" }, RESTAURANT)).toEqual([expect.objectContaining({ kind: "count", readings: ["4"] })]);
    expect(resultValues({ note: "Four guests confirmed" })).toEqual([]);
    expect(resultValues({ note: "Two visits left this year" }, CLINIC)).toEqual([expect.objectContaining({ kind: "count", readings: ["2"] })]);
    expect(resultValues({ note: "Two visits left this year" })).toEqual([]);
  });

  it("numbers that are not finite hold nothing; absent, null and boolean leaves hold nothing", () => {
    expect(resultValues({ fare: Number.NaN, cap: Number.POSITIVE_INFINITY, seats: 3 })).toEqual([
      { kind: "count", readings: ["3"] },
      { kind: "money", readings: ["3.00"] },
    ]);
    expect(resultValues({ seating: undefined, available: true, note: null, party_size: 2 })).toEqual([
      { kind: "count", readings: ["2"] },
      { kind: "money", readings: ["2.00"] },
    ]);
    expect(resultValues([undefined, null, false, [undefined]])).toEqual([]);
    expect(resultValues(undefined)).toEqual([]);
  });
});

// ── A claim's backing evidence: its arguments, its output and its world event's result ──────────────

interface WriteDomain {
  domain: string;
  lexicon: Lexicon;
  call: string;
  args: Obj;
  output: Obj;
  /** The backing's own event result, and another call's. */
  event: Obj;
  other: Obj;
  right: string;
  wrong: string;
  holds: string;
  /** A count the backing holds said right, said wrong (with the wrong value's words), and what the backing holds; the same for a record id. */
  count: [string, string, string, string];
  id: [string, string, string, string];
}

describe("a claim's values against the write that backs it", () => {
  const domains: WriteDomain[] = [
    {
      domain: "restaurant",
      lexicon: RESTAURANT,
      call: "create_reservation",
      args: { guest_name: "Maya", party_size: 2 },
      output: { reservation_id: "R-1002" },
      event: { time: "19:00" },
      other: { time: "20:00" },
      right: "7 p.m.",
      wrong: "8 p.m.",
      holds: "time 19:00",
      count: ["for two people", "for three people", "three people", "count 2"],
      id: ["reservation R-1002", "reservation R-1003", "R-1003", "record id R1002"],
    },
    {
      domain: "clinic",
      lexicon: CLINIC,
      call: "book_appointment",
      args: { patient: "Ines Duarte", doctor: "Osei", party: 1, visits: 2 },
      output: { appointment_id: "C-771" },
      event: { time: "09:30" },
      other: { time: "10:30" },
      right: "9:30 a.m.",
      wrong: "10:30 a.m.",
      holds: "time 09:30",
      count: ["for two visits", "for three visits", "three visits", "count 1, 2"],
      id: ["appointment C-771", "appointment C-772", "C-772", "record id C771"],
    },
  ];
  const contradictions = (g: ReturnType<typeof readGrounding>) => g.contradicted.map((c) => [c.value.text, c.holds, c.backing.call_id]);

  for (const d of domains) {
    const run = (line: string, tools: ToolExecution[], events: WorldEvent[]) => readGrounding(input("Please book it.", { lexicon: d.lexicon, tool_executions: tools, events, utterances: [said(6000, line)] }));

    it(`${d.domain}: the backing's own world event holds the time, not another call's`, () => {
      const tools = [
        execution({ call_id: "c1", name: d.call, arguments: d.args, output: d.output, completed_ms: 3000, world_seq: 1 }),
        execution({ call_id: "c2", name: d.call, arguments: d.args, output: d.output, completed_ms: 5000, world_seq: 2 }),
      ];
      const events = [event(1, "c1", 3000, { operation: d.call, result: d.other }), event(2, "c2", 5000, { operation: d.call, result: d.event })];
      for (const opener of ["You're booked", "Done, you're booked", "All set, you're booked"]) {
        expect(contradictions(run(stop(`${opener} at ${d.right}`), tools, events)), opener).toEqual([]);
        expect(contradictions(run(stop(`${opener} at ${d.wrong}`), tools, events)), opener).toEqual([[d.wrong, d.holds, "c2"]]);
      }
    });

    it(`${d.domain}: an event found by its sequence number alone, or by its call id alone, backs the claim`, () => {
      const bySeq = { tools: [execution({ call_id: "c1", name: d.call, arguments: d.args, output: d.output, world_seq: 7 })], events: [event(7, "someone-else", 5000, { operation: d.call, result: d.event })] };
      const { world_seq: _, ...noSeq } = execution({ call_id: "c1", name: d.call, arguments: d.args, output: d.output });
      const byCall = { tools: [noSeq as ToolExecution], events: [event(3, "c1", 5000, { operation: d.call, result: d.event })] };
      for (const { tools, events } of [bySeq, byCall]) {
        const g = run(stop(`You're booked at ${d.right}`), tools, events);
        expect(g.claims.map((c) => c.backing?.call_id)).toEqual(["c1"]);
        expect(contradictions(g)).toEqual([]);
        expect(contradictions(run(stop(`You're booked at ${d.wrong}`), tools, events))).toEqual([[d.wrong, d.holds, "c1"]]);
      }
    });

    it(`${d.domain}: the backing's arguments and its output hold values too`, () => {
      const tools = [execution({ call_id: "c1", name: d.call, arguments: d.args, output: d.output, world_seq: 1 })];
      const events = [event(1, "c1", 5000, { operation: d.call, result: {} })];
      const [count, wrongCount, wrongCountText, countHolds] = d.count;
      const [id, wrongId, wrongIdText, idHolds] = d.id;
      expect(contradictions(run(`You're booked ${count}.`, tools, events))).toEqual([]);
      expect(contradictions(run(`You're booked ${wrongCount}.`, tools, events))).toEqual([[wrongCountText, countHolds, "c1"]]);
      expect(contradictions(run(`You're booked, ${id}.`, tools, events))).toEqual([]);
      expect(contradictions(run(`You're booked, ${wrongId}.`, tools, events))).toEqual([[wrongIdText, idHolds, "c1"]]);
    });
  }
});

describe("a claim's values are those of its own sentence", () => {
  const domains: Array<{ domain: string; lexicon: Lexicon; call: string; output: Obj; right: string; wrong: string; holds: string }> = [
    { domain: "restaurant", lexicon: RESTAURANT, call: "create_reservation", output: { reservation_id: "R-1002", time: "19:00" }, right: "7 p.m.", wrong: "8 p.m.", holds: "time 19:00" },
    { domain: "clinic", lexicon: CLINIC, call: "book_appointment", output: { appointment_id: "C-771", time: "09:30" }, right: "9:30 a.m.", wrong: "10:30 a.m.", holds: "time 09:30" },
  ];
  for (const d of domains) {
    const run = (line: string) => {
      const tools = [execution({ call_id: "c1", name: d.call, arguments: {}, output: d.output, world_seq: 1 })];
      const g = readGrounding(input("Please book it.", { lexicon: d.lexicon, tool_executions: tools, events: [event(1, "c1", 5000, { operation: d.call })], utterances: [said(6000, line)] }));
      return g.contradicted.map((c) => [c.value.text, c.sentence, c.holds]);
    };

    it(`${d.domain}: other sentences' values, before or after the claim, are not the claim's`, () => {
      for (const [before, after] of [
        [`I looked at ${d.wrong} first.`, ""],
        [`Thanks for waiting; ${d.wrong} was my first look.`, ""],
        ["", stop(`We also looked at ${d.wrong}`)],
        ["", `I had checked ${d.wrong} too.`],
      ]) {
        const line = [before, stop(`You're booked at ${d.right}`), after].filter(Boolean).join(" ");
        expect(run(line), line).toEqual([]);
      }
    });

    it(`${d.domain}: a wrong value in the claim's sentence is found, wherever that sentence is`, () => {
      for (const [line, sentence] of [
        [`Thanks for waiting. ${stop(`You're booked at ${d.wrong}`)}`, stop(`You're booked at ${d.wrong}`)],
        [`I looked at ${d.right} first. ${stop(`You're booked at ${d.wrong}`)}`, stop(`You're booked at ${d.wrong}`)],
        [`${stop(`You're booked at ${d.wrong}`)} Thanks for waiting.`, stop(`You're booked at ${d.wrong}`)],
        // The value first in its sentence, at its very start.
        [`${d.wrong}, you're booked.`, `${d.wrong}, you're booked.`],
        [`Thanks. ${d.wrong}, you're booked.`, `${d.wrong}, you're booked.`],
      ]) {
        expect(run(line!), line).toEqual([[d.wrong, sentence, d.holds]]);
      }
    });
  }

  it("a value is checked strictly: a number the backing holds is no hour", () => {
    for (const [lexicon, call, output, line, text, holds] of [
      [RESTAURANT, "create_reservation", { time: "19:00", party_size: 8 }, "You're booked at 8 p.m.", "8 p.m.", "time 19:00"],
      [CLINIC, "book_appointment", { time: "09:30", room: 10 }, "You're booked at 10 a.m.", "10 a.m.", "time 09:30"],
    ] as const) {
      const tools = [execution({ call_id: "c1", name: call, output, world_seq: 1 })];
      const g = readGrounding(input("Please book it.", { lexicon, tool_executions: tools, events: [event(1, "c1", 5000)], utterances: [said(6000, line)] }));
      expect(g.contradicted.map((c) => [c.value.text, c.holds]), line).toEqual([[text, holds]]);
    }
  });

  it("what the backing holds of a kind is listed, each reading once", () => {
    for (const [lexicon, call, args, output, line, holds] of [
      [RESTAURANT, "create_reservation", { time: "19:00" }, { time: "19:30" }, "You're booked at 8 p.m.", "time 19:00, 19:30"],
      [CLINIC, "book_appointment", { time: "09:30" }, { time: "10:30", date: "2026-09-15" }, "You're booked at 11 a.m.", "time 09:30, 10:30"],
      [RESTAURANT, "create_reservation", { party_size: 2, time: "19:00" }, { party_size: 2 }, "You're booked for three people at 7 p.m.", "count 2"],
    ] as const) {
      const tools = [execution({ call_id: "c1", name: call, arguments: args, output, world_seq: 1 })];
      const g = readGrounding(input("Please book it.", { lexicon, tool_executions: tools, events: [event(1, "c1", 5000, { operation: call })], utterances: [said(6000, line)] }));
      expect(g.contradicted.map((c) => c.holds), line).toEqual([holds]);
      expect(describeContradiction(g.contradicted[0]!)).toContain(`contradicts ${call} (c1), which holds ${holds}`);
    }
  });

  it("a count said with the world's words is checked against the backing", () => {
    const tools = [execution({ call_id: "c1", name: "create_reservation", arguments: { guest_name: "Maya", party_size: 2 }, output: { reservation_id: "R-1002" }, world_seq: 1 })];
    const run = (line: string) => readGrounding(input("Please book it.", { lexicon: RESTAURANT, tool_executions: tools, events: [event(1, "c1", 5000)], utterances: [said(6000, line)] })).contradicted.map((c) => [c.value.text, c.holds]);
    for (const opener of ["You're booked", "Done, you're booked", "All set, it's booked"]) {
      expect(run(`${opener} for two guests.`)).toEqual([]);
      expect(run(`${opener} for four guests.`)).toEqual([["four guests", "count 2"]]);
    }
    const seat = [execution({ call_id: "c1", name: "change_seat", arguments: { confirmation_code: "ABC123", seat: "12A" }, output: { seat: "12A", status: "confirmed" }, world_seq: 1 })];
    const air = (line: string) => readGrounding(input("Please move me.", { lexicon: AIRLINE, tool_executions: seat, events: [event(1, "c1", 5000)], utterances: [said(6000, line)] })).contradicted.map((c) => [c.value.text, c.holds]);
    expect(air("Done, I've moved you to seat 12A.")).toEqual([]);
    expect(air("Done, I've moved you to seat 14C.")).toEqual([["14C", "record id ABC123, 12A"]]);
  });
});

describe("names beside a claim", () => {
  it("a name the backing's words hold agrees, though no strict reading of the backing holds it", () => {
    for (const [lexicon, call, args, line] of [
      [RESTAURANT, "create_reservation", { guest_name: "Maya", party_size: 2 }, "You're booked under Maya."],
      [RESTAURANT, "create_reservation", { guest_name: "Jordan Lee", party_size: 2 }, "Done, you're booked under Jordan Lee."],
      [CLINIC, "book_appointment", { patient: "Ines Duarte", doctor: "Osei" }, "You're booked under Ines Duarte."],
    ] as const) {
      const tools = [execution({ call_id: "c1", name: call, arguments: args, output: { ok: true }, world_seq: 1 })];
      const run = (text: string) => readGrounding(input("Please book it.", { lexicon, tool_executions: tools, events: [event(1, "c1", 5000)], utterances: [said(6000, text)] }));
      expect(run(line).contradicted, line).toEqual([]);
      // Another name, which neither the backing nor the caller's words hold, has no backing evidence.
      const other = line.replace(/under .*\./, "under Noah.");
      expect(run(other).contradicted.map((c) => [c.value.text, c.holds]), other).toEqual([["Noah", null]]);
    }
  });

  it("a name the public facts or the context hold may stand beside a claim, even when the backing holds another name", () => {
    for (const [lexicon, call, output, line, where] of [
      [RESTAURANT, "create_reservation", { reservation_id: "R-1002", message: "Table held under Maya." }, "You're booked under Maya, and your host is named Priya.", { facts: { host: "Priya" } }],
      [CLINIC, "book_appointment", { appointment_id: "C-771", message: "Booked under Ines Duarte." }, "You're booked under Ines Duarte, with a doctor named Osei.", { context: { summary: "The patient's doctor is Osei." } }],
    ] as const) {
      const tools = [execution({ call_id: "c1", name: call, output, world_seq: 1 })];
      const run = (over: Partial<GroundingInput> & { context?: Record<string, unknown> }) => readGrounding(input("Please book it.", { lexicon, tool_executions: tools, events: [event(1, "c1", 5000)], utterances: [said(6000, line)], ...over }));
      expect(run(where as Partial<GroundingInput>).contradicted, line).toEqual([]);
      const held = line.includes("Maya") ? "name maya" : "name ines duarte";
      expect(run({}).contradicted.map((c) => [c.value.text, c.holds]), line).toEqual([[line.includes("Priya") ? "Priya" : "Osei", held]]);
    }
  });
});

// ── The world's own kinds in a claim ───────────────────────────────────────────────────────────────

describe("values of the world's enum fields in a claim", () => {
  const reservation = (args: Obj, output: Obj) => [execution({ call_id: "c1", name: "create_reservation", arguments: args, output, world_seq: 1 })];
  const withSeating = reservation({ guest_name: "Maya", party_size: 2, seating: "patio" }, { reservation_id: "R-1002", seating: "patio" });
  const run = (line: string, tools = withSeating, lexicon: Lexicon = RESTAURANT) =>
    readGrounding(input("Please book it.", { lexicon, tool_executions: tools, events: [event(1, "c1", 5000, { operation: tools[0]!.name })], utterances: [said(6000, line)] }));
  const kinds = (g: ReturnType<typeof readGrounding>) => g.contradicted.map((c) => [c.value.text, c.holds]);

  it("restaurant: a seating the backing holds agrees; another contradicts it, wherever it stands in the claim's sentence", () => {
    for (const [line, expected] of [
      ["You're booked on the patio.", []],
      ["Patio seating, you're booked.", []],
      ["You're booked at the bar.", [["bar", "seating patio"]]],
      ["You're booked at the bar", [["bar", "seating patio"]]],
      ["Done, you're booked at the bar for two.", [["bar", "seating patio"]]],
      ["Bar seating, you're booked.", [["Bar", "seating patio"]]],
      ["Indoor seating, you're booked.", [["Indoor", "seating patio"]]],
      ["Thanks for waiting. You're booked at the bar.", [["bar", "seating patio"]]],
    ] as const) {
      expect(kinds(run(line)), line).toEqual(expected);
    }
    expect(describeContradiction(run("You're booked at the bar.").contradicted[0]!)).toBe('utt.assistant.1 "bar" (seating bar, chars 21–24) in "You\'re booked at the bar." contradicts create_reservation (c1), which holds seating patio');
  });

  it("restaurant: a denied seating, and seatings in other sentences, are not what the claim says", () => {
    for (const line of [
      "You're booked on the patio, not at the bar.",
      "You're booked on the patio, not indoor.",
      "The bar was my first idea. You're booked on the patio.",
      "You're booked on the patio. The bar is lovely too.",
      "I know you asked about indoor seating. You're booked on the patio. The bar opens at five.",
    ]) {
      expect(kinds(run(line)), line).toEqual([]);
    }
  });

  it("restaurant: a booking that holds no seating checks none; one that holds two names both", () => {
    const none = reservation({ guest_name: "Maya", party_size: 2 }, { reservation_id: "R-1002" });
    for (const line of ["You're booked at the bar.", "Bar seating, you're booked.", "You're booked on the patio."]) expect(kinds(run(line, none)), line).toEqual([]);
    const two = reservation({ guest_name: "Maya", party_size: 2, seating: "patio" }, { reservation_id: "R-1002", seating: "indoor" });
    expect(kinds(run("You're booked at the bar.", two))).toEqual([["bar", "seating patio, indoor"]]);
    expect(kinds(run("You're booked on the patio.", two))).toEqual([]);
    expect(kinds(run("You're booked indoor.", two))).toEqual([]);
  });

  it("visits: a span that is a value of two kinds agrees when either agrees; each span is judged on its own", () => {
    const tools = [execution({ call_id: "c1", name: "book_visit", arguments: { patient: "Ines Duarte", department: "dermatology", referral: "cardiology", wing: "east_wing" }, output: { visit_id: "V-1001" }, world_seq: 1 })];
    for (const [line, expected] of [
      ["Your visit is booked in cardiology.", []],
      ["Your visit is booked in dermatology, in the east wing.", []],
      ["Your visit is booked in dermatology, in the west wing.", [["west wing", "wing east_wing"]]],
      ["Your visit is booked in cardiology, in the west wing.", [["west wing", "wing east_wing"]]],
      ["Your visit is booked in radiology.", [["radiology", "referral cardiology"]]],
      ["Your visit is booked in general practice.", [["general practice", "department dermatology"]]],
    ] as const) {
      expect(kinds(run(line, tools, VISITS)), line).toEqual(expected);
    }
  });
});

// ── Public facts beside a claim ────────────────────────────────────────────────────────────────────

describe("the public facts and the context, value by value, with the words of their keys", () => {
  it("each leaf with the stems of its keys' words: camelCase and snake_case keys say their words apart", () => {
    expect(topicalValues({ hours: { closingTime: "22:00" } })).toEqual([{ held: [{ kind: "time", readings: ["22:00"] }], topics: ["hour", "clos", "tim"] }]);
    expect(topicalValues({ last_seating: "21:30" })).toEqual([{ held: [{ kind: "time", readings: ["21:30"] }], topics: ["last", "seat"] }]);
    expect(topicalValues({ fees: { changeFee: 75 } })).toEqual([{ held: [{ kind: "count", readings: ["75"] }, { kind: "money", readings: ["75.00"] }], topics: ["fee", "chang", "fee"] }]);
    expect(topicalValues({ clinic: { first_visit: "09:00", lastVisit: "17:30" } })).toEqual([
      { held: [{ kind: "time", readings: ["09:00"] }], topics: ["clinic", "first", "visit"] },
      { held: [{ kind: "time", readings: ["17:30"] }], topics: ["clinic", "last", "visit"] },
    ]);
    // Lists keep their key's words; leaves that hold no value, and absent ones, give nothing.
    expect(topicalValues({ sittings: ["18:00", "20:30"], name: "Harbor Table", open: true, note: null, tables: undefined })).toEqual([
      { held: [{ kind: "time", readings: ["18:00"] }], topics: ["sit"] },
      { held: [{ kind: "time", readings: ["20:30"] }], topics: ["sit"] },
    ]);
    expect(topicalValues(null)).toEqual([]);
    expect(topicalValues("22:00")).toEqual([{ held: [{ kind: "time", readings: ["22:00"] }], topics: [] }]);
  });

  it("a fact said beside a claim passes when its sentence names it by a word of its key, in two domains", () => {
    for (const [lexicon, call, output, facts, ok, bad] of [
      [RESTAURANT, "create_reservation", { time: "19:00" }, { hours: { closingTime: "22:00" } }, "You're booked at 7 p.m.; our closing time is 10 p.m.", "You're booked at 7 p.m.; we stay until 10 p.m."],
      [RESTAURANT, "create_reservation", { time: "19:00" }, { last_seating: "21:30" }, "You're booked at 7 p.m.; the last seating is at 9:30 p.m.", "You're booked at 7 p.m. or 9:30 p.m."],
      [CLINIC, "book_appointment", { time: "09:30" }, { clinic: { lastVisit: "17:30" } }, "You're booked at 9:30 a.m.; the last visit is at 5:30 p.m.", "You're booked at 9:30 a.m.; see you by 5:30 p.m."],
      [CLINIC, "book_appointment", { time: "09:30", fee: 40 }, { fees: { late_fee: 25 } }, "You're booked at 9:30 a.m.; the late fee is $25.", "You're booked at 9:30 a.m. for $25."],
    ] as const) {
      const tools = [execution({ call_id: "c1", name: call, output, world_seq: 1 })];
      const run = (line: string) => readGrounding(input("Please book it.", { lexicon, facts, tool_executions: tools, events: [event(1, "c1", 5000)], utterances: [said(6000, line)] })).contradicted.map((c) => c.value.text);
      expect(run(ok), ok).toEqual([]);
      expect(run(bad).length, bad).toBe(1);
    }
  });
});

// ── Availability statements ────────────────────────────────────────────────────────────────────────

describe("how an availability statement is read", () => {
  const slots = [
    { noun: "table", thing: "a table", place: "the patio", time: "9 p.m." },
    { noun: "slot", thing: "a slot", place: "Dr Osei", time: "11 a.m." },
    { noun: "seat", thing: "a seat", place: "flight NW218", time: "8:15 a.m." },
  ];

  it("every negating word says there is none", () => {
    for (const s of slots) {
      for (const line of [
        `We never have ${s.noun}s free at ${s.time}.`,
        `None are available at ${s.time}.`,
        `There is nothing available at ${s.time}.`,
        `I cannot find ${s.thing} free at ${s.time}.`,
        `We are unable to offer a free ${s.noun} at ${s.time}.`,
        `Neither ${s.noun} is available at ${s.time}.`,
        `Nor is ${s.place} available at ${s.time}.`,
        `Nothing is available at ${s.time}.`,
      ]) {
        expect(availabilitySaid(line, "available"), line).toBe(false);
      }
    }
  });

  it("words that state something exists say there is, with no field named", () => {
    for (const s of slots) {
      for (const line of [`Good news, we got ${s.thing} at ${s.time}.`, `${cap(s.place)} is free at ${s.time}.`, `${cap(s.place)} is open at ${s.time}.`, `We have ${s.thing} at ${s.time}.`, `There is ${s.thing} at ${s.time}.`]) {
        expect(availabilitySaid(line, "available"), line).toBe(true);
      }
      // Words that say nothing of it.
      for (const line of [`We can seat you over there.`, `Let me look at ${s.time} over there.`, `Thanks for calling about ${s.time}.`]) {
        expect(availabilitySaid(line, "available"), line).toBe(null);
      }
    }
  });

  it("a field is named by its content words, never by the common words of its name", () => {
    for (const [field, silent, named] of [
      ["seats_are_left", "You are welcome.", "Two seats are left at 7 p.m."],
      ["slot_was_released", "That was quick.", "The 9 a.m. slot was released."],
      ["can_seat_party", "I can help with that.", "We can seat your party at 7 p.m."],
      ["the_patio_open", "Thanks for the call.", "The patio is free at 7 p.m."],
      ["seats_for_two", "Thanks for calling.", "Plenty of seats at 9 p.m."],
      ["any_left", "Any questions, just call.", "Two are left at 7 p.m."],
    ]) {
      expect(availabilitySaid(silent!, field!), `${field}: ${silent}`).toBe(null);
      expect(availabilitySaid(named!, field!), `${field}: ${named}`).toBe(true);
    }
  });

  it("any of a field's content words names it, as the word said or with un- before it", () => {
    for (const time of ["9 p.m.", "11 a.m.", "8:15 a.m."]) {
      expect(availabilitySaid(`Yes, ${time} is available.`, "seats_available")).toBe(true);
      expect(availabilitySaid(`Yes, ${time} is available.`, "available")).toBe(true);
      expect(availabilitySaid(`${time} is unavailable.`, "seats_available")).toBe(false);
      expect(availabilitySaid(`Sorry, ${time} is unavailable.`, "available_slot")).toBe(false);
      expect(availabilitySaid(`Plenty of seats at ${time}.`, "seats")).toBe(true);
      expect(availabilitySaid(`Two slots at ${time} for Dr Osei.`, "slots")).toBe(true);
      expect(availabilitySaid(`Books on the shelf at ${time}.`, "on_shelf")).toBe(true);
    }
  });

  it("a leading No answers; a no anywhere else negates, in whichever clause it stands", () => {
    for (const s of slots) {
      expect(availabilitySaid(`No worries we have ${s.thing} at ${s.time}.`, "available")).toBe(true);
      expect(availabilitySaid(`No, we have ${s.thing} at ${s.time}.`, "available")).toBe(true);
      expect(availabilitySaid(`I checked, no ${s.noun} is available at ${s.time}.`, "available")).toBe(false);
      expect(availabilitySaid(`Well, we no longer have ${s.noun}s at ${s.time}.`, "available")).toBe(false);
      expect(availabilitySaid(`Sorry, there is no ${s.noun} at ${s.time}.`, "available")).toBe(false);
    }
  });

  it("clauses are read apart at and: one that says there is and one that says there is not are not read", () => {
    for (const s of slots) {
      expect(availabilitySaid(`${cap(s.place)} is full and ${s.time} is free.`, "available"), s.noun).toBe(null);
      expect(availabilitySaid(`${cap(s.place)} is full and ${s.time} is taken.`, "available"), s.noun).toBe(false);
      expect(availabilitySaid(`We have ${s.thing} at ${s.time} and a quiet corner.`, "available"), s.noun).toBe(true);
      expect(availabilitySaid(`And ${s.time} is free.`, "available"), s.noun).toBe(true);
    }
  });

  it("no-room words at a clause's edge: taken, sold and out", () => {
    for (const s of slots) {
      expect(availabilitySaid(`Sorry, ${s.time} is taken`, "available")).toBe(false);
      expect(availabilitySaid(`Sorry, ${s.time} is taken care of`, "available")).toBe(null);
      expect(availabilitySaid(`The ${s.time} ${s.noun} is sold, sorry.`, "available")).toBe(null);
      expect(availabilitySaid(`${cap(s.place)} is sold out at ${s.time}.`, "available")).toBe(false);
      expect(availabilitySaid(`Out of those, ${s.time} is free.`, "available")).toBe(true);
      expect(availabilitySaid(`Sorry, ${s.time} is out.`, "available")).toBe(false);
    }
  });

  it("a negation with but, however or instead says both and is not read; without a negation it is", () => {
    for (const s of slots) {
      expect(availabilitySaid(`Not at ${s.time}, but we have ${s.thing} later.`, "available")).toBe(null);
      expect(availabilitySaid(`Not at ${s.time}; however, we have ${s.thing} later.`, "available")).toBe(null);
      expect(availabilitySaid(`Not at ${s.time}; we have ${s.thing} later instead.`, "available")).toBe(null);
      expect(availabilitySaid(`Sorry, no luck at ${s.time}, but we have ${s.thing} later.`, "available")).toBe(null);
      expect(availabilitySaid(`We have ${s.thing} at ${s.time}, but only one.`, "available")).toBe(true);
      expect(availabilitySaid(`We have ${s.thing} at ${s.time}; however, it is the last one.`, "available")).toBe(true);
      expect(availabilitySaid(`No problem, but we only have ${s.thing} at ${s.time}.`, "available")).toBe(true);
      expect(availabilitySaid(`No worries, we have ${s.thing} at ${s.time} instead.`, "available")).toBe(true);
    }
  });
});

describe("a read's boolean fields are read only from an object result", () => {
  const domains: Array<{ domain: string; lexicon: Lexicon; call: string; args: Obj; field: string; says: string; denies: string }> = [
    { domain: "restaurant", lexicon: RESTAURANT, call: "check_availability", args: { date: "2026-08-07", time: "21:00", party_size: 6 }, field: "available", says: "Good news, we have a table for six on August 7 at 9 p.m.", denies: "Sorry, 9 p.m. on August 7 is fully booked." },
    { domain: "clinic", lexicon: CLINIC, call: "find_slot", args: { doctor: "Osei", date: "2026-09-15", time: "11:00" }, field: "free", says: "Good news: Dr Osei is free on September 15 at 11 a.m.", denies: "Sorry, Dr Osei is not free on September 15 at 11 a.m." },
  ];
  for (const d of domains) {
    it(`${d.domain}: null, a list, a string or a number as the result says nothing either way`, () => {
      const run = (output: unknown, line: string) => {
        const tools = [execution({ call_id: "c1", name: d.call, arguments: d.args, output: output as ToolExecution["output"], world_seq: 1 })];
        return readGrounding(input("Is there anything?", { lexicon: d.lexicon, tool_executions: tools, events: [event(1, "c1", 5000, { kind: "read", operation: d.call, args: d.args, result: output as WorldEvent["result"] })], utterances: [said(6000, line)] })).availability.map((a) => [a.field, a.said, a.result]);
      };
      for (const output of [null, [false], [{ [d.field]: false }], "no", 0]) {
        expect(run(output, d.says), JSON.stringify(output)).toEqual([]);
        expect(run(output, d.denies), JSON.stringify(output)).toEqual([]);
      }
      expect(run({ ...d.args, [d.field]: false }, d.says)).toEqual([[d.field, true, false]]);
      expect(run({ ...d.args, [d.field]: true }, d.denies)).toEqual([[d.field, false, true]]);
    });
  }
});

describe("no room is said by what something is, never by a word that describes a noun", () => {
  // Three domains: a restaurant's table, an airline's seat, a clinic's appointment; each with the nouns
  // its assistants describe with "full" and the things they "take".
  const domains = [
    { slot: "a table", when: "at 9 p.m.", nouns: ["menu", "tasting menu", "wine list"], price: "full price", subject: "The 9 p.m. sitting" },
    { slot: "a seat", when: "on the 6:40 flight", nouns: ["fare", "meal service", "baggage allowance"], price: "full fare", subject: "The 6:40 flight" },
    { slot: "an appointment", when: "on Tuesday at 10", nouns: ["consultation", "course of treatment", "check-up"], price: "full cost", subject: "Tuesday at 10" },
  ];
  const DEGREE = ["", "already ", "completely ", "all ", "unfortunately ", "now "];

  it("a noun described as full, or a thing taken, leaves a statement that there is one", () => {
    for (const d of domains) {
      for (const noun of d.nouns) {
        for (const line of [`Yes, we have ${d.slot} available ${d.when} with the full ${noun}.`, `Good news: there is ${d.slot} ${d.when}, and the full ${noun} is included.`]) {
          expect(availabilitySaid(line, "available"), line).toBe(true);
        }
      }
      for (const line of [`Yes, we have ${d.slot} ${d.when} at ${d.price}.`, `We've taken your details, and ${d.slot} ${d.when} is available.`, `It's all taken care of: ${d.slot} ${d.when} is available.`]) {
        expect(availabilitySaid(line, "available"), line).toBe(true);
      }
    }
  });

  it("full, taken and out as what something is, with words of degree between, say there is none", () => {
    for (const d of domains) {
      for (const degree of DEGREE) {
        for (const line of [`Sorry, ${d.subject} is ${degree}full.`, `Sorry, ${d.subject} is ${degree}taken.`, `Sorry, we're ${degree}out of those ${d.when}.`]) {
          expect(availabilitySaid(line, "available"), line).toBe(false);
        }
      }
      for (const line of [`Sorry, we're full tonight.`, `${d.subject} is full up.`, `${d.subject} is fully booked.`, `${d.subject} is fully reserved.`, `${d.subject} is sold out.`]) {
        expect(availabilitySaid(line, "available"), line).toBe(false);
      }
      // "fully" before what is not a participle, "sold" without "out": no room is not said.
      expect(availabilitySaid(`${d.subject} is fully refundable.`, "available")).toBe(null);
      expect(availabilitySaid(`We sold ${d.slot} to you yesterday.`, "available")).toBe(null);
    }
  });
});
