/** The measure stage: turns, usage, delegations, the world's final state and the audio metrics, once the session is over. */

import type { Delegation, Turn } from "../../record/trial-record";
import type { AgentEvent } from "../../target/types";
import { groupTranscript, type PlacedAssistantAudio } from "../../timeline/turns";
import { toJson } from "../../world/json";
import type { Json, JsonPatch, WorldEvent } from "../../world/types";
import type { ReportedEvidence } from "../reported";
import { audioMetrics, conversationAudioMetrics, type ConversationCaller } from "../audio-metrics";
import type { CallerAudio } from "../context";
import { errorMessage } from "../errors";
import type { TrialState } from "../state";
import { transcriptFragments } from "../transcript";
import { callerTurns } from "../../timeline/caller-actions";

/** What happened in a trial, measured once the session is over: what grading and the record read. */
export interface Observation {
  /** When observation ended, on the trial timeline. */
  end_ms: number;
  turns: Turn[];
  delegations: Delegation[];
  /** `reported_by: "target"`: the state, events and diff are what the target reported (docs/grading.md), not crashlab's world. */
  world: { initial: Json; final: Json; view: Record<string, Json>; events: WorldEvent[]; diff: JsonPatch[]; reported_by?: "target" };
  /** Whether the conversation ran to completion, and if not, why (docs/grading.md `conversation_completed`). */
  completed: boolean;
  completion_note: string;
  /** The assistant's audio placed on the timeline; null without caller audio (text-level targets). */
  placed: PlacedAssistantAudio | null;
  /** Interaction metrics; null for text-level targets, or when computing them failed (docs/audio-and-metrics.md). */
  audio: Record<string, Json> | null;
}

/**
 * Measure: turns, usage (and the turn limit), delegations, the world's final state, and the audio
 * metrics from the two tracks. Metrics come from the audio and events captured, also when the trial
 * ended early; a failure to compute them is the harness's, recorded at stage "metrics" rather than lost.
 * Whether the conversation completed is settled before that, from the live part alone.
 */
export interface MeasureOptions {
  /** The assistant channel as the caller heard it (RUN's playback), instead of the placement of what arrived. */
  assistant?: PlacedAssistantAudio;
  /**
   * RUN: what the simulated caller said. Its utterances are labelled after the fact from the recording
   * (OPENING, SPEAK, BACKCHANNEL, INTERRUPT, STOP), drive the metrics, and are the record's user turns
   * (the caller's own words, not the target's recognition of them).
   */
  conversation?: ConversationCaller;
}

export async function measure(trial: TrialState, caller: CallerAudio | null, options: MeasureOptions = {}): Promise<Observation> {
  const { clock, usage, limits, world } = trial;
  const end_ms = clock.now();
  usage.time_ms = end_ms;
  let turns: Turn[] = groupTranscript(transcriptFragments(trial.agentEvents)).turns;
  usage.turns = turns.filter((t) => t.role === "assistant").length;
  if (!trial.limitHit && usage.turns > limits.turns) trial.exceed("turns", usage.turns);
  const delegations = collectDelegations(trial.agentEvents);
  const reported = trial.reported;
  const observed: Observation["world"] = reported
    ? { ...reportedState(trial, reported), reported_by: "target" }
    : {
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
    const input = {
      detector: trial.ctx.speech_detector ?? "rms",
      callerPcm: caller.pcm,
      callerStartMs: caller.start_ms,
      assistant: placed,
      agentEvents: trial.agentEvents,
      tools: trial.tools,
      turns,
      observationEndMs: end_ms,
      ...(trial.ctx.response_deadline_ms !== undefined ? { response_deadline_ms: trial.ctx.response_deadline_ms } : {}),
    } as const;
    try {
      if (options.conversation) {
        const measured = await conversationAudioMetrics({ ...input, caller: options.conversation });
        audio = measured.audio;
        // The caller's own words, labelled; ties put the caller first (the order evidence ids follow).
        const assistantTurns = turns.filter((t) => t.role === "assistant");
        turns = [...callerTurns(measured.labelled), ...assistantTurns].sort((a, b) => a.start_ms - b.start_ms || (a.role === b.role ? 0 : a.role === "user" ? -1 : 1));
      } else audio = await audioMetrics(input);
    } catch (e) {
      trial.error ??= { stage: "metrics", message: errorMessage(e) };
      trial.log("harness", "metrics.error", { message: errorMessage(e) });
    }
  }
  return { end_ms, turns, delegations, world: observed, completed, completion_note, placed, audio };
}

/** The world a target reported (its own calls and states), from the state it started in; the package's view, when it cannot read that state, is left empty and said. */
function reportedState(trial: TrialState, reported: ReportedEvidence): Omit<Observation["world"], "reported_by"> {
  const own = toJson(trial.world?.initial ?? trial.scenario.application.initial_state);
  const { view_error, ...world } = reported.world(trial.case.world, trial.spec.trial_id, own, trial.tools);
  if (view_error) trial.log("harness", "world.view_error", { message: `the package's world view could not read the state the target reported: ${view_error}` });
  return world;
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
