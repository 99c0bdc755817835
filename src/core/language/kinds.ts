/**
 * Values of the world's own kinds: the enum fields its schemas declare (the state's and each operation's
 * arguments', `z.enum([...])` or a union of string literals), each with its field name and its values, and
 * where speech says one of those values (docs/grading.md, "Values of the world's own kinds").
 *
 * A schema is read by its definition (zod 4's `_zod.def`), so this layer needs no zod of its own.
 */

/** An enum field of a world's schemas: its name and its values, as declared. */
export interface EnumKind {
  field: string;
  values: readonly string[];
}

/** A value of an enum said in speech, with its span [start, end) in the text. */
export interface SpokenKindValue {
  kind: EnumKind;
  /** The declared value it says ("premium_economy" for "premium economy"). */
  value: string;
  text: string;
  start: number;
  end: number;
  /** Whether a negation comes before it in its clause ("…, not the bar", "rather than the patio"). */
  denied: boolean;
}

type Def = { type?: string; [key: string]: unknown };

function defOf(schema: unknown): Def | null {
  if (schema === null || (typeof schema !== "object" && typeof schema !== "function")) return null;
  const s = schema as { _zod?: { def?: Def }; _def?: Def; def?: Def };
  return s._zod?.def ?? s._def ?? s.def ?? null;
}

/** Wrappers whose inner schema says what the field holds. */
const WRAPPERS = ["innerType", "element", "valueType", "out", "in"] as const;

/** The string values a schema allows when it is an enum or a union of string literals (through optional, nullable, default, arrays, pipes); null otherwise. */
function enumValues(schema: unknown, depth = 0): string[] | null {
  const def = defOf(schema);
  if (!def || depth > 12) return null;
  switch (def.type) {
    case "enum": {
      const values = Object.values((def.entries ?? {}) as Record<string, unknown>);
      return values.every((v) => typeof v === "string") ? (values as string[]) : null;
    }
    case "literal": {
      const values = (def.values ?? []) as unknown[];
      return values.length > 0 && values.every((v) => typeof v === "string") ? (values as string[]) : null;
    }
    case "union": {
      const parts = ((def.options ?? []) as unknown[]).map((o) => enumValues(o, depth + 1));
      return parts.length > 0 && parts.every((p) => p !== null) ? parts.flat() as string[] : null;
    }
    case "lazy":
      return typeof def.getter === "function" ? enumValues((def.getter as () => unknown)(), depth + 1) : null;
    case "pipe":
      return enumValues(def.out, depth + 1) ?? enumValues(def.in, depth + 1);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
    case "array":
    case "set":
      return enumValues(def.innerType ?? def.element ?? def.valueType, depth + 1);
    default:
      return null;
  }
}

/**
 * Every enum field of some schemas (zod): a key of an object whose schema allows only string values, two
 * or more, found at any depth (records, arrays, unions, optional and nullable fields). One field name with
 * one set of values is one kind.
 */
export function enumKindsOf(schemas: readonly unknown[]): EnumKind[] {
  const kinds = new Map<string, EnumKind>();
  const seen = new Set<unknown>();
  const visit = (schema: unknown, depth: number): void => {
    const def = defOf(schema);
    if (!def || depth > 24 || seen.has(schema)) return;
    seen.add(schema);
    if (def.type === "object") {
      const shape = (typeof def.shape === "function" ? (def.shape as () => unknown)() : def.shape) as Record<string, unknown> | undefined;
      for (const [field, inner] of Object.entries(shape ?? {})) {
        const distinct = [...new Set(enumValues(inner))];
        const key = `${field}\u0000${[...distinct].sort().join("\u0000")}`;
        if (distinct.length >= 2 && !kinds.has(key)) kinds.set(key, { field, values: distinct });
        visit(inner, depth + 1);
      }
      visit(def.catchall, depth + 1);
      return;
    }
    if (def.type === "lazy" && typeof def.getter === "function") return visit((def.getter as () => unknown)(), depth + 1);
    for (const key of WRAPPERS) visit(def[key], depth + 1);
    for (const key of ["options", "items"] as const) if (Array.isArray(def[key])) for (const o of def[key] as unknown[]) visit(o, depth + 1);
    for (const key of ["left", "right", "keyType", "rest"] as const) visit(def[key], depth + 1);
  };
  for (const s of schemas) visit(s, 0);
  return [...kinds.values()];
}

/**
 * A value's words as speech says them: lower case, "_" and "-" as spaces ("premium_economy" → premium
 * economy), an apostrophe between letters dropped ("o'hare" is one word, as "O'Hare" is in speech).
 */
export function kindWords(value: string): string[] {
  return value
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/(?<=\p{L})['’](?=\p{L})/gu, "")
    // Stryker disable next-line Regex: equivalent, the empty strings a split between two separators gives are filtered out
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Words that are ordinary function words of English: an enum value made only of them ("any", "none",
 * "other", "on", "off") is never read in speech, where it says something else far more often.
 */
const FUNCTION_WORDS = new Set([
  "a", "an", "the", "any", "none", "no", "yes", "not", "other", "others", "all", "some", "one", "both", "either", "neither", "each", "every",
  "more", "less", "most", "least", "on", "off", "in", "out", "up", "down", "over", "under", "to", "for", "with", "by", "at", "as", "of", "and",
  "or", "is", "it", "this", "that", "there", "here", "now", "then", "yet", "same", "else", "unknown", "default", "n", "na",
  // Ordinals and their kin, said of anything ("your first flight", "the next slot").
  "first", "second", "third", "last", "next", "previous",
]);

/** A compiled kind: each value's words, and the values to read in speech (the longest first). */
interface Reading {
  kind: EnumKind;
  value: string;
  words: string[];
}

const readings = new WeakMap<readonly EnumKind[], WeakMap<ReadonlySet<string>, Reading[]>>();

/**
 * The values of the kinds that speech may say: not one made only of function words, nor one whose words
 * are all in `skip` (the words that claim an outcome, "confirmed", "cancelled": those are claims, read as such).
 */
function readingsOf(kinds: readonly EnumKind[], skip: ReadonlySet<string>): Reading[] {
  let bySkip = readings.get(kinds);
  if (!bySkip) readings.set(kinds, (bySkip = new WeakMap()));
  let out = bySkip.get(skip);
  if (out) return out;
  out = kinds
    .flatMap((kind) => kind.values.map((value) => ({ kind, value, words: kindWords(value) })))
    .filter((r) => !r.words.every((w) => FUNCTION_WORDS.has(w)) && !r.words.every((w) => skip.has(w)))
    .sort((a, b) => b.words.length - a.words.length);
  bySkip.set(skip, out);
  return out;
}

/** Words that deny what follows them in their clause. */
const DENIALS = new Set(["not", "no", "never", "cannot", "nor", "neither", "instead", "rather", "unfortunately"]);
/** Words that say a place or slot has no room, anywhere in a clause ("…; Wednesday is full"): the clause is about another one. */
const NO_ROOM = new Set(["full", "fully", "closed", "unavailable", "taken", "sold"]);

/**
 * The values of the kinds a text says, in order: whole words, ignoring case, a multi-word value as its
 * words in a row ("premium economy", "premium-economy"), the longest value first where two overlap. A span
 * that is a value of two kinds is given once per kind.
 */
export function readKindValues(text: string, kinds: readonly EnumKind[], skip: ReadonlySet<string> = NO_SKIP): SpokenKindValue[] {
  // Stryker disable next-line ConditionalExpression: equivalent, a shortcut: without kinds the general path also gives []
  if (kinds.length === 0) return [];
  const memo = memoOf(kinds, skip);
  const hit = memo.get(text);
  if (hit) return hit;
  const out = readKindValuesOnce(text, kinds, skip);
  if (memo.size >= 5000) memo.clear();
  memo.set(text, out);
  return out;
}

const NO_SKIP: ReadonlySet<string> = new Set();
const memos = new WeakMap<readonly EnumKind[], WeakMap<ReadonlySet<string>, Map<string, SpokenKindValue[]>>>();
function memoOf(kinds: readonly EnumKind[], skip: ReadonlySet<string>): Map<string, SpokenKindValue[]> {
  let bySkip = memos.get(kinds);
  if (!bySkip) memos.set(kinds, (bySkip = new WeakMap()));
  let memo = bySkip.get(skip);
  if (!memo) bySkip.set(skip, (memo = new Map()));
  return memo;
}

function readKindValuesOnce(text: string, kinds: readonly EnumKind[], skip: ReadonlySet<string>): SpokenKindValue[] {
  const words = [...text.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)].map((m) => ({ word: kindWords(m[0]).join(""), raw: m[0], start: m.index!, end: m.index! + m[0].length }));
  const out: SpokenKindValue[] = [];
  for (const r of readingsOf(kinds, skip)) {
    for (let i = 0; i + r.words.length <= words.length; i++) {
      if (!r.words.every((w, k) => words[i + k]!.word === w)) continue;
      // The words of a value in a row: only spaces or a hyphen between them, never the end of a sentence.
      if (r.words.slice(1).some((_, k) => !/^[\s-]*$/.test(text.slice(words[i + k]!.end, words[i + k + 1]!.start)))) continue;
      const start = words[i]!.start;
      const end = words[i + r.words.length - 1]!.end;
      // Inside a longer value already read (of another kind's words): not this one.
      if (out.some((v) => start >= v.start && end <= v.end && !(v.start === start && v.end === end))) continue;
      out.push({ kind: r.kind, value: r.value, text: text.slice(start, end), start, end, denied: deniedAt(text, start) });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Where clauses end: , ; : — – " - ", "but" and the end of a sentence. */
const CLAUSE_END = /[,;:—–]|\s-\s|\bbut\b|[.!?](?:\s|$)/i;

/** Whether a negation comes before a position in its clause, or the clause says something has no room ("Wednesday is full"). */
function deniedAt(text: string, at: number): boolean {
  const before = text.slice(0, at).split(CLAUSE_END).at(-1)!;
  const after = text.slice(at).split(CLAUSE_END)[0]!;
  // Stryker disable next-line Regex: equivalent, the empty strings a split between two separators gives match no word
  const words = (s: string) => s.toLowerCase().split(/[^a-z'’]+/);
  return words(before).some((w) => DENIALS.has(w) || /n['’]t$/.test(w)) || [...words(before), ...words(after)].some((w) => NO_ROOM.has(w));
}

/**
 * The values of a kind that JSON evidence holds: under a key that is the kind's field, a string (or a list
 * of strings) that is one of its values, compared by words ("Premium Economy" is premium_economy).
 */
export function heldKindValues(json: unknown, kind: EnumKind): string[] {
  const byWords = new Map(kind.values.map((v) => [kindWords(v).join(" "), v]));
  const out = new Set<string>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 32) return;
    if (Array.isArray(v)) v.forEach((x) => visit(x, depth + 1));
    else if (v !== null && typeof v === "object") {
      for (const [key, inner] of Object.entries(v)) {
        if (key === kind.field) {
          for (const s of Array.isArray(inner) ? inner : [inner]) {
            const value = typeof s === "string" ? byWords.get(kindWords(s).join(" ")) : undefined;
            if (value !== undefined) out.add(value);
          }
        }
        visit(inner, depth + 1);
      }
    }
  };
  visit(json, 0);
  return [...out];
}
