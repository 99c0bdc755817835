/** Delegated work still open (backend responses, delegations, tool calls), which every completion rule waits on. */

import type { AgentEvent } from "../target/types";
import type { HarnessToolEvent, TrialObserver } from "./state";

/**
 * Delegated work still open, from the events as they happen: backend responses, client delegations
 * without content yet, tool calls in flight, and managed (Responses) delegations whose tool output still
 * awaits its follow-up response (docs/audio-and-metrics.md: the delegation stays active until then). Every completion rule
 * waits for none to remain.
 */
export class PendingWork implements TrialObserver {
  private readonly openResponses = new Set<string>();
  private readonly openClientDelegations = new Set<string>();
  /** Client delegations whose service still owes its completion (it reports one, docs/remote-assistant.md). */
  private readonly awaitingCompletion = new Set<string>();
  private readonly openToolCalls = new Set<string>();
  private readonly awaitingFollowUp = new Map<string, number>();
  private readonly delegationTarget = new Map<string, "client" | "responses">();

  observe(e: AgentEvent): void {
    switch (e.type) {
      case "delegation.created":
        this.delegationTarget.set(e.delegation_id, e.target);
        if (e.target === "client") this.openClientDelegations.add(e.delegation_id);
        if (e.reports_completion) this.awaitingCompletion.add(e.delegation_id);
        break;
      case "delegation.content":
        this.openClientDelegations.delete(e.delegation_id);
        break;
      case "delegation.completed":
        this.awaitingCompletion.delete(e.delegation_id);
        break;
      case "backend.response":
        if (e.status === "created") this.openResponses.add(e.response_id);
        else {
          this.openResponses.delete(e.response_id);
          const waiting = this.awaitingFollowUp.get(e.delegation_id);
          if (waiting !== undefined && e.at_ms >= waiting) this.awaitingFollowUp.delete(e.delegation_id);
        }
        break;
    }
  }

  observeTool(e: HarnessToolEvent): void {
    if (e.type === "tool.requested") this.openToolCalls.add(e.call_id);
    else {
      this.openToolCalls.delete(e.call_id);
      if (e.delegation_id && this.delegationTarget.get(e.delegation_id) === "responses") this.awaitingFollowUp.set(e.delegation_id, e.at_ms);
    }
  }

  /** What is still open, in words (empty when nothing is). */
  waitingFor(): string[] {
    const waiting: string[] = [];
    if (this.openResponses.size) waiting.push(`${this.openResponses.size} backend response(s)`);
    if (this.openClientDelegations.size) waiting.push(`${this.openClientDelegations.size} client delegation(s)`);
    const uncompleted = [...this.awaitingCompletion].filter((id) => !this.openClientDelegations.has(id)).length;
    if (uncompleted) waiting.push(`the client-delegation service's completion of ${uncompleted} delegation(s)`);
    if (this.openToolCalls.size) waiting.push(`${this.openToolCalls.size} tool call(s)`);
    if (this.awaitingFollowUp.size) waiting.push("a follow-up response after tool output");
    return waiting;
  }
}
