/**
 * A world as a target reported it (docs/remote-assistant.md): a client-delegation service executes its own
 * tools against its own state and reports each call with the state after it. Grading reads the same
 * shape as crashlab's own world gives — initial and final state, the package's view, one causal event per
 * call, the diff — each event marked as reported by the target.
 */
import jsonpatch from "fast-json-patch";
import { freezeJson, toJson } from "./json";
import type { Json, JsonPatch, WorldDefinition, WorldEvent } from "./types";

/** One call as the target reported it, with the state it reported after it (when it reported one). */
export interface ReportedCall {
  call_id: string;
  name: string;
  args: Json;
  status: "completed" | "failed";
  output?: Json;
  error?: { code: string; message: string };
  at_ms: number;
  delegation_id?: string;
  state?: Json;
}

export interface ReportedWorld {
  initial: Json;
  final: Json;
  view: Record<string, Json>;
  events: WorldEvent[];
  diff: JsonPatch[];
  /** Why the package's view could not be taken of the reported state, if it could not. */
  view_error?: string;
}

const compare = (a: Json, b: Json) => jsonpatch.compare(a as object, b as object) as JsonPatch[];

/**
 * The world from a target's reports. `initial` is the state the session started from (what the target
 * reported when it applied the scenario's initial state, else the scenario's as the package's world reads
 * it); each call's state becomes the next; a call without one changed nothing the target told. An
 * operation's kind is the package world's where it declares the tool, else what its patches show.
 */
export function reportedWorld(definition: WorldDefinition, trial: string, initial: Json, calls: readonly ReportedCall[]): ReportedWorld {
  let current = toJson(initial);
  const events: WorldEvent[] = calls.map((call, i) => {
    const next = call.state === undefined ? current : toJson(call.state);
    const patches = isContainer(current) && isContainer(next) ? compare(current, next) : [];
    current = next;
    const declared = Object.hasOwn(definition.operations, call.name) ? definition.operations[call.name]!.kind : undefined;
    const event: WorldEvent = {
      seq: i + 1,
      at_ms: call.at_ms,
      operation: call.name,
      kind: declared ?? (patches.length > 0 ? "write" : "read"),
      args: toJson(call.args),
      outcome: call.status === "completed" ? "ok" : "error",
      ...(call.status === "completed" ? { result: toJson(call.output ?? null) } : { error: { code: call.error?.code ?? "tool_failed", message: call.error?.message ?? "the tool failed" } }),
      patches,
      cause: { trial, ...(call.delegation_id ? { delegation_id: call.delegation_id } : {}), call_id: call.call_id },
      reported_by: "target",
    };
    return freezeJson(event as unknown as Json) as unknown as WorldEvent;
  });
  const start = toJson(initial);
  let view: Record<string, Json> = {};
  let view_error: string | undefined;
  // The package's view is written for its own world's state: a service reporting another shape gets none.
  try {
    view = toJson(definition.view?.(current as never, start as never) ?? {}) as Record<string, Json>;
  } catch (error) {
    view_error = (error as Error)?.message ?? String(error);
  }
  return { initial: start, final: current, view, events, diff: isContainer(start) && isContainer(current) ? compare(start, current) : [], ...(view_error ? { view_error } : {}) };
}

function isContainer(value: Json): boolean {
  return typeof value === "object" && value !== null;
}
