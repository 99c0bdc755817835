/** The RUN driver: one full-duplex conversation between the target and the simulated caller, then grading. */

import { sha256 } from "../../provenance/digest";
import { callerScript } from "../../caller/script";
import { lexiconOf } from "../../language/vocabulary";
import type { CallerSession, CallerUtterance } from "../../caller/types";
import type { ConversationRecord } from "../../record/trial-record";
import { applyCondition, presetUsesBackground, presetUsesNonDirected, requirePreset, type ConditionOverrides } from "../../walk/conditions";
import { synthesizeBackgroundSpeaker, synthesizeNonDirectedUtterances } from "../../walk/condition-assets";
import { pcm16DurationMs, pcm16FromBytes, pcm16ToBytes } from "../../audio/pcm";
import type { ConversationSettings, TrialContext, TrialResult } from "../context";
import { StageError } from "../errors";
import { PendingWork } from "../pending-work";
import { closeSession } from "../stages/close";
import { untilComplete } from "../stages/completion";
import { judge } from "../stages/judge";
import { measure } from "../stages/measure";
import { draftRecord, finishRecord, type DeliveredInput } from "../stages/record";
import { startSession } from "../stages/session-start";
import { verify } from "../stages/verify";
import { setUpWorld } from "../stages/world-setup";
import { TrialState } from "../state";
import type { CompletionObserver } from "./completion-observer";
import { conversationDurationLimit, describeDurationLimit } from "./duration-limit";
import { ConversationRelay, DEFAULT_RELAY_SETTINGS, type RelayEnd } from "./relay";

/**
 * The RUN driver: one continuous full-duplex conversation between the target and a simulated caller
 * (docs/conversations.md). World setup → session start → caller start → the relay until the conversation is
 * over → close both → measure → verify → judge → record: the same stages as every driver, with the
 * relay as its input delivery and the conversation's own completion rule.
 */
export async function runConversationTrial(ctx: TrialContext): Promise<TrialResult> {
  const trial = new TrialState(ctx);
  const settings = ctx.conversation;
  const pending = new PendingWork();
  trial.observe(pending);
  const observer = settings?.observer?.();
  const goal = trial.scenario.simulation_parameters?.goal ?? "";
  // The case's own limit (declared, or derived from its agenda); the command line's overrides it.
  const limit = conversationDurationLimit(trial.scenario, settings?.max_duration_ms);
  const relay = new ConversationRelay(
    trial,
    {
      ...DEFAULT_RELAY_SETTINGS,
      opens: settings?.assistant_opening_prompt ? "assistant" : "caller",
      max_duration_ms: limit.ms,
      max_duration_source: describeDurationLimit(limit),
      ...(observer ? { observer: { observer, goal } } : {}),
      ...(settings?.onLine ? { onAssistantLine: (at_ms: number, text: string) => settings.onLine!({ trial_id: ctx.spec.trial_id, at_ms, speaker: "assistant", label: null, text }) } : {}),
    },
    pending,
  );
  trial.observe(relay);
  let caller: CallerSession | null = null;
  let callerDescription: Record<string, unknown> = {};
  let end: RelayEnd | null = null;

  await trial.live(async () => {
    if (!settings) throw new StageError("caller_simulation", new Error("RUN cases need a simulated caller: run them through `crashlab run` or pass `conversation` in the run options"));
    if (!ctx.target.accepts.includes("audio")) throw new StageError("respond", new Error(`target "${ctx.target_name}" takes text; RUN holds a spoken conversation`));
    setUpWorld(trial);
    const script = callerScript(trial.scenario, relay.opens, lexiconOf(trial.case.world));
    const simulated = settings.caller({ voice: script.persona.voice });
    callerDescription = simulated.describe();
    const assistantVoice = ctx.target.session().voice;
    if (simulated.voice.toLowerCase() === assistantVoice.toLowerCase())
      throw new StageError("caller_simulation", new Error(`the simulated caller's voice "${simulated.voice}" is the assistant's: give the persona (or --caller-voice) another voice, so the two sides can be told apart`));
    const session = await startSession(trial);
    let condition: (pcm: Uint8Array, index: number) => Uint8Array;
    try {
      condition = await callerCondition(settings.condition, trial.spec.seed);
    } catch (e) {
      throw new StageError("caller_simulation", e);
    }
    let spoken = 0;
    try {
      caller = await simulated.start(script, {
        clock: trial.clock,
        seed: trial.spec.seed,
        signal: trial.signal,
        log: (kind, data) => {
          trial.log("harness", `caller.${kind}`, data);
          if (!settings.onLine) return;
          // The offline caller knows its words and intent as it starts; the live one its words when it stops.
          const d = data as { text?: string; intent?: string; start_ms?: number; end_ms?: number };
          const line = { trial_id: ctx.spec.trial_id, speaker: "caller" as const, label: d.intent ?? null, text: d.text ?? "" };
          if (kind === "utterance.started" && d.text !== undefined) settings.onLine({ ...line, at_ms: d.start_ms ?? trial.clock.now() });
          else if (kind === "utterance.ended" && d.intent === undefined && d.text !== undefined) settings.onLine({ ...line, at_ms: d.end_ms ?? trial.clock.now() });
        },
        utteranceAudio: (utterance, pcm) => {
          const audio = condition(pcm, spoken++);
          // Offline only: the simulator has no recognizer, so it is told the words of these exact bytes.
          session.announceCallerAudio?.({ pcm: audio, text: utterance.text });
          return audio;
        },
      });
    } catch (e) {
      throw new StageError("caller_simulation", e);
    }
    if (settings.assistant_opening_prompt) session.open?.(settings.assistant_opening_prompt);
    const delivered = await untilComplete(trial, async () => {
      end = await relay.run(session, caller!);
      return end.ended === "complete" ? "complete" : "response_timeout";
    });
    if (delivered.ended === "target_fault") throw delivered.error;
    const finished = end as RelayEnd | null;
    // A conversation that never finished (time ran out, the assistant never opened) is the target's failure.
    if (finished && finished.ended !== "complete") trial.timeOut(finished.reason);
    trial.completed = delivered.ended === "complete";
    if (trial.worldFault) throw trial.worldFault;
    await caller.close();
    await closeSession(trial, session);
  });
  if (caller) await (caller as CallerSession).close().catch(() => undefined);

  const said = caller ? (caller as CallerSession).utterances() : [];
  const callerPcm = relay.callerPcm();
  const callerAudio = { pcm: callerPcm, start_ms: relay.start_ms };
  await trial.yieldToOtherSessions();
  const observed = await measure(trial, callerAudio, {
    assistant: relay.playback.placed(),
    conversation: {
      utterances: said.map((u) => ({ text: u.text, start_ms: u.start_ms, end_ms: u.end_ms ?? trial.clock.now() })),
      callerSpokeFirst: relay.opens === "caller",
      backchannels: trial.scenario.simulation_parameters?.persona.backchannels ?? [],
    },
  });
  await trial.yieldToOtherSessions();
  // The caller's own record of each line (its acts, what it heard) is structure the procedure reads.
  const verification = verify(trial, observed, said);
  await trial.yieldToOtherSessions();
  const input: DeliveredInput = { record: { kind: "simulated", sha256: sha256(callerPcm), duration_ms: pcm16DurationMs(callerPcm.length), caller: JSON.parse(JSON.stringify(callerDescription)) }, digest_input: callerPcm };
  const draft = draftRecord(trial, input, observed, verification);
  draft.conversation = conversationRecord(relay, end, caller, said, trial.error !== null, observer);
  const assessments = await judge(trial, draft, verification);
  await trial.yieldToOtherSessions();
  return finishRecord(trial, draft, assessments, observed, callerAudio);
}

function conversationRecord(relay: ConversationRelay, end: RelayEnd | null, caller: CallerSession | null, said: readonly CallerUtterance[], failed: boolean, observer: CompletionObserver | undefined): ConversationRecord {
  const stats = relay.stats();
  const progress = caller?.progress();
  return {
    opens: relay.opens,
    relay: stats,
    completion: {
      by: observer ? "observer" : "rule",
      ...(observer ? { observer: { model: observer.model, ...observer.usage } } : {}),
      ended: end ? end.ended : failed ? "failed" : "stopped",
      outcome: end?.ended === "complete" ? end.outcome : null,
      reason: end ? end.reason : failed ? "the conversation ended on an error" : "the conversation was stopped (a limit or a fault)",
      fired_ms: end?.ended === "complete" ? end.fired_ms : null,
    },
    agenda: progress?.agenda ?? [],
    utterances: said.map((u) => ({ text: u.text, intent: u.intent, agenda_item: u.agenda_item, start_ms: u.start_ms, end_ms: u.end_ms, ...(u.acts ? { acts: u.acts } : {}), ...(u.heard !== undefined ? { heard: u.heard } : {}) })),
  };
}

/** The caller-side acoustic condition (docs/audio-and-metrics.md), applied to each utterance with its own seed; none or clean → unchanged. */
async function callerCondition(condition: ConversationSettings["condition"], seed: number): Promise<(pcm: Uint8Array, index: number) => Uint8Array> {
  if (!condition || condition.preset === "clean") return (pcm) => pcm;
  const preset = requirePreset(condition.preset);
  const overrides = (condition.overrides ?? {}) as ConditionOverrides;
  const background = presetUsesBackground(preset) ? await synthesizeBackgroundSpeaker() : undefined;
  const nonDirected = presetUsesNonDirected(preset, overrides) ? await synthesizeNonDirectedUtterances() : undefined;
  return (pcm, index) =>
    pcm16ToBytes(
      applyCondition(pcm16FromBytes(pcm), { preset, seed: (seed + index * 7919) >>> 0, overrides, ...(background ? { background } : {}), ...(nonDirected ? { nonDirected } : {}) }).samples,
    );
}
