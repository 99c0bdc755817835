/**
 * The language layer: how crashlab reads speech where a check must (a refusal, a question, an outcome
 * claim, a stated value). One English reader for every consumer — compromise with its dates plugin, both
 * pure JavaScript shipped inside their npm packages (no model download) — so the grader and the offline
 * caller understand words the same way.
 *
 * This file holds the one configured instance; the readers beside it build on it.
 */
import nlp from "compromise";
import datesPlugin from "compromise-dates";

nlp.plugin(datesPlugin);

/** The configured reader (compromise with compromise-dates). */
export const english = nlp;
export type EnglishDoc = ReturnType<typeof nlp>;
