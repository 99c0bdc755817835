/** The semantic judge room (§6): evidence catalog, behavior clauses, judge calls, verifiers, prices. */
export * from "./evidence";
export * from "./clauses";
export * from "./judge";
export * from "./prices";
export * from "./verifiers";
