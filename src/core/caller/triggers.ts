/**
 * How the offline caller recognises that an agenda item's moment has come, from the assistant's words
 * alone. Both sides are read into moves with the language layer (./understanding): the item's trigger
 * condition ("The assistant asks which reservation the caller wants to cancel.") into the move it waits
 * for, the assistant's turn into the moves it makes. An item fires only on its move — a trigger waiting
 * for a report never fires on a question, one waiting for a question never on a statement — and the
 * lemmas the two share only break ties between items waiting for the same move.
 */
import { GENERIC, type Lexicon } from "../language/vocabulary";
import { awaitedMove, momentScore, understand, type Awaited, type Understanding } from "./understanding";
import type { AgendaItem } from "./types";

type Trigger = Pick<AgendaItem, "trigger_condition" | "facts">;

/** Lower-cased words, punctuation dropped (apostrophes and inner dots kept: "can't", "p.m"). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9'.\s-]/g, " ")
    .replace(/(^|\s)[.'-]+|[.'-]+(?=\s|$)/g, " ")
    .split(/\s+/)
    .filter(Boolean);
}

// A condition is read once per item (and lexicon): the caller weighs it on every transcript delta while the assistant talks.
const awaitedCache = new WeakMap<object, Map<Lexicon, Awaited>>();
export function awaitedBy(item: Trigger, lexicon: Lexicon = GENERIC): Awaited {
  let byLexicon = awaitedCache.get(item);
  if (!byLexicon) awaitedCache.set(item, (byLexicon = new Map()));
  let awaited = byLexicon.get(lexicon);
  if (!awaited) byLexicon.set(lexicon, (awaited = awaitedMove(item.trigger_condition, item.facts, lexicon)));
  return awaited;
}

/** How well the assistant's turn is the item's moment: 0 when the turn does not make the move it waits for. A turn is read, and the condition too, with its own lexicon; a text with `lexicon`. */
export function triggerScore(assistantText: string | Understanding, item: Trigger, lexicon: Lexicon = GENERIC): number {
  const turn = typeof assistantText === "string" ? understand(assistantText, item.facts, lexicon) : assistantText;
  return momentScore(turn, awaitedBy(item, turn.lexicon));
}

/** The assistant asked something (a question sentence, or a stated need: "I still need your name."). */
export function isQuestion(text: string | Understanding, lexicon: Lexicon = GENERIC): boolean {
  return (typeof text === "string" ? understand(text, [], lexicon) : text).sentences.some((s) => s.question);
}

/** The best-scoring item (score ≥ 1); ties go to the earlier item. */
export function bestTrigger<T extends Trigger>(assistantText: string | Understanding, items: readonly T[], lexicon: Lexicon = GENERIC): { item: T; score: number } | null {
  if (items.length === 0) return null;
  const turn = typeof assistantText === "string" ? understand(assistantText, [...new Set(items.flatMap((i) => i.facts))], lexicon) : assistantText;
  let best: { item: T; score: number } | null = null;
  for (const item of items) {
    const score = triggerScore(turn, item);
    if (score >= 1 && (!best || score > best.score)) best = { item, score };
  }
  return best;
}

/** The assistant declined (for refusal pressure). */
export function isRefusal(text: string | Understanding, lexicon: Lexicon = GENERIC): boolean {
  return (typeof text === "string" ? understand(text, [], lexicon) : text).moves.some((m) => m.kind === "refuse");
}
