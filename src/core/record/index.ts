/**
 * The record room: the contracts every layer reads — the trial record (docs/results.md) and the assessment
 * (docs/results.md) — as versioned zod schemas. It sits at the bottom of the house and imports nothing of ours.
 */
export * from "./trial-record";
export * from "./assessment";
