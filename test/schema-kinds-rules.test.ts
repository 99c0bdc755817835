// Checks kinds.ts rule by rule: which zod schema shapes yield enum kinds (wrappers, containers, depth limits, cycles, how a definition is found), how speech is cut into words and clauses, which values are read or never read, when one is denied, the read caches, and how JSON evidence is searched.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as zm from "zod/mini";
import { z as z3 } from "zod/v3";
import * as core from "zod/v4/core";
import { enumKindsOf, heldKindValues, kindWords, readKindValues, type EnumKind } from "../src/core/language/kinds";

// ── Two worlds' enums: a hospital's wards and an airline's cabins ───────────────────────────────────

const WARDS = ["maternity", "oncology", "high_dependency_unit", "day_surgery"] as const;
const Ward = z.enum(WARDS);
const WARD: EnumKind = { field: "ward", values: [...WARDS] };

const CABINS = ["economy", "premium_economy", "business", "first"] as const;
const Cabin = z.enum(CABINS);
const CABIN: EnumKind = { field: "cabin", values: [...CABINS] };

/** The kinds of some schemas, by field and values. */
const kindsOf = (...schemas: unknown[]) => enumKindsOf(schemas);
/** The field names of the kinds of one schema's field `ward`, wrapped as given. */
const wardFields = (field: unknown) => enumKindsOf([z.object({ ward: field as z.ZodType })]).map((k) => k.field);
/** What a text says of some kinds: value, the words that say it, denied. */
const said = (text: string, kinds: readonly EnumKind[], skip?: ReadonlySet<string>) => readKindValues(text, kinds, skip).map((v) => [v.value, v.text, v.denied]);
/** The values a text says of some kinds. */
const values = (text: string, kinds: readonly EnumKind[], skip?: ReadonlySet<string>) => readKindValues(text, kinds, skip).map((v) => v.value);
/** A schema wrapped `times` times. */
const nest = (times: number, wrap: (s: z.ZodType) => z.ZodType, base: z.ZodType): z.ZodType => {
  let s = base;
  for (let i = 0; i < times; i++) s = wrap(s);
  return s;
};

describe("the enum fields of schemas: which shapes are read", () => {
  it("a hospital's state and admission arguments: wards through records, optional and default; a union of string literals; not a field of one value", () => {
    const HospitalState = z.object({
      patients: z.record(z.string(), z.object({ name: z.string(), ward: Ward, bed: z.number(), triage: z.union([z.literal("urgent"), z.literal("routine")]).optional() })),
      open_wards: z.array(Ward),
      hospital: z.literal("st_marys"),
    });
    const AdmitArgs = z.object({ patient: z.string(), ward: Ward.nullable(), shift: z.enum(["day", "night"]).default("day") });
    expect(kindsOf(HospitalState, AdmitArgs)).toEqual([
      WARD,
      { field: "triage", values: ["urgent", "routine"] },
      { field: "open_wards", values: [...WARDS] },
      { field: "shift", values: ["day", "night"] },
    ]);
  });

  it("an airline's cabins through every wrapper zod 4 has: prefault, catch, readonly, nonoptional, set, lazy and pipes both ways", () => {
    const shapes: Array<[string, z.ZodType]> = [
      ["prefault", Cabin.prefault("economy")],
      ["catch", Cabin.catch("economy")],
      ["readonly", Cabin.readonly()],
      ["nonoptional", Cabin.optional().nonoptional()],
      ["set", z.set(Cabin)],
      ["lazy", z.lazy(() => Cabin)],
      ["pipe into the enum", z.string().pipe(Cabin)],
      ["preprocess", z.preprocess((v) => String(v).toLowerCase(), Cabin)],
      ["transform of the enum", Cabin.transform((c) => c.toUpperCase())],
    ];
    for (const [name, schema] of shapes) expect(kindsOf(z.object({ cabin: schema })), name).toEqual([CABIN]);
  });

  it("an enum of string values only: a TypeScript string enum is one, a numeric or mixed enum is not", () => {
    enum Deck { Upper = "upper", Lower = "lower" }
    enum Row { Front, Back }
    expect(kindsOf(z.object({ deck: z.enum(Deck) }))).toEqual([{ field: "deck", values: ["upper", "lower"] }]);
    expect(kindsOf(z.object({ row: z.enum(Row) }))).toEqual([]);
    expect(kindsOf(z.object({ level: z.enum({ low: "low", high: "high", three: 3 }) }))).toEqual([]);
  });

  it("a literal of string values only: one of several strings is a kind; numbers, a mix or no value is not", () => {
    expect(kindsOf(z.object({ meal: z.literal(["vegan", "kosher", "halal"]) }))).toEqual([{ field: "meal", values: ["vegan", "kosher", "halal"] }]);
    expect(kindsOf(z.object({ bed: z.literal([1, 2, 3]) }))).toEqual([]);
    expect(kindsOf(z.object({ floor: z.literal(["ground", 2]) }))).toEqual([]);
    expect(kindsOf(z.object({ meal: z.union([z.literal("vegan"), z.literal(1)]) }))).toEqual([]);
  });

  it("a union is an enum only when every member is: a member that allows no string (never, an empty literal, an empty union) makes it none", () => {
    expect(kindsOf(z.object({ shift: z.union([z.literal("day"), z.literal("night"), z.enum(["late", "early"])]) }))).toEqual([
      { field: "shift", values: ["day", "night", "late", "early"] },
    ]);
    expect(kindsOf(z.object({ shift: z.union([z.literal("day"), z.literal("night"), z.never()]) }))).toEqual([]);
    expect(kindsOf(z.object({ shift: z.union([z.literal("day"), z.literal("night"), z.literal([])]) }))).toEqual([]);
    expect(kindsOf(z.object({ shift: z.union([z.literal("day"), z.literal("night"), z.union([])]) }))).toEqual([]);
    expect(kindsOf(z.object({ shift: z.union([]) }))).toEqual([]);
  });

  it("objects found in every container: record, array, set, map keys and values, tuple items and rest, intersections, unions, discriminated unions, catchall, lazy, pipes", () => {
    const Leaf = z.object({ ward: Ward });
    const containers: Array<[string, z.ZodType]> = [
      ["record", z.record(z.string(), Leaf)],
      ["array", z.array(Leaf)],
      ["set", z.set(Leaf)],
      ["map key", z.map(Leaf, z.string())],
      ["map value", z.map(z.string(), Leaf)],
      ["tuple item", z.tuple([z.string(), Leaf])],
      ["tuple rest", z.tuple([z.string()], Leaf)],
      ["intersection left", z.intersection(Leaf, z.object({ note: z.string() }))],
      ["intersection right", z.intersection(z.object({ note: z.string() }), Leaf)],
      ["union", z.union([z.string(), Leaf])],
      ["catchall", z.object({ id: z.string() }).catchall(Leaf)],
      ["lazy", z.lazy(() => Leaf)],
      ["pipe", z.pipe(z.unknown(), Leaf)],
      ["transform", Leaf.transform((v) => v)],
      ["optional, nullable, readonly", Leaf.optional().nullable().readonly()],
    ];
    for (const [name, schema] of containers) {
      expect(kindsOf(schema), name).toEqual([WARD]);
      expect(kindsOf(z.object({ admissions: schema })), `${name}, as a field`).toEqual([WARD]);
    }
  });

  it("a discriminated union: each option's enum fields; a discriminator of one value per option is not a kind", () => {
    const Referral = z.discriminatedUnion("route", [
      z.object({ route: z.literal("walk_in"), desk: z.enum(["north", "south"]) }),
      z.object({ route: z.literal("transfer"), from_ward: Ward }),
    ]);
    expect(kindsOf(z.object({ referral: Referral }))).toEqual([
      { field: "desk", values: ["north", "south"] },
      { field: "from_ward", values: [...WARDS] },
    ]);
  });

  it("one field with one set of values is one kind, in whatever order the values are declared; another set, or another field, is another kind", () => {
    const a = z.object({ cabin: z.enum(["economy", "business"]) });
    const b = z.object({ cabin: z.enum(["business", "economy"]) });
    expect(kindsOf(a, b)).toEqual([{ field: "cabin", values: ["economy", "business"] }]);
    expect(kindsOf(a, z.object({ cabin: Cabin }))).toEqual([{ field: "cabin", values: ["economy", "business"] }, CABIN]);
    expect(kindsOf(a, z.object({ fare: z.enum(["economy", "business"]) })).map((k) => k.field)).toEqual(["cabin", "fare"]);
    // Values are told apart whole, not by their letters run together.
    expect(kindsOf(z.object({ stay: z.enum(["day", "overnight"]) }), z.object({ stay: z.enum(["dayover", "night"]) }))).toEqual([
      { field: "stay", values: ["day", "overnight"] },
      { field: "stay", values: ["dayover", "night"] },
    ]);
    // Repeated values count once.
    expect(kindsOf(z.object({ shift: z.union([z.literal("day"), z.literal("day"), z.literal("night")]) }))).toEqual([{ field: "shift", values: ["day", "night"] }]);
    expect(kindsOf(z.object({ shift: z.union([z.literal("day"), z.literal("day")]) }))).toEqual([]);
  });
});

describe("depth limits and cycles", () => {
  const VALUE_WRAPPERS: Array<[string, (s: z.ZodType) => z.ZodType]> = [
    ["array", (s) => z.array(s)],
    ["optional", (s) => s.optional()],
    ["nullable", (s) => s.nullable()],
    ["union", (s) => z.union([s])],
    ["lazy", (s) => z.lazy(() => s)],
    ["pipe into it", (s) => z.pipe(z.unknown(), s)],
    ["transform of it", (s) => s.transform((v) => v)],
  ];
  for (const [name, wrap] of VALUE_WRAPPERS) {
    it(`a field's enum is read through 12 wrappers (${name}), not 13`, () => {
      expect(wardFields(nest(12, wrap, Ward))).toEqual(["ward"]);
      expect(wardFields(nest(13, wrap, Ward))).toEqual([]);
    });
  }

  const CONTAINERS: Array<[string, (s: z.ZodType) => z.ZodType]> = [
    ["object field", (s) => z.object({ next: s })],
    ["catchall", (s) => z.object({}).catchall(s)],
    ["lazy", (s) => z.lazy(() => s)],
    ["array", (s) => z.array(s)],
    ["record", (s) => z.record(z.string(), s)],
    ["optional", (s) => s.optional()],
    ["set", (s) => z.set(s)],
    ["pipe", (s) => z.pipe(z.unknown(), s)],
    ["transform", (s) => s.transform((v) => v)],
    ["union", (s) => z.union([s, z.string()])],
    ["tuple item", (s) => z.tuple([s])],
    ["tuple rest", (s) => z.tuple([z.string()], s)],
    ["intersection left", (s) => z.intersection(s, z.object({ note: z.string() }))],
    ["intersection right", (s) => z.intersection(z.object({ note: z.string() }), s)],
    ["map key", (s) => z.map(s, z.string())],
  ];
  for (const [name, wrap] of CONTAINERS) {
    it(`an object is read inside 24 containers (${name}), not 25`, () => {
      const leaf = z.object({ cabin: Cabin });
      expect(kindsOf(nest(24, wrap, leaf))).toEqual([CABIN]);
      expect(kindsOf(nest(25, wrap, leaf))).toEqual([]);
    });
  }

  it("a schema that refers to itself is read once: a getter, a lazy, and a lazy that builds a new schema each time", () => {
    const Unit = z.object({
      ward: Ward,
      get annex() {
        return Unit.optional();
      },
    });
    expect(kindsOf(Unit)).toEqual([WARD]);

    type Tree = { cabin: string; legs: Tree[] };
    const Itinerary: z.ZodType<Tree> = z.lazy(() => z.object({ cabin: Cabin, legs: z.array(Itinerary) }));
    expect(kindsOf(Itinerary, z.object({ trip: Itinerary }))).toEqual([CABIN]);

    const grow = (): z.ZodType => z.lazy(() => z.object({ ward: Ward, transfer: grow() }));
    expect(kindsOf(grow())).toEqual([WARD]);
    // A union that holds itself is no enum (its values never end), and reading it ends.
    const Loop: z.ZodType = z.lazy(() => z.union([z.literal("day"), z.literal("night"), Loop]));
    expect(kindsOf(z.object({ shift: Loop }))).toEqual([]);
  });
});

describe("how a schema's definition is found", () => {
  it("zod 4 classic, zod mini and zod core schemas (the definition under `_zod.def` only) are read alike", () => {
    expect(kindsOf(zm.object({ ward: zm.enum(WARDS) }))).toEqual([WARD]);
    const coreWard = new core.$ZodEnum({ type: "enum", entries: { maternity: "maternity", oncology: "oncology" } });
    const coreState = new core.$ZodObject({ type: "object", shape: { ward: coreWard } });
    expect(Object.keys(coreState)).toEqual([]);
    expect(kindsOf(coreState)).toEqual([{ field: "ward", values: ["maternity", "oncology"] }]);
  });

  it("a definition under `_def` or `def` alone is read; so is one on a callable schema", () => {
    const defOnly = { def: { type: "enum", entries: { upper: "upper", lower: "lower" } } };
    const underscoreOnly = { _def: { type: "object", shape: { deck: defOnly } } };
    expect(kindsOf(underscoreOnly)).toEqual([{ field: "deck", values: ["upper", "lower"] }]);
    const callable = Object.assign(() => "economy", { _zod: { def: { type: "object", shape: { cabin: Cabin } } } });
    expect(typeof callable).toBe("function");
    expect(kindsOf(callable)).toEqual([CABIN]);
  });

  it("what is not a zod 4 schema gives no kind and throws nothing: null, primitives, plain objects, a zod 3 schema, a field that is no schema", () => {
    expect(kindsOf(null, undefined, 42, "ward", true, {}, [], () => undefined)).toEqual([]);
    expect(kindsOf(z3.object({ ward: z3.enum(["maternity", "oncology"]) }))).toEqual([]);
    const handMade = { _zod: { def: { type: "object", shape: { ward: Ward, note: "free text", bed: null, floor: 3, extra: undefined } } } };
    expect(kindsOf(handMade)).toEqual([WARD]);
  });

  it("only a lazy schema's getter is called, and only when it is a function", () => {
    const noGetter = { _zod: { def: { type: "lazy" } } };
    expect(kindsOf(noGetter, { _zod: { def: { type: "object", shape: { ward: noGetter } } } })).toEqual([]);
    const notLazy = { _zod: { def: { type: "custom", getter: () => z.object({ ward: Ward }) } } };
    expect(kindsOf(notLazy, { _zod: { def: { type: "object", shape: { ward: notLazy } } } })).toEqual([]);
  });
});

describe("a value's words", () => {
  it("lower case, accents dropped, any run of other characters one break, none empty", () => {
    expect(kindWords("premium_economy")).toEqual(["premium", "economy"]);
    expect(kindWords("Premium--Economy")).toEqual(["premium", "economy"]);
    expect(kindWords("__high__dependency__unit__")).toEqual(["high", "dependency", "unit"]);
    expect(kindWords("Pédiatrie")).toEqual(["pediatrie"]);
    expect(kindWords("Café-Bar")).toEqual(["cafe", "bar"]);
    expect(kindWords("ICU 2")).toEqual(["icu", "2"]);
    expect(kindWords("__")).toEqual([]);
  });
});

describe("which values speech may say", () => {
  const FUNCTION_WORDS = [
    "a", "an", "the", "any", "none", "no", "yes", "not", "other", "others", "all", "some", "one", "both", "either", "neither", "each", "every",
    "more", "less", "most", "least", "on", "off", "in", "out", "up", "down", "over", "under", "to", "for", "with", "by", "at", "as", "of", "and",
    "or", "is", "it", "this", "that", "there", "here", "now", "then", "yet", "same", "else", "unknown", "default", "n", "na",
    "first", "second", "third", "last", "next", "previous",
  ];

  it("a value that is a function word or an ordinal is never read, each of them", () => {
    expect(FUNCTION_WORDS).toHaveLength(60);
    for (const word of FUNCTION_WORDS) {
      const kinds = kindsOf(z.object({ seat: z.enum([word, "window"] as [string, string]) }));
      expect(values(`Say "${word}" for the window seat.`, kinds), word).toEqual(["window"]);
    }
    // The same sentence with a value of its own is read: the check above can see a value.
    expect(values('Say "aisle" for the window seat.', kindsOf(z.object({ seat: z.enum(["aisle", "window"]) })))).toEqual(["aisle", "window"]);
  });

  it("a value made only of function words is never read; one with a word of its own is", () => {
    const kinds = kindsOf(z.object({ cabin: z.enum(["in_or_out", "first_class", "economy"]) }));
    expect(values("In or out, you're in first class.", kinds)).toEqual(["first_class"]);
  });

  it("a value made only of outcome words is not read; one with a word of its own is", () => {
    const outcome = new Set(["confirmed", "cancelled"]);
    const kinds = kindsOf(z.object({ status: z.enum(["confirmed", "cancelled", "auto_cancelled", "waitlisted"]) }));
    expect(values("It was confirmed, then auto-cancelled; now waitlisted.", kinds, outcome)).toEqual(["auto_cancelled", "waitlisted"]);
    expect(values("It was confirmed, then auto-cancelled; now waitlisted.", kinds)).toEqual(["confirmed", "auto_cancelled", "waitlisted"]);
  });

  it("no kinds, nothing read", () => {
    expect(readKindValues("Economy or business?", [])).toEqual([]);
  });
});

describe("the words of speech", () => {
  const SIZES = kindsOf(z.object({ size: z.enum(["s", "m", "l", "xl"]) }));

  it("a contraction is one word: its letters after the apostrophe are not a value (a clothing shop's sizes)", () => {
    for (const text of ["It's ready.", "I’m checking.", "We'll hold it.", "You’ll love it.", "She's on it.", "They'd like it."]) {
      expect(values(text, SIZES), text).toEqual([]);
    }
    expect(said("Size M, please, or an XL.", SIZES)).toEqual([["m", "M", false], ["xl", "XL", false]]);
  });

  it("a value with an apostrophe in speech is read as its letters together", () => {
    const places = kindsOf(z.object({ destination: z.enum(["hawaii", "alaska"]) }));
    expect(said("Your flight to Hawai'i leaves at nine.", places)).toEqual([["hawaii", "Hawai'i", false]]);
    expect(said("Your flight to Hawai’i leaves at nine.", places)).toEqual([["hawaii", "Hawai’i", false]]);
  });

  it("a value declared with an apostrophe is read as speech writes it, in two domains", () => {
    const airports = kindsOf(z.object({ airport: z.enum(["o'hare", "la_guardia", "heathrow"]) }));
    expect(said("You land at O'Hare, not Heathrow.", airports)).toEqual([["o'hare", "O'Hare", false], ["heathrow", "Heathrow", true]]);
    expect(said("You land at O’Hare.", airports)).toEqual([["o'hare", "O’Hare", false]]);
    const wards = kindsOf(z.object({ ward: z.enum(["st_mary's", "st_john's", "general"]) }));
    expect(said("You're on St Mary's ward.", wards)).toEqual([["st_mary's", "St Mary's", false]]);
    expect(kindWords("St_John’s")).toEqual(["st", "johns"]);
  });

  it("a value's words in a row: any spaces or hyphens between them, nothing else", () => {
    const kinds = [CABIN];
    for (const gap of [" ", "  ", "-", " - ", "\t", "--"]) {
      const text = `You're in premium${gap}economy.`;
      expect(said(text, kinds), JSON.stringify(gap)).toEqual([["premium_economy", `premium${gap}economy`, false]]);
    }
    for (const gap of [", ", ". ", "/", " and "]) {
      expect(values(`You're in premium${gap}economy.`, kinds), JSON.stringify(gap)).toEqual(["economy"]);
    }
  });

  it("a value of three words: each gap is checked", () => {
    const kinds = [WARD];
    expect(said("She moved to the high dependency unit today.", kinds)).toEqual([["high_dependency_unit", "high dependency unit", false]]);
    expect(said("High dependency unit, bed four.", kinds)).toEqual([["high_dependency_unit", "High dependency unit", false]]);
    expect(values("She left high dependency. Unit staff will call.", kinds)).toEqual([]);
    expect(values("She left high, dependency unit staff will call.", kinds)).toEqual([]);
  });
});

describe("overlapping values", () => {
  it("a shorter value inside a longer one is not read; the same word elsewhere is", () => {
    const kinds = [CABIN];
    expect(said("Economy, or premium economy?", kinds)).toEqual([["economy", "Economy", false], ["premium_economy", "premium economy", false]]);
  });

  it("a value of another kind at the start of a longer value is not read", () => {
    const kinds = kindsOf(z.object({ cabin: Cabin, fare: z.enum(["premium", "saver"]) }));
    expect(said("You're in premium economy.", kinds)).toEqual([["premium_economy", "premium economy", false]]);
    expect(said("A premium fare in economy.", kinds)).toEqual([["premium", "premium", false], ["economy", "economy", false]]);
  });

  it("a span that is a value of two kinds is given once per kind (a restaurant's seating and section)", () => {
    const kinds = kindsOf(z.object({ seating: z.enum(["indoor", "patio", "bar"]), section: z.enum(["bar", "dining_room"]) }));
    const read = readKindValues("You're seated at the bar.", kinds);
    expect(read.map((v) => [v.kind.field, v.value, v.start, v.end])).toEqual([["seating", "bar", 21, 24], ["section", "bar", 21, 24]]);
  });

  it("values come in the order speech says them, whatever their length", () => {
    const kinds = [CABIN];
    const read = readKindValues("Business on the way out, economy back, premium economy next time.", kinds);
    expect(read.map((v) => [v.value, v.start])).toEqual([["business", 0], ["economy", 25], ["premium_economy", 39]]);
  });
});

describe("a value denied in its clause", () => {
  const SEATING = kindsOf(z.object({ seating: z.enum(["indoor", "patio", "bar"]) }));
  const DENIALS = ["not", "no", "never", "cannot", "nor", "neither", "instead", "rather", "unfortunately"];
  const NO_ROOM = ["full", "fully", "closed", "unavailable", "taken", "sold"];

  it("each denial before a value denies it; after it, or in the clause before, it does not", () => {
    for (const w of DENIALS) {
      expect(said(`Well, ${w} the patio.`, SEATING), w).toEqual([["patio", "patio", true]]);
      expect(said(`Well, the patio ${w}.`, SEATING), w).toEqual([["patio", "patio", false]]);
      expect(said(`Well ${w}, the patio.`, SEATING), w).toEqual([["patio", "patio", false]]);
    }
    expect(said("Well, the patio.", SEATING)).toEqual([["patio", "patio", false]]);
  });

  it("a word ending in n't denies, in either apostrophe; one with n't inside does not", () => {
    for (const text of ["We don't have the patio.", "We can’t offer the patio.", "It isn't the patio.", "We WON'T open the patio."]) {
      expect(said(text, SEATING), text).toEqual([["patio", "patio", true]]);
    }
    expect(said("Here are the dos and don'ts of patio seating.", SEATING)).toEqual([["patio", "patio", false]]);
    expect(said("The want for patio seating is high.", SEATING)).toEqual([["patio", "patio", false]]);
  });

  it("each word of no room, before or after the value in its clause, denies it", () => {
    for (const w of NO_ROOM) {
      expect(said(`The patio is ${w} tonight.`, SEATING), w).toEqual([["patio", "patio", true]]);
      expect(said(`It's ${w} on the patio.`, SEATING), w).toEqual([["patio", "patio", true]]);
      expect(said(`The bar is ${w}, the patio is free.`, SEATING), w).toEqual([["bar", "bar", true], ["patio", "patio", false]]);
    }
  });

  it("each clause end stops a denial: , ; : — – ' - ' 'but', and . ! ? before a space or where the text runs on", () => {
    const ENDS = [",", ";", ":", "—", "–", " -", " but", ".", "!", "?"];
    for (const end of ENDS) {
      const text = `Not the bar${end} the patio is yours.`;
      expect(said(text, SEATING), text).toEqual([["bar", "bar", true], ["patio", "patio", false]]);
    }
    for (const end of [".", "!", "?"]) {
      const text = `Not the bar${end}Patio is yours.`;
      expect(said(text, SEATING), text).toEqual([["bar", "bar", true], ["patio", "Patio", false]]);
    }
  });

  it("what is no clause end does not stop a denial: a hyphen inside a word or after one, a decimal point, 'butter'", () => {
    for (const text of ["Not the walk-in patio.", "Not the bar- patio.", "Not the bar -patio.", "Not before 7.30 on the patio.", "No butter patio tables."]) {
      expect(said(text, SEATING).at(-1), text).toEqual(["patio", "patio", true]);
    }
  });
});

describe("the read caches", () => {
  it("a list of kinds is compiled once per skip set, not once per text", () => {
    let compiled = 0;
    const ward: EnumKind = {
      field: "ward",
      get values() {
        compiled++;
        return ["maternity", "oncology"];
      },
    };
    const kinds = [ward];
    expect(said("Maternity is on floor two.", kinds)).toEqual([["maternity", "Maternity", false]]);
    expect(compiled).toBe(1);
    expect(said("Oncology is on floor three.", kinds)).toEqual([["oncology", "Oncology", false]]);
    expect(said("Oncology or maternity?", kinds)).toEqual([["oncology", "Oncology", false], ["maternity", "maternity", false]]);
    expect(compiled).toBe(1);
    const skip = new Set(["oncology"]);
    expect(said("Oncology or maternity?", kinds, skip)).toEqual([["maternity", "maternity", false]]);
    expect(said("Maternity, then oncology.", kinds, skip)).toEqual([["maternity", "Maternity", false]]);
    expect(compiled).toBe(2);
  });

  it("a text read before with the same kinds and skip set is the same reading", () => {
    const kinds = kindsOf(z.object({ ward: Ward }));
    const first = readKindValues("Maternity, floor two.", kinds);
    expect(readKindValues("Maternity, floor two.", kinds)).toBe(first);
    readKindValues("Oncology, floor three.", kinds);
    expect(readKindValues("Maternity, floor two.", kinds)).toBe(first);
    const skip = new Set(["booked"]);
    const withSkip = readKindValues("Maternity, floor two.", kinds, skip);
    expect(withSkip).not.toBe(first);
    expect(withSkip).toEqual(first);
    expect(readKindValues("Maternity, floor two.", kinds, skip)).toBe(withSkip);
  });

  it("the memory of texts holds 5000 of them, then starts again", () => {
    const kinds = kindsOf(z.object({ ward: Ward }));
    const text = (i: number) => `Bed ${i} is in maternity.`;
    const first = readKindValues(text(0), kinds);
    for (let i = 1; i < 5000; i++) readKindValues(text(i), kinds);
    expect(readKindValues(text(0), kinds)).toBe(first);
    readKindValues(text(5000), kinds);
    const again = readKindValues(text(0), kinds);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe("the values JSON evidence holds of a kind", () => {
  it("under the kind's field at any depth to 32, in objects or lists", () => {
    let inObjects: unknown = { cabin: "Premium Economy" };
    let inLists: unknown = { cabin: ["business", "economy", 3, null, "coach"] };
    for (let i = 0; i < 32; i++) {
      inObjects = { leg: inObjects };
      inLists = [inLists];
    }
    expect(heldKindValues(inObjects, CABIN)).toEqual(["premium_economy"]);
    expect(heldKindValues({ leg: inObjects }, CABIN)).toEqual([]);
    expect(heldKindValues(inLists, CABIN)).toEqual(["business", "economy"]);
    expect(heldKindValues([inLists], CABIN)).toEqual([]);
  });

  it("a list's positions are not keys: a kind whose field is '0' is read from an object, not from a list", () => {
    const [seat] = kindsOf(z.object({ "0": z.enum(["aisle", "window"]) }));
    expect(seat).toEqual({ field: "0", values: ["aisle", "window"] });
    expect(heldKindValues({ seats: ["window", "aisle"] }, seat!)).toEqual([]);
    expect(heldKindValues({ seats: { "0": "window" } }, seat!)).toEqual(["window"]);
  });

  it("in a hospital's evidence: wards of admissions, compared by words", () => {
    const evidence = { admissions: [{ ward: "High Dependency Unit" }, { ward: "day-surgery" }, { ward: "ICU" }], ward_count: 2 };
    expect(heldKindValues(evidence, WARD)).toEqual(["high_dependency_unit", "day_surgery"]);
  });
});
