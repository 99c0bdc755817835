/**
 * Grounding: every concrete value the assistant speaks must be held by evidence that existed before it was
 * spoken, every outcome claim must follow the tool result that backs it, and a dataset's expected facts
 * must be stated and never contradicted. Speech is read by the language layer (values.ts, claims.ts);
 * the evidence is structure (the caller's earlier words, authorized context, public facts, tool calls and
 * results, world events), each taken only from before the utterance began.
 */
import type { ExpectedFact, Scenario } from "../dataset/schema";
import type { ToolExecution, Turn } from "../record/trial-record";
import type { WorldEvent } from "../world/types";
import { parsedJson } from "../language/nlp";
import { readClaims, type OutcomeClaim } from "../language/claims";
import { GENERIC, toolOutcome, type Lexicon } from "../language/vocabulary";
import { isQuestion, read, readOutcome, type Word } from "../language/reader";
import { heldKindValues, readKindValues, type SpokenKindValue } from "../language/kinds";
import { emptyEvidence, evidenceValues, inEvidence, numbersAsDigits, readValues, sameValue, startsSentence, statedAsIs, structuredValue, type EvidenceValues, type SpokenValue, type ValueKind } from "../language/values";

/** An assistant turn with its evidence id (`utt.assistant.<n>`). */
export type Utterance = Turn & { evidence_id: string };

export interface GroundingInput {
  scenario: Scenario;
  case_kind: string;
  turns: Turn[];
  /** Spoken (non-blank) assistant turns with their evidence ids. */
  utterances: Utterance[];
  tool_executions: ToolExecution[];
  events: readonly WorldEvent[];
  /** The package's public facts (PLAN.facts). */
  facts?: unknown;
  /** RUN: the simulated caller's lines with their acts; a `correct` act supersedes the value it replaces. */
  caller?: readonly GroundingCallerLine[] | undefined;
  /** The world's words: which verbs claim which outcome, which nouns count a number. Generic English without them. */
  lexicon?: Lexicon;
}

/** A caller line with its acts, as the offline caller records them (`give`/`correct` carry a field and value). */
export interface GroundingCallerLine {
  start_ms: number;
  end_ms: number | null;
  acts?: ReadonlyArray<{ kind: string; field?: string | undefined; value?: unknown }> | undefined;
}

export interface UngroundedValue {
  utterance: Utterance;
  value: SpokenValue;
}

export interface UnbackedClaim {
  utterance: Utterance;
  claim: OutcomeClaim;
  /** A backing execution that completed only after the claim was spoken, when there is one. */
  late?: ToolExecution;
}

/** A value the caller corrected away from, from the moment of the correction on. */
export interface Supersession {
  kind: ValueKind;
  /** The readings no longer meant (those the new value shares stay). */
  readings: string[];
  /** The correction: when it was said, and the value it put in place. */
  at_ms: number;
  replaced_by: string;
}

/** A value spoken in a claim that its backing evidence does not hold: a value of a built-in kind, or of one of the world's enum fields. */
export interface ContradictedValue {
  utterance: Utterance;
  value: SpokenValue | SpokenKindValue;
  /** The claim's sentence, and what backs it. */
  sentence: string;
  backing: ToolExecution;
  /** What the backing evidence holds of the value's kind ("time 19:00"), or null when it holds none. */
  holds: string | null;
  /** The caller's correction the value goes against, when it is a superseded one. */
  superseded?: Supersession;
}

/** An availability statement whose polarity is the opposite of the read's result. */
export interface ContradictedAvailability {
  utterance: Utterance;
  sentence: string;
  /** What the sentence says (true: there is; false: there is not) and what the result said. */
  said: boolean;
  result: boolean;
  field: string;
  backing: ToolExecution;
}

export interface Grounding {
  /** Every value spoken, with whether it was grounded. */
  spoken: Array<{ utterance: Utterance; value: SpokenValue; grounded: boolean }>;
  ungrounded: UngroundedValue[];
  claims: Array<{ utterance: Utterance; claim: OutcomeClaim; backing?: ToolExecution }>;
  unbacked: UnbackedClaim[];
  /** Spoken values only superseded caller words held (the caller had corrected them away before). */
  superseded: Array<{ utterance: Utterance; value: SpokenValue; supersession: Supersession }>;
  /** Values of backed claims that contradict (or are missing from) the evidence backing the claim. */
  contradicted: ContradictedValue[];
  /** Availability statements against the read they report. */
  availability: ContradictedAvailability[];
}

interface Dated {
  at_ms: number;
  evidence: EvidenceValues;
  /** The times it states, each with its readings (one, or two when its half of the day is not said). */
  times: Held[];
}

/** Words of the conversation (the caller's lines, the history's lines): evidence whose values a correction supersedes. */
interface Said extends Dated {
  text: string;
  /** Whether the caller said it (a correction is read only in the caller's own words). */
  caller: boolean;
}

interface Timeline {
  /** Evidence no correction touches: the public facts and the context's summary. */
  always: EvidenceValues;
  /** The same evidence value by value, read strictly, each with the words of the keys it sits under (what may be said beside a claim). */
  topical: Topical[];
  /** The times the context and the facts state, read strictly. */
  alwaysTimes: Held[];
  /** The conversation's words: the history, the request (CRAWL and WALK, at 0), the caller's turns (RUN). */
  said: Said[];
  /** Tool calls and world events, each from when it completed. */
  dated: Dated[];
  supersessions: Supersession[];
}

/** Evidence that exists from the start (context summary, facts), the conversation's words, then dated evidence. */
function evidenceTimeline(input: GroundingInput): Timeline {
  const always = emptyEvidence();
  const lexicon = input.lexicon ?? GENERIC;
  const read = { lexicon };
  const { history, ...rest } = input.scenario.input.context ?? {};
  // Context and public facts, where given (evidence holds nothing from an absent one).
  evidenceValues(rest, read, always);
  evidenceValues(input.facts, read, always);
  const alwaysTimes = timesOf([rest, input.facts ?? null], lexicon);
  const said: Said[] = [];
  const line = (text: string, at_ms: number, caller: boolean) => said.push({ text, at_ms, caller, evidence: evidenceValues(text, read), times: timesOf(text, lexicon) });
  // The history came before the request; a correction in it supersedes what came before it too.
  for (const h of history ?? []) line(h.text, -1, h.role === "user");
  // In CRAWL and WALK the caller's request is the input itself; in RUN the caller's lines are turns.
  if (input.case_kind !== "run") line(input.scenario.input.text, 0, true);
  for (const t of input.turns) if (t.role === "user") line(t.text, t.end_ms, true);
  // Stryker disable next-line ArrayDeclaration: equivalent, an element put in at the start has no at_ms, and undefined <= a time is false, so it grounds nothing
  const dated: Dated[] = [];
  for (const t of input.tool_executions) {
    const json = [t.arguments ?? t.raw_arguments, t.output ?? null];
    dated.push({ at_ms: t.completed_ms, evidence: evidenceValues(json, read), times: timesOf(json, lexicon) });
  }
  for (const e of input.events) dated.push({ at_ms: e.at_ms, evidence: evidenceValues([e.args, e.result ?? null], read), times: timesOf([e.args, e.result ?? null], lexicon) });
  const supersessions = input.caller?.some((l) => l.acts !== undefined) ? supersessionsByActs(input.caller, lexicon) : supersessionsInWords(said, lexicon);
  const topical = [...topicalValues(rest, lexicon), ...topicalValues(input.facts, lexicon)];
  return { always, alwaysTimes, topical, said, dated, supersessions };
}

/** The times evidence states, read strictly: a number is never an hour, a time keeps both halves of the day when it names neither. */
const timesOf = (json: unknown, lexicon: Lexicon): Held[] => resultValues(json, lexicon).filter((h) => h.kind === "time");

// ---- supersession: a corrected value replaces the old one -------------------------------------------

/**
 * Words that introduce a correction in the caller's own words ("August 7, sorry, August 6"; "for two,
 * actually four"; "make that four people"). General English, the same words the procedure's correction
 * steps read.
 */
const CORRECTION_CUES = ["sorry", "actually", "instead", "no wait", "wait no", "i mean", "i meant", "scratch that", "make that", "make it", "correction", "on second thought", "rather", "change that"];
const CUE_PATTERN = new RegExp(`\\b(?:${CORRECTION_CUES.map((c) => c.replace(/ /g, "\\s+")).join("|")})\\b`, "gi");

/** A value's readings that another value of its kind does not share (what a correction takes back). */
function dropped(old: Pick<SpokenValue, "kind" | "readings">, now: Pick<SpokenValue, "kind" | "readings">): string[] {
  return old.readings.filter((r) => !sameValue({ kind: now.kind, readings: [r], value: r, text: r, start: 0, end: 0 }, now));
}

/**
 * From the words (CRAWL, WALK, a live caller): after a correction cue in a caller's line, the first value
 * said supersedes the latest value of its kind said before the cue (in that line or an earlier one), when
 * they differ. Names are not superseded (they are compared by their words).
 */
export function supersessionsInWords(said: ReadonlyArray<{ text: string; at_ms: number; caller: boolean }>, lexicon: Lexicon = GENERIC): Supersession[] {
  const out: Supersession[] = [];
  const earlier: Array<Pick<SpokenValue, "kind" | "readings">> = [];
  for (const line of said) {
    const values = readValues(line.text, { lexicon }).filter((v) => v.kind !== "name");
    const cues = line.caller ? [...line.text.matchAll(CUE_PATTERN)].map((m) => m.index!) : [];
    let next = 0;
    let read = -1;
    for (const cue of cues) {
      // Values before this cue are what it may correct.
      for (; next < values.length && values[next]!.start < cue; next++) earlier.push(values[next]!);
      // The first value at or after the cue (the loop above left every earlier one behind); two cues in a
      // row ("actually, make that four") introduce one value.
      const now = values[next];
      if (!now || next === read) continue;
      read = next;
      const old = [...earlier].reverse().find((v) => v.kind === now.kind);
      const readings = old ? dropped(old, now) : [];
      if (readings.length > 0) out.push({ kind: now.kind, readings, at_ms: line.at_ms, replaced_by: now.value });
    }
    for (; next < values.length; next++) earlier.push(values[next]!);
  }
  return out;
}

/** A caller act's value read as one value: a number is a count, a string its structured or spoken form. */
function actValue(value: unknown, lexicon: Lexicon): Pick<SpokenValue, "kind" | "readings"> | null {
  if (typeof value === "number") return { kind: "count", readings: [String(value)] };
  if (typeof value !== "string") return null;
  const structured = structuredValue(value);
  if (structured) return structured;
  const spoken = readValues(value, { lexicon });
  return spoken.length === 1 && spoken[0]!.kind !== "name" ? spoken[0]! : null;
}

/** From the caller's acts (RUN, the offline caller): a `correct` of a field supersedes the values the caller gave that field before. */
export function supersessionsByActs(caller: readonly GroundingCallerLine[], lexicon: Lexicon = GENERIC): Supersession[] {
  const out: Supersession[] = [];
  const given = new Map<string, unknown[]>();
  for (const line of caller) {
    for (const act of line.acts ?? []) {
      if ((act.kind !== "give" && act.kind !== "correct") || act.field === undefined) continue;
      const before = given.get(act.field) ?? [];
      const now = actValue(act.value, lexicon);
      if (act.kind === "correct" && now) {
        for (const old of before.map((v) => actValue(v, lexicon))) {
          const readings = old && old.kind === now.kind ? dropped(old, now) : [];
          if (readings.length > 0) out.push({ kind: now.kind, readings, at_ms: line.end_ms ?? line.start_ms, replaced_by: now.readings[0]! });
        }
      }
      given.set(act.field, [...before, act.value]);
    }
  }
  return out;
}

/** The supersession that takes a reading of words said at `said_ms` back by `at_ms`, if one does. */
function supersededAt(kind: ValueKind, reading: string, said_ms: number, at_ms: number, supersessions: readonly Supersession[]): Supersession | undefined {
  return supersessions.find((s) => s.kind === kind && s.at_ms >= said_ms && s.at_ms <= at_ms && sameValue({ kind, readings: [reading], value: reading, text: reading, start: 0, end: 0 }, s));
}

/**
 * Whether a value was grounded when spoken: context, facts, tool results and events from before it, or the
 * conversation's words from before it in a reading no correction had taken back by then. When only
 * superseded words held it, the supersession is given.
 */
function grounded(value: SpokenValue, at_ms: number, timeline: Timeline): { ok: boolean; superseded?: Supersession } {
  // A time is held only by a time the evidence states, compared as ambiguous when its half of the day is
  // not said: "at 8" (8 a.m. or 8 p.m.) grounds neither "8 a.m." nor "8 p.m.", and the number 8 no hour.
  const time = value.kind === "time";
  const has = (evidence: EvidenceValues, times: readonly Held[], v: SpokenValue) => (time ? holds(times, v) : inEvidence(v, evidence));
  if (has(timeline.always, timeline.alwaysTimes, value)) return { ok: true };
  if (timeline.dated.some((d) => d.at_ms <= at_ms && has(d.evidence, d.times, value))) return { ok: true };
  let superseded: Supersession | undefined;
  for (const line of timeline.said) {
    if (line.at_ms > at_ms || !has(line.evidence, line.times, value)) continue;
    // (A name is never superseded: no supersession has its kind, so its one reading stays.)
    // The readings this line holds: of the times it states that hold the value (or, for other kinds, one by one).
    const live = time
      ? value.readings.filter((r) => line.times.some((h) => holds([h], value) && h.readings.includes(r)))
      : value.readings.filter((r) => inEvidence({ ...value, value: r, readings: [r] }, line.evidence));
    const taken = live.map((r) => supersededAt(value.kind, r, line.at_ms, at_ms, timeline.supersessions));
    if (taken.some((s) => s === undefined)) return { ok: true };
    superseded ??= taken[0];
  }
  return superseded ? { ok: false, superseded } : { ok: false };
}

/** The world write an execution made, if it reached the world and succeeded. */
function okWrite(t: ToolExecution, events: readonly WorldEvent[]): boolean {
  return events.some((e) => (e.seq === t.world_seq || e.cause.call_id === t.call_id) && e.kind === "write" && e.outcome === "ok");
}

/** Whether an execution's tool can back a claim of this kind: its effect's outcome (a tool whose effect is neither declared nor in its name backs any). */
function backs(t: ToolExecution, claim: OutcomeClaim, lexicon: Lexicon): boolean {
  const outcome = toolOutcome(lexicon, t.name);
  return claim.kind === "any" || outcome === null || outcome === claim.kind;
}

// ---- claims against their backing evidence ----------------------------------------------------------

/** A value as a result holds it: its kind and every reading (a structured form has one). */
type Held = Pick<SpokenValue, "kind" | "readings">;

/**
 * The values an execution's result holds, read strictly: structured strings exactly ("19:00", "R-1002"),
 * free text as speech is read, numbers as counts and amounts (never as an hour), keys too.
 */
export function resultValues(json: unknown, lexicon: Lexicon = GENERIC): Held[] {
  const out: Held[] = [];
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      const structured = structuredValue(v);
      if (structured) out.push(structured);
      else out.push(...readValues(v, { lexicon }));
    } else if (typeof v === "number" && Number.isFinite(v)) {
      if (Number.isInteger(v)) out.push({ kind: "count", readings: [String(v)] });
      out.push({ kind: "money", readings: [v.toFixed(2)] });
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === "object") {
      for (const [k, inner] of Object.entries(v)) {
        const key = structuredValue(k);
        if (key) out.push(key);
        visit(inner);
      }
    }
  };
  visit(json);
  return out;
}

/**
 * Whether a spoken value is one the result holds. A time whose half of the day was not said ("at 8") has
 * two readings and matches when the result holds either; a result's own ambiguous time never matches a
 * definite one (an "8" never stands for both 8 a.m. and 8 p.m.).
 */
export function holds(result: readonly Held[], value: SpokenValue): boolean {
  return result.some((h) => h.kind === value.kind && (h.readings.length === 1 || h.readings.length === value.readings.length) && sameValue(value, h));
}

const eventOf = (t: ToolExecution, events: readonly WorldEvent[]) => events.find((e) => e.seq === t.world_seq || e.cause.call_id === t.call_id);

/** The evidence an execution gives a claim: its arguments, its output and its world event's result. */
function backingJson(t: ToolExecution, events: readonly WorldEvent[]): unknown[] {
  return [t.arguments ?? {}, t.output ?? null, eventOf(t, events)?.result ?? null];
}

/**
 * The sentences of an utterance with their spans and whether each asks (language/reader.ts). compromise
 * keeps "…at 7 p.m. Shall I book it?" in one sentence (the abbreviation's period), so a capital after
 * "a.m."/"p.m." starts a new one, as everywhere else; each sentence runs to where the next begins.
 */
export function sentenceSpans(text: string): Array<{ text: string; start: number; end: number; question: boolean }> {
  type T = { text: string; offset: { start: number } };
  const starts: number[] = [];
  for (const sentence of parsedJson(text) as Array<{ terms: T[] }>) {
    const terms = sentence.terms.filter((t) => t.text !== "");
    terms.forEach((t, i) => {
      if (i === 0 || startsSentence(terms[i - 1]!.text, t.text)) starts.push(t.offset.start);
    });
  }
  return starts.map((start, i) => {
    const piece = text.slice(start, starts[i + 1] ?? text.length).trimEnd();
    return { text: piece, start, end: start + piece.length, question: isQuestion(piece) };
  });
}

/** A value of the public facts or the context, read strictly, with the stems of the words of its keys ("hours.close" → hour, close). */
interface Topical {
  held: Held[];
  topics: string[];
}

/** The stems of a text's words ("closing" → close). */
const stems = (text: string) => read(text).words.map((w) => w.stem);

/** Every leaf of the facts or the context, read strictly, with the words of the keys it sits under. */
export function topicalValues(json: unknown, lexicon: Lexicon = GENERIC, keys: readonly string[] = []): Topical[] {
  if (Array.isArray(json)) return json.flatMap((v) => topicalValues(v, lexicon, keys));
  if (json !== null && typeof json === "object") return Object.entries(json).flatMap(([k, v]) => topicalValues(v, lexicon, [...keys, k]));
  if (typeof json !== "string" && typeof json !== "number") return [];
  const held = resultValues(json, lexicon);
  // camelCase and snake_case keys say their words apart: "closingTime", "closing_time" → closing, time.
  const words = keys.map((k) => k.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[^A-Za-z]+/g, " ")).join(" ");
  return held.length > 0 ? [{ held, topics: stems(words) }] : [];
}

/**
 * Whether a value may stand beside a claim as a public fact or a detail of the context: held by one,
 * read strictly, in a sentence that names it by a word of its key ("…; we close at 10 p.m." beside the
 * fact `hours.close`). A time the sentence gives the claim's own record is never a fact's by chance.
 */
function besideClaim(value: SpokenValue, sentence: string, topical: readonly Topical[]): boolean {
  const said = new Set(stems(sentence));
  return topical.some((t) => holds(t.held, value) && t.topics.some((w) => said.has(w)));
}

/**
 * The values of a backed claim, each against its backing: a value the backing holds agrees; one of a kind
 * the backing holds that it does not is a contradiction; one of a kind it holds none of must be held by the
 * caller's current words, the context or the public facts.
 */
function claimValues(utterance: Utterance, claim: OutcomeClaim, backing: ToolExecution, input: GroundingInput, timeline: Timeline): ContradictedValue[] {
  const sentence = sentenceSpans(utterance.text).find((s) => claim.start >= s.start && claim.start < s.end);
  // Stryker disable next-line ConditionalExpression: equivalent, a claim's span always lies in one of its utterance's sentences
  if (!sentence) return [];
  const lexicon = input.lexicon ?? GENERIC;
  const json = backingJson(backing, input.events);
  const evidence = resultValues(json, lexicon);
  // A name is held by its words (the backing's "guest_name": "Maya" holds "under Maya").
  const words = evidenceValues(json, { lexicon });
  const out: ContradictedValue[] = [];
  for (const value of readValues(utterance.text, { lexicon })) {
    if (value.start < sentence.start || value.end > sentence.end) continue;
    if (value.kind === "name" ? inEvidence(value, words) : holds(evidence, value)) continue;
    // The public facts and the context may be said beside a claim ("…; we close at 10 p.m."): a name by
    // its words, any other value when the sentence names the fact it is.
    if (value.kind === "name" ? inEvidence(value, timeline.always) : besideClaim(value, sentence.text, timeline.topical)) continue;
    const sameKind = evidence.filter((h) => h.kind === value.kind);
    const ground = grounded(value, utterance.start_ms, { ...timeline, dated: [] });
    if (sameKind.length === 0 && ground.ok) continue;
    out.push({
      utterance,
      value,
      sentence: sentence.text,
      backing,
      holds: sameKind.length > 0 ? `${KIND_NAMES[value.kind]} ${[...new Set(sameKind.flatMap((h) => h.readings))].join(", ")}` : null,
      ...(ground.superseded ? { superseded: ground.superseded } : {}),
    });
  }
  // Values of the world's own kinds (its enum fields) that the claim asserts: not one its clause denies ("…, not the bar").
  const said = readKindValues(utterance.text, lexicon.kinds, lexicon.outcomeWords).filter((v) => !v.denied && v.start >= sentence.start && v.end <= sentence.end);
  out.push(...kindContradictions(said, [json], utterance, sentence.text, backing));
  return out;
}

/** Whether a value is one of the world's own kinds (an enum field's). */
const isKindValue = (v: SpokenValue | SpokenKindValue): v is SpokenKindValue => "denied" in v;

/**
 * Values of the world's enum fields against evidence (docs/grading.md, "Values of the world's own kinds"):
 * a value the evidence holds under its field agrees; one whose field the evidence holds with other values
 * contradicts it; one whose field it holds nothing of is not read. A span that is a value of two kinds
 * agrees when either agrees.
 */
function kindContradictions(said: readonly SpokenKindValue[], json: readonly unknown[], utterance: Utterance, sentence: string, backing: ToolExecution): ContradictedValue[] {
  const out: ContradictedValue[] = [];
  const spans = [...new Set(said.map((v) => `${v.start}:${v.end}`))];
  for (const span of spans) {
    const here = said.filter((v) => `${v.start}:${v.end}` === span);
    const held = here.map((v) => ({ v, held: [...new Set(json.flatMap((j) => heldKindValues(j, v.kind)))] })).filter((h) => h.held.length > 0);
    if (held.length === 0 || held.some((h) => h.held.includes(h.v.value))) continue;
    const first = held[0]!;
    out.push({ utterance, value: first.v, sentence, backing, holds: `${first.v.kind.field} ${first.held.join(", ")}` });
  }
  return out;
}

// ---- availability statements ------------------------------------------------------------------------

/** Words that say there is none. */
const NEGATING = new Set(["not", "no", "never", "none", "nothing", "cannot", "unable", "neither", "nor"]);
/** Words that may stand between "be" and what something is ("it's already taken", "we're completely full"). */
const DEGREE = new Set(["already", "all", "completely", "totally", "entirely", "fully", "just", "now", "pretty", "quite", "still", "unfortunately"]);
/** Words that state that something exists for the caller: "we have a table", "we've got one", "7 p.m. is free". */
const THERE_IS = new Set(["have", "got", "free", "open"]);
/** Words of a field's name too common to name it ("is_open" is named by "open", "on_shelf" by "shelf"). */
const FIELD_FILLERS = new Set(["has", "are", "was", "can", "the", "for", "any"]);

/** A read result's boolean fields (`available: false`), by name. */
function booleanFields(output: unknown): Array<{ field: string; value: boolean }> {
  if (output === null || typeof output !== "object" || Array.isArray(output)) return [];
  return Object.entries(output).flatMap(([field, value]) => (typeof value === "boolean" ? [{ field, value }] : []));
}

/**
 * What an availability statement says, or null: a sentence that names a boolean field of the read
 * ("available", "unavailable"), states that something exists ("we have", "we've got", "there is", "is
 * free") or that there is no room. True when it says there is; false when it is negated or says there is
 * no room. No room is said by what something is ("is full", "full up", "is taken", "is out", "fully
 * booked", "sold out"), never by a word that describes a noun ("the full menu", "at full price"), an
 * action ("we've taken your name") or an idiom ("it's all taken care of"). A sentence that says both ("not at 9, but we have 7") is not read.
 */
export function availabilitySaid(sentence: string, field: string): boolean | null {
  const all = read(sentence).words;
  // A field's words that can name it: "on_shelf" is named by "shelf", never by any "on".
  const fieldWords = field.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 2 && !FIELD_FILLERS.has(w));
  const names = (w: { word: string; lemma: string }) => fieldWords.some((f) => w.word === f || w.lemma === f || w.word === `un${f}`);
  // Read clause by clause (at commas, semicolons, colons, dashes and "and"): a clause that says nothing of
  // availability says nothing either way ("…has seats, and there's no fare difference" has seats).
  const clauses: Word[][] = [];
  for (const s of read(sentence).sentences)
    for (const c of s.clauses) {
      clauses.push([]);
      for (const w of c) {
        if (w.word === "and" && clauses.at(-1)!.length > 0) clauses.push([]);
        clauses.at(-1)!.push(w);
      }
    }
  const said: boolean[] = [];
  for (const words of clauses) {
    // What something is: the word after a form of "be", words of degree between ("both copies are out").
    const isWhat = (i: number) => {
      let j = i - 1;
      while (j >= 0 && DEGREE.has(words[j]!.word)) j--;
      return words[j]?.lemma === "be";
    };
    // …and not followed by a noun it takes as its object ("it's all taken care of"); a day or a time may follow ("we're full tonight").
    const object = (i: number) => {
      const tags = words[i + 1]?.tags;
      return tags !== undefined && tags.has("Noun") && !tags.has("Date") && !tags.has("Time") && !tags.has("Pronoun");
    };
    const noRoom = (i: number) => {
      const w = words[i]!.word;
      const next = words[i + 1]?.word;
      if (w === "full") return (isWhat(i) && !object(i)) || next === "up";
      if (w === "taken" || w === "out") return isWhat(i) && !object(i);
      if (w === "fully") return next !== undefined && next.endsWith("ed");
      return w === "sold" && next === "out";
    };
    const exists = (i: number) => THERE_IS.has(words[i]!.word) || THERE_IS.has(words[i]!.lemma) || (words[i]!.word === "there" && words[i + 1]?.lemma === "be");
    if (!words.some((w, i) => names(w) || exists(i) || noRoom(i))) continue;
    // A leading "No" answers something ("No problem, we have…"); later it negates ("there is no table").
    const first = all.indexOf(words[0]!);
    said.push(!words.some((w, i) => (NEGATING.has(w.word) && !(first + i === 0 && w.word === "no")) || noRoom(i) || fieldWords.some((f) => w.word === `un${f}`)));
  }
  if (said.length === 0) return null;
  const negative = said.some((x) => !x);
  // A sentence that says both is not read: clauses that disagree, or a negation anywhere with "but",
  // "however" or "instead" ("not at 9, but we have 7").
  if (negative && said.some((x) => x)) return null;
  const negated = all.some((w, i) => NEGATING.has(w.word) && !(i === 0 && w.word === "no"));
  if ((negative || negated) && all.some((w) => w.word === "but" || w.word === "however" || w.word === "instead")) return null;
  return !negative;
}

/**
 * Statements after a completed read that say the opposite of one of its boolean results, until the next
 * call; and the values of such statements against what was looked up. A statement about the read (it
 * names a time or a date the read holds) is a claim about its result: each of its values of a kind the
 * completed calls before it hold must be one they hold ("no table for six on August 7 at 10 p.m." after a
 * look-up of 9 p.m. contradicts it), unless the sentence names it as a public fact.
 */
function availabilityStatements(input: GroundingInput, timeline: Timeline): { statements: ContradictedAvailability[]; values: ContradictedValue[] } {
  const lexicon = input.lexicon ?? GENERIC;
  const out: ContradictedAvailability[] = [];
  const values: ContradictedValue[] = [];
  const completed = input.tool_executions.filter((t) => t.status === "completed");
  for (const t of completed) {
    // A read's answer: a write's result reports what it did (its claims are read above).
    const fields = eventOf(t, input.events)?.kind === "read" ? booleanFields(t.output) : [];
    if (fields.length === 0) continue;
    const next = completed.filter((o) => o.completed_ms > t.completed_ms).reduce((m, o) => Math.min(m, o.completed_ms), Number.POSITIVE_INFINITY);
    const json = backingJson(t, input.events);
    const held = resultValues(json, lexicon);
    const evidence = held.filter((h) => h.kind === "time" || h.kind === "date");
    for (const utterance of input.utterances) {
      if (utterance.start_ms < t.completed_ms || utterance.start_ms >= next) continue;
      const spoken = readValues(utterance.text, { lexicon });
      // What every call completed before the statement looked up or returned (an earlier look-up may hold what this one does not).
      const before = completed.filter((o) => o.completed_ms <= utterance.start_ms).flatMap((o) => resultValues(backingJson(o, input.events), lexicon));
      for (const s of sentenceSpans(utterance.text)) {
        if (s.question) continue;
        const inSentence = spoken.filter((v) => v.start >= s.start && v.end <= s.end);
        const about = inSentence.filter((v) => v.kind === "time" || v.kind === "date");
        // The values of the world's enum fields it says, and those this read holds ("the patio" after a look-up of the patio).
        const kinds = readKindValues(utterance.text, lexicon.kinds, lexicon.outcomeWords).filter((v) => v.start >= s.start && v.end <= s.end);
        const ownKinds = kinds.filter((v) => heldKindValues(json, v.kind).length > 0);
        // About this read: it names a time, a date or an enum value of it.
        if (!about.some((v) => holds(evidence, v)) && !ownKinds.some((v) => heldKindValues(json, v.kind).includes(v.value))) continue;
        const saysAvailability = fields.map(({ field, value }) => ({ field, value, said: availabilitySaid(s.text, field) })).filter((f) => f.said !== null);
        if (saysAvailability.length === 0) continue;
        // Its polarity against the result, when it names nothing the read does not hold.
        if (about.every((v) => holds(evidence, v)) && ownKinds.every((v) => heldKindValues(json, v.kind).includes(v.value))) {
          for (const { field, value, said } of saysAvailability) if (said !== value) out.push({ utterance, sentence: s.text, said: said!, result: value, field, backing: t });
        }
        for (const value of inSentence) {
          if (value.kind === "name" || holds(before, value)) continue;
          const sameKind = before.filter((h) => h.kind === value.kind);
          if (sameKind.length === 0 || besideClaim(value, s.text, timeline.topical)) continue;
          values.push({ utterance, value, sentence: s.text, backing: t, holds: `${KIND_NAMES[value.kind]} ${[...new Set(sameKind.flatMap((h) => h.readings))].join(", ")}` });
        }
        // Its enum values, against what the calls completed before it hold of their fields.
        values.push(...kindContradictions(kinds, completed.filter((o) => o.completed_ms <= utterance.start_ms).map((o) => backingJson(o, input.events)), utterance, s.text, t));
      }
    }
  }
  return { statements: out, values };
}

/** Whether evidence holds a stated value; a record id said by its digits alone ("booking 2040") by an id that ends in them after letters ("R-2040"). */
function holdsStated(held: readonly Held[], value: SpokenValue): boolean {
  if (holds(held, value)) return true;
  return value.kind === "reference" && /^\d+$/.test(value.value) && held.some((h) => h.kind === "reference" && h.readings.some((r) => r.endsWith(value.value) && /^[A-Z]+$/.test(r.slice(0, -value.value.length))));
}

/**
 * Whether a held value is one a stated value may be compared with: an amount with any amount; a record id
 * with the ids of its series, those that begin with the same character ("R-2041" with "R-2040", not a
 * flight "NW218" with a booking "R-2040" nor a seat "12A" with either).
 */
function comparable(held: Held, value: SpokenValue): boolean {
  if (held.kind !== value.kind) return false;
  return value.kind !== "reference" || held.readings.some((r) => r.charAt(0) === value.value.charAt(0));
}

/** The kinds of value a statement of what something is (an amount, a record id) is checked for against the latest call that holds that kind. */
const STATED_KINDS: readonly ValueKind[] = ["money", "reference"];

/**
 * Statements of an amount or a record id as what something is ("Your change fee is $75", "Your booking
 * number is R-2041"; docs/grading.md, "Values of the world's own kinds"), in a sentence that is no question
 * and claims no outcome (claims are read against their backing above): after a completed call whose
 * arguments or result hold values of that kind (for an id, of its series), the value must be one a completed
 * call holds, or a public fact or context detail the sentence names by a word of its key. Otherwise it
 * contradicts the latest such call.
 */
function identityStatements(input: GroundingInput, timeline: Timeline): ContradictedValue[] {
  const lexicon = input.lexicon ?? GENERIC;
  const completed = input.tool_executions.filter((t) => t.status === "completed");
  if (completed.length === 0) return [];
  const heldBy = new Map(completed.map((t) => [t, resultValues(backingJson(t, input.events), lexicon)] as const));
  const out: ContradictedValue[] = [];
  for (const utterance of input.utterances) {
    const before = completed.filter((t) => t.completed_ms <= utterance.start_ms);
    if (before.length === 0) continue;
    const values = readValues(utterance.text, { lexicon }).filter((v) => STATED_KINDS.includes(v.kind) && statedAsIs(utterance.text, v));
    if (values.length === 0) continue;
    const claims = readClaims(utterance.text, lexicon);
    for (const s of sentenceSpans(utterance.text)) {
      if (s.question || claims.some((c) => c.start >= s.start && c.start < s.end)) continue;
      for (const value of values) {
        if (value.start < s.start || value.end > s.end) continue;
        // The latest call before the statement whose evidence holds values of its kind (the first of a tie).
        const latest = before.filter((t) => heldBy.get(t)!.some((h) => comparable(h, value))).reduce<ToolExecution | undefined>((best, t) => (!best || t.completed_ms > best.completed_ms ? t : best), undefined);
        if (!latest || before.some((t) => holdsStated(heldBy.get(t)!, value)) || besideClaim(value, s.text, timeline.topical)) continue;
        const sameKind = heldBy.get(latest)!.filter((h) => comparable(h, value));
        out.push({ utterance, value, sentence: s.text, backing: latest, holds: `${KIND_NAMES[value.kind]} ${[...new Set(sameKind.flatMap((h) => h.readings))].join(", ")}` });
      }
    }
  }
  return out;
}

/** Read every assistant utterance once: its values against earlier evidence, its claims against earlier tool results. */
export function readGrounding(input: GroundingInput): Grounding {
  const timeline = evidenceTimeline(input);
  const lexicon = input.lexicon ?? GENERIC;
  const writes = input.tool_executions.filter((t) => t.status === "completed" && okWrite(t, input.events));
  const availability = availabilityStatements(input, timeline);
  const out: Grounding = { spoken: [], ungrounded: [], claims: [], unbacked: [], superseded: [], contradicted: [...availability.values, ...identityStatements(input, timeline)], availability: availability.statements };
  for (const utterance of input.utterances) {
    for (const value of readValues(utterance.text, { lexicon })) {
      const ground = grounded(value, utterance.start_ms, timeline);
      out.spoken.push({ utterance, value, grounded: ground.ok });
      if (ground.superseded) out.superseded.push({ utterance, value, supersession: ground.superseded });
      else if (!ground.ok) out.ungrounded.push({ utterance, value });
    }
    for (const claim of readClaims(utterance.text, lexicon)) {
      const candidates = writes.filter((t) => backs(t, claim, lexicon));
      // What the claim reports: the candidate that completed last before it (the first of a tie).
      const backing = candidates.filter((t) => t.completed_ms <= utterance.start_ms).reduce<ToolExecution | undefined>((best, t) => (!best || t.completed_ms > best.completed_ms ? t : best), undefined);
      out.claims.push({ utterance, claim, ...(backing ? { backing } : {}) });
      if (backing) out.contradicted.push(...claimValues(utterance, claim, backing, input, timeline));
      else {
        // No candidate completed by then, so any is late: the first.
        const late = candidates[0];
        out.unbacked.push({ utterance, claim, ...(late ? { late } : {}) });
      }
    }
  }
  // A value said in two claims of one sentence is one fault.
  out.contradicted = out.contradicted.filter((c, i, all) => all.findIndex((d) => d.utterance === c.utterance && d.value.start === c.value.start) === i);
  return out;
}

// ---- result communication ---------------------------------------------------------------------------

/** How a result was communicated: the utterance, and what in it did. */
export interface Communicated {
  execution: ToolExecution;
  utterance: Utterance | null;
  how: string | null;
}

/**
 * Whether each execution's result was communicated (docs/grading.md, "The result must be communicated"):
 * an utterance that began at or after it completed and makes an outcome claim it backs, reports an outcome
 * (for a read, either way), or states, in a sentence that is not a question, a value its result holds.
 */
export function readCommunication(executions: readonly ToolExecution[], utterances: readonly Utterance[], events: readonly WorldEvent[], lexicon: Lexicon = GENERIC): Communicated[] {
  return executions.map((execution) => {
    const write = okWrite(execution, events);
    const result = resultValues([execution.output ?? null, eventOf(execution, events)?.result ?? null], lexicon);
    const own = resultTexts([execution.output ?? null, eventOf(execution, events)?.result ?? null]);
    const texts = resultTexts([execution.output ?? null, eventOf(execution, events)?.result ?? null], resultTexts([execution.arguments ?? null]));
    for (const utterance of utterances) {
      if (utterance.start_ms < execution.completed_ms) continue;
      const claim = write ? readClaims(utterance.text, lexicon).find((c) => backs(execution, c, lexicon)) : undefined;
      if (claim) return { execution, utterance, how: `claims "${claim.text}"` };
      const report = readOutcome(utterance.text, lexicon);
      if (report && (!write || !report.negated)) return { execution, utterance, how: `reports "${report.phrase}"` };
      const statements = sentenceSpans(utterance.text).filter((s) => !s.question);
      const value = readValues(utterance.text, { lexicon }).find((v) => holds(result, v) && statements.some((s) => v.start >= s.start && v.end <= s.end));
      if (value) return { execution, utterance, how: `states "${value.text}"` };
      // Free text the result holds that the call's arguments did not (a seat class it assigned), said in a
      // statement that does not deny it; echoing the caller's own words ("Goodbye, Maya") reports nothing.
      const text = statements.find((s) => !denies(s.text) && texts.some((t) => containsWords(textWords(s.text), t)));
      if (text) return { execution, utterance, how: `states "${text.text}"` };
      // After a write: a statement that a value it holds is now the caller's ("The Hobbit is yours").
      const given = write ? statements.find((s) => possessed(s.text, own, result, lexicon)) : undefined;
      if (given) return { execution, utterance, how: `says "${given.text}"` };
      // A read's yes-or-no answer said as such: an availability statement that agrees with a boolean it returned.
      const answered = write ? undefined : statements.find((s) => booleanFields(execution.output).some(({ field, value }) => availabilitySaid(s.text, field) === value));
      if (answered) return { execution, utterance, how: `says "${answered.text}"` };
    }
    return { execution, utterance: null, how: null };
  });
}

/**
 * The free-text values a result holds, as words: every string that is no structured value (an id, a time, a
 * date) and holds a word of three letters or more, less those in `except` (the call's own arguments).
 */
function resultTexts(json: unknown, except: readonly string[][] = []): string[][] {
  const out: string[][] = [];
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      const words = textWords(v);
      if (structuredValue(v) || !words.some((w) => /^\p{L}{3,}$/u.test(w))) return;
      if (!except.some((e) => e.join(" ") === words.join(" "))) out.push(words);
    } else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(visit);
  };
  visit(json);
  return out;
}

/**
 * Whether a sentence says that something the result holds is now the caller's: "yours" after a value or
 * text of the result, in a statement that neither denies nor defers it ("The Hobbit is yours", "seat 12A is
 * all yours"; not "It won't be yours", "It can be yours").
 */
function possessed(sentence: string, texts: readonly string[][], result: readonly Held[], lexicon: Lexicon): boolean {
  const words = read(sentence).words;
  const at = words.findIndex((w) => w.word === "yours");
  if (at < 0 || denies(sentence) || words.slice(0, at).some((w) => w.tags.has("Modal") || w.word === "will" || w.word === "if")) return false;
  const before = sentence.slice(0, sentence.toLowerCase().indexOf("yours"));
  return texts.some((t) => containsWords(textWords(before), t)) || readValues(before, { lexicon }).some((v) => holds(result, v));
}

/** Whether a sentence denies something: a negation ("not", "couldn't", "no") past its first word. */
function denies(sentence: string): boolean {
  return read(sentence).words.some((w, i) => NEGATING.has(w.word) && !(i === 0 && w.word === "no"));
}

const KIND_NAMES: Record<ValueKind, string> = { time: "time", date: "date", count: "count", reference: "record id", money: "amount", phone: "phone number", name: "name" };

/** `utt.assistant.2 "11 p.m." (time 23:00, chars 31–38)` */
export function describeValue(u: UngroundedValue | { utterance: Utterance; value: SpokenValue | SpokenKindValue }): string {
  const v = u.value;
  const what = isKindValue(v) ? `${v.kind.field} ${v.value}` : `${KIND_NAMES[v.kind]} ${v.readings.join(" or ")}`;
  return `${u.utterance.evidence_id} "${v.text}" (${what}, chars ${v.start}–${v.end})`;
}

export function describeClaim(u: UnbackedClaim): string {
  const where = `${u.utterance.evidence_id} "${u.claim.text}" (chars ${u.claim.start}–${u.claim.end}, at ${u.utterance.start_ms} ms)`;
  const what = u.claim.kind === "any" ? "an outcome" : `"${u.claim.word}"`;
  return u.late
    ? `${where} claims ${what} before ${u.late.name} (${u.late.call_id}) completed at ${u.late.completed_ms} ms`
    : `${where} claims ${what} that no completed, successful write backs`;
}

/** `utt.assistant.3 "August 7" (date 2026-08-07, chars 12–20): the caller corrected it to 2026-08-06 at 900 ms` */
export function describeSuperseded(u: { utterance: Utterance; value: SpokenValue; supersession: Supersession }): string {
  return `${describeValue(u)}: the caller corrected it to ${u.supersession.replaced_by} at ${u.supersession.at_ms} ms`;
}

/** `utt.assistant.2 "8 p.m." (time 20:00, chars 40–46) in "You're booked …" contradicts create_reservation (c1), which holds time 19:00` */
export function describeContradiction(c: ContradictedValue): string {
  const against = c.holds ? `contradicts ${c.backing.name} (${c.backing.call_id}), which holds ${c.holds}` : `is held neither by ${c.backing.name} (${c.backing.call_id}) nor by the caller's current words`;
  const corrected = c.superseded ? `; the caller corrected it to ${c.superseded.replaced_by} at ${c.superseded.at_ms} ms` : "";
  return `${describeValue(c)} in "${c.sentence}" ${against}${corrected}`;
}

/** `utt.assistant.1 "Good news: we have a table…" says there is, but check_availability (c1) returned available: false` */
export function describeAvailability(a: ContradictedAvailability): string {
  return `${a.utterance.evidence_id} "${a.sentence}" says there ${a.said ? "is" : "is not"}, but ${a.backing.name} (${a.backing.call_id}) returned ${a.field}: ${a.result}`;
}

// ---- expected facts --------------------------------------------------------------------------------

/** A fact's value as the language layer reads it: a typed value, or words to find. */
export type FactValue = { kind: ValueKind; readings: string[] } | { kind: "text"; words: string[] };

const ABBREVIATIONS: Record<string, string> = { street: "st", avenue: "ave", road: "rd", boulevard: "blvd", drive: "dr", lane: "ln", square: "sq" };
/** A text's words, lower case, abbreviations spelled one way and numbers said in words as digits ("fourteen Quay Street" → 14 quay st). */
const textWords = (s: string) =>
  numbersAsDigits(
    s
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      // At each character that is no letter or digit; the empty words between two of them are dropped.
      .split(/[^\p{L}\p{N}]/u)
      .filter(Boolean),
  ).map((w) => ABBREVIATIONS[w] ?? w);

/** "22:00" → time 22:00; "10 p.m." → time 22:00; 4 → count 4; "555-0142" → phone; "14 Quay Street" → words. */
export function factValue(value: string | number, lexicon: Lexicon = GENERIC): FactValue {
  if (typeof value === "number") return { kind: "count", readings: [String(value)] };
  const structured = structuredValue(value);
  if (structured) return structured;
  // A value that is one spoken reading from end to end ("10 p.m.", "August 7", "$12.50") is typed; only a
  // full stop or an exclamation mark, then spaces, may follow it.
  const read = readValues(value, { lexicon });
  if (read.length === 1 && read[0]!.start === 0 && /^[.!]*\s*$/.test(value.slice(read[0]!.end))) return { kind: read[0]!.kind, readings: read[0]!.readings };
  return { kind: "text", words: textWords(value) };
}

export interface FactVerdict {
  fact: ExpectedFact;
  ok: boolean;
  detail: string;
  evidence_ids: string[];
}

function containsWords(haystack: string[], needle: string[]): boolean {
  // Stryker disable next-line ArithmeticOperator: equivalent, starts past the last possible one read words beyond the haystack (undefined), which match no word, so they find nothing
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (needle.every((w, k) => haystack[i + k] === w)) return true;
  }
  return false;
}

/** Endings after the topic's stem without its final e: open-s, open-ed, open-ing, open-er; close-s, close-d, clos-ing, close-r. */
const INFLECTIONS = ["s", "d", "ing", "r"];

/** Whether a term is a form of a topic word: its lemma, or the word with an inflection ("closing" for "close"). */
function aboutTopic(term: { normal: string; root?: string }, topics: ReadonlySet<string>): boolean {
  if (topics.has(term.normal) || topics.has(term.root ?? term.normal)) return true;
  for (const t of topics) {
    const stem = t.replace(/e$/, "");
    if (!term.normal.startsWith(stem)) continue;
    // Stryker disable next-line Regex: equivalent, dropping the first e of the rest instead of a leading one differs only for a rest like "se", "de", "re" or "inge", which no form of a topic word ends in
    if (INFLECTIONS.includes(term.normal.slice(stem.length).replace(/^e/, ""))) return true;
  }
  return false;
}

/**
 * The spans of the sentences of an utterance that mention a topic word. compromise keeps "10 p.m. Street
 * parking…" as one sentence (the abbreviation's period), so a capital after "a.m."/"p.m." starts a new one.
 */
function topicSentences(text: string, about: readonly string[]): Array<{ start: number; end: number }> {
  const topics = new Set(about.map((a) => a.toLowerCase()));
  type T = { text: string; normal: string; root?: string; offset: { start: number; length: number } };
  const sentences: T[][] = [];
  for (const s of parsedJson(text) as Array<{ terms: T[] }>) {
    let current: T[] = [];
    s.terms.forEach((t, i) => {
      current.push(t);
      const next = s.terms[i + 1];
      if (next && startsSentence(t.text, next.text)) {
        sentences.push(current);
        current = [];
      }
    });
    sentences.push(current);
  }
  return sentences
    .filter((terms) => terms.some((t) => aboutTopic(t, topics)))
    .map((terms) => ({ start: terms[0]!.offset.start, end: terms[terms.length - 1]!.offset.start + terms[terms.length - 1]!.offset.length }));
}

/** Words with each run of single characters and digits that holds a digit joined into one ("two, one, C" → 21c). */
function spelled(words: readonly string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length > 1 && run.some((w) => /\d/.test(w))) out.push(run.join(""));
    else out.push(...run);
    run = [];
  };
  for (const w of words) {
    if (/^[\p{L}\d]$/u.test(w) || /^\d+$/.test(w)) run.push(w);
    else {
      flush();
      out.push(w);
    }
  }
  flush();
  return out;
}

/** Each expected fact against everything the assistant said: contained, or never contradicted near its topic. */
export function checkFacts(facts: readonly ExpectedFact[], utterances: readonly Utterance[], lexicon: Lexicon = GENERIC): FactVerdict[] {
  return facts.map((fact) => {
    const expected = factValue(fact.value, lexicon);
    if (fact.must === "contain") {
      if (expected.kind === "text") {
        const said = utterances.find((u) => containsWords(textWords(u.text), expected.words));
        return said
          ? { fact, ok: true, detail: `${fact.key}: "${fact.value}" said in ${said.evidence_id}`, evidence_ids: [said.evidence_id] }
          : { fact, ok: false, detail: `${fact.key}: "${fact.value}" was never said`, evidence_ids: utterances.map((u) => u.evidence_id) };
      }
      for (const u of utterances) {
        const hit = readValues(u.text, { lexicon }).find((v) => sameValue(v, expected));
        if (hit) return { fact, ok: true, detail: `${fact.key}: ${describeValue({ utterance: u, value: hit })} states ${fact.value}`, evidence_ids: [u.evidence_id] };
      }
      // Said as it is written ("You're sitting in 21C"), where no word around it cues its kind.
      const literal = utterances.find((u) => typeof fact.value === "string" && (containsWords(textWords(u.text), textWords(fact.value)) || containsWords(spelled(textWords(u.text)), spelled(textWords(fact.value)))));
      if (literal) return { fact, ok: true, detail: `${fact.key}: "${fact.value}" said in ${literal.evidence_id}`, evidence_ids: [literal.evidence_id] };
      return { fact, ok: false, detail: `${fact.key}: no ${KIND_NAMES[expected.kind]} ${expected.readings.join(" or ")} ("${fact.value}") was said`, evidence_ids: utterances.map((u) => u.evidence_id) };
    }
    if (expected.kind === "text") return { fact, ok: false, detail: `${fact.key}: "${fact.value}" is not a time, date, count, amount, phone number or record id, so it cannot be contradicted; use must "contain"`, evidence_ids: [] };
    // The schema requires topic words here; a fact built without them has no sentence to be contradicted in.
    const about = fact.about ?? [];
    const contradictions: string[] = [];
    const ids: string[] = [];
    for (const u of utterances) {
      const sentences = topicSentences(u.text, about);
      for (const v of readValues(u.text, { lexicon })) {
        if (v.kind !== expected.kind || sameValue(v, expected)) continue;
        if (!sentences.some((s) => v.start >= s.start && v.end <= s.end)) continue;
        contradictions.push(describeValue({ utterance: u, value: v }));
        ids.push(u.evidence_id);
      }
    }
    return contradictions.length === 0
      ? { fact, ok: true, detail: `${fact.key}: nothing said about ${about.join("/")} contradicts ${fact.value}`, evidence_ids: [] }
      : { fact, ok: false, detail: `${fact.key}: ${contradictions.join("; ")} contradicts ${fact.value}`, evidence_ids: [...new Set(ids)] };
  });
}
