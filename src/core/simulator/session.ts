/**
 * One session of the local GPT-Live simulator: the server side of the Live protocol over one socket,
 * driven by an AssistantPolicy. What it does, in protocol order:
 *
 * - `session.start` must be the first frame and is validated strictly (schema, forbidden voices, model,
 *   24 kHz PCM, history size); a rejected start gets `error` and the socket closes.
 * - Caller audio is re-cut into 20 ms chunks, counted for cumulative `usage.seconds`, and recognized only
 *   when it matches audio the harness registered (caller-speech.ts: OFFLINE RUNS CHECK THE PIPELINE, NOT
 *   SPEECH UNDERSTANDING). Recognized words stream back as `session.input_transcript.delta`.
 * - End of turn is ~500 ms of silence after a recognized utterance; then `policy.frontend` decides:
 *   speak a reply, or delegate (Responses: server-managed backend with function calls the client must
 *   answer; client: wait for `session.commentary.append`).
 * - `session.close` answers `session.closed` with the final usage, then the socket closes.
 *
 * Timing uses only the injected clock. Every frame is handled inside its wire hold (wire-time.ts), and
 * work the clock cannot see (synthesis) takes its own hold, so a VirtualClock run is reproducible.
 */
import type { Socket } from "node:net";
import WebSocket from "ws";
import { base64DecodedLength, decodeBase64Into, encodePcmBase64, pcm16FromBytes } from "../audio/pcm";
import { rms } from "../audio/speech";
import type { AssistantPolicy, PolicyTools } from "../target/policy";
import { isRefusal, type HistoryMessage } from "../target/types";
import type { Clock } from "../time/clock";
import { CHUNK_BYTES, CHUNK_MS } from "./caller-speech";
import {
  CLIENT_EVENT_TYPES,
  CONTEXT_SUMMARY_HEADING,
  GPT_LIVE_DEFAULT_VOICE,
  GPT_LIVE_MODEL,
  checkSessionConfig,
  parseClientEvent,
  type AppendKind,
  type ClientEvent,
  type ClientEventOf,
  type DelegationConfig,
  type ResponseUsage,
  type ServerEventInput,
  type SessionConfig,
} from "../live/protocol";
import type { ConfigIssue } from "../live/errors";
import { SimulatedVoice, type DeltaInfo, type SimulatorSynthesizer } from "./voice";
import { readHotClientEvent } from "../live/hot-events";
import { SocketCork } from "../live/socket-cork";
import type { Ear } from "./ear";
import { CLOSE_FRAME_KEY, WireEnd, frameKey } from "../live/wire-time";

export const LIVE_FAULT_KINDS = [
  "drop_before_started",
  "no_session_closed",
  "expired",
  "fatal_error",
  "binary_frame",
  "unknown_event",
  "stall_mid_response",
  "malformed_json",
  "odd_length_pcm",
] as const;
export type LiveFaultKind = (typeof LIVE_FAULT_KINDS)[number];

/**
 * A fault to inject into one session. Where it strikes:
 * - drop_before_started: the socket is dropped on receiving `session.start`;
 * - no_session_closed: `session.close` closes the socket without `session.closed`;
 * - stall_mid_response: halfway through the first utterance the server goes silent for good, socket open;
 * - odd_length_pcm: the first audio delta has an odd number of bytes;
 * - expired, fatal_error, binary_frame, unknown_event, malformed_json: once the input audio reaches
 *   `atInputMs` (default 1000 ms): `session.closed {reason: "expired"}` then close; `error
 *   {code: "insufficient_quota"}` then close; a binary frame; an unknown event type; a non-JSON text frame.
 */
export type LiveFault = LiveFaultKind | { kind: LiveFaultKind; atInputMs?: number };

/** Simulator pacing; defaults in DEFAULT_SIMULATOR_TIMING. */
export interface SimulatorTiming {
  /** Silence after a recognized utterance that ends the caller's turn. */
  endOfTurnSilenceMs: number;
  /** Frontend reaction time between end of turn and deciding. */
  frontendDelayMs: number;
  /** Backend think time before each function call and before the final answer. */
  backendDelayMs: number;
  /** Audio per `session.output_audio.delta`. */
  outputDeltaMs: number;
  /** Input transcript fragment length. */
  transcriptFragmentMs: number;
  /** Gap before speech that starts a new turn (delegated results), so it is not merged into the acknowledgement. */
  newTurnGapMs: number;
  /** Input audio between `session.usage.updated` events (the service sends about one a minute). */
  usageIntervalMs: number;
  /** Default trigger point for input-timed faults. */
  faultAtInputMs: number;
}

export const DEFAULT_SIMULATOR_TIMING: SimulatorTiming = {
  endOfTurnSilenceMs: 500,
  frontendDelayMs: 200,
  backendDelayMs: 300,
  outputDeltaMs: 160,
  transcriptFragmentMs: 200,
  newTurnGapMs: 600,
  usageIntervalMs: 1000,
  faultAtInputMs: 1000,
};

/** What one session did, for tests and diagnostics. */
export interface SimulatedSessionStats {
  /** 0-based, in order of connection. */
  index: number;
  session_id?: string;
  /** Client frames in arrival order, consecutive repeats counted ("(binary)", "(malformed)", "(no type)" for non-events). */
  received: { type: string; count: number }[];
  faults: LiveFaultKind[];
  faults_fired: LiveFaultKind[];
  input_audio_ms: number;
  output_audio_ms: number;
  /** Registered utterances recognized in the input audio. */
  recognized: string[];
  /** Caller turns the frontend answered. */
  turns: string[];
  delegations: { id: string; target: "client" | "responses" }[];
  responses: number;
  function_calls: number;
  /** Codes of the `error` events sent. */
  errors_sent: string[];
  closed_reason?: string;
  socket_closed: boolean;
  /** Unexpected exceptions inside the simulator (each was also sent as `error {code: "server_error"}`). */
  internal_errors: string[];
}

export interface SessionEnvironment {
  index: number;
  clock: Clock;
  policy: AssistantPolicy;
  synthesizer: SimulatorSynthesizer;
  /** Hears the caller's audio (by default the registered-audio listener of caller-speech.ts). */
  ear: Ear;
  faults: { kind: LiveFaultKind; atInputMs: number }[];
  timing: SimulatorTiming;
  stats: SimulatedSessionStats;
  /** Diagnostics: every text frame the client sent, as received. */
  tap?: (text: string) => void;
  /** The model names served (default gpt-live-1); an Azure stand-in serves deployment names. */
  models?: readonly string[];
}

/** Backend model reported when the session names none. */
export const SIMULATED_BACKEND_MODEL = "simulated-backend";
const DEFAULT_VOICE = GPT_LIVE_DEFAULT_VOICE;
const SESSION_LIFETIME_S = 2 * 60 * 60;
/** Virtual runs report expiry against a fixed epoch (2026-01-01T00:00:00Z) so their logs are reproducible. */
const VIRTUAL_EPOCH_S = 1_767_225_600;
const MAX_INPUT_TOKENS = 8_192;
const MAX_APPEND_TOKENS = 500;

/** The simulator's token estimate (about four characters a token); the real tokenizer differs. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

interface PendingCall {
  delegationId: string;
  responseId: string;
  output?: string;
}

interface Continuation {
  responseId: string;
  callIds: string[];
  resume: (outputs: string[]) => void;
  cancel: (error: Error) => void;
}

class SessionEnded extends Error {
  constructor() {
    super("the session ended");
  }
}

export class SimulatedSession {
  private phase: "awaiting_start" | "active" | "closed" = "awaiting_start";
  /** Registered utterances recognized as backchannels (said over the assistant's speech): not turns. */
  private readonly backchannels = new Set<number>();
  /** The assistant opened the call (asked to by general instructions before anyone spoke). */
  private opened = false;
  /** A stall fault fired: nothing more is sent, nothing received is acted on. */
  private stalled = false;
  private readonly wire: WireEnd;
  private readonly cork: SocketCork;
  private config!: SessionConfig;
  private sessionId = "";
  private originMs = 0;
  private voice!: SimulatedVoice;
  private serverEvents = 0;

  private inputBytes = 0;
  /** Caller audio not yet heard (less than one chunk) sits at the front of inputBuffer. */
  private inputBuffer = new Uint8Array(4 * CHUNK_BYTES);
  private pendingBytes = 0;
  private heardChunks = 0;
  private muted = false;
  private usageSteps = 0;
  private inputFragments = 0;
  private outputFragments = 0;

  /** Recognized utterances of the caller's current turn, and the silence since its last voiced audio. */
  private heard: string[] = [];
  /** Utterances the caller began over the assistant's speech, which a policy that talks through never takes in. */
  private readonly talkedOver = new Set<number>();
  private silenceMs = 0;
  private turnChain: Promise<void> = Promise.resolve();

  private history: HistoryMessage[] = [];
  /** Authorized context the application put into the instructions (the way GPT-Live receives a summary). */
  private summary: string | undefined;
  private readonly turns: HistoryMessage[] = [];
  private readonly clientDelegations = new Set<string>();
  private readonly pendingCalls = new Map<string, PendingCall>();
  private readonly continuations: Continuation[] = [];
  private counters = { delegation: 0, response: 0, call: 0, item: 0 };
  private readonly firedFaults = new Set<LiveFaultKind>();

  constructor(
    private readonly ws: WebSocket,
    socket: Socket,
    private readonly env: SessionEnvironment,
  ) {
    this.wire = new WireEnd(env.clock, socket);
    this.cork = new SocketCork(socket);
    ws.on("message", (data, isBinary) => {
      const buffer = data as Buffer;
      const text = isBinary ? undefined : buffer.toString("utf8");
      if (text !== undefined) env.tap?.(text);
      const release = this.wire.received(frameKey(text ?? buffer));
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
      this.cancelContinuations();
      this.wire.dispose();
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
      if (!this.stalled) this.error("invalid_value", "binary frames are not part of the Live protocol; send JSON text frames");
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.record("(malformed)");
      if (!this.stalled) this.error("invalid_json", "the frame is not valid JSON; send one JSON event per text frame");
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
      this.error("invalid_value", `${what}; supported client events: ${CLIENT_EVENT_TYPES.join(", ")}`, { param: "type", clientEventId });
      return;
    }
    if ("invalid" in parsed) {
      this.rejectIssues(parsed.type, parsed.issues, clientEventId);
      return;
    }
    this.dispatch(parsed.event, clientEventId);
  }

  private onFirstFrame(parsed: ReturnType<typeof parseClientEvent>, clientEventId: string | undefined): void {
    if (parsed.type !== "session.start") {
      this.error("invalid_request", `the first event must be session.start, got ${parsed.type ?? "an event without a type"}`, { clientEventId });
      this.closeSocket(1008, "session.start must come first");
      return;
    }
    if (this.fault("drop_before_started")) {
      this.dropSocket();
      return;
    }
    if (!parsed.known) return; // unreachable: session.start is a known type
    if ("invalid" in parsed) {
      this.rejectIssues("session.start", parsed.issues, clientEventId);
      this.closeSocket(1008, "session.start rejected");
      return;
    }
    const start = parsed.event as ClientEventOf<"session.start">;
    const problem = this.startProblem(start.session);
    if (problem) {
      this.error(problem.code, problem.message, { param: `session.${problem.path}`, clientEventId });
      this.closeSocket(1008, "session.start rejected");
      return;
    }
    this.begin(start.session);
  }

  /** What the service (and this simulator) refuse beyond the schema. */
  private startProblem(session: SessionConfig): ConfigIssue | undefined {
    const issues = checkSessionConfig(session);
    if (issues.length > 0) return issues[0];
    const served = this.env.models ?? [GPT_LIVE_MODEL];
    if (!served.includes(session.model)) {
      return { path: "model", code: "invalid_value", message: `model "${session.model}" is not served by the Live endpoint; use ${served.join(" or ")}` };
    }
    const format = session.audio?.format;
    if (format && !(format.type === "audio/pcm" && (format.rate ?? 24_000) === 24_000)) {
      const path = format.type === "audio/pcm" ? "audio.format.rate" : "audio.format.type";
      return { path, code: "invalid_value", message: `the local simulator speaks audio/pcm at 24000 Hz only, got ${format.type} at ${format.rate ?? "default"} Hz` };
    }
    const historyTokens = (session.input ?? []).reduce((sum, m) => sum + m.content.reduce((s, part) => s + estimateTokens(part.text), 0), 0);
    if (historyTokens > MAX_INPUT_TOKENS) {
      return { path: "input", code: "invalid_value", message: `input history is about ${historyTokens} tokens; at most ${MAX_INPUT_TOKENS} are accepted` };
    }
    const tools = session.delegation?.type === "responses" ? (session.delegation.responses?.tools ?? []) : [];
    const names = tools.flatMap((t) => (t.type === "function" && "name" in t ? [String(t.name)] : []));
    const duplicate = names.find((name, i) => names.indexOf(name) !== i);
    if (duplicate) return { path: "delegation.responses.tools", code: "invalid_value", message: `tool "${duplicate}" is declared twice` };
    return undefined;
  }

  private begin(session: SessionConfig): void {
    const { clock, index, timing, synthesizer } = this.env;
    this.config = session;
    this.phase = "active";
    this.originMs = clock.now();
    this.sessionId = `live_sim${String(index + 1).padStart(4, "0")}`;
    this.env.stats.session_id = this.sessionId;
    this.history = historyOf(session);
    this.summary = contextSummaryOf(session.instructions ?? "");
    this.voice = new SimulatedVoice(
      { clock, synthesizer, originMs: this.originMs, deltaMs: timing.outputDeltaMs, newTurnGapMs: timing.newTurnGapMs },
      { audio: (pcm, info) => this.sendAudio(pcm, info), transcript: (fragment) => this.sendOutputTranscript(fragment) },
    );
    this.send({ type: "session.started", event_id: this.nextEventId(), session: this.describeSession("active") });
  }

  private dispatch(event: ClientEvent, clientEventId: string | undefined): void {
    switch (event.type) {
      case "session.start":
        this.error("invalid_value", "the session has already started; session.start is accepted only as the first event", { param: "type", clientEventId });
        return;
      case "session.update":
        this.onUpdate(event.session.delegation, clientEventId);
        return;
      case "session.input_audio.append":
        this.onAudio(event.audio, clientEventId);
        return;
      case "session.input_audio.mute":
      case "session.input_audio.unmute":
        this.muted = event.type === "session.input_audio.mute";
        this.send({ type: this.muted ? "session.input_audio.muted" : "session.input_audio.unmuted", event_id: this.nextEventId(), client_event_id: clientEventId });
        return;
      case "session.instructions.append":
      case "session.thinking.append":
      case "session.commentary.append":
        this.onAppend(event.type.split(".")[1] as AppendKind, event.delegation_id, event.content, clientEventId);
        return;
      case "response.item.create":
        if (event.item.type === "function_call_output") this.onFunctionOutput(String(event.item.call_id), String(event.item.output), clientEventId);
        else this.onOtherItem(clientEventId);
        return;
      case "response.create":
        this.onResponseCreate(clientEventId);
        return;
      case "session.close":
        this.onClose();
        return;
    }
  }

  // ---- client events ----------------------------------------------------------------------------

  private onUpdate(delegation: DelegationConfig, clientEventId: string | undefined): void {
    const current = this.delegationType();
    if (delegation.type !== current) {
      this.error("invalid_value", `session.update cannot change the delegation type (the session uses "${current}")`, { param: "session.delegation.type", clientEventId });
      return;
    }
    this.config = { ...this.config, delegation };
    this.send({ type: "session.updated", event_id: this.nextEventId(), client_event_id: clientEventId, session: this.describeSession("active") });
  }

  private onAudio(base64: string, clientEventId: string | undefined): void {
    // Decoded behind the partial chunk left from the last append, in one buffer kept for the session:
    // the ear reads each 20 ms chunk in place and keeps none of them.
    const carried = this.pendingBytes;
    const needed = carried + base64DecodedLength(base64);
    if (this.inputBuffer.byteLength < needed) {
      const grown = new Uint8Array(Math.max(needed, 2 * this.inputBuffer.byteLength));
      grown.set(this.inputBuffer.subarray(0, carried));
      this.inputBuffer = grown;
    }
    const decoded = decodeBase64Into(base64, this.inputBuffer, carried);
    if (decoded < 0) {
      this.error("invalid_value", "audio is not valid base64", { param: "audio", clientEventId });
      return;
    }
    if (decoded % 2 !== 0) {
      this.error("invalid_value", `audio must be whole PCM16 samples; got ${decoded} bytes`, { param: "audio", clientEventId });
      return;
    }
    this.inputBytes += decoded;
    this.env.stats.input_audio_ms = this.inputMs();

    // Re-cut into 20 ms chunks: recognition fingerprints chunk-aligned audio.
    const buffer = this.inputBuffer;
    let at = 0;
    for (; at + CHUNK_BYTES <= needed && this.phase === "active" && !this.stalled; at += CHUNK_BYTES) {
      this.hearChunk(buffer.subarray(at, at + CHUNK_BYTES), this.heardChunks++ * CHUNK_MS);
    }
    // The remainder (less than a chunk, or all of it once the session stops listening) moves to the front.
    if (at > 0) buffer.copyWithin(0, at, needed);
    this.pendingBytes = needed - at;

    const step = Math.floor(this.inputMs() / this.env.timing.usageIntervalMs);
    if (step > this.usageSteps) {
      this.usageSteps = step;
      this.send({ type: "session.usage.updated", event_id: this.nextEventId(), usage: { seconds: this.usageSeconds() } });
    }
    this.fireInputFaults();
  }

  private hearChunk(chunk: Uint8Array, startMs: number): void {
    if (this.muted) return;
    const hearing = this.env.ear.hear(chunk, startMs);
    for (const fragment of hearing.fragments) {
      this.send({
        type: "session.input_transcript.delta",
        event_id: this.nextEventId(),
        delta: (this.inputFragments++ > 0 ? " " : "") + fragment.text,
        start_ms: Math.round(fragment.start_ms),
        end_ms: Math.round(fragment.end_ms),
      });
    }
    if (hearing.recognized) {
      this.env.stats.recognized.push(hearing.recognized.text);
      // The caller took the floor: stop talking over them — unless it is only a backchannel ("mm-hmm"
      // while the assistant talks), which a listener makes without asking for the floor, or the policy
      // talks through interruptions (and so never takes in what was said over it).
      if (this.voice.speaking && isBackchannel(hearing.recognized.text)) this.backchannels.add(hearing.recognized.id);
      else if (this.voice.speaking && this.env.policy.yields_to_interruptions === false) this.talkedOver.add(hearing.recognized.id);
      else this.voice.interrupt();
    }
    if (hearing.completed && (this.backchannels.delete(hearing.completed.utterance.id) || this.talkedOver.delete(hearing.completed.utterance.id))) {
      // Heard, logged, and not a turn: the assistant carries on.
    } else if (hearing.completed) {
      this.heard.push(hearing.completed.utterance.text);
      const { utterance } = hearing.completed;
      this.silenceMs = utterance.duration_ms - utterance.voiced_end_ms;
    } else if (this.heard.length > 0) {
      const voiced = rms(pcm16FromBytes(chunk)) >= 220;
      this.silenceMs = voiced ? 0 : this.silenceMs + CHUNK_MS;
    }
    if (this.heard.length > 0 && this.silenceMs >= this.env.timing.endOfTurnSilenceMs) {
      const request = this.heard.join(" ");
      this.heard = [];
      this.env.stats.turns.push(request);
      this.turnChain = this.turnChain.then(() => this.takeTurn(request)).catch((error) => this.internalError(error));
    }
  }

  private onAppend(kind: AppendKind, delegationId: string | null, content: string, clientEventId: string | undefined): void {
    const param = { clientEventId };
    if (delegationId !== null) {
      if (this.delegationType() === "responses") {
        this.error("invalid_value", `delegation_id must be null under Responses delegation; the backend is server-managed`, { ...param, param: "delegation_id" });
        return;
      }
      if (!this.clientDelegations.has(delegationId)) {
        this.error("invalid_value", `unknown delegation_id "${delegationId}"; delegation ids are valid only on the connection that created them`, { ...param, param: "delegation_id" });
        return;
      }
    }
    if (estimateTokens(content) > MAX_APPEND_TOKENS) {
      this.error("invalid_value", `content is about ${estimateTokens(content)} tokens; at most ${MAX_APPEND_TOKENS} per append`, { ...param, param: "content" });
      return;
    }
    const ack = (start_ms: number, end_ms: number) =>
      this.send({
        type: `session.${kind}.appended`,
        event_id: this.nextEventId(),
        client_event_id: clientEventId,
        delegation_id: delegationId,
        start_ms: Math.round(start_ms),
        end_ms: Math.round(end_ms),
      });
    if (kind === "commentary" && delegationId !== null) {
      // A delegated result: spoken as a new turn; the ack places it on the output timeline.
      this.turns.push({ role: "assistant", text: content });
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
    if (kind === "instructions" && delegationId === null && this.turns.length === 0 && this.heardChunks === 0 && !this.opened) {
      this.opened = true;
      const greeting = this.env.policy.greeting?.() ?? DEFAULT_GREETING;
      this.turns.push({ role: "assistant", text: greeting });
      this.speak(greeting, false);
    }
  }

  private onFunctionOutput(callId: string, output: string, clientEventId: string | undefined): void {
    if (this.delegationType() !== "responses") {
      this.error("invalid_value", "response.item.create is accepted only under Responses delegation", { param: "type", clientEventId });
      return;
    }
    const call = this.pendingCalls.get(callId);
    if (!call) {
      this.error("invalid_value", `unknown call_id "${callId}": no function call of this session is waiting for it`, { param: "item.call_id", clientEventId });
      return;
    }
    if (call.output !== undefined) {
      this.error("invalid_value", `call_id "${callId}" already has an output`, { param: "item.call_id", clientEventId });
      return;
    }
    call.output = output;
  }

  /** Another input item for the backend (a user message, …): the reference accepts it; the policy-driven backend has no use for it. */
  private onOtherItem(clientEventId: string | undefined): void {
    if (this.delegationType() !== "responses") this.error("invalid_value", "response.item.create is accepted only under Responses delegation", { param: "type", clientEventId });
  }

  private onResponseCreate(clientEventId: string | undefined): void {
    if (this.delegationType() !== "responses") {
      this.error("invalid_value", "response.create is accepted only under Responses delegation", { param: "type", clientEventId });
      return;
    }
    const continuation = this.continuations[0];
    if (!continuation) {
      this.error("invalid_value", "no backend response is waiting to be continued", { clientEventId });
      return;
    }
    const missing = continuation.callIds.filter((id) => this.pendingCalls.get(id)?.output === undefined);
    if (missing.length > 0) {
      this.error("function_call_outputs_required", `send a function_call_output (response.item.create) for ${missing.join(", ")} before response.create`, {
        clientEventId,
      });
      return;
    }
    this.continuations.shift();
    const outputs = continuation.callIds.map((id) => this.pendingCalls.get(id)!.output!);
    for (const id of continuation.callIds) this.pendingCalls.delete(id);
    continuation.resume(outputs);
  }

  private onClose(): void {
    if (this.fault("no_session_closed")) {
      this.voice.stop();
      this.closeSocket(1000, "");
      return;
    }
    this.finish("close_requested");
  }

  // ---- turns and delegation ---------------------------------------------------------------------

  private async takeTurn(request: string): Promise<void> {
    await this.env.clock.sleep(this.env.timing.frontendDelayMs);
    if (!this.live()) return;
    const decision = this.env.policy.frontend({ request, context: { ...(this.summary ? { summary: this.summary } : {}), history: [...this.history, ...this.turns] } });
    this.turns.push({ role: "user", text: request });
    if (decision.kind === "reply") {
      // An empty reply is a policy choosing to stay silent (a caller that has already said goodbye).
      if (!decision.text.trim()) return;
      this.turns.push({ role: "assistant", text: decision.text });
      this.speak(decision.text, false);
      return;
    }
    this.delegate(request, decision.acknowledgement);
  }

  private delegate(request: string, acknowledgement: string | undefined): void {
    const target = this.delegationType();
    const delegationId = `dlg_${++this.counters.delegation}`;
    const responseId = target === "responses" ? this.nextResponseId() : undefined;
    this.env.stats.delegations.push({ id: delegationId, target });
    this.send({
      type: "session.delegation.created",
      event_id: this.nextEventId(),
      offset_ms: Math.round(this.inputMs()),
      delegation: { id: delegationId, type: "delegation", target, ...(responseId ? { response_id: responseId } : {}) },
    });
    if (acknowledgement) {
      this.turns.push({ role: "assistant", text: acknowledgement });
      this.speak(acknowledgement, false);
    }
    if (target === "client") {
      this.clientDelegations.add(delegationId);
      return;
    }
    this.runBackend(delegationId, responseId!, request).catch((error) => {
      if (!(error instanceof SessionEnded)) this.internalError(error);
    });
  }

  /** Responses delegation: the policy's backend as a sequence of streamed responses, one per tool round. */
  private async runBackend(delegationId: string, firstResponseId: string, request: string): Promise<void> {
    const settings = this.config.delegation?.type === "responses" ? (this.config.delegation.responses ?? {}) : {};
    const model = settings.model ?? SIMULATED_BACKEND_MODEL;
    const declared = new Set((settings.tools ?? []).flatMap((t) => (t.type === "function" && "name" in t ? [String(t.name)] : [])));
    const transcript = [...this.history, ...this.turns];
    let context = `${settings.instructions ?? ""}${JSON.stringify(settings.tools ?? [])}${transcript.map((m) => m.text).join("\n")}`;
    let previousInput = 0;
    let responseId = firstResponseId;
    let outputIndex = 0;
    const { clock, timing } = this.env;

    const emit = (event: Record<string, unknown>) =>
      this.send({ type: "response.event", event_id: this.nextEventId(), delegation_id: delegationId, event } as ServerEventInput);
    const usage = (outputText: string): ResponseUsage => {
      const input = estimateTokens(context);
      const cached = Math.floor(previousInput / 64) * 64;
      previousInput = input;
      const reasoning = 24;
      const output = reasoning + estimateTokens(outputText);
      return {
        input_tokens: input,
        input_tokens_details: { cached_tokens: cached, cache_write_tokens: 0 },
        output_tokens: output,
        output_tokens_details: { reasoning_tokens: reasoning },
        total_tokens: input + output,
      };
    };
    const open = () => {
      this.env.stats.responses++;
      outputIndex = 0;
      emit({ type: "response.created", response: { id: responseId, object: "response", status: "in_progress", model, output: [] } });
      const reasoning = { id: `rs_${++this.counters.item}`, type: "reasoning", summary: [] };
      emit({ type: "response.output_item.added", output_index: outputIndex, item: reasoning });
      emit({ type: "response.output_item.done", output_index: outputIndex++, item: reasoning });
    };
    const complete = (outputText: string) =>
      emit({ type: "response.completed", response: { id: responseId, object: "response", status: "completed", model, output: [], usage: usage(outputText) } });

    open();
    const tools: PolicyTools = {
      call: async (name, args) => {
        await clock.sleep(timing.backendDelayMs);
        this.assertLive();
        if (!declared.has(name)) {
          throw new Error(`the backend called "${name}", which session.delegation.responses.tools does not declare`);
        }
        const callId = `call_${++this.counters.call}`;
        const item = { id: `fc_${++this.counters.item}`, type: "function_call", call_id: callId, name };
        const argumentsJson = JSON.stringify(args);
        emit({ type: "response.output_item.added", output_index: outputIndex, item: { ...item, status: "in_progress", arguments: "" } });
        emit({ type: "response.output_item.done", output_index: outputIndex++, item: { ...item, status: "completed", arguments: argumentsJson } });
        complete(argumentsJson);
        this.env.stats.function_calls++;
        const [output] = await this.awaitOutputs(delegationId, responseId, [callId]);
        context += output;
        responseId = this.nextResponseId();
        open();
        // The wire carries no status: a refusal is known by its output, as the real backend would know it.
        const parsed = parseJsonOr(output!);
        return { status: isRefusal(parsed) ? "failed" : "completed", output: parsed };
      },
    };

    let reply: string;
    try {
      ({ reply } = await this.env.policy.backend({ request, context: { ...(this.summary ? { summary: this.summary } : {}), history: this.history }, transcript }, tools));
    } catch (error) {
      if (error instanceof SessionEnded || !this.live()) return;
      const message = error instanceof Error ? error.message : String(error);
      emit({ type: "response.failed", response: { id: responseId, object: "response", status: "failed", model, output: [], error: { code: "server_error", message } } });
      return;
    }
    await clock.sleep(timing.backendDelayMs);
    if (!this.live()) return;
    const messageId = `msg_${++this.counters.item}`;
    const index = outputIndex++;
    emit({ type: "response.output_item.added", output_index: index, item: { id: messageId, type: "message", role: "assistant", status: "in_progress", content: [] } });
    emit({ type: "response.output_text.delta", item_id: messageId, output_index: index, content_index: 0, delta: reply });
    emit({ type: "response.output_text.done", item_id: messageId, output_index: index, content_index: 0, text: reply });
    emit({
      type: "response.output_item.done",
      output_index: index,
      item: { id: messageId, type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: reply }] },
    });
    complete(reply);
    // GPT-Live speaks the backend's result itself, as a new turn.
    this.turns.push({ role: "assistant", text: reply });
    this.speak(reply, true);
  }

  /** Wait for one function_call_output per call and then response.create. */
  private awaitOutputs(delegationId: string, responseId: string, callIds: string[]): Promise<string[]> {
    for (const id of callIds) this.pendingCalls.set(id, { delegationId, responseId });
    return new Promise((resume, cancel) => this.continuations.push({ responseId, callIds, resume, cancel }));
  }

  private cancelContinuations(): void {
    for (const continuation of this.continuations.splice(0)) continuation.cancel(new SessionEnded());
  }

  private speak(text: string, newTurn: boolean): void {
    this.env.ear.said?.(text);
    this.voice.say(text, { newTurn }).catch((error) => this.internalError(error));
  }

  // ---- sending ----------------------------------------------------------------------------------

  private sendAudio(pcm: Uint8Array, info: DeltaInfo): boolean {
    if (!this.live()) return false;
    let delta = pcm;
    if (info.utterance === 1 && info.index === 0 && this.fault("odd_length_pcm")) delta = pcm.subarray(0, Math.max(1, pcm.byteLength - 1));
    if (info.count > 1 && info.index === Math.floor(info.count / 2) && this.fault("stall_mid_response")) {
      this.stalled = true;
      return false;
    }
    // No event_id and no timestamps on audio: the client places it on its own receive clock.
    // Every 160 ms of speech: written by hand, byte for byte what JSON.stringify gives (base64 needs no escaping).
    this.sendText(`{"type":"session.output_audio.delta","delta":"${encodePcmBase64(delta)}"}`);
    this.env.stats.output_audio_ms += pcm.byteLength / 48;
    return true;
  }

  private sendOutputTranscript(fragment: { text: string; start_ms: number; end_ms: number }): void {
    this.send({
      type: "session.output_transcript.delta",
      event_id: this.nextEventId(),
      delta: (this.outputFragments++ > 0 ? " " : "") + fragment.text,
      start_ms: Math.round(fragment.start_ms),
      end_ms: Math.round(fragment.end_ms),
    });
  }

  /** Typed against the protocol's server-event schema, so the simulator cannot emit a malformed event by accident. */
  private send(event: ServerEventInput): void {
    this.sendText(JSON.stringify(event));
  }

  private sendText(text: string): void {
    if (this.phase === "closed" || this.stalled || this.ws.readyState !== WebSocket.OPEN) return;
    this.wire.sending(frameKey(text));
    this.cork.beforeWrite();
    this.ws.send(text);
  }

  private error(code: string, message: string, options: { param?: string; clientEventId?: string; type?: string } = {}): void {
    this.env.stats.errors_sent.push(code);
    this.send({
      type: "error",
      event_id: this.nextEventId(),
      error: {
        type: options.type ?? "invalid_request_error",
        code,
        message,
        param: options.param ?? null,
        client_event_id: options.clientEventId ?? null,
      },
    });
  }

  private rejectIssues(type: string, issues: ConfigIssue[], clientEventId: string | undefined): void {
    const first = issues[0] ?? { path: "", code: "invalid_value", message: "invalid event" };
    const list = issues.map((i) => `${i.path || "(event)"}: ${i.message}`).join("; ");
    this.error(first.code, `${type} is invalid: ${list}`, { param: first.path || undefined, clientEventId });
  }

  private internalError(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.env.stats.internal_errors.push(message);
    this.error("server_error", `simulator failure: ${message}`, { type: "server_error" });
  }

  /** End the session with `session.closed` and close the socket. */
  private finish(reason: string): void {
    this.voice.stop();
    this.env.stats.closed_reason = reason;
    this.send({
      type: "session.closed",
      event_id: this.nextEventId(),
      reason,
      session: this.describeSession("closed"),
      usage: { seconds: this.usageSeconds() },
    });
    this.closeSocket(1000, "");
  }

  private closeSocket(code: number, reason: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.phase = "closed";
    this.cancelContinuations();
    this.wire.sending(CLOSE_FRAME_KEY);
    this.cork.beforeWrite();
    this.ws.close(code, reason);
  }

  private dropSocket(): void {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.phase = "closed";
    this.voice?.stop();
    this.cancelContinuations();
    this.wire.sending(CLOSE_FRAME_KEY);
    this.cork.flush();
    this.ws.terminate();
  }

  // ---- faults -----------------------------------------------------------------------------------

  /** Whether the fault is planned for this session; marks it fired (each fires once). */
  private fault(kind: LiveFaultKind): boolean {
    if (this.firedFaults.has(kind) || !this.env.faults.some((f) => f.kind === kind)) return false;
    this.firedFaults.add(kind);
    this.env.stats.faults_fired.push(kind);
    return true;
  }

  private fireInputFaults(): void {
    for (const { kind, atInputMs } of this.env.faults) {
      if (this.firedFaults.has(kind) || this.inputMs() < atInputMs || !this.live()) continue;
      switch (kind) {
        case "expired":
          this.fault(kind);
          this.finish("expired");
          break;
        case "fatal_error":
          this.fault(kind);
          this.voice.stop();
          this.error("insufficient_quota", "You exceeded your current quota; check your plan and billing details.", { type: "insufficient_quota" });
          this.closeSocket(1008, "insufficient_quota");
          break;
        case "binary_frame": {
          this.fault(kind);
          const bytes = Buffer.from([0xde, 0xad, 0xbe, 0xef]);
          this.wire.sending(frameKey(bytes));
          this.cork.beforeWrite();
          this.ws.send(bytes);
          break;
        }
        case "unknown_event":
          this.fault(kind);
          this.sendText(JSON.stringify({ type: "transport.simulated_notice", event_id: this.nextEventId(), note: "an event type clients must ignore" }));
          break;
        case "malformed_json":
          this.fault(kind);
          this.sendText('{"type": "session.usage.updated", "usage": ');
          break;
      }
    }
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private live(): boolean {
    return this.phase === "active" && !this.stalled;
  }

  private assertLive(): void {
    if (!this.live()) throw new SessionEnded();
  }

  private delegationType(): "client" | "responses" {
    return this.config.delegation?.type ?? "client";
  }

  private inputMs(): number {
    return this.inputBytes / 48;
  }

  private usageSeconds(): number {
    return Math.round(this.inputMs()) / 1000;
  }

  private nextEventId(): string {
    return `event_${++this.serverEvents}`;
  }

  private nextResponseId(): string {
    return `resp_${++this.counters.response}`;
  }

  private record(type: string): void {
    const received = this.env.stats.received;
    const last = received.at(-1);
    if (last?.type === type) last.count++;
    else received.push({ type, count: 1 });
  }

  private describeSession(status: "active" | "closed") {
    const { clock } = this.env;
    const nowS = clock.virtual ? VIRTUAL_EPOCH_S + Math.floor(clock.now() / 1000) : Math.floor(Date.now() / 1000);
    const startedS = nowS - Math.floor((clock.now() - this.originMs) / 1000);
    const delegation = this.config.delegation ?? { type: "client" as const };
    return {
      id: this.sessionId,
      object: "live.session",
      model: this.config.model,
      status,
      expires_at: startedS + SESSION_LIFETIME_S,
      instructions: this.config.instructions ?? "",
      audio: { format: { type: "audio/pcm", rate: 24_000 }, output: { voice: this.config.audio?.output?.voice ?? DEFAULT_VOICE } },
      input: this.config.input ?? [],
      delegation:
        delegation.type === "client"
          ? delegation
          : {
              type: "responses",
              responses: {
                model: SIMULATED_BACKEND_MODEL,
                instructions: "",
                tools: [],
                tool_choice: "auto",
                parallel_tool_calls: true,
                reasoning: { effort: "medium" },
                ...delegation.responses,
              },
            },
    };
  }
}

/**
 * The simulated model reads its instructions; the one thing the offline policy needs from them is the
 * authorized context summary, which the adapter appends under CONTEXT_SUMMARY_HEADING.
 */
function contextSummaryOf(instructions: string): string | undefined {
  const at = instructions.lastIndexOf(CONTEXT_SUMMARY_HEADING);
  if (at < 0) return undefined;
  const summary = instructions.slice(at + CONTEXT_SUMMARY_HEADING.length).trim();
  return summary || undefined;
}

/** Prior text turns from `session.input` as policy history (developer messages are instructions, not turns). */
function historyOf(session: SessionConfig): HistoryMessage[] {
  const history: HistoryMessage[] = [];
  for (const message of session.input ?? []) {
    if (message.role === "developer") continue;
    history.push({ role: message.role, text: message.content.map((part) => part.text).join(" ") });
  }
  return history;
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What the simulated assistant says when asked to open a call and its policy has no greeting of its own. */
export const DEFAULT_GREETING = "Hello, thanks for calling. How can I help you today?";

/** Short listener words that do not ask for the floor (a backchannel), as a listener on a call would treat them. */
const BACKCHANNELS = new Set(["mm-hmm", "mhm", "mm", "uh-huh", "right", "okay", "ok", "yeah", "yes", "sure", "i see", "got it", "alright", "all right"]);
export function isBackchannel(text: string): boolean {
  return BACKCHANNELS.has(text.toLowerCase().replace(/[^a-z' -]/g, "").trim());
}
