/** The harness side of a target's session: events logged, provider requests counted, tool calls run on the world. */

import type { ToolExecution } from "../record/trial-record";
import { refusalOutput, type AgentEvent, type ReportedToolCall, type SessionIO, type TargetReport, type ToolCallRequest, type ToolReply } from "../target/types";
import type { Json } from "../world/types";
import { ReportedEvidence } from "./reported";
import type { TrialState } from "./state";

/**
 * The harness side of a target's session: the only door from the target to the trial. Events go to the
 * log, the assistant track and the observers; provider requests are counted against the limit; tool
 * calls are executed against the world by the harness, which records each one.
 */
export function sessionIO(trial: TrialState): SessionIO {
  const authorized = new Set(trial.case.tools ?? Object.keys(trial.case.world.operations));
  const usedCallIds = new Set<string>();
  const { clock, usage, limits } = trial;
  /** The harness owns call ids in the record: a target cannot collide with or overwrite earlier evidence. */
  const ownCallId = (proposedId: unknown, fallback: string) => {
    const proposed = typeof proposedId === "string" && /^[A-Za-z0-9_.:-]{1,64}$/.test(proposedId) ? proposedId : "";
    const call_id = proposed && !usedCallIds.has(proposed) ? proposed : fallback;
    usedCallIds.add(call_id);
    return call_id;
  };
  /** Reported calls not finished yet, by the id the target gave them. */
  const openReports = new Map<string, { call_id: string; requested_ms: number }>();
  const countCall = () => {
    usage.tool_calls++;
    if (usage.tool_calls > limits.tool_calls) throw trial.exceed("tool_calls", usage.tool_calls);
  };
  const reportedCall = (call: ReportedToolCall) => {
    countCall();
    const opened = { call_id: ownCallId(call.call_id, `rcall_${usage.tool_calls}`), requested_ms: clock.now() };
    openReports.set(call.call_id, opened);
    for (const observer of trial.observers) observer.observeTool({ type: "tool.requested", at_ms: opened.requested_ms, call_id: opened.call_id, ...(call.delegation_id ? { delegation_id: call.delegation_id } : {}) });
    trial.log("target", "tool.reported", { phase: "called", call_id: opened.call_id, name: call.name, arguments: call.raw_arguments, ...(call.delegation_id ? { delegation_id: call.delegation_id } : {}) });
    return opened;
  };
  const report = (evidence: TargetReport) => {
    const reported = (trial.reported ??= new ReportedEvidence());
    if (evidence.kind === "session") {
      reported.session(evidence);
      trial.log("target", "session.reported", { initial_state: evidence.fixture, state_reported: evidence.application_state !== undefined });
      return;
    }
    if (evidence.kind === "tool.called") return void reportedCall(evidence);
    const opened = openReports.get(evidence.call_id) ?? reportedCall(evidence);
    openReports.delete(evidence.call_id);
    const delegation = evidence.delegation_id ? { delegation_id: evidence.delegation_id } : {};
    const execution: ToolExecution = {
      call_id: opened.call_id,
      name: evidence.name,
      arguments: evidence.arguments,
      raw_arguments: evidence.raw_arguments,
      status: evidence.status,
      ...(evidence.status === "completed" ? { output: evidence.output ?? null } : { error: evidence.error ?? { code: "tool_failed", message: "the tool failed" } }),
      requested_ms: opened.requested_ms,
      completed_ms: clock.now(),
      ...delegation,
      reported_by: "target",
    };
    trial.tools.push(execution);
    reported.result(execution, evidence.application_state);
    for (const observer of trial.observers) observer.observeTool({ type: "tool.finished", at_ms: execution.completed_ms, call_id: execution.call_id, ...delegation });
    trial.log("target", "tool.reported", { phase: evidence.status, call_id: execution.call_id, name: execution.name, ...(execution.error ? { error: execution.error } : { output: execution.output ?? null }), state_reported: evidence.application_state !== undefined });
  };
  return {
    clock,
    signal: trial.signal,
    emit(event) {
      trial.agentEvents.push(event);
      if (event.type === "audio.delta") trial.assistant.add(event.at_ms, event.pcm);
      for (const observer of trial.observers) observer.observe(event);
      if (!trial.audioFrames?.take(event)) trial.log("target", event.type, loggable(event));
    },
    countProviderRequest(kind) {
      usage.provider_requests++;
      if (usage.provider_requests > limits.provider_requests) throw trial.exceed("provider_requests", usage.provider_requests);
      trial.log("harness", "provider.request", { kind, count: usage.provider_requests });
    },
    async callTool(request: ToolCallRequest): Promise<ToolReply> {
      if (trial.signal.aborted) throw trial.signal.reason ?? new Error("trial aborted");
      countCall();
      const call_id = ownCallId(request.call_id, `hcall_${usage.tool_calls}`);
      const raw = typeof request.arguments === "string" ? request.arguments : JSON.stringify(request.arguments ?? {});
      let args: Record<string, Json> | null = null;
      try {
        const parsed: unknown = JSON.parse(raw);
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) args = parsed as Record<string, Json>;
      } catch {
        args = null;
      }
      const requested_ms = clock.now();
      const name = String(request.name);
      const delegation = request.delegation_id ? { delegation_id: String(request.delegation_id) } : {};
      for (const observer of trial.observers) observer.observeTool({ type: "tool.requested", at_ms: requested_ms, call_id, ...delegation });
      trial.log("harness", "tool.called", { call_id, name, arguments: raw, ...(request.delegation_id ? { delegation_id: request.delegation_id } : {}) });
      const execution: ToolExecution = { call_id, name, arguments: args, raw_arguments: raw, status: "failed", requested_ms, completed_ms: requested_ms, ...delegation };
      if (!authorized.has(name)) {
        execution.error = { code: "unknown_tool", message: `tool "${name}" is not available in this case` };
      } else {
        try {
          const outcome = trial.world!.perform(name, args ?? raw, { trial: trial.spec.trial_id, call_id, ...delegation });
          execution.world_seq = outcome.seq;
          if (outcome.outcome === "ok") {
            execution.status = "completed";
            execution.output = outcome.result ?? null;
          } else execution.error = { code: outcome.error!.code, message: outcome.error!.message };
        } catch (fault) {
          // A bug in the world, not the target's doing: end the trial as infrastructure_error.
          throw trial.failWorld(fault);
        }
      }
      execution.completed_ms = clock.now();
      trial.tools.push(execution);
      for (const observer of trial.observers) observer.observeTool({ type: "tool.finished", at_ms: execution.completed_ms, call_id, ...(execution.delegation_id ? { delegation_id: execution.delegation_id } : {}) });
      trial.log("harness", `tool.${execution.status}`, { call_id, name, ...(execution.error ? { error: execution.error } : { output: execution.output ?? null }) });
      const output = execution.status === "completed" ? JSON.stringify(execution.output ?? null) : refusalOutput(execution.error!);
      return { call_id, status: execution.status, output };
    },
    report,
    fixture() {
      const summary = trial.scenario.input.context?.summary;
      return {
        initial_state: structuredClone(trial.scenario.application.initial_state),
        seed: trial.spec.seed,
        session_label: trial.spec.trial_id,
        ...(summary !== undefined ? { context: { summary } } : {}),
      };
    },
  };
}

/** Strip what must not reach logs: audio payloads become their byte length. */
function loggable(event: AgentEvent): Json {
  if (event.type === "audio.delta") return { role: event.role, bytes: event.pcm.byteLength };
  if (event.type === "raw" && event.event && typeof event.event === "object" && !Array.isArray(event.event)) {
    const raw = { ...(event.event as Record<string, Json>) };
    for (const key of ["audio", "delta"] as const) {
      if (typeof raw[key] === "string" && /audio/.test(String(raw.type))) raw[key] = `[${Math.floor(((raw[key] as string).length * 3) / 4)} bytes removed]`;
    }
    return { direction: event.direction, event: raw };
  }
  const { type: _t, at_ms: _a, ...rest } = event;
  return JSON.parse(JSON.stringify(rest)) as Json;
}
