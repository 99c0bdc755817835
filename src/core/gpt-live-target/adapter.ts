/**
 * The GPT-Live target adapter: runs one trial's conversation over the Live protocol, against the real
 * service or (offline) a fresh local simulator per session, and reports it to the harness.
 */
import { OPENAI_API_BASE_URL, splitServiceUrl, type AuthHeader } from "../services/auth";
import { checkClientServiceEndpoint, CLIENT_SERVICE_TOKEN_ENV, clientServiceToken } from "../services/client-service";
import { startEspeak } from "../speech/espeak";
import { memoizedEspeak } from "../speech/memo";
import { commentaryParts, ObservedTranscript, parseToolOutput } from "../target/client-backend";
import type { AssistantPolicy, PolicyToolResult } from "../target/policy";
import { normalizeUsage, ResponsesBackend } from "../target/responses-backend";
import type { TargetSettings } from "../target/settings";
import type { SessionIO, SessionReport, SessionRequest, TargetAdapter, TargetDescriptor, TargetSession, ToolDeclaration } from "../target/types";
import type { Json } from "../world/types";
import { LiveClient, type LiveMessage } from "../live/client";
import { CONTEXT_SUMMARY_HEADING, type InputMessage, type ServerEvent, type SessionConfig } from "../live/protocol";
import type { LiveFault } from "../simulator/faults";
import { DEFAULT_SIMULATOR_TIMING, type SimulatorTiming } from "../simulator/timing";
import type { SimulatorSynthesizer } from "../simulator/voice";
import { startLiveSimulator, type LiveSimulator } from "../simulator/server";
import type { ConnectorLimits } from "../client-service/protocol";
import { REMOTE_STAGE, RemoteClientService } from "./remote-service";

export { commentaryParts, MAX_COMMENTARY_CHARS } from "../target/client-backend";

export const GPT_LIVE_URL = "wss://api.openai.com/v1/live/sessions";

export interface GptLiveTargetOptions {
  settings: TargetSettings;
  /** The voice frontend's instructions (immutable after start). */
  instructions: string;
  /** The reasoning backend's instructions (Responses delegation, or the live client backend). */
  backend_instructions: string;
  /** The backend's tools: the world operations the case authorizes, as the application declares them. */
  tools: ToolDeclaration[];
  /**
   * Offline only: the assistant policy that drives the local simulator (frontend and managed backend)
   * and, under client delegation, this application's backend. Faults and timing tune the simulator.
   */
  offline?: {
    policy: AssistantPolicy;
    synthesizer?: SimulatorSynthesizer;
    faults?: readonly LiveFault[] | ((sessionIndex: number) => readonly LiveFault[]);
    timing?: Partial<SimulatorTiming>;
    /**
     * The models the simulator says it served, instead of the ones the session asked for: a service that
     * answers with another model than requested, for proving that runs and comparisons flag it.
     */
    reported_models?: { model?: string; backend_model?: string };
  };
  /** Extra data that defines the target (fault variant, policy version): part of the provenance digest. */
  describe?: Record<string, Json>;
  /**
   * Client delegation answered by a separately running client-delegation service (docs/remote-assistant.md):
   * its WebSocket URL when the run's settings name none (`--assistant-endpoint` wins), and the connector's
   * limits (defaults there). The token always comes from the run (OPENAI_CLIENT_ASSISTANT_TOKEN).
   */
  client_service?: { endpoint?: string; limits?: Partial<ConnectorLimits> };
}

/** A fatal failure observed on the session; the harness ends the trial as infrastructure_error at `stage`. */
class SessionFault extends Error {
  constructor(
    readonly stage: string,
    message: string,
  ) {
    super(message);
  }
}

const FATAL_STAGE: Record<string, string> = { insufficient_quota: "provider", invalid_api_key: "provider", account_deactivated: "provider", billing_hard_limit_reached: "provider" };

/**
 * The GPT-Live target adapter: the Live wire protocol over `ws`, to the real service (live) or the local
 * simulator (offline, a fresh simulator per session on the trial's clock). It maps protocol events to the
 * harness's normalized events, executes tool calls only through the harness's door (`io.callTool`), and
 * in client delegation runs the application's backend: the Responses API live, the policy offline.
 */
export function gptLiveTarget(options: GptLiveTargetOptions): TargetAdapter {
  // The settings' wrap_policy (docs/vary.md) applied once: every session and the client backend run the wrapped policy.
  options = withWrappedPolicy(options);
  const { settings } = options;
  if (settings.mode === "offline" && !options.offline) throw new Error("an offline GPT-Live target needs an offline policy to drive the local simulator");
  // OpenAI's own Live service needs its key; a custom endpoint gets exactly the key named for it, or none.
  if (settings.mode === "live" && !settings.api_key && !settings.endpoint) throw new Error("a live GPT-Live target needs an API key");
  const service = clientService(options);
  const responsesBackend = !service && clientBackend(settings) === "responses";
  if (settings.delegation === "client" && !service && !responsesBackend && !options.offline)
    throw new Error("client delegation needs a backend: give the target an offline policy, a Responses endpoint (client_backend: \"responses\"), or a client-delegation service (client_service)");
  let assistantVoice: SimulatorSynthesizer | undefined;
  // The simulator's own voice is a fixed function of its text: each reply is synthesized once per process (memo.ts).
  const voice = () => (assistantVoice ??= options.offline?.synthesizer ?? memoizedEspeak(settings.voice, settings.simulator_speech_cache));
  const simulatorSettings = settings.mode === "offline" ? simulatorPlan(options.offline) : {};

  return {
    kind: "gpt-live",
    accepts: ["audio"],
    ...(options.offline ? { policy: options.offline.policy } : {}),
    describe(): TargetDescriptor {
      return {
        kind: "gpt-live",
        model: settings.model,
        // A client-delegation service runs its own backend: crashlab asks for no model there.
        ...(service ? {} : { backend_model: settings.delegation === "responses" || responsesBackend ? settings.backend_model : `policy:${options.offline!.policy.name}@${options.offline!.policy.version}` }),
        instructions: options.instructions,
        backend_instructions: options.backend_instructions,
        tools: options.tools.map((t) => t.name),
        voice: settings.voice,
        delegation: settings.delegation,
        endpoint: settings.mode === "live" ? (settings.endpoint ?? GPT_LIVE_URL) : "local-simulator",
        settings: {
          mode: settings.mode,
          ...(options.offline ? { policy: `${options.offline.policy.name}@${options.offline.policy.version}` } : {}),
          ...(options.offline?.reported_models ? { simulator_reports: { ...options.offline.reported_models } } : {}),
          // The faults and timing the local simulator is told to show: they change what the target does.
          ...simulatorSettings,
          ...(options.client_service?.limits ? { client_service_limits: Object.fromEntries(Object.entries(options.client_service.limits).filter((e): e is [string, number] => typeof e[1] === "number")) } : {}),
          ...(settings.credentials ? { credentials: { ...settings.credentials } } : {}),
          // Where client delegations are answered, and non-default key headers (Azure): never a key.
          ...(settings.delegation === "client" && responsesBackend ? { responses_endpoint: splitServiceUrl(settings.responses_base_url ?? OPENAI_API_BASE_URL).base } : {}),
          ...(service ? { client_service: service.endpoint } : {}),
          ...(settings.api_key_header === "api-key" || settings.responses_api_key_header === "api-key"
            ? { key_headers: { live: settings.api_key_header ?? "authorization", responses: settings.responses_api_key_header ?? "authorization" } }
            : {}),
          ...options.describe,
        },
      };
    },
    session() {
      return { instructions: options.instructions, voice: settings.voice, delegation: settings.delegation, tools: options.tools };
    },
    async start(request: SessionRequest, io: SessionIO): Promise<TargetSession> {
      let simulator: LiveSimulator | undefined;
      let url = settings.endpoint ?? GPT_LIVE_URL;
      // null: no Authorization header at all (a custom endpoint nobody named a key for).
      let apiKey: string | null = settings.api_key ?? null;
      if (settings.mode === "offline") {
        // In real time the engine starts before this trial's audio flows, not inside a reply (a few hundred
        // milliseconds of CPU that would stall every session's pacing).
        if (settings.real_time && !options.offline!.synthesizer) await startEspeak();
        simulator = await startLiveSimulator({
          policy: options.offline!.policy,
          synthesizer: voice(),
          clock: io.clock,
          ...(options.offline!.faults ? { faults: options.offline!.faults } : {}),
          ...(options.offline!.timing ? { timing: options.offline!.timing } : {}),
          ...(options.offline!.reported_models ? { reportedModels: options.offline!.reported_models } : {}),
        });
        // Each simulator learns only its own trial's words, from its own session request (two trials may send
        // identical audio chunks, e.g. a CRAWL synthesis and the clean WALK recording made from it).
        if (request.caller_audio) simulator.registerCallerAudio(request.caller_audio.pcm, request.caller_audio.text);
        // Offline means the local simulator: its placeholder token never leaves this process.
        url = simulator.url;
        apiKey = "offline-simulator";
      }
      const session = new LiveTargetSession(options, request, io, simulator, settings.mode === "offline" ? "local-simulator" : servedBy(url));
      try {
        // The application's own service first: a refused token or an unreachable service opens no Live session.
        if (service) await session.connectService(service);
        await session.connect(url, apiKey, settings.mode === "live" ? (settings.api_key_header ?? "authorization") : "authorization");
      } catch (error) {
        session.dropService();
        await simulator?.close();
        throw error;
      }
      return session;
    },
  };
}

/**
 * The local simulator's fault plan and timing, as data for the target digest. A plan given as a list is
 * recorded as it is. A plan given as a function is never called here (it may count its calls, as a plan
 * that faults only the first session does): it is marked as one, its code is in the package's files (the
 * package digest), and what it varies with belongs in the adapter's `describe` (docs/results.md).
 */
function simulatorPlan(offline: GptLiveTargetOptions["offline"]): Record<string, Json> {
  if (!offline) return {};
  const out: Record<string, Json> = {};
  const faults = offline.faults;
  if (typeof faults === "function") out.simulator_faults = "per-session function";
  else if (faults && faults.length > 0) out.simulator_faults = faults.map((f) => (typeof f === "string" ? f : { kind: f.kind, ...(f.atInputMs !== undefined ? { atInputMs: f.atInputMs } : {}) }));
  const timing = Object.entries(offline.timing ?? {}).filter((e): e is [string, number] => typeof e[1] === "number");
  if (timing.length > 0) out.simulator_timing = Object.fromEntries(timing);
  return out;
}

/** The options with the offline policy wrapped as the settings ask (`wrap_policy`, docs/vary.md), once, for every session. */
function withWrappedPolicy(options: GptLiveTargetOptions): GptLiveTargetOptions {
  const wrap = options.settings.wrap_policy;
  if (!wrap || !options.offline) return options;
  return { ...options, offline: { ...options.offline, policy: wrap(options.offline.policy) } };
}

/** Who served a live session, for the record: the endpoint's host (never a path, query or key). */
function servedBy(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "unknown";
  }
}

/** The client-delegation service that answers client delegations, when there is one: the run's setting, else the target's own. */
function clientService(options: GptLiveTargetOptions): { endpoint: string; token: string | undefined; limits: Partial<ConnectorLimits> } | null {
  const { settings } = options;
  if (settings.delegation !== "client") return null;
  const endpoint = settings.client_service?.endpoint ?? options.client_service?.endpoint;
  if (!endpoint) return null;
  // The run's settings checked theirs; a target's own is checked here, the same way.
  if (settings.client_service?.endpoint === undefined) checkClientServiceEndpoint("gptLiveTarget client_service.endpoint", endpoint);
  const token = settings.client_service?.token;
  if (token !== undefined) clientServiceToken({ [CLIENT_SERVICE_TOKEN_ENV]: token }, { api_key: settings.api_key, responses_api_key: settings.responses_api_key }, "a client-delegation service");
  return { endpoint, token, limits: options.client_service?.limits ?? {} };
}

/** Who answers client delegations: the settings say, else the Responses API live and the policy offline. */
function clientBackend(settings: TargetSettings): "responses" | "policy" {
  return settings.client_backend ?? (settings.mode === "live" ? "responses" : "policy");
}

/** `session.start` config: the context summary goes into the instructions, history into `input`. */
function sessionConfig(options: GptLiveTargetOptions, request: SessionRequest): SessionConfig {
  const { settings } = options;
  const summary = request.context?.summary ? `\n\n${CONTEXT_SUMMARY_HEADING} ${request.context.summary}` : "";
  const input: InputMessage[] = (request.context?.history ?? []).map((m) =>
    m.role === "user"
      ? { type: "message", role: "user", content: [{ type: "input_text", text: m.text }] }
      : { type: "message", role: "assistant", content: [{ type: "output_text", text: m.text }] },
  ) as InputMessage[];
  return {
    model: settings.model,
    instructions: request.instructions + summary,
    audio: { format: { type: "audio/pcm", rate: 24000 }, output: { voice: request.voice } },
    ...(input.length ? { input } : {}),
    delegation:
      request.delegation === "responses"
        ? {
            type: "responses",
            responses: {
              model: settings.backend_model,
              instructions: options.backend_instructions,
              tools: request.tools.map((t) => ({ type: "function" as const, name: t.name, description: t.description, parameters: t.parameters })),
              tool_choice: "auto",
            },
          }
        : { type: "client" },
  } as SessionConfig;
}

class LiveTargetSession implements TargetSession {
  private readonly client = new LiveClient({ onListenerError: (error) => this.fail("harness", `event handling failed: ${(error as Error)?.message ?? String(error)}`) });
  private firstAudioAt: number | null = null;
  /** When session.started arrived: the zero of the service's output timeline (output transcript times). */
  private sessionStartedAt: number | null = null;
  private fault: SessionFault | null = null;
  private closing = false;
  /** Function calls of the current managed response per delegation, answered once it completes. */
  private readonly pendingCalls = new Map<string, Array<{ call_id: string; name: string; arguments: string }>>();
  private readonly transcript: ObservedTranscript;
  private readonly backend: ResponsesBackend | undefined;
  /** The application's own client-delegation service, when it answers the delegations. */
  private service: RemoteClientService | null = null;

  constructor(
    private readonly options: GptLiveTargetOptions,
    private readonly request: SessionRequest,
    private readonly io: SessionIO,
    private readonly simulator: LiveSimulator | undefined,
    private readonly servedBy: string,
  ) {
    this.transcript = new ObservedTranscript(request.context?.history ?? []);
    const { settings } = options;
    if (request.delegation === "client" && clientBackend(settings) === "responses")
      this.backend = new ResponsesBackend({
        // The backend's own key: never the Live endpoint's.
        apiKey: settings.responses_api_key ?? "",
        ...(settings.responses_api_key_header ? { authHeader: settings.responses_api_key_header } : {}),
        ...(settings.responses_base_url ? { baseURL: settings.responses_base_url } : {}),
        model: settings.backend_model,
        instructions: options.backend_instructions,
        tools: request.tools,
      });
  }

  async connect(url: string, apiKey: string | null, authHeader: AuthHeader): Promise<void> {
    const { io } = this;
    this.client.onRaw((frame) => {
      const event: Json = frame.json !== undefined ? (frame.json as Json) : frame.binary_bytes !== undefined ? { binary_bytes: frame.binary_bytes } : { text: frame.text ?? "" };
      io.emit({ type: "raw", at_ms: frame.at_ms, direction: frame.direction, event });
    });
    this.client.on((message) => this.handle(message));
    io.countProviderRequest("live_session");
    // The trial's stop signal may abort connecting, but not a session that started: a trial stopped at a
    // limit still closes its session politely (session.close, then session.closed), so it is recorded
    // as the target's failure rather than lost to a dropped connection.
    const connecting = new AbortController();
    const stop = () => connecting.abort(io.signal.reason);
    if (io.signal.aborted) stop();
    else io.signal.addEventListener("abort", stop, { once: true });
    let started;
    try {
      started = await this.client.connect({ url, apiKey, authHeader, session: sessionConfig(this.options, this.request), clock: io.clock, signal: connecting.signal });
    } finally {
      io.signal.removeEventListener("abort", stop);
    }
    this.sessionStartedAt = io.clock.now();
    const delegation = started.session.delegation as { type: string; responses?: { model?: unknown } } | null | undefined;
    const backendModel = delegation?.type === "responses" ? delegation.responses?.model : undefined;
    io.emit({
      type: "session.started",
      at_ms: this.sessionStartedAt,
      session_id: started.session.id,
      ...(started.session.model ? { model: started.session.model } : {}),
      ...(typeof backendModel === "string" ? { backend_model: backendModel } : {}),
      served_by: this.servedBy,
    });
  }

  /** Connect to the client-delegation service (docs/remote-assistant.md); its refusal is this session's failure to start, at `remote_service`. */
  async connectService(service: { endpoint: string; token: string | undefined; limits: Partial<ConnectorLimits> }): Promise<void> {
    const { io } = this;
    if (!service.token) throw new SessionFault(REMOTE_STAGE, "a client-delegation service needs its token: set OPENAI_CLIENT_ASSISTANT_TOKEN (the run passes it to the target as settings.client_service.token)");
    if (!io.report) throw new SessionFault(REMOTE_STAGE, "this harness keeps no evidence a target reports about itself, which a client-delegation service's tool calls are");
    const real = this.options.settings.real_time;
    this.service = new RemoteClientService(
      service.endpoint,
      service.token,
      {
        io,
        appendCommentary: (id, content) => this.client.appendCommentary(id, content),
        fail: (stage, message) => this.fail(stage, message),
        // Virtual time: the service's own processing takes no trial time, so each reported call is placed one
        // backend think time after the step before it, as crashlab's own client backend thinks.
        thinkMs: real ? 0 : (this.options.offline?.timing?.backendDelayMs ?? DEFAULT_SIMULATOR_TIMING.backendDelayMs),
      },
      service.limits,
    );
    try {
      await this.service.connect(this.request, io.fixture?.() ?? null);
    } catch (error) {
      throw new SessionFault(REMOTE_STAGE, (error as Error).message);
    }
  }

  dropService(): void {
    this.service?.drop();
  }

  announceCallerAudio(audio: { pcm: Uint8Array; text: string }): void {
    this.simulator?.registerCallerAudio(audio.pcm, audio.text);
  }

  open(prompt: string): void {
    // General context before anyone spoke: the Live service (and the simulator) take it as the cue to open.
    this.client.appendInstructions(null, prompt);
  }

  sendAudio(chunk: Uint8Array): void {
    if (this.fault) throw this.fault;
    this.firstAudioAt ??= this.io.clock.now();
    this.client.appendAudio(chunk);
  }

  async close(): Promise<SessionReport> {
    this.closing = true;
    try {
      const result = await this.client.close({ timeoutMs: 10_000 });
      // The service hears the session's end and must answer it, with no work left unfinished.
      const serviceFault = this.service ? await this.service.finish(result.outcome === "closed" ? (result.event as unknown as Record<string, unknown>) : null) : null;
      if (serviceFault) throw new SessionFault(REMOTE_STAGE, serviceFault);
      const seconds = result.usage_seconds ?? this.client.usageSeconds;
      if (result.outcome === "closed")
        return { closed_cleanly: result.reason === "close_requested", close_reason: result.reason, ...(seconds !== undefined ? { frontend_seconds: seconds } : {}) };
      return {
        closed_cleanly: false,
        close_reason: result.outcome === "timeout" ? `no session.closed within ${result.waited_ms} ms` : `socket closed without session.closed${result.close_code ? ` (code ${result.close_code})` : ""}`,
        ...(seconds !== undefined ? { frontend_seconds: seconds } : {}),
      };
    } finally {
      this.service?.drop();
      await this.simulator?.close();
    }
  }

  private fail(stage: string, message: string): void {
    if (this.fault || this.closing) return;
    this.fault = new SessionFault(stage, message);
    this.io.emit({ type: "error", at_ms: this.io.clock.now(), code: stage, message, fatal: true, stage });
  }

  private handle(message: LiveMessage): void {
    const { io } = this;
    switch (message.kind) {
      case "protocol_error":
        return this.fail("protocol", message.error.message);
      case "socket_closed":
        if (!this.closing && !message.clean) this.fail("connection", `the connection closed unexpectedly (code ${message.code}${message.reason ? `: ${message.reason}` : ""})`);
        return;
      case "unknown_event":
      case "state":
        return; // unknown events are tolerated: they are in the raw log
      case "event":
        break;
    }
    const e = message.event;
    const at = message.at_ms;
    switch (e.type) {
      case "session.output_audio.delta":
        if (message.audio) io.emit({ type: "audio.delta", at_ms: at, role: "assistant", pcm: message.audio });
        return;
      case "session.input_transcript.delta": {
        // Input timestamps count received input audio: shift them onto the trial timeline.
        const offset = this.firstAudioAt ?? at;
        io.emit({ type: "transcript.delta", at_ms: at, role: "user", text: e.delta, ...(e.start_ms !== undefined ? { start_ms: offset + e.start_ms } : {}), ...(e.end_ms !== undefined ? { end_ms: offset + e.end_ms } : {}) });
        this.transcript.append("user", e.delta);
        this.service?.observe(e);
        return;
      }
      case "session.output_transcript.delta": {
        // A fragment belongs where the audio it captions sits: the service times it on its output timeline,
        // which starts with the session. (Stamping it on arrival, which comes once its words were spoken,
        // put it late and stretched it over the gap before the next turn, so wording changed the turns.)
        const origin = this.sessionStartedAt ?? at;
        const placed = e.start_ms !== undefined && e.end_ms !== undefined ? { start_ms: origin + e.start_ms, end_ms: origin + Math.max(e.start_ms, e.end_ms) } : { start_ms: at, end_ms: at };
        io.emit({ type: "transcript.delta", at_ms: at, role: "assistant", text: e.delta, ...placed });
        this.transcript.append("assistant", e.delta);
        this.service?.observe(e);
        return;
      }
      case "session.delegation.created":
        // Targets other than these two (the references name more) are in the raw log; nothing here answers them.
        if (e.delegation.target !== "client" && e.delegation.target !== "responses") return;
        {
          const remote = this.service !== null && e.delegation.target === "client";
          io.emit({ type: "delegation.created", at_ms: at, delegation_id: e.delegation.id, target: e.delegation.target, ...(e.delegation.response_id ? { response_id: e.delegation.response_id } : {}), ...(remote ? { reports_completion: true } : {}) });
          if (remote) this.service!.observe(e);
          else if (e.delegation.target === "client") void this.runClientBackend(e.delegation.id);
        }
        return;
      case "response.event":
        return this.handleResponseEvent(e.delegation_id ?? "", e.event, at);
      case "session.commentary.appended":
        // A client-delegation service says itself when a delegation is complete.
        // Its ack places the result on the output timeline, which starts with the session: the response is
        // not complete before that speech has had its time, however fast the backend answered.
        if (e.delegation_id && !this.service) {
          const placed = this.sessionStartedAt !== null && typeof e.end_ms === "number" ? { placed_until_ms: this.sessionStartedAt + e.end_ms } : {};
          io.emit({ type: "delegation.completed", at_ms: at, delegation_id: e.delegation_id, ...placed });
        }
        return;
      case "session.usage.updated":
        io.emit({ type: "usage", at_ms: at, seconds: e.usage.seconds });
        return;
      case "session.closed":
        if (!this.closing) this.fail("session", `the service ended the session (reason: ${e.reason})`);
        return;
      case "error": {
        const code = e.error.code ?? e.error.type ?? "error";
        const fatal = code in FATAL_STAGE;
        io.emit({ type: "error", at_ms: at, code, message: e.error.message, fatal, ...(fatal ? { stage: FATAL_STAGE[code] } : {}) });
        if (fatal) this.fail(FATAL_STAGE[code]!, `${code}: ${e.error.message}`);
        return;
      }
      default:
        return;
    }
  }

  /** Managed (Responses) delegation: report the backend's responses, execute its function calls, continue it. */
  private handleResponseEvent(delegationId: string, event: Extract<ServerEvent, { type: "response.event" }>["event"], at: number): void {
    const { io } = this;
    switch (event.type) {
      case "response.created":
        try {
          io.countProviderRequest("backend_response");
        } catch {
          return; // the harness ends the trial at the limit
        }
        io.emit({ type: "backend.response", at_ms: at, delegation_id: delegationId, response_id: event.response.id, status: "created", ...(event.response.model ? { model: event.response.model } : {}) });
        return;
      case "response.output_item.done":
        if (event.item.type === "function_call") {
          const item = event.item as { call_id: string; name: string; arguments: string };
          this.pendingCalls.set(delegationId, [...(this.pendingCalls.get(delegationId) ?? []), { call_id: item.call_id, name: item.name, arguments: item.arguments }]);
        }
        return;
      case "response.completed":
      case "response.failed":
      case "response.incomplete": {
        const status = event.type === "response.completed" ? "completed" : event.type === "response.failed" ? "failed" : "incomplete";
        const usage = normalizeUsage(event.response.usage ?? undefined);
        io.emit({ type: "backend.response", at_ms: at, delegation_id: delegationId, response_id: event.response.id, status, ...(event.response.model ? { model: event.response.model } : {}), ...(usage ? { usage } : {}) });
        const calls = this.pendingCalls.get(delegationId) ?? [];
        this.pendingCalls.delete(delegationId);
        if (status === "completed" && calls.length > 0) void this.answerFunctionCalls(delegationId, calls);
        else if (calls.length === 0) io.emit({ type: "delegation.completed", at_ms: at, delegation_id: delegationId });
        return;
      }
      default:
        return;
    }
  }

  /** One `response.item.create` per call, then exactly one `response.create` (gpt-live-protocol.md). */
  private async answerFunctionCalls(delegationId: string, calls: Array<{ call_id: string; name: string; arguments: string }>): Promise<void> {
    const release = this.io.clock.hold("tool calls");
    try {
      const outputs: Array<{ call_id: string; output: string }> = [];
      for (const call of calls) {
        const reply = await this.io.callTool({ name: call.name, arguments: call.arguments, call_id: call.call_id, delegation_id: delegationId });
        outputs.push({ call_id: call.call_id, output: reply.output });
      }
      if (this.fault || this.closing) return;
      for (const o of outputs) this.client.createItem({ type: "function_call_output", call_id: o.call_id, output: o.output });
      this.client.createResponse();
    } catch (error) {
      // A limit or an aborted trial stops the tools; the harness records why.
      if (!this.io.signal.aborted) this.fail("tools", (error as Error)?.message ?? String(error));
    } finally {
      release();
    }
  }

  /**
   * Client delegation: the delegation carries no task text, so rebuild the request from the transcript
   * heard so far and the authorized context, run the application's backend, answer with commentary.
   */
  private async runClientBackend(delegationId: string): Promise<void> {
    const { io } = this;
    let release = io.clock.hold("client backend");
    // The offline policy answers at once; a backend takes time. It thinks as long as the simulator's
    // managed backend does before each call, so both delegation modes put time between a decision and
    // its tool's result, and what the assistant said meanwhile is told apart from what it said after.
    const thinkMs = this.backend ? 0 : (this.options.offline?.timing?.backendDelayMs ?? DEFAULT_SIMULATOR_TIMING.backendDelayMs);
    try {
      const task = this.transcript.task(this.request.context);
      const tools = {
        call: async (name: string, args: Record<string, unknown>): Promise<PolicyToolResult> => {
          if (thinkMs > 0) {
            // A hold keeps virtual time still, so it is let go while the backend thinks.
            release();
            await io.clock.sleep(thinkMs, io.signal);
            release = io.clock.hold("client backend");
          }
          const reply = await io.callTool({ name, arguments: JSON.stringify(args), delegation_id: delegationId });
          return { status: reply.status, output: parseToolOutput(reply.output) };
        },
      };
      let reply: string;
      if (this.backend) {
        const result = await this.backend.run(task, tools, {
          request: () => io.countProviderRequest("backend_response"),
          created: (id, model) => io.emit({ type: "backend.response", at_ms: io.clock.now(), delegation_id: delegationId, response_id: id, status: "created", model }),
          completed: (id, model, usage, status) => io.emit({ type: "backend.response", at_ms: io.clock.now(), delegation_id: delegationId, response_id: id, status, model, ...(usage ? { usage } : {}) }),
        }, io.signal);
        reply = result.reply;
      } else {
        const responseId = `client_${delegationId}`;
        const policy = this.options.offline!.policy;
        // The policy is this application's backend: it reports itself as the model that answered.
        const model = `policy:${policy.name}@${policy.version}`;
        io.countProviderRequest("backend_policy");
        io.emit({ type: "backend.response", at_ms: io.clock.now(), delegation_id: delegationId, response_id: responseId, status: "created", model });
        reply = (await policy.backend(task, tools)).reply;
        io.emit({ type: "backend.response", at_ms: io.clock.now(), delegation_id: delegationId, response_id: responseId, status: "completed", model });
      }
      if (this.fault || this.closing) return;
      io.emit({ type: "delegation.content", at_ms: io.clock.now(), delegation_id: delegationId, text: reply });
      // An append carries at most 500 tokens: a long result goes back in several, in order.
      for (const part of commentaryParts(reply)) this.client.appendCommentary(delegationId, part);
    } catch (error) {
      if (!io.signal.aborted) this.fail("backend", (error as Error)?.message ?? String(error));
    } finally {
      release();
    }
  }
}
