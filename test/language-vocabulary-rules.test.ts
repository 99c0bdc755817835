// The vocabulary module's rules one by one: each generic word doing its job alone, each branch of its word forms, how a lexicon is compiled and cached, and every problem vocabularyProblems reports.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readKindValues } from "../src/core/language/kinds";
import type { Effect, VocabularySource } from "../src/core/language/vocabulary";
import * as understandingModule from "../src/core/caller/understanding";
import * as claimsModule from "../src/core/language/claims";
import * as valuesModule from "../src/core/language/values";
import * as vocabularyModule from "../src/core/language/vocabulary";

const vocabulary = () => vocabularyModule;

/** The counts a text says ("six people" → 6), read with a lexicon (generic English without one). */
function counts(text: string, source?: VocabularySource) {
  const { lexiconOf } = vocabulary();
  return valuesModule.readValues(text, { lexicon: lexiconOf(source) }).filter((v) => v.kind === "count").map((v) => v.value);
}
/** The record ids a text says ("confirmation four four one zero" → 4410). */
function references(text: string, source?: VocabularySource) {
  const { lexiconOf } = vocabulary();
  return valuesModule.readValues(text, { lexicon: lexiconOf(source) }).filter((v) => v.kind === "reference").map((v) => v.value);
}
/** What the offline caller hears a sentence do. */
function moves(text: string, source?: VocabularySource) {
  const { lexiconOf } = vocabulary();
  return understandingModule.understand(text, [], lexiconOf(source)).moves.map((m) => m.kind);
}
/** The outcome claims a text makes: [kind, word]. */
function claims(text: string, source?: VocabularySource) {
  const { lexiconOf } = vocabulary();
  return claimsModule.readClaims(text, lexiconOf(source)).map((c) => [c.kind, c.word]);
}

describe("the generic words, each on its own", () => {
  it("the five effects, each accepted where it belongs and listed when one is not", () => {
    const { EFFECTS, vocabularyProblems } = vocabulary();
    const effects: Effect[] = ["create", "update", "cancel", "read", "other"];
    expect(EFFECTS).toEqual(effects);
    for (const effect of effects) {
      const kind = effect === "read" ? "read" : "write";
      expect(vocabularyProblems({ operations: { go: { kind, effect } } }), effect).toEqual([]);
      expect(vocabularyProblems({ vocabulary: { verbs: { go: effect } } }), effect).toEqual(
        effect === "read" || effect === "other" ? [`\`vocabulary.verbs.go\` must be "create", "update" or "cancel" (got "${effect}")`] : [],
      );
    }
    expect(vocabularyProblems({ operations: { go: { kind: "write", effect: "book" as Effect } } })).toEqual([
      'operation "go": `effect` must be one of "create", "update", "cancel", "read", "other" (got "book")',
    ]);
  });

  it("each generic verb names its effect in a tool's name, whatever the name's case", () => {
    const { GENERIC, effectOf, pastFormsOf, toolOutcome, verbsOf } = vocabulary();
    const verbs: Array<[string, Effect]> = [
      ["create", "create"],
      ["cancel", "cancel"],
      ["delete", "cancel"],
      ["remove", "cancel"],
      ["change", "update"],
      ["update", "update"],
      ["modify", "update"],
      ["move", "update"],
      ["reschedule", "update"],
      ["switch", "update"],
      ["edit", "update"],
      ["amend", "update"],
    ];
    for (const [verb, effect] of verbs) {
      expect(effectOf(GENERIC, `${verb}_thing`), verb).toBe(effect);
      expect(effectOf(GENERIC, `${verb}Thing`), verb).toBe(effect);
      expect(GENERIC.verbs.get(verb), verb).toBe(effect);
      expect(verbsOf(GENERIC, effect), verb).toContain(verb);
      for (const past of pastFormsOf(verb)) expect(GENERIC.pastForms.get(past), past).toBe(verb);
    }
    expect([verbsOf(GENERIC, "create"), verbsOf(GENERIC, "cancel"), verbsOf(GENERIC, "update"), verbsOf(GENERIC, "read"), verbsOf(GENERIC, "other")]).toEqual([
      ["create"],
      ["cancel", "delete", "remove"],
      ["change", "update", "modify", "move", "reschedule", "switch", "edit", "amend"],
      [],
      [],
    ]);
    expect([effectOf(GENERIC, "delete_account"), toolOutcome(GENERIC, "delete_account"), toolOutcome(GENERIC, "amend_order"), toolOutcome(GENERIC, "create_order")]).toEqual([
      "cancel",
      "cancelled",
      "updated",
      "created",
    ]);
  });

  it("each generic counted noun makes the number before it a count; another noun does not", () => {
    const { GENERIC } = vocabulary();
    const nouns = ["people", "person", "persons", "adults", "adult", "children", "kids", "pax"];
    for (const noun of nouns) expect(counts(`We are six ${noun}.`), noun).toEqual(["6"]);
    expect(counts("We are six widgets.")).toEqual([]);
    expect([...GENERIC.counted]).toEqual(nouns);
  });

  it("each generic id cue makes the number said after it a record id; another word does not", () => {
    const { GENERIC } = vocabulary();
    const cues = ["confirmation", "number", "id", "reference", "code"];
    for (const cue of cues) expect(references(`The ${cue} four four one zero, please.`), cue).toEqual(["4410"]);
    expect(references("The widget four four one zero, please.")).toEqual([]);
    expect([...GENERIC.idCues]).toEqual(cues);
  });

  it("each generic slot noun, said to be not available, is a report that nothing is free; another noun is not", () => {
    const { GENERIC } = vocabulary();
    const slots = ["slot", "availability", "space", "room", "spot", "opening"];
    for (const slot of slots) {
      expect(moves(`Sorry, there's no ${slot} available at nine.`), slot).toEqual(["report_unavailable"]);
      expect(moves(`Sorry, we have no ${slot} free at nine.`), slot).toEqual(["report_unavailable"]);
    }
    expect(moves("Sorry, there's no kettle available at nine.")).not.toContain("report_unavailable");
    expect(moves("Sorry, there's no seat available at nine.")).not.toContain("report_unavailable");
    expect(moves("Sorry, there's no seat available at nine.", { vocabulary: { slots: ["seat"] } })).toEqual(["report_unavailable"]);
    expect([...GENERIC.slots]).toEqual(slots);
  });

  it("each outcome word is a claim, never a value of the world's own kinds", () => {
    const { GENERIC, lexiconOf } = vocabulary();
    const world: VocabularySource = {
      vocabulary: { nouns: ["order"] },
      state: z.object({ orders: z.record(z.string(), z.object({ status: z.enum(["pending", "confirmed", "canceled", "cancelled", "rescheduled", "shipped"]) })) }),
    };
    const lx = lexiconOf(world);
    const said = (text: string, skip?: ReadonlySet<string>) => readKindValues(text, lx.kinds, skip).map((v) => v.value);
    const outcomes: Array<[string, string]> = [
      ["confirmed", "any"],
      ["canceled", "cancelled"],
      ["cancelled", "cancelled"],
      ["rescheduled", "updated"],
    ];
    for (const [word, kind] of outcomes) {
      expect(claims(`Your order is ${word}.`, world).map(([k]) => k), word).toEqual([kind]);
      expect(lx.outcomeWords.has(word), word).toBe(true);
      // Read as a claim, not as the status it also is; without the outcome words it would be read as one.
      expect(said(`Your order is ${word}.`, lx.outcomeWords), word).toEqual([]);
      expect(said(`Your order is ${word}.`), word).toEqual([word]);
    }
    // Values that claim nothing are read.
    expect(said("Your order is pending; the other one shipped.", lx.outcomeWords)).toEqual(["pending", "shipped"]);
    // The outcome words: "confirmed" and every past form of a verb of the lexicon.
    expect([...GENERIC.outcomeWords].sort()).toEqual(
      ["amended", "canceled", "cancelled", "changed", "confirmed", "created", "deleted", "edited", "modified", "moved", "removed", "rescheduled", "switched", "updated"],
    );
    expect(lexiconOf({ vocabulary: { verbs: { deliver: "create" } } }).outcomeWords.has("delivered")).toBe(true);
    expect(lx.outcomeWords.has("delivered")).toBe(false);
  });
});

describe("word forms, branch by branch", () => {
  it("past forms: -d after e, -ied after a consonant's y, a doubled l after one vowel, else -ed", () => {
    const { pastFormsOf } = vocabulary();
    const cases: Array<[string, string[]]> = [
      ["reserve", ["reserved"]],
      ["free", ["freed"]],
      ["modify", ["modified"]],
      ["apply", ["applied"]],
      ["delay", ["delayed"]],
      ["obey", ["obeyed"]],
      // A consonant and a y inside the verb, not at its end: the plain -ed.
      ["bypass", ["bypassed"]],
      ["cancel", ["cancelled", "canceled"]],
      ["patrol", ["patrolled", "patroled"]],
      ["feel", ["feeled"]],
      ["unveil", ["unveiled"]],
      // Two vowels before an l inside the verb, one at its end: the end decides.
      ["mail-label", ["mail-labelled", "mail-labeled"]],
      ["curl", ["curled"]],
      ["book", ["booked"]],
    ];
    for (const [verb, past] of cases) expect(pastFormsOf(verb), verb).toEqual(past);
  });

  it("plurals: -ies after a consonant's y, -es after s, x, z, ch, sh, else -s", () => {
    const { pluralOf } = vocabulary();
    const cases: Array<[string, string]> = [
      ["party", "parties"],
      ["day", "days"],
      // A consonant and a y inside the noun, not at its end.
      ["system", "systems"],
      ["gym", "gyms"],
      ["bus", "buses"],
      ["box", "boxes"],
      ["waltz", "waltzes"],
      ["church", "churches"],
      ["dish", "dishes"],
      ["flight", "flights"],
    ];
    for (const [noun, plural] of cases) expect(pluralOf(noun), noun).toBe(plural);
  });

  it("field keys: lower case, a run of spaces, dots and dashes one underscore", () => {
    const { fieldKey } = vocabulary();
    expect([fieldKey("Seat Class"), fieldKey("Seat  Class"), fieldKey("seat.class"), fieldKey("seat-class"), fieldKey("seat. -class"), fieldKey("seat\tclass"), fieldKey("seat_class"), fieldKey("SEAT")]).toEqual([
      "seat_class",
      "seat_class",
      "seat_class",
      "seat_class",
      "seat_class",
      "seat_class",
      "seat_class",
      "seat",
    ]);
    // Through the lexicon: a field written with a run of separators is keyed as the tables key it.
    expect(vocabulary().lexiconOf({ vocabulary: { fields: { "Seat -- Class": ["cabin"] } } }).fields).toEqual({ seat_class: ["cabin"] });
  });
});

describe("an operation's effect, its verb and the word for its outcome", () => {
  it("effectOf: the declared effect first, then the name's verbs, cancel before update before create", () => {
    const { GENERIC, effectOf, lexiconOf } = vocabulary();
    const lx = lexiconOf({ operations: { cancel_then_create: { kind: "write", effect: "create" }, noop: { kind: "write", effect: "other" }, look: { kind: "read" }, go: { kind: "write" } } });
    expect([effectOf(lx, "cancel_then_create"), effectOf(lx, "noop"), effectOf(lx, "look"), effectOf(lx, "go"), effectOf(lx, "update_order")]).toEqual(["create", "other", "read", null, "update"]);
    expect([effectOf(GENERIC, "CancelOrder"), effectOf(GENERIC, "order.Cancel"), effectOf(GENERIC, "create-then-update"), effectOf(GENERIC, "123"), effectOf(GENERIC, ""), effectOf(GENERIC, "recreate")]).toEqual([
      "cancel",
      "cancel",
      "update",
      null,
      null,
      null,
    ]);
  });

  it("actionName: the lexicon's first verb of an effect; none for reads and other changes", () => {
    const { GENERIC, actionName, lexiconOf } = vocabulary();
    expect([actionName(GENERIC, "create"), actionName(GENERIC, "update"), actionName(GENERIC, "cancel"), actionName(GENERIC, "read"), actionName(GENERIC, "other")]).toEqual(["create", "change", "cancel", null, null]);
    const lx = lexiconOf({ vocabulary: { verbs: { reserve: "create", book: "create", void: "cancel" } } });
    expect([actionName(lx, "create"), actionName(lx, "update"), actionName(lx, "cancel")]).toEqual(["reserve", "change", "void"]);
  });

  it("outcomeWord: the first past form of the action's verb; 'any' for a claim that names none", () => {
    const { GENERIC, lexiconOf, outcomeWord } = vocabulary();
    expect([outcomeWord(GENERIC, "created"), outcomeWord(GENERIC, "updated"), outcomeWord(GENERIC, "cancelled"), outcomeWord(GENERIC, "any")]).toEqual(["created", "changed", "cancelled", "any"]);
    const lx = lexiconOf({ vocabulary: { verbs: { reserve: "create", modify: "update", annul: "cancel" } } });
    expect([outcomeWord(lx, "created"), outcomeWord(lx, "updated"), outcomeWord(lx, "cancelled"), outcomeWord(lx, "any")]).toEqual(["reserved", "modified", "annulled", "any"]);
  });
});

describe("lexiconOf: one compiled lexicon per definition", () => {
  it("gives GENERIC without a definition, the same lexicon for the same definition, a new one for another", () => {
    const { GENERIC, lexiconOf } = vocabulary();
    expect(lexiconOf()).toBe(GENERIC);
    expect(lexiconOf(null)).toBe(GENERIC);
    expect(lexiconOf(undefined)).toBe(GENERIC);
    const source: VocabularySource = { vocabulary: { verbs: { book: "create" } } };
    const first = lexiconOf(source);
    expect(lexiconOf(source)).toBe(first);
    const twin = lexiconOf({ vocabulary: { verbs: { book: "create" } } });
    expect(twin).not.toBe(first);
    expect(twin).toEqual(first);
    // An empty definition is not GENERIC, but holds the same words.
    const empty = lexiconOf({});
    expect(empty).not.toBe(GENERIC);
    expect(empty).toEqual(GENERIC);
    expect(lexiconOf({ vocabulary: {}, operations: {} })).toEqual(GENERIC);
  });

  it("generic English alone holds no package words", () => {
    const { GENERIC } = vocabulary();
    expect([GENERIC.ownVerbs.size, GENERIC.nouns, GENERIC.recordNouns.size, GENERIC.ownActionNouns.size, GENERIC.fields, GENERIC.callerFields, GENERIC.aliases, GENERIC.availability, GENERIC.operations.size, GENERIC.kinds]).toEqual([
      0,
      [],
      0,
      0,
      {},
      {},
      {},
      [],
      0,
      [],
    ]);
    expect([...GENERIC.actionNouns]).toEqual([["cancellation", "cancel"]]);
  });

  it("lower-cases and trims every word a package writes, and merges it after or before the generic ones", () => {
    const { lexiconOf } = vocabulary();
    const lx = lexiconOf({
      vocabulary: {
        verbs: { " Order ": "create" },
        nouns: [" Parcel "],
        actionNouns: { " Return ": "cancel" },
        counted: [" Boxes "],
        idCues: [" Tracking "],
        fields: { "Ship To": [" Address ", "WHERE"] },
        aliases: { " Parcel ": " Order " },
        availability: [" Sold Out "],
        slots: [" Van "],
      },
      operations: { ship_order: { kind: "write", effect: "update", entity: " Shipment ", verbs: [" Dispatch "] }, find_orders: { kind: "read" } },
    });
    expect([...lx.ownVerbs]).toEqual([
      ["order", "create"],
      ["dispatch", "update"],
    ]);
    expect([...lx.verbs.keys()].slice(0, 4)).toEqual(["order", "dispatch", "create", "cancel"]);
    expect([lx.pastForms.get("ordered"), lx.pastForms.get("dispatched")]).toEqual(["order", "dispatch"]);
    expect(lx.nouns).toEqual(["shipment", "parcel"]);
    expect([...lx.recordNouns]).toEqual(["shipment", "shipments", "parcel", "parcels"]);
    expect([...lx.actionNouns]).toEqual([
      ["return", "cancel"],
      ["cancellation", "cancel"],
    ]);
    expect([...lx.ownActionNouns]).toEqual([["return", "cancel"]]);
    expect([...lx.counted]).toEqual(["people", "person", "persons", "adults", "adult", "children", "kids", "pax", "shipment", "shipments", "parcel", "parcels", "boxes"]);
    expect([...lx.idCues]).toEqual(["confirmation", "number", "id", "reference", "code", "shipment", "tracking"]);
    expect(lx.fields).toEqual({ ship_to: ["address", "where"] });
    expect(lx.callerFields).toEqual({ ship_to: ["address", "where"] });
    expect(lx.aliases).toEqual({ parcel: "order" });
    expect(lx.availability).toEqual(["sold out"]);
    expect([...lx.slots]).toEqual(["slot", "availability", "space", "room", "spot", "opening", "van"]);
    expect([...lx.operations]).toEqual([
      ["ship_order", "update"],
      ["find_orders", "read"],
    ]);
  });

  it("the package's words do their jobs in the readers", () => {
    const world: VocabularySource = {
      vocabulary: { verbs: { Order: "create" }, counted: ["Boxes"], idCues: ["Tracking"], slots: ["Van"] },
      operations: { ship_order: { kind: "write", effect: "update", entity: "Shipment", verbs: ["Dispatch"] } },
    };
    expect(counts("We need six boxes.", world)).toEqual(["6"]);
    expect(counts("We need six boxes.")).toEqual([]);
    expect(counts("Six shipments left today.", world)).toEqual(["6"]);
    expect(references("Tracking four four one zero.", world)).toEqual(["4410"]);
    expect(references("Shipment four four one zero.", world)).toEqual(["4410"]);
    expect(references("Tracking four four one zero.")).toEqual([]);
    expect(moves("Sorry, there's no van available at nine.", world)).toEqual(["report_unavailable"]);
    expect(claims("Your parcel is dispatched.", world)).toEqual([["updated", "dispatched"]]);
    expect(claims("I've ordered it for you.", world)).toEqual([["created", "ordered"]]);
  });

  it("compiles a definition that gives only some of the words", () => {
    const { GENERIC, lexiconOf } = vocabulary();
    // An operation with no entity names no record; one with an effect and no verbs adds none.
    const ops = lexiconOf({ operations: { look: { kind: "read" }, bump: { kind: "write", effect: "update" } } });
    expect([ops.nouns, [...ops.operations], ops.ownVerbs.size, [...ops.idCues]]).toEqual([[], [["look", "read"], ["bump", "update"]], 0, [...GENERIC.idCues]]);
    // Fields alone are the callers' fields too; the callers' own table alone leaves the fields empty.
    const fields = lexiconOf({ vocabulary: { fields: { seat_class: ["cabin"] } } });
    expect([fields.fields, fields.callerFields]).toEqual([{ seat_class: ["cabin"] }, { seat_class: ["cabin"] }]);
    const callers = lexiconOf({ vocabulary: { callerFields: { seat_class: ["class"] } } });
    expect([callers.fields, callers.callerFields]).toEqual([{}, { seat_class: ["class"] }]);
    const nouns = lexiconOf({ vocabulary: { nouns: ["seat"] } });
    expect([nouns.nouns, [...nouns.recordNouns], nouns.ownVerbs.size, nouns.fields, nouns.aliases, nouns.availability]).toEqual([["seat"], ["seat", "seats"], 0, {}, {}, []]);
  });

  it("a verb keeps the effect it was first given: the vocabulary's, then the first operation's", () => {
    const { effectOf, lexiconOf, verbsOf } = vocabulary();
    const lx = lexiconOf({
      vocabulary: { verbs: { rebook: "update" } },
      operations: {
        redo: { kind: "write", effect: "create", verbs: ["Rebook", "reissue"] },
        drop: { kind: "write", effect: "cancel", verbs: ["reissue", "void"] },
      },
    });
    expect([...lx.ownVerbs]).toEqual([
      ["rebook", "update"],
      ["reissue", "create"],
      ["void", "cancel"],
    ]);
    expect([effectOf(lx, "rebook_seat"), effectOf(lx, "reissue_ticket"), effectOf(lx, "void_ticket")]).toEqual(["update", "create", "cancel"]);
    expect(verbsOf(lx, "create")).toEqual(["reissue", "create"]);
  });

  it("an operation's verbs join only for a create, update or cancel", () => {
    const { lexiconOf } = vocabulary();
    const lx = lexiconOf({
      operations: {
        look: { kind: "read", verbs: ["peek"] },
        seen: { kind: "read", effect: "read", verbs: ["glance"] },
        send: { kind: "write", effect: "other", verbs: ["ping"] },
        go: { kind: "write", verbs: ["nudge"] },
        make: { kind: "write", effect: "create", verbs: ["craft"] },
      },
    });
    expect([...lx.ownVerbs]).toEqual([["craft", "create"]]);
    expect(["peek", "glance", "ping", "nudge"].filter((v) => lx.verbs.has(v))).toEqual([]);
  });

  it("a package may give a generic verb another effect, and its effect wins", () => {
    const { GENERIC, actionName, effectOf, lexiconOf, verbsOf } = vocabulary();
    // A removals company sells moves: "move" creates one.
    const lx = lexiconOf({ vocabulary: { verbs: { move: "create" } } });
    expect([lx.verbs.get("move"), effectOf(lx, "move_house"), actionName(lx, "create")]).toEqual(["create", "create", "move"]);
    expect(verbsOf(lx, "create")).toEqual(["move", "create"]);
    expect(verbsOf(lx, "update")).toEqual(["change", "update", "modify", "reschedule", "switch", "edit", "amend"]);
    expect(effectOf(GENERIC, "move_house")).toBe("update");
  });

  it("the kinds: the enum fields of the state's schema and of each operation's arguments", () => {
    const { lexiconOf } = vocabulary();
    const lx = lexiconOf({
      state: z.object({ tables: z.record(z.string(), z.object({ area: z.enum(["patio", "bar"]) })) }),
      operations: {
        seat: { kind: "write", effect: "create", args: z.object({ area: z.enum(["patio", "bar"]), course: z.enum(["starter", "main"]) }) },
        look: { kind: "read" },
      },
    });
    expect(lx.kinds).toEqual([
      { field: "area", values: ["patio", "bar"] },
      { field: "course", values: ["starter", "main"] },
    ]);
    expect(readKindValues("The patio, for the main.", lx.kinds).map((v) => v.value)).toEqual(["patio", "main"]);
    expect(lexiconOf({ state: z.object({ area: z.enum(["patio", "bar"]) }) }).kinds).toEqual([{ field: "area", values: ["patio", "bar"] }]);
    expect(lexiconOf({ operations: { seat: { kind: "write", args: z.object({ course: z.enum(["starter", "main"]) }) } } }).kinds).toEqual([{ field: "course", values: ["starter", "main"] }]);
  });
});

describe("vocabularyProblems: each bad shape said in full, good words accepted", () => {
  const op = (over: Record<string, unknown>) => ({ operations: { go: { kind: "write", ...over } } }) as VocabularySource;
  const words = (v: unknown) => vocabulary().vocabularyProblems({ vocabulary: v } as VocabularySource);

  it("accepts good operations and vocabularies: nothing to say", () => {
    const { vocabularyProblems } = vocabulary();
    expect(vocabularyProblems({})).toEqual([]);
    expect(vocabularyProblems({ operations: {} })).toEqual([]);
    expect(vocabularyProblems({ operations: { look: { kind: "read" }, go: { kind: "write" } } })).toEqual([]);
    expect(
      vocabularyProblems({
        operations: {
          look: { kind: "read", effect: "read", verbs: [] },
          seat: { kind: "write", effect: "create", entity: " order line ", verbs: ["reserve", " Re-book ", "x", "o'clock"] },
          bump: { kind: "write", effect: "update", entity: "x", verbs: ["move over"] },
          drop: { kind: "write", effect: "cancel", entity: "Booking" },
          ping: { kind: "write", effect: "other" },
        },
        vocabulary: {
          verbs: { book: "create", " Rebook ": "update", void: "cancel" },
          nouns: ["table", "time slot"],
          actionNouns: { booking: "create", cancellation: "cancel", change: "update" },
          counted: ["guests", "o'clock"],
          idCues: ["pnr"],
          fields: { party_size: ["how many", "people"] },
          callerFields: { party_size: ["guests"] },
          aliases: { guests: "party", " Pax ": " people " },
          availability: ["fully booked", "no tables"],
          slots: ["table"],
        },
      }),
    ).toEqual([]);
    for (const key of ["verbs", "actionNouns"]) expect(words({ [key]: {} }), key).toEqual([]);
    for (const key of ["nouns", "counted", "idCues", "availability", "slots"]) expect(words({ [key]: ["fine"] }), key).toEqual([]);
    for (const key of ["fields", "callerFields", "aliases"]) expect(words({ [key]: {} }), key).toEqual([]);
    expect(words({})).toEqual([]);
  });

  it("an operation's effect: one of the five, and a read's is read", () => {
    const { vocabularyProblems } = vocabulary();
    const bad = (name: string, got: string) => `operation "${name}": \`effect\` must be one of "create", "update", "cancel", "read", "other" (got ${got})`;
    const mismatch = (name: string, kind: string, effect: string) => `operation "${name}": a ${kind} cannot have the effect "${effect}" (a read's effect is "read"; a write's is one of the others)`;
    expect(vocabularyProblems(op({ effect: "book" }))).toEqual([bad("go", '"book"')]);
    expect(vocabularyProblems(op({ effect: 3 }))).toEqual([bad("go", "3")]);
    expect(vocabularyProblems(op({ effect: null }))).toEqual([bad("go", "null")]);
    // An effect that is not one is said once, not also as a read's wrong effect.
    expect(vocabularyProblems({ operations: { look: { kind: "read", effect: "book" as Effect } } })).toEqual([bad("look", '"book"')]);
    expect(vocabularyProblems(op({ effect: "read" }))).toEqual([mismatch("go", "write", "read")]);
    for (const effect of ["create", "update", "cancel", "other"] as const) {
      expect(vocabularyProblems({ operations: { look: { kind: "read", effect } } }), effect).toEqual([mismatch("look", "read", effect)]);
      expect(vocabularyProblems(op({ effect })), effect).toEqual([]);
    }
    expect(vocabularyProblems({ operations: { look: { kind: "read", effect: "read" } } })).toEqual([]);
    expect(vocabularyProblems({ operations: { look: { kind: "read" } } })).toEqual([]);
  });

  it("an operation's entity: a noun in words", () => {
    const { vocabularyProblems } = vocabulary();
    const bad = (got: string) => [`operation "go": \`entity\` must be a noun in words, such as "order" (got ${got})`];
    expect(vocabularyProblems(op({ entity: "" }))).toEqual(bad('""'));
    expect(vocabularyProblems(op({ entity: "R-1" }))).toEqual(bad('"R-1"'));
    expect(vocabularyProblems(op({ entity: "table 12" }))).toEqual(bad('"table 12"'));
    expect(vocabularyProblems(op({ entity: "order-" }))).toEqual(bad('"order-"'));
    expect(vocabularyProblems(op({ entity: "-order" }))).toEqual(bad('"-order"'));
    expect(vocabularyProblems(op({ entity: "2" }))).toEqual(bad('"2"'));
    expect(vocabularyProblems(op({ entity: 7 }))).toEqual(bad("7"));
    expect(vocabularyProblems(op({ entity: ["order"] }))).toEqual(bad('["order"]'));
    for (const entity of ["order", "x", "ab", "abc", "Order Line", " order ", "o'clock", "check-in", "a b"]) expect(vocabularyProblems(op({ entity })), entity).toEqual([]);
  });

  it("an operation's verbs: a list of words, for a create, update or cancel", () => {
    const { vocabularyProblems } = vocabulary();
    const notWords = 'operation "go": `verbs` must be a list of verbs in words, such as ["rebook"]';
    const noEffect = (name: string) => `operation "${name}": \`verbs\` name a create, update or cancel; declare its \`effect\` as one of those`;
    expect(vocabularyProblems(op({ effect: "update", verbs: "rebook" }))).toEqual([notWords]);
    expect(vocabularyProblems(op({ effect: "update", verbs: { rebook: true } }))).toEqual([notWords]);
    expect(vocabularyProblems(op({ effect: "update", verbs: ["rebook", "9x"] }))).toEqual([notWords]);
    expect(vocabularyProblems(op({ effect: "update", verbs: ["rebook", 3] }))).toEqual([notWords]);
    expect(vocabularyProblems(op({ effect: "update", verbs: ["rebook2"] }))).toEqual([notWords]);
    expect(vocabularyProblems(op({ effect: "update", verbs: [" "] }))).toEqual([notWords]);
    // A list of words that is not for an effect with an outcome:
    expect(vocabularyProblems(op({ verbs: ["ping"] }))).toEqual([noEffect("go")]);
    expect(vocabularyProblems(op({ effect: "other", verbs: ["ping"] }))).toEqual([noEffect("go")]);
    expect(vocabularyProblems({ operations: { look: { kind: "read", verbs: ["peek"] } } })).toEqual([noEffect("look")]);
    expect(vocabularyProblems({ operations: { look: { kind: "read", effect: "read", verbs: ["peek"] } } })).toEqual([noEffect("look")]);
    // An empty list names nothing; a good list for a create, update or cancel is fine.
    expect(vocabularyProblems({ operations: { look: { kind: "read", verbs: [] }, go: { kind: "write", verbs: [] } } })).toEqual([]);
    for (const effect of ["create", "update", "cancel"] as const) expect(vocabularyProblems(op({ effect, verbs: ["rebook", " Re-Issue "] })), effect).toEqual([]);
  });

  it("the vocabulary itself: an object of the known fields", () => {
    const known = ["verbs", "nouns", "actionNouns", "counted", "idCues", "fields", "callerFields", "aliases", "availability", "slots"];
    const notAnObject = ["`vocabulary` must be an object (verbs, nouns, fields, aliases…)"];
    for (const bad of ["words", 3, null, [], ["verbs"], true]) expect(words(bad), JSON.stringify(bad)).toEqual(notAnObject);
    // The operations' problems come first.
    expect(vocabulary().vocabularyProblems({ ...op({ effect: "book" }), vocabulary: "words" } as never)).toEqual([
      'operation "go": `effect` must be one of "create", "update", "cancel", "read", "other" (got "book")',
      ...notAnObject,
    ]);
    const unknown = (key: string) => `\`vocabulary.${key}\` is not a vocabulary field; use one of ${known.join(", ")}`;
    expect(words({ spelling: {}, verb: {}, verbs: {} })).toEqual([unknown("spelling"), unknown("verb")]);
    expect(words({ "": [] })).toEqual([unknown("")]);
  });

  it("verbs and action nouns: an object of words and the effects create, update or cancel", () => {
    for (const key of ["verbs", "actionNouns"]) {
      const shape = `\`vocabulary.${key}\` must be an object of words and effects, such as { "book": "create" }`;
      for (const bad of [[], ["book"], null, "book", 3]) expect(words({ [key]: bad }), `${key} ${JSON.stringify(bad)}`).toEqual([shape]);
      expect(words({ [key]: { "2x": "create", "book it": "create", "table 2": "cancel" } }), key).toEqual([`\`vocabulary.${key}\`: "2x" is not a word`, `\`vocabulary.${key}\`: "table 2" is not a word`]);
      expect(words({ [key]: { ok: "read", fine: "other", good: "created", bad: 3 } }), key).toEqual([
        `\`vocabulary.${key}.ok\` must be "create", "update" or "cancel" (got "read")`,
        `\`vocabulary.${key}.fine\` must be "create", "update" or "cancel" (got "other")`,
        `\`vocabulary.${key}.good\` must be "create", "update" or "cancel" (got "created")`,
        `\`vocabulary.${key}.bad\` must be "create", "update" or "cancel" (got 3)`,
      ]);
      expect(words({ [key]: { "9": "read" } }), key).toEqual([`\`vocabulary.${key}\`: "9" is not a word`, `\`vocabulary.${key}.9\` must be "create", "update" or "cancel" (got "read")`]);
      expect(words({ [key]: { book: "create", rebook: "update", void: "cancel", " Pre Book ": "create" } }), key).toEqual([]);
    }
  });

  it("nouns, counted, id cues, availability and slots: lists of words or phrases", () => {
    for (const key of ["nouns", "counted", "idCues", "availability", "slots"]) {
      const shape = [`\`vocabulary.${key}\` must be a list of words or phrases, such as ["ticket"]`];
      for (const bad of ["fine", { fine: true }, null, 3, ["fine", 3], ["fine", ""], ["fine", "seat 12"], ["fine", "12"]]) expect(words({ [key]: bad }), `${key} ${JSON.stringify(bad)}`).toEqual(shape);
      expect(words({ [key]: [] }), key).toEqual([]);
      expect(words({ [key]: ["fine", "two words", "o'clock", " Padded ", "x"] }), key).toEqual([]);
    }
  });

  it("fields and callers' fields: an object of field names, each a list of words or phrases", () => {
    for (const key of ["fields", "callerFields"]) {
      const shape = [`\`vocabulary.${key}\` must be an object of field names and their words, such as { "seat_class": ["class", "cabin"] }`];
      for (const bad of [["class"], null, "seat class", 3]) expect(words({ [key]: bad }), `${key} ${JSON.stringify(bad)}`).toEqual(shape);
      const entry = (f: string) => `\`vocabulary.${key}.${f}\` must be a list of words or phrases`;
      expect(words({ [key]: { a: "class", b: ["class", " "], c: ["class", 3], d: [""], e: null, f: { x: "class" } } }), key).toEqual([entry("a"), entry("b"), entry("c"), entry("d"), entry("e"), entry("f")]);
      // Any non-blank text is a word here, a phrase with an ellipsis or a digit too.
      expect(words({ [key]: { seat_class: ["class", "which … cabin", "seat 12", " x "], none: [] } }), key).toEqual([]);
    }
  });

  it("aliases: an object of words, each standing for a word", () => {
    const shape = ['`vocabulary.aliases` must be an object of words and the word each stands for, such as { "customers": "customer" }'];
    for (const bad of [["guests"], null, "guests", 3]) expect(words({ aliases: bad }), JSON.stringify(bad)).toEqual(shape);
    const entry = (a: string, got: string) => `\`vocabulary.aliases.${a}\` must map a word to a word (got ${got})`;
    expect(words({ aliases: { "1st": "first", guests: 3, pax: "people 2", seat: "", ok: "fine" } })).toEqual([entry("1st", '"first"'), entry("guests", "3"), entry("pax", '"people 2"'), entry("seat", '""')]);
    expect(words({ aliases: { guests: "party", " Pax ": " People ", "check-in": "arrival" } })).toEqual([]);
  });
});
