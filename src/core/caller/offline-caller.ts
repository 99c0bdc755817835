/**
 * The offline simulated caller: deterministic and agenda-driven. It hears the assistant only through
 * the assistant's words as the Live protocol delivers them (its output transcript) and whether its voice
 * is sounding; what it says is decided by ./agenda-follower from its reading of the assistant's turn
 * (./understanding): the agenda item whose moment has come, a yes to a go-ahead its goal wants, the next
 * item it owes or a request to repeat for a question it cannot place, interrupts or backchannels where the
 * agenda or persona says, and goodbye when its goal is met or finally refused. Each line it says carries its
 * acts and what it heard (the trial record keeps both). It speaks with an offline synthesizer (espeak-ng) in its persona's voice.
 *
 * It never decides who may speak: it simply talks, and the relay carries its audio to the assistant.
 */
import { chunkPcm } from "../audio/chunker";
import { concatPcm, pcm16ToBytes } from "../audio/pcm";
import type { Json } from "../world/types";
import { AgendaFollower, type CallerLine } from "./agenda-follower";
import { words } from "./triggers";
import type { CallerAct, CallerIntent, CallerIO, CallerProgress, CallerScript, CallerSession, CallerUtterance, HeardAsk, SimulatedCaller } from "./types";

/** What the caller speaks with (src/core/speech implements it). */
export interface CallerSynthesizer {
  readonly provider?: string;
  readonly model?: string;
  synthesize(text: string, options?: { signal?: AbortSignal }): Promise<{ samples: Int16Array; sampleRate: number }>;
}

export interface OfflineCallerOptions {
  /** A synthesizer speaking in the persona's voice (the factory gets the voice). */
  synthesizer: (voice: string) => CallerSynthesizer;
  /** The persona's voice (an OpenAI voice name, mapped to an espeak voice offline). */
  voice: string;
  timing?: Partial<OfflineCallerTiming>;
}

export interface OfflineCallerTiming {
  /** Quiet after the assistant's last words before its turn counts as finished. */
  settleMs: number;
  /** From deciding to speak until the first frame. */
  reactionMs: number;
  /** The caller opens this long after the session started. */
  openingDelayMs: number;
  /** A backchannel needs an assistant turn at least this many words long so far. */
  backchannelAfterWords: number;
}

export const DEFAULT_OFFLINE_CALLER_TIMING: OfflineCallerTiming = { settleMs: 700, reactionMs: 300, openingDelayMs: 300, backchannelAfterWords: 12 };

const FRAME_BYTES = 960;
const SILENCE = new Uint8Array(FRAME_BYTES);

export class OfflineCaller implements SimulatedCaller {
  readonly kind = "offline" as const;
  readonly voice: string;
  private readonly timing: OfflineCallerTiming;

  constructor(private readonly options: OfflineCallerOptions) {
    this.voice = options.voice;
    this.timing = { ...DEFAULT_OFFLINE_CALLER_TIMING, ...options.timing };
  }

  describe(): Record<string, Json> {
    const synth = this.options.synthesizer(this.voice);
    return { kind: "offline", voice: this.voice, speech: { provider: synth.provider ?? "unknown", model: synth.model ?? "" }, policy: "agenda-understanding@2" };
  }

  async start(script: CallerScript, io: CallerIO): Promise<CallerSession> {
    return new OfflineCallerSession(script, io, this.options.synthesizer(this.voice), this.timing);
  }
}

interface Pending {
  utterance: CallerUtterance;
  /** Ready once synthesized; frames then go out one per tick, not before `not_before_ms`. */
  frames: Uint8Array[] | null;
  not_before_ms: number;
}

/** mulberry32: a small seeded generator, so the caller's choices repeat exactly for one trial seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class OfflineCallerSession implements CallerSession {
  private readonly done = new Map<string, number>();
  private readonly said: CallerUtterance[] = [];
  private readonly queue: Pending[] = [];
  private current: { pending: Pending; index: number } | null = null;
  private assistantSpeaking = false;
  /** The assistant's words since its current turn began, and when it last said or sounded anything. */
  private turnText = "";
  private lastAssistantAt = Number.NEGATIVE_INFINITY;
  private backchannelThisTurn = false;
  /** The caller cut into the current assistant turn: its remaining words are not listened for. */
  private cutOff = false;
  private heardAnything = false;
  private openingSaid = false;
  private closingSaid = false;
  private problem: string | null = null;
  private closed = false;
  private readonly random: () => number;
  private readonly follower: AgendaFollower;

  constructor(
    private readonly script: CallerScript,
    private readonly io: CallerIO,
    private readonly synth: CallerSynthesizer,
    private readonly timing: OfflineCallerTiming,
  ) {
    this.random = seeded(io.seed ^ 0x5eed);
    this.follower = new AgendaFollower(script, (item) => {
      const at = io.clock.now();
      this.done.set(item.id, at);
      io.log("agenda.done", { id: item.id, action: item.action, at_ms: at });
    });
    if (script.opens === "caller") {
      this.openingSaid = true;
      this.sayLine(this.follower.opening(null), io.clock.now() + timing.openingDelayMs);
    }
  }

  hear(): void {
    // The offline caller understands the assistant through its words only (no recognizer ships offline).
  }

  hearAssistantText(text: string, at_ms: number): void {
    this.lastAssistantAt = Math.max(this.lastAssistantAt, at_ms);
    this.heardAnything = true;
    if (this.cutOff) return;
    this.turnText += ` ${text}`;
    if (this.closingSaid || !this.assistantSpeaking) return;
    // While the assistant is still talking: an interrupt whose moment has come, or a backchannel.
    if (this.speakingOrQueued()) return;
    const interrupt = this.follower.interruptAt(this.turnText);
    if (interrupt) {
      this.sayLine(interrupt, at_ms + this.timing.reactionMs / 2);
      // The cut-in is the caller's answer to this turn: the rest of it (words still arriving, or talked
      // straight through) must not draw a second reply. The assistant's next turn starts fresh.
      this.turnText = "";
      this.cutOff = true;
      return;
    }
    const explicit = this.follower.backchannelAt(this.turnText);
    if (explicit) {
      this.sayLine(explicit, at_ms);
      this.backchannelThisTurn = true;
      return;
    }
    if (!this.backchannelThisTurn && words(this.turnText).length >= this.timing.backchannelAfterWords) {
      this.backchannelThisTurn = true;
      const { backchannel_tendency, backchannels } = this.script.persona;
      if (backchannels.length > 0 && this.random() < backchannel_tendency) this.sayLine(this.follower.backchannel(backchannels[Math.floor(this.random() * backchannels.length)]!), at_ms);
    }
  }

  hearAssistantSpeaking(speaking: boolean, at_ms: number): void {
    this.assistantSpeaking = speaking;
    if (!speaking) this.cutOff = false;
    this.lastAssistantAt = Math.max(this.lastAssistantAt, at_ms);
    if (speaking) this.heardAnything = true;
  }

  speak(at_ms: number): Uint8Array {
    if (this.closed) return SILENCE;
    this.maybeRespond(at_ms);
    if (this.current) {
      const { pending } = this.current;
      const frame = pending.frames![this.current.index++]!;
      if (this.current.index >= pending.frames!.length) {
        pending.utterance.end_ms = at_ms + 20;
        this.io.log("utterance.ended", { text: pending.utterance.text, intent: pending.utterance.intent, end_ms: pending.utterance.end_ms });
        this.current = null;
      }
      return frame;
    }
    const next = this.queue[0];
    if (next?.frames && at_ms >= next.not_before_ms) {
      this.queue.shift();
      next.utterance.start_ms = at_ms;
      const audio = this.io.utteranceAudio(next.utterance, concatPcm(next.frames));
      next.frames = chunkPcm(audio, { chunkMs: 20 });
      this.said.push(next.utterance);
      this.io.log("utterance.started", { text: next.utterance.text, intent: next.utterance.intent, agenda_item: next.utterance.agenda_item, start_ms: at_ms, acts: next.utterance.acts ?? [], heard: next.utterance.heard ?? null });
      this.current = { pending: next, index: 0 };
      return this.speak(at_ms);
    }
    return SILENCE;
  }

  progress(): CallerProgress {
    const agenda = this.script.agenda.map((i) => ({ id: i.id, status: this.done.has(i.id) ? ("done" as const) : ("pending" as const), at_ms: this.done.get(i.id) ?? null }));
    return {
      agenda,
      goal_met: this.script.agenda.every((i) => !i.required || this.done.has(i.id)),
      finally_refused: this.follower.finallyRefused,
      closing_said: this.closingSaid && !this.speakingOrQueued(),
      speaking: this.current !== null,
    };
  }

  utterances(): CallerUtterance[] {
    return this.said.map((u) => structuredClone(u));
  }

  failure(): string | null {
    return this.problem;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  // ---- deciding ---------------------------------------------------------------------------------

  /** After the assistant's turn has settled, react to it once. */
  private maybeRespond(at_ms: number): void {
    if (this.closingSaid || this.assistantSpeaking || this.speakingOrQueued()) return;
    const text = this.turnText.trim();
    if (!text || at_ms - this.lastAssistantAt < this.timing.settleMs) return;
    this.turnText = "";
    this.backchannelThisTurn = false;
    const when = at_ms + this.timing.reactionMs;
    // The assistant opened the call: the caller states its request.
    if (!this.openingSaid) {
      this.openingSaid = true;
      this.sayLine(this.follower.opening(text), when);
      return;
    }
    const line = this.follower.respondTo(text);
    if (line) this.sayLine(line, when);
  }

  private sayLine(line: CallerLine, notBefore: number): void {
    this.say(line.text, line.intent, line.item?.id ?? null, notBefore, line.acts, line.heard);
  }

  private speakingOrQueued(): boolean {
    return this.current !== null || this.queue.length > 0;
  }

  /** Queue an utterance; its audio is synthesized now (virtual time waits for it), its frames go out from `notBefore`. */
  private say(text: string, intent: CallerIntent, item: string | null, notBefore: number, acts: CallerAct[], heard: HeardAsk | null): void {
    const pending: Pending = { utterance: { text, intent, agenda_item: item, start_ms: notBefore, end_ms: null, acts, heard }, frames: null, not_before_ms: notBefore };
    this.queue.push(pending);
    if (intent === "closing" || intent === "finish") this.closingSaid = true;
    const release = this.io.clock.hold("synthesizing caller speech");
    this.synth
      .synthesize(text, { signal: this.io.signal })
      .then((speech) => {
        if (speech.sampleRate !== 24_000) throw new Error(`the caller's synthesizer returned ${speech.sampleRate} Hz; the relay needs 24,000 Hz`);
        pending.frames = chunkPcm(pcm16ToBytes(speech.samples), { chunkMs: 20 });
      })
      .catch((error: unknown) => {
        this.problem ??= `the caller's speech could not be synthesized: ${error instanceof Error ? error.message : String(error)}`;
        this.queue.splice(this.queue.indexOf(pending), 1);
      })
      .finally(release);
  }
}
