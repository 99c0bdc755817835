/**
 * The language layer: how crashlab reads speech where a check must (a refusal, a question, an outcome
 * claim, a stated value). One English reader for every consumer — compromise, pure JavaScript shipped
 * inside its npm package (no model download) — so the grader and the offline caller understand words the
 * same way. Dates, times and numbers are read from its terms by ./values (its dates plugin added a cost to
 * every parse and nothing the readers use).
 *
 * This file holds the one configured instance; the readers beside it build on it.
 */
import { createRequire } from "node:module";
import type nlp from "compromise";

export type EnglishDoc = ReturnType<typeof nlp>;

let loaded: typeof nlp | undefined;

/**
 * The configured reader (compromise), loaded on first use: a process that reads no speech (the run's
 * coordinator, `validate`, `compare`) never pays for its lexicon. Its one-file CommonJS build, because it
 * loads in about half the time of its ES modules (one file instead of hundreds) and reads text the same.
 */
export function english(text: string): EnglishDoc {
  loaded ??= createRequire(import.meta.url)("compromise") as typeof nlp;
  return loaded(text);
}

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
  const masked = withoutRecordIds(text);
  return masked === text ? parsedAsIs(text) : withWords(parsedAsIs(masked).clone() as EnglishDoc, text);
});

const parsedAsIs = memoize((text: string): EnglishDoc => {
  const doc = english(text);
  doc.compute("root");
  return doc;
});

/**
 * A record id ("R-E58827", "AB-77X9") is read as one noun, whatever its characters: ids are new in every
 * trial, and compromise's reading of one depends on them ("R-0E00E0" looks like a number to it, "AB-77X9"
 * is split in two), so a verdict could move with a random id. Each id is parsed as "R-000…" of its own
 * length, and a copy of that parse gets the real characters back; the same line with another id is then
 * read from memory.
 */
const RECORD_ID = /\b[A-Za-z]{1,3}-[A-Za-z0-9]*\d[A-Za-z0-9]*\b/g;
const withoutRecordIds = (text: string) => text.replace(RECORD_ID, (id) => `R-${"0".repeat(id.length - 2)}`);

interface MutableTerm {
  text: string;
  pre: string;
  post: string;
  normal?: string;
  machine?: string;
  root?: string;
}

/** `doc` (a copy of the parse of the masked text) with the words of `text`: the same lengths, in order. */
function withWords(doc: EnglishDoc, text: string): EnglishDoc {
  let at = 0;
  for (const terms of doc.docs as MutableTerm[][]) {
    for (const term of terms) {
      at += term.pre.length;
      const written = text.slice(at, at + term.text.length);
      if (written !== term.text) {
        const lower = written.toLowerCase();
        if (term.normal !== undefined && term.normal.length === term.text.length) term.normal = lower;
        if (term.machine !== undefined) term.machine = lower;
        if (term.root !== undefined && term.root.toLowerCase() === term.text.toLowerCase()) term.root = lower;
        term.text = written;
      }
      at += term.text.length + term.post.length;
    }
  }
  return doc;
}

/** `parsed(text).json({ offset: true })`, kept with the parse: sentences of terms (text, normal, root, tags, pre, post, offset). */
export const parsedJson = memoize((text: string): unknown[] => parsed(text).json({ offset: true }) as unknown[]);
