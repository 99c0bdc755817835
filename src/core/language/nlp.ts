/**
 * The language layer: how crashlab reads speech where a check must (a refusal, a question, an outcome
 * claim, a stated value). One English reader for every consumer — compromise, pure JavaScript shipped
 * inside its npm package (no model download) — so the grader and the offline caller understand words the
 * same way. Dates, times and numbers are read from its terms by ./values (its dates plugin added a cost to
 * every parse and nothing the readers use).
 *
 * This file holds the one configured instance; the readers beside it build on it.
 */
import nlp from "compromise";

/** The configured reader (compromise). */
export const english = nlp;
export type EnglishDoc = ReturnType<typeof nlp>;

/**
 * `read` kept once per text for the life of the process: readings are pure functions of the text, and an
 * assistant's lines repeat from trial to trial (a turn is re-read as its words arrive). The map starts over
 * past a bound, so a long run's memory stays flat.
 */
export function memoize<T>(read: (text: string) => T, bound = 4000): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    let value = kept.get(text);
    if (value === undefined) {
      if (kept.size >= bound) kept.clear();
      value = read(text);
      kept.set(text, value);
    }
    return value;
  };
}

/**
 * The parse of `text`, with roots (lemmas) computed, shared by every reader of the layer (the caller's
 * understanding, cues, values, claims), so each text is parsed once per process. Shared, so read-only: no
 * `toSingular()` and the like on it (parse a fresh one with `english` for that).
 */
export const parsed = memoize((text: string): EnglishDoc => {
  const doc = english(text);
  doc.compute("root");
  return doc;
});

/** `parsed(text).json({ offset: true })`, kept with the parse: sentences of terms (text, normal, root, tags, pre, post, offset). */
export const parsedJson = memoize((text: string): unknown[] => parsed(text).json({ offset: true }) as unknown[]);
