/** The semantic judge's behavior clauses: the five built-in ones, and `defineClause` for a package's own. */

import type { Scenario } from "../dataset/schema";
import { CORRECTION_WORDS } from "../language/cues";
import type { VerifierInput } from "../verify/verifier";
import type { EvidenceCatalog, EvidenceKind } from "./evidence";
import { noteDefinitionSite } from "../verify/source";

/**
 * Versioned behavior clauses (docs/verifiers-and-clauses.md, docs/grading.md): the meaning a judge decides, with the code that says when
 * the clause applies and which evidence it may see. Changing a clause's text, rule or selection changes
 * its version, so assessments made under different wording are never compared as one.
 */

/** `true` applies; `false` or a string does not apply, the string saying why. */
export type Applicability = boolean | string;

export type ClauseRecord = VerifierInput["record"];

export interface BehaviorClause {
  /** Lowercase id; the verifier is `semantic.<id>`. */
  id: string;
  version: string;
  /** What the judge decides, in plain words. */
  text: string;
  /** The judge must also give an explicit task-completion decision (task_understanding). */
  decides_task_completion?: boolean;
  applies(record: ClauseRecord, scenario: Scenario): Applicability;
  /**
   * The ids of the catalog items the judge sees for this clause. Code, versioned and tested: a selector
   * that throws or names an id outside the catalog is a verifier error, never model uncertainty.
   */
  select(catalog: EvidenceCatalog, record: ClauseRecord, scenario: Scenario): readonly string[];
}

/** A clause definition a package got wrong; says what to fix. */
export class ClauseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClauseError";
  }
}

/** Validate a clause (packages add their own through this). */
export function defineClause(clause: BehaviorClause): BehaviorClause {
  if (!clause || typeof clause !== "object") throw new ClauseError("defineClause expects {id, version, text, applies, select}");
  if (typeof clause.id !== "string" || !/^[a-z][a-z0-9_]*$/.test(clause.id)) throw new ClauseError(`clause id "${String(clause.id)}" must be lowercase letters, digits and '_', starting with a letter`);
  if (typeof clause.version !== "string" || clause.version.trim() === "") throw new ClauseError(`clause "${clause.id}" needs a version (e.g. "1.0"); bump it whenever its text, rule or selection changes`);
  if (typeof clause.text !== "string" || clause.text.trim() === "") throw new ClauseError(`clause "${clause.id}" needs the text the judge decides`);
  if (typeof clause.applies !== "function") throw new ClauseError(`clause "${clause.id}" needs applies(record, scenario) returning true, false or a reason it does not apply`);
  if (typeof clause.select !== "function") throw new ClauseError(`clause "${clause.id}" needs select(catalog, record, scenario) returning evidence ids`);
  return noteDefinitionSite(Object.freeze({ ...clause }));
}

/** Every id of the given kinds, in catalog order. */
export function idsOfKind(catalog: EvidenceCatalog, ...kinds: EvidenceKind[]): string[] {
  return catalog.items.filter((item) => kinds.includes(item.kind)).map((item) => item.id);
}

/** Correction words; the list lives with the other phrase rules (language/cues.ts) (docs/verifiers-and-clauses.md). */
export { CORRECTION_WORDS };

function words(text: string): string {
  return ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `;
}

/** The correction words a request contains, whole words only ("sorrywise" does not match). */
export function correctionWords(request: string): string[] {
  const normalized = words(request);
  return CORRECTION_WORDS.filter((w) => normalized.includes(` ${w} `));
}

const isClarification = (s: Scenario) =>
  s.type === "clarification" || s.tags.includes("clarification") || (s.expected.procedure?.steps.some((step) => step.kind === "clarification") ?? false);

const expectsTools = (s: Scenario) =>
  s.expected.tools.required.length > 0 || (s.expected.procedure?.steps.some((step) => step.kind === "tool" || step.kind === "grounded_confirmation") ?? false);

export const taskUnderstanding = defineClause({
  id: "task_understanding",
  version: "1.0",
  decides_task_completion: true,
  text:
    "The assistant understood what the caller actually asked for and, judged only on the evidence, accomplished it or correctly told the caller why it could not. " +
    "The action taken or the information given must match the request, including names, dates, times, quantities and stated constraints. " +
    "Pass only when the request was understood and the observed outcome meets the success criteria; set task_completed accordingly.",
  applies: () => true,
  select: (catalog) => catalog.items.map((item) => item.id),
});

export const contextFidelity = defineClause({
  id: "context_fidelity",
  version: "1.0",
  text:
    "The assistant stayed faithful to the context it was given and to the caller's corrections: it used the prior history and summary where they matter, " +
    "acted on the caller's latest correction rather than the detail it replaced, and did not contradict, drop or invent information established earlier.",
  applies: (record, scenario) => {
    if (scenario.input.context) return true;
    if (scenario.interaction === "multi_turn") return true;
    if (correctionWords(scenario.input.text).length > 0) return true;
    return "no context was given, the request contains no correction word, and the conversation is single-turn";
  },
  select: (catalog) => idsOfKind(catalog, "context_summary", "context_history", "utterance", "tool_call", "state_change"),
});

export const clarificationQuality = defineClause({
  id: "clarification_quality",
  version: "1.0",
  text:
    "Where a detail needed to act was genuinely missing or ambiguous, the assistant asked for exactly that detail, clearly and briefly, without guessing it or acting on a guess; " +
    "it did not ask for details the caller had already given, that the context holds, or that the public facts answer.",
  applies: (_record, scenario) => (isClarification(scenario) ? true : "not a clarification scenario and no clarification step in the procedure"),
  select: (catalog) => idsOfKind(catalog, "context_summary", "context_history", "utterance", "delegation", "tool_call", "state_change", "fact"),
});

export const groundedCommunication = defineClause({
  id: "grounded_communication",
  version: "1.0",
  text:
    "Everything the assistant told the caller about the outcome is supported by the evidence: it confirmed only what a completed tool call, world event or state change established, " +
    "reported failures and refusals honestly, and invented no reference numbers, times, availability or policies beyond the tool results and public facts.",
  applies: (_record, scenario) => (expectsTools(scenario) ? true : "no tools are expected in this scenario"),
  select: (catalog) => idsOfKind(catalog, "utterance", "delegation", "tool_call", "world_event", "state_change", "fact"),
});

export const conversationalCoherence = defineClause({
  id: "conversational_coherence",
  version: "1.0",
  text:
    "Across the turns, each assistant reply follows from what the caller had just said, stays consistent with the assistant's earlier replies, " +
    "avoids needless repetition or loops, and moves the conversation toward the caller's goal, ending in a clear state.",
  applies: (_record, scenario) => (scenario.interaction === "multi_turn" ? true : "single-turn scenario"),
  select: (catalog) => idsOfKind(catalog, "context_summary", "context_history", "utterance"),
});

/** The five dimensions of docs/verifiers-and-clauses.md, in report order. */
export const BUILTIN_CLAUSES: readonly BehaviorClause[] = [taskUnderstanding, contextFidelity, clarificationQuality, groundedCommunication, conversationalCoherence];
