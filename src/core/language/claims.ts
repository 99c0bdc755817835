/**
 * Outcome claims in speech: affirmative, accomplished statements that something was booked, cancelled or
 * changed ("You're booked", "Reservation R-2040 is now cancelled", "All set, the table is yours") — as
 * opposed to intentions ("One moment while I book that", "I'll book it"), questions ("Would you like me to
 * book it?"), failures ("I couldn't book it", "it isn't booked yet") and unavailability ("that time is
 * fully booked").
 *
 * compromise supplies sentences, lemmas (`root`) and tags (PastTense, Adjective, Passive, Copula, Negative,
 * Modal, Gerund); the rule here reads them per clause.
 */
import { memoize, parsedJson } from "./nlp";
import { startsSentence } from "./values";

/** What a claim says happened; "any" when it names no action ("You're all set: a table for two…"). */
export type OutcomeKind = "booked" | "cancelled" | "changed" | "any";

export interface OutcomeClaim {
  kind: OutcomeKind;
  /** The clause that claims it, and its span [start, end) in the text. */
  text: string;
  start: number;
  end: number;
}

interface ClaimTerm {
  text: string;
  norm: string;
  root: string;
  tags: ReadonlySet<string>;
  start: number;
  end: number;
  post: string;
}

const ACTIONS: Record<string, Exclude<OutcomeKind, "any">> = {
  book: "booked",
  reserve: "booked",
  cancel: "cancelled",
  change: "changed",
  modify: "changed",
  update: "changed",
  move: "changed",
  reschedule: "changed",
  switch: "changed",
};
/** Past forms compromise may leave unlemmatized (British spelling, adjectival use). */
const PAST_FORMS: Record<string, string> = { cancelled: "cancel", canceled: "cancel", booked: "book", reserved: "reserve", rescheduled: "reschedule", confirmed: "confirm" };
/** Words that put a clause before the fact: an intention, an offer, a condition, an infinitive's "to". */
const NOT_YET = new Set(["will", "shall", "would", "could", "should", "might", "may", "can", "going", "gonna", "let", "about", "want", "wants", "like", "need", "needs", "try", "trying", "once", "if", "when", "whenever", "unless", "until", "before", "while", "soon", "to", "whether"]);
const NEGATIONS = new Set(["not", "never", "cannot", "unable", "n't", "no", "nothing", "none", "nobody", "neither", "nor"]);
/** "fully booked", "booked up": a slot without room, not the caller's booking. */
const FULLNESS = new Set(["fully", "completely", "totally", "entirely", "all", "solidly", "heavily"]);
const RECORD_NOUNS = new Set(["table", "reservation", "booking", "tables", "reservations", "bookings", "seat", "seats"]);
/** Forms of "be", for where compromise tags no Copula: "has been confirmed", a clitic written apart ("reservation 's confirmed"). */
const COPULAS = new Set(["is", "are", "was", "were", "been", "be", "s", "re"]);

/** The clauses of a text's statements, in order. A clause may be empty (before a sentence's opening "And"): it claims nothing. */
function clausesOf(text: string): ClaimTerm[][] {
  type Raw = { text: string; normal: string; root?: string; tags: string[]; post: string; offset: { start: number; length: number } };
  // Sentences as compromise splits them, split again after "p.m." + a capital (see startsSentence).
  const sentences: Raw[][] = [];
  for (const sentence of parsedJson(text) as Array<{ terms: Raw[] }>) {
    sentence.terms.forEach((t, i) => {
      if (i === 0 || startsSentence(sentence.terms[i - 1]!.text, t.text)) sentences.push([]);
      sentences.at(-1)!.push(t);
    });
  }
  const out: ClaimTerm[][] = [];
  for (const terms of sentences) {
    // A question asks; it claims nothing ("Would you like me to book it?"). Its "?" follows the sentence's
    // last term, which may be the unwritten half of a contraction ("…, or would you rather it wasn't?").
    const last = terms.at(-1)!;
    if (`${last.text}${last.post}`.includes("?")) continue;
    let clause: ClaimTerm[] = [];
    for (const t of terms) {
      // compromise's normal form, whole: a record id is one word ("r-e58827"), never the letters left
      // once its digits are dropped ("re", "no"), so no random id reads as a copula or a negation.
      const norm = t.normal;
      if (norm === "but" || norm === "and" || norm === "so") {
        out.push(clause);
        clause = [];
      }
      const term: ClaimTerm = { text: t.text, norm, root: t.root ?? PAST_FORMS[norm] ?? norm, tags: new Set(t.tags), start: t.offset.start, end: t.offset.start + t.offset.length, post: t.post };
      clause.push(term);
      // Commas, dashes, colons and semicolons end a clause ("Done — it's booked", "No, it isn't booked").
      if (/[,;:—–]|\s-\s/.test(t.post)) {
        out.push(clause);
        clause = [];
      }
    }
    out.push(clause);
  }
  return out;
}

/** A finished form: past tense (compromise's Participle is a kind of PastTense), adjectival ("is booked") or passive; not a gerund, not the bare verb. */
const accomplished = (t: ClaimTerm) => (t.tags.has("PastTense") || t.tags.has("Adjective") || t.tags.has("Passive")) && !t.tags.has("Gerund") && t.norm !== t.root;

function negated(clause: ClaimTerm[]): boolean {
  return clause.some((t) => t.tags.has("Negative") || NEGATIONS.has(t.norm) || t.norm.endsWith("n't"));
}

function claimOf(clause: ClaimTerm[], mentionsRecord: boolean): OutcomeKind | null {
  if (negated(clause)) return null;
  for (let i = 0; i < clause.length; i++) {
    const t = clause[i]!;
    const before = clause.slice(0, i);
    const pending = before.some((b) => NOT_YET.has(b.norm) || b.tags.has("Modal"));
    // "the table is yours"
    if (t.norm === "yours" && before.some((b) => RECORD_NOUNS.has(b.norm)) && !pending) return "booked";
    // "You're all set", "all taken care of" — an accomplishment that names no action.
    if (t.norm === "set" && clause[i - 1]?.norm === "all" && mentionsRecord && !pending) return "any";
    if (t.norm === "taken" && clause[i + 1]?.norm === "care" && mentionsRecord && !pending) return "any";
    if (t.root === "confirm" && accomplished(t) && before.some((b) => COPULAS.has(b.norm) || b.tags.has("Copula")) && before.some((b) => RECORD_NOUNS.has(b.norm)) && !pending) return "any";
    const action = ACTIONS[t.root];
    if (!action || !accomplished(t) || pending) continue;
    const previous = clause[i - 1];
    if (previous && FULLNESS.has(previous.norm)) continue;
    // "that reservation was already cancelled": a state found, not this call's doing.
    if (before.some((b) => b.norm === "already")) continue;
    if (clause[i + 1]?.norm === "up" || clause[i + 1]?.norm === "solid") continue;
    return action;
  }
  return null;
}

/** The outcome claims a text makes, in order. One parse per distinct text. */
export const readClaims = memoize((text: string): OutcomeClaim[] => {
  const clauses = clausesOf(text);
  const mentionsRecord = clauses.some((c) => c.some((t) => RECORD_NOUNS.has(t.norm) || RECORD_NOUNS.has(t.root)));
  const claims: OutcomeClaim[] = [];
  for (const clause of clauses) {
    const kind = claimOf(clause, mentionsRecord);
    if (!kind) continue;
    const start = clause[0]!.start;
    const end = clause[clause.length - 1]!.end;
    claims.push({ kind, text: text.slice(start, end), start, end });
  }
  return claims;
}, 5000);

/** Which claim kinds a tool's name backs: create/book/reserve → booked, cancel → cancelled, update/modify/change/move → changed; null when its name says none. */
export function toolOutcome(name: string): Exclude<OutcomeKind, "any"> | null {
  // The name's words, camelCase split before lowercasing: "reservationCancel" is reservation, cancel.
  const words = Array.from(name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().matchAll(/[a-z]+/g), (m) => m[0]);
  const has = (...ws: string[]) => words.some((w) => ws.some((x) => w.startsWith(x)));
  if (has("cancel", "delete", "remove")) return "cancelled";
  if (has("update", "modify", "change", "move", "reschedule", "edit", "amend")) return "changed";
  if (has("create", "book", "reserve", "make", "add", "place")) return "booked";
  return null;
}
