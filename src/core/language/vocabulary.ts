/**
 * The words of a domain, declared by its world and compiled for the readers of this layer: which verbs
 * name which effect (create, update, cancel…), which nouns name its records, which words name a field,
 * count a number or cue a record id. The engine holds only generic English here; a package adds its own
 * (`defineWorld({ vocabulary })`, and per operation `effect`, `entity`, `verbs`; docs/worlds.md).
 */

import { enumKindsOf, type EnumKind } from "./kinds";

/** What an operation does to the records it acts on. */
export type Effect = "create" | "update" | "cancel" | "read" | "other";
export const EFFECTS: readonly Effect[] = ["create", "update", "cancel", "read", "other"];

/** What a claim says happened, by effect; "any" when it names no action ("You're all set"). */
export type OutcomeKind = "created" | "updated" | "cancelled" | "any";

/** A package's words (`defineWorld({ vocabulary })`): each adds to the generic English built in below. */
export interface Vocabulary {
  /** Verbs in their base form, by the effect they name: `{ book: "create", rebook: "update" }`. The first verb of an effect names it in the caller's words ("Yes, please book it."). */
  verbs?: Readonly<Record<string, Effect>>;
  /** Nouns (singular) for the records the operations act on, besides each operation's `entity`: "the table is yours" claims an outcome. */
  nouns?: readonly string[];
  /** Nouns that name an action by what it leaves: `{ booking: "create" }` (a caller who wants "a booking" wants a create). */
  actionNouns?: Readonly<Record<string, Effect>>;
  /** Nouns after which a number is a count ("six guests", "two bags"), besides people, persons, adults, children and the record nouns. */
  counted?: readonly string[];
  /** Words after which a bare number is a record id ("booking 2040"), besides each operation's `entity` and confirmation, number, id, reference, code. */
  idCues?: readonly string[];
  /** Words and phrases that name a field when it is asked for, by field name or by a part of one: `{ party_size: ["how many", "people"] }`. */
  fields?: Readonly<Record<string, readonly string[]>>;
  /**
   * The offline caller's own table of field words, when it must differ from `fields` (a whole table, in
   * the order the caller lists the fields it hears asked for; the generic date, time, phone and email
   * follow unless it lists them). Each entry is a lemma or a phrase.
   */
  callerFields?: Readonly<Record<string, readonly string[]>>;
  /** A word in field names read as another when two names are compared: `{ guests: "party" }` makes `guests` and `party_size` one field. */
  aliases?: Readonly<Record<string, string>>;
  /** Phrases that report availability either way ("no table", "fully booked"), besides available, unavailable, no availability. */
  availability?: readonly string[];
  /** Nouns for a place or slot that can be free or taken ("table"), besides slot, space, room, spot, opening, availability. */
  slots?: readonly string[];
}

/** What the language layer reads from one operation: its effect, the entity it acts on, its own verbs, its arguments' schema (for its enum fields). */
export interface OperationWords {
  kind: "read" | "write";
  args?: unknown;
  effect?: Effect | undefined;
  entity?: string | undefined;
  verbs?: readonly string[] | undefined;
}

/** Where a lexicon comes from: a world definition (or anything shaped like one). */
export interface VocabularySource {
  vocabulary?: Vocabulary | undefined;
  /** The state's schema: its enum fields are kinds of value (./kinds). */
  state?: unknown;
  operations?: Readonly<Record<string, OperationWords>>;
}

/** A vocabulary compiled for reading: the generic English words and the package's, merged. */
export interface Lexicon {
  /** Verb lemma → effect. */
  readonly verbs: ReadonlyMap<string, Effect>;
  /** Only the verbs the package declared (its vocabulary and its operations' `verbs`). */
  readonly ownVerbs: ReadonlyMap<string, Effect>;
  /** Past forms of every verb → the verb ("booked" → book, "cancelled" → cancel). */
  readonly pastForms: ReadonlyMap<string, string>;
  /** Nouns (singular) that name the records: the operations' entities, then the vocabulary's nouns. */
  readonly nouns: readonly string[];
  /** Those nouns, singular and plural. */
  readonly recordNouns: ReadonlySet<string>;
  /** Nouns that name an action by what it leaves (the package's, then generic "cancellation"). */
  readonly actionNouns: ReadonlyMap<string, Effect>;
  /** Only the package's action nouns. */
  readonly ownActionNouns: ReadonlyMap<string, Effect>;
  /** Nouns after which a number is a count. */
  readonly counted: ReadonlySet<string>;
  /** Words after which a bare number is a record id. */
  readonly idCues: ReadonlySet<string>;
  /** The package's field words, by field name or part. */
  readonly fields: Readonly<Record<string, readonly string[]>>;
  /** The offline caller's field words: `callerFields`, else `fields`. */
  readonly callerFields: Readonly<Record<string, readonly string[]>>;
  readonly aliases: Readonly<Record<string, string>>;
  /** The package's availability phrases. */
  readonly availability: readonly string[];
  readonly slots: ReadonlySet<string>;
  /** The operations' declared effects, by operation (tool) name. */
  readonly operations: ReadonlyMap<string, Effect>;
  /** The enum fields of the state's and the operations' schemas: kinds of value of the world's own (./kinds). */
  readonly kinds: readonly EnumKind[];
  /** Words that claim an outcome ("booked", "cancelled", "confirmed"): an enum value made of them is read as a claim, never as a value. */
  readonly outcomeWords: ReadonlySet<string>;
}

/** Generic English verbs by effect; the first of an effect names it ("change" for update). */
const GENERIC_VERBS: Readonly<Record<string, Effect>> = {
  create: "create",
  cancel: "cancel",
  delete: "cancel",
  remove: "cancel",
  change: "update",
  update: "update",
  modify: "update",
  move: "update",
  reschedule: "update",
  switch: "update",
  edit: "update",
  amend: "update",
};
const GENERIC_ACTION_NOUNS: Readonly<Record<string, Effect>> = { cancellation: "cancel" };
const GENERIC_COUNTED = ["people", "person", "persons", "adults", "adult", "children", "kids", "pax"];
const GENERIC_ID_CUES = ["confirmation", "number", "id", "reference", "code"];
const GENERIC_SLOTS = ["slot", "availability", "space", "room", "spot", "opening"];
/** Words the claims reader takes as outcomes besides the verbs' own past forms (./claims): "confirmed" names no action. */
const GENERIC_OUTCOME_WORDS = ["confirmed"];

/** The regular past forms of a verb: "book" → booked; "reserve" → reserved; "modify" → modified; "cancel" → cancelled, canceled. */
export function pastFormsOf(verb: string): string[] {
  if (verb.endsWith("e")) return [`${verb}d`];
  if (/[^aeiou]y$/.test(verb)) return [`${verb.slice(0, -1)}ied`];
  if (/[aeiou]l$/.test(verb) && !/[aeiou]{2}l$/.test(verb)) return [`${verb}led`, `${verb}ed`];
  return [`${verb}ed`];
}

/** "reservation" → reservations; "party" → parties; "box" → boxes. */
export function pluralOf(noun: string): string {
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

const lower = (w: string) => w.trim().toLowerCase();

function compile(source: VocabularySource): Lexicon {
  const v = source.vocabulary ?? {};
  const ownVerbs = new Map<string, Effect>();
  for (const [verb, effect] of Object.entries(v.verbs ?? {})) ownVerbs.set(lower(verb), effect);
  const operations = new Map<string, Effect>();
  const entities: string[] = [];
  for (const [name, op] of Object.entries(source.operations ?? {})) {
    const effect = op.effect ?? (op.kind === "read" ? "read" : undefined);
    if (effect) operations.set(name, effect);
    if (op.entity) entities.push(lower(op.entity));
    if (effect && effect !== "read" && effect !== "other") for (const verb of op.verbs ?? []) if (!ownVerbs.has(lower(verb))) ownVerbs.set(lower(verb), effect);
  }
  // The package's verbs first: the first verb of an effect names it.
  const verbs = new Map<string, Effect>(ownVerbs);
  for (const [verb, effect] of Object.entries(GENERIC_VERBS)) if (!verbs.has(verb)) verbs.set(verb, effect);
  const pastForms = new Map<string, string>();
  for (const verb of verbs.keys()) for (const past of pastFormsOf(verb)) pastForms.set(past, verb);
  const nouns = [...new Set([...entities, ...(v.nouns ?? []).map(lower)])];
  const recordNouns = new Set(nouns.flatMap((n) => [n, pluralOf(n)]));
  const ownActionNouns = new Map(Object.entries(v.actionNouns ?? {}).map(([n, e]) => [lower(n), e] as const));
  const fieldTable = (entries: Readonly<Record<string, readonly string[]>>) => Object.fromEntries(Object.entries(entries).map(([k, words]) => [fieldKey(k), words.map(lower)]));
  return {
    verbs,
    ownVerbs,
    pastForms,
    nouns,
    recordNouns,
    actionNouns: new Map([...ownActionNouns, ...Object.entries(GENERIC_ACTION_NOUNS)]),
    ownActionNouns,
    counted: new Set([...GENERIC_COUNTED, ...recordNouns, ...(v.counted ?? []).map(lower)]),
    idCues: new Set([...GENERIC_ID_CUES, ...entities, ...(v.idCues ?? []).map(lower)]),
    fields: fieldTable(v.fields ?? {}),
    callerFields: fieldTable(v.callerFields ?? v.fields ?? {}),
    aliases: Object.fromEntries(Object.entries(v.aliases ?? {}).map(([k, a]) => [lower(k), lower(a)])),
    availability: (v.availability ?? []).map(lower),
    slots: new Set([...GENERIC_SLOTS, ...(v.slots ?? []).map(lower)]),
    operations,
    kinds: enumKindsOf([source.state, ...Object.values(source.operations ?? {}).map((op) => op.args)]),
    outcomeWords: new Set([...GENERIC_OUTCOME_WORDS, ...pastForms.keys()]),
  };
}

/** A field name as the tables key it: lower case, spaces, dots and dashes as underscores. */
export function fieldKey(field: string): string {
  return field.toLowerCase().replace(/[\s.-]+/g, "_");
}

const compiled = new WeakMap<object, Lexicon>();

/** The lexicon of a world definition (compiled once per definition); without one, generic English alone. */
export function lexiconOf(source?: VocabularySource | null): Lexicon {
  if (!source) return GENERIC;
  let lexicon = compiled.get(source);
  if (!lexicon) {
    lexicon = compile(source);
    compiled.set(source, lexicon);
  }
  return lexicon;
}

/** Generic English: no package words. */
export const GENERIC: Lexicon = compile({});

/** The outcome a claim of this effect makes; null for reads and other changes. */
export function outcomeOfEffect(effect: Effect): Exclude<OutcomeKind, "any"> | null {
  return effect === "create" ? "created" : effect === "update" ? "updated" : effect === "cancel" ? "cancelled" : null;
}

/** The words of a name, camelCase split before lowercasing: "reservationCancel" → reservation, cancel. */
function nameWords(name: string): string[] {
  return Array.from(name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().matchAll(/[a-z]+/g), (m) => m[0]);
}

/**
 * An operation's effect: the one it declares; without a declaration, the effect of the first word of its
 * name that begins with a verb of the lexicon ("cancel_order" → cancel). Null when neither says.
 */
export function effectOf(lexicon: Lexicon, tool: string): Effect | null {
  const declared = lexicon.operations.get(tool);
  if (declared) return declared;
  const words = nameWords(tool);
  // In the order effects are checked by: a name holding a cancel verb cancels, whatever else it holds.
  for (const effect of ["cancel", "update", "create"] as const) {
    if (words.some((w) => [...lexicon.verbs].some(([verb, e]) => e === effect && w.startsWith(verb)))) return effect;
  }
  return null;
}

/** The outcome claims an operation's result backs (created, updated, cancelled); null when it backs any. */
export function toolOutcome(lexicon: Lexicon, tool: string): Exclude<OutcomeKind, "any"> | null {
  const effect = effectOf(lexicon, tool);
  return effect ? outcomeOfEffect(effect) : null;
}

/** The verb that names an effect in the caller's words: the first the lexicon holds for it ("book" for create in a restaurant, else "create"). */
export function actionName(lexicon: Lexicon, effect: Effect): string | null {
  for (const [verb, e] of lexicon.verbs) if (e === effect) return verb;
  return null;
}

/** The word a claim of this outcome is described by: the past form of its action's verb ("booked", "changed", "cancelled"). */
export function outcomeWord(lexicon: Lexicon, kind: OutcomeKind): string {
  if (kind === "any") return "any";
  const effect: Effect = kind === "created" ? "create" : kind === "updated" ? "update" : "cancel";
  return pastFormsOf(actionName(lexicon, effect)!)[0]!;
}

/** Every verb of an effect, in order. */
export function verbsOf(lexicon: Lexicon, effect: Effect): string[] {
  return [...lexicon.verbs].filter(([, e]) => e === effect).map(([v]) => v);
}

/** Problems with a vocabulary and operation words, each a sentence naming the field and the fix; empty when fine. */
export function vocabularyProblems(source: VocabularySource): string[] {
  const problems: string[] = [];
  const effects = EFFECTS.map((e) => `"${e}"`).join(", ");
  const isEffect = (e: unknown): e is Effect => EFFECTS.some((effect) => effect === e);
  const word = (w: unknown) => typeof w === "string" && /^[a-z][a-z' -]*[a-z]$|^[a-z]$/i.test(w.trim());
  for (const [name, op] of Object.entries(source.operations ?? {})) {
    if (op.effect !== undefined && !isEffect(op.effect)) problems.push(`operation "${name}": \`effect\` must be one of ${effects} (got ${JSON.stringify(op.effect)})`);
    if (isEffect(op.effect) && (op.kind === "read") !== (op.effect === "read")) {
      problems.push(`operation "${name}": a ${op.kind} cannot have the effect "${op.effect}" (a read's effect is "read"; a write's is one of the others)`);
    }
    if (op.entity !== undefined && !word(op.entity)) problems.push(`operation "${name}": \`entity\` must be a noun in words, such as "order" (got ${JSON.stringify(op.entity)})`);
    if (op.verbs !== undefined) {
      if (!Array.isArray(op.verbs) || !op.verbs.every(word)) problems.push(`operation "${name}": \`verbs\` must be a list of verbs in words, such as ["rebook"]`);
      else if (op.verbs.length > 0 && (op.kind === "read" || op.effect === undefined || op.effect === "other")) {
        problems.push(`operation "${name}": \`verbs\` name a create, update or cancel; declare its \`effect\` as one of those`);
      }
    }
  }
  const v = source.vocabulary;
  if (v === undefined) return problems;
  if (typeof v !== "object" || v === null || Array.isArray(v)) return [...problems, "`vocabulary` must be an object (verbs, nouns, fields, aliases…)"];
  const known = ["verbs", "nouns", "actionNouns", "counted", "idCues", "fields", "callerFields", "aliases", "availability", "slots"];
  for (const key of Object.keys(v)) if (!known.includes(key)) problems.push(`\`vocabulary.${key}\` is not a vocabulary field; use one of ${known.join(", ")}`);
  const record = (key: "verbs" | "actionNouns") => {
    const value = v[key];
    if (value === undefined) return;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return problems.push(`\`vocabulary.${key}\` must be an object of words and effects, such as { "book": "create" }`);
    for (const [w, e] of Object.entries(value)) {
      if (!word(w)) problems.push(`\`vocabulary.${key}\`: ${JSON.stringify(w)} is not a word`);
      if (!isEffect(e) || e === "read" || e === "other") problems.push(`\`vocabulary.${key}.${w}\` must be "create", "update" or "cancel" (got ${JSON.stringify(e)})`);
    }
  };
  record("verbs");
  record("actionNouns");
  for (const key of ["nouns", "counted", "idCues", "availability", "slots"] as const) {
    const value = v[key];
    if (value !== undefined && (!Array.isArray(value) || !value.every(word))) problems.push(`\`vocabulary.${key}\` must be a list of words or phrases, such as ["ticket"]`);
  }
  for (const key of ["fields", "callerFields"] as const) {
    const entries = v[key];
    if (entries === undefined) continue;
    if (typeof entries !== "object" || entries === null || Array.isArray(entries)) problems.push(`\`vocabulary.${key}\` must be an object of field names and their words, such as { "seat_class": ["class", "cabin"] }`);
    else for (const [f, words] of Object.entries(entries)) if (!Array.isArray(words) || !words.every((w) => typeof w === "string" && w.trim() !== "")) problems.push(`\`vocabulary.${key}.${f}\` must be a list of words or phrases`);
  }
  if (v.aliases !== undefined) {
    if (typeof v.aliases !== "object" || v.aliases === null || Array.isArray(v.aliases)) problems.push('`vocabulary.aliases` must be an object of words and the word each stands for, such as { "customers": "customer" }');
    else for (const [a, b] of Object.entries(v.aliases)) if (!word(a) || !word(b)) problems.push(`\`vocabulary.aliases.${a}\` must map a word to a word (got ${JSON.stringify(b)})`);
  }
  return problems;
}
