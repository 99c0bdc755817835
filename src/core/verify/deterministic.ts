/** Deterministic grading (docs/grading.md): the dimensions, outcome checks, tool and delegation accuracy of a trial. */

import type { ExpectedCall, Scenario } from "../dataset/schema";
import type { Delegation, Dimension, ProcedureResult, ToolExecution, Turn } from "../record/trial-record";
import type { OutcomeCheck } from "../record/assessment";
import type { JsonPatch, WorldEvent } from "../world/types";
import { checkFacts, describeClaim, describeValue, readGrounding, type Grounding } from "./grounding";
import { callMatches, jsonEqual, matchesSubset, maximumAssignment, maximumMatching } from "./match";
import { gradeProcedure, type ProcedureCallerLine } from "./procedure";
import { matchState } from "./state";

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
  const grounding = readGrounding({ scenario, case_kind: input.case_kind, turns: input.turns, utterances: spoken, tool_executions: tools, events: input.world.events, ...(input.facts !== undefined ? { facts: input.facts } : {}) });
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
      after.length > 0
        ? dim("passed", `assistant spoke at ${after[0]!.start_ms} ms, after the tool completed at ${lastCompleted!.completed_ms} ms`, [toolEvidence(lastCompleted!), after[0]!.evidence_id])
        : dim("failed", "the assistant did not speak after the tool completed", toolIds);
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
  const prohibitedCalls = tools.filter((t) => prohibited.some((p) => callMatches(p, t)));
  checks.push(
    check(
      "authorized_actions",
      true,
      prohibitedCalls.length === 0 ? "passed" : "failed",
      prohibitedCalls.length === 0 ? "no prohibited call" : `prohibited call(s): ${prohibitedCalls.map((t) => `${t.name} ${t.raw_arguments} (${t.status})`).join(", ")}`,
      prohibitedCalls.map(toolEvidence),
    ),
  );
  const procedure = gradeProcedure(expected.procedure, { turns: input.turns, caller: input.caller, tool_executions: tools, world: input.world, prohibited });
  checks.push(criticalProcedure(procedure));
  checks.push(toolContract(input));
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
  checks.push(groundedResponse(grounding, lastCompleted, lastCompleted ? spokenAfter(lastCompleted) : []));
  checks.push(expectedFacts(expected.facts, spoken));
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

/**
 * Grounded_response, extended: required when a tool completed or the assistant stated a concrete value
 * or an outcome. Fails when nothing was said after the last completed tool, when a spoken value is held by
 * no evidence from before it was said, or when an outcome was claimed before the result that backs it.
 */
function groundedResponse(grounding: Grounding, lastCompleted: ToolExecution | undefined, after: Array<{ evidence_id: string }>): OutcomeCheck {
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
  if (faults.length > 0) return check("grounded_response", true, "failed", faults.join(" | "), [...new Set(ids)]);
  const parts = [
    lastCompleted ? `assistant spoke after the last completed tool (${lastCompleted.name} at ${lastCompleted.completed_ms} ms)` : "",
    grounding.spoken.length > 0 ? `${grounding.spoken.length} spoken value(s) grounded in earlier evidence` : "",
    grounding.claims.length > 0 ? `${grounding.claims.length} outcome claim(s) backed by earlier tool results` : "",
  ].filter(Boolean);
  return check("grounded_response", true, "passed", parts.join("; "), [...new Set([...(lastCompleted ? [toolEvidence(lastCompleted)] : []), ...after.map((a) => a.evidence_id), ...grounding.spoken.map((s) => s.utterance.evidence_id)])]);
}

/** expected_facts: required when the scenario states facts; each is contained in, or not contradicted by, what the assistant said. */
function expectedFacts(facts: Scenario["expected"]["facts"], spoken: Array<Turn & { evidence_id: string }>): OutcomeCheck {
  if (!facts || facts.length === 0) return check("expected_facts", false, "not_applicable", "no expected facts");
  const verdicts = checkFacts(facts, spoken);
  const failed = verdicts.filter((v) => !v.ok);
  return check(
    "expected_facts",
    true,
    failed.length === 0 ? "passed" : "failed",
    (failed.length === 0 ? verdicts : failed).map((v) => v.detail).join("; "),
    [...new Set((failed.length === 0 ? verdicts : failed).flatMap((v) => v.evidence_ids))],
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

function toolContract(input: GradingInput): OutcomeCheck {
  if (input.case_kind === "run") return preferredTools(input);
  const required = input.scenario.expected.tools.required;
  const tools = input.tool_executions;
  const faults: string[] = [];
  required.forEach((exp, i) => {
    const obs = tools[i];
    if (!obs) faults.push(`missing ${exp.name} (call ${i + 1})`);
    else if (!callMatches(exp, obs)) faults.push(`call ${i + 1}: expected ${exp.name} ${JSON.stringify(exp.arguments)}, observed ${obs.name} ${obs.raw_arguments} (${obs.status})`);
  });
  tools.slice(required.length).forEach((t) => faults.push(`unexpected ${t.name} ${t.raw_arguments}`));
  // A refusal the case expects (its expected call says "refused" or "any") is no fault; any other is.
  tools.filter((t, i) => t.status === "failed" && !refusalExpected(required[i], t)).forEach((t) => faults.push(`${t.name} failed (${t.error?.code ?? "error"})`));
  return check(
    "tool_contract",
    true,
    faults.length === 0 ? "passed" : "failed",
    faults.length === 0 ? `all ${required.length} expected call(s) matched, none unexpected, none failed` : faults.join("; "),
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
