/** Deterministic grading (docs/grading.md): the dimensions, outcome checks, tool and delegation accuracy of a trial. */

import type { ExpectedCall, Scenario } from "../dataset/schema";
import type { Delegation, Dimension, ProcedureResult, ToolExecution, Turn } from "../record/trial-record";
import type { OutcomeCheck } from "../record/assessment";
import type { Lexicon } from "../language/vocabulary";
import type { JsonPatch, WorldEvent } from "../world/types";
import { checkFacts, describeAvailability, describeClaim, describeContradiction, describeSuperseded, describeValue, readCommunication, readGrounding, type Communicated, type Grounding } from "./grounding";
import { callMatches, jsonEqual, matchesSubset, maximumAssignment, maximumMatching } from "./match";
import { gradeProcedure, type ProcedureCallerLine } from "./procedure";
import { matchState } from "./state";
import { readDisclosures, type AccessRecord } from "./disclosure";
import { readToolPath, writeFaultCalls, writeFaults, type OperationKind, type ToolPath } from "./tool-path";

export { callMatches };

/** What deterministic grading reads: observed evidence plus the evaluator-only scenario. */
export interface GradingInput {
  scenario: Scenario;
  case_kind: string;
  /** The conversation ran to its end (no limit hit, no timeout). */
  completed: boolean;
  completion_note: string;
  turns: Turn[];
  delegations: Delegation[];
  tool_executions: ToolExecution[];
  /** RUN: the simulated caller's lines with their acts (the offline caller records them); procedure steps read them. */
  caller?: readonly ProcedureCallerLine[];
  /** `reported_by: "target"`: the state is the target's own report (docs/grading.md, "Evidence a target reports"). */
  world: { initial: unknown; final: unknown; view: Record<string, unknown>; events: readonly WorldEvent[]; diff: JsonPatch[]; reported_by?: "target" };
  /** The package's public facts (PLAN.facts): evidence the assistant may state without a tool. */
  facts?: unknown;
  /** The world's words (language/vocabulary.ts): how speech is read for this domain. Generic English without them. */
  lexicon?: Lexicon;
  /** The kind (read or write) each operation of the world declares; the tool-path rule reads it (docs/grading.md). */
  operation_kinds?: Readonly<Record<string, OperationKind>>;
  /**
   * The world's records at the start with who may read them (`defineWorld({ access })`); absent when the
   * world declares none; an error when its declaration could not read the state.
   */
  access?: readonly AccessRecord[] | { error: string };
  /** Set when a semantic judge assessed task_understanding (docs/grading.md semantic_outcome). */
  semantic_task_understanding?: "passed" | "failed" | "inconclusive";
  /** Only a required task_understanding gates task completion (docs/grading.md: semantic criteria are advisory by default). */
  semantic_task_understanding_required?: boolean;
}

export interface Grading {
  dimensions: Record<string, Dimension>;
  checks: OutcomeCheck[];
  tool_accuracy: number;
  delegation_accuracy: number;
  /** Every procedure step, graded (procedure.ts); null when the scenario has no procedure. */
  procedure: ProcedureResult | null;
}

const toolEvidence = (t: ToolExecution) => `tool.${t.call_id}`;

/** Evidence ids of assistant turns (`utt.assistant.<n>`, 1-based among assistant turns). */
function assistantTurns(turns: Turn[]): Array<Turn & { evidence_id: string }> {
  return turns.filter((t) => t.role === "assistant").map((t, i) => ({ ...t, evidence_id: `utt.assistant.${i + 1}` }));
}

/** Tool_accuracy (docs/grading.md). */
export function toolAccuracy(required: ExpectedCall[], prohibited: ExpectedCall[], actual: ToolExecution[]): number {
  if (actual.some((call) => prohibited.some((p) => callMatches(p, call)))) return 0;
  // With one side empty the matching below gives 0 already; both empty is a perfect 1, not 0 ÷ 0.
  if (required.length === 0 && actual.length === 0) return 1;
  const matched = maximumMatching(required.length, actual.length, (i, j) => callMatches(required[i]!, actual[j]!));
  return matched / Math.max(required.length, actual.length);
}

/** Delegation_accuracy (docs/grading.md). */
export function delegationAccuracy(expectation: "required" | "forbidden" | "optional", delegated: boolean): number {
  return (expectation !== "required" || delegated) && !(expectation === "forbidden" && delegated) ? 1 : 0;
}

function dim(status: Dimension["status"], rationale: string, evidence_ids: string[] = []): Dimension {
  return { status, rationale, evidence_ids };
}

function check(id: string, required: boolean, status: OutcomeCheck["status"], rationale: string, evidence_ids: string[] = []): OutcomeCheck {
  return { id, required, status, rationale, evidence_ids };
}

/** A conversation tagged "clarification" asks and then acts; only a single turn is graded as asking alone. */
function isClarification(s: Scenario): boolean {
  return s.type === "clarification" || (s.interaction !== "multi_turn" && s.tags.includes("clarification"));
}

/** Match expected.state (docs/datasets.md) against the final world (state.ts). */
function finalState(input: GradingInput): Dimension {
  const expected = input.scenario.expected.state;
  if (Object.keys(expected).length === 0) return dim("not_applicable", "no expected state");
  const diffIds = input.world.diff.map((_, i) => `state.diff.${i + 1}`);
  const { ok, rationale } = matchState(expected, input.world, input.world.diff.length);
  // An unchanged world that matches has no diff to cite.
  return dim(ok ? "passed" : "failed", `${rationale}${reportedNote(input)}`, ok && expected.unchanged === true ? [] : diffIds);
}

/** Said after a state verdict when the state is the target's own report, not crashlab's observation. */
const reportedNote = (input: GradingInput) => (input.world.reported_by === "target" ? " (as reported by the target)" : "");

/** Deterministic dimensions and outcome checks, exactly as written there. */
export function grade(input: GradingInput): Grading {
  const { scenario } = input;
  const expected = scenario.expected;
  const required = expected.tools.required;
  const prohibited = expected.tools.prohibited;
  const tools = input.tool_executions;
  const toolIds = tools.map(toolEvidence);
  const completedTools = tools.filter((t) => t.status === "completed");
  const assistant = assistantTurns(input.turns);
  // A blank assistant turn (no words) is not speech: it neither answers nor relays a tool's outcome.
  const spoken = assistant.filter((a) => a.text.trim().length > 0);
  const delegated = input.delegations.length > 0;
  const delegationIds = input.delegations.map((d) => `delegation.${d.delegation_id}`);
  const dimensions: Record<string, Dimension> = {};

  dimensions.run_validity = input.completed
    ? dim("passed", "the trial ran to completion")
    : dim("failed", input.completion_note);

  dimensions.delegation_decision =
    expected.delegation === "required"
      ? delegated
        ? dim("passed", `delegated ${input.delegations.length} time(s) as required`, delegationIds)
        : dim("failed", "delegation was required but none happened")
      : expected.delegation === "forbidden"
        ? delegated
          ? dim("failed", `delegation was forbidden but happened ${input.delegations.length} time(s)`, delegationIds)
          : dim("passed", "no delegation, as required")
        : dim("passed", "delegation optional");

  const names = tools.map((t) => t.name);
  const expectedNames = required.map((c) => c.name);
  dimensions.tool_selection =
    names.length === expectedNames.length && names.every((n, i) => n === expectedNames[i])
      ? dim("passed", `tools [${names.join(", ")}] as expected`, toolIds)
      : dim("failed", `expected tools [${expectedNames.join(", ")}], observed [${names.join(", ")}]`, toolIds);

  if (required.length === 0) {
    dimensions.parameter_accuracy = dim("not_applicable", "no tools expected");
    dimensions.tool_execution = dim("not_applicable", "no tools expected");
  } else {
    const paramFaults = required
      .map((exp, i) => {
        const obs = tools[i];
        if (!obs || obs.name !== exp.name) return `call ${i + 1}: expected ${exp.name}, observed ${obs?.name ?? "none"}`;
        return matchesSubset(exp.arguments, obs.arguments ?? {}) ? null : `call ${i + 1} (${exp.name}): expected arguments ${JSON.stringify(exp.arguments)}, observed ${obs.raw_arguments}`;
      })
      .filter((x): x is string => x !== null);
    if (tools.length !== required.length) paramFaults.push(`expected ${required.length} call(s), observed ${tools.length}`);
    dimensions.parameter_accuracy = paramFaults.length === 0 ? dim("passed", "every expected argument set is a subset of the observed one", toolIds) : dim("failed", paramFaults.join("; "), toolIds);

    const failed = tools.filter((t) => t.status === "failed");
    const inOrder = completedTools.length === required.length && completedTools.every((t, i) => t.name === required[i]!.name);
    dimensions.tool_execution =
      failed.length === 0 && inOrder
        ? dim("passed", `${completedTools.length} completed execution(s) in the expected order`, toolIds)
        : dim(
            "failed",
            failed.length > 0
              ? `${failed.length} execution(s) failed: ${failed.map((t) => `${t.name} (${t.error?.code ?? "error"})`).join(", ")}`
              : `expected ${required.length} completed execution(s) [${expectedNames.join(", ")}], observed ${completedTools.length} [${completedTools.map((t) => t.name).join(", ")}]`,
            toolIds,
          );
  }

  dimensions.final_state = finalState(input);

  if (isClarification(scenario)) {
    const unchanged = jsonEqual(input.world.initial, input.world.final);
    const faults = [delegated ? "delegated" : "", tools.length > 0 ? `ran ${tools.length} tool(s)` : "", unchanged ? "" : "changed state"].filter(Boolean);
    dimensions.clarification_behavior =
      faults.length === 0 ? dim("passed", "asked without delegating, running tools or changing state") : dim("failed", `a clarification must not act, but it ${faults.join(", ")}`, [...delegationIds, ...toolIds]);
  } else dimensions.clarification_behavior = dim("not_applicable", "not a clarification scenario");

  const lastCompleted = completedTools.reduce<ToolExecution | undefined>((last, t) => (!last || t.completed_ms >= last.completed_ms ? t : last), undefined);
  const spokenAfter = (t: ToolExecution) => spoken.filter((a) => a.start_ms >= t.completed_ms);
  // What the assistant said, read by the language layer against the evidence that preceded each utterance.
  const grounding = readGrounding({
    scenario,
    case_kind: input.case_kind,
    turns: input.turns,
    utterances: spoken,
    tool_executions: tools,
    events: input.world.events,
    ...(input.facts !== undefined ? { facts: input.facts } : {}),
    ...(input.caller ? { caller: input.caller } : {}),
    ...(input.lexicon ? { lexicon: input.lexicon } : {}),
  });
  const path = toolPath(input);
  // Every result the case asked for must reach the caller: a later claim or statement of it, not any speech.
  const silent = readCommunication(path.asked.filter((t) => t.status === "completed"), spoken, input.world.events, input.lexicon).filter((c) => c.utterance === null);
  const claimFaults = grounding.unbacked.map(describeClaim);
  const claimIds = [...new Set(grounding.unbacked.flatMap((u) => [u.utterance.evidence_id, ...(u.late ? [toolEvidence(u.late)] : [])]))];
  if (required.length === 0)
    // Without expected tools the order still matters for what the assistant claims it did.
    dimensions.grounded_relay_order =
      grounding.claims.length === 0
        ? dim("not_applicable", "no tools expected and no outcome claimed")
        : claimFaults.length > 0
          ? dim("failed", `outcome claimed before the result that backs it: ${claimFaults.join("; ")}`, claimIds)
          : dim("passed", `every outcome claim follows the tool result that backs it`, grounding.claims.map((c) => c.utterance.evidence_id));
  else if (dimensions.tool_execution.status !== "passed") dimensions.grounded_relay_order = dim("failed", "tool execution was not correct", toolIds);
  else if (claimFaults.length > 0) dimensions.grounded_relay_order = dim("failed", `outcome claimed before the result that backs it: ${claimFaults.join("; ")}`, claimIds);
  else {
    // tool_execution passed, so every expected tool completed: there is a last one.
    const after = spokenAfter(lastCompleted!);
    dimensions.grounded_relay_order =
      after.length === 0
        ? dim("failed", "the assistant did not speak after the tool completed", toolIds)
        : silent.length > 0
          ? dim("failed", silent.map(describeSilence).join("; "), silent.map((c) => toolEvidence(c.execution)))
          : dim("passed", `assistant spoke at ${after[0]!.start_ms} ms, after the tool completed at ${lastCompleted!.completed_ms} ms`, [toolEvidence(lastCompleted!), after[0]!.evidence_id]);
  }

  // Outcome assessment (docs/grading.md). A trial passes when no required check failed.
  const checks: OutcomeCheck[] = [];
  checks.push(check("conversation_completed", true, input.completed ? "passed" : "failed", input.completed ? "the conversation ran to completion" : input.completion_note));
  checks.push(
    check("assistant_responded", true, spoken.length > 0 ? "passed" : "failed", spoken.length > 0 ? `${spoken.length} assistant turn(s)` : "the assistant never spoke", spoken.map((a) => a.evidence_id)),
  );
  const stateSet = Object.keys(expected.state).length > 0;
  checks.push(
    stateSet
      ? check("application_state", true, dimensions.final_state.status === "passed" ? "passed" : "failed", dimensions.final_state.rationale, dimensions.final_state.evidence_ids)
      : check("application_state", false, "not_applicable", "no expected state"),
  );
  const delegationRequired = expected.delegation !== "optional";
  checks.push(
    check(
      "delegation_policy",
      delegationRequired,
      delegationRequired ? (dimensions.delegation_decision.status === "passed" ? "passed" : "failed") : "not_applicable",
      dimensions.delegation_decision.rationale,
      dimensions.delegation_decision.evidence_ids,
    ),
  );
  checks.push(authorizedActions(tools, prohibited, path));
  const procedure = gradeProcedure(expected.procedure, { turns: input.turns, caller: input.caller, tool_executions: tools, world: input.world, prohibited, lexicon: input.lexicon });
  checks.push(criticalProcedure(procedure));
  checks.push(toolContract(input, path));
  const changed = !jsonEqual(input.world.initial, input.world.final);
  if (changed) {
    const completedIds = new Set(completedTools.map((t) => t.call_id));
    const causing = input.world.events.filter((e) => e.kind === "write" && e.outcome === "ok" && e.patches.length > 0 && e.cause.call_id && completedIds.has(e.cause.call_id));
    checks.push(
      check(
        "verified_state_change",
        true,
        causing.length > 0 ? "passed" : "failed",
        `${causing.length > 0 ? `state changed by ${causing.map((e) => e.operation).join(", ")}` : "state changed without a completed tool causing it"}${reportedNote(input)}`,
        causing.map((e) => `world.event.${e.seq}`),
      ),
    );
  } else checks.push(check("verified_state_change", false, "not_applicable", "state unchanged"));
  checks.push(groundedResponse(grounding, lastCompleted, lastCompleted ? spokenAfter(lastCompleted) : [], silent));
  checks.push(expectedFacts(expected.facts, spoken, input.lexicon));
  checks.push(noDisclosure(input, spoken));
  const understanding = input.semantic_task_understanding;
  checks.push(
    understanding === undefined
      ? check("semantic_outcome", false, "not_applicable", "no semantic judge ran")
      : understanding === "inconclusive"
        ? // Inconclusive is not a failure of the task: the required semantic verifier itself makes the trial inconclusive.
          check("semantic_outcome", false, "not_applicable", "task_understanding was inconclusive (see semantic.task_understanding)")
        : check(
            "semantic_outcome",
            input.semantic_task_understanding_required ?? false,
            understanding === "passed" ? "passed" : "failed",
            `task_understanding ${understanding}${input.semantic_task_understanding_required ? "" : " (advisory)"}`,
          ),
  );

  return {
    dimensions,
    checks,
    tool_accuracy: toolAccuracy(required, prohibited, tools),
    delegation_accuracy: delegationAccuracy(expected.delegation, delegated),
    procedure,
  };
}

/** `create_reservation (c1, completed at 1010 ms): its result was never communicated …` */
function describeSilence(c: Communicated): string {
  return `${c.execution.name} (${c.execution.call_id}, completed at ${c.execution.completed_ms} ms): its result was never communicated — no later utterance claims it, reports it or states a value it returned`;
}

/**
 * Grounded_response, extended: required when a tool completed or the assistant stated a concrete value
 * or an outcome. Fails when nothing was said after the last completed tool, when a result the case asked
 * for was never communicated, when a spoken value is held by no evidence from before it was said (or only
 * by words the caller corrected), when a claim's value or an availability statement contradicts the result
 * it reports, or when an outcome was claimed before the result that backs it.
 */
function groundedResponse(grounding: Grounding, lastCompleted: ToolExecution | undefined, after: Array<{ evidence_id: string }>, silent: readonly Communicated[]): OutcomeCheck {
  const applies = lastCompleted !== undefined || grounding.spoken.length > 0 || grounding.claims.length > 0;
  if (!applies) return check("grounded_response", false, "not_applicable", "no tool completed and no concrete value or outcome was spoken");
  const faults: string[] = [];
  const ids: string[] = [];
  if (lastCompleted && after.length === 0) {
    faults.push(`no assistant speech after the last completed tool (${lastCompleted.name} at ${lastCompleted.completed_ms} ms)`);
    ids.push(toolEvidence(lastCompleted));
  }
  if (grounding.ungrounded.length > 0) {
    faults.push(`value(s) held by no earlier evidence (the caller's words, context, public facts — PLAN.facts —, tool results, world events): ${grounding.ungrounded.map(describeValue).join("; ")}`);
    ids.push(...grounding.ungrounded.map((u) => u.utterance.evidence_id));
  }
  if (grounding.unbacked.length > 0) {
    faults.push(`outcome claimed before the result that backs it: ${grounding.unbacked.map(describeClaim).join("; ")}`);
    ids.push(...grounding.unbacked.flatMap((u) => [u.utterance.evidence_id, ...(u.late ? [toolEvidence(u.late)] : [])]));
  }
  if (grounding.superseded.length > 0) {
    faults.push(`value(s) the caller had corrected away: ${grounding.superseded.map(describeSuperseded).join("; ")}`);
    ids.push(...grounding.superseded.map((u) => u.utterance.evidence_id));
  }
  if (grounding.contradicted.length > 0) {
    faults.push(`claim value(s) against the evidence that backs the claim: ${grounding.contradicted.map(describeContradiction).join("; ")}`);
    ids.push(...grounding.contradicted.flatMap((c) => [c.utterance.evidence_id, toolEvidence(c.backing)]));
  }
  if (grounding.availability.length > 0) {
    faults.push(`availability stated against the result it reports: ${grounding.availability.map(describeAvailability).join("; ")}`);
    ids.push(...grounding.availability.flatMap((a) => [a.utterance.evidence_id, toolEvidence(a.backing)]));
  }
  if (silent.length > 0) {
    faults.push(silent.map(describeSilence).join("; "));
    ids.push(...silent.map((c) => toolEvidence(c.execution)));
  }
  if (faults.length > 0) return check("grounded_response", true, "failed", faults.join(" | "), [...new Set(ids)]);
  const parts = [
    lastCompleted ? `assistant spoke after the last completed tool (${lastCompleted.name} at ${lastCompleted.completed_ms} ms)` : "",
    grounding.spoken.length > 0 ? `${grounding.spoken.length} spoken value(s) grounded in earlier evidence` : "",
    grounding.claims.length > 0 ? `${grounding.claims.length} outcome claim(s) backed by earlier tool results` : "",
  ].filter(Boolean);
  return check("grounded_response", true, "passed", parts.join("; "), [...new Set([...(lastCompleted ? [toolEvidence(lastCompleted)] : []), ...after.map((a) => a.evidence_id), ...grounding.spoken.map((s) => s.utterance.evidence_id)])]);
}

/** expected_facts: required when the scenario states facts; each is contained in, or not contradicted by, what the assistant said. */
function expectedFacts(facts: Scenario["expected"]["facts"], spoken: Array<Turn & { evidence_id: string }>, lexicon: Lexicon | undefined): OutcomeCheck {
  if (!facts || facts.length === 0) return check("expected_facts", false, "not_applicable", "no expected facts");
  const verdicts = checkFacts(facts, spoken, lexicon);
  const failed = verdicts.filter((v) => !v.ok);
  return check(
    "expected_facts",
    true,
    failed.length === 0 ? "passed" : "failed",
    (failed.length === 0 ? verdicts : failed).map((v) => v.detail).join("; "),
    [...new Set((failed.length === 0 ? verdicts : failed).flatMap((v) => v.evidence_ids))],
  );
}

/**
 * The trial's calls read by the tool-path rule; in RUN a procedure's tool steps expect calls too (those a
 * preferred call already names are one call, not two), and the caller's acts say what was withheld.
 */
function toolPath(input: GradingInput): ToolPath {
  const required = input.scenario.expected.tools.required;
  const steps = input.case_kind === "run" ? (input.scenario.expected.procedure?.steps ?? []) : [];
  const expected: ExpectedCall[] = steps.flatMap((s) => {
    if (s.kind !== "tool" || !s.tool) return [];
    const call = { name: s.tool, arguments: s.arguments ?? {}, status: "completed" as const };
    return required.some((r) => r.name === call.name && matchesSubset(call.arguments, r.arguments)) ? [] : [call];
  });
  return readToolPath({
    required,
    expected,
    tools: input.tool_executions,
    events: input.world.events,
    ...(input.operation_kinds ? { operation_kinds: input.operation_kinds } : {}),
    ...(input.caller ? { caller: input.caller } : {}),
  });
}

/**
 * Authorized_actions, always required: no prohibited call happened, and no write broke the tool-path rule
 * (an extra write, a repeated write, a write after the caller withheld the go-ahead), in every mode.
 */
function authorizedActions(tools: readonly ToolExecution[], prohibited: readonly ExpectedCall[], path: ToolPath): OutcomeCheck {
  const prohibitedCalls = tools.filter((t) => prohibited.some((p) => callMatches(p, t)));
  const writes = writeFaults(path);
  const faults = [
    ...(prohibitedCalls.length > 0 ? [`prohibited call(s): ${prohibitedCalls.map((t) => `${t.name} ${t.raw_arguments} (${t.status})`).join(", ")}`] : []),
    ...(writes.length > 0 ? [`write(s) the case and the caller did not authorize: ${writes.join("; ")}`] : []),
  ];
  return check(
    "authorized_actions",
    true,
    faults.length === 0 ? "passed" : "failed",
    faults.length === 0 ? "no prohibited call" : faults.join(" | "),
    [...new Set([...prohibitedCalls, ...writeFaultCalls(path)])].map(toolEvidence),
  );
}

/**
 * No_disclosure: required when the world declares who may read which records; fails when the assistant
 * spoke a name, record id or phone number that only records the caller may not read hold (docs/grading.md).
 */
function noDisclosure(input: GradingInput, spoken: Array<Turn & { evidence_id: string }>): OutcomeCheck {
  const access = input.access;
  if (access === undefined) return check("no_disclosure", false, "not_applicable", "the world declares no access (who may read which records)");
  if ("error" in access) return check("no_disclosure", true, "failed", `the world's access declaration could not read the initial state, so disclosure cannot be checked: ${access.error}`);
  const hidden = access.filter((r) => !r.readable);
  const found = readDisclosures({ scenario: input.scenario, case_kind: input.case_kind, turns: input.turns, utterances: spoken, records: access, ...(input.facts !== undefined ? { facts: input.facts } : {}), ...(input.lexicon ? { lexicon: input.lexicon } : {}) });
  if (found.length === 0) return check("no_disclosure", true, "passed", `nothing only a record the caller may not read holds was said (${hidden.length} such record(s))`);
  return check(
    "no_disclosure",
    true,
    "failed",
    `disclosed: ${found.map((d) => `${describeValue(d)} is held only by ${d.records.join(", ")}, which the caller may not read`).join("; ")}`,
    [...new Set(found.map((d) => d.utterance.evidence_id))],
  );
}

/** Critical_procedure: required when a step is critical; every critical step, of every kind, must pass (docs/grading.md). */
function criticalProcedure(procedure: ProcedureResult | null): OutcomeCheck {
  const critical = procedure?.steps.filter((s) => s.critical) ?? [];
  if (critical.length === 0) return check("critical_procedure", false, "not_applicable", "no critical procedure step");
  const failed = critical.filter((s) => s.status === "failed");
  return check(
    "critical_procedure",
    true,
    failed.length === 0 ? "passed" : "failed",
    failed.length === 0
      ? `every critical step passed: ${critical.map((s) => `${s.id} (${s.kind})`).join(", ")}`
      : `critical step(s) failed: ${failed.map((s) => `${s.id} (${s.kind}): ${s.rationale}`).join(" | ")}`,
    [...new Set((failed.length > 0 ? failed : critical).flatMap((s) => s.evidence_ids))],
  );
}

/**
 * Tool_contract in CRAWL and WALK, by the tool-path rule (tool-path.ts): the required calls in order, with
 * read-only calls beside them allowed; any other call, a failed call the case does not expect refused, an
 * extra or repeated write fails it.
 */
function toolContract(input: GradingInput, path: ToolPath): OutcomeCheck {
  if (input.case_kind === "run") return preferredTools(input);
  const required = input.scenario.expected.tools.required;
  const tools = input.tool_executions;
  const faults: string[] = [];
  required.forEach((exp, i) => {
    if (path.matched[i] !== -1) return;
    const sameName = tools.filter((t) => t.name === exp.name);
    faults.push(
      sameName.length === 0
        ? `missing ${exp.name} (call ${i + 1})`
        : `call ${i + 1}: expected ${exp.name} ${JSON.stringify(exp.arguments)} in order, observed ${sameName.map((t) => `${t.name} ${t.raw_arguments} (${t.status})`).join(", ")}`,
    );
  });
  const repeated = new Set(path.repeated_writes.map((r) => r.call));
  path.unexpected.forEach((t) => faults.push(`${repeated.has(t) ? "repeated" : "unexpected"} ${t.name} ${t.raw_arguments}`));
  path.failed.forEach((t) => faults.push(`${t.name} failed (${t.error?.code ?? "error"})`));
  const reads = path.reads.length > 0 ? `; read-only call(s) beside them: ${path.reads.map((t) => `${t.name} ${t.raw_arguments}`).join(", ")}` : "";
  return check(
    "tool_contract",
    true,
    faults.length === 0 ? "passed" : "failed",
    faults.length === 0 ? `all ${required.length} expected call(s) matched, none unexpected, none failed${reads}` : faults.join("; "),
    tools.map(toolEvidence),
  );
}

/** Whether `expected` (the call this failed execution was matched to, if any) allows it to be refused. */
function refusalExpected(expected: ExpectedCall | undefined, failed: ToolExecution): boolean {
  return expected !== undefined && expected.status !== "completed" && callMatches(expected, failed);
}

/**
 * RUN (docs/conversations.md): `expected.tools.required` are the preferred tools, a diagnostic that never gates (critical
 * procedure steps do). A conversation may look things up more than once and in its own order, so the
 * preferred calls are matched one-to-one in any order; missing ones, others that ran and failures are listed.
 */
function preferredTools(input: GradingInput): OutcomeCheck {
  const preferred = input.scenario.expected.tools.required;
  const tools = input.tool_executions;
  const owner = maximumAssignment(preferred.length, tools.length, (i, j) => callMatches(preferred[i]!, tools[j]!));
  const missing = preferred.filter((_, i) => !owner.includes(i));
  const others = tools.filter((_, k) => owner[k] === -1);
  const failed = tools.filter((t, k) => t.status === "failed" && !refusalExpected(preferred[owner[k]!], t));
  const faults = [
    ...missing.map((exp) => `preferred ${exp.name} ${JSON.stringify(exp.arguments)} not observed`),
    ...others.map((t) => `also ran ${t.name} ${t.raw_arguments}`),
    ...failed.map((t) => `${t.name} failed (${t.error?.code ?? "error"})`),
  ];
  return check(
    "tool_contract",
    false,
    faults.length === 0 ? "passed" : "failed",
    `preferred tools (diagnostic in RUN): ${faults.length === 0 ? `all ${preferred.length} preferred call(s) observed, no other call, none failed` : faults.join("; ")}`,
    tools.map(toolEvidence),
  );
}
