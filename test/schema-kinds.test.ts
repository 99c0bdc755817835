import { describe, expect, it } from "vitest";
import { z } from "zod";
import { enumKindsOf, heldKindValues, readKindValues } from "../src/core/language/kinds";
import { lexiconOf } from "../src/core/language/vocabulary";
import { statedAsIs, readValues } from "../src/core/language/values";
import { grade } from "../src/core/verify/deterministic";
import { defineWorld } from "../src/core/world/define";
import { OperationError, type Json, type WorldDefinition } from "../src/core/world/types";
import { restaurantWorld, scenarioWith, script, type Step } from "./grading-rules-fixtures";

/**
 * Values of the world's own kinds (docs/grading.md): every enum field of a world's state and operation
 * schemas is a kind of value, and a claim's value of that kind is checked against what its backing holds of
 * the field; an amount or a record id stated as what something is ("Your change fee is $75") is checked
 * against the latest call that holds that kind. Sentences are generated (openers × templates × values) in
 * three domains: a restaurant's seating, an airline's cabin, a clinic's department.
 */

// ── Two worlds of this test, beside the bundled restaurant ──────────────────────────────────────────

const Cabin = z.enum(["economy", "premium_economy", "business", "first"]);
const AirlineState = z.strictObject({
  bookings: z.record(z.string(), z.strictObject({ code: z.string(), passenger: z.string(), flight: z.string(), cabin: Cabin })),
  change_fee_usd: z.number(),
});
type AirlineState = z.output<typeof AirlineState>;

const cabinWorld = defineWorld<AirlineState>({
  name: "cabins",
  version: "1.0.0",
  state: AirlineState,
  operations: {
    check_cabin: {
      kind: "read",
      description: "Whether a cabin has a seat free on a flight.",
      args: z.strictObject({ flight: z.string(), cabin: Cabin }),
      run: ({ args }) => ({ flight: args.flight, cabin: args.cabin, has_seats: args.cabin !== "first" }),
    },
    book_flight: {
      kind: "write",
      effect: "create",
      entity: "booking",
      description: "Book a seat in a cabin.",
      args: z.strictObject({ passenger: z.string(), flight: z.string(), cabin: Cabin }),
      run: ({ state, args, random }) => {
        const code = random.id("B");
        state.bookings[code] = { code, ...args };
        return { confirmation_code: code, flight: args.flight, cabin: args.cabin };
      },
    },
    quote_change: {
      kind: "read",
      description: "What changing a booking costs.",
      args: z.strictObject({ confirmation_code: z.string() }),
      run: ({ state, args }) => {
        if (!state.bookings[args.confirmation_code]) throw new OperationError("not_found", "No such booking.");
        return { confirmation_code: args.confirmation_code, change_fee_usd: state.change_fee_usd, fare_difference_usd: 0 };
      },
    },
  },
  vocabulary: { verbs: { book: "create" }, nouns: ["seat", "flight"] },
});
const CABIN_STATE = { bookings: { "B-100001": { code: "B-100001", passenger: "Omar Haddad", flight: "NW218", cabin: "economy" } }, change_fee_usd: 50 };

const Department = z.enum(["cardiology", "dermatology", "general_practice", "paediatrics", "orthopaedics"]);
const ClinicState = z.strictObject({
  visits: z.record(z.string(), z.strictObject({ id: z.string(), patient: z.string(), department: Department, date: z.string() })),
  copay_usd: z.number(),
});
type ClinicState = z.output<typeof ClinicState>;

const departmentWorld = defineWorld<ClinicState>({
  name: "departments",
  version: "1.0.0",
  state: ClinicState,
  operations: {
    book_visit: {
      kind: "write",
      effect: "create",
      entity: "visit",
      description: "Book a visit to a department.",
      args: z.strictObject({ patient: z.string(), department: Department, date: z.string() }),
      run: ({ state, base, args, random }) => {
        const id = random.id("V");
        state.visits[id] = { id, ...args };
        return { visit_id: id, department: args.department, date: args.date, copay_usd: base.copay_usd };
      },
    },
  },
  vocabulary: { verbs: { book: "create", schedule: "create" }, nouns: ["appointment"] },
});
const DEPARTMENT_STATE = { visits: {}, copay_usd: 20 };

// ── Generation ──────────────────────────────────────────────────────────────────────────────────────

const checkOf = (g: ReturnType<typeof grade>, id: string) => g.checks.find((c) => c.id === id)!;

/** "premium_economy" as speech says it. */
const spoken = (value: string) => value.replace(/[_-]/g, " ");

/** Every opener with every template, each template's {v} filled with a value. */
function sentences(openers: readonly string[], templates: readonly string[], value: string): string[] {
  return openers.flatMap((o) => templates.map((t) => t.replaceAll("{o}", o).replaceAll("{v}", value)));
}

interface KindDomain {
  name: string;
  world: WorldDefinition;
  initial: Record<string, unknown>;
  request: string;
  write: { call: string; args: Record<string, Json> };
  field: string;
  /** The value the write holds, and the other values of its enum (as declared). */
  right: string;
  others: string[];
  openers: string[];
  /** Sentences with {o} (an opener that claims the write) and {v} (a value of the field, as spoken). */
  templates: string[];
}

const DOMAINS: KindDomain[] = [
  {
    name: "restaurant seating",
    world: restaurantWorld,
    initial: {},
    request: "Book a table for two under Maya on August 14 at 7 p.m., on the patio please.",
    write: { call: "create_reservation", args: { guest_name: "Maya", date: "2026-08-14", time: "19:00", party_size: 2, seating: "patio" } },
    field: "seating",
    right: "patio",
    others: ["indoor", "outdoor", "bar"],
    openers: ["You're booked", "Done, you're booked", "All set, it's booked", "Great news, your table is booked"],
    templates: ["{o} at the {v}.", "{o} for two at 7 p.m., {v} seating.", "{o}: a {v} table for two on August 14.", "{o} and seated at the {v} at 7 p.m.", "{o}, {v} seating as you asked."],
  },
  {
    name: "airline cabin",
    world: cabinWorld as unknown as WorldDefinition,
    initial: CABIN_STATE,
    request: "Please book Omar Haddad on NW218 in premium economy.",
    write: { call: "book_flight", args: { passenger: "Omar Haddad", flight: "NW218", cabin: "premium_economy" } },
    field: "cabin",
    right: "premium_economy",
    others: ["economy", "business"],
    openers: ["You're booked", "Done, you're booked", "All set, it's booked", "Your seat is booked"],
    templates: ["{o} in {v} on NW218.", "{o}, {v} cabin.", "{o} on NW218, seated in {v}.", "{o}: {v} it is, flight NW218.", "{o} in the {v} cabin."],
  },
  {
    name: "clinic department",
    world: departmentWorld as unknown as WorldDefinition,
    initial: DEPARTMENT_STATE,
    request: "Could you book Ines Duarte into general practice on 2026-09-15?",
    write: { call: "book_visit", args: { patient: "Ines Duarte", department: "general_practice", date: "2026-09-15" } },
    field: "department",
    right: "general_practice",
    others: ["cardiology", "dermatology", "paediatrics"],
    openers: ["You're booked", "Done, you're booked", "All set, your appointment is booked", "Your visit is scheduled"],
    templates: ["{o} with {v} on September 15.", "{o} in {v}.", "{o}, {v}, September 15.", "{o} at {v} for September 15.", "{o}: the {v} department."],
  },
];

describe("enum fields of the world's schemas are kinds of value", () => {
  it("the restaurant's seating and reservation status, from its state and arguments", () => {
    const kinds = lexiconOf(restaurantWorld).kinds;
    expect(kinds).toContainEqual({ field: "seating", values: ["indoor", "outdoor", "patio", "bar"] });
    expect(kinds).toContainEqual({ field: "status", values: ["confirmed", "cancelled"] });
    // One field with one set of values is one kind, however many schemas declare it.
    expect(kinds.filter((k) => k.field === "seating")).toHaveLength(1);
  });

  it("enums and unions of string literals at any depth, through optional, nullable, default, arrays and records", () => {
    const schema = z.strictObject({
      a: z.enum(["x", "y_z"]).nullable().optional().default("x"),
      b: z.union([z.literal("p"), z.literal("q")]),
      c: z.array(z.enum(["m", "n"])),
      d: z.record(z.string(), z.object({ e: z.literal(["u", "v"]) })),
      f: z.enum(["only"]),
      g: z.union([z.literal("s"), z.number()]),
      h: z.string(),
    });
    const kinds = enumKindsOf([schema]);
    expect(kinds).toEqual([
      { field: "a", values: ["x", "y_z"] },
      { field: "b", values: ["p", "q"] },
      { field: "c", values: ["m", "n"] },
      { field: "e", values: ["u", "v"] },
    ]);
  });

  it("reads values in speech: whole words, any case, multi-word values, '_' and '-' as spaces; never a function word, an ordinal or an outcome word", () => {
    const lexicon = lexiconOf(cabinWorld);
    const read = (text: string) => readKindValues(text, lexicon.kinds, lexicon.outcomeWords).map((v) => [v.value, v.text, v.denied]);
    expect(read("You're in Premium Economy.")).toEqual([["premium_economy", "Premium Economy", false]]);
    expect(read("premium-economy, not economy")).toEqual([["premium_economy", "premium-economy", false], ["economy", "economy", true]]);
    expect(read("Economical businesses")).toEqual([]);
    expect(read("Your first flight is booked.")).toEqual([]);
    expect(read("It's premium. Economy it is.")).toEqual([["economy", "Economy", false]]);
    expect(read("Economy is full.")).toEqual([["economy", "Economy", true]]);
    const guarded = enumKindsOf([z.object({ pick: z.enum(["any", "none", "window", "confirmed"]) })]);
    expect(readKindValues("Any window is fine, none taken; it's confirmed.", guarded, lexiconOf(restaurantWorld).outcomeWords).map((v) => v.value)).toEqual(["window"]);
  });

  it("the evidence holds a kind's value under its field, compared by words", () => {
    const [cabin] = enumKindsOf([z.object({ cabin: Cabin })]);
    expect(heldKindValues({ out: { cabin: "Premium Economy" }, other: "business" }, cabin!)).toEqual(["premium_economy"]);
    expect(heldKindValues({ cabin: null, class: "business" }, cabin!)).toEqual([]);
  });
});

describe("a claim's value of the world's own kinds is checked against its backing, in three domains", () => {
  for (const d of DOMAINS) {
    const scenario = scenarioWith(d.request, [{ name: d.write.call, arguments: d.write.args }]);
    const trial = (say: string, write = d.write) => grade(script({ world: d.world, initial: d.initial, scenario }, [{ say: "One moment." }, { ...write }, { say }]));

    it(`${d.name}: every generated claim that says the ${d.field} the write holds passes grounded_response`, () => {
      const lines = sentences(d.openers, d.templates, spoken(d.right));
      expect(lines.length).toBeGreaterThanOrEqual(20);
      for (const line of lines) {
        const g = trial(line);
        expect(checkOf(g, "grounded_response"), line).toMatchObject({ status: "passed" });
        // It was read: the same line with the value in capitals passes too.
        expect(checkOf(trial(line.replace(spoken(d.right), spoken(d.right).toUpperCase())), "grounded_response").status, line).toBe("passed");
      }
    });

    it(`${d.name}: every generated claim that says another ${d.field} fails grounded_response, naming the value and what the write holds`, () => {
      let checked = 0;
      for (const other of d.others) {
        for (const line of sentences(d.openers, d.templates, spoken(other))) {
          const grounded = checkOf(trial(line), "grounded_response");
          expect(grounded.status, line).toBe("failed");
          const at = line.indexOf(spoken(other));
          expect(grounded.rationale, line).toContain(`utt.assistant.2 "${spoken(other)}" (${d.field} ${other}, chars ${at}–${at + spoken(other).length}) in "${line}" contradicts ${d.write.call} (c2), which holds ${d.field} ${d.right}`);
          expect(grounded.evidence_ids).toEqual(expect.arrayContaining(["utt.assistant.2", "tool.c2"]));
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(40);
    });

    it(`${d.name}: no false fail when the write holds no ${d.field}, when the value is denied, or when the sentence claims nothing`, () => {
      const { [d.field]: _, ...without } = d.write.args;
      const bare = { call: d.write.call, args: without };
      // The write holds no value of the field (the restaurant's seating is null): nothing to contradict.
      const request = scenarioWith(d.request, [{ name: d.write.call, arguments: without }]);
      for (const line of sentences(d.openers, d.templates, spoken(d.others[0]!))) {
        const g = grade(script({ world: d.world, initial: d.initial, scenario: request }, [{ say: "One moment." }, bare, { say: line }]));
        expect(checkOf(g, "grounded_response").rationale, line).not.toContain("contradicts");
      }
      // Denied in its clause: "…, not <other>".
      for (const opener of d.openers) {
        const line = `${opener} in ${spoken(d.right)}, not ${spoken(d.others[0]!)}.`;
        expect(checkOf(trial(line), "grounded_response").status, line).toBe("passed");
      }
      // A clause that says another value has no room is about that one, not the claim's.
      for (const opener of d.openers) {
        for (const tail of ["is full", "is fully booked", "was taken", "is closed today"]) {
          const line = `${opener} in ${spoken(d.right)}; ${spoken(d.others[0]!)} ${tail}.`;
          expect(checkOf(trial(line), "grounded_response").status, line).toBe("passed");
        }
      }
      // A question names a value but claims nothing.
      expect(checkOf(trial(`You're booked in ${spoken(d.right)}. Would you prefer ${spoken(d.others[1]!)} next time?`), "grounded_response").status).toBe("passed");
    });
  }

  it("an availability statement's value of a kind is checked against the read it reports", () => {
    const scenario = scenarioWith("Is there a patio table for two on August 14 at 7 p.m.?", [{ name: "check_availability", arguments: {} }]);
    const read = { call: "check_availability", args: { date: "2026-08-14", time: "19:00", party_size: 2, seating: "patio" } };
    const run = (say: string) => checkOf(grade(script({ world: restaurantWorld, initial: {}, scenario }, [read, { say }])), "grounded_response");
    for (const opener of ["Good news:", "Yes,", "Great,"]) {
      expect(run(`${opener} the patio is available at 7 p.m. on August 14.`).status).toBe("passed");
      for (const other of ["bar", "indoor", "outdoor"]) {
        const wrong = run(`${opener} the ${other} is available at 7 p.m. on August 14.`);
        expect(wrong.status, other).toBe("failed");
        expect(wrong.rationale).toContain(`"${other}" (seating ${other}`);
        expect(wrong.rationale).toContain("contradicts check_availability (c1), which holds seating patio");
      }
    }
    // A statement that names nothing the read holds (no time, date or value of it) is about another slot: not read.
    expect(run("Sorry, the bar is full.").rationale).not.toContain("contradicts");
    expect(run("Good news: the patio is available.").status).toBe("passed");
    // One that names the patio is about the read: its polarity is checked (the look-up found the patio free).
    expect(run("Sorry, the patio is fully booked.").status).toBe("failed");
  });
});

// ── Amounts and record ids stated as what something is ────────────────────────────────────────────

describe("an amount or a record id stated as what something is, checked against the latest call that holds its kind", () => {
  const OPENERS = ["", "Okay,", "Thanks for waiting,", "Right,"];
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const line = (opener: string, template: string, v: string) => (opener ? `${opener} ${template.replace("{v}", v)}` : cap(template.replace("{v}", v)));

  it("reads an amount or an id stated as what something is, and not one named in passing", () => {
    const stated = (text: string) => readValues(text).filter((v) => statedAsIs(text, v)).map((v) => v.value);
    expect(stated("Your change fee is $75.")).toEqual(["75.00"]);
    expect(stated("That's fifty dollars.")).toEqual(["50.00"]);
    expect(stated("The total comes to $95.")).toEqual(["95.00"]);
    expect(stated("Reservation R-2041 is your reference.")).toEqual(["R2041"]);
    expect(stated("Your booking number is R-2041.")).toEqual(["R2041"]);
    expect(stated("Your other booking, R-2041, stays as it is.")).toEqual([]);
  });

  describe("money", () => {
    const TEMPLATES = ["your change fee is {v}.", "the fee to change it is {v}.", "that comes to {v}.", "the change will cost {v}.", "it's {v} to change the flight.", "there's a change fee of {v}."];
    // The caller's words hold $75, so only the call's result can tell the amount is wrong.
    const scenario = scenarioWith("What does it cost to change booking B-100001? I was told $75.", [{ name: "quote_change", arguments: { confirmation_code: "B-100001" } }]);
    const steps = (say: string): Step[] => [{ say: "Let me check." }, { call: "quote_change", args: { confirmation_code: "B-100001" } }, { say }];
    const run = (say: string) => checkOf(grade(script({ world: cabinWorld as unknown as WorldDefinition, initial: CABIN_STATE, scenario }, steps(say))), "grounded_response");

    it("every generated statement of the amount the quote holds passes", () => {
      let n = 0;
      for (const o of OPENERS) for (const t of TEMPLATES) for (const v of ["$50", "fifty dollars", "$50.00", "50 dollars"]) {
        const say = line(o, t, v);
        expect(run(say), say).toMatchObject({ status: "passed" });
        n++;
      }
      expect(n).toBe(96);
    });

    it("every generated statement of another amount fails, naming it and what the quote holds", () => {
      let n = 0;
      for (const o of OPENERS) for (const t of TEMPLATES) for (const [v, value] of [["$75", "75.00"], ["seventy five dollars", "75.00"]] as const) {
        const say = line(o, t, v);
        const check = run(say);
        expect(check.status, say).toBe("failed");
        expect(check.rationale, say).toContain(`"${v}" (amount ${value}, chars ${say.indexOf(v)}–${say.indexOf(v) + v.length}) in "${say}" contradicts quote_change (c2), which holds amount`);
        expect(check.rationale).toMatch(/which holds amount [^;]*50\.00/);
        n++;
      }
      expect(n).toBe(48);
    });

    it("a copay the booking holds passes beside a claim and in a statement; another fails", () => {
      const d = DOMAINS[2]!;
      const scenario2 = scenarioWith(`${d.request} Last time I paid $25.`, [{ name: d.write.call, arguments: d.write.args }]);
      const go = (say: string) => checkOf(grade(script({ world: d.world, initial: d.initial, scenario: scenario2 }, [{ ...d.write }, { say: "You're booked in general practice." }, { say }])), "grounded_response");
      for (const o of OPENERS) {
        expect(go(line(o, "your copay is {v}.", "$20")).status).toBe("passed");
        expect(go(line(o, "your copay is {v}.", "$25")).status).toBe("failed");
      }
    });
  });

  describe("record ids", () => {
    const TEMPLATES = ["your reservation number is {v}.", "the reference is {v}.", "{v} is your confirmation number.", "your confirmation code is {v}.", "that's {v}.", "your booking is {v}."];
    const d = DOMAINS[0]!;
    // The caller's words hold R-2040, so only the write's result can tell the id is wrong.
    const scenario = scenarioWith(`${d.request} My last booking was R-2040.`, [{ name: d.write.call, arguments: d.write.args }]);
    const steps = (say: string): Step[] => [{ ...d.write }, { say: "You're booked on the patio." }, { say }];
    const run = (say: string) => grade(script({ world: restaurantWorld, initial: {}, scenario }, steps(say)));
    /** The id the write returns (the world's ids depend only on its seed). */
    const returned = (script({ world: restaurantWorld, initial: {}, scenario }, steps("Thanks.")).tool_executions[0]!.output as { reservation_id: string }).reservation_id;

    it("every generated statement of the id the write returned passes", () => {
      expect(returned).toMatch(/^R-[0-9A-F]{6}$/);
      let n = 0;
      for (const o of OPENERS) for (const t of TEMPLATES) for (const v of [returned, returned.toLowerCase(), returned.replace("-", "")]) {
        const say = line(o, t, v);
        expect(checkOf(run(say), "grounded_response"), say).toMatchObject({ status: "passed" });
        n++;
      }
      expect(n).toBe(72);
    });

    it("every generated statement of another id fails, naming it and the id the write returned", () => {
      let n = 0;
      for (const o of OPENERS) for (const t of TEMPLATES) for (const v of ["R-2040", "r-2040"]) {
        const say = line(o, t, v);
        const check = checkOf(run(say), "grounded_response");
        expect(check.status, say).toBe("failed");
        const at = say.toLowerCase().indexOf(v.toLowerCase());
        expect(check.rationale, say).toContain(`"${say.slice(at, at + v.length)}" (record id R2040, chars ${at}–${at + v.length}) in "${say}" contradicts create_reservation (c1), which holds record id ${returned.replace("-", "")}`);
        n++;
      }
      expect(n).toBe(48);
    });

    it("an id named in passing is not a statement of what something is; an id an earlier call returned may be stated", () => {
      expect(checkOf(run("Your other booking, R-2040, stays as it is."), "grounded_response").status).toBe("passed");
      const airline = scenarioWith("Book Omar Haddad on NW218 in economy. My old booking is B-100002.", [{ name: "book_flight", arguments: {} }]);
      const codeOf = script({ world: cabinWorld as unknown as WorldDefinition, initial: CABIN_STATE, scenario: airline }, [{ call: "book_flight", args: { passenger: "Omar Haddad", flight: "NW218", cabin: "economy" } }]).tool_executions[0]!.output as { confirmation_code: string };
      // The quote (the latest call holding ids) holds B-100001; the booking before it holds the new code.
      const after = (say: string) =>
        checkOf(
          grade(
            script({ world: cabinWorld as unknown as WorldDefinition, initial: CABIN_STATE, scenario: airline }, [
              { call: "book_flight", args: { passenger: "Omar Haddad", flight: "NW218", cabin: "economy" } },
              { call: "quote_change", args: { confirmation_code: "B-100001" } },
              { say },
            ]),
          ),
          "grounded_response",
        );
      expect(after(`Your new booking is ${codeOf.confirmation_code}.`).status).toBe("passed");
      expect(after("Your new booking is B-100002.").status).toBe("failed");
      // An id of another series (a flight beside booking codes) is not compared with them; one of the same series is.
      const flights = scenarioWith("I'm on NW219; what does changing booking B-100001 cost?", [{ name: "quote_change", arguments: {} }]);
      const say = (steps: Step[]) => checkOf(grade(script({ world: cabinWorld as unknown as WorldDefinition, initial: CABIN_STATE, scenario: flights }, steps)), "grounded_response");
      const quote: Step = { call: "quote_change", args: { confirmation_code: "B-100001" } };
      const book: Step = { call: "book_flight", args: { passenger: "Omar Haddad", flight: "NW218", cabin: "economy" } };
      expect(say([quote, { say: "Your flight is NW219, and the change fee is $50." }]).status).toBe("passed");
      const wrongFlight = say([book, quote, { say: "Your flight is NW219, and the change fee is $50." }]);
      expect(wrongFlight.status).toBe("failed");
      expect(wrongFlight.rationale).toContain('"NW219" (record id NW219, chars 15–20) in "Your flight is NW219, and the change fee is $50." contradicts book_flight (c1), which holds record id NW218');
    });
  });
});

describe("the examples of docs/grading.md, 'Values of the world's own kinds'", () => {
  const claim = (d: KindDomain, say: string, args: Record<string, Json> = d.write.args) =>
    checkOf(grade(script({ world: d.world, initial: d.initial, scenario: scenarioWith(d.request, [{ name: d.write.call, arguments: args }]) }, [{ call: d.write.call, args }, { say }])), "grounded_response");
  const [restaurant, airline, clinic] = DOMAINS as [KindDomain, KindDomain, KindDomain];

  it("the claims table", () => {
    expect(claim(restaurant, "You're booked for two at 7 p.m., patio seating.").status).toBe("passed");
    const bar = claim(restaurant, "You're booked at the bar.");
    expect(bar.status).toBe("failed");
    expect(bar.rationale).toContain('utt.assistant.1 "bar" (seating bar, chars 21–24) in "You\'re booked at the bar." contradicts create_reservation (c1), which holds seating patio');
    const { seating: _, ...noSeating } = restaurant.write.args;
    expect(claim(restaurant, "You're booked at the bar.", noSeating).status).toBe("passed");
    expect(claim(airline, "Done, you're booked in premium economy on NW218.").status).toBe("passed");
    expect(claim(airline, "You're booked in business.").rationale).toContain("contradicts book_flight (c1), which holds cabin premium_economy");
    expect(claim(clinic, "Your visit is scheduled in cardiology.").rationale).toContain("contradicts book_visit (c1), which holds department general_practice");
  });

  it("an availability statement about another value of the read's enum field", () => {
    const scenario = scenarioWith("Is there a patio table for two on August 14 at 7 p.m.?", [{ name: "check_availability", arguments: {} }]);
    const read = { call: "check_availability", args: { date: "2026-08-14", time: "19:00", party_size: 2, seating: "patio" } };
    const run = (say: string) => checkOf(grade(script({ world: restaurantWorld, initial: {}, scenario }, [read, { say }])), "grounded_response");
    expect(run("Good news, the bar is available at 7 p.m.").status).toBe("failed");
    expect(run("Good news, the patio is available at 7 p.m.").status).toBe("passed");
  });

  it("the amounts table", () => {
    const scenario = scenarioWith("What does it cost to change booking B-100001? I was told $75.", [{ name: "quote_change", arguments: { confirmation_code: "B-100001" } }]);
    const run = (say: string) => checkOf(grade(script({ world: cabinWorld as unknown as WorldDefinition, initial: CABIN_STATE, scenario }, [{ call: "quote_change", args: { confirmation_code: "B-100001" } }, { say }])), "grounded_response");
    expect(run("Okay, your change fee is fifty dollars.").status).toBe("passed");
    expect(run("Your change fee is $75.").rationale).toContain('"$75" (amount 75.00, chars 19–22) in "Your change fee is $75." contradicts quote_change (c1), which holds amount 50.00');
  });
});
