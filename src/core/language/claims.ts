/**
 * Outcome claims in speech: affirmative, accomplished statements that something was created, changed or
 * cancelled, by a verb the lexicon (./vocabulary) gives an effect ("You're booked" where a package declares
 * book as create, "Order R-2040 is now cancelled", "All set, the table is yours" where table names a record) — as
 * opposed to intentions ("One moment while I book that", "I'll book it"), questions ("Would you like me to
 * book it?"), failures ("I couldn't book it", "it isn't booked yet") and unavailability ("that time is
 * fully booked").
 *
 * compromise supplies sentences, lemmas (`root`) and tags (PastTense, Adjective, Passive, Copula, Negative,
 * Modal, Gerund); the rule here reads them per clause.
 */
import { memoize, parsedJson } from "./nlp";
import { startsSentence } from "./values";
import { GENERIC, outcomeOfEffect, outcomeWord, type Lexicon, type OutcomeKind } from "./vocabulary";

export type { OutcomeKind } from "./vocabulary";

export interface OutcomeClaim {
  /** By effect (created, updated, cancelled), from the verbs the lexicon declares; "any" when the claim names no action ("You're all set"). */
  kind: OutcomeKind;
  /** The past form of the kind's action in the domain's words ("booked" for created in a restaurant), for messages. */
  word: string;
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

/** Past forms compromise may leave unlemmatized (British spelling, adjectival use); a package's own verbs' past forms are added (see pastForm). */
const PAST_FORMS: Record<string, string> = { cancelled: "cancel", canceled: "cancel", rescheduled: "reschedule", confirmed: "confirm" };
/** The verb of a past form compromise left unlemmatized: the list above, or a past form of a verb the package declared. */
function pastForm(norm: string, lexicon: Lexicon): string | undefined {
  const own = lexicon.pastForms.get(norm);
  return PAST_FORMS[norm] ?? (own !== undefined && lexicon.ownVerbs.has(own) ? own : undefined);
}
/** Words that put a clause before the fact: an intention, an offer, a condition, an infinitive's "to". */
const NOT_YET = new Set(["will", "shall", "would", "could", "should", "might", "may", "can", "going", "gonna", "let", "about", "want", "wants", "like", "need", "needs", "try", "trying", "once", "if", "when", "whenever", "unless", "until", "before", "while", "soon", "to", "whether"]);
const NEGATIONS = new Set(["not", "never", "cannot", "unable", "n't", "no", "nothing", "none", "nobody", "neither", "nor"]);
/** "fully booked", "booked up": a slot without room, not the caller's booking. */
const FULLNESS = new Set(["fully", "completely", "totally", "entirely", "all", "solidly", "heavily"]);
/** Forms of "be", for where compromise tags no Copula: "has been confirmed", a clitic written apart ("reservation 's confirmed"). */
const COPULAS = new Set(["is", "are", "was", "were", "been", "be", "s", "re"]);

/** The clauses of a text's statements, in order. A clause may be empty (before a sentence's opening "And"): it claims nothing. */
function clausesOf(text: string, lexicon: Lexicon): ClaimTerm[][] {
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
      const term: ClaimTerm = { text: t.text, norm, root: t.root ?? pastForm(norm, lexicon) ?? norm, tags: new Set(t.tags), start: t.offset.start, end: t.offset.start + t.offset.length, post: t.post };
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

function claimOf(clause: ClaimTerm[], mentionsRecord: boolean, lexicon: Lexicon): OutcomeKind | null {
  const records = lexicon.recordNouns;
  if (negated(clause)) return null;
  for (let i = 0; i < clause.length; i++) {
    const t = clause[i]!;
    const before = clause.slice(0, i);
    const pending = before.some((b) => NOT_YET.has(b.norm) || b.tags.has("Modal"));
    // "the table is yours", "seat 12A is yours now": a record now the caller's. Possession names no
    // action (a create in one domain, a change in another), so any successful write backs it.
    if (t.norm === "yours" && before.some((b) => records.has(b.norm)) && !pending) return "any";
    // "You're now on flight NW 218", "your order is now in the queue": a state the record is now in,
    // after a form of "be", with a record named after "now". It names no action either.
    if (t.norm === "now" && before.some((b) => COPULAS.has(b.norm) || b.tags.has("Copula")) && clause.slice(i + 1).some((a) => records.has(a.norm) || records.has(a.root)) && !pending) return "any";
    // "You're all set", "all taken care of" — an accomplishment that names no action.
    if (t.norm === "set" && clause[i - 1]?.norm === "all" && mentionsRecord && !pending) return "any";
    if (t.norm === "taken" && clause[i + 1]?.norm === "care" && mentionsRecord && !pending) return "any";
    if (t.root === "confirm" && accomplished(t) && before.some((b) => COPULAS.has(b.norm) || b.tags.has("Copula")) && before.some((b) => records.has(b.norm)) && !pending) return "any";
    const effect = lexicon.verbs.get(t.root);
    const action = effect ? outcomeOfEffect(effect) : null;
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

function readClaimsOnce(text: string, lexicon: Lexicon): OutcomeClaim[] {
  const clauses = clausesOf(text, lexicon);
  const records = lexicon.recordNouns;
  const mentionsRecord = clauses.some((c) => c.some((t) => records.has(t.norm) || records.has(t.root)));
  const claims: OutcomeClaim[] = [];
  for (const clause of clauses) {
    const kind = claimOf(clause, mentionsRecord, lexicon);
    if (!kind) continue;
    const start = clause[0]!.start;
    const end = clause[clause.length - 1]!.end;
    claims.push({ kind, word: outcomeWord(lexicon, kind), text: text.slice(start, end), start, end });
  }
  return claims;
}

const readers = new WeakMap<Lexicon, (text: string) => OutcomeClaim[]>();

/** The outcome claims a text makes, in order, in the lexicon's words (generic English without one). One parse per distinct text. */
export function readClaims(text: string, lexicon: Lexicon = GENERIC): OutcomeClaim[] {
  let read = readers.get(lexicon);
  if (!read) readers.set(lexicon, (read = memoize((t: string) => readClaimsOnce(t, lexicon), 5000)));
  return read(text);
}

