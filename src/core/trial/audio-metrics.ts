/** A trial's interaction metrics from its audio and events: single turn, or a RUN conversation with labelled caller actions. */

import { speechIntervals } from "../audio/speech";
import { loadWebrtcVad, webrtcDetectorName } from "../walk/webrtc-vad";
import type { AgentEvent, TokenUsage } from "../target/types";
import { delegationActivity, type DelegationLifecycleEvent } from "../timeline/delegation";
import { computeInteractionMetrics } from "../timeline/metrics";
import { callerAnnotations, labelCallerActions, type LabelledCallerUtterance, type RecordedCallerUtterance } from "../timeline/caller-actions";
import type { Interval } from "../timeline/intervals";
import { type CallerSegment, callerSegments, type CallerUtterance } from "../timeline/segments";
import type { PlacedAssistantAudio } from "../timeline/turns";
import type { Json } from "../world/types";
import { conversationTracks } from "../timeline/conversation";
import type { ToolExecution, Turn } from "../record/trial-record";

const RATE = 24_000;

/** Which detector turns audio into voiced intervals: the RMS rule (default) or WebRTC VAD. */
export type SpeechDetector = "rms" | "webrtc";

export interface AudioMetricsInput {
  detector?: SpeechDetector;
  callerPcm: Uint8Array;
  callerStartMs: number;
  assistant: PlacedAssistantAudio;
  agentEvents: readonly AgentEvent[];
  tools: readonly ToolExecution[];
  turns: readonly Turn[];
  observationEndMs: number;
  /** The caller's utterances with their actions and windows (RUN); default one SPEAK utterance owning all caller audio. */
  callerUtterances?: readonly CallerUtterance[];
  /** The response-latency check's deadline (an answer later is late); default 5000 ms. */
  response_deadline_ms?: number;
}

/** The delegation lifecycle of docs/audio-and-metrics.md, from the normalized events and the harness's own tool records. */
export function delegationLifecycle(events: readonly AgentEvent[], tools: readonly ToolExecution[]): DelegationLifecycleEvent[] {
  const out: Array<DelegationLifecycleEvent & { order: number }> = [];
  let order = 0;
  for (const e of events) {
    if (e.type === "delegation.created")
      out.push({ kind: "delegation_created", at_ms: e.at_ms, delegation_id: e.delegation_id, target: e.target, ...(e.response_id ? { response_id: e.response_id } : {}), order: order++ });
    else if (e.type === "backend.response")
      out.push({ kind: e.status === "created" ? "backend_response_created" : "backend_response_completed", at_ms: e.at_ms, delegation_id: e.delegation_id, response_id: e.response_id, order: order++ });
    else if (e.type === "delegation.content") out.push({ kind: "client_content_delivered", at_ms: e.at_ms, delegation_id: e.delegation_id, order: order++ });
  }
  for (const t of tools) {
    if (!t.delegation_id) continue;
    out.push({ kind: "tool_call_requested", at_ms: t.requested_ms, delegation_id: t.delegation_id, call_id: t.call_id, order: order++ });
    out.push({ kind: "tool_call_completed", at_ms: t.completed_ms, delegation_id: t.delegation_id, call_id: t.call_id, order: order++ });
  }
  const known = new Set(out.filter((e) => e.kind === "delegation_created").map((e) => e.delegation_id));
  return out
    .filter((e) => known.has(e.delegation_id))
    .sort((a, b) => a.at_ms - b.at_ms || a.order - b.order)
    .map(({ order: _o, ...e }) => e as DelegationLifecycleEvent);
}

/** The two tracks' voiced intervals, by the chosen detector, and the detector's name for the results. */
async function voicedTracks(input: AudioMetricsInput) {
  const tracks = conversationTracks({ input_pcm: input.callerPcm, caller_start_ms: input.callerStartMs, sample_rate: RATE, assistant: input.assistant });
  const webrtc = input.detector === "webrtc" ? await loadWebrtcVad() : null;
  const detect = (samples: Int16Array) => (webrtc ? webrtc.speechIntervals(samples, RATE) : speechIntervals(samples, RATE));
  // Results say which detector produced the timeline, so figures from different detectors are never mixed up.
  return { callerVoiced: detect(tracks.caller), assistantVoiced: detect(tracks.assistant), speech_detector: webrtc ? webrtcDetectorName() : "rms>=220/20ms" };
}

function interactionMetrics(input: AudioMetricsInput, caller: CallerSegment[], assistantVoiced: Interval[], speech_detector: string): Record<string, Json> {
  const delegations = delegationActivity(delegationLifecycle(input.agentEvents, input.tools), input.observationEndMs);
  const metrics = computeInteractionMetrics({
    caller,
    assistantVoiced,
    assistantTurns: input.turns.filter((t) => t.role === "assistant").map((t) => ({ start_ms: t.start_ms, end_ms: t.end_ms })),
    delegations,
    observationEndMs: input.observationEndMs,
    ...(input.response_deadline_ms !== undefined ? { response_deadline_ms: input.response_deadline_ms } : {}),
  });
  return JSON.parse(JSON.stringify({ ...metrics, speech_detector })) as Record<string, Json>;
}

/** Interaction metrics computed from the audio and events alone (single turn: one SPEAK utterance owning all caller audio) (docs/audio-and-metrics.md). */
export async function audioMetrics(input: AudioMetricsInput): Promise<Record<string, Json>> {
  const { callerVoiced, assistantVoiced, speech_detector } = await voicedTracks(input);
  return interactionMetrics(input, callerSegments(input.callerUtterances ?? [{ action: "SPEAK" }], callerVoiced), assistantVoiced, speech_detector);
}

/** What the RUN caller said, for labelling its utterances after the fact (timeline/caller-actions.ts). */
export interface ConversationCaller {
  /** The caller's utterances in time order, each with the window of its audio on the caller track. */
  utterances: readonly RecordedCallerUtterance[];
  callerSpokeFirst: boolean;
  /** `persona.backchannels`. */
  backchannels: readonly string[];
}

/**
 * Interaction metrics for a RUN conversation, with the caller's actions inferred from the recording
 * (docs/conversations.md): each caller utterance is labelled OPENING/SPEAK/BACKCHANNEL/INTERRUPT/STOP on the detected
 * voiced audio of both tracks, and the labelled segments drive response, yield and backchannel metrics.
 * Returns the labels too, for the record's user turns (`callerTurns`).
 */
export async function conversationAudioMetrics(input: AudioMetricsInput & { caller: ConversationCaller }): Promise<{ audio: Record<string, Json>; labelled: LabelledCallerUtterance[] }> {
  const { callerVoiced, assistantVoiced, speech_detector } = await voicedTracks(input);
  const labelled = labelCallerActions({ ...input.caller, assistantVoiced, callerVoiced });
  const audio = interactionMetrics(input, callerSegments(callerAnnotations(labelled), callerVoiced), assistantVoiced, speech_detector);
  return { audio, labelled };
}

/** Backend token usage summed over completed backend responses, and per model (the model each response named; `unknown` when none). */
export function backendUsage(events: readonly AgentEvent[]): (TokenUsage & { per_model: Record<string, TokenUsage> }) | null {
  const perModel = new Map<string, TokenUsage>();
  for (const e of events) {
    if (e.type !== "backend.response" || !e.usage) continue;
    const key = e.model ?? "unknown";
    perModel.set(key, addUsage(perModel.get(key), e.usage));
  }
  if (perModel.size === 0) return null;
  const total = [...perModel.values()].reduce<TokenUsage | undefined>((acc, u) => addUsage(acc, u), undefined)!;
  // Always by model, one model included: a run's totals can then be read per model without guessing.
  return { ...total, per_model: Object.fromEntries(perModel) };
}

function addUsage(a: TokenUsage | undefined, b: TokenUsage): TokenUsage {
  if (!a) return structuredClone(b);
  return {
    total: a.total + b.total,
    input: { cached: a.input.cached + b.input.cached, cache_write: a.input.cache_write + b.input.cache_write, text: a.input.text + b.input.text, audio: a.input.audio + b.input.audio },
    output: { text: a.output.text + b.output.text, audio: a.output.audio + b.output.audio, reasoning: a.output.reasoning + b.output.reasoning },
  };
}
