/** When a single-turn response is complete, inferred from what was observed (docs/audio-and-metrics.md). */

import type { AgentEvent } from "../../target/types";
import type { Interval } from "../../timeline/intervals";
import { groupTranscript, settleMs, type TranscriptFragment } from "../../timeline/turns";
import type { HarnessToolEvent, TrialObserver } from "../state";
import { PendingWork } from "../pending-work";
import { fragmentOf } from "../transcript";

/** Event types that do not count as "meaningful" for the quiet rule of docs/audio-and-metrics.md (silent audio is handled apart). */
const NOT_MEANINGFUL = new Set(["usage", "raw"]);

/**
 * Single-turn response completion, docs/audio-and-metrics.md. There is no turn-done event, so completion is
 * inferred from everything observed so far; `waitingFor(now)` lists the conditions that do not hold yet,
 * empty once the response is complete (and named in the timeout message otherwise).
 */
export class ResponseCompletion implements TrialObserver {
  private readonly settle: number;
  private callerEnd: number | null = null;
  private lastMeaningful = 0;
  private readonly pending = new PendingWork();
  /** When content from a delegation or backend response became available. */
  private readonly contentAt: number[] = [];
  private firstToolCompleted: number | null = null;
  /** Transcript fragments so far, kept as they arrive: the rule is evaluated on every 20 ms chunk. */
  private readonly fragments: TranscriptFragment[] = [];
  private lastAssistantFragmentAt = Number.NEGATIVE_INFINITY;
  /** Where the latest delegated result the service placed on its output timeline ends (trial clock). */
  private placedUntil = Number.NEGATIVE_INFINITY;

  constructor(
    chunkMs: number,
    private readonly assistantVoiced: () => readonly Interval[],
  ) {
    this.settle = settleMs(chunkMs);
  }

  callerFinished(at: number): void {
    this.callerEnd = at;
  }

  /** Feed every agent event as it is emitted. */
  observe(e: AgentEvent): void {
    if (!NOT_MEANINGFUL.has(e.type) && !(e.type === "audio.delta" && isSilent(e.pcm))) this.lastMeaningful = Math.max(this.lastMeaningful, e.at_ms);
    this.pending.observe(e);
    switch (e.type) {
      case "transcript.delta":
        this.fragments.push(fragmentOf(e));
        if (e.role === "assistant") this.lastAssistantFragmentAt = Math.max(this.lastAssistantFragmentAt, e.at_ms);
        break;
      case "delegation.content":
        this.contentAt.push(e.at_ms);
        break;
      case "backend.response":
        if (e.status === "completed") this.contentAt.push(e.at_ms);
        break;
      case "delegation.completed":
        if (e.placed_until_ms !== undefined) this.placedUntil = Math.max(this.placedUntil, e.placed_until_ms);
        break;
    }
  }

  observeTool(e: HarnessToolEvent): void {
    this.lastMeaningful = Math.max(this.lastMeaningful, e.at_ms);
    this.pending.observeTool(e);
    if (e.type === "tool.finished") this.firstToolCompleted ??= e.at_ms;
  }

  /**
   * Whether the response is complete at `now`, i.e. `waitingFor(now)` is empty. Asked on every 20 ms
   * chunk, so the conditions that cost nothing are tried first: until the caller's audio has ended and a
   * quiet period has passed, grouping the transcript (what waitingFor does every time) cannot change the answer.
   */
  complete(now: number): boolean {
    if (this.callerEnd === null || now < this.callerEnd || now < this.lastMeaningful + this.settle) return false;
    return this.waitingFor(now).length === 0;
  }

  /** What still blocks completion at `now` (empty when complete). */
  waitingFor(now: number): string[] {
    const waiting: string[] = [];
    if (this.callerEnd === null || now < this.callerEnd) waiting.push("caller audio");
    const voiced = this.assistantVoiced();
    const grouping = groupTranscript(this.fragments, { nowMs: now, settleMs: this.settle, voiced: { assistant: voiced } });
    const assistantTurns = grouping.turns.filter((t) => t.role === "assistant");
    if (assistantTurns.length === 0) waiting.push("an assistant turn");
    if (grouping.growing.some((t) => t.role === "assistant")) waiting.push("the assistant's transcript to settle");
    waiting.push(...this.pending.waitingFor());
    const latest = assistantTurns[assistantTurns.length - 1];
    const lastContent = this.contentAt.length ? Math.max(...this.contentAt) : null;
    if (lastContent !== null && (!latest || latest.start_ms <= lastContent)) waiting.push("an assistant turn that starts after the returned content");
    const lastSpeech = voiced.length ? voiced[voiced.length - 1]!.end_ms : null;
    if (lastSpeech !== null && now < lastSpeech + this.settle) waiting.push("a quiet tail after the assistant's speech");
    if (this.firstToolCompleted !== null && !(this.lastAssistantFragmentAt > this.firstToolCompleted))
      waiting.push("assistant transcript after the first tool completed");
    if (now < this.placedUntil) waiting.push("the delegated result's placed speech");
    if (now < this.lastMeaningful + this.settle) waiting.push("a quiet period without events");
    return waiting;
  }
}

function isSilent(pcm: Uint8Array): boolean {
  for (let i = 0; i < pcm.length; i++) if (pcm[i] !== 0) return false;
  return true;
}
