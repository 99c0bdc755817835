/**
 * What the offline caller takes an assistant turn to be doing, read with the language layer: which details
 * it asks for, whether it asks for a go-ahead (and for which action), whether it reports an outcome done,
 * unavailable or refused, offers an alternative, asks "anything else", or says goodbye. The same reader
 * turns an agenda item's trigger condition (English written by dataset authors) into the move it waits
 * for, so a trigger matches what the assistant does, not the words it happens to share with it.
 */
import { english, memoize, parsed, parsedJson } from "../language/nlp";
import { readClaims } from "../language/claims";
import { declines, isQuestion as isQuestionSentence } from "../language/reader";
import { actionName, GENERIC, verbsOf, type Effect, type Lexicon } from "../language/vocabulary";

/**
 * The actions a go-ahead or an outcome can be about: the verb that names an effect in the world's
 * lexicon ("book", "cancel", "change" for a restaurant; "create", "cancel", "change" in generic English).
 */
export type CallerAction = string;

export type AssistantMove =
  | { kind: "ask_fields"; fields: string[] }
  | { kind: "ask_go_ahead"; action: CallerAction | null }
  | { kind: "ask_other" }
  | { kind: "anything_else" }
  | { kind: "offer_alternative" }
  | { kind: "report_done"; action: CallerAction | null }
  | { kind: "report_unavailable" }
  | { kind: "refuse" }
  | { kind: "goodbye" }
  | { kind: "inform" };

export type MoveKind = AssistantMove["kind"];

/** One sentence of a turn: its words as lemmas, whether it asks, and what it does. */
export interface ReadSentence {
  text: string;
  question: boolean;
  lemmas: string[];
  moves: AssistantMove[];
}

export interface Understanding {
  sentences: ReadSentence[];
  moves: AssistantMove[];
  /** The words it was read with (a trigger condition is read with the same). */
  lexicon: Lexicon;
}

/** The caller's reading of one assistant turn, in the world's words (generic English without a lexicon). */
export function understand(text: string, knownFields: readonly string[] = [], lexicon: Lexicon = GENERIC): Understanding {
  const words = wordsFor(lexicon);
  const sentences = splitSentences(text).map((s) => readSentence(s, knownFields, words));
  return { sentences, moves: sentences.flatMap((s) => s.moves), lexicon };
}

// ---- words --------------------------------------------------------------------------------------------

interface Word {
  /** Lower-case surface form, punctuation trimmed. */
  text: string;
  /** The lemma (compromise's root: "reservations" → "reservation", "booked" → "book"). */
  lemma: string;
  tags: Set<string>;
}

/**
 * "7 p.m. Your reservation…" is two sentences; compromise keeps "p.m." as an abbreviation and would not split.
 * Runs of spaces (a transcript joined from its pieces) are one space, so a line reads from memory however
 * its pieces arrived.
 */
const splitSentences = memoize(splitSentencesOnce);
function splitSentencesOnce(text: string): string[] {
  const plain = text.replace(/\s+/g, " ").replace(/\b([ap])\.\s?m\.(?=\s+[A-Z])/g, "$1m.").replace(/\b([ap])\.\s?m\./gi, "$1m");
  // Sentence ends once the abbreviations are settled: a stop, "?" or "!" before a space ("$12.50" stays whole).
  return plain.split(/(?<=[.!?])\s+/).map((s) => s.trim()).filter(Boolean);
}

const wordsOf = memoize(wordsOfOnce);
function wordsOfOnce(text: string): Word[] {
  const out: Word[] = [];
  for (const sentence of parsedJson(text) as Array<{ terms: Array<{ text: string; normal?: string; root?: string; tags?: string[]; implicit?: string }> }>)
    for (const term of sentence.terms) {
      const surface = (term.normal ?? term.text).toLowerCase().replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, "");
      const implicit = term.implicit?.toLowerCase();
      if (!surface && !implicit) continue;
      out.push({ text: surface || implicit!, lemma: (term.root ?? implicit ?? surface).toLowerCase(), tags: new Set(term.tags ?? []) });
    }
  return out;
}

const has = (words: readonly Word[], ...lemmas: string[]) => words.some((w) => lemmas.includes(w.lemma) || lemmas.includes(w.text));
/** A phrase of consecutive words, each matched by surface form or lemma. */
function hasPhrase(words: readonly Word[], phrase: string): boolean {
  const parts = phrase.split(" ");
  for (let i = 0; i + parts.length <= words.length; i++) if (parts.every((p, j) => words[i + j]!.text === p || words[i + j]!.lemma === p)) return true;
  return false;
}
const negated = (words: readonly Word[]) => words.some((w) => w.tags.has("Negative") || ["not", "no", "never", "n't", "cannot", "can't", "won't", "don't", "isn't", "aren't", "unable"].includes(w.text));

// ---- the world's words ------------------------------------------------------------------------------------

/** Lemmas and phrases that name a detail, by the slot name datasets use for it in `known_facts`: generic ones; a package adds its own (`vocabulary.callerFields`, else `vocabulary.fields`). */
const FIELD_CUES: Record<string, string[]> = {
  date: ["date", "day", "which day", "what day", "when"],
  time: ["time", "hour", "o'clock", "what time", "when"],
  phone: ["phone", "telephone", "phone number", "reach you"],
  email: ["email", "e-mail"],
};

/** The lexicon as the caller reads with it: field cues in order, actions with their lemmas, finished forms. */
interface CallerWords {
  lexicon: Lexicon;
  /** The package's fields in the order it declares them, then the generic ones it does not. */
  fields: ReadonlyArray<[string, string[]]>;
  /** Each action (in the lexicon's order: create, cancel, update) with the lemmas that name it as a verb. */
  actions: ReadonlyArray<[CallerAction, string[]]>;
  /** Nouns that name an action by what it leaves ("booking" where a package says so). */
  actionNouns: ReadonlyArray<[string, CallerAction]>;
  /** Past forms of the action verbs → their action. */
  finished: ReadonlyMap<string, CallerAction>;
  slots: string[];
  /** Phrases that say a slot is full: "fully <verb>", "<verb> up" for the package's create verbs, "no <slot>" for its slots. */
  full: string[];
  noSlot: string[];
  /** "<record> number": a question about the record's number. */
  numberPhrases: string[];
}

const callerWords = new WeakMap<Lexicon, CallerWords>();
function wordsFor(lexicon: Lexicon): CallerWords {
  let words = callerWords.get(lexicon);
  if (words) return words;
  const own = lexicon.callerFields;
  const fields: Array<[string, string[]]> = Object.entries(own).map(([k, v]) => [k, [...v]]);
  for (const [k, v] of Object.entries(FIELD_CUES)) if (!(k in own)) fields.push([k, v]);
  const actions: Array<[CallerAction, string[]]> = [];
  const nameOf = (effect: Effect) => actionName(lexicon, effect)!;
  for (const effect of new Set(lexicon.verbs.values())) {
    const nouns = [...lexicon.actionNouns].filter(([n, e]) => e === effect && !lexicon.ownActionNouns.has(n)).map(([n]) => n);
    actions.push([nameOf(effect), [...verbsOf(lexicon, effect), ...nouns]]);
  }
  const finished = new Map<string, CallerAction>();
  for (const [past, verb] of lexicon.pastForms) finished.set(past, nameOf(lexicon.verbs.get(verb)!));
  const ownSlots = [...lexicon.slots].filter((s) => !GENERIC.slots.has(s));
  const creates = [...lexicon.ownVerbs].filter(([, e]) => e === "create").map(([v]) => v);
  words = {
    lexicon,
    fields,
    actions,
    actionNouns: [...lexicon.ownActionNouns].map(([n, e]) => [n, nameOf(e)] as [string, CallerAction]),
    finished,
    slots: [...lexicon.slots],
    full: creates.flatMap((v) => [`fully ${v}`, `${v} up`]),
    noSlot: ownSlots.map((s) => `no ${s}`),
    numberPhrases: [...lexicon.idCues].filter((c) => c !== "number").map((c) => `${c} number`),
  };
  callerWords.set(lexicon, words);
  return words;
}

// ---- fields ---------------------------------------------------------------------------------------------

/**
 * The details a sentence names. A record's id (a field named `…_id`) counts only when nothing else is
 * named: "What name should I put the order under?" asks for the name, "Which of your orders…?" for the order.
 */
export function fieldsNamed(text: string, knownFields: readonly string[] = [], lexicon: Lexicon = GENERIC): string[] {
  return fieldsIn(wordsOf(text), knownFields, wordsFor(lexicon));
}

const singular = memoize((word: string) => english(word).nouns().toSingular().text() || word);
/** A cue of one word is a lemma (or the word as written); of several, a phrase. */
const cued = (words: readonly Word[], cues: readonly string[]) => cues.some((c) => (c.includes(" ") ? hasPhrase(words, c) : has(words, c)));
const isIdField = (field: string) => /(^|_)id$/.test(field);

function fieldsIn(words: readonly Word[], knownFields: readonly string[], lx: CallerWords): string[] {
  const found: string[] = [];
  for (const [field, cues] of lx.fields) if (cued(words, cues)) found.push(field);
  // Slots the tables do not know: their key's words ("allergy_note" → allergy, note).
  for (const key of knownFields) {
    if (lx.fields.some(([f]) => f === key) || found.includes(key) || /^(first|sisters?|brothers?|old|previous)_/.test(key)) continue;
    const parts = key.split(/[_\s-]+/).filter((p) => p.length > 2);
    if (parts.length > 0 && parts.every((p) => has(words, p, singular(p)))) found.push(key);
  }
  const others = found.filter((f) => !isIdField(f));
  const namesNumber = lx.numberPhrases.some((p) => hasPhrase(words, p)) || has(words, "id", "reference");
  if (found.some(isIdField) && others.length > 0 && !namesNumber) return others;
  return found;
}

// ---- actions ----------------------------------------------------------------------------------------------

/**
 * The action a sentence's verbs name; with `nouns`, also the nouns the package says name one ("the
 * finished booking"). A record's own noun names no action: it is created, changed and cancelled alike.
 */
function actionIn(words: readonly Word[], lx: CallerWords, nouns = false): CallerAction | null {
  for (const [action, lemmas] of lx.actions) if (has(words, ...lemmas)) return action;
  if (nouns) for (const [noun, action] of lx.actionNouns) if (has(words, noun)) return action;
  return null;
}

/** An action verb in a finished form ("cancelled", "booked" where book is a verb of the world), or a finished-state phrase; compromise sometimes reads "booked" after "is" as an adjective, its own lemma. */
function finishedAction(words: readonly Word[], lx: CallerWords): { action: CallerAction | null } | null {
  for (const w of words) if (lx.finished.has(w.text)) return { action: lx.finished.get(w.text)! };
  for (const w of words) if (["confirmed", "completed", "done", "finished"].includes(w.text)) return { action: null };
  if (hasPhrase(words, "all set") || hasPhrase(words, "is set") || hasPhrase(words, "are set")) return { action: null };
  return null;
}

/**
 * An outcome the sentence claims as the grader reads claims (language/claims.ts): "You're now on flight
 * NW 218", "Seat 12A is yours now". The action its kind names, or none for a claim that names no action.
 */
function claimedAction(text: string, lx: CallerWords): { action: CallerAction | null } | null {
  const claim = readClaims(text, lx.lexicon)[0];
  if (!claim) return null;
  const effect: Effect | null = claim.kind === "created" ? "create" : claim.kind === "updated" ? "update" : claim.kind === "cancelled" ? "cancel" : null;
  return { action: effect ? actionName(lx.lexicon, effect) : null };
}

// ---- what a sentence does ----------------------------------------------------------------------------------

const WH = new Set(["what", "which", "when", "where", "who", "whose", "how"]);
const CONSENT_ASKS = ["shall i", "should i", "want me to", "like me to", "go ahead", "proceed", "is that right", "is that correct", "is that ok", "is that okay", "does that sound", "sound good", "ok to", "okay to", "can i go ahead"];
const ALTERNATIVE = ["another", "alternative", "different", "instead", "other", "earlier", "later"];

function unavailable(words: readonly Word[], lx: CallerWords): boolean {
  if (lx.full.some((p) => hasPhrase(words, p)) || has(words, "unavailable", "full")) return true;
  const slot = has(words, ...lx.slots);
  const free = has(words, "available", "free", "open", "have");
  if (negated(words) && slot && (free || lx.noSlot.some((p) => hasPhrase(words, p)) || hasPhrase(words, "no availability"))) return true;
  if (has(words, "taken") && slot) return true;
  if (has(words, "nothing", "none") && (free || has(words, "left"))) return true;
  return false;
}

function refusal(words: readonly Word[]): boolean {
  if (!negated(words)) return has(words, "unable", "refuse", "decline") || hasPhrase(words, "only the");
  // "I can't cancel", "isn't something I can cancel", "I won't", "you're not authorized", "not allowed".
  if (has(words, "can", "cannot", "can't", "able", "allow", "allowed", "permit", "permitted", "authorize", "authorized", "won't", "will", "exception", "permission")) return true;
  return hasPhrase(words, "only the") || has(words, "unable");
}

/** The first three words of a sentence's last clause (after its last comma, semicolon, colon or dash). */
function lastClauseOpeners(text: string): string[] {
  const clause = text.split(/[,;:\u2013\u2014]/).filter((part) => part.trim()).at(-1) ?? "";
  return clause.toLowerCase().split(/[^\p{L}']+/u).filter(Boolean).slice(0, 3);
}

const sentenceReaders = new WeakMap<CallerWords, (key: string) => ReadSentence>();
function readSentence(text: string, knownFields: readonly string[], lx: CallerWords): ReadSentence {
  let once = sentenceReaders.get(lx);
  if (!once) {
    once = memoize((key: string) => {
      const at = key.indexOf("\u0000");
      return readSentenceUncached(key.slice(0, at), key.slice(at + 1).split("\u0000").filter(Boolean), lx);
    });
    sentenceReaders.set(lx, once);
  }
  return once(`${text}\u0000${knownFields.join("\u0000")}`);
}

function readSentenceUncached(text: string, knownFields: readonly string[], lx: CallerWords): ReadSentence {
  const words = wordsOf(text);
  const lemmas = words.map((w) => w.lemma);
  // A stated need asks as well: "I'll also need the name for the reservation."
  const statedNeed = has(words, "i") && has(words, "need", "require") && !negated(words) && fieldsIn(words, knownFields, lx).length > 0;
  const question = isQuestionSentence(text) || parsed(text).questions().found || statedNeed;
  const moves: AssistantMove[] = [];
  const leading = words.slice(0, 3).map((w) => w.text);
  if (question) {
    // A question word opening the sentence or its last clause asks for a value, whatever else the sentence
    // names: "You have R-2040 and R-2041; which one should I cancel?" asks which, not for a yes.
    const wh = leading.some((w) => WH.has(w)) || lastClauseOpeners(text).some((w) => WH.has(w));
    const aboutMe = has(words, "i", "me") || hasPhrase(words, "go ahead");
    const consent = CONSENT_ASKS.some((p) => hasPhrase(words, p));
    if (hasPhrase(words, "anything else") || hasPhrase(words, "something else") || hasPhrase(words, "anything more")) moves.push({ kind: "anything_else" });
    // A stated need ("To go ahead, I'll need a name…") asks for the details it names, not for a go-ahead.
    else if (statedNeed && !isQuestionSentence(text)) moves.push({ kind: "ask_fields", fields: fieldsIn(words, knownFields, lx) });
    else if (!wh && (consent || (aboutMe && actionIn(words, lx) !== null)) && !(ALTERNATIVE.some((a) => has(words, a)) && !aboutMe)) moves.push({ kind: "ask_go_ahead", action: actionIn(words, lx) });
    else if (!wh && ALTERNATIVE.some((a) => has(words, a))) moves.push({ kind: "offer_alternative" });
    else {
      const fields = fieldsIn(words, knownFields, lx);
      // "Could you tell me?" after "I still need the name…": the request is the sentence before it.
      moves.push(fields.length > 0 ? { kind: "ask_fields", fields } : { kind: "ask_other" });
    }
    if (unavailable(words, lx)) moves.push({ kind: "report_unavailable" });
    return { text, question, lemmas, moves };
  }
  if (unavailable(words, lx)) moves.push({ kind: "report_unavailable" });
  // A refusal in the caller's words, or as the grader reads one (language/reader.ts `declines`).
  if (refusal(words) || declines(text) !== null) moves.push({ kind: "refuse" });
  // "That time is fully booked" reports no booking; "I'll book it" and "one moment while I book" promise one.
  if (!moves.some((m) => m.kind === "report_unavailable") && !negated(words) && !has(words, "will", "shall", "let", "going", "can", "could", "would", "moment")) {
    const finished = finishedAction(words, lx) ?? claimedAction(text, lx);
    if (finished) moves.push({ kind: "report_done", action: finished.action });
  }
  if (has(words, "goodbye", "bye") || hasPhrase(words, "have a good") || hasPhrase(words, "have a great") || hasPhrase(words, "have a nice")) moves.push({ kind: "goodbye" });
  if (moves.length === 0) moves.push({ kind: "inform" });
  return { text, question, lemmas, moves };
}

// ---- trigger conditions ---------------------------------------------------------------------------------------

/** What an agenda item's trigger condition waits for: the move, and for a question the fields it names. */
export interface Awaited {
  kind: MoveKind;
  fields: string[];
  action: CallerAction | null;
  /** Content lemmas of the condition, for breaking ties between items that wait for the same move. */
  lemmas: string[];
}

const ROLE_WORDS = new Set(["the", "a", "an", "assistant", "caller", "say", "says", "ask", "asks", "tell", "it", "is", "be", "that", "to", "and", "or", "of", "for", "at", "on", "in", "what", "which", "whether", "if", "there", "still", "again", "start", "explain", "report", "confirm", "want", "would", "like", "should", "can", "its", "this", "one", "do", "does", "with", "by", "as", "then", "before", "after", "now"]);

/**
 * Read a trigger condition ("The assistant asks which reservation the caller wants to cancel.") into the
 * move it waits for. `facts` are the keys the item gives: a question about them is its moment.
 */
export function awaitedMove(condition: string, facts: readonly string[] = [], lexicon: Lexicon = GENERIC): Awaited {
  const words = wordsOf(condition);
  const lx = wordsFor(lexicon);
  const lemmas = [...new Set(words.map((w) => w.lemma).filter((l) => l.length > 1 && !ROLE_WORDS.has(l) && !/^\d+$/.test(l)))];
  const base = { fields: [] as string[], action: null as CallerAction | null, lemmas };
  // "asks", "wants to know", "requests", "prompts", "inquires": the assistant asks something.
  // "wants the name or how many are coming" asks for details too, when it names some.
  const wantsDetails = has(words, "want", "need", "require") && fieldsIn(words, facts, lx).length > 0;
  const asks = wantsDetails || has(words, "ask", "inquire", "prompt", "query") || hasPhrase(words, "want to know") || hasPhrase(words, "assistant request") || hasPhrase(words, "assistant requests");
  if (asks) {
    if (hasPhrase(words, "anything else") || hasPhrase(words, "something else")) return { ...base, kind: "anything_else" };
    if (hasPhrase(words, "to confirm") || hasPhrase(words, "go ahead") || hasPhrase(words, "whether to") || hasPhrase(words, "if it should") || hasPhrase(words, "permission") || hasPhrase(words, "for a yes") || hasPhrase(words, "for approval"))
      return { ...base, kind: "ask_go_ahead", action: actionIn(words, lx) };
    if (ALTERNATIVE.some((a) => has(words, a)) && !has(words, "name", "date", "time")) return { ...base, kind: "offer_alternative" };
    // The details the condition names ("asks for the name"); when it names none, the ones the item gives.
    const named = fieldsIn(words, facts, lx);
    const fields = named.length > 0 ? named : facts.filter((f) => !/^(first|sisters?|brothers?)_/.test(f));
    return fields.length > 0 ? { ...base, kind: "ask_fields", fields } : { ...base, kind: "ask_other" };
  }
  if (has(words, "offer", "suggest", "propose") && ALTERNATIVE.some((a) => has(words, a))) return { ...base, kind: "offer_alternative" };
  if (unavailable(words, lx) || lx.noSlot.some((p) => hasPhrase(words, p)) || (has(words, "no") && has(words, "free", "available"))) return { ...base, kind: "report_unavailable" };
  if (has(words, "refuse", "refusal", "decline", "deny") || refusal(words)) return { ...base, kind: "refuse" };
  if (has(words, "goodbye", "farewell", "bye")) return { ...base, kind: "goodbye" };
  const finished = finishedAction(words, lx);
  if (finished || has(words, "confirm", "complete", "finish", "done")) return { ...base, kind: "report_done", action: finished?.action ?? actionIn(words, lx, true) };
  return { ...base, kind: "inform" };
}

// ---- matching ----------------------------------------------------------------------------------------------------

/**
 * How well a turn is the moment an item waits for: 0 when no sentence does the awaited move; otherwise
 * 10, plus 2 for each awaited field the turn asks for, plus the lemmas the sentence shares with the
 * condition (a tie-break between items waiting for the same move).
 */
export function momentScore(turn: Understanding, awaited: Awaited): number {
  let best = 0;
  for (const sentence of turn.sentences) {
    const shared = awaited.lemmas.filter((l) => sentence.lemmas.includes(l)).length;
    for (const move of sentence.moves) {
      let score = 0;
      if (awaited.kind === "inform") {
        // A statement the condition describes: it must share its content words.
        if (!sentence.question && shared > 0) score = shared;
      } else if (move.kind === awaited.kind) {
        if (move.kind === "ask_fields") {
          const overlap = awaited.fields.filter((f) => move.fields.includes(f)).length;
          score = overlap > 0 ? 10 + 2 * overlap + shared : 0;
        } else if (move.kind === "ask_go_ahead" || move.kind === "report_done") {
          score = awaited.action === null || move.action === null || move.action === awaited.action ? 10 + shared : 0;
        } else score = 10 + shared;
      }
      best = Math.max(best, score);
    }
  }
  return best;
}

/** What the caller took the turn to ask: a go-ahead first (it decides the next act), then details, then anything. */
export function heardAsk(turn: Understanding): { kind: "fields"; fields: string[] } | { kind: "go_ahead"; action: CallerAction | null } | { kind: "question" } | null {
  const go = turn.moves.find((m) => m.kind === "ask_go_ahead");
  if (go) return { kind: "go_ahead", action: go.action };
  const fields = [...new Set(turn.moves.flatMap((m) => (m.kind === "ask_fields" ? m.fields : [])))];
  if (fields.length > 0) return { kind: "fields", fields };
  if (turn.sentences.some((s) => s.question)) return { kind: "question" };
  return null;
}

/** The actions a text names, verbs and nouns alike (a caller's goal: "Get R-4410 cancelled"; "Book a patio table…" where book and table are the world's words). */
export function actionsNamed(text: string, lexicon: Lexicon = GENERIC): CallerAction[] {
  const words = wordsOf(text);
  const lx = wordsFor(lexicon);
  const out: CallerAction[] = [];
  for (const [action, lemmas] of lx.actions) if (has(words, ...lemmas) || words.some((w) => lx.finished.get(w.text) === action)) out.push(action);
  for (const [noun, action] of lx.actionNouns) if (!out.includes(action) && has(words, noun)) out.push(action);
  return out;
}
