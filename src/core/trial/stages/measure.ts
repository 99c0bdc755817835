import type { Delegation, Turn } from "../../record/trial-record";
import type { AgentEvent } from "../../target/types";
import { groupTranscript, type PlacedAssistantAudio } from "../../timeline/turns";
import type { Json, JsonPatch, WorldEvent } from "../../world/types";
import { audioMetrics } from "../audio-metrics";
import type { CallerAudio } from "../context";
import { errorMessage } from "../errors";
import type { TrialState } from "../state";
import { transcriptFragments } from "../transcript";
import type { CallerUtterance as CallerUtteranceWindow } from "../../timeline/segments";

/** What happened in a trial, measured once the session is over: what grading and the record read. */
export interface Observation {
  /** When observation ended, on the trial timeline. */
  end_ms: number;
  turns: Turn[];
  delegations: Delegation[];
  world: { initial: Json; final: Json; view: Record<string, Json>; events: WorldEvent[]; diff: JsonPatch[] };
  /** Whether the conversation ran to completion, and if not, why (§5 `conversation_completed`). */
  completed: boolean;
  completion_note: string;
  /** The assistant's audio placed on the timeline; null without caller audio (text-level targets). */
  placed: PlacedAssistantAudio | null;
  /** §4 interaction metrics; null for text-level targets, or when computing them failed. */
  audio: Record<string, Json> | null;
}

/**
 * Measure: turns, usage (and the turn limit), delegations, the world's final state, and the §4 audio
 * metrics from the two tracks. Metrics come from the audio and events captured, also when the trial
 * ended early; a failure to compute them is the harness's, recorded at stage "metrics" rather than lost.
 * Whether the conversation completed is settled before that, from the live part alone.
 */
export interface MeasureOptions {
  /** The assistant channel as the caller heard it (RUN's playback), instead of the §2 placement of what arrived. */
  assistant?: PlacedAssistantAudio;
  /** The caller's utterances with their actions (RUN), instead of one SPEAK utterance owning all caller audio. */
  callerUtterances?: readonly CallerUtteranceWindow[];
}

export async function measure(trial: TrialState, caller: CallerAudio | null, options: MeasureOptions = {}): Promise<Observation> {
  const { clock, usage, limits, world } = trial;
  const end_ms = clock.now();
  usage.time_ms = end_ms;
  const turns: Turn[] = groupTranscript(transcriptFragments(trial.agentEvents)).turns;
  usage.turns = turns.filter((t) => t.role === "assistant").length;
  if (!trial.limitHit && usage.turns > limits.turns) trial.exceed("turns", usage.turns);
  const delegations = collectDelegations(trial.agentEvents);
  const observed = {
    initial: (world?.initial ?? {}) as Json,
    final: (world?.state() ?? {}) as Json,
    events: world ? [...world.events()] : [],
    diff: world ? world.diff() : [],
    view: (world ? world.view() : {}) as Record<string, Json>,
  };
  const error = trial.error;
  const completion_note = trial.limitHit ? `stopped: ${trial.limitHit.message}` : trial.timedOut ? trial.timedOut.message : error ? `${error.stage}: ${error.message}` : "completed";
  const completed = trial.completed && !trial.limitHit && !error;

  const placed = caller ? (options.assistant ?? trial.assistant.place()) : null;
  let audio: Record<string, Json> | null = null;
  if (caller && placed) {
    try {
      audio = await audioMetrics({
        detector: trial.ctx.speech_detector ?? "rms",
        callerPcm: caller.pcm,
        callerStartMs: caller.start_ms,
        assistant: placed,
        agentEvents: trial.agentEvents,
        tools: trial.tools,
        turns,
        observationEndMs: end_ms,
        ...(options.callerUtterances ? { callerUtterances: options.callerUtterances } : {}),
        ...(trial.ctx.response_deadline_ms !== undefined ? { deadlineMs: trial.ctx.response_deadline_ms } : {}),
      });
    } catch (e) {
      trial.error ??= { stage: "metrics", message: errorMessage(e) };
      trial.log("harness", "metrics.error", { message: errorMessage(e) });
    }
  }
  return { end_ms, turns, delegations, world: observed, completed, completion_note, placed, audio };
}

function collectDelegations(events: readonly AgentEvent[]): Delegation[] {
  const byId = new Map<string, Delegation>();
  for (const e of events) {
    if (e.type === "delegation.created" && !byId.has(e.delegation_id))
      byId.set(e.delegation_id, { delegation_id: e.delegation_id, target: e.target, created_ms: e.at_ms });
    else if (e.type === "delegation.content") {
      const d = byId.get(e.delegation_id);
      if (d && d.content_ms === undefined) d.content_ms = e.at_ms;
    } else if (e.type === "delegation.completed") {
      const d = byId.get(e.delegation_id);
      if (d) d.completed_ms = e.at_ms;
    }
  }
  return [...byId.values()];
}
