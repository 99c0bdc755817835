/** The shared English reading of speech — sentences, questions, lemmas, refusals, go-aheads, asked-for details — for the grader and the offline caller. */
import { parsed } from "./nlp";
import { fieldKey, GENERIC, type Lexicon } from "./vocabulary";

/**
 * Every function here reads words as compromise tags them (see https://compromise.cool): contractions
 * expanded ("isn't" → is not, "I'll" → I will), each word with its lemma ("reservations" → reservation,
 * "booked" → book), sentences and their clauses (split at commas, semicolons, colons and dashes). The rules
 * are small and written out below, so a reader can see why a line counted; none of them rests on one cue
 * word alone: a question is a "?" or a question's word order, a refusal is a negated ability or permission
 * of the speaker, a go-ahead is a yes that nothing in the line takes back.
 */

/** One word as read: the word itself (contractions expanded), its lemma and a crude stem for derived forms. */
export interface Word {
  word: string;
  lemma: string;
  /** "booking", "booked", "books" → book; "cancellation" → cancel; "reservation", "reserve" → reserv. */
  stem: string;
  tags: ReadonlySet<string>;
}

export interface Sentence {
  text: string;
  words: Word[];
  /** The words between commas, semicolons, colons and dashes, in order. */
  clauses: Word[][];
  question: boolean;
}

export interface Reading {
  text: string;
  sentences: Sentence[];
  words: Word[];
}

/** A term as compromise holds it (https://observablehq.com/@spencermountain/compromise-internals): `implicit` is the expanded contraction, `root` the lemma. */
interface Term {
  text: string;
  pre: string;
  post: string;
  normal: string;
  implicit?: string;
  root?: string;
  tags?: Set<string>;
}

/** Readings are reused: the same utterance is read by several checks of one trial. */
const CACHE_SIZE = 1000;
const cache = new Map<string, Reading>();

/** The reading of `text` (parsed once, then cached). */
export function read(text: string): Reading {
  const hit = cache.get(text);
  if (hit) return hit;
  const reading = parse(text);
  // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent, only bounds memory
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(text, reading);
  return reading;
}

const BE = new Set(["be", "been", "being", "am", "is", "are", "was", "were"]);
/** Punctuation after a word that ends a clause. */
const CLAUSE_END = /[,;:()\u2013\u2014]|\s-\s/;

function stemOf(lemma: string): string {
  const bare = lemma.replace(/(ations?|ings?|ed|es|s|e)$/, "");
  if (bare.length < 3) return lemma;
  return bare.replace(/([bcdfgklmnprstvz])\1$/, "$1");
}

function wordsOf(term: Term): Word[] {
  const written = (term.implicit ?? term.normal).toLowerCase();
  // Split at every other character ("r-2040" → r, 2040); the empty pieces between two of them are dropped.
  const parts = written.split(/[^\p{L}\p{N}]/u).filter(Boolean);
  const tags: ReadonlySet<string> = term.tags ?? new Set();
  if (parts.length !== 1) return parts.map((part) => ({ word: part, lemma: part, stem: part, tags }));
  const word = parts[0]!;
  const lemma = BE.has(word) ? "be" : (term.root ?? word).toLowerCase();
  return [{ word, lemma, stem: stemOf(lemma), tags }];
}

function parse(text: string): Reading {
  const doc = parsed(text);
  const sentences: Sentence[] = [];
  // The terms themselves, not `.json()`: copying them out costs as much as a third of the parse.
  for (const terms of doc.docs as Term[][]) {
    const clauses: Word[][] = [[]];
    for (const term of terms) {
      if (CLAUSE_END.test(term.pre)) clauses.push([]);
      clauses[clauses.length - 1]!.push(...wordsOf(term));
      if (CLAUSE_END.test(term.post)) clauses.push([]);
    }
    // A clause end before a word, after one or at the sentence's end leaves an empty clause: dropped here.
    const kept = clauses.filter((c) => c.length > 0);
    const words = kept.flat();
    if (words.length === 0) continue;
    const sentenceText = terms.map((t) => `${t.pre}${t.text}${t.post}`).join("").trim();
    sentences.push({ text: sentenceText, words, clauses: kept, question: sentenceText.endsWith("?") || kept.some((c, i) => opensQuestion(c, leading(kept, i))) });
  }
  return { text, sentences, words: sentences.flatMap((s) => s.words) };
}

// ── Sentences and questions ──────────────────────────────────────────────────────────────────────
/** Words that open a clause without changing what it does ("Okay, so what time?", "And how many?"). */
const MARKERS = new Set(["and", "so", "okay", "ok", "alright", "great", "sure", "perfect", "then", "also", "just", "now", "well", "oh", "um", "uh", "lastly", "finally", "but", "or", "lovely", "wonderful", "excellent", "right", "please", "first"]);
export const WH_WORDS = ["what", "which", "when", "where", "who", "whom", "whose", "how", "why"] as const;
const WH = new Set<string>(WH_WORDS);
/** Auxiliaries and modals that open a yes/no question when the subject follows them ("Would you…", "Is that…"). */
const AUXILIARIES = new Set(["do", "does", "did", "is", "are", "am", "was", "were", "will", "would", "can", "could", "shall", "should", "may", "might", "have", "has"]);
/** Subjects that make a "when/what…" clause subordinate ("When you arrive, …") rather than a question. */
const CLAUSE_SUBJECTS = new Set(["i", "you", "we", "they", "he", "she"]);
/** Imperatives that ask for information: "Tell me the time", "Let me know…", "Please give me your name". */
const REQUEST_OPENERS = ["tell me", "tell us", "let me know", "let us know", "give me", "give us", "provide", "share", "spell", "confirm"] as const;
/** Words (or their lemmas: "I'm" → be) that may stand between "I" and "need" in a stated need ("I'll still need…", "I'm going to need…"). */
const NEED_FILLERS = new Set(["will", "would", "still", "just", "also", "only", "first", "really", "then", "do", "be", "going", "to", "actually"]);
/** "I need to know / to have / to get …" asks; "I need to check…" is the speaker's own task. */
const NEED_TO_ASK = new Set(["know", "have", "get", "ask", "take"]);

function subjectAt(words: Word[], i: number, pronounsOnly: boolean): boolean {
  const w = words[i];
  if (!w) return false;
  if (w.tags.has("Pronoun") || w.word === "there") return !["me", "us", "him", "them"].includes(w.word);
  if (pronounsOnly) return false;
  // compromise's tag set keeps these apart from Verb, and tags every proper noun a Noun too.
  return ["Determiner", "Noun", "Value"].some((t) => w.tags.has(t));
}

/** An auxiliary, an optional "not", then the subject: "Would you…", "Can't you…", "Is that…". */
function invertedAt(words: Word[], i: number): boolean {
  const head = words[i]?.word;
  if (!head || !AUXILIARIES.has(head)) return false;
  const s = words[i + 1]?.word === "not" ? i + 2 : i + 1;
  return subjectAt(words, s, head === "have" || head === "has");
}

function phraseAt(words: Word[], i: number, phrase: string): boolean {
  return phrase.split(" ").every((p, k) => words[i + k]?.word === p);
}

/** A stated need: "I still need the name", "I'll need your number", "I need to know the time". */
function statedNeedAt(words: Word[], i: number): boolean {
  if (!["i", "we"].includes(words[i]!.word)) return false;
  let k = i + 1;
  while (words[k] && (NEED_FILLERS.has(words[k]!.word) || NEED_FILLERS.has(words[k]!.lemma))) k++;
  if (words[k]?.lemma !== "need") return false;
  if (words[k + 1]?.word !== "to") return words[k + 1] !== undefined;
  // Stryker disable next-line StringLiteral: equivalent, "" only stands for the missing word after "need to", and the set holds no replacement either
  return NEED_TO_ASK.has(words[k + 2]?.lemma ?? "");
}

/** Where a clause's own words start, its opening markers skipped ("So what time" → what); a clause of markers alone starts at its last word. */
function headOf(clause: Word[]): number {
  let i = 0;
  while (i < clause.length - 1 && MARKERS.has(clause[i]!.word)) i++;
  return i;
}

/** Whether clause `i` leads its sentence: only markers come before it ("Okay, which one…"). */
function leading(clauses: Word[][], i: number): boolean {
  return clauses.slice(0, i).every((c) => c.every((w) => MARKERS.has(w.word)));
}

function opensQuestion(clause: Word[], first: boolean): boolean {
  const i = headOf(clause);
  const head = clause[i]!.word;
  if (WH.has(head)) {
    // Stryker disable next-line StringLiteral: equivalent, "" only stands for no next word, which no list below holds, nor the replacement
    const next = clause[i + 1]?.word ?? "";
    // "When you arrive, …", "What a lovely evening": not questions.
    if (CLAUSE_SUBJECTS.has(next) || next === "a" || next === "an") return false;
    // After a comma, "which/who/when/where" usually open a relative clause ("…, which is on the patio").
    return first || i > 0 || head === "what" || head === "how" || invertedAt(clause, i + 1);
  }
  return invertedAt(clause, i) || REQUEST_OPENERS.some((r) => phraseAt(clause, i, r)) || statedNeedAt(clause, i);
}

/** The sentences of `text`, each with its own final punctuation ("What time? For how many?" is two). */
export function sentencesOf(text: string): string[] {
  return read(text).sentences.map((s) => s.text);
}

/**
 * Whether a sentence asks something: it ends with "?", or a clause of it opens like a question — an
 * auxiliary before its subject ("Would you like…"), a question word ("what time works"), a request for
 * information ("tell me", "let me know") or a stated need ("I still need the name").
 */
export function isQuestion(sentence: string): boolean {
  return read(sentence).sentences.some((s) => s.question);
}

export function questionSentences(text: string): string[] {
  return read(text).sentences.filter((s) => s.question).map((s) => s.text);
}

/** A question about information ("What name should I put it under?"): a clause opens with a question word. */
function asksInformation(s: Sentence): boolean {
  return s.clauses.some((c, i) => WH.has(c[headOf(c)]!.word) && opensQuestion(c, leading(s.clauses, i)));
}

// ── Terms ────────────────────────────────────────────────────────────────────────────────────────
/** The lemmas of the words of `text`, in order ("Which reservations were booked?" → which reservation be book). */
export function lemmas(text: string): string[] {
  return read(text).words.map((w) => w.lemma);
}

/**
 * How a term's words match: `exact` the written word (contractions expanded, case and punctuation aside);
 * `lemma` also any form of a base word or noun ("guest" matches "guests", "book" matches "booked", but
 * "called" only "called"); `derived` also words of the same stem ("book" matches "booking", "cancel"
 * matches "cancellation").
 */
export type Matching = "exact" | "lemma" | "derived";

function sameWord(t: Word, p: Word, how: Matching): boolean {
  if (t.word === p.word) return true;
  if (how === "exact") return false;
  // A verb of the pattern stands for itself as written: "book" matches "booked", but "called" only "called".
  const lemma = t.lemma === (p.tags.has("Verb") ? p.word : p.lemma);
  return lemma || (how === "derived" && t.stem === p.stem);
}

/** Where in `words`, from `from` on, the phrase's words occur in a row (starting where `starts` allows), or -1. */
function findPhrase(words: Word[], phrase: string, how: Matching, from: number, starts?: (i: number) => boolean): number {
  const pattern = read(phrase).words;
  if (pattern.length === 0) return -1;
  for (let i = from; i + pattern.length <= words.length; i++) {
    if ((!starts || starts(i)) && pattern.every((p, k) => sameWord(words[i + k]!, p, how))) return i;
  }
  return -1;
}

/**
 * Where in `words` the term occurs (matching by lemma unless `how` says otherwise), or -1. A term is a phrase,
 * or phrases in order with anything between them, joined by " … " ("which … reservation" reads "Which of your
 * reservations").
 */
// Stryker disable next-line StringLiteral: equivalent, sameWord reads every matching other than exact and derived by lemma, so an empty one too
function findTerm(words: Word[], term: string, how: Matching = "lemma", starts?: (i: number) => boolean): number {
  const [first, ...rest] = term.split(" … ");
  // Without the first phrase `at` is -1, and so is the answer.
  const at = findPhrase(words, first!, how, 0, starts);
  let from = at + read(first!).words.length;
  for (const phrase of rest) {
    const found = findPhrase(words, phrase, how, from, starts);
    if (found === -1) return -1;
    from = found + read(phrase).words.length;
  }
  return at;
}

/** The first of `terms` that occurs in `words`, and where, or null. */
function firstTermAt(words: Word[], terms: readonly string[], how?: Matching, starts?: (i: number) => boolean): { term: string; at: number } | null {
  for (const term of terms) {
    const at = findTerm(words, term, how, starts);
    if (at >= 0) return { term, at };
  }
  return null;
}

function firstTerm(words: Word[], terms: readonly string[], how?: Matching, starts?: (i: number) => boolean): string | null {
  return firstTermAt(words, terms, how, starts)?.term ?? null;
}

/** The first of `terms` that a read sentence's words mention (as `mentions`), or null. */
export function mentionedIn(words: readonly Word[], terms: readonly string[], how?: Matching): string | null {
  return firstTerm(words as Word[], terms, how);
}

/** The first of `terms` (words or phrases, e.g. "party size") that `text` mentions (by lemma unless `how` says otherwise), or null. */
export function mentions(text: string, terms: readonly string[], how?: Matching): string | null {
  return firstTerm(read(text).words, terms, how);
}

// ── Refusals ─────────────────────────────────────────────────────────────────────────────────────
/** After "can't"/"won't", these verbs make an idiom or a failure report, not a refusal ("I can't wait", "can't find"). */
const NOT_REFUSING_VERBS = new Set(["wait", "thank", "believe", "find", "locate", "see", "hear", "recall", "remember", "miss", "understand", "seem", "stress", "emphasize", "imagine", "resist", "right"]);
/** Words skipped between "not" and the verb it negates ("I can't really be changing…"). */
const SOFTENERS = new Set(["be", "really", "just", "possibly", "actually", "even", "quite", "currently", "personally", "go", "ahead", "and"]);
/** What the speaker is not allowed or not able to do. Ability words count only in the present ("I wasn't able to find"). */
const PERMISSION_WORDS = new Set(["allowed", "permitted", "authorized", "authorised", "permission", "authority", "entitled", "yours"]);
const ABILITY_WORDS = new Set(["able", "possible", "position"]);
const PAST = new Set(["was", "were", "did", "could", "had", "would"]);
/** "not sure that's possible" is doubt, not a refusal. */
const NEGATION_BLOCKERS = new Set(["sure", "certain", "only", "problem", "worry"]);
/** Fixed expressions that decline on their own. */
export const REFUSAL_EXPRESSIONS = ["no exceptions", "no exception", "no permission", "no authority"] as const;

/** The last form of "be" in `c` before index `k` ("It was prepaid so we are unable…" → are), or "". */
function lastBeBefore(c: Word[], k: number): string {
  // Stryker disable next-line StringLiteral: equivalent, "" only stands for no "be" before ("Unable to, sorry"), which is not past, nor is the replacement
  return c.slice(0, k).reverse().find((x) => BE.has(x.word))?.word ?? "";
}

function refusingClause(c: Word[]): boolean {
  for (let k = 0; k < c.length; k++) {
    const w = c[k]!.word;
    // Stryker disable next-line StringLiteral: equivalent, "" only stands for no word before, which no comparison below holds, nor the replacement
    const prev = c[k - 1]?.word ?? "";
    // "I can't cancel that", "Can't do that", "We won't be cancelling it" (not "Can't you…?", "It won't take long").
    if ((w === "can" || w === "will") && c[k + 1]?.word === "not" && !subjectAt(c, k + 2, true)) {
      if (w === "will" && !["i", "we"].includes(prev)) continue;
      let v = k + 2;
      while (c[v] && SOFTENERS.has(c[v]!.word)) v++;
      // Stryker disable next-line StringLiteral: equivalent, "" only stands for no verb after "can't" ("I'm sorry, I can't."), which the set does not hold, nor the replacement
      if (!NOT_REFUSING_VERBS.has(c[v]?.lemma ?? "")) return true;
    }
    // "I'm not able to", "that's not something I'm allowed to change", "I'm unable to", "not possible".
    const negated = w === "not" || w === "never" || w === "unable" || w === "impossible";
    if (negated) {
      const tense = w === "not" || w === "never" ? prev : lastBeBefore(c, k);
      const past = PAST.has(tense);
      if ((w === "unable" || w === "impossible") && !past) return true;
      for (let j = k + 1; j <= k + 5 && j < c.length; j++) {
        const x = c[j]!.word;
        if (NEGATION_BLOCKERS.has(x)) break;
        if (PERMISSION_WORDS.has(x) || (ABILITY_WORDS.has(x) && !past)) return true;
        // "that's not something I can cancel", "I'm not going to change it".
        if (["i", "we"].includes(x) && c[j + 1]?.word === "can") return true;
      }
      // Stryker disable next-line StringLiteral: equivalent, "" only stands for no word two before "not", which is neither "i" nor "we", nor is the replacement
      const speaker = c[k - 2]?.word ?? "";
      if (["i", "we"].includes(speaker) && (prev === "am" || prev === "are") && phraseAt(c, k + 1, "going to")) return true;
    }
    // "I have to decline", "we must respectfully decline", "I refuse".
    if (["decline", "refuse"].includes(c[k]!.lemma) && c.slice(Math.max(0, k - 4), k).some((x) => x.word === "i" || x.word === "we") && !c.slice(0, k).some((x) => x.word === "not")) return true;
    // "Only the person who made it can cancel it", "You can only cancel your own reservation".
    if (w === "only" && (prev === "can" || c.slice(k + 1, k + 8).some((x) => x.word === "who" || x.word === "can"))) return true;
  }
  return firstTerm(c, REFUSAL_EXPRESSIONS) !== null;
}

/**
 * The sentence in which the speaker declines, or null: a negated "can"/"will" of the speaker, a negated
 * permission or (present) ability, "I have to decline", "only the person who…", "no exceptions".
 * A question clause ("Can't you…?", "Isn't it possible…?") and a failure report ("I couldn't find a table")
 * do not decline.
 */
export function declines(text: string): string | null {
  for (const s of read(text).sentences) {
    if (s.text.endsWith("?") && s.clauses.length === 1) continue;
    if (s.clauses.some((c, i) => !opensQuestion(c, leading(s.clauses, i)) && refusingClause(c))) return s.text;
  }
  return null;
}

// ── Go-aheads ────────────────────────────────────────────────────────────────────────────────────
/** In a yes/no question, these ask the caller for a go-ahead. */
export const GO_AHEAD_REQUESTS = [
  "shall i", "shall we", "should i", "should we", "do you want me to", "would you like me to", "want me to", "like me to",
  "go ahead", "proceed", "i confirm", "is that right", "is that correct", "is that ok", "is that okay", "is that alright",
  "is that fine", "does that sound", "does that work", "ok to", "okay to", "sound good", "put it through", "put that through",
  "happy for me to", "good to go",
] as const;

/** Indices of the sentence's words that open a clause, markers skipped ("So, cancel it?" → cancel). */
function clauseHeads(sentence: Sentence): Set<number> {
  const heads = new Set<number>();
  let offset = 0;
  for (const c of sentence.clauses) {
    heads.add(offset + headOf(c));
    offset += c.length;
  }
  return heads;
}

/**
 * The phrase by which a sentence asks for a go-ahead, or null: a yes/no question (not one about information,
 * "What name should I put it under?") holding a go-ahead request or one of `actionTerms` said as an action —
 * a verb in any form ("Cancel R-2040?", "Booking it now?") or a clause's first word ("Move it to Friday?"),
 * not a noun ("a name for the booking").
 */
export function goAheadPhrase(sentence: Sentence, actionTerms?: readonly string[]): string | null {
  if (!sentence.question || asksInformation(sentence)) return null;
  const request = firstTerm(sentence.words, GO_AHEAD_REQUESTS);
  if (request || !actionTerms) return request;
  const heads = clauseHeads(sentence);
  return firstTerm(sentence.words, actionTerms, "derived", (i) => sentence.words[i]!.tags.has("Verb") || heads.has(i));
}

/** The first go-ahead request in `text` (`goAheadPhrase`), or null. */
export function asksForGoAhead(text: string, actionTerms?: readonly string[]): string | null {
  for (const s of read(text).sentences) {
    const phrase = goAheadPhrase(s, actionTerms);
    if (phrase) return phrase;
  }
  return null;
}

/** Words by which a caller agrees. */
export const CONSENT_TERMS = [
  "yes", "yeah", "yep", "yup", "sure", "please do", "go ahead", "do it", "do that", "go for it", "that be right", "correct",
  "confirm", "confirmed", "ok", "okay", "alright", "all right", "sound good", "perfect", "absolutely", "definitely",
  "certainly", "exactly", "that work", "that be fine", "of course",
] as const;
/** Anything of these takes a go-ahead back or never gives it: "Wait, no", "Hmm, not sure", "Hold on". */
export const WITHHOLDING_TERMS = [
  "no", "nope", "nah", "not", "never", "wait", "hold on", "hang on", "stop", "never mind", "unsure", "let me think",
  "but", "actually", "instead", "sorry", "scratch that", "cancel that", "i mean", "on second thought", "rather",
] as const;
/** Negations that agree ("no problem", "why not"). */
const AGREEING_NEGATIONS = ["no problem", "not a problem", "no worry", "why not", "no rush", "no hurry"] as const;

/**
 * The consent term by which the caller gives a go-ahead, or null when nothing agrees or anything in the line
 * withholds ("No", "Not yet", "Hmm, not sure", "Wait, no", "Don't", "Yes, but make it eight").
 */
export function givesGoAhead(text: string): string | null {
  const words = read(text).words;
  const agreeing = new Set<number>();
  for (const phrase of AGREEING_NEGATIONS) {
    // By lemma: "no worries", "no problems".
    const at = findTerm(words, phrase);
    if (at >= 0) for (let k = 0; k < phrase.split(" ").length; k++) agreeing.add(at + k);
  }
  const rest = words.filter((_, i) => !agreeing.has(i));
  if (firstTerm(rest, WITHHOLDING_TERMS, "exact")) return null;
  return firstTerm(rest, CONSENT_TERMS);
}

// ── Asking for a detail ──────────────────────────────────────────────────────────────────────────
const MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/**
 * Generic words that name a detail, by whole key or by part of a key; a package adds its own
 * (`vocabulary.fields`, read first). A key with an entry of its own uses that entry alone (so a package
 * may keep "How many guests?" from asking for `guest_name`); any other key is named by its parts
 * ("seat_class" → seat, class) and their entries.
 */
export const FIELD_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  // Not "under": "Shall I put it under Maya?" names the caller, it does not ask for the name.
  name: ["name", "called", "who"],
  time: ["time", "when", "o'clock", "hour"],
  date: ["date", "day", "when", ...MONTH_NAMES, "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  id: ["number", "code", "reference", "confirmation"],
  phone: ["phone", "number", "call you"],
  email: ["email", "e mail", "address"],
};

/** Every word that names the field: its own entry (the lexicon's, else the generic one), else its parts and their entries. */
export function fieldTerms(field: string, lexicon: Lexicon = GENERIC): string[] {
  const key = fieldKey(field);
  const entry = (k: string) => lexicon.fields[k] ?? FIELD_SYNONYMS[k];
  const own = entry(key);
  if (own) return [...own];
  const parts = key.split("_").filter(Boolean);
  const words = new Set<string>(parts);
  for (const part of parts) for (const w of entry(part) ?? []) words.add(w);
  return [...words];
}

/**
 * The question sentence of `text` that asks for the field, with the term that names it, or null. A
 * go-ahead request names details to confirm them ("Shall I book it for two people?"), not to ask for them.
 */
export function asksFor(text: string, field: string, lexicon: Lexicon = GENERIC): { sentence: string; term: string } | null {
  const terms = fieldTerms(field, lexicon);
  for (const s of read(text).sentences) {
    if (!s.question || goAheadPhrase(s)) continue;
    const term = firstTerm(s.words, terms);
    if (term) return { sentence: s.text, term };
  }
  return null;
}

// ── Outcomes ─────────────────────────────────────────────────────────────────────────────────────
/** Lemmas of the verbs (and adjectives) that report how a request turned out, when said as done; a package's own verbs join them. */
const OUTCOME_VERBS = ["confirm", "cancel", "create", "schedule", "complete", "change", "update", "move", "modify", "done", "set", "secure", "arrange"];
/** By stem, so an adjective without a lemma ("updated", "canceled") counts too. */
const OUTCOME_STEMS = new Set(OUTCOME_VERBS.map(stemOf));
const outcomeStems = new WeakMap<Lexicon, ReadonlySet<string>>();
function outcomeStemsOf(lexicon: Lexicon): ReadonlySet<string> {
  let stems = outcomeStems.get(lexicon);
  if (!stems) outcomeStems.set(lexicon, (stems = new Set([...OUTCOME_STEMS, ...[...lexicon.ownVerbs.keys()].map(stemOf)])));
  return stems;
}
/** Availability reports count too, either way: "not available", "no availability"; a package adds its own ("fully booked", "no tables"). */
export const AVAILABILITY_TERMS = ["unavailable", "available", "no availability", "confirmation number"] as const;
/** The lexicon's availability terms, then the generic ones it does not list (the first term found is the one reported, so a package orders its own list). */
export function availabilityTerms(lexicon: Lexicon = GENERIC): readonly string[] {
  return lexicon.availability.length === 0 ? AVAILABILITY_TERMS : [...lexicon.availability, ...AVAILABILITY_TERMS.filter((t) => !lexicon.availability.includes(t))];
}
/** Before an outcome word in its clause, these make it a plan, a condition or a wish, not a report. */
const NOT_YET = new Set(["will", "shall", "going", "would", "could", "can", "should", "may", "might", "let", "while", "once", "after", "before", "until", "when", "whenever", "if", "whether", "soon", "want", "like", "try", "need"]);

/** The words of a clause before index `k` that bear on it: after "I can confirm (that)…", only those after "confirm". */
function leadingWords(c: Word[], k: number): Word[] {
  const before = c.slice(0, k);
  // Without a "confirm", lastIndexOf gives -1: all of them.
  return before.slice(before.map((w) => w.word).lastIndexOf("confirm") + 1);
}

export interface OutcomeReport {
  sentence: string;
  /** The words that report it, as written in the lists above or as spoken. */
  phrase: string;
  /** "I couldn't book it", "It wasn't cancelled": a failure said about the outcome. */
  negated: boolean;
}

function outcomeInClause(c: Word[], lexicon: Lexicon): { phrase: string; negated: boolean } | null {
  const availability = firstTermAt(c, availabilityTerms(lexicon), "exact");
  const stems = outcomeStemsOf(lexicon);
  // "I'll check what's available", "Let me see whether 7 is available": not a report yet.
  if (availability && !leadingWords(c, availability.at).some((w) => NOT_YET.has(w.word))) return { phrase: availability.term, negated: false };
  for (let k = 0; k < c.length; k++) {
    const w = c[k]!;
    if (!stems.has(w.stem)) continue;
    const before = leadingWords(c, k);
    // "I couldn't book it", "we weren't able to cancel it": a failed outcome.
    if (before.some((x) => x.word === "not") && before.some((x) => PAST.has(x.word))) return { phrase: w.word, negated: true };
    // "booked", "confirmed", "done" (an adjective to compromise, or a bare verb in "It was done quickly"), "all set".
    const done =
      w.tags.has("PastTense") ||
      // Stryker disable next-line StringLiteral: equivalent, compromise tags Participle only irregular forms (taken, written, undone…) and words ending in -ken or -wn, none with an outcome verb's stem
      w.tags.has("Participle") ||
      w.tags.has("Adjective") ||
      w.word === "set" ||
      w.word === "done";
    if (!done) continue;
    // "all set" only as a phrase; "set" alone is too common.
    if (w.word === "set" && c[k - 1]?.word !== "all") continue;
    if (before.some((x) => NOT_YET.has(x.word))) continue;
    const negated = before.some((x) => x.word === "not" || x.word === "never");
    return { phrase: w.word === "set" ? "all set" : w.word, negated };
  }
  return null;
}

/**
 * How the speaker reports an outcome, or null: a done form of an outcome verb ("You're booked", "I've
 * cancelled it", "all set", "Done") or an availability report, in a statement. A question ("Would you like
 * me to book it?"), a plan ("I'll book that"), an acknowledgement ("One moment while I book that") do not
 * report; "I couldn't book it" is reported with `negated`.
 */
export function readOutcome(text: string, lexicon: Lexicon = GENERIC): OutcomeReport | null {
  let failure: OutcomeReport | null = null;
  for (const s of read(text).sentences) {
    for (const [i, c] of s.clauses.entries()) {
      if (opensQuestion(c, leading(s.clauses, i)) || (s.text.endsWith("?") && i === s.clauses.length - 1)) continue;
      const found = outcomeInClause(c, lexicon);
      if (found && !found.negated) return { sentence: s.text, ...found };
      if (found && !failure) failure = { sentence: s.text, ...found };
    }
  }
  return failure;
}
