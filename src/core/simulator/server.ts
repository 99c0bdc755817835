/**
 * The local GPT-Live simulator: a loopback WebSocket server at `/v1/live/sessions` that speaks the Live
 * protocol faithfully (session.ts) with an AssistantPolicy as the brain and an injected speech
 * synthesizer as the voice, plus a fault plan for proving the harness copes with a misbehaving service.
 *
 * OFFLINE RUNS CHECK THE PIPELINE, NOT SPEECH UNDERSTANDING: the simulator only "understands" caller
 * audio the harness registered with `registerCallerAudio(pcm, text)` (see caller-speech.ts).
 *
 * Time: all pacing is on the injected clock. Use one simulator per clock: with a VirtualClock per trial,
 * start one simulator per trial (port 0 makes that cheap). Client and simulator on one VirtualClock stay
 * deterministic by the wire-hold rule in wire-time.ts.
 */
import { STATUS_CODES, createServer, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { WebSocketServer } from "ws";
import type { AssistantPolicy } from "../target/policy";
import { RealClock, type Clock } from "../time/clock";
import { CallerAudioRegistry, CallerListener } from "./caller-speech";
import type { Ear } from "./ear";
import { resolveFaults, type LiveFault, type PlannedFault } from "./faults";
import { SimulatedSession } from "./session";
import { emptySessionStats, type SimulatedSessionStats } from "./stats";
import { DEFAULT_SIMULATOR_TIMING, type SimulatorTiming } from "./timing";
import type { SimulatorSynthesizer } from "./voice";
import { NO_COMPRESSION } from "../live/socket-cork";

export const LIVE_SESSIONS_PATH = "/v1/live/sessions";

export interface LiveSimulatorOptions {
  policy: AssistantPolicy;
  /** Speaks the assistant's words (the offline one wraps espeak-ng). */
  synthesizer: SimulatorSynthesizer;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Faults for every session, or chosen per 0-based session index (order of connection). */
  faults?: readonly LiveFault[] | ((sessionIndex: number) => readonly LiveFault[]);
  /** Default: a RealClock. */
  clock?: Clock;
  /** When set, only this bearer token is accepted; otherwise any non-empty one is. */
  apiKey?: string;
  timing?: Partial<SimulatorTiming>;
  /**
   * Tests only, never set by the harness: each session's ear, built around the ear that recognizes
   * registered caller audio (test/transcript-bridge.ts lets two simulators hear each other this way).
   */
  ear?: (registered: Ear) => Ear;
  /** Diagnostics: every text frame a client sends, with its session index (to check what went over the wire). */
  tap?: (frame: { session: number; text: string }) => void;
  /** Diagnostics: the headers of every upgrade request, accepted or not (to check which credential arrived). */
  onUpgrade?: (headers: IncomingHttpHeaders, path: string) => void;
  /**
   * The sessions path; default `/v1/live/sessions`. Azure OpenAI serves Live under `/openai/v1/live/sessions`,
   * and a stand-in for it listens there.
   */
  path?: string;
  /**
   * Where the key arrives: `authorization` (Bearer, default) or `api-key` (Azure OpenAI's key header).
   * Either way only `apiKey`, when set, is accepted.
   */
  keyHeader?: "authorization" | "api-key";
  /** The model names served (default gpt-live-1); a stand-in for Azure serves deployment names. */
  models?: readonly string[];
  /**
   * The models each session reports having served (in `session.started`, `session.updated` and every
   * backend response) in place of the ones it was asked for: a service that answers with another model.
   */
  reportedModels?: { model?: string; backend_model?: string };
}

export interface LiveSimulatorStats {
  /** WebSocket upgrades accepted. */
  connections: number;
  /** Upgrades refused with HTTP 401. */
  unauthorized: number;
  registered_utterances: number;
  sessions: SimulatedSessionStats[];
}

export interface LiveSimulator {
  /** `ws://HOST:PORT/v1/live/sessions`. */
  readonly url: string;
  /** `http://HOST:PORT/v1`, the SDK-style base URL. */
  readonly baseUrl: string;
  readonly port: number;
  /**
   * Harness-side, not over the wire: announce that this exact audio (24 kHz mono PCM16, as it will be
   * sent in 20 ms chunks) says `text`. Register before sending it.
   */
  registerCallerAudio(pcm: Uint8Array, text: string): void;
  /** A snapshot of what the simulator has seen and done. */
  readonly stats: LiveSimulatorStats;
  /** Drop every connection and stop listening. */
  close(): Promise<void>;
}

export async function startLiveSimulator(options: LiveSimulatorOptions): Promise<LiveSimulator> {
  const { policy, synthesizer, port = 0, host = "127.0.0.1" } = options;
  const clock = options.clock ?? new RealClock();
  const timing: SimulatorTiming = { ...DEFAULT_SIMULATOR_TIMING, ...options.timing };
  const registry = new CallerAudioRegistry();
  const planFor = (index: number) => resolveFaults(typeof options.faults === "function" ? options.faults(index) : (options.faults ?? []), timing);
  if (typeof options.faults !== "function") planFor(0); // a bad static plan fails here, not mid-run

  const stats: LiveSimulatorStats = { connections: 0, unauthorized: 0, registered_utterances: 0, sessions: [] };
  const sessions = new Set<SimulatedSession>();
  // ws's server default, stated: audio in base64 barely compresses, and deflate costs CPU on both ends.
  const wss = new WebSocketServer({ noServer: true, ...NO_COMPRESSION });
  let closing: Promise<void> | undefined;

  const sessionsPath = options.path ?? LIVE_SESSIONS_PATH;
  const server = createServer((request, response) => {
    const onPath = pathOf(request) === sessionsPath;
    const status = onPath ? 426 : 404;
    const message = onPath ? "this endpoint speaks WebSocket only; open it with an Upgrade request" : `no such endpoint; GPT-Live sessions are at ${sessionsPath}`;
    response.writeHead(status, { "Content-Type": "application/json" }).end(errorBody(onPath ? "upgrade_required" : "not_found", message));
  });

  server.on("upgrade", (request: IncomingMessage, socket: Socket, head: Buffer) => {
    options.onUpgrade?.(request.headers, pathOf(request));
    if (pathOf(request) !== sessionsPath) {
      refuse(socket, 404, errorBody("not_found", `no such endpoint; GPT-Live sessions are at ${sessionsPath}`));
      return;
    }
    const header = request.headers["api-key"];
    const token = options.keyHeader === "api-key" ? (typeof header === "string" && header.trim() ? header.trim() : undefined) : /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1];
    if (!token || (options.apiKey !== undefined && token !== options.apiKey)) {
      stats.unauthorized++;
      const body = token
        ? errorBody("invalid_api_key", "Incorrect API key provided.")
        : errorBody("missing_api_key", "You didn't provide an API key. Send it as 'Authorization: Bearer <key>'.");
      refuse(socket, 401, body);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const index = stats.connections++;
      const sessionStats = emptySessionStats(index);
      stats.sessions.push(sessionStats);
      let faults: PlannedFault[];
      try {
        faults = planFor(index);
      } catch (error) {
        sessionStats.internal_errors.push(error instanceof Error ? error.message : String(error));
        ws.close(1011, "simulator fault plan is invalid");
        return;
      }
      sessionStats.faults = faults.map((f) => f.kind);
      const tap = options.tap;
      const registered = new CallerListener(registry, timing.transcriptFragmentMs);
      const session = new SimulatedSession(ws, socket, {
        index,
        clock,
        policy,
        synthesizer,
        ear: options.ear ? options.ear(registered) : registered,
        faults,
        timing,
        stats: sessionStats,
        ...(tap ? { tap: (text: string) => tap({ session: index, text }) } : {}),
        ...(options.models ? { models: options.models } : {}),
        ...(options.reportedModels ? { reportedModels: options.reportedModels } : {}),
      });
      sessions.add(session);
      ws.on("close", () => sessions.delete(session));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the simulator server has no TCP address");
  const hostInUrl = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `ws://${hostInUrl}:${address.port}${sessionsPath}`,
    baseUrl: `http://${hostInUrl}:${address.port}/v1`,
    port: address.port,
    registerCallerAudio(pcm: Uint8Array, text: string): void {
      registry.register(pcm, text);
      stats.registered_utterances = registry.size;
    },
    get stats(): LiveSimulatorStats {
      return structuredClone(stats);
    },
    close(): Promise<void> {
      closing ??= shutDown();
      return closing;
    },
  };

  async function shutDown(): Promise<void> {
    for (const session of sessions) session.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    server.closeAllConnections();
    await closed;
  }
}

function pathOf(request: IncomingMessage): string {
  return new URL(request.url ?? "/", "http://simulator").pathname;
}

function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { type: "invalid_request_error", code, message } });
}

/** Answer an upgrade request with a plain HTTP error and hang up. */
function refuse(socket: Socket, status: number, body: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
