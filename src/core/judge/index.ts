/** The semantic judge room (docs/verifiers-and-clauses.md): evidence catalog, behavior clauses, judge calls, verifiers, prices. */
export * from "./evidence";
export * from "./clauses";
export * from "./judge";
export * from "./prices";
export * from "./verifiers";
