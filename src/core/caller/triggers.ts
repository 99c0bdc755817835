/**
 * How the offline caller recognises that an agenda item's moment has come, from the assistant's words
 * alone. It is a deterministic word match, not understanding: an item's trigger condition (plus the keys
 * of the facts it will give) and the assistant's turn are reduced to concepts — words, with a small table
 * of synonyms folded into one concept — and the item sharing the most concepts wins. Dataset authors write
 * trigger conditions that name what the assistant will say ("asks for the reservation name").
 */
import type { AgendaItem } from "./types";

/** Words that say nothing about the moment: grammar, and the roles every trigger names. */
const STOP_WORDS = new Set(
  (
    "a an the and or but if then than so to of in on at by for with from into about as is are was were be been being do does did " +
    "has have had it its this that these those there their them they he she his her you your we our i me my mine " +
    "assistant caller asks ask asked says say said tells tell told mentions mention states state explains explain " +
    "would could should will can may might must please just also again now still yet any some all each every other " +
    "what which who whom whose how why when where"
  ).split(" "),
);

/**
 * Synonyms folded into one concept. `when` is kept (it asks for a time or date); a phrase of several words
 * matches when all its words appear in order.
 */
const CONCEPTS: Record<string, readonly string[]> = {
  name: ["name", "called", "surname", "under what", "under which", "under whose"],
  time: ["time", "when", "o'clock", "clock", "pm", "p.m", "am", "a.m", "hour", "evening", "tonight"],
  date: ["date", "day", "when", "which day", "what day"],
  party: ["how many", "people", "guests", "guest count", "party", "size", "persons", "seats", "diners"],
  confirm: ["confirm", "sure", "shall", "go ahead", "proceed", "should i", "want me to", "like me to"],
  unavailable: ["unavailable", "not available", "fully booked", "booked up", "full", "no table", "no tables", "taken", "no availability", "nothing available"],
  cancel: ["cancel", "cancellation", "cancelled", "canceled", "cancelling"],
  complete: ["confirmed", "all set", "done", "complete", "completed", "finished", "you're booked", "is booked", "are booked", "i've booked", "have booked", "reserved", "is set", "cancelled", "canceled", "has been cancelled", "is cancelled"],
  refuse: ["can't", "cannot", "can not", "unable", "not able", "not allowed", "only the", "not authorized", "unauthorized", "won't be able", "refuse", "refuses", "refusal", "refusing", "decline", "declines"],
  alternative: ["instead", "another", "alternative", "earlier", "later", "different", "other time", "other date"],
  reference: ["reservation id", "reservation number", "confirmation number", "reference", "booking id", "booking number", "id"],
  seating: ["seating", "patio", "outdoor", "outside", "indoor", "inside", "bar", "terrace", "window"],
  hours: ["hours", "open", "opening", "close", "closing"],
  anything: ["anything else", "help with", "help you"],
};

/** Lower-cased words, punctuation dropped (apostrophes and inner dots kept: "can't", "p.m"). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9'.\s-]/g, " ")
    .replace(/(^|\s)[.'-]+|[.'-]+(?=\s|$)/g, " ")
    .split(/\s+/)
    .filter(Boolean);
}

function containsPhrase(tokens: readonly string[], phrase: string): boolean {
  const parts = phrase.split(" ");
  for (let i = 0; i + parts.length <= tokens.length; i++) if (parts.every((p, j) => tokens[i + j] === p)) return true;
  return false;
}

/** A crude singular: "guests" and "guest" are one word here. */
function stem(word: string): string {
  return word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/** The concepts of a text: synonym concepts found in it, plus its remaining content words (stemmed). */
export function concepts(text: string): Set<string> {
  const tokens = words(text);
  const out = new Set<string>();
  for (const [concept, phrases] of Object.entries(CONCEPTS)) if (phrases.some((p) => containsPhrase(tokens, p))) out.add(`#${concept}`);
  for (const t of tokens) if (!STOP_WORDS.has(t) && !/^\d+$/.test(t)) out.add(stem(t));
  return out;
}

/** What an agenda item listens for: its trigger condition and the keys of the facts it gives (`guest_name` → guest, name). */
export function itemConcepts(item: Pick<AgendaItem, "trigger_condition" | "facts">): Set<string> {
  return concepts(`${item.trigger_condition} ${item.facts.map((f) => f.replace(/_/g, " ")).join(" ")}`);
}

/**
 * A trigger that waits for the assistant to ask ("The assistant asks for the name") needs a question.
 * "request" asks only as the assistant's verb: "continues to refuse the cancellation request" does not.
 */
function waitsForQuestion(trigger: string): boolean {
  return /\b(asks?|asking|prompts?|wants to know|inquires?)\b/i.test(trigger) || /\bassistant\s+(requests?|requesting)\b/i.test(trigger);
}

/** How many concepts the assistant's words share with what the item listens for (0 when it waits for a question that was not asked). */
export function triggerScore(assistantText: string, item: Pick<AgendaItem, "trigger_condition" | "facts">): number {
  if (waitsForQuestion(item.trigger_condition) && !isQuestion(assistantText)) return 0;
  const heard = concepts(assistantText);
  let score = 0;
  for (const c of itemConcepts(item)) if (heard.has(c)) score++;
  return score;
}

/** The assistant asked something. */
export function isQuestion(text: string): boolean {
  return text.includes("?");
}

/** The best-scoring item (score ≥ 1); ties go to the earlier item. */
export function bestTrigger<T extends Pick<AgendaItem, "trigger_condition" | "facts">>(assistantText: string, items: readonly T[]): { item: T; score: number } | null {
  let best: { item: T; score: number } | null = null;
  for (const item of items) {
    const score = triggerScore(assistantText, item);
    if (score >= 1 && (!best || score > best.score)) best = { item, score };
  }
  return best;
}

/** The assistant declined (for refusal pressure). */
export function isRefusal(text: string): boolean {
  return concepts(text).has("#refuse");
}
