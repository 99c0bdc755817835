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
 * Every reader of the layer reads the same utterance (the caller's understanding, cues, values, claims),
 * and an assistant's lines repeat from trial to trial: each text is parsed once per process, its roots
 * (lemmas) computed, and the parse shared. Readers must not change a shared document (no `toSingular()`
 * and the like on it; parse a fresh one with `english` for that). The map starts over past a bound.
 */
const PARSE_BOUND = 4000;
const parses = new Map<string, EnglishDoc>();
const jsons = new Map<string, unknown[]>();

/** The parse of `text`, with roots computed; shared, so read-only. */
export function parsed(text: string): EnglishDoc {
  let doc = parses.get(text);
  if (doc === undefined) {
    if (parses.size >= PARSE_BOUND) parses.clear();
    doc = english(text);
    doc.compute("root");
    parses.set(text, doc);
  }
  return doc;
}

/** `parsed(text).json({ offset: true })`, kept with the parse: sentences of terms (text, normal, root, tags, pre, post, offset). */
export function parsedJson(text: string): unknown[] {
  let json = jsons.get(text);
  if (json === undefined) {
    if (jsons.size >= PARSE_BOUND) jsons.clear();
    json = parsed(text).json({ offset: true }) as unknown[];
    jsons.set(text, json);
  }
  return json;
}
