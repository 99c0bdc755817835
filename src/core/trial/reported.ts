/**
 * Evidence a target reported about itself (docs/remote-assistant.md): a client-delegation service's own tool
 * calls and state snapshots, kept apart from what crashlab's world observed, and turned into the world
 * grading reads once the session is over.
 */
import type { ToolExecution } from "../record/trial-record";
import type { TargetReport } from "../target/types";
import { toJson } from "../world/json";
import { reportedWorld, type ReportedCall, type ReportedWorld } from "../world/reported";
import type { Json, WorldDefinition } from "../world/types";

export class ReportedEvidence {
  /** Whether the service received the scenario's initial state. */
  fixture: Extract<TargetReport, { kind: "session" }>["fixture"] = "not_accepted";
  /** The state the service reported when it applied the scenario's initial state. */
  initial: Json | undefined;
  /** Every reported call with its result, in the order the results came. */
  readonly calls: ReportedCall[] = [];
  /** How many state snapshots the target reported. */
  snapshots = 0;

  session(report: Extract<TargetReport, { kind: "session" }>): void {
    this.fixture = report.fixture;
    if (report.application_state !== undefined) {
      this.initial = toJson(report.application_state);
      this.snapshots++;
    }
  }

  /** A finished call as it was recorded, with the state the target reported after it. */
  result(execution: ToolExecution, state: Json | undefined): void {
    if (state !== undefined) this.snapshots++;
    this.calls.push({
      call_id: execution.call_id,
      name: execution.name,
      args: execution.arguments ?? execution.raw_arguments,
      status: execution.status,
      ...(execution.output !== undefined ? { output: execution.output } : {}),
      ...(execution.error ? { error: execution.error } : {}),
      at_ms: execution.completed_ms,
      ...(execution.delegation_id ? { delegation_id: execution.delegation_id } : {}),
      ...(state !== undefined ? { state: toJson(state) } : {}),
    });
  }

  /**
   * The world grading reads: from the state the service reported at the start, else the scenario's initial
   * state as the package's world reads it (`ownInitial`). Each reported execution learns its event's seq.
   */
  world(definition: WorldDefinition, trial: string, ownInitial: Json, tools: readonly ToolExecution[]): ReportedWorld {
    const world = reportedWorld(definition, trial, this.initial ?? ownInitial, this.calls);
    const seqOf = new Map(world.events.map((e) => [e.cause.call_id, e.seq]));
    for (const t of tools) if (t.reported_by === "target" && seqOf.has(t.call_id)) t.world_seq = seqOf.get(t.call_id)!;
    return world;
  }

  summary(tools: readonly ToolExecution[]) {
    return { by: "target" as const, tool_calls: tools.filter((t) => t.reported_by === "target").length, state_snapshots: this.snapshots, initial_state: this.fixture };
  }
}
