/**
 * The live simulated caller (docs/conversations.md): an independent GPT-Live session with its own voice and a
 * lightweight managed Responses backend with no application tools. Its instructions carry the caller's
 * private goal, persona, known facts and agenda — never the expected outcome, criteria, procedure or state.
 * It hears the assistant's audio as it plays and speaks whenever it decides to; nothing schedules turns.
 */
import { PlaybackBuffer } from "../audio/playback";
import { pcm16ToBytes } from "../audio/pcm";
import { LiveClient, type LiveMessage } from "../live/client";
import type { AuthHeader } from "../services/auth";
import type { SessionConfig } from "../live/protocol";
import { saysGoodbye } from "../language/cues";
import { RealClock } from "../time/clock";
import type { Json } from "../world/types";
import type { CallerIO, CallerProgress, CallerScript, CallerSession, CallerUtterance, SimulatedCaller } from "./types";

export interface LiveCallerOptions {
  /** The caller's own GPT-Live endpoint (wss://api.openai.com/v1/live/sessions, or a local simulator). */
  url: string;
  /** The key for that endpoint only; null sends no credential at all. */
  apiKey: string | null;
  /** The header the key travels in: `Authorization: Bearer` (default) or Azure's `api-key`. */
  authHeader?: AuthHeader;
  voice: string;
  model: string;
  /** The caller's backend: a small model at low effort, no tools. */
  backend_model: string;
  reasoning_effort: "minimal" | "low" | "medium" | "high";
  /** Where the key came from (recorded), never the key. */
  credential: string;
  /** Recorded with the caller: the completion observer's endpoint and key source, or null when the rule decides. */
  completion?: { endpoint: string; credential: string } | null;
}

export const DEFAULT_LIVE_CALLER = { model: "gpt-live-1", backend_model: "gpt-5.6-luna", reasoning_effort: "low" as const };

/** RMS of a 20 ms frame at or above this is voiced (docs/audio-and-metrics.md). */
const VOICED_RMS = 220;
/** Silence that ends one of the caller's utterances. */
const UTTERANCE_GAP_MS = 500;

export class LiveCaller implements SimulatedCaller {
  readonly kind = "live" as const;
  readonly voice: string;

  constructor(private readonly options: LiveCallerOptions) {
    this.voice = options.voice;
  }

  describe(): Record<string, Json> {
    const { url, voice, model, backend_model, reasoning_effort, credential, completion } = this.options;
    return { kind: "live", endpoint: url, voice, model, backend_model, reasoning_effort, credential, ...(completion !== undefined ? { completion } : {}) };
  }

  async start(script: CallerScript, io: CallerIO): Promise<CallerSession> {
    const session = new LiveCallerSession(script, io, this.options);
    await session.connect();
    return session;
  }
}

/** The caller's brief, in plain words: its goal, persona, facts and agenda. Nothing evaluator-only exists here to leak. */
export function callerInstructions(script: CallerScript): string {
  const { persona } = script;
  const facts = Object.entries(script.known_facts).map(([k, v]) => `- ${k.replace(/_/g, " ")}: ${v}`);
  const agenda = script.agenda.map(
    (a) => `- ${a.commitment} When: ${a.trigger_condition}${a.response_hint ? ` You might say: "${a.response_hint}"` : ""}${a.action === "interrupt" ? " (Say it even if the assistant is still talking.)" : ""}${a.required ? "" : " (optional)"}`,
  );
  return [
    "You are a person calling a business on the phone. Stay in character for the whole call; never say you are an AI, a simulation or a test.",
    `Who you are: ${persona.description}${persona.speech_instructions ? ` ${persona.speech_instructions}` : ""} Keep your turns ${persona.verbosity}.`,
    `Your goal: ${script.goal}`,
    facts.length ? `What you know:\n${facts.join("\n")}` : "",
    agenda.length ? `What you will do, as the moments come (listen to the assistant and respond to what it actually says):\n${agenda.join("\n")}` : "",
    script.expectations.length ? `Also:\n${script.expectations.map((e) => `- ${e}`).join("\n")}` : "",
    script.opens === "caller" ? `Open the call yourself by saying: "${script.request}"` : `The assistant will greet you first; then say: "${script.request}"`,
    "When your goal is met, or the assistant has finally refused, thank them briefly and say goodbye.",
  ]
    .filter(Boolean)
    .join("\n\n");
}

class LiveCallerSession implements CallerSession {
  private readonly client: LiveClient;
  private readonly playback: PlaybackBuffer;
  private problem: string | null = null;
  private readonly said: CallerUtterance[] = [];
  private current: CallerUtterance | null = null;
  private lastVoiced = Number.NEGATIVE_INFINITY;
  /**
   * The caller's words as its service transcribed them, each tagged with how much of its audio had been
   * received when they arrived. Playback is first in first out, so once that much has played the words
   * have been spoken: they belong to the utterance playing then. (Words and audio arrive interleaved, but
   * the audio plays up to a reserve later, so the words of an utterance arrive before it starts to play.)
   */
  private readonly words: { text: string; at_sample: number }[] = [];
  private wordsTaken = 0;
  private closing = false;

  constructor(
    private readonly script: CallerScript,
    private readonly io: CallerIO,
    private readonly options: LiveCallerOptions,
  ) {
    this.client = new LiveClient({ onListenerError: (error) => this.fail(`event handling failed: ${(error as Error)?.message ?? String(error)}`) });
    this.playback = new PlaybackBuffer(io.clock.now());
  }

  async connect(): Promise<void> {
    const instructions = callerInstructions(this.script);
    const session: SessionConfig = {
      model: this.options.model,
      instructions,
      audio: { format: { type: "audio/pcm", rate: 24000 }, output: { voice: this.options.voice } },
      // A managed backend with no tools: the caller may think, but it owns no application.
      delegation: { type: "responses", responses: { model: this.options.backend_model, instructions, tools: [], reasoning: { effort: this.options.reasoning_effort } } },
    } as SessionConfig;
    this.client.on((message) => this.handle(message));
    this.client.onRaw((frame) => {
      if (frame.direction === "received" && frame.json && typeof frame.json === "object") {
        const type = (frame.json as { type?: unknown }).type;
        if (typeof type === "string" && type !== "session.output_audio.delta") this.io.log("wire", { direction: "received", type });
      }
    });
    await this.client.connect({ url: this.options.url, apiKey: this.options.apiKey, ...(this.options.authHeader ? { authHeader: this.options.authHeader } : {}), session, clock: this.io.clock ?? new RealClock(), signal: this.io.signal });
    // The cue to open the call: general instructions before anyone has spoken.
    if (this.script.opens === "caller") this.client.appendInstructions(null, `Begin the call now: say "${this.script.request}"`);
  }

  hear(frame: Uint8Array): void {
    if (!this.problem && !this.closing) this.client.appendAudio(frame);
  }

  hearAssistantText(): void {
    // The live caller understands the assistant from its audio, as a person on the phone would.
  }

  hearAssistantSpeaking(): void {}

  speak(at_ms: number): Uint8Array {
    const frame = this.playback.frame(at_ms);
    let sum = 0;
    for (const s of frame) sum += s * s;
    const voiced = Math.sqrt(sum / frame.length) >= VOICED_RMS;
    if (voiced) {
      if (!this.current) {
        this.current = { text: "", intent: this.said.length === 0 && this.script.opens === "caller" ? "opening" : "answer", agenda_item: null, start_ms: at_ms, end_ms: null };
        this.said.push(this.current);
        this.io.log("utterance.started", { start_ms: at_ms });
      }
      this.lastVoiced = at_ms + 20;
    }
    if (this.current) this.takeWords(this.current);
    if (!voiced && this.current && at_ms - this.lastVoiced >= UTTERANCE_GAP_MS) {
      this.current.end_ms = this.lastVoiced;
      this.current.text = this.current.text.trim();
      if (saysGoodbye(this.current.text)) this.current.intent = "closing";
      this.io.log("utterance.ended", { text: this.current.text, end_ms: this.current.end_ms });
      this.current = null;
    }
    return pcm16ToBytes(frame);
  }

  progress(): CallerProgress {
    const last = this.said.at(-1);
    const closing = Boolean(last && last.end_ms !== null && saysGoodbye(last.text));
    return { agenda: this.script.agenda.map((a) => ({ id: a.id, status: "pending" as const, at_ms: null })), goal_met: null, finally_refused: false, closing_said: closing, speaking: this.current !== null };
  }

  utterances(): CallerUtterance[] {
    return this.said.map((u) => ({ ...u, text: u.text.trim() }));
  }

  /** Give the utterance playing now the words whose audio has played. */
  private takeWords(utterance: CallerUtterance): void {
    const played = this.playback.playedSamples;
    while (this.wordsTaken < this.words.length && this.words[this.wordsTaken]!.at_sample <= played) utterance.text += this.words[this.wordsTaken++]!.text;
  }

  failure(): string | null {
    return this.problem;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    try {
      await this.client.close({ timeoutMs: 10_000 });
    } catch {
      // The caller's own session ending badly after the call is over changes nothing in the evaluation.
    }
  }

  private fail(message: string): void {
    this.problem ??= `the simulated caller's session failed: ${message}`;
  }

  private handle(message: LiveMessage): void {
    if (message.kind === "protocol_error") return this.fail(message.error.message);
    if (message.kind === "socket_closed") {
      if (!this.closing && !message.clean) this.fail(`its connection closed unexpectedly (code ${message.code})`);
      return;
    }
    if (message.kind !== "event") return;
    const e = message.event;
    switch (e.type) {
      case "session.output_audio.delta":
        if (message.audio) this.playback.add(message.at_ms, message.audio);
        return;
      case "session.output_transcript.delta":
        this.words.push({ text: e.delta, at_sample: this.playback.receivedSamples });
        return;
      case "session.delegation.created":
        // The caller's backend is managed and tool-free; a client delegation would need an application it does not have.
        if (e.delegation.target === "client") this.fail("the caller's service asked for a client delegation, which a simulated caller cannot serve");
        return;
      case "response.event":
        if (e.event.type === "response.output_item.done" && (e.event as { item?: { type?: string } }).item?.type === "function_call")
          this.fail("the caller's backend tried to call a tool; the simulated caller has none");
        return;
      case "session.closed":
        if (!this.closing) this.fail(`the service ended the caller's session (reason: ${e.reason})`);
        return;
      case "error":
        if (["insufficient_quota", "invalid_api_key", "account_deactivated", "billing_hard_limit_reached"].includes(e.error.code ?? "")) this.fail(`${e.error.code}: ${e.error.message}`);
        return;
      default:
        return;
    }
  }
}

