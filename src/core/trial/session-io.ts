/** The harness side of a target's session: events logged, provider requests counted, tool calls run on the world. */

import type { ToolExecution } from "../record/trial-record";
import { refusalOutput, type AgentEvent, type SessionIO, type ToolCallRequest, type ToolReply } from "../target/types";
import type { Json } from "../world/types";
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
      usage.tool_calls++;
      if (usage.tool_calls > limits.tool_calls) throw trial.exceed("tool_calls", usage.tool_calls);
      // The harness owns call ids in the record: a target cannot collide with or overwrite earlier evidence.
      const proposed = typeof request.call_id === "string" && /^[A-Za-z0-9_.:-]{1,64}$/.test(request.call_id) ? request.call_id : "";
      const call_id = proposed && !usedCallIds.has(proposed) ? proposed : `hcall_${usage.tool_calls}`;
      usedCallIds.add(call_id);
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
