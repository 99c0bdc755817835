/**
 * The full-duplex relay of RUN: one media clock, 20 ms frames both ways at once, no floor controller.
 * Each tick the assistant's next playback frame goes to the caller and the caller's next frame goes to
 * the assistant; the caller hears the assistant's words as the protocol delivers them. Nobody waits for
 * anybody: both may talk at once, pause, interrupt or backchannel, and the timeline records it all.
 */
import { AudioPacer } from "../../audio/pacer";
import { pcm16FromBytes, pcm16ToBytes } from "../../audio/pcm";
import type { CallerSession } from "../../caller/types";
import type { AgentEvent, TargetSession } from "../../target/types";
import { StageError } from "../errors";
import type { PendingWork } from "../pending-work";
import type { HarnessToolEvent, TrialObserver, TrialState } from "../state";
import { PlaybackBuffer, type PlaybackStats } from "../../audio/playback";
import type { CompletionObserver } from "./completion-observer";

export interface RelaySettings {
  /** The conversation may last this long; past it the trial fails with `duration_limit` (see duration-limit.ts). */
  max_duration_ms: number;
  /** Where the limit came from, as the rationale states it (e.g. "170 s (derived from the case: 7 expected turns)"). */
  max_duration_source?: string;
  /** Who speaks first, and how long each side has to start. */
  opens: "caller" | "assistant";
  first_speech_deadline_ms: number;
  /** Quiet after the caller's closing (both sides silent, nothing pending) before the conversation counts as over. */
  quiet_tail_ms: number;
  /** At most this many target events wait for the next tick; more is an overflow (an infrastructure error). */
  queue_limit: number;
  /** Playback reserve for untimestamped assistant audio. */
  reserve_ms: number;
  /** Live: the completion observer decides when the call is over (the caller's goal is its context). */
  observer?: { observer: CompletionObserver; goal: string };
  /** Each assistant turn's words once its speech stops, with when it started (`--verbose` prints the conversation as it unfolds). */
  onAssistantLine?: (at_ms: number, text: string) => void;
}

export const DEFAULT_RELAY_SETTINGS: RelaySettings = {
  max_duration_ms: 90_000,
  opens: "caller",
  first_speech_deadline_ms: 10_000,
  quiet_tail_ms: 1_500,
  queue_limit: 10_000,
  reserve_ms: 400,
};

export interface RelayStats extends PlaybackStats {
  /** Caller frames sent. */
  caller_frames: number;
  lag_events: number;
  max_lag_ms: number;
  total_lag_ms: number;
  /**
   * How late each tick ran against its deadline, in whole milliseconds (floored): `[ms, ticks]` pairs in
   * ascending order, one tick per caller frame. Unlike `lag_events` it also counts a timer waking a little
   * late, so a lag percentile can be read from it. Virtual time: every tick on time, `[[0, caller_frames]]`.
   */
  tick_lag_histogram: [number, number][];
  /** Most target events waiting for one tick. */
  queue_max: number;
}

/** How the conversation ended, as the relay saw it. */
export type RelayEnd =
  | { ended: "complete"; outcome: "resolved" | "refused" | "unresolved" | null; reason: string; fired_ms: number }
  | { ended: "duration_limit"; reason: string }
  | { ended: "no_opening"; reason: string };

/** RMS of a 20 ms frame at or above this is voiced (docs/audio-and-metrics.md). */
const VOICED_RMS = 220;
/** The assistant counts as still speaking through pauses shorter than this. */
const SPEAKING_HANGOVER_MS = 300;

function rms(frame: Int16Array): number {
  let sum = 0;
  for (const s of frame) sum += s * s;
  return Math.sqrt(sum / Math.max(1, frame.length));
}

export class ConversationRelay implements TrialObserver {
  readonly playback: PlaybackBuffer;
  private readonly queue: AgentEvent[] = [];
  private queueMax = 0;
  private overflow = false;
  private readonly callerFrames: Uint8Array[] = [];
  private assistantSpeaking = false;
  private lastAssistantVoiced = Number.NEGATIVE_INFINITY;
  private lastCallerVoiced = Number.NEGATIVE_INFINITY;
  private assistantEverSpoke = false;
  private callerEverSpoke = false;
  /** What both sides said, line by line, for the completion observer. */
  private readonly lines: string[] = [];
  private assistantWords = "";
  private assistantTurnStart = 0;
  private callerLinesSeen = 0;
  /** Ticks per whole millisecond of lateness. */
  private readonly tickLag = new Map<number, number>();
  private stats_: Omit<RelayStats, keyof PlaybackStats> = { caller_frames: 0, lag_events: 0, max_lag_ms: 0, total_lag_ms: 0, tick_lag_histogram: [], queue_max: 0 };
  readonly start_ms: number;

  constructor(
    private readonly trial: TrialState,
    private readonly settings: RelaySettings,
    private readonly pending: PendingWork,
  ) {
    this.start_ms = trial.clock.now();
    this.playback = new PlaybackBuffer(this.start_ms, 480, settings.reserve_ms);
  }

  get opens(): "caller" | "assistant" {
    return this.settings.opens;
  }

  observe(e: AgentEvent): void {
    if (e.type !== "audio.delta" && !(e.type === "transcript.delta" && e.role === "assistant")) return;
    if (this.queue.length >= this.settings.queue_limit) {
      this.overflow = true;
      return;
    }
    this.queue.push(e);
    this.queueMax = Math.max(this.queueMax, this.queue.length);
  }

  observeTool(_e: HarnessToolEvent): void {}

  /** Run the conversation until it is over (the completion rule fired), time runs out, or a side fails. */
  async run(session: TargetSession, caller: CallerSession): Promise<RelayEnd> {
    const { trial, settings } = this;
    if (!session.sendAudio) throw new StageError("respond", new Error(`target "${trial.ctx.target_name}" takes audio but its session has no sendAudio()`));
    const send = session.sendAudio.bind(session);
    const pacer = new AudioPacer({
      clock: trial.clock,
      chunkMs: 20,
      stream: "relay",
      signal: trial.signal,
      onLag: (lag) => trial.log("harness", "audio.pacing_lag", { lag_ms: lag.lag_ms, chunk_ms: lag.chunk_ms, stream: lag.stream }),
    });
    const stop = new AbortController();
    let end: RelayEnd | null = null;
    const finish = (e: RelayEnd) => {
      end ??= e;
      stop.abort();
    };
    let failure: StageError | null = null;
    trial.log("harness", "relay.started", { opens: settings.opens, max_duration_ms: settings.max_duration_ms });
    await pacer.streamSilenceUntil(stop.signal, (_silence, timing) => {
      const t = this.start_ms + this.callerFrames.length * 20;
      try {
        this.tick(t, Math.max(0, Math.floor(timing.sent_ms - timing.due_ms)), send, caller);
      } catch (e) {
        failure = e instanceof StageError ? e : new StageError("relay", e);
        stop.abort();
        return;
      }
      const problem = caller.failure();
      if (problem) {
        failure = new StageError("caller_simulation", new Error(problem));
        stop.abort();
        return;
      }
      const elapsed = t + 20 - this.start_ms;
      // The caller's lines are copied when asked for, so this asks only until the caller has spoken.
      if (settings.opens === "caller" && !this.callerEverSpoke) this.callerEverSpoke = caller.utterances().length > 0;
      const opened = settings.opens === "caller" ? this.callerEverSpoke : this.assistantEverSpoke;
      if (!opened && elapsed >= settings.first_speech_deadline_ms) {
        if (settings.opens === "caller") failure = new StageError("caller_simulation", new Error(`the simulated caller did not start speaking within ${settings.first_speech_deadline_ms / 1000} s`));
        else finish({ ended: "no_opening", reason: `the assistant did not open the call within ${settings.first_speech_deadline_ms / 1000} s (assistant-first opening)` });
        if (failure) stop.abort();
        return;
      }
      const over = this.completed(t + 20, caller);
      if (over) return finish(over);
      if (elapsed >= settings.max_duration_ms) finish({ ended: "duration_limit", reason: `duration_limit: the conversation did not finish within ${settings.max_duration_source ?? `${settings.max_duration_ms / 1000} s`}` });
    });
    const pacing = pacer.stats();
    const tick_lag_histogram = [...this.tickLag].sort((a, b) => a[0] - b[0]);
    this.stats_ = { caller_frames: this.callerFrames.length, lag_events: pacing.lag_events, max_lag_ms: pacing.max_lag_ms, total_lag_ms: pacing.total_lag_ms, tick_lag_histogram, queue_max: this.queueMax };
    trial.log("harness", "relay.finished", { ...this.stats(), ended: end ? (end as RelayEnd).ended : "failed" });
    if (failure) throw failure;
    return end!;
  }

  /** One 20 ms tick at timeline time `t`, run `lateMs` after its deadline. */
  private tick(t: number, lateMs: number, send: (chunk: Uint8Array) => void, caller: CallerSession): void {
    if (this.overflow) throw new StageError("relay", new Error(`more than ${this.settings.queue_limit} target events waited for one relay tick: the relay cannot keep up`));
    for (const e of this.queue.splice(0)) {
      if (e.type === "audio.delta") this.playback.add(e.at_ms, e.pcm);
      else if (e.type === "transcript.delta") {
        caller.hearAssistantText(e.text, e.at_ms);
        this.assistantWords += e.text;
      }
    }
    const heard = this.playback.frame(t);
    caller.hear(pcm16ToBytes(heard), t);
    const voiced = rms(heard) >= VOICED_RMS;
    if (voiced) {
      this.lastAssistantVoiced = t + 20;
      this.assistantEverSpoke = true;
    }
    const speaking = voiced || t - this.lastAssistantVoiced < SPEAKING_HANGOVER_MS;
    if (speaking !== this.assistantSpeaking) {
      this.assistantSpeaking = speaking;
      if (speaking) this.assistantTurnStart = t;
      caller.hearAssistantSpeaking(speaking, t);
      if (!speaking && this.assistantWords.trim()) {
        this.lines.push(`ASSISTANT: ${this.assistantWords.trim()}`);
        this.settings.onAssistantLine?.(this.assistantTurnStart, this.assistantWords.trim());
        this.assistantWords = "";
      }
    }
    const frame = caller.speak(t);
    if (rms(pcm16FromBytes(frame)) >= VOICED_RMS) this.lastCallerVoiced = t + 20;
    this.callerFrames.push(frame);
    this.tickLag.set(lateMs, (this.tickLag.get(lateMs) ?? 0) + 1);
    send(frame);
  }

  /**
   * Completion. The rule (offline, or live with --no-semantic-drain): the caller said its closing words
   * (its goal met, or finally refused). Live: the completion observer says the call is over. Either way
   * the conversation then drains — no delegated work open, nothing waiting to play, both sides quiet for
   * the tail — before it ends. It never decides who speaks; it only says the conversation is over.
   */
  private completed(now: number, caller: CallerSession): RelayEnd | null {
    const progress = caller.progress();
    const observing = this.settings.observer;
    let verdict: { outcome: "resolved" | "refused" | "unresolved" | null; reason: string } | null = null;
    if (observing) {
      const ended = caller.utterances().filter((u) => u.end_ms !== null);
      for (const u of ended.slice(this.callerLinesSeen)) this.lines.push(`CALLER: ${u.text}`);
      this.callerLinesSeen = ended.length;
      observing.observer.consider(now, observing.goal, this.lines);
      const drained = observing.observer.drained();
      if (!drained) return null;
      verdict = { outcome: drained.outcome, reason: `the completion observer: ${drained.reason}` };
    } else {
      if (!progress.closing_said) return null;
      // A caller that cannot tell whether its goal was met (the live one) leaves the outcome open: the
      // rule saw a closing, not an outcome (grading decides what happened).
      const outcome = progress.finally_refused ? "refused" : progress.goal_met === null ? null : progress.goal_met ? "resolved" : "unresolved";
      verdict = { outcome, reason: `the caller closed the call (${outcome ?? "outcome not known to the rule"})` };
    }
    // Drain: remaining speech and delegated work finish, then both sides are quiet for the tail.
    if (progress.speaking || this.pending.waitingFor().length > 0 || this.playback.pendingMs > 0) return null;
    if (now - Math.max(this.lastAssistantVoiced, this.lastCallerVoiced) < this.settings.quiet_tail_ms) return null;
    return { ended: "complete", outcome: verdict.outcome, reason: `${verdict.reason}; both sides were quiet for ${this.settings.quiet_tail_ms / 1000} s with no work pending`, fired_ms: now };
  }

  stats(): RelayStats {
    return { ...this.playback.stats(), ...this.stats_ };
  }

  /** Every caller frame sent, in order from the relay's start: the caller channel. */
  callerPcm(): Uint8Array {
    const out = new Uint8Array(this.callerFrames.length * 960);
    this.callerFrames.forEach((f, i) => out.set(f, i * 960));
    return out;
  }
}

