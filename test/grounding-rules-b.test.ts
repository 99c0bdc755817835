// Checks grounding.ts's later rules directly: availability statements, stated amounts and ids, claim backing, result communication, fault messages, expected facts.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { airlineWorld } from "../examples/airline/crashlab/worlds/airline";
import { ExpectedFact, Scenario } from "../src/core/dataset/schema";
import { GENERIC, lexiconOf, type Lexicon } from "../src/core/language/vocabulary";
import type { ToolExecution } from "../src/core/record/trial-record";
import {
  checkFacts,
  describeAvailability,
  describeClaim,
  describeContradiction,
  describeSuperseded,
  describeValue,
  factValue,
  readCommunication,
  readGrounding,
  type GroundingInput,
  type Utterance,
} from "../src/core/verify/grounding";
import { defineWorld } from "../src/core/world/define";
import type { Json, WorldEvent } from "../src/core/world/types";
import { clinicWorld } from "./grading-rules-fixtures";
import { RESTAURANT } from "./restaurant-lexicon";

// ── Fixtures ────────────────────────────────────────────────────────────────────────────────────────

const CLINIC = lexiconOf(clinicWorld);
const AIRLINE = lexiconOf(airlineWorld);

/** A clinic whose visits have a department and a kind, both enum fields: two of the world's own kinds. */
const Department = z.enum(["cardiology", "dermatology", "general_practice", "paediatrics"]);
const VisitKind = z.enum(["in_person", "video"]);
const wardWorld = defineWorld<{ visits: Record<string, { department: z.infer<typeof Department>; mode: z.infer<typeof VisitKind> }> }>({
  name: "wards",
  version: "1.0.0",
  state: z.strictObject({ visits: z.record(z.string(), z.strictObject({ department: Department, mode: VisitKind })) }),
  operations: {
    find_visit: {
      kind: "read",
      description: "Whether a department has a free slot.",
      args: z.strictObject({ department: Department, mode: VisitKind.optional(), date: z.string(), time: z.string() }),
      run: ({ args }) => ({ ...args, free: true }),
    },
  },
  vocabulary: { verbs: { book: "create" }, nouns: ["visit"] },
});
const WARDS = lexiconOf(wardWorld);

const scenario = Scenario.parse({
  id: "s1",
  title: "grounding rules",
  type: "task",
  interaction: "single_turn",
  input: { text: "Can you help me with my booking?" },
  application: { initial_state: {} },
  expected: { answer: "help", delegation: "optional", state: {} },
});

/** An assistant utterance: the n-th, begun at `at` ms. */
const said = (at: number, text: string, n = 1): Utterance => ({ role: "assistant", text, start_ms: at, end_ms: at + 900, evidence_id: `utt.assistant.${n}` });

interface Call {
  execution: ToolExecution;
  event: WorldEvent;
}

/** A completed call and the world event it made (found by its sequence number and by its call id). */
function call(id: string, name: string, args: Record<string, Json>, output: Json | undefined, completed_ms: number, kind: "read" | "write" = "read", over: Partial<ToolExecution> = {}): Call {
  const seq = Number(id.replace(/\D/g, ""));
  const execution: ToolExecution = { call_id: id, name, arguments: args, raw_arguments: JSON.stringify(args), status: "completed", ...(output !== undefined ? { output } : {}), requested_ms: completed_ms - 40, completed_ms, world_seq: seq, ...over };
  const event: WorldEvent = { seq, at_ms: completed_ms, operation: name, kind, args, outcome: "ok", ...(output !== undefined ? { result: output } : {}), patches: [], cause: { trial: "t#1", call_id: id } };
  return { execution, event };
}

/** A call the target made that failed: no output, no world event. */
function failed(id: string, name: string, args: Record<string, Json>, completed_ms: number): ToolExecution {
  return { call_id: id, name, arguments: args, raw_arguments: JSON.stringify(args), status: "failed", error: { code: "bad_request", message: "refused" }, requested_ms: completed_ms - 40, completed_ms };
}

function ground(lexicon: Lexicon | undefined, utterances: Utterance[], calls: Call[], over: Partial<GroundingInput> = {}) {
  return readGrounding({
    scenario,
    case_kind: "crawl",
    turns: [],
    utterances,
    tool_executions: calls.map((c) => c.execution),
    events: calls.map((c) => c.event),
    ...(lexicon ? { lexicon } : {}),
    ...over,
  });
}

/** Each template with {d} (a date) and {t} (a time) filled in. */
const fill = (templates: readonly string[], d: string, t: string) => templates.map((x) => x.replaceAll("{d}", d).replaceAll("{t}", t).replace(/\.\.$/, "."));

// ── Availability statements ─────────────────────────────────────────────────────────────────────────

interface SlotDomain {
  name: string;
  lexicon: Lexicon;
  call: string;
  field: string;
  /** The slot looked up, its spoken date and time, and a time next to it the read does not hold. */
  args: Record<string, Json>;
  date: string;
  time: string;
  other: string;
  otherHeld: string;
  /** The read's result for the slot, with the boolean field set. */
  output: (value: boolean) => Record<string, Json>;
  /** Statements that there is, and that there is not, about {d} at {t}. */
  says: string[];
  denies: string[];
  /** Statements about {d} that say nothing of availability, with a second time {t}. */
  neutral: string[];
  /** A sentence that says something else after the statement ("We close at 10 p.m."). */
  aside: string;
}

const SLOTS: SlotDomain[] = [
  {
    name: "restaurant",
    lexicon: RESTAURANT,
    call: "check_availability",
    field: "available",
    args: { date: "2026-08-07", time: "21:00", party_size: 6 },
    date: "August 7",
    time: "9 p.m.",
    other: "10 p.m.",
    otherHeld: "22:00",
    output: (available) => ({ available, date: "2026-08-07", time: "21:00", party_size: 6, seating: null, ...(available ? {} : { reason: "slot_full" }) }),
    says: ["Good news: we have a table for six on {d} at {t}.", "Yes, {t} on {d} is available for six.", "We've got a table for six at {t} on {d}."],
    denies: ["I'm sorry, we don't have a table for six on {d} at {t}.", "Sorry, {t} on {d} is fully booked.", "There is no table for six at {t} on {d}."],
    neutral: ["For {d}, let me also look at {t} for you.", "On {d} I can also try {t}, one moment."],
    aside: "We close at 10 p.m.",
  },
  {
    name: "clinic",
    lexicon: CLINIC,
    call: "find_slot",
    field: "free",
    args: { doctor: "Osei", date: "2026-09-15", time: "11:00" },
    date: "September 15",
    time: "11 a.m.",
    other: "10 a.m.",
    otherHeld: "10:00",
    output: (free) => ({ doctor: "Osei", date: "2026-09-15", time: "11:00", free }),
    says: ["Good news: Dr Osei is free on {d} at {t}.", "Dr Osei has {t} free on {d}.", "Yes, Dr Osei is free at {t} on {d}."],
    denies: ["Sorry, Dr Osei is not free on {d} at {t}.", "{t} on {d} is taken, I'm afraid.", "Dr Osei has nothing free at {t} on {d}."],
    neutral: ["For {d}, let me also look at {t} for you.", "On {d} I can also try {t}, one moment."],
    aside: "We open at 8 a.m.",
  },
];

describe("availability statements against the read they report", () => {
  for (const d of SLOTS) {
    const full = call("c1", d.call, d.args, d.output(false), 1000);
    const says = fill(d.says, d.date, d.time);
    const denies = fill(d.denies, d.date, d.time);

    it(`${d.name}: a statement begun the moment the read completed is read, and cited exactly; one begun a millisecond before is not`, () => {
      for (const line of says) {
        const g = ground(d.lexicon, [said(1000, line)], [full]);
        expect(g.availability.map(describeAvailability), line).toEqual([`utt.assistant.1 "${line}" says there is, but ${d.call} (c1) returned ${d.field}: false`]);
        expect(g.availability[0], line).toMatchObject({ said: true, result: false, field: d.field, sentence: line, backing: { call_id: "c1" } });
        expect(ground(d.lexicon, [said(999, line)], [full]).availability, line).toEqual([]);
      }
      // The other way round: a free slot denied.
      const free = call("c1", d.call, d.args, d.output(true), 1000);
      for (const line of denies) {
        expect(ground(d.lexicon, [said(1000, line)], [free]).availability.map(describeAvailability), line).toEqual([`utt.assistant.1 "${line}" says there is not, but ${d.call} (c1) returned ${d.field}: true`]);
        expect(ground(d.lexicon, [said(1000, line)], [full]).availability, line).toEqual([]);
      }
    });

    it(`${d.name}: the statement is read until the next completed call, and a failed call does not end it`, () => {
      const next = call("c2", d.call, { ...d.args, time: d.otherHeld }, d.output(true), 3000);
      for (const line of says) {
        expect(ground(d.lexicon, [said(2999, line)], [full, next]).availability.map((a) => a.backing.call_id), line).toEqual(["c1"]);
        expect(ground(d.lexicon, [said(3000, line)], [full, next]).availability, line).toEqual([]);
        const broken = failed("c2", d.call, { ...d.args }, 2000);
        const g = readGrounding({ scenario, case_kind: "crawl", turns: [], utterances: [said(3000, line)], tool_executions: [full.execution, broken], events: [full.event], lexicon: d.lexicon });
        expect(g.availability.map((a) => a.backing.call_id), line).toEqual(["c1"]);
      }
    });

    it(`${d.name}: a write's boolean result is no answer to be contradicted; a question is not read`, () => {
      // A write that holds the slot reports it as no longer free.
      const write = call("c1", "hold_slot", d.args, d.output(false), 1000, "write");
      for (const line of says) expect(ground(d.lexicon, [said(1000, line)], [write]).availability, line).toEqual([]);
      const questions = d.name === "restaurant" ? [`Do we have a table for six on ${d.date} at ${d.time}?`, `Is ${d.time} on ${d.date} available for six?`] : [`Is Dr Osei free on ${d.date} at ${d.time}?`, `Does Dr Osei have ${d.time} free on ${d.date}?`];
      for (const line of questions) {
        const g = ground(d.lexicon, [said(1000, line)], [full]);
        expect(g.availability, line).toEqual([]);
        expect(g.contradicted, line).toEqual([]);
      }
    });

    it(`${d.name}: a statement that names a time the read does not hold is a contradiction of its value, not of its polarity`, () => {
      for (const line of fill(d.says, d.date, d.other)) {
        const g = ground(d.lexicon, [said(1000, line)], [full]);
        expect(g.availability, line).toEqual([]);
        expect(g.contradicted.map((c) => [c.value.text, c.holds, c.backing.call_id]), line).toEqual([[d.other, `time ${d.args.time}`, "c1"]]);
      }
    });

    it(`${d.name}: a sentence about the read that says nothing of availability is not checked for its values`, () => {
      for (const line of fill(d.neutral, d.date, d.other)) {
        const g = ground(d.lexicon, [said(1000, line)], [full]);
        expect(g.contradicted, line).toEqual([]);
        expect(g.availability, line).toEqual([]);
      }
    });

    it(`${d.name}: each sentence is read for its own values: a time said in the next sentence is not the statement's`, () => {
      for (const line of denies) {
        const text = `${line} ${d.aside}`;
        const g = ground(d.lexicon, [said(1000, text)], [full]);
        expect(g.contradicted, text).toEqual([]);
        expect(g.availability, text).toEqual([]);
      }
    });

    it(`${d.name}: the values are checked against every call completed by then, cited with every reading of their kind`, () => {
      // An earlier look-up of another time: the statement is within the second read's window.
      const earlier = call("c1", d.call, { ...d.args, time: d.otherHeld }, d.output(false), 500);
      const second = call("c2", d.call, d.args, d.output(false), 1000);
      const wrong = d.name === "restaurant" ? "11 p.m." : "9 a.m.";
      const wrongValue = d.name === "restaurant" ? "23:00" : "09:00";
      for (const line of fill(d.denies, d.date, wrong)) {
        const g = ground(d.lexicon, [said(1000, line)], [earlier, second]);
        const at = line.indexOf(wrong);
        expect(g.contradicted.map(describeContradiction), line).toEqual([
          `utt.assistant.1 "${wrong}" (time ${wrongValue}, chars ${at}–${at + wrong.length}) in "${line}" contradicts ${d.call} (c2), which holds time ${d.otherHeld}, ${d.args.time}`,
        ]);
      }
      // The time of the earlier look-up is held: said in the same kind of sentence, it agrees.
      for (const line of fill(d.denies, d.date, d.other)) expect(ground(d.lexicon, [said(1000, line)], [earlier, second]).contradicted, line).toEqual([]);
      // A call completed exactly when the statement began counts; one completed after it does not.
      for (const line of fill(d.denies, d.date, d.other)) {
        const later = call("c3", d.call, { ...d.args, time: d.otherHeld }, d.output(false), 1500);
        expect(ground(d.lexicon, [said(1000, line)], [second, later]).contradicted.map((c) => c.value.text), line).toEqual([d.other]);
      }
    });
  }

  it("restaurant: counts are read in the world's words (\"two tables\"), and checked against the count looked up", () => {
    const d = SLOTS[0]!;
    const full = call("c1", d.call, d.args, d.output(false), 1000);
    for (const line of ["Sorry, two tables on August 7 at 9 p.m. are not available.", "Sorry, we don't have two tables free at 9 p.m. on August 7."]) {
      const g = ground(RESTAURANT, [said(1000, line)], [full]);
      expect(g.contradicted.map((c) => [c.value.text, c.holds]), line).toEqual([["two tables", "count 6"]]);
      // Generic English has no tables to count: no count is read.
      expect(ground(undefined, [said(1000, line)], [full]).contradicted, line).toEqual([]);
    }
  });

  it("clinic: a value of a kind no call holds is not checked against the read (an amount beside a slot)", () => {
    const d = SLOTS[1]!;
    const full = call("c1", d.call, d.args, d.output(false), 1000);
    for (const line of ["Sorry, Dr Osei is not free on September 15 at 11 a.m., and a visit costs $40.", "Dr Osei is not free at 11 a.m. on September 15; the fee would be $40 anyway."]) {
      const g = ground(CLINIC, [said(1000, line)], [full]);
      expect(g.contradicted, line).toEqual([]);
      expect(g.availability, line).toEqual([]);
    }
  });

  it("names are not checked against the read: a name beside the slot is the caller's, not a value looked up", () => {
    const cases: Array<[Lexicon, Call, string[]]> = [
      [RESTAURANT, call("c1", "check_availability", SLOTS[0]!.args, { ...SLOTS[0]!.output(false), note: "Held under Jordan Lee" }, 1000), ["Sorry, there's no table under Maya at 9 p.m. on August 7.", "I'm sorry, 9 p.m. on August 7 is fully booked for Maya."]],
      [CLINIC, call("c1", "find_slot", SLOTS[1]!.args, { ...SLOTS[1]!.output(false), note: "Held for Bruno Keller" }, 1000), ["Sorry, Dr Osei is not free for Ines on September 15 at 11 a.m.", "11 a.m. on September 15 is taken, I'm afraid, under Ines."]],
    ];
    for (const [lexicon, read, lines] of cases)
      for (const line of lines) {
        const g = ground(lexicon, [said(1000, line)], [read]);
        expect(g.spoken.some((s) => s.value.kind === "name"), line).toBe(true);
        expect(g.contradicted, line).toEqual([]);
      }
  });
});

// ── Availability statements: the world's own kinds ─────────────────────────────────────────────────

interface KindSlot {
  name: string;
  lexicon: Lexicon;
  read: Call;
  field: string;
  right: string;
  others: string[];
  /** Statements that there is, with {v} a value of the field, about the slot looked up. */
  says: string[];
  /** The same statement with the value in the sentence before, after, first and last. */
  before: string;
  after: string;
  first: string;
  last: string;
  /** The slot said to have no room, naming only the value looked up. */
  noRoom: string[];
}

const KIND_SLOTS: KindSlot[] = [
  {
    name: "restaurant seating",
    lexicon: RESTAURANT,
    read: call("c1", "check_availability", { date: "2026-08-14", time: "19:00", party_size: 2, seating: "patio" }, { available: true, date: "2026-08-14", time: "19:00", party_size: 2, seating: "patio" }, 1000),
    field: "seating",
    right: "patio",
    others: ["bar", "indoor"],
    says: ["Good news, the {v} is available at 7 p.m. on August 14.", "Yes, we have a table at the {v} at 7 p.m. on August 14.", "Great, the {v} has a table free at 7 p.m. on August 14."],
    before: "The {v} is lovely. Good news, the patio is available at 7 p.m. on August 14.",
    after: "Good news, the patio is available at 7 p.m. on August 14. The {v} is lovely too.",
    first: "{V} seating is available at 7 p.m. on August 14.",
    last: "Good news, 7 p.m. on August 14 is available at the {v}",
    noRoom: ["Sorry, the patio is fully booked.", "I'm afraid the patio is full.", "Sorry, we don't have the patio."],
  },
  {
    name: "clinic department",
    lexicon: WARDS,
    read: call("c1", "find_visit", { department: "cardiology", date: "2026-09-15", time: "09:30" }, { department: "cardiology", date: "2026-09-15", time: "09:30", free: true }, 1000),
    field: "department",
    right: "cardiology",
    others: ["dermatology", "paediatrics"],
    says: ["Good news, {v} is free on September 15 at 9:30 a.m.", "Yes, {v} has 9:30 a.m. free on September 15.", "Great, we have a {v} slot free at 9:30 a.m. on September 15."],
    before: "{V} is on the second floor. Good news, cardiology is free on September 15 at 9:30 a.m.",
    after: "Good news, cardiology is free on September 15 at 9:30 a.m. {V} is on the second floor.",
    first: "{V} is free on September 15 at 9:30 a.m.",
    last: "Good news, 9:30 a.m. on September 15 is free in {v}",
    noRoom: ["Sorry, cardiology is fully booked.", "I'm afraid cardiology is full.", "Sorry, cardiology has nothing free."],
  },
];

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const put = (template: string, v: string) => template.replaceAll("{v}", v).replaceAll("{V}", cap(v));

describe("availability statements: values of the world's own kinds", () => {
  for (const d of KIND_SLOTS) {
    it(`${d.name}: another value of the field the read looked up contradicts it, cited exactly, from the moment the read completed`, () => {
      let n = 0;
      for (const other of d.others)
        for (const template of d.says) {
          const line = put(template, other);
          const at = line.indexOf(other);
          const g = ground(d.lexicon, [said(1000, line)], [d.read]);
          expect(g.contradicted.map(describeContradiction), line).toEqual([`utt.assistant.1 "${other}" (${d.field} ${other}, chars ${at}–${at + other.length}) in "${line}" contradicts ${d.read.execution.name} (c1), which holds ${d.field} ${d.right}`]);
          expect(describeValue(g.contradicted[0]!), line).toBe(`utt.assistant.1 "${other}" (${d.field} ${other}, chars ${at}–${at + other.length})`);
          // A read of that value completed after the statement does not hold it for the statement.
          const later = call("c2", d.read.execution.name, { ...d.read.execution.arguments, [d.field]: other }, { ...(d.read.execution.output as Record<string, Json>), [d.field]: other }, 1500);
          expect(ground(d.lexicon, [said(1000, line)], [d.read, later]).contradicted.map((c) => c.value.text), line).toEqual([other]);
          // The value the read holds agrees; generic English knows no such field.
          expect(ground(d.lexicon, [said(1000, put(template, d.right))], [d.read]).contradicted, line).toEqual([]);
          expect(ground(undefined, [said(1000, line)], [d.read]).contradicted, line).toEqual([]);
          n++;
        }
      expect(n).toBe(6);
    });

    it(`${d.name}: a value is the statement's only when it lies in the statement's sentence, from its first character to its last`, () => {
      for (const other of d.others) {
        // In the sentence before or after, it is another sentence's (neither about the read).
        for (const template of [d.before, d.after]) expect(ground(d.lexicon, [said(1000, put(template, other))], [d.read]).contradicted, put(template, other)).toEqual([]);
        // As the sentence's first word, and as its last with nothing after it, it is the statement's.
        for (const template of [d.first, d.last]) {
          const line = put(template, other);
          expect(ground(d.lexicon, [said(1000, line)], [d.read]).contradicted.map((c) => c.value.text.toLowerCase()), line).toEqual([other]);
        }
      }
    });

    it(`${d.name}: a statement that names only the value looked up is about the read, and its polarity is checked`, () => {
      for (const line of d.noRoom) {
        const g = ground(d.lexicon, [said(1000, line)], [d.read]);
        expect(g.availability.map(describeAvailability), line).toEqual([`utt.assistant.1 "${line}" says there is not, but ${d.read.execution.name} (c1) returned ${d.field === "seating" ? "available" : "free"}: true`]);
      }
      // Naming another value only, it is about another slot: not read.
      for (const line of d.noRoom) expect(ground(d.lexicon, [said(1000, line.replace(d.right, d.others[0]!))], [d.read]).availability, line).toEqual([]);
    });
  }

  it("a value of a field the read does not hold neither makes a statement about another slot nor hides its polarity", () => {
    const read = call("c1", "find_visit", { department: "cardiology", date: "2026-09-15", time: "09:30" }, { department: "cardiology", date: "2026-09-15", time: "09:30", free: false }, 1000);
    for (const line of ["Good news, cardiology has a video slot free on September 15 at 9:30 a.m.", "Yes, we have an in person cardiology visit free at 9:30 a.m. on September 15.", "Great, a video visit in cardiology is free on September 15 at 9:30 a.m."]) {
      const g = ground(WARDS, [said(1000, line)], [read]);
      expect(g.availability.map((a) => [a.said, a.result, a.field]), line).toEqual([[true, false, "free"]]);
      expect(g.contradicted, line).toEqual([]);
    }
  });
});

// ── Amounts and record ids stated as what something is ─────────────────────────────────────────────

/** An airline's quote: a change fee, a fare difference and their total. */
const QUOTE_ARGS = { confirmation_code: "QX7K2B", flight_number: "NW219", departure_date: "2026-10-02" };
const quote = (id = "c1", at = 1000, fee = 50) => call(id, "quote_change", QUOTE_ARGS, { ...QUOTE_ARGS, change_fee_usd: fee, fare_difference_usd: 25, total_due_usd: fee + 25 }, at);
/** A restaurant booking that returns its reservation id and its table. */
const booking = (id = "c1", at = 1000, reservation_id = "R-2040") =>
  call(id, "create_reservation", { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2 }, { reservation_id, table: "2A", date: "2026-08-14", time: "19:00", party_size: 2 }, at, "write");

const MONEY_TEMPLATES = ["Your change fee is {v}.", "The fee to change it is {v}.", "That comes to {v}.", "There's a change fee of {v}.", "Okay, the change will cost {v}."];
const ID_TEMPLATES = ["Your reservation number is {v}.", "{V} is your confirmation number.", "The reference is {v}.", "Thanks for waiting, your booking is {v}."];

describe("amounts and record ids stated as what something is", () => {
  it("airline: an amount the quote does not hold contradicts it, citing every amount it holds; one it holds agrees", () => {
    let n = 0;
    for (const template of MONEY_TEMPLATES) {
      for (const [v, value] of [["$60", "60.00"], ["sixty dollars", "60.00"], ["$49.99", "49.99"]] as const) {
        const line = put(template, v);
        const at = line.indexOf(v);
        const g = ground(AIRLINE, [said(1000, line)], [quote()]);
        expect(g.contradicted.map(describeContradiction), line).toEqual([`utt.assistant.1 "${v}" (amount ${value}, chars ${at}–${at + v.length}) in "${line}" contradicts quote_change (c1), which holds amount 50.00, 25.00, 75.00`]);
        expect(g.contradicted[0]!.holds, line).toBe("amount 50.00, 25.00, 75.00");
        n++;
      }
      for (const v of ["$50", "fifty dollars", "$75", "$25.00"]) expect(ground(AIRLINE, [said(1000, put(template, v))], [quote()]).contradicted, put(template, v)).toEqual([]);
    }
    expect(n).toBe(15);
  });

  it("restaurant: a record id of the booking's series that it does not hold contradicts it; its own id agrees however it is said", () => {
    for (const template of ID_TEMPLATES) {
      for (const v of ["R-2041", "R-2400"]) {
        const line = put(template, v);
        const at = line.indexOf(v);
        const g = ground(RESTAURANT, [said(1000, line)], [booking()]);
        expect(g.contradicted.map(describeContradiction), line).toEqual([`utt.assistant.1 "${v}" (record id ${v.replace("-", "")}, chars ${at}–${at + v.length}) in "${line}" contradicts create_reservation (c1), which holds record id R2040`]);
      }
      for (const v of ["R-2040", "R 2040", "r-2040"]) expect(ground(RESTAURANT, [said(1000, put(template, v))], [booking()]).contradicted, put(template, v)).toEqual([]);
    }
  });

  it("only calls completed by the time the statement began count, from the millisecond they complete", () => {
    for (const template of MONEY_TEMPLATES) {
      const line = put(template, "$60");
      expect(ground(AIRLINE, [said(999, line)], [quote()]).contradicted, line).toEqual([]);
      expect(ground(AIRLINE, [said(1000, line)], [quote()]).contradicted.length, line).toBe(1);
      // A later quote that holds the amount does not make it true before it.
      expect(ground(AIRLINE, [said(1000, line)], [quote(), quote("c2", 1001, 60)]).contradicted.map((c) => c.backing.call_id), line).toEqual(["c1"]);
      expect(ground(AIRLINE, [said(1001, line)], [quote(), quote("c2", 1001, 60)]).contradicted, line).toEqual([]);
    }
    for (const template of ID_TEMPLATES) {
      const line = put(template, "R-2041");
      expect(ground(RESTAURANT, [said(999, line)], [booking()]).contradicted, line).toEqual([]);
      expect(ground(RESTAURANT, [said(1000, line)], [booking()]).contradicted.length, line).toBe(1);
    }
  });

  it("a failed call holds nothing: its arguments neither make an amount true nor are the latest to contradict", () => {
    const credit = failed("c2", "apply_credit", { confirmation_code: "QX7K2B", amount_usd: 60 }, 1500);
    for (const template of MONEY_TEMPLATES) {
      const line = put(template, "$60");
      const g = readGrounding({ scenario, case_kind: "crawl", turns: [], utterances: [said(2000, line)], tool_executions: [quote().execution, credit], events: [quote().event], lexicon: AIRLINE });
      expect(g.contradicted.map((c) => [c.backing.call_id, c.holds]), line).toEqual([["c1", "amount 50.00, 25.00, 75.00"]]);
    }
  });

  it("an amount is compared with the latest call that holds an amount, not the latest call", () => {
    const look = call("c2", "get_booking", { confirmation_code: "QX7K2B" }, { confirmation_code: "QX7K2B", flight_number: "NW219", departure_time: "08:15", seat: "12A" }, 1500);
    for (const template of MONEY_TEMPLATES) {
      const line = put(template, "$60");
      expect(ground(AIRLINE, [said(2000, line)], [quote(), look]).contradicted.map(describeContradiction), line).toEqual([
        `utt.assistant.1 "$60" (amount 60.00, chars ${line.indexOf("$60")}–${line.indexOf("$60") + 3}) in "${line}" contradicts quote_change (c1), which holds amount 50.00, 25.00, 75.00`,
      ]);
    }
  });

  it("a record id is compared with the ids of its series only: the latest call holding one, never a flight or a seat", () => {
    // The look-up after the booking holds a table and a flight-like code, neither of the R series.
    const look = call("c2", "check_availability", { date: "2026-08-15", time: "20:00", party_size: 2 }, { available: true, table: "2B", host: "NW218" }, 1500);
    for (const template of ID_TEMPLATES) {
      const line = put(template, "R-2041");
      expect(ground(RESTAURANT, [said(2000, line)], [booking(), look]).contradicted.map((c) => [c.backing.call_id, c.holds]), line).toEqual([["c1", "record id R2040"]]);
    }
    // An id of another series is not compared at all (airline: a flight beside booking codes and seats).
    const codes = call("c1", "get_booking", { confirmation_code: "QX7K2B" }, { confirmation_code: "QX7K2B", seat: "12A" }, 1000);
    for (const line of ["Your flight is NW218.", "Okay, your flight number is NW218.", "NW218 is your flight."]) {
      expect(ground(AIRLINE, [said(1000, line)], [codes]).contradicted, line).toEqual([]);
      expect(ground(AIRLINE, [said(1000, line)], [codes, call("c2", "get_flight", {}, { flight_number: "NW219" }, 1000)]).contradicted.map((c) => c.holds), line).toEqual(["record id NW219"]);
    }
  });

  it("the latest call is the one that completed last, whatever the order the calls were made in; of a tie, the first", () => {
    const line = "Your change fee is $60.";
    // Made first, completed last.
    expect(ground(AIRLINE, [said(3000, line)], [quote("c1", 2000, 40), quote("c2", 1500, 45)]).contradicted.map((c) => c.backing.call_id)).toEqual(["c1"]);
    // Made first, completed first.
    expect(ground(AIRLINE, [said(3000, line)], [quote("c1", 1500, 40), quote("c2", 2000, 45)]).contradicted.map((c) => c.backing.call_id)).toEqual(["c2"]);
    // Completed together.
    expect(ground(AIRLINE, [said(3000, line)], [quote("c1", 2000, 40), quote("c2", 2000, 45)]).contradicted.map((c) => c.backing.call_id)).toEqual(["c1"]);
    expect(ground(AIRLINE, [said(3000, line)], [quote("c1", 2000, 40), quote("c2", 2000, 45)]).contradicted[0]!.holds).toBe("amount 40.00, 25.00, 65.00");
  });

  it("an amount any completed call holds agrees, though a later one holds others", () => {
    const bags = call("c2", "quote_bags", { confirmation_code: "QX7K2B" }, { bag_fee_usd: 35 }, 1500);
    for (const template of MONEY_TEMPLATES) {
      expect(ground(AIRLINE, [said(2000, put(template, "$50"))], [quote(), bags]).contradicted, template).toEqual([]);
      expect(ground(AIRLINE, [said(2000, put(template, "$35"))], [quote(), bags]).contradicted, template).toEqual([]);
      expect(ground(AIRLINE, [said(2000, put(template, "$60"))], [quote(), bags]).contradicted.map((c) => [c.backing.call_id, c.holds]), template).toEqual([["c2", "amount 35.00"]]);
    }
  });

  it("only amounts and record ids stated as what something is: not one named in passing, not a count or a time", () => {
    for (const line of ["Your other booking, R-2041, stays as it is.", "I see R-2041 and R-2042 on file as well.", "So that's 3 people at 8 p.m. on August 14.", "A table for four, then."]) {
      expect(ground(RESTAURANT, [said(2000, line)], [booking()]).contradicted, line).toEqual([]);
    }
    for (const line of ["Refunds over $60 take a week.", "Anything above $60 needs a manager's approval."]) expect(ground(AIRLINE, [said(2000, line)], [quote()]).contradicted, line).toEqual([]);
  });

  it("a question and a sentence that claims an outcome are not such statements; the sentences around them are", () => {
    const wrong = (line: string) => ground(AIRLINE, [said(2000, line)], [quote()]).contradicted.map((c) => [c.sentence, c.value.text]);
    for (const q of ["So your change fee is $60?", "Is the fee to change it $60?", "Would $60 be your change fee?"]) expect(wrong(q), q).toEqual([]);
    // The airline's words claim a rebooking; no write backs it here, so only the statement rule could read it.
    for (const opener of ["I've rebooked you", "I've moved you", "Done, I've rebooked you"]) {
      expect(wrong(`${opener}, and your change fee is $60.`), opener).toEqual([]);
      expect(wrong(`${opener} with a change fee of $60. Thank you.`), opener).toEqual([]);
      expect(wrong(`Thank you. ${opener} with a change fee of $60.`), opener).toEqual([]);
      expect(wrong(`${opener}. Your change fee is $60.`), opener).toEqual([["Your change fee is $60.", "$60"]]);
      expect(wrong(`Your change fee is $60. ${opener}.`), opener).toEqual([["Your change fee is $60.", "$60"]]);
    }
    // Generic English claims no rebooking: there the sentence is a statement.
    expect(ground(undefined, [said(2000, "I've rebooked you, and your change fee is $60.")], [quote()]).contradicted.map((c) => c.value.text)).toEqual(["$60"]);
  });

  it("a stated value is read from the sentence's first character to its last", () => {
    for (const [line, v] of [["$60 is your change fee.", "$60"], ["Your change fee is $60", "$60"], ["Sixty dollars is the fee to change it.", "Sixty dollars"]] as const) {
      expect(ground(AIRLINE, [said(2000, line)], [quote()]).contradicted.map((c) => c.value.text), line).toEqual([v]);
    }
    for (const [line, v] of [["R-2041 is your confirmation number.", "R-2041"], ["Your reservation number is R-2041", "R-2041"]] as const) {
      expect(ground(RESTAURANT, [said(2000, line)], [booking()]).contradicted.map((c) => c.value.text), line).toEqual([v]);
    }
  });
});

describe("a record id said by its digits alone", () => {
  // The booking also holds table 2A, an id that begins with a digit: the digits are compared with it.
  it("is held by an id that is letters, then those digits (the world's words read \"reservation 2040\" as an id)", () => {
    for (const id of ["R-2040", "RES-2040", "rs2040"]) {
      for (const line of ["Reservation 2040 is your reference.", "Booking 2040 is your reservation.", "Okay, that's booking 2040."]) {
        expect(ground(RESTAURANT, [said(2000, line)], [booking("c1", 1000, id)]).contradicted, `${id}: ${line}`).toEqual([]);
      }
    }
  });

  it("is not held by an id that merely ends in them, nor by other values that end in them", () => {
    for (const id of ["R-12040", "R2A2040", "R-2041"]) {
      for (const line of ["Reservation 2040 is your reference.", "Booking 2040 is your reservation."]) {
        const g = ground(RESTAURANT, [said(2000, line)], [booking("c1", 1000, id)]);
        expect(g.contradicted.map((c) => [c.value.value, c.holds]), `${id}: ${line}`).toEqual([["2040", "record id 2A"]]);
      }
    }
    // The digits of a count, an amount or a time are no id.
    const counted = call("c1", "create_reservation", { party_size: 2040 }, { reservation_id: "R-7", table: "2A", total_usd: 2040, time: "20:40" }, 1000, "write");
    expect(ground(RESTAURANT, [said(2000, "Reservation 2040 is your reference.")], [counted]).contradicted.map((c) => c.value.value)).toEqual(["2040"]);
    // Generic English reads no id in those words.
    expect(ground(undefined, [said(2000, "Reservation 2041 is your reference.")], [booking()]).contradicted).toEqual([]);
  });

  it("an id with letters is compared as it is: another series' id that ends in it does not hold it", () => {
    const waitlist = call("c2", "join_waitlist", { date: "2026-08-15" }, { waitlist_id: "WR-2041" }, 1500);
    for (const template of ID_TEMPLATES) {
      const line = put(template, "R-2041");
      expect(ground(RESTAURANT, [said(2000, line)], [booking(), waitlist]).contradicted.map((c) => [c.backing.call_id, c.holds]), line).toEqual([["c1", "record id R2040"]]);
    }
  });
});

describe("an id that begins with digits (a seat)", () => {
  it("is compared with the ids that begin as it does, and not held by a longer id that ends in it", () => {
    const seat = call("c1", "change_seat", { confirmation_code: "QX7K2B", seat: "2A" }, { confirmation_code: "QX7K2B", seat: "2A", boarding_pass: "BP21C" }, 1000, "write");
    for (const line of ["Seat 21C is your seat.", "Seat 21C is your new seat now."]) {
      expect(ground(AIRLINE, [said(2000, line)], [seat]).contradicted.map((c) => [c.value.value, c.holds]), line).toEqual([["21C", "record id 2A"]]);
      expect(ground(AIRLINE, [said(2000, line.replace("21C", "2A"))], [seat]).contradicted, line).toEqual([]);
    }
  });
});

// ── Claims: the backing chosen, and each contradiction once ────────────────────────────────────────

const reservation = (id: string, at: number, time: string) =>
  call(id, "create_reservation", { guest_name: "Maya", date: "2026-08-14", time, party_size: 2 }, { reservation_id: `R-${id === "c1" ? "2040" : "2041"}`, date: "2026-08-14", time, party_size: 2 }, at, "write");

describe("the write that backs a claim, and contradictions de-duplicated", () => {
  const CLAIMS = ["You're booked for 8 p.m.", "Done, your table is booked for 8 p.m.", "All set, I've reserved it for 8 p.m."];

  it("the claim reports the backing write that completed last before it; of two completed together, the first", () => {
    for (const line of CLAIMS) {
      // 19:00 first, then 20:00: the claim of 8 p.m. reports the later one and agrees with it.
      const g = ground(RESTAURANT, [said(3000, line)], [reservation("c1", 1000, "19:00"), reservation("c2", 2000, "20:00")]);
      expect(g.claims.map((c) => c.backing?.call_id), line).toEqual(g.claims.map(() => "c2"));
      expect(g.contradicted, line).toEqual([]);
      // Listed in the other order (made in parallel), the one that completed last still backs it.
      const swapped = ground(RESTAURANT, [said(3000, line)], [reservation("c2", 2000, "20:00"), reservation("c1", 1000, "19:00")]);
      expect(swapped.claims.map((c) => c.backing?.call_id), line).toEqual(g.claims.map(() => "c2"));
      // Completed in the same millisecond: the first listed.
      const tie = ground(RESTAURANT, [said(3000, line)], [reservation("c1", 2000, "19:00"), reservation("c2", 2000, "20:00")]);
      expect(tie.claims.map((c) => c.backing?.call_id), line).toEqual(g.claims.map(() => "c1"));
      expect(tie.contradicted.map((c) => [c.value.text, c.holds]), line).toEqual([["8 p.m.", "time 19:00"]]);
    }
  });

  it("a value said in two claims of one sentence is one contradiction; two values are two; so is the same value in two utterances", () => {
    const backing = reservation("c1", 1000, "19:00");
    for (const line of ["Your table is booked and reserved for 8 p.m.", "Your table is booked and reserved for eight in the evening."]) {
      const g = ground(RESTAURANT, [said(2000, line)], [backing]);
      expect(g.claims.length, line).toBe(2);
      expect(g.contradicted.map((c) => [c.value.kind, c.value.value]), line).toEqual([["time", "20:00"]]);
    }
    for (const line of ["You're booked for three at 8 p.m.", "You're booked for 3 people at 8 p.m."]) {
      expect(ground(RESTAURANT, [said(2000, line)], [backing]).contradicted.map((c) => c.value.kind), line).toEqual(["count", "time"]);
    }
    for (const line of CLAIMS) {
      const g = ground(RESTAURANT, [said(2000, line, 1), said(3000, line, 2)], [backing]);
      expect(g.contradicted.map((c) => c.utterance.evidence_id), line).toEqual(["utt.assistant.1", "utt.assistant.2"]);
    }
  });

  it("values are read in the world's words: \"six tables\" is a count only where tables are counted", () => {
    for (const line of ["We have six tables free at 9 p.m.", "Six tables are left for tonight."]) {
      expect(ground(RESTAURANT, [said(2000, line)], []).spoken.map((s) => [s.value.kind, s.value.value]).filter(([k]) => k === "count"), line).toEqual([["count", "6"]]);
      expect(ground(undefined, [said(2000, line)], []).spoken.filter((s) => s.value.kind === "count"), line).toEqual([]);
    }
  });
});

// ── Result communication ────────────────────────────────────────────────────────────────────────────

/** A call, the world event it made (with its own result, which may differ from the output), and who said what after it. */
function heard(name: string, kind: "read" | "write", args: Record<string, Json>, output: Json | undefined, result: Json | undefined, lines: string[], lexicon: Lexicon = GENERIC, withEvent = true) {
  const execution: ToolExecution = { call_id: "c1", name, arguments: args, raw_arguments: JSON.stringify(args), status: "completed", ...(output !== undefined ? { output } : {}), requested_ms: 0, completed_ms: 100, world_seq: 1 };
  const events: WorldEvent[] = withEvent ? [{ seq: 1, at_ms: 100, operation: name, kind, args, outcome: "ok", ...(result !== undefined ? { result } : {}), patches: [], cause: { trial: "t#1", call_id: "c1" } }] : [];
  return readCommunication([execution], lines.map((l, i) => said(200 + i, l, i + 1)), events, lexicon)[0]!;
}

interface TextDomain {
  name: string;
  call: string;
  args: Record<string, Json>;
  /** The free text the write produced, and the same result with it missing. */
  output: Record<string, Json>;
  bare: Record<string, Json>;
  /** How the produced text is said, and how the caller's own text given to the call is said back as now theirs. */
  says: string[];
  given: string;
}

const TEXT_DOMAINS: TextDomain[] = [
  {
    name: "airline cabin",
    call: "change_cabin",
    args: { pnr: "SKY456", passenger: "Lena Fox" },
    output: { cabin: "premium economy", passenger: "Lena Fox" },
    bare: { passenger: "Lena Fox" },
    says: ["Premium Economy it is.", "Right: Premium Economy, all sorted.", "Great news, you're in Premium Economy now."],
    given: "Lena Fox",
  },
  {
    name: "clinic referral",
    call: "refer_patient",
    args: { patient: "Ravi Shah", reason: "chest pain" },
    output: { department: "Cardiology", wing: "north wing", patient: "Ravi Shah" },
    bare: { patient: "Ravi Shah" },
    says: ["The North Wing is where you'll go.", "Right: the north wing, all sorted.", "Great news, you'll be seen in the North Wing."],
    given: "Ravi Shah",
  },
];

describe("result communication", () => {
  for (const d of TEXT_DOMAINS) {
    it(`${d.name}: free text the write produced is communicated, held by the output or by the world's result alone`, () => {
      for (const line of d.says) {
        expect(heard(d.call, "write", d.args, d.output, d.output, [line]).how, line).toBe(`states "${line}"`);
        // Only the call's output holds it (the world's result is bare), or no world event at all.
        expect(heard(d.call, "write", d.args, d.output, d.bare, [line]).how, line).toBe(`states "${line}"`);
        expect(heard(d.call, "write", d.args, d.output, undefined, [line], GENERIC, false).how, line).toBe(`states "${line}"`);
        // Only the world's result holds it.
        expect(heard(d.call, "write", d.args, d.bare, d.output, [line]).how, line).toBe(`states "${line}"`);
        expect(heard(d.call, "write", d.args, undefined, d.output, [line]).how, line).toBe(`states "${line}"`);
        // Neither.
        expect(heard(d.call, "write", d.args, d.bare, d.bare, [line]).utterance, line).toBeNull();
      }
    });

    it(`${d.name}: a statement that denies is no communication; a leading "No" only answers`, () => {
      const text = d.says[0]!.replace(/\.$/, "");
      const words = text.replace(/ it is$/, "").replace(/ is where you'll go$/, "");
      for (const line of [`No problem, ${text}.`, `No worries: ${text}.`]) expect(heard(d.call, "write", d.args, d.output, d.output, [line]).how, line).toBe(`states "${line}"`);
      for (const line of [`Sorry, there is no ${words} left.`, `Not ${words}, I'm afraid.`, `I'm afraid it is not ${words}.`, `Never ${words}, sorry.`]) {
        expect(heard(d.call, "write", d.args, d.output, d.output, [line]).utterance, line).toBeNull();
      }
    });
  }

  it("a value of the result is communicated from the output, or from the world's result, in a statement", () => {
    const cases: Array<[string, Record<string, Json>, string[]]> = [
      ["lookup", { code: "R-7731" }, ["It is R-7731.", "Your reservation is R-7731."]],
      ["find_appointment", { appointment_id: "C-771", time: "09:30" }, ["It is C-771.", "You're seeing Dr Osei at 9:30."]],
    ];
    for (const [name, output, lines] of cases)
      for (const line of lines) {
        expect(heard(name, "read", {}, output, undefined, [line], GENERIC, false).how, line).toMatch(/^states "/);
        expect(heard(name, "read", {}, undefined, output, [line]).how, line).toMatch(/^states "/);
        expect(heard(name, "read", {}, {}, {}, [line]).utterance, line).toBeNull();
      }
  });

  it("a value said in a question is not communicated, whether the question comes before or after a statement; one said first or last in a statement is", () => {
    const cases: Array<[string, Record<string, Json>, string]> = [
      ["lookup", { code: "R-7731" }, "R-7731"],
      ["find_appointment", { appointment_id: "C-771" }, "C-771"],
    ];
    for (const [name, output, v] of cases) {
      for (const line of [`Is ${v} the one? Let me know.`, `Let me see. Is ${v} the one?`, `Would ${v} be it? Take your time.`, `One moment. Shall I use ${v}?`]) {
        expect(heard(name, "read", {}, output, output, [line]).utterance, line).toBeNull();
      }
      for (const line of [`${v} is the one.`, `It is ${v}`, `Okay. ${v} is yours to keep`]) expect(heard(name, "read", {}, output, output, [line]).how, line).toBe(`states "${v}"`);
    }
  });

  it("a count is read in the world's words: \"six tables\" states a result that holds 6 where tables are counted", () => {
    for (const line of ["We have six tables left.", "Six tables are left for tonight."]) {
      const r = heard("count_tables", "read", { date: "2026-08-14" }, { tables_free: 6 }, { tables_free: 6 }, [line], RESTAURANT);
      expect(r.how, line).toMatch(/^states "[Ss]ix tables"$/);
      expect(heard("count_tables", "read", { date: "2026-08-14" }, { tables_free: 6 }, { tables_free: 6 }, [line]).utterance, line).toBeNull();
    }
  });

  it("a read's yes-or-no answer agrees with one of its boolean fields (not necessarily all of them)", () => {
    const output = { free: true, waitlist: false, day: "thursday" };
    for (const line of ["Yes, we have a service slot free on Thursday.", "Good news: Thursday is free.", "I checked, and we have a slot free on Thursday."]) {
      expect(heard("check_day", "read", { day: "thursday" }, output, output, [line]).how, line).toBe(`says "${line}"`);
      // Neither field agrees: nothing communicated.
      expect(heard("check_day", "read", { day: "thursday" }, { ...output, free: false, waitlist: false }, { ...output, free: false }, [line]).utterance, line).toBeNull();
    }
  });

  it("free text is a result's string with a word of three letters or more: a bare code or a word glued to digits is not", () => {
    const cases: Array<[Record<string, Json>, string, boolean]> = [
      [{ desk: "Reserve Desk B" }, "Pick it up at the Reserve Desk B.", true],
      [{ desk: "Desk 4 on level B" }, "Please go to desk 4 on level B.", true],
      [{ row: "4 B" }, "Go to 4 B.", false],
      [{ row: "C 2" }, "That's row C 2.", false],
      [{ allowance: "20kgs" }, "Your allowance is 20kgs.", false],
      [{ parking: "bay12" }, "You're parked in bay12.", false],
    ];
    for (const [output, line, communicated] of cases) {
      const r = heard("assign", "write", { pnr: "SKY456" }, output, output, [line]);
      expect(r.how, line).toBe(communicated ? `states "${line}"` : null);
    }
    // Text in a list and in nested objects counts; a field left undefined by the world is skipped.
    expect(heard("assign", "write", { pnr: "SKY456" }, { places: [{ desk: "Reserve Desk B" }] }, {}, ["Pick it up at the Reserve Desk B."]).how).toBe('states "Pick it up at the Reserve Desk B."');
    const partial = { desk: "Reserve Desk B", note: undefined } as unknown as Json;
    expect(heard("assign", "write", { pnr: "SKY456" }, partial, partial, ["Pick it up at the Reserve Desk B."]).how).toBe('states "Pick it up at the Reserve Desk B."');
  });
});

describe("result communication: a value or text the write holds is now the caller's", () => {
  const LIBRARY = { name: "lend_book", args: { member: "Omar", title: "the hobbit" }, output: { loan_id: "L-1", title: "the hobbit", member: "Omar" } };
  const CABIN = { name: "change_cabin", args: { pnr: "SKY456", cabin: "premium economy" }, output: { pnr: "SKY456", cabin: "premium economy" } };

  for (const d of [
    { ...LIBRARY, thing: "The Hobbit" },
    { ...CABIN, thing: "Premium Economy" },
  ]) {
    it(`${d.name}: "${d.thing} is yours" says so, held by the output or the world's result; deferred or hedged it does not`, () => {
      const yes = [`${d.thing} is yours.`, `${d.thing} is all yours, Omar.`, `${d.thing} is yours, and I will email a receipt.`, `${d.thing} is yours; you can collect it if you like.`];
      for (const line of yes) {
        expect(heard(d.name, "write", d.args, d.output, d.output, [line]).how, line).toBe(`says "${line}"`);
        // Held by the output only, or by the world's result only.
        expect(heard(d.name, "write", d.args, d.output, {}, [line]).how, line).toBe(`says "${line}"`);
        expect(heard(d.name, "write", d.args, {}, d.output, [line]).how, line).toBe(`says "${line}"`);
        // Neither holds it.
        expect(heard(d.name, "write", d.args, {}, {}, [line]).utterance, line).toBeNull();
        // After a read nothing is given.
        expect(heard(d.name, "read", d.args, d.output, d.output, [line]).utterance, line).toBeNull();
      }
      const no = [
        `${d.thing} can be yours.`,
        `${d.thing} will be yours.`,
        `${d.thing} will be yours tomorrow.`,
        `If you come today, ${d.thing} is yours.`,
        `${d.thing} is not yours yet.`,
        `It is yours: ${d.thing}.`,
        `It's yours — ${d.thing}, I mean.`,
        "The choice is yours.",
      ];
      for (const line of no) expect(heard(d.name, "write", d.args, d.output, d.output, [line]).utterance, line).toBeNull();
    });
  }
});

// ── Messages ────────────────────────────────────────────────────────────────────────────────────────

describe("the messages a fault is cited with", () => {
  const corrected = Scenario.parse({ ...scenario, input: { text: "Book Maya on August 7, sorry, August 6, at 7 p.m. for two." } });
  const clinicCorrected = Scenario.parse({ ...scenario, input: { text: "Book me with Dr Osei on September 12, actually, make it September 13, at 9:30 a.m." } });

  it("a value only superseded words hold: the value, its span, and the correction", () => {
    const cases: Array<[Scenario, Lexicon, string, string, string]> = [
      [corrected, RESTAURANT, "Noted, August 7 at 7 p.m. for two.", "August 7", "date 08-07: the caller corrected it to 08-06 at 0 ms"],
      [corrected, RESTAURANT, "So that's the seventh of August, then.", "the seventh of August", "date 08-07: the caller corrected it to 08-06 at 0 ms"],
      [clinicCorrected, CLINIC, "Right, September 12 at 9:30 a.m. with Dr Osei.", "September 12", "date 09-12: the caller corrected it to 09-13 at 0 ms"],
    ];
    for (const [s, lexicon, line, v, tail] of cases) {
      const g = ground(lexicon, [said(1000, line)], [], { scenario: s });
      const at = line.indexOf(v);
      const [kind, rest] = [tail.slice(0, tail.indexOf(":")), tail.slice(tail.indexOf(":"))];
      expect(g.superseded.map(describeSuperseded), line).toEqual([`utt.assistant.1 "${v}" (${kind}, chars ${at}–${at + v.length})${rest}`]);
    }
  });

  it("a claim's contradicted value says whether it was corrected away, and says nothing more when it was not", () => {
    const write = call("c1", "create_reservation", { guest_name: "Maya", date: "2026-08-06", time: "19:00", party_size: 2 }, { reservation_id: "R-2040", date: "2026-08-06", time: "19:00", party_size: 2 }, 1000, "write");
    for (const line of ["You're booked for August 7.", "Done, your table is booked for August 7 at 7 p.m."]) {
      const at = line.indexOf("August 7");
      const g = ground(RESTAURANT, [said(2000, line)], [write], { scenario: corrected });
      expect(g.contradicted.map(describeContradiction), line).toEqual([
        `utt.assistant.1 "August 7" (date 08-07, chars ${at}–${at + 8}) in "${line}" contradicts create_reservation (c1), which holds date 2026-08-06; the caller corrected it to 08-06 at 0 ms`,
      ]);
      const plain = ground(RESTAURANT, [said(2000, line)], [write]);
      expect(plain.contradicted.map(describeContradiction), line).toEqual([`utt.assistant.1 "August 7" (date 08-07, chars ${at}–${at + 8}) in "${line}" contradicts create_reservation (c1), which holds date 2026-08-06`]);
    }
  });

  it("a claim's value of a kind its backing holds none of, held by nothing else, is cited as held by neither", () => {
    const write = call("c1", "create_reservation", { guest_name: "Maya", date: "2026-08-06" }, { reservation_id: "R-2040" }, 1000, "write");
    const line = "You're booked at 8 p.m.";
    expect(ground(RESTAURANT, [said(2000, line)], [write]).contradicted.map(describeContradiction)).toEqual([
      `utt.assistant.1 "8 p.m." (time 20:00, chars 17–23) in "${line}" is held neither by create_reservation (c1) nor by the caller's current words`,
    ]);
  });

  it("an unbacked claim names what it claims and the write it came before", () => {
    const write = call("c1", "create_reservation", { guest_name: "Maya" }, { reservation_id: "R-2040" }, 3000, "write");
    const g = ground(RESTAURANT, [said(2000, "You're booked.")], [write]);
    expect(g.unbacked.map(describeClaim)).toEqual(['utt.assistant.1 "You\'re booked" (chars 0–13, at 2000 ms) claims "booked" before create_reservation (c1) completed at 3000 ms']);
  });
});

// ── Expected facts ──────────────────────────────────────────────────────────────────────────────────

const fact = (f: Record<string, unknown>) => ExpectedFact.parse(f);
const lines = (...texts: string[]): Utterance[] => texts.map((text, i) => said(1000 * (i + 1), text, i + 1));

describe("expected facts read in the world's words", () => {
  it("a fact's value is typed by the world's words: \"six tables\" is a count where tables are counted, words elsewhere", () => {
    expect(factValue("six tables", RESTAURANT)).toEqual({ kind: "count", readings: ["6"] });
    expect(factValue("six tables")).toEqual({ kind: "text", words: ["6", "tables"] });
    expect(factValue("2 bags", AIRLINE)).toEqual({ kind: "count", readings: ["2"] });
    expect(factValue("2 bags")).toEqual({ kind: "text", words: ["2", "bags"] });
  });

  it("a count said in the world's words near the topic contradicts a count fact", () => {
    const most = fact({ key: "largest_party", value: 8, must: "not_contradict", about: ["join"] });
    for (const text of ["We can join up to ten tables.", "We join 10 tables at most."]) {
      expect(checkFacts([most], lines(text), RESTAURANT).map((v) => v.ok), text).toEqual([false]);
      expect(checkFacts([most], lines(text)).map((v) => v.ok), text).toEqual([true]);
    }
    const bags = fact({ key: "bags", value: 2, must: "not_contradict", about: ["check"] });
    expect(checkFacts([bags], lines("You can check 3 bags for free."), AIRLINE).map((v) => v.detail)).toEqual(['bags: utt.assistant.1 "3 bags" (count 3, chars 14–20) contradicts 2']);
    expect(checkFacts([bags], lines("You can check 3 bags for free.")).map((v) => v.ok)).toEqual([true]);
  });
});

describe("expected facts said as they are written, digit by digit", () => {
  const flight = fact({ key: "flight", value: "NW 218" });
  const seat = fact({ key: "seat", value: "21C" });

  it("the digits said one by one are one number, beside whatever follows them", () => {
    const said2 = ["You're on NW two one eight.", "You're on NW 2 1 8.", "You're on NW 2 1 8. B12 is your gate.", "You're on NW 2 1 8, 12A is your seat.", "You're on NW 2 1 8, flight time two hours."];
    for (const text of said2) {
      const [v] = checkFacts([flight], lines("Let me check.", text), AIRLINE);
      expect(v, text).toEqual({ fact: flight, ok: true, detail: 'flight: "NW 218" said in utt.assistant.2', evidence_ids: ["utt.assistant.2"] });
    }
    for (const text of ["Your seat is two one C.", "I have you in 2 1 C", "Your seat is twenty one C."]) {
      expect(checkFacts([seat], lines("One moment.", text))[0], text).toEqual({ fact: seat, ok: true, detail: 'seat: "21C" said in utt.assistant.2', evidence_ids: ["utt.assistant.2"] });
    }
  });

  it("digits of another number are not it", () => {
    for (const text of ["You're on NW two one nine.", "You're on NW 2 1 8 7.", "You're on NW two eight."]) {
      const [v] = checkFacts([flight], lines(text), AIRLINE);
      expect(v!.ok, text).toBe(false);
      expect(v!.evidence_ids, text).toEqual(["utt.assistant.1"]);
    }
  });
});
