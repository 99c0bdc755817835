/**
 * The record room: the contracts every layer reads — the trial record (contract 4) and the assessment
 * (contract 5) — as versioned zod schemas. It sits at the bottom of the house and imports nothing of ours.
 */
export * from "./trial-record";
export * from "./assessment";
