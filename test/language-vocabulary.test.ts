/** The lexicon a world declares, read by every reader of speech: generic English, the bundled restaurant and an airline written with the public API. */
import { defineWorld, WorldDefinitionError, z } from "crashlab/alpha";
import { describe, expect, it } from "vitest";
import { understand, actionsNamed, awaitedMove, heardAsk, fieldsNamed } from "../src/core/caller/understanding";
import { readClaims } from "../src/core/language/claims";
import { actionWords, mentionsField, reportsOutcome } from "../src/core/language/cues";
import { asksFor, availabilityTerms, fieldTerms, readOutcome } from "../src/core/language/reader";
import { readValues } from "../src/core/language/values";
import { actionName, effectOf, GENERIC, lexiconOf, outcomeWord, pastFormsOf, pluralOf, toolOutcome, verbsOf, vocabularyProblems } from "../src/core/language/vocabulary";
import { gradeProcedure, sameField, type ProcedureEvidence } from "../src/core/verify/procedure";
import { RESTAURANT } from "./restaurant-lexicon";

/**
 * A second domain, written with the public API only: an airline whose operations declare their effects
 * and whose vocabulary names its records, verbs and fields. Every rule that reads a domain's words is
 * shown here on generic English, on the airline and (where the rule came from) on the restaurant.
 */
const Booking = z.strictObject({ ref: z.string(), passenger: z.string(), flight: z.string(), departure_time: z.string() });
const airline = defineWorld({
  name: "airline",
  version: "1.0.0",
  state: z.strictObject({ bookings: z.record(z.string(), Booking) }),
  operations: {
    find_flights: { kind: "read", description: "Flights between two airports on a day.", args: z.strictObject({ day: z.string() }), run: () => [] },
    change_flight: {
      kind: "write",
      effect: "update",
      entity: "booking",
      verbs: ["rebook"],
      description: "Move a booking to another flight.",
      args: z.strictObject({ ref: z.string(), flight: z.string(), departure_time: z.string() }),
      run: ({ state, args }) => {
        state.bookings[args.ref]!.flight = args.flight;
        return { ref: args.ref };
      },
    },
    cancel_booking: { kind: "write", effect: "cancel", entity: "booking", description: "Cancel a booking.", args: z.strictObject({ ref: z.string() }), run: () => ({}) },
    issue_voucher: { kind: "write", effect: "create", entity: "voucher", description: "Issue a travel voucher.", args: z.strictObject({ ref: z.string() }), run: () => ({}) },
  },
  vocabulary: {
    verbs: { issue: "create" },
    nouns: ["flight", "seat"],
    counted: ["passengers", "bags"],
    idCues: ["flight"],
    fields: { departure_time: ["departure", "what time", "when"], booking_ref: ["which … booking", "reference", "code"] },
    aliases: { departure: "time", ref: "id" },
    availability: ["fully booked", "no seats"],
    slots: ["seat"],
  },
});
const AIRLINE = lexiconOf(airline);

describe("the lexicon a world declares", () => {
  it("joins the package's verbs to the generic ones; the first verb of an effect names it", () => {
    expect([actionName(GENERIC, "create"), actionName(GENERIC, "update"), actionName(GENERIC, "cancel"), actionName(GENERIC, "read")]).toEqual(["create", "change", "cancel", null]);
    expect([actionName(RESTAURANT, "create"), actionName(AIRLINE, "create"), actionName(AIRLINE, "update")]).toEqual(["book", "issue", "rebook"]);
    expect(verbsOf(RESTAURANT, "create")).toEqual(["book", "reserve", "create"]);
    expect(GENERIC.verbs.has("book")).toBe(false);
    expect([outcomeWord(RESTAURANT, "created"), outcomeWord(GENERIC, "created"), outcomeWord(AIRLINE, "updated"), outcomeWord(GENERIC, "cancelled"), outcomeWord(GENERIC, "any")]).toEqual(["booked", "created", "rebooked", "cancelled", "any"]);
  });

  it("records are the operations' entities and the vocabulary's nouns, singular and plural", () => {
    expect(AIRLINE.nouns).toEqual(["booking", "voucher", "flight", "seat"]);
    expect([...AIRLINE.recordNouns]).toEqual(["booking", "bookings", "voucher", "vouchers", "flight", "flights", "seat", "seats"]);
    expect([...RESTAURANT.recordNouns].sort()).toEqual(["booking", "bookings", "reservation", "reservations", "seat", "seats", "table", "tables"]);
    expect(GENERIC.recordNouns.size).toBe(0);
    expect([pluralOf("party"), pluralOf("box"), pluralOf("day"), pluralOf("flight")]).toEqual(["parties", "boxes", "days", "flights"]);
    expect([pastFormsOf("book"), pastFormsOf("reserve"), pastFormsOf("modify"), pastFormsOf("cancel"), pastFormsOf("feel"), pastFormsOf("delay")]).toEqual([["booked"], ["reserved"], ["modified"], ["cancelled", "canceled"], ["feeled"], ["delayed"]]);
  });

  it("an operation's declared effect decides; without one, the verbs of its name do", () => {
    expect([effectOf(AIRLINE, "change_flight"), effectOf(AIRLINE, "find_flights"), effectOf(AIRLINE, "issue_voucher")]).toEqual(["update", "read", "create"]);
    expect([effectOf(GENERIC, "change_flight"), effectOf(GENERIC, "remove_bag"), effectOf(GENERIC, "issue_voucher"), effectOf(GENERIC, "book_table")]).toEqual(["update", "cancel", null, null]);
    expect([effectOf(RESTAURANT, "book_table"), effectOf(RESTAURANT, "create_reservation"), effectOf(RESTAURANT, "check_availability")]).toEqual(["create", "create", "read"]);
    expect([toolOutcome(AIRLINE, "change_flight"), toolOutcome(AIRLINE, "cancel_booking"), toolOutcome(AIRLINE, "issue_voucher"), toolOutcome(AIRLINE, "find_flights")]).toEqual(["updated", "cancelled", "created", null]);
  });
});

describe("claims read with the world's verbs", () => {
  const kinds = (text: string, lexicon = GENERIC) => readClaims(text, lexicon).map((c) => [c.kind, c.word]);
  it("book is a restaurant's word, not generic English", () => {
    expect(kinds("You're booked for Friday.")).toEqual([]);
    expect(kinds("You're booked for Friday.", RESTAURANT)).toEqual([["created", "booked"]]);
    expect(kinds("Your reservation is all set.")).toEqual([]);
    expect(kinds("Your reservation is all set.", RESTAURANT)).toEqual([["any", "any"]]);
  });

  it("an airline's rebooking is an update, its cancellation a cancel, whatever the tool is named", () => {
    expect(kinds("I've rebooked you on flight 456.", AIRLINE)).toEqual([["updated", "rebooked"]]);
    expect(kinds("Your change is confirmed, the booking has been updated.", AIRLINE)).toEqual([["updated", "rebooked"]]);
    expect(kinds("Booking SKY456 is cancelled.", AIRLINE)).toEqual([["cancelled", "cancelled"]]);
    // Possession names no action: a seat that is "yours" may be a new one or a changed one.
    expect(kinds("The seat is yours.", AIRLINE)).toEqual([["any", "any"]]);
    expect(kinds("I've rebooked you on flight 456.")).toEqual([]);
  });
});

describe("values read with the world's nouns", () => {
  const counts = (text: string, lexicon = GENERIC) => readValues(text, { lexicon }).filter((v) => v.kind === "count").map((v) => v.value);
  const references = (text: string, lexicon = GENERIC) => readValues(text, { lexicon }).filter((v) => v.kind === "reference").map((v) => v.value);
  it("a number before a counted noun is a count only where the world counts it", () => {
    expect(counts("Six guests and two bags.")).toEqual([]);
    expect(counts("Six guests and two bags.", RESTAURANT)).toEqual(["6"]);
    expect(counts("Six guests and two bags.", AIRLINE)).toEqual(["2"]);
    expect(counts("Six people.")).toEqual(["6"]);
  });

  it("a bare number after a record noun or an id cue is a record id", () => {
    expect(references("Booking 2040, please.")).toEqual([]);
    expect(references("Booking 2040, please.", RESTAURANT)).toEqual(["2040"]);
    expect(references("Booking 2040, please.", AIRLINE)).toEqual(["2040"]);
    expect(references("Flight 4567 it is.", AIRLINE)).toEqual(["4567"]);
    expect(references("Confirmation 4410.")).toEqual(["4410"]);
  });

  it("reads one text differently per lexicon, never from another's memory", () => {
    expect(readValues("We seat 3 covers.").map((v) => v.kind)).toEqual([]);
    expect(readValues("We seat 3 covers.", { lexicon: RESTAURANT }).map((v) => v.kind)).toEqual(["count"]);
    expect(readValues("We seat 4 covers.", { lexicon: RESTAURANT }).map((v) => v.kind)).toEqual(["count"]);
    expect(readValues("We seat 4 covers.").map((v) => v.kind)).toEqual([]);
  });
});

describe("questions, outcomes and go-aheads read with the world's words", () => {
  it("a field's words: the package's own entry, else the generic ones by part", () => {
    expect(fieldTerms("departure_time", AIRLINE)).toEqual(["departure", "what time", "when"]);
    expect(fieldTerms("departure_time")).toEqual(["departure", "time", "when", "o'clock", "hour"]);
    expect(fieldTerms("party_size", RESTAURANT)).toContain("party");
    expect(fieldTerms("party_size")).toEqual(["party", "size"]);
    expect(asksFor("Which of your bookings should I move?", "booking_ref", AIRLINE)?.term).toBe("which … booking");
    expect(asksFor("What's the code?", "booking_ref", AIRLINE)?.term).toBe("code");
    expect(asksFor("What's the code?", "booking_ref")).toBeNull();
    expect(mentionsField("I meant the departure", "departure_time", AIRLINE)).toBe("departure");
  });

  it("availability phrases: the package's first, in its order, then the generic ones", () => {
    expect(availabilityTerms(AIRLINE)).toEqual(["fully booked", "no seats", "unavailable", "available", "no availability", "confirmation number"]);
    expect(availabilityTerms()).toEqual(["unavailable", "available", "no availability", "confirmation number"]);
    expect(reportsOutcome("Sorry, there are no seats left.", AIRLINE)).toBe("no seats");
    expect(reportsOutcome("Sorry, there are no seats left.")).toBeNull();
    expect(readOutcome("You're booked.")).toBeNull();
    expect(readOutcome("You're booked.", RESTAURANT)?.phrase).toBe("booked");
    expect(readOutcome("You're rebooked on the 9:40.", AIRLINE)?.phrase).toBe("rebooked");
  });

  it("a tool's action words come from its effect", () => {
    expect(actionWords("change_flight", AIRLINE)).toEqual(["change", "rebook", "update", "modify", "move", "reschedule", "switch", "edit", "amend"]);
    expect(actionWords("issue_voucher", AIRLINE)).toEqual(["issue", "create", "make the booking", "make the voucher", "make the flight", "make the seat"]);
    expect(actionWords("issue_voucher")).toEqual(["issue"]);
  });
});

describe("the offline caller reads with the world's words", () => {
  it("'Shall I change booking SKY456?' asks to change, not to book", () => {
    expect(heardAsk(understand("Shall I change booking SKY456?", [], AIRLINE))).toEqual({ kind: "go_ahead", action: "rebook" });
    expect(heardAsk(understand("Shall I change booking SKY456?", [], GENERIC))).toEqual({ kind: "go_ahead", action: "change" });
    expect(heardAsk(understand("Shall I book it?", [], RESTAURANT))).toEqual({ kind: "go_ahead", action: "book" });
    expect(heardAsk(understand("Shall I book it?", [], GENERIC))).toEqual({ kind: "go_ahead", action: null });
  });

  it("a goal names the world's actions, by verb or by the noun the package says names one", () => {
    expect(actionsNamed("Rebook me onto the later flight", AIRLINE)).toEqual(["rebook"]);
    expect(actionsNamed("Get a table for four", RESTAURANT)).toEqual(["book"]);
    expect(actionsNamed("Get a table for four")).toEqual([]);
    expect(actionsNamed("Ask for the cancellation")).toEqual(["cancel"]);
  });

  it("hears the package's fields, the record's id only when nothing else is named", () => {
    expect(fieldsNamed("What's your departure, and which booking?", [], AIRLINE)).toEqual(["departure_time"]);
    expect(fieldsNamed("How many guests?", [], RESTAURANT)).toEqual(["party_size"]);
    expect(fieldsNamed("How many guests?")).toEqual([]);
    expect(fieldsNamed("What name should I put the reservation under?", [], RESTAURANT)).toEqual(["guest_name"]);
    expect(fieldsNamed("What's the reservation number?", [], RESTAURANT)).toEqual(["reservation_id"]);
  });

  it("reports of a full slot use the package's slots and create verbs", () => {
    expect(understand("Sorry, there's no seat on that flight.", [], AIRLINE).moves.map((m) => m.kind)).toContain("report_unavailable");
    expect(understand("We're fully booked tonight.", [], RESTAURANT).moves.map((m) => m.kind)).toEqual(["report_unavailable"]);
    expect(awaitedMove("The assistant says there is no table at 9.", [], RESTAURANT).kind).toBe("report_unavailable");
    expect(awaitedMove("The assistant says there is no table at 9.", [], GENERIC).kind).not.toBe("report_unavailable");
  });
});

describe("procedure steps match fields by the world's aliases and argument names", () => {
  it("two names are one field when their words, read through the aliases, are", () => {
    expect(sameField("departure", "time", AIRLINE)).toBe(true);
    expect(sameField("departure", "time")).toBe(false);
    expect(sameField("guests", "party_size", RESTAURANT)).toBe(true);
    expect(sameField("guests", "party_size")).toBe(false);
    expect(sameField("booking_ref", "booking_id", AIRLINE)).toBe(true);
  });

  it("a correction of `time` is checked on the tool's `departure_time`", () => {
    const evidence: ProcedureEvidence = {
      turns: [
        { role: "user", text: "Actually, make it 9:40.", start_ms: 1000, end_ms: 2000 },
        { role: "assistant", text: "Done, you're on the 9:40.", start_ms: 4000, end_ms: 5000 },
      ],
      tool_executions: [{ call_id: "c1", name: "change_flight", arguments: { ref: "SKY456", flight: "SK12", departure_time: "09:40" }, raw_arguments: "{}", status: "completed", output: {}, requested_ms: 3000, completed_ms: 3100 }],
      world: { initial: {}, final: {}, view: {}, diff: [] },
      prohibited: [],
      lexicon: AIRLINE,
    };
    const step = (value: string) => gradeProcedure({ id: "p", steps: [{ id: "fix", kind: "correction", required: true, critical: true, after: [], arguments: { field: "time", value } }] }, evidence)!.steps[0]!;
    expect(step("09:40").status).toBe("passed");
    expect(step("10:15")).toMatchObject({ status: "failed", rationale: expect.stringContaining('change_flight at 3000 ms used time "09:40", not "10:15"') });
    // An argument named exactly like the field wins over one that is only the same field.
    const both = { ...evidence, tool_executions: [{ ...evidence.tool_executions[0]!, arguments: { departure_time: "10:15", time: "09:40" } }] };
    expect(gradeProcedure({ id: "p", steps: [{ id: "fix", kind: "correction", required: true, critical: true, after: [], arguments: { field: "time", value: "09:40" } }] }, both)!.steps[0]!.status).toBe("passed");
    // `ref` is an id only in the airline's words: without them no argument is `booking_id`, and the step falls back to the state, which holds none.
    const fixRef = { id: "p", steps: [{ id: "fix", kind: "correction" as const, required: true, critical: true, after: [], arguments: { field: "booking_id", value: "SKY456" } }] };
    expect(gradeProcedure(fixRef, { ...evidence, lexicon: GENERIC })!.steps[0]!).toMatchObject({ status: "failed", rationale: expect.stringContaining("no execution and no state change carried booking_id") });
    expect(gradeProcedure(fixRef, evidence)!.steps[0]!.status).toBe("passed");
  });
});

describe("a go-ahead fits the tool's action in the world's verbs", () => {
  const turns = [
    { role: "assistant" as const, text: "Shall I rebook you on the 9:40?", start_ms: 0, end_ms: 1000 },
    { role: "user" as const, text: "Yes, please.", start_ms: 1500, end_ms: 2000 },
  ];
  const run = (name: string) => ({ call_id: "c1", name, arguments: { ref: "SKY456" }, raw_arguments: "{}", status: "completed" as const, output: {}, requested_ms: 3000, completed_ms: 3100 });
  const authorize = (tool: string, heard: string, lexicon = AIRLINE) =>
    gradeProcedure(
      { id: "p", steps: [{ id: "ok", kind: "authorization", required: true, critical: true, after: [], tool }] },
      { turns, caller: [{ text: "Yes, please.", start_ms: 1500, end_ms: 2000, acts: [{ kind: "confirm" }], heard: { kind: "go_ahead", action: heard } }], tool_executions: [run(tool)], world: { initial: {}, final: {}, view: {}, diff: [] }, prohibited: [], lexicon },
    )!.steps[0]!;
  it("the caller's yes to a rebooking authorizes the update, not a cancellation", () => {
    expect(authorize("change_flight", "rebook").status).toBe("passed");
    expect(authorize("cancel_booking", "rebook")).toMatchObject({ status: "failed", rationale: expect.stringContaining("never took the assistant to ask for a go-ahead to cancel") });
    // Without the airline's words, the update is named "change": a yes heard as "rebook" does not fit it.
    expect(authorize("change_flight", "rebook", GENERIC)).toMatchObject({ status: "failed", rationale: expect.stringContaining("a go-ahead to change") });
    // A read names no action: any go-ahead fits; nor does an operation whose effect is "other".
    expect(authorize("find_flights", "rebook").status).toBe("passed");
    expect(authorize("send_receipt", "rebook", lexiconOf({ operations: { send_receipt: { kind: "write", effect: "other" } } })).status).toBe("passed");
  });
});

describe("defineWorld checks the words it is given", () => {
  const base = { name: "w", version: "1.0.0", state: z.strictObject({}) };
  const op = { kind: "write" as const, description: "d", args: z.strictObject({}), run: () => ({}) };
  const fails = (def: object) => {
    try {
      defineWorld(def as Parameters<typeof defineWorld>[0]);
    } catch (e) {
      expect(e).toBeInstanceOf(WorldDefinitionError);
      return (e as Error).message;
    }
    return null;
  };
  it.each([
    [{ operations: { go: { ...op, effect: "book" } } }, 'operation "go": `effect` must be one of "create", "update", "cancel", "read", "other" (got "book")'],
    [{ operations: { go: { ...op, kind: "read", effect: "create" } } }, 'operation "go": a read cannot have the effect "create"'],
    [{ operations: { go: { ...op, effect: "read" } } }, 'operation "go": a write cannot have the effect "read"'],
    [{ operations: { go: { ...op, effect: "create", entity: "R-1" } } }, 'operation "go": `entity` must be a noun in words'],
    [{ operations: { go: { ...op, verbs: ["rebook"] } } }, 'operation "go": `verbs` name a create, update or cancel'],
    [{ operations: { go: op }, vocabulary: { verb: {} } }, "`vocabulary.verb` is not a vocabulary field"],
    [{ operations: { go: op }, vocabulary: { verbs: { book: "reserve" } } }, '`vocabulary.verbs.book` must be "create", "update" or "cancel" (got "reserve")'],
    [{ operations: { go: op }, vocabulary: { nouns: "flight" } }, "`vocabulary.nouns` must be a list of words or phrases"],
    [{ operations: { go: op }, vocabulary: { fields: { time: "when" } } }, "`vocabulary.fields.time` must be a list of words or phrases"],
    [{ operations: { go: op }, vocabulary: { aliases: { guests: 3 } } }, "`vocabulary.aliases.guests` must map a word to a word"],
    [{ operations: { go: op }, vocabulary: [] }, "`vocabulary` must be an object"],
  ])("refuses %j", (over, message) => {
    expect(fails({ ...base, ...over })).toContain(message);
  });

  it("accepts the bundled and the airline's words, and a world with none", () => {
    expect(vocabularyProblems(airline)).toEqual([]);
    expect(fails({ ...base, operations: { go: op } })).toBeNull();
    expect(lexiconOf(airline)).toBe(AIRLINE);
    expect(lexiconOf(null)).toBe(GENERIC);
  });
});

describe("every problem a vocabulary can have, said in full", () => {
  const op = (over: object) => ({ operations: { go: { kind: "write" as const, ...over } } });
  it("operations: effect, entity and verbs", () => {
    expect(vocabularyProblems(op({ effect: "book" }))).toEqual(['operation "go": `effect` must be one of "create", "update", "cancel", "read", "other" (got "book")']);
    expect(vocabularyProblems({ operations: { look: { kind: "read", effect: "read" }, go: { kind: "write", effect: "other" } } })).toEqual([]);
    expect(vocabularyProblems({ operations: { look: { kind: "read", effect: "cancel" } } })).toEqual(['operation "look": a read cannot have the effect "cancel" (a read\'s effect is "read"; a write\'s is one of the others)']);
    expect(vocabularyProblems(op({ effect: "create", entity: "order line" }))).toEqual([]);
    expect(vocabularyProblems(op({ effect: "create", entity: "" }))).toEqual(['operation "go": `entity` must be a noun in words, such as "order" (got "")']);
    expect(vocabularyProblems(op({ effect: "create", entity: "x" }))).toEqual([]);
    expect(vocabularyProblems(op({ effect: "update", verbs: "rebook" }))).toEqual(['operation "go": `verbs` must be a list of verbs in words, such as ["rebook"]']);
    expect(vocabularyProblems(op({ effect: "update", verbs: ["re-book", "9x"] }))).toEqual(['operation "go": `verbs` must be a list of verbs in words, such as ["rebook"]']);
    expect(vocabularyProblems(op({ effect: "other", verbs: ["ping"] }))).toEqual(['operation "go": `verbs` name a create, update or cancel; declare its `effect` as one of those']);
    expect(vocabularyProblems({ operations: { look: { kind: "read", verbs: ["peek"] } } })).toEqual(['operation "look": `verbs` name a create, update or cancel; declare its `effect` as one of those']);
    expect(vocabularyProblems(op({ verbs: [] }))).toEqual([]);
  });

  it("the vocabulary's fields", () => {
    const words = (vocabulary: object) => vocabularyProblems({ vocabulary } as never);
    expect(words({ verbs: [] })).toEqual(['`vocabulary.verbs` must be an object of words and effects, such as { "book": "create" }']);
    expect(words({ actionNouns: null })).toEqual(['`vocabulary.actionNouns` must be an object of words and effects, such as { "book": "create" }']);
    expect(words({ verbs: { "2x": "create", ok: "read", fine: "other" } })).toEqual([
      '`vocabulary.verbs`: "2x" is not a word',
      '`vocabulary.verbs.ok` must be "create", "update" or "cancel" (got "read")',
      '`vocabulary.verbs.fine` must be "create", "update" or "cancel" (got "other")',
    ]);
    expect(words({ actionNouns: { booking: "created" } })).toEqual(['`vocabulary.actionNouns.booking` must be "create", "update" or "cancel" (got "created")']);
    for (const key of ["nouns", "counted", "idCues", "availability", "slots"]) {
      expect(words({ [key]: ["fine", "two words", "o'clock"] }), key).toEqual([]);
      expect(words({ [key]: ["fine", 3] }), key).toEqual([`\`vocabulary.${key}\` must be a list of words or phrases, such as ["ticket"]`]);
      expect(words({ [key]: "fine" }), key).toEqual([`\`vocabulary.${key}\` must be a list of words or phrases, such as ["ticket"]`]);
    }
    for (const key of ["fields", "callerFields"]) {
      expect(words({ [key]: { seat_class: ["class", "which … cabin"] } }), key).toEqual([]);
      expect(words({ [key]: ["class"] }), key).toEqual([`\`vocabulary.${key}\` must be an object of field names and their words, such as { "seat_class": ["class", "cabin"] }`]);
      expect(words({ [key]: null }), key).toEqual([`\`vocabulary.${key}\` must be an object of field names and their words, such as { "seat_class": ["class", "cabin"] }`]);
      expect(words({ [key]: { seat_class: ["class", " "] } }), key).toEqual([`\`vocabulary.${key}.seat_class\` must be a list of words or phrases`]);
      expect(words({ [key]: { seat_class: "class" } }), key).toEqual([`\`vocabulary.${key}.seat_class\` must be a list of words or phrases`]);
    }
    expect(words({ aliases: { guests: "party" } })).toEqual([]);
    expect(words({ aliases: ["guests"] })).toEqual(['`vocabulary.aliases` must be an object of words and the word each stands for, such as { "customers": "customer" }']);
    expect(words({ aliases: { "1st": "first" } })).toEqual(['`vocabulary.aliases.1st` must map a word to a word (got "first")']);
    expect(words({ spelling: {}, verbs: {} })).toEqual(["`vocabulary.spelling` is not a vocabulary field; use one of verbs, nouns, actionNouns, counted, idCues, fields, callerFields, aliases, availability, slots"]);
    expect(vocabularyProblems({ vocabulary: "words" } as never)).toEqual(["`vocabulary` must be an object (verbs, nouns, fields, aliases…)"]);
    expect(vocabularyProblems({ vocabulary: null } as never)).toEqual(["`vocabulary` must be an object (verbs, nouns, fields, aliases…)"]);
  });
});

describe("how a lexicon is compiled", () => {
  it("lower-cases and trims what a package writes, keys fields as the tables do", () => {
    const lx = lexiconOf({
      vocabulary: { verbs: { " Rebook ": "update" }, nouns: ["Flight"], counted: ["Bags"], idCues: ["PNR"], fields: { "Seat Class": ["Cabin"] }, aliases: { Pax: "Passengers" }, availability: ["No Seats"], slots: ["Seat"], actionNouns: { Upgrade: "update" } },
      operations: { rebook_flight: { kind: "write", effect: "update", entity: "Booking", verbs: ["Move Over"] }, ping: { kind: "write" } },
    });
    expect([...lx.ownVerbs]).toEqual([["rebook", "update"], ["move over", "update"]]);
    expect(lx.nouns).toEqual(["booking", "flight"]);
    expect(lx.counted.has("bags") && lx.counted.has("flights") && lx.counted.has("people")).toBe(true);
    expect([...lx.idCues]).toEqual(["confirmation", "number", "id", "reference", "code", "booking", "pnr"]);
    expect(lx.fields).toEqual({ seat_class: ["cabin"] });
    expect(lx.callerFields).toEqual({ seat_class: ["cabin"] });
    expect(lx.aliases).toEqual({ pax: "passengers" });
    expect(lx.availability).toEqual(["no seats"]);
    expect([...lx.slots]).toEqual(["slot", "availability", "space", "room", "spot", "opening", "seat"]);
    expect([...lx.actionNouns]).toEqual([["upgrade", "update"], ["cancellation", "cancel"]]);
    expect([...lx.operations]).toEqual([["rebook_flight", "update"]]);
    expect(lx.pastForms.get("rebooked")).toBe("rebook");
    // A write without an effect is read from its name; with one, its verbs join the lexicon only for a create, update or cancel.
    expect(effectOf(lx, "ping")).toBeNull();
    expect(lexiconOf({ operations: { look: { kind: "read", verbs: ["peek"] }, send: { kind: "write", effect: "other", verbs: ["ping"] } } }).ownVerbs.size).toBe(0);
  });

  it("a name holding a cancel verb cancels, then an update, then a create, whatever their order", () => {
    expect([effectOf(GENERIC, "create_then_cancel"), effectOf(GENERIC, "createUpdate"), effectOf(GENERIC, "update_and_cancel"), effectOf(GENERIC, "recreate")]).toEqual(["cancel", "update", "cancel", null]);
    expect([toolOutcome(GENERIC, "noop"), toolOutcome(lexiconOf({ operations: { noop: { kind: "write", effect: "other" } } }), "noop")]).toEqual([null, null]);
  });

  it("the callers' fields are the package's own table when it gives one", () => {
    const lx = lexiconOf({ vocabulary: { fields: { seat_class: ["cabin"] }, callerFields: { seat_class: ["cabin", "class"] } } });
    expect([lx.fields, lx.callerFields]).toEqual([{ seat_class: ["cabin"] }, { seat_class: ["cabin", "class"] }]);
  });
});
