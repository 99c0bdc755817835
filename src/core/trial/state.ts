/** The live state of one trial, shared by its stages and its driver until the record stage turns it into a record. */

import type { Scenario } from "../dataset/schema";
import type { Limits, LimitUsage, LoggedEvent, ToolExecution, TrialError } from "../record/trial-record";
import type { AgentEvent, TargetSession } from "../target/types";
import { RealClock, VirtualClock, type Clock } from "../time/clock";
import type { Json, World } from "../world/types";
import { AssistantTrack } from "./assistant-track";
import type { CaseDefinition, TrialSpec } from "./case";
import { DEFAULT_AUDIO, type AudioSettings, type TrialContext } from "./context";
import { LimitExceeded, StageError } from "./errors";
import { AudioFrameTally } from "./audio-frames";
import type { ReportedEvidence } from "./reported";

/** Harness-side tool activity (the target never reports these): a completion rule watches it too. */
export type HarnessToolEvent = { type: "tool.requested" | "tool.finished"; at_ms: number; call_id: string; delegation_id?: string };

/** Something that follows the session as it happens, such as a driver's completion rule. */
export interface TrialObserver {
  /** Every agent event, as the target emits it. */
  observe(event: AgentEvent): void;
  /** The harness's own tool activity, as each call is requested and finished. */
  observeTool(event: HarnessToolEvent): void;
}

/**
 * The live state of one trial, shared by its stages and by every driver: the clock, the event log,
 * limits and usage, the world, what the target emitted and what its tools did, the assistant's audio
 * track, and how the live part ended (an error, a limit hit, a world fault). Nothing here is a record:
 * the record stage turns it into one once the session is over.
 */
export class TrialState {
  readonly spec: TrialSpec;
  readonly case: CaseDefinition;
  readonly scenario: Scenario;
  readonly limits: Limits;
  readonly audio: AudioSettings;
  readonly wall: { start_ms: number; started_at: string };
  readonly clock: Clock;
  /** Harness, target and world events on the trial timeline: the record's `events`. */
  readonly events: LoggedEvent[] = [];
  /** Per-chunk audio events, counted instead of logged one by one; null with `log_audio_events`. */
  readonly audioFrames: AudioFrameTally | null;
  /** Every normalized event the target emitted, in order. */
  readonly agentEvents: AgentEvent[] = [];
  /** Every tool call, as the harness executed it against the world. */
  readonly tools: ToolExecution[] = [];
  readonly usage: LimitUsage = { time_ms: 0, turns: 0, tool_calls: 0, provider_requests: 0, exceeded: null };
  /** The assistant's audio as it arrives, placed on the timeline (docs/audio-and-metrics.md). */
  readonly assistant = new AssistantTrack();
  readonly observers: TrialObserver[] = [];
  world: World | null = null;
  /** What the target reported about its own tools and state, when it does (a client-delegation service); null: crashlab's world observed everything. */
  reported: ReportedEvidence | null = null;
  /** The target's session, once started. */
  session: TargetSession | null = null;
  /** The conversation ran to its end (the driver's completion rule held); the session may still fail to close. */
  completed = false;
  /** Why the trial is an infrastructure error, if it is. */
  error: TrialError | null = null;
  limitHit: LimitExceeded | null = null;
  /** The target never completed its response in time (docs/audio-and-metrics.md response timeout): the target's failure, not infrastructure. */
  timedOut: { message: string } | null = null;
  /** Failures after the outcome was already decided by the target's own failure (a close that failed after a limit hit): recorded beside it, never instead. */
  readonly cleanupErrors: TrialError[] = [];
  worldFault: StageError | null = null;
  /** Aborted for real stops only (a limit, a world fault): the target and the audio pacing watch it. */
  private readonly abort = new AbortController();

  constructor(readonly ctx: TrialContext) {
    this.spec = ctx.spec;
    this.case = ctx.spec.case;
    this.scenario = this.case.scenario;
    this.limits = ctx.limits;
    const start_ms = Date.now();
    this.wall = { start_ms, started_at: new Date(start_ms).toISOString() };
    this.clock = ctx.real_time ? new RealClock() : new VirtualClock();
    this.audio = ctx.audio ?? DEFAULT_AUDIO;
    this.audioFrames = ctx.log_audio_events ? null : new AudioFrameTally();
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** A limit was hit or the world failed: the session was told to stop. */
  get stopped(): boolean {
    return Boolean(this.limitHit || this.worldFault);
  }

  /** The target failed on its own (it hit a limit, or stayed silent past the response timeout): the trial is `failed` whatever happens after. */
  get targetFailed(): boolean {
    return Boolean(this.limitHit || this.timedOut);
  }

  /** The target did not complete its response in time: its failure, recorded with what was still awaited. */
  timeOut(message: string): void {
    this.timedOut ??= { message };
    this.log("harness", "response.timeout_failure", { message });
  }

  log(source: LoggedEvent["source"], type: string, data: Json): void {
    this.events.push({ at_ms: this.clock.now(), source, type, data });
  }

  /** The per-chunk audio events counted so far, logged as one `audio.frames` event per kind. */
  logAudioFrames(): void {
    for (const summary of this.audioFrames?.drain() ?? []) this.log("target", "audio.frames", { ...summary });
  }

  observe(observer: TrialObserver): void {
    this.observers.push(observer);
  }

  /** Record a limit hit (the first one counts) and stop the session; returns the error to throw. */
  exceed(limit: NonNullable<LimitUsage["exceeded"]>, value: number): LimitExceeded {
    const hit = new LimitExceeded(limit, value);
    if (!this.limitHit) {
      this.limitHit = hit;
      this.usage.exceeded = limit;
      this.log("harness", "limit.exceeded", { limit, value, configured: this.limits[limit] });
      this.abort.abort(hit);
    }
    return hit;
  }

  /** A bug in the world, not the target's doing: stop the session; the trial ends as infrastructure_error. */
  failWorld(fault: unknown): StageError {
    this.worldFault ??= new StageError("world", fault);
    this.abort.abort(this.worldFault);
    return this.worldFault;
  }

  /**
   * Real time: let the event loop run the timers that are due (other sessions' audio ticks) before the
   * next stage of grading. A trial's grading and recording are tens of milliseconds of CPU; done in one
   * piece they would make every other session's next 20 ms chunk late. Virtual time does not wait.
   */
  async yieldToOtherSessions(): Promise<void> {
    if (this.ctx.real_time) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /**
   * Run the live part of a trial (world, session, conversation, close). Whatever fails there ends the
   * trial as `infrastructure_error` at its stage instead of escaping; a session the conversation did not
   * finish is closed, best effort.
   */
  async live(body: () => Promise<void>): Promise<void> {
    try {
      this.log("harness", "trial.started", { trial_id: this.spec.trial_id, case_id: this.case.id, repetition: this.spec.repetition, seed: this.spec.seed, target: this.ctx.target_name });
      await body();
    } catch (e) {
      const stageError = e instanceof StageError ? e : new StageError("harness", e);
      this.error = { stage: stageError.stage, message: stageError.message };
      this.log("harness", "trial.error", this.error);
      if (this.session && !this.completed) await Promise.resolve(this.session.close()).catch(() => undefined);
    }
  }
}
