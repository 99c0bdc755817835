/**
 * One session of the local GPT-Live simulator: the server side of the Live protocol over one socket,
 * driven by an AssistantPolicy. This file is its state machine (awaiting start, active, closed) and the
 * client events it answers itself; its parts each do one job:
 *
 * - start.ts: `session.start` must be the first frame and is validated strictly (schema, forbidden
 *   voices, model, 24 kHz PCM, history size); a rejected start gets `error` and the socket closes.
 * - ear.ts: caller audio is re-cut into 20 ms chunks and recognized only when it matches audio the
 *   harness registered (caller-speech.ts: OFFLINE RUNS CHECK THE PIPELINE, NOT SPEECH UNDERSTANDING);
 *   recognized words stream back as `session.input_transcript.delta`, and ~500 ms of silence after a
 *   recognized utterance ends the turn. Then `policy.frontend` decides: speak a reply, or delegate.
 * - backend.ts: delegation (Responses: a server-managed backend with function calls the client must
 *   answer; client: wait for `session.commentary.append`).
 * - usage.ts: cumulative `usage.seconds` of input audio, and the backend's token usage.
 * - faults.ts: the misbehaviours a fault plan asks for. voice.ts: the assistant's speech. outbox.ts: sending.
 * - `session.close` answers `session.closed` with the final usage, then the socket closes.
 *
 * Timing uses only the injected clock. Every frame is handled inside its wire hold (wire-time.ts), and
 * work the clock cannot see (synthesis) takes its own hold, so a VirtualClock run is reproducible.
 */
import type { Socket } from "node:net";
import WebSocket from "ws";
import { encodePcmBase64 } from "../audio/pcm";
import type { ConfigIssue } from "../live/errors";
import { readHotClientEvent } from "../live/hot-events";
import { CLIENT_EVENT_TYPES, parseClientEvent, type AppendKind, type ClientEvent, type ClientEventOf, type DelegationConfig, type SessionConfig } from "../live/protocol";
import { frameKey } from "../live/wire-time";
import type { AssistantPolicy } from "../target/policy";
import type { Clock } from "../time/clock";
import { DelegationBackend, delegationTypeOf } from "./backend";
import { describeSession } from "./description";
import { TurnDetector, type Ear } from "./ear";
import { FaultPlan, type PlannedFault } from "./faults";
import { Outbox } from "./outbox";
import { conversationOf, startProblem, type Conversation } from "./start";
import { recordReceived, type SimulatedSessionStats } from "./stats";
import type { SimulatorTiming } from "./timing";
import { estimateTokens, InputUsage } from "./usage";
import { SimulatedVoice, type DeltaInfo, type SimulatorSynthesizer } from "./voice";

export interface SessionEnvironment {
  index: number;
  clock: Clock;
  policy: AssistantPolicy;
  synthesizer: SimulatorSynthesizer;
  /** Hears the caller's audio (by default the registered-audio listener of caller-speech.ts). */
  ear: Ear;
  faults: PlannedFault[];
  timing: SimulatorTiming;
  stats: SimulatedSessionStats;
  /** Diagnostics: every text frame the client sent, as received. */
  tap?: (text: string) => void;
  /** The model names served (default gpt-live-1); an Azure stand-in serves deployment names. */
  models?: readonly string[];
  /** The models the session reports having served instead of the requested ones (server.ts `reportedModels`). */
  reportedModels?: { model?: string; backend_model?: string };
}

/** What the simulated assistant says when asked to open a call and its policy has no greeting of its own. */
export const DEFAULT_GREETING = "Hello, thanks for calling. How can I help you today?";

const MAX_APPEND_TOKENS = 500;

export class SimulatedSession {
  private phase: "awaiting_start" | "active" | "closed" = "awaiting_start";
  /** The assistant opened the call (asked to by general instructions before anyone spoke). */
  private opened = false;
  /** A stall fault fired: nothing more is sent, nothing received is acted on. */
  private stalled = false;
  private readonly outbox: Outbox;
  private readonly turnDetector: TurnDetector;
  private readonly backend: DelegationBackend;
  private readonly faults: FaultPlan;
  private readonly input: InputUsage;
  private config!: SessionConfig;
  private conversation!: Conversation;
  private sessionId = "";
  private originMs = 0;
  private voice!: SimulatedVoice;
  private inputFragments = 0;
  private outputFragments = 0;
  private turnChain: Promise<void> = Promise.resolve();

  constructor(
    private readonly ws: WebSocket,
    socket: Socket,
    private readonly env: SessionEnvironment,
  ) {
    this.outbox = new Outbox(ws, socket, env.clock, env.stats.errors_sent, () => this.phase !== "closed" && !this.stalled);
    this.faults = new FaultPlan(env.faults, env.stats.faults_fired);
    this.input = new InputUsage(env.timing.usageIntervalMs);
    this.turnDetector = new TurnDetector(env.ear, env.timing.endOfTurnSilenceMs, env.policy, () => this.voice, {
      fragment: (fragment) =>
        this.outbox.send({
          type: "session.input_transcript.delta",
          event_id: this.outbox.nextEventId(),
          delta: (this.inputFragments++ > 0 ? " " : "") + fragment.text,
          start_ms: Math.round(fragment.start_ms),
          end_ms: Math.round(fragment.end_ms),
        }),
      recognized: (utterance) => this.env.stats.recognized.push(utterance.text),
      turn: (request) => {
        this.env.stats.turns.push(request);
        this.turnChain = this.turnChain.then(() => this.takeTurn(request)).catch((error) => this.internalError(error));
      },
    });
    this.backend = new DelegationBackend({
      clock: env.clock,
      timing: env.timing,
      policy: env.policy,
      stats: env.stats,
      outbox: this.outbox,
      ...(env.reportedModels?.backend_model ? { reportedBackendModel: env.reportedModels.backend_model } : {}),
      config: () => this.config,
      conversation: () => this.conversation,
      inputMs: () => this.input.ms,
      live: () => this.live(),
      speak: (text, newTurn) => this.speak(text, newTurn),
      internalError: (error) => this.internalError(error),
    });
    ws.on("message", (data, isBinary) => {
      const buffer = data as Buffer;
      const text = isBinary ? undefined : buffer.toString("utf8");
      if (text !== undefined) env.tap?.(text);
      const release = this.outbox.wire.received(frameKey(text ?? buffer));
      try {
        this.onFrame(text);
      } catch (error) {
        this.internalError(error);
      } finally {
        release();
      }
    });
    ws.on("close", () => {
      this.phase = "closed";
      this.env.stats.socket_closed = true;
      this.voice?.stop();
      this.backend.cancel();
      this.outbox.wire.dispose();
    });
    ws.on("error", (error) => this.env.stats.internal_errors.push(`socket error: ${error.message}`));
  }

  /** Drop the connection (simulator shutdown). */
  terminate(): void {
    this.dropSocket();
  }

  // ---- frames -----------------------------------------------------------------------------------

  /** One frame: its text, or undefined for a binary frame. */
  private onFrame(text: string | undefined): void {
    if (text === undefined) {
      this.record("(binary)");
      if (!this.stalled) this.outbox.error("invalid_value", "binary frames are not part of the Live protocol; send JSON text frames");
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.record("(malformed)");
      if (!this.stalled) this.outbox.error("invalid_json", "the frame is not valid JSON; send one JSON event per text frame");
      return;
    }
    // Caller audio (every 20 ms) skips the schema when it has exactly the shape the schema accepts (hot-events.ts).
    const append = this.phase === "active" && isRecord(json) ? readHotClientEvent(json) : undefined;
    if (append) {
      this.record(append.type);
      if (!this.stalled) this.onAudio(append.audio, append.event_id);
      return;
    }
    const parsed = parseClientEvent(json);
    this.record(parsed.type ?? "(no type)");
    if (this.stalled || this.phase === "closed") return;
    const clientEventId = isRecord(json) && typeof json.event_id === "string" ? json.event_id : undefined;

    if (this.phase === "awaiting_start") {
      this.onFirstFrame(parsed, clientEventId);
      return;
    }
    if (!parsed.known) {
      const what = parsed.type === undefined ? "the event has no string type" : `unknown event type "${parsed.type}"`;
      this.outbox.error("invalid_value", `${what}; supported client events: ${CLIENT_EVENT_TYPES.join(", ")}`, { param: "type", clientEventId });
      return;
    }
    if ("invalid" in parsed) {
      this.outbox.rejectIssues(parsed.type, parsed.issues, clientEventId);
      return;
    }
    this.dispatch(parsed.event, clientEventId);
  }

  private onFirstFrame(parsed: ReturnType<typeof parseClientEvent>, clientEventId: string | undefined): void {
    if (parsed.type !== "session.start") {
      this.outbox.error("invalid_request", `the first event must be session.start, got ${parsed.type ?? "an event without a type"}`, { clientEventId });
      this.closeSocket(1008, "session.start must come first");
      return;
    }
    if (this.faults.take("drop_before_started")) {
      this.dropSocket();
      return;
    }
    if (!parsed.known) return; // unreachable: session.start is a known type
    if ("invalid" in parsed) {
      this.outbox.rejectIssues("session.start", parsed.issues, clientEventId);
      this.closeSocket(1008, "session.start rejected");
      return;
    }
    const start = parsed.event as ClientEventOf<"session.start">;
    const problem: ConfigIssue | undefined = startProblem(start.session, this.env.models);
    if (problem) {
      this.outbox.error(problem.code, problem.message, { param: `session.${problem.path}`, clientEventId });
      this.closeSocket(1008, "session.start rejected");
      return;
    }
    this.begin(start.session);
  }

  private begin(session: SessionConfig): void {
    const { clock, index, timing, synthesizer } = this.env;
    this.config = session;
    this.phase = "active";
    this.originMs = clock.now();
    this.sessionId = `live_sim${String(index + 1).padStart(4, "0")}`;
    this.env.stats.session_id = this.sessionId;
    this.conversation = conversationOf(session);
    this.voice = new SimulatedVoice(
      { clock, synthesizer, originMs: this.originMs, deltaMs: timing.outputDeltaMs, newTurnGapMs: timing.newTurnGapMs },
      { audio: (pcm, info) => this.sendAudio(pcm, info), transcript: (fragment) => this.sendOutputTranscript(fragment) },
    );
    this.outbox.send({ type: "session.started", event_id: this.outbox.nextEventId(), session: this.describe("active") });
  }

  private dispatch(event: ClientEvent, clientEventId: string | undefined): void {
    switch (event.type) {
      case "session.start":
        this.outbox.error("invalid_value", "the session has already started; session.start is accepted only as the first event", { param: "type", clientEventId });
        return;
      case "session.update":
        this.onUpdate(event.session.delegation, clientEventId);
        return;
      case "session.input_audio.append":
        this.onAudio(event.audio, clientEventId);
        return;
      case "session.input_audio.mute":
      case "session.input_audio.unmute": {
        const muted = event.type === "session.input_audio.mute";
        this.turnDetector.muted = muted;
        this.outbox.send({ type: muted ? "session.input_audio.muted" : "session.input_audio.unmuted", event_id: this.outbox.nextEventId(), client_event_id: clientEventId });
        return;
      }
      case "session.instructions.append":
      case "session.thinking.append":
      case "session.commentary.append":
        this.onAppend(event.type.split(".")[1] as AppendKind, event.delegation_id, event.content, clientEventId);
        return;
      case "response.item.create":
        if (event.item.type === "function_call_output") this.backend.onFunctionOutput(String(event.item.call_id), String(event.item.output), clientEventId);
        else this.backend.onOtherItem(clientEventId);
        return;
      case "response.create":
        this.backend.onResponseCreate(clientEventId);
        return;
      case "session.close":
        this.onClose();
        return;
    }
  }

  // ---- client events ----------------------------------------------------------------------------

  private onUpdate(delegation: DelegationConfig, clientEventId: string | undefined): void {
    const current = delegationTypeOf(this.config);
    if (delegation.type !== current) {
      this.outbox.error("invalid_value", `session.update cannot change the delegation type (the session uses "${current}")`, { param: "session.delegation.type", clientEventId });
      return;
    }
    this.config = { ...this.config, delegation };
    this.outbox.send({ type: "session.updated", event_id: this.outbox.nextEventId(), client_event_id: clientEventId, session: this.describe("active") });
  }

  private onAudio(base64: string, clientEventId: string | undefined): void {
    const decoded = this.turnDetector.decode(base64);
    if (decoded < 0) {
      this.outbox.error("invalid_value", "audio is not valid base64", { param: "audio", clientEventId });
      return;
    }
    if (decoded % 2 !== 0) {
      this.outbox.error("invalid_value", `audio must be whole PCM16 samples; got ${decoded} bytes`, { param: "audio", clientEventId });
      return;
    }
    this.input.add(decoded);
    this.env.stats.input_audio_ms = this.input.ms;
    this.turnDetector.hearDecoded(() => this.phase === "active" && !this.stalled);
    if (this.input.updateDue()) this.outbox.send({ type: "session.usage.updated", event_id: this.outbox.nextEventId(), usage: { seconds: this.input.seconds } });
    this.faults.fireDue(this.input.ms, {
      live: () => this.live(),
      finish: (reason) => this.finish(reason),
      stopVoice: () => this.voice.stop(),
      error: (code, message, options) => this.outbox.error(code, message, options),
      closeSocket: (code, reason) => this.closeSocket(code, reason),
      sendBinary: (bytes) => this.outbox.sendBinary(bytes),
      sendText: (text) => this.outbox.sendText(text),
      nextEventId: () => this.outbox.nextEventId(),
    });
  }

  private onAppend(kind: AppendKind, delegationId: string | null, content: string, clientEventId: string | undefined): void {
    const param = { clientEventId };
    if (delegationId !== null) {
      if (delegationTypeOf(this.config) === "responses") {
        this.outbox.error("invalid_value", `delegation_id must be null under Responses delegation; the backend is server-managed`, { ...param, param: "delegation_id" });
        return;
      }
      if (!this.backend.isClientDelegation(delegationId)) {
        this.outbox.error("invalid_value", `unknown delegation_id "${delegationId}"; delegation ids are valid only on the connection that created them`, { ...param, param: "delegation_id" });
        return;
      }
    }
    if (estimateTokens(content) > MAX_APPEND_TOKENS) {
      this.outbox.error("invalid_value", `content is about ${estimateTokens(content)} tokens; at most ${MAX_APPEND_TOKENS} per append`, { ...param, param: "content" });
      return;
    }
    const ack = (start_ms: number, end_ms: number) =>
      this.outbox.send({
        type: `session.${kind}.appended`,
        event_id: this.outbox.nextEventId(),
        client_event_id: clientEventId,
        delegation_id: delegationId,
        start_ms: Math.round(start_ms),
        end_ms: Math.round(end_ms),
      });
    if (kind === "commentary" && delegationId !== null) {
      // A delegated result: spoken as a new turn; the ack places it on the output timeline.
      this.conversation.turns.push({ role: "assistant", text: content });
      this.env.ear.said?.(content);
      this.voice
        .say(content, { newTurn: true })
        .then(({ placement }) => ack(placement.start_ms, placement.end_ms))
        .catch((error) => this.internalError(error));
      return;
    }
    // Thinking is silent progress; instructions and general-context commentary only inform the model —
    // except general instructions before anyone has spoken, which ask the assistant to open the call.
    const now = this.env.clock.now() - this.originMs;
    ack(now, now);
    if (kind === "instructions" && delegationId === null && this.conversation.turns.length === 0 && !this.turnDetector.heardAnything && !this.opened) {
      this.opened = true;
      const greeting = this.env.policy.greeting?.() ?? DEFAULT_GREETING;
      this.conversation.turns.push({ role: "assistant", text: greeting });
      this.speak(greeting, false);
    }
  }

  private onClose(): void {
    if (this.faults.take("no_session_closed")) {
      this.voice.stop();
      this.closeSocket(1000, "");
      return;
    }
    this.finish("close_requested");
  }

  // ---- turns ------------------------------------------------------------------------------------

  private async takeTurn(request: string): Promise<void> {
    await this.env.clock.sleep(this.env.timing.frontendDelayMs);
    if (!this.live()) return;
    const { history, summary, turns } = this.conversation;
    const decision = this.env.policy.frontend({ request, context: { ...(summary ? { summary } : {}), history: [...history, ...turns] } });
    turns.push({ role: "user", text: request });
    if (decision.kind === "reply") {
      // An empty reply is a policy choosing to stay silent (a caller that has already said goodbye).
      if (!decision.text.trim()) return;
      turns.push({ role: "assistant", text: decision.text });
      this.speak(decision.text, false);
      return;
    }
    this.backend.delegate(request, decision.acknowledgement);
  }

  private speak(text: string, newTurn: boolean): void {
    this.env.ear.said?.(text);
    this.voice.say(text, { newTurn }).catch((error) => this.internalError(error));
  }

  // ---- sending ----------------------------------------------------------------------------------

  private sendAudio(pcm: Uint8Array, info: DeltaInfo): boolean {
    if (!this.live()) return false;
    let delta = pcm;
    if (info.utterance === 1 && info.index === 0 && this.faults.take("odd_length_pcm")) delta = pcm.subarray(0, Math.max(1, pcm.byteLength - 1));
    if (info.count > 1 && info.index === Math.floor(info.count / 2) && this.faults.take("stall_mid_response")) {
      this.stalled = true;
      return false;
    }
    // No event_id and no timestamps on audio: the client places it on its own receive clock.
    // Every 160 ms of speech: written by hand, byte for byte what JSON.stringify gives (base64 needs no escaping).
    this.outbox.sendText(`{"type":"session.output_audio.delta","delta":"${encodePcmBase64(delta)}"}`);
    this.env.stats.output_audio_ms += pcm.byteLength / 48;
    return true;
  }

  private sendOutputTranscript(fragment: { text: string; start_ms: number; end_ms: number }): void {
    this.outbox.send({
      type: "session.output_transcript.delta",
      event_id: this.outbox.nextEventId(),
      delta: (this.outputFragments++ > 0 ? " " : "") + fragment.text,
      start_ms: Math.round(fragment.start_ms),
      end_ms: Math.round(fragment.end_ms),
    });
  }

  private internalError(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.env.stats.internal_errors.push(message);
    this.outbox.error("server_error", `simulator failure: ${message}`, { type: "server_error" });
  }

  /** End the session with `session.closed` and close the socket. */
  private finish(reason: string): void {
    this.voice.stop();
    this.env.stats.closed_reason = reason;
    this.outbox.send({
      type: "session.closed",
      event_id: this.outbox.nextEventId(),
      reason,
      session: this.describe("closed"),
      usage: { seconds: this.input.seconds },
    });
    this.closeSocket(1000, "");
  }

  private closeSocket(code: number, reason: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.phase = "closed";
    this.backend.cancel();
    this.outbox.close(code, reason);
  }

  private dropSocket(): void {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.phase = "closed";
    this.voice?.stop();
    this.backend.cancel();
    this.outbox.drop();
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private live(): boolean {
    return this.phase === "active" && !this.stalled;
  }

  private record(type: string): void {
    recordReceived(this.env.stats, type);
  }

  private describe(status: "active" | "closed") {
    return describeSession({ id: this.sessionId, config: this.config, originMs: this.originMs, clock: this.env.clock, ...(this.env.reportedModels ? { reported: this.env.reportedModels } : {}) }, status);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
