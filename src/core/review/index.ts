/**
 * Human review of a run: reviews.jsonl (the file and its checks), reviews carried over by provenance, the
 * review queue, human verdicts for the gates, and the judge's calibration against people.
 */
export * from "./reviews";
export * from "./run-reviews";
export * from "./queue";
export * from "./calibrate";
