/**
 * What the offline caller takes an assistant turn to be doing, read with the language layer: which details
 * it asks for, whether it asks for a go-ahead (and for which action), whether it reports an outcome done,
 * unavailable or refused, offers an alternative, asks "anything else", or says goodbye. The same reader
 * turns an agenda item's trigger condition (English written by dataset authors) into the move it waits
 * for, so a trigger matches what the assistant does, not the words it happens to share with it.
 */
import { english, memoize, parsed, parsedJson } from "../language/nlp";
import { isQuestionSentence } from "../timeline/cues";

/** The actions a go-ahead or an outcome can be about. */
export type CallerAction = "book" | "cancel" | "change";

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
}

/** The caller's reading of one assistant turn. */
export function understand(text: string, knownFields: readonly string[] = []): Understanding {
  const sentences = splitSentences(text).map((s) => readSentence(s, knownFields));
  return { sentences, moves: sentences.flatMap((s) => s.moves) };
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

// ---- fields ---------------------------------------------------------------------------------------------

/** Lemmas and phrases that name a detail, by the slot name datasets use for it in `known_facts`. */
const FIELD_CUES: Record<string, { lemmas: string[]; phrases?: string[] }> = {
  guest_name: { lemmas: ["name", "surname"], phrases: ["under what", "under whose", "who is the", "who should"] },
  date: { lemmas: ["date", "day"], phrases: ["which day", "what day", "when"] },
  time: { lemmas: ["time", "hour", "o'clock"], phrases: ["what time", "when"] },
  party_size: { lemmas: ["people", "person", "guest", "party", "size", "diner", "seat", "group"], phrases: ["how many", "how large", "how big"] },
  reservation_id: { lemmas: ["reservation", "booking", "confirmation", "reference", "id"], phrases: ["reservation number", "booking number", "confirmation number"] },
  seating: { lemmas: ["seating", "patio", "indoor", "indoors", "outdoor", "outdoors", "inside", "outside", "terrace"], phrases: ["where would you like to sit"] },
  phone: { lemmas: ["phone", "telephone"], phrases: ["phone number", "reach you"] },
  email: { lemmas: ["email", "e-mail"] },
};

/**
 * The details a sentence names. The reservation itself counts only when nothing else is named: "What name
 * should I put the reservation under?" asks for the name, "Which of your reservations…?" for the reservation.
 */
export function fieldsNamed(text: string, knownFields: readonly string[] = []): string[] {
  return fieldsIn(wordsOf(text), knownFields);
}

const singular = memoize((word: string) => english(word).nouns().toSingular().text() || word);

function fieldsIn(words: readonly Word[], knownFields: readonly string[]): string[] {
  const found: string[] = [];
  for (const [field, cue] of Object.entries(FIELD_CUES)) {
    if (has(words, ...cue.lemmas) || (cue.phrases ?? []).some((p) => hasPhrase(words, p))) found.push(field);
  }
  // Slots the standard table does not know: their key's words ("allergy_note" → allergy, note).
  for (const key of knownFields) {
    if (FIELD_CUES[key] || found.includes(key) || /^(first|sisters?|brothers?|old|previous)_/.test(key)) continue;
    const parts = key.split(/[_\s-]+/).filter((p) => p.length > 2);
    if (parts.length > 0 && parts.every((p) => has(words, p, singular(p)))) found.push(key);
  }
  const others = found.filter((f) => f !== "reservation_id");
  const namesNumber = hasPhrase(words, "reservation number") || hasPhrase(words, "booking number") || hasPhrase(words, "confirmation number") || has(words, "id", "reference");
  if (found.includes("reservation_id") && others.length > 0 && !namesNumber) return others;
  return found;
}

// ---- actions ----------------------------------------------------------------------------------------------

const ACTION_LEMMAS: Record<CallerAction, string[]> = {
  book: ["book", "reserve"],
  cancel: ["cancel", "cancellation"],
  change: ["change", "update", "modify", "move", "reschedule"],
};

/**
 * The action a sentence's verbs name; with `nouns`, also its nouns ("the finished booking", "the table is
 * booked"). "Reservation" names no action: a reservation is booked, changed and cancelled alike.
 */
function actionIn(words: readonly Word[], nouns = false): CallerAction | null {
  for (const [action, lemmas] of Object.entries(ACTION_LEMMAS) as Array<[CallerAction, string[]]>) if (has(words, ...lemmas)) return action;
  if (nouns && has(words, "booking", "table")) return "book";
  if (nouns && has(words, "cancellation")) return "cancel";
  return null;
}

/** Finished forms of the action verbs; compromise sometimes reads "booked" after "is" as an adjective, its own lemma. */
const FINISHED_FORMS: Record<string, CallerAction> = { booked: "book", reserved: "book", cancelled: "cancel", canceled: "cancel", changed: "change", updated: "change", moved: "change", modified: "change", rescheduled: "change" };

/** An action verb in a finished form ("booked", "cancelled", "reserved"), or a finished-state phrase. */
function finishedAction(words: readonly Word[]): { action: CallerAction | null } | null {
  for (const w of words) if (FINISHED_FORMS[w.text]) return { action: FINISHED_FORMS[w.text]! };
  for (const w of words) if (["confirmed", "completed", "done", "finished"].includes(w.text)) return { action: null };
  if (hasPhrase(words, "all set") || hasPhrase(words, "is set") || hasPhrase(words, "are set")) return { action: null };
  return null;
}

// ---- what a sentence does ----------------------------------------------------------------------------------

const WH = new Set(["what", "which", "when", "where", "who", "whose", "how"]);
const CONSENT_ASKS = ["shall i", "should i", "want me to", "like me to", "go ahead", "proceed", "is that right", "is that correct", "is that ok", "is that okay", "does that sound", "sound good", "ok to", "okay to", "can i go ahead"];
const ALTERNATIVE = ["another", "alternative", "different", "instead", "other", "earlier", "later"];

function unavailable(words: readonly Word[]): boolean {
  if (hasPhrase(words, "fully book") || hasPhrase(words, "book up") || has(words, "unavailable", "full")) return true;
  const slot = has(words, "table", "slot", "availability", "space", "room", "spot", "seat", "opening");
  const free = has(words, "available", "free", "open", "have");
  if (negated(words) && slot && (free || hasPhrase(words, "no table") || hasPhrase(words, "no availability"))) return true;
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

const readSentenceOnce = memoize((key: string) => {
  const at = key.indexOf("\u0000");
  return readSentenceUncached(key.slice(0, at), key.slice(at + 1).split("\u0000").filter(Boolean));
});
function readSentence(text: string, knownFields: readonly string[]): ReadSentence {
  return readSentenceOnce(`${text}\u0000${knownFields.join("\u0000")}`);
}

function readSentenceUncached(text: string, knownFields: readonly string[]): ReadSentence {
  const words = wordsOf(text);
  const lemmas = words.map((w) => w.lemma);
  // A stated need asks as well: "I'll also need the name for the reservation."
  const statedNeed = has(words, "i") && has(words, "need", "require") && !negated(words) && fieldsIn(words, knownFields).length > 0;
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
    else if (statedNeed && !isQuestionSentence(text)) moves.push({ kind: "ask_fields", fields: fieldsIn(words, knownFields) });
    else if (!wh && (consent || (aboutMe && actionIn(words) !== null)) && !(ALTERNATIVE.some((a) => has(words, a)) && !aboutMe)) moves.push({ kind: "ask_go_ahead", action: actionIn(words) });
    else if (!wh && ALTERNATIVE.some((a) => has(words, a))) moves.push({ kind: "offer_alternative" });
    else {
      const fields = fieldsIn(words, knownFields);
      // "Could you tell me?" after "I still need the name…": the request is the sentence before it.
      moves.push(fields.length > 0 ? { kind: "ask_fields", fields } : { kind: "ask_other" });
    }
    if (unavailable(words)) moves.push({ kind: "report_unavailable" });
    return { text, question, lemmas, moves };
  }
  if (unavailable(words)) moves.push({ kind: "report_unavailable" });
  if (refusal(words)) moves.push({ kind: "refuse" });
  // "That time is fully booked" reports no booking; "I'll book it" and "one moment while I book" promise one.
  if (!moves.some((m) => m.kind === "report_unavailable") && !negated(words) && !has(words, "will", "shall", "let", "going", "can", "could", "would", "moment")) {
    const finished = finishedAction(words);
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
export function awaitedMove(condition: string, facts: readonly string[] = []): Awaited {
  const words = wordsOf(condition);
  const lemmas = [...new Set(words.map((w) => w.lemma).filter((l) => l.length > 1 && !ROLE_WORDS.has(l) && !/^\d+$/.test(l)))];
  const base = { fields: [] as string[], action: null as CallerAction | null, lemmas };
  // "asks", "wants to know", "requests", "prompts", "inquires": the assistant asks something.
  // "wants the name or how many are coming" asks for details too, when it names some.
  const wantsDetails = has(words, "want", "need", "require") && fieldsIn(words, facts).length > 0;
  const asks = wantsDetails || has(words, "ask", "inquire", "prompt", "query") || hasPhrase(words, "want to know") || hasPhrase(words, "assistant request") || hasPhrase(words, "assistant requests");
  if (asks) {
    if (hasPhrase(words, "anything else") || hasPhrase(words, "something else")) return { ...base, kind: "anything_else" };
    if (hasPhrase(words, "to confirm") || hasPhrase(words, "go ahead") || hasPhrase(words, "whether to") || hasPhrase(words, "if it should") || hasPhrase(words, "permission") || hasPhrase(words, "for a yes") || hasPhrase(words, "for approval"))
      return { ...base, kind: "ask_go_ahead", action: actionIn(words) };
    if (ALTERNATIVE.some((a) => has(words, a)) && !has(words, "name", "date", "time")) return { ...base, kind: "offer_alternative" };
    // The details the condition names ("asks for the name"); when it names none, the ones the item gives.
    const named = fieldsIn(words, facts);
    const fields = named.length > 0 ? named : facts.filter((f) => !/^(first|sisters?|brothers?)_/.test(f));
    return fields.length > 0 ? { ...base, kind: "ask_fields", fields } : { ...base, kind: "ask_other" };
  }
  if (has(words, "offer", "suggest", "propose") && ALTERNATIVE.some((a) => has(words, a))) return { ...base, kind: "offer_alternative" };
  if (unavailable(words) || hasPhrase(words, "no table") || (has(words, "no") && has(words, "free", "available"))) return { ...base, kind: "report_unavailable" };
  if (has(words, "refuse", "refusal", "decline", "deny") || refusal(words)) return { ...base, kind: "refuse" };
  if (has(words, "goodbye", "farewell", "bye")) return { ...base, kind: "goodbye" };
  const finished = finishedAction(words);
  if (finished || has(words, "confirm", "complete", "finish", "done")) return { ...base, kind: "report_done", action: finished?.action ?? actionIn(words, true) };
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

/** The actions a text names, verbs and nouns alike (a caller's goal: "Book a patio table…", "Get R-4410 cancelled"). */
export function actionsNamed(text: string): CallerAction[] {
  const words = wordsOf(text);
  const out: CallerAction[] = [];
  for (const [action, lemmas] of Object.entries(ACTION_LEMMAS) as Array<[CallerAction, string[]]>) if (has(words, ...lemmas) || words.some((w) => FINISHED_FORMS[w.text] === action)) out.push(action);
  if (!out.includes("book") && has(words, "booking", "table")) out.push("book");
  if (!out.includes("cancel") && has(words, "cancellation")) out.push("cancel");
  return out;
}
