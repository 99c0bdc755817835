/**
 * The delegation backend: a caller turn the frontend hands off, either to the client (which answers
 * with `session.commentary.append`) or to the server-managed Responses backend simulated here, whose
 * function calls the client must answer before it continues.
 */
import type { ServerEventInput, SessionConfig } from "../live/protocol";
import type { AssistantPolicy, PolicyTools } from "../target/policy";
import { isRefusal } from "../target/types";
import type { Clock } from "../time/clock";
import { SIMULATED_BACKEND_MODEL } from "./description";
import type { Outbox } from "./outbox";
import type { Conversation } from "./start";
import type { SimulatedSessionStats } from "./stats";
import type { SimulatorTiming } from "./timing";
import { ResponseUsageMeter } from "./usage";

/** Where a session delegates: its start's setting (or update's), client by default. */
export function delegationTypeOf(config: SessionConfig): "client" | "responses" {
  return config.delegation?.type ?? "client";
}

/** What the session lends its backend. */
export interface BackendHost {
  readonly clock: Clock;
  readonly timing: SimulatorTiming;
  readonly policy: AssistantPolicy;
  readonly stats: SimulatedSessionStats;
  readonly outbox: Pick<Outbox, "send" | "error" | "nextEventId">;
  /** The backend model responses report in place of the requested one (a service answering with another model). */
  readonly reportedBackendModel?: string;
  /** The session's settings now (`session.update` may change the delegation's). */
  config(): SessionConfig;
  conversation(): Conversation;
  inputMs(): number;
  live(): boolean;
  speak(text: string, newTurn: boolean): void;
  internalError(error: unknown): void;
}

interface PendingCall {
  delegationId: string;
  responseId: string;
  output?: string;
}

interface Continuation {
  responseId: string;
  callIds: string[];
  resume: (outputs: string[]) => void;
  cancel: (error: Error) => void;
}

class SessionEnded extends Error {
  constructor() {
    super("the session ended");
  }
}

export class DelegationBackend {
  private readonly clientDelegations = new Set<string>();
  private readonly pendingCalls = new Map<string, PendingCall>();
  private readonly continuations: Continuation[] = [];
  private counters = { delegation: 0, response: 0, call: 0, item: 0 };

  constructor(private readonly host: BackendHost) {}

  /** Whether `delegationId` is a client delegation of this session (ids are valid only on the connection that made them). */
  isClientDelegation(delegationId: string): boolean {
    return this.clientDelegations.has(delegationId);
  }

  /** Hand the caller's request to the backend, after speaking the frontend's acknowledgement if it has one. */
  delegate(request: string, acknowledgement: string | undefined): void {
    const { host } = this;
    const target = delegationTypeOf(host.config());
    const delegationId = `dlg_${++this.counters.delegation}`;
    const responseId = target === "responses" ? this.nextResponseId() : undefined;
    host.stats.delegations.push({ id: delegationId, target });
    host.outbox.send({
      type: "session.delegation.created",
      event_id: host.outbox.nextEventId(),
      offset_ms: Math.round(host.inputMs()),
      delegation: { id: delegationId, type: "delegation", target, ...(responseId ? { response_id: responseId } : {}) },
    });
    if (acknowledgement) {
      host.conversation().turns.push({ role: "assistant", text: acknowledgement });
      host.speak(acknowledgement, false);
    }
    if (target === "client") {
      this.clientDelegations.add(delegationId);
      return;
    }
    this.runBackend(delegationId, responseId!, request).catch((error) => {
      if (!(error instanceof SessionEnded)) host.internalError(error);
    });
  }

  /** `response.item.create` with a function_call_output: the client's answer to one call. */
  onFunctionOutput(callId: string, output: string, clientEventId: string | undefined): void {
    const { outbox } = this.host;
    if (delegationTypeOf(this.host.config()) !== "responses") {
      outbox.error("invalid_value", "response.item.create is accepted only under Responses delegation", { param: "type", clientEventId });
      return;
    }
    const call = this.pendingCalls.get(callId);
    if (!call) {
      outbox.error("invalid_value", `unknown call_id "${callId}": no function call of this session is waiting for it`, { param: "item.call_id", clientEventId });
      return;
    }
    if (call.output !== undefined) {
      outbox.error("invalid_value", `call_id "${callId}" already has an output`, { param: "item.call_id", clientEventId });
      return;
    }
    call.output = output;
  }

  /** Another input item for the backend (a user message, …): the reference accepts it; the policy-driven backend has no use for it. */
  onOtherItem(clientEventId: string | undefined): void {
    if (delegationTypeOf(this.host.config()) !== "responses") this.host.outbox.error("invalid_value", "response.item.create is accepted only under Responses delegation", { param: "type", clientEventId });
  }

  /** `response.create`: continue the waiting response once every one of its calls has an output. */
  onResponseCreate(clientEventId: string | undefined): void {
    const { outbox } = this.host;
    if (delegationTypeOf(this.host.config()) !== "responses") {
      outbox.error("invalid_value", "response.create is accepted only under Responses delegation", { param: "type", clientEventId });
      return;
    }
    const continuation = this.continuations[0];
    if (!continuation) {
      outbox.error("invalid_value", "no backend response is waiting to be continued", { clientEventId });
      return;
    }
    const missing = continuation.callIds.filter((id) => this.pendingCalls.get(id)?.output === undefined);
    if (missing.length > 0) {
      outbox.error("function_call_outputs_required", `send a function_call_output (response.item.create) for ${missing.join(", ")} before response.create`, {
        clientEventId,
      });
      return;
    }
    this.continuations.shift();
    const outputs = continuation.callIds.map((id) => this.pendingCalls.get(id)!.output!);
    for (const id of continuation.callIds) this.pendingCalls.delete(id);
    continuation.resume(outputs);
  }

  /** The session ended: backend work waiting for the client stops. */
  cancel(): void {
    for (const continuation of this.continuations.splice(0)) continuation.cancel(new SessionEnded());
  }

  /** Responses delegation: the policy's backend as a sequence of streamed responses, one per tool round. */
  private async runBackend(delegationId: string, firstResponseId: string, request: string): Promise<void> {
    const { host } = this;
    const config = host.config();
    const conversation = host.conversation();
    const settings = config.delegation?.type === "responses" ? (config.delegation.responses ?? {}) : {};
    const model = host.reportedBackendModel ?? settings.model ?? SIMULATED_BACKEND_MODEL;
    const declared = new Set((settings.tools ?? []).flatMap((t) => (t.type === "function" && "name" in t ? [String(t.name)] : [])));
    const transcript = [...conversation.history, ...conversation.turns];
    const meter = new ResponseUsageMeter(`${settings.instructions ?? ""}${JSON.stringify(settings.tools ?? [])}${transcript.map((m) => m.text).join("\n")}`);
    let responseId = firstResponseId;
    let outputIndex = 0;
    const { clock, timing } = host;

    const emit = (event: Record<string, unknown>) =>
      host.outbox.send({ type: "response.event", event_id: host.outbox.nextEventId(), delegation_id: delegationId, event } as ServerEventInput);
    const open = () => {
      host.stats.responses++;
      outputIndex = 0;
      emit({ type: "response.created", response: { id: responseId, object: "response", status: "in_progress", model, output: [] } });
      const reasoning = { id: `rs_${++this.counters.item}`, type: "reasoning", summary: [] };
      emit({ type: "response.output_item.added", output_index: outputIndex, item: reasoning });
      emit({ type: "response.output_item.done", output_index: outputIndex++, item: reasoning });
    };
    const complete = (outputText: string) =>
      emit({ type: "response.completed", response: { id: responseId, object: "response", status: "completed", model, output: [], usage: meter.usage(outputText) } });

    open();
    const tools: PolicyTools = {
      call: async (name, args) => {
        await clock.sleep(timing.backendDelayMs);
        if (!host.live()) throw new SessionEnded();
        if (!declared.has(name)) {
          throw new Error(`the backend called "${name}", which session.delegation.responses.tools does not declare`);
        }
        const callId = `call_${++this.counters.call}`;
        const item = { id: `fc_${++this.counters.item}`, type: "function_call", call_id: callId, name };
        const argumentsJson = JSON.stringify(args);
        emit({ type: "response.output_item.added", output_index: outputIndex, item: { ...item, status: "in_progress", arguments: "" } });
        emit({ type: "response.output_item.done", output_index: outputIndex++, item: { ...item, status: "completed", arguments: argumentsJson } });
        complete(argumentsJson);
        host.stats.function_calls++;
        const [output] = await this.awaitOutputs(delegationId, responseId, [callId]);
        meter.read(output!);
        responseId = this.nextResponseId();
        open();
        // The wire carries no status: a refusal is known by its output, as the real backend would know it.
        const parsed = parseJsonOr(output!);
        return { status: isRefusal(parsed) ? "failed" : "completed", output: parsed };
      },
    };

    let reply: string;
    try {
      ({ reply } = await host.policy.backend({ request, context: { ...(conversation.summary ? { summary: conversation.summary } : {}), history: conversation.history }, transcript }, tools));
    } catch (error) {
      if (error instanceof SessionEnded || !host.live()) return;
      const message = error instanceof Error ? error.message : String(error);
      emit({ type: "response.failed", response: { id: responseId, object: "response", status: "failed", model, output: [], error: { code: "server_error", message } } });
      return;
    }
    await clock.sleep(timing.backendDelayMs);
    if (!host.live()) return;
    const messageId = `msg_${++this.counters.item}`;
    const index = outputIndex++;
    emit({ type: "response.output_item.added", output_index: index, item: { id: messageId, type: "message", role: "assistant", status: "in_progress", content: [] } });
    emit({ type: "response.output_text.delta", item_id: messageId, output_index: index, content_index: 0, delta: reply });
    emit({ type: "response.output_text.done", item_id: messageId, output_index: index, content_index: 0, text: reply });
    emit({
      type: "response.output_item.done",
      output_index: index,
      item: { id: messageId, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: reply }] },
    });
    complete(reply);
    // GPT-Live speaks the backend's result itself, as a new turn.
    conversation.turns.push({ role: "assistant", text: reply });
    host.speak(reply, true);
  }

  /** Wait for one function_call_output per call and then response.create. */
  private awaitOutputs(delegationId: string, responseId: string, callIds: string[]): Promise<string[]> {
    for (const id of callIds) this.pendingCalls.set(id, { delegationId, responseId });
    return new Promise((resume, cancel) => this.continuations.push({ responseId, callIds, resume, cancel }));
  }

  private nextResponseId(): string {
    return `resp_${++this.counters.response}`;
  }
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
