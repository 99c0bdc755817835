/**
 * The simulator's mouth: synthesizes what the assistant says with the injected synthesizer and streams
 * it as `session.output_audio.delta` chunks paced at real-time rate on the clock, with
 * `session.output_transcript.delta` fragments for the words each chunk has covered. Utterances play
 * one after another; a "new turn" starts at least `newTurnGapMs` after the previous one ended, so the
 * harness sees it as a separate transcript group (fragments 500 ms apart start a new one: docs/audio-and-metrics.md).
 */
import { pcm16BytesForMs, pcm16ToBytes } from "../audio/pcm";
import { resamplePcm16 } from "../audio/resample";
import type { SpeechSynthesizer } from "../speech/synthesizer";
import type { Clock } from "../time/clock";
import { spreadWords, voicedSpan, type TimedWord } from "./caller-speech";

/**
 * The part of the speech room's `SpeechSynthesizer` the simulator uses: any synthesizer from
 * src/core/speech (espeak-ng offline, OpenAI TTS live) fits, and a test fake needs only `synthesize`.
 */
export type SimulatorSynthesizer = Pick<SpeechSynthesizer, "synthesize">;

/** Where an utterance sits on the session's output timeline (ms since session start). */
export interface Placement {
  start_ms: number;
  end_ms: number;
}

export interface DeltaInfo {
  /** 1-based count of utterances this voice has started. */
  utterance: number;
  /** 0-based delta index within the utterance, and how many it has. */
  index: number;
  count: number;
}

export interface VoiceOutlet {
  /** Send one audio delta; return false when the session can send nothing more (the voice then stops). */
  audio(pcm: Uint8Array, info: DeltaInfo): boolean;
  transcript(fragment: { text: string; start_ms: number; end_ms: number }): void;
}

export interface VoiceSettings {
  clock: Clock;
  synthesizer: SimulatorSynthesizer;
  /** Clock time of the session start: the output timeline's zero. */
  originMs: number;
  deltaMs: number;
  newTurnGapMs: number;
}

interface Speech {
  text: string;
  pcm: Uint8Array;
  durationMs: number;
  words: TimedWord[];
  startClock: number;
  finished: () => void;
}

const SAMPLE_RATE = 24_000;

export class SimulatedVoice {
  private readonly queue: Speech[] = [];
  private playing: { speech: Speech; abort: AbortController } | undefined;
  private looping = false;
  /** Clock time at which everything queued so far will have been spoken. */
  private tailClock = Number.NEGATIVE_INFINITY;
  private synthesis: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private started = 0;
  /** Milliseconds of audio actually sent. */
  spokenMs = 0;

  constructor(
    private readonly settings: VoiceSettings,
    private readonly outlet: VoiceOutlet,
  ) {}

  get speaking(): boolean {
    return this.playing !== undefined;
  }

  /**
   * Synthesize `text` (holding virtual time: synthesis is work the clock cannot see) and queue it.
   * Resolves once queued, with its placement and a promise that settles when it has been spoken (or cut).
   */
  say(text: string, options: { newTurn?: boolean } = {}): Promise<{ placement: Placement; spoken: Promise<void> }> {
    // Synthesis runs one text at a time so utterances queue in the order they were asked for.
    const queued = this.synthesis.then(() => this.enqueue(text, options.newTurn ?? false));
    this.synthesis = queued.catch(() => {});
    return queued;
  }

  /** Barge-in: stop the utterance being spoken now (queued ones still follow). */
  interrupt(): void {
    if (!this.playing) return;
    this.playing.abort.abort();
    this.tailClock = Math.max(this.settings.clock.now(), ...this.queue.map((s) => s.startClock + s.durationMs));
  }

  /** Stop for good: nothing more is sent. */
  stop(): void {
    this.stopped = true;
    this.playing?.abort.abort();
    for (const speech of this.queue.splice(0)) speech.finished();
  }

  private async enqueue(text: string, newTurn: boolean): Promise<{ placement: Placement; spoken: Promise<void> }> {
    const { clock, synthesizer, originMs, newTurnGapMs } = this.settings;
    const release = clock.hold("synthesizing assistant speech");
    let audio: { samples: Int16Array; sampleRate: number };
    try {
      audio = await synthesizer.synthesize(text);
    } finally {
      release();
    }
    // The speech room promises 24 kHz; convert rather than mis-time audio if an engine breaks that promise.
    const samples = audio.sampleRate === SAMPLE_RATE ? audio.samples : resamplePcm16(audio.samples, audio.sampleRate, SAMPLE_RATE);
    const durationMs = (samples.length * 1000) / SAMPLE_RATE;
    const span = voicedSpan(samples, SAMPLE_RATE);
    const now = clock.now();
    const startClock = Math.max(now, this.tailClock + (newTurn ? newTurnGapMs : 0));
    const placement = { start_ms: startClock - originMs, end_ms: startClock + durationMs - originMs };
    if (this.stopped) return { placement, spoken: Promise.resolve() };

    let finished!: () => void;
    const spoken = new Promise<void>((resolve) => (finished = resolve));
    this.tailClock = startClock + durationMs;
    this.queue.push({ text, pcm: pcm16ToBytes(samples), durationMs, words: spreadWords(text, span.start_ms, span.end_ms), startClock, finished });
    if (!this.looping) void this.play();
    return { placement, spoken };
  }

  private async play(): Promise<void> {
    this.looping = true;
    try {
      while (this.queue.length > 0 && !this.stopped) {
        const speech = this.queue.shift()!;
        const abort = new AbortController();
        this.playing = { speech, abort };
        try {
          await this.stream(speech, abort.signal);
        } catch (error) {
          if (!abort.signal.aborted) throw error;
        } finally {
          this.playing = undefined;
          speech.finished();
        }
      }
    } finally {
      this.looping = false;
    }
  }

  private async stream(speech: Speech, signal: AbortSignal): Promise<void> {
    const { clock, deltaMs, originMs } = this.settings;
    const deltaBytes = pcm16BytesForMs(deltaMs);
    const count = Math.max(1, Math.ceil(speech.pcm.byteLength / deltaBytes));
    const utterance = ++this.started;
    let emitted = 0;
    for (let index = 0; index < count; index++) {
      await clock.sleepUntil(speech.startClock + index * deltaMs, signal);
      if (this.stopped || signal.aborted) return;
      const chunk = speech.pcm.subarray(index * deltaBytes, Math.min(speech.pcm.byteLength, (index + 1) * deltaBytes));
      if (!this.outlet.audio(chunk, { utterance, index, count })) {
        this.stop();
        return;
      }
      this.spokenMs += chunk.byteLength / 48;
      // Words whose audio has now been sent.
      const covered = index === count - 1 ? Number.POSITIVE_INFINITY : (index + 1) * deltaMs;
      let end = emitted;
      while (end < speech.words.length && speech.words[end]!.end_ms <= covered + 1e-6) end++;
      if (end > emitted) {
        const group = speech.words.slice(emitted, end);
        const at = speech.startClock - originMs;
        this.outlet.transcript({ text: group.map((w) => w.text).join(" "), start_ms: at + group[0]!.start_ms, end_ms: at + group.at(-1)!.end_ms });
        emitted = end;
      }
    }
    await clock.sleepUntil(speech.startClock + speech.durationMs, signal);
  }
}
