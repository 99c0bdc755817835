/**
 * TEST ONLY — a small, strict GPT-Live server written from the public references alone (OpenAI's GPT-Live
 * guides and event reference, Azure's gpt-live-reference; see docs/gpt-live-conformance.md), deliberately
 * sharing no code with crashlab's simulator (src/core/simulator/): its own schemas, its own session logic.
 *
 * It validates every client frame against the documented shapes and rules and records each violation
 * (also answered with an `error` event, as the service does). It does not understand speech: it follows a
 * script — each time a second of caller audio has arrived it "hears" the next scripted utterance, sends its
 * input transcript, says a short acknowledgement and delegates, in the session's delegation mode:
 *
 * - responses: `session.delegation.created {target: "responses", response_id}`, then `response.event`
 *   envelopes of a backend response whose output items are the scripted function calls (several calls in
 *   one response = parallel calls); after one `response.item.create` per call and one `response.create` it
 *   streams a follow-up response with the scripted text and speaks it;
 * - client: `session.delegation.created {target: "client"}` with no task text; it speaks whatever the
 *   client appends as commentary for that delegation.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { z } from "zod";

// ---- the documented client shapes ------------------------------------------------------------------

const eventId = z.string().min(1).optional();
const textPart = (types: [string, ...string[]]) => z.strictObject({ type: z.enum(types), text: z.string() });
const historyMessage = z.union([
  z.strictObject({ type: z.literal("message"), role: z.enum(["developer", "user"]), content: z.tuple([textPart(["input_text"])]) }),
  z.strictObject({ type: z.literal("message"), role: z.literal("assistant"), content: z.tuple([textPart(["output_text", "text"])]) }),
]);
const functionTool = z.strictObject({ type: z.literal("function"), name: z.string().min(1), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional(), strict: z.boolean().optional() });
const responsesSettings = z.strictObject({
  model: z.string().min(1).optional(),
  instructions: z.string().optional(),
  tools: z.array(z.union([functionTool, z.looseObject({ type: z.enum(["web_search"]) })])).optional(),
  tool_choice: z.union([z.enum(["auto", "none", "required"]), z.strictObject({ type: z.literal("function"), name: z.string() })]).optional(),
  parallel_tool_calls: z.boolean().optional(),
  reasoning: z.strictObject({ effort: z.string().optional(), summary: z.string().optional() }).optional(),
  max_output_tokens: z.number().int().positive().optional(),
  service_tier: z.string().optional(),
  text: z.strictObject({ verbosity: z.string().optional() }).optional(),
});
const sessionConfig = z.strictObject({
  model: z.string().min(1),
  instructions: z.string().optional(),
  audio: z
    .strictObject({
      format: z.strictObject({ type: z.literal("audio/pcm"), rate: z.literal(24000).optional() }).optional(),
      output: z.strictObject({ voice: z.union([z.string().min(1), z.strictObject({ id: z.string().min(1) })]).optional() }).optional(),
    })
    .optional(),
  input: z.array(historyMessage).max(128).optional(),
  delegation: z.union([z.null(), z.strictObject({ type: z.literal("client") }), z.strictObject({ type: z.literal("responses"), responses: responsesSettings.optional() })]).optional(),
  store: z.boolean().optional(),
});
const append = <T extends string>(type: T) => z.strictObject({ type: z.literal(type), event_id: eventId, delegation_id: z.string().min(1).nullable(), content: z.string().min(1) });
const clientEvent = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("session.start"), event_id: eventId, session: sessionConfig }),
  z.strictObject({ type: z.literal("session.input_audio.append"), event_id: eventId, audio: z.base64() }),
  append("session.instructions.append"),
  append("session.thinking.append"),
  append("session.commentary.append"),
  z.strictObject({ type: z.literal("response.item.create"), event_id: eventId, item: z.looseObject({ type: z.string() }) }),
  z.strictObject({ type: z.literal("response.create"), event_id: eventId }),
  z.strictObject({ type: z.literal("session.close"), event_id: eventId }),
]);
type ClientEvent = z.infer<typeof clientEvent>;
const functionCallOutput = z.strictObject({ type: z.literal("function_call_output"), call_id: z.string().min(1), output: z.string() });

// ---- the script ------------------------------------------------------------------------------------

export interface ScriptedCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface ScriptedTurn {
  /** What the caller "said" in the second of audio that triggers this turn. */
  hear: string;
  /** Responses mode: the backend's function calls, all in one response (parallel). */
  calls?: ScriptedCall[];
  /** Responses mode: the follow-up text the backend returns once every call has its output. */
  reply?: string;
}

export interface Violation {
  session: number;
  type: string;
  rule: string;
}

export interface ConformanceServer {
  url: string;
  /** Every client frame as received (parsed JSON, or the raw text when it is not JSON). */
  frames: Array<{ session: number; json: unknown }>;
  violations: Violation[];
  /** Per session: what was spoken, in order (acknowledgements and delegation results). */
  spoken: string[][];
  /** Per session: the function_call_output items received, by call id. */
  outputs: Array<Map<string, string>>;
  close(): Promise<void>;
}

const BYTES_PER_SECOND = 48_000;
const SESSIONS_PATH = "/v1/live/sessions";

export async function startConformanceServer(options: { key: string; script: ScriptedTurn[] }): Promise<ConformanceServer> {
  const frames: ConformanceServer["frames"] = [];
  const violations: Violation[] = [];
  const spoken: string[][] = [];
  const outputs: Array<Map<string, string>> = [];
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true });
  const server: Server = createServer((_, res) => res.writeHead(426).end());
  let sessions = 0;

  server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const search = new URL(req.url ?? "/", "http://x").search;
    // Connect with no query parameters and `Authorization: Bearer <key>` [OpenAI guide].
    if (path !== SESSIONS_PATH || search || req.headers.authorization !== `Bearer ${options.key}`) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on("close", () => sockets.delete(ws));
      const index = sessions++;
      spoken.push([]);
      outputs.push(new Map());
      new StrictSession(ws, index, options.script, { frames, violations, spoken: spoken[index]!, outputs: outputs[index]! });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}${SESSIONS_PATH}`,
    frames,
    violations,
    spoken,
    outputs,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Sinks {
  frames: ConformanceServer["frames"];
  violations: Violation[];
  spoken: string[];
  outputs: Map<string, string>;
}

/** One connection: the documented lifecycle, enforced. */
class StrictSession {
  private started = false;
  private closing = false;
  private mode: "client" | "responses" = "client";
  private model = "";
  private readonly seenEventIds = new Set<string>();
  private inputBytes = 0;
  private turn = 0;
  private serverEvents = 0;
  private spokenMs = 0;
  private readonly delegations = new Set<string>();
  /** Responses mode: the response waiting for its tool outputs, and their call ids. */
  private waiting: { responseId: string; delegationId: string; callIds: string[]; reply: string } | null = null;
  private readonly supplied = new Set<string>();

  constructor(
    private readonly ws: WebSocket,
    private readonly index: number,
    private readonly script: ScriptedTurn[],
    private readonly sinks: Sinks,
  ) {
    ws.on("message", (data, isBinary) => this.receive(data.toString(), isBinary));
  }

  private violate(type: string, rule: string, code = "invalid_value", clientEventId?: string): void {
    this.sinks.violations.push({ session: this.index, type, rule });
    this.send({ type: "error", error: { type: "invalid_request_error", code, message: rule, ...(clientEventId ? { client_event_id: clientEventId } : {}) } });
  }

  /** Every server event carries its own event_id except output audio deltas [OpenAI reference]. */
  private send(event: Record<string, unknown>): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const withId = event.type === "session.output_audio.delta" ? event : { event_id: `event_${++this.serverEvents}`, ...event };
    this.ws.send(JSON.stringify(withId));
  }

  private receive(text: string, isBinary: boolean): void {
    if (isBinary) return this.violate("(binary)", "client frames are JSON text");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.sinks.frames.push({ session: this.index, json: text });
      return this.violate("(malformed)", "client frames are JSON objects");
    }
    this.sinks.frames.push({ session: this.index, json });
    const parsed = clientEvent.safeParse(json);
    const type = typeof (json as { type?: unknown })?.type === "string" ? (json as { type: string }).type : "(no type)";
    if (!parsed.success) return this.violate(type, `not a documented ${type} event: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(event)"}: ${i.message}`).join("; ")}`);
    const event = parsed.data;
    if (event.event_id !== undefined) {
      if (this.seenEventIds.has(event.event_id)) this.violate(type, `event_id "${event.event_id}" was used before on this connection`);
      this.seenEventIds.add(event.event_id);
    }
    // session.start must be the first frame, and only the first [OpenAI guide].
    if (!this.started && event.type !== "session.start") return this.violate(type, "session.start must be the first message");
    if (this.started && event.type === "session.start") return this.violate(type, "session.start may be sent once");
    if (this.closing && event.type !== "session.close") return this.violate(type, "no commands after session.close");
    this.handle(event);
  }

  private handle(event: ClientEvent): void {
    switch (event.type) {
      case "session.start": {
        this.started = true;
        this.model = event.session.model;
        this.mode = event.session.delegation?.type === "responses" ? "responses" : "client";
        this.send({
          type: "session.started",
          client_event_id: event.event_id,
          session: { id: `live_conf_${this.index}`, object: "live.session", model: this.model, status: "active", expires_at: Math.floor(Date.now() / 1000) + 7200, audio: { format: { type: "audio/pcm", rate: 24000 }, output: { voice: event.session.audio?.output?.voice ?? "marin" } }, input: event.session.input ?? [], delegation: event.session.delegation ?? { type: "client" } },
        });
        return;
      }
      case "session.input_audio.append": {
        const bytes = Buffer.from(event.audio, "base64").length;
        if (bytes % 2 !== 0) return this.violate(event.type, "PCM16 audio comes in whole 2-byte samples");
        this.inputBytes += bytes;
        this.send({ type: "session.usage.updated", usage: { seconds: Math.round((this.inputBytes / BYTES_PER_SECOND) * 1000) / 1000 } });
        if (this.inputBytes >= (this.turn + 1) * BYTES_PER_SECOND && this.turn < this.script.length) this.hear(this.script[this.turn++]!);
        return;
      }
      case "session.instructions.append":
      case "session.thinking.append":
      case "session.commentary.append": {
        // delegation_id is required but nullable; a non-null id must name a client delegation of this
        // connection, and Responses delegation takes only null (docs/gpt-live-protocol.md).
        if (event.delegation_id !== null) {
          if (this.mode === "responses") return this.violate(event.type, "a delegation_id is rejected under Responses delegation");
          if (!this.delegations.has(event.delegation_id)) return this.violate(event.type, `delegation "${event.delegation_id}" was not created on this connection`);
        }
        if (event.content.length > 4 * 500) return this.violate(event.type, "an append carries at most 500 tokens");
        const kind = event.type.split(".")[1];
        const at = this.spokenMs;
        this.send({ type: `session.${kind}.appended`, client_event_id: event.event_id, delegation_id: event.delegation_id, start_ms: at, end_ms: at });
        if (event.type === "session.commentary.append" && event.delegation_id !== null) this.speak(event.content);
        return;
      }
      case "response.item.create": {
        if (this.mode !== "responses") return this.violate(event.type, "response.item.create requires Responses delegation");
        if (event.item.type !== "function_call_output") return; // any other input item is documented; nothing here uses it
        const item = functionCallOutput.safeParse(event.item);
        if (!item.success) return this.violate(event.type, "a function_call_output has call_id and a string output");
        if (!this.waiting?.callIds.includes(item.data.call_id)) return this.violate(event.type, `no function call "${item.data.call_id}" is waiting for its output`);
        if (this.supplied.has(item.data.call_id)) return this.violate(event.type, `call "${item.data.call_id}" already has its output`);
        this.supplied.add(item.data.call_id);
        this.sinks.outputs.set(item.data.call_id, item.data.output);
        return;
      }
      case "response.create": {
        if (this.mode !== "responses") return this.violate(event.type, "response.create requires Responses delegation");
        const waiting = this.waiting;
        if (!waiting) return this.violate(event.type, "no delegated response is waiting for tool results");
        const missing = waiting.callIds.filter((id) => !this.supplied.has(id));
        if (missing.length) return this.violate(event.type, `tool results missing for ${missing.join(", ")}`, "function_call_outputs_required", event.event_id);
        this.waiting = null;
        this.followUp(waiting.delegationId, waiting.reply);
        return;
      }
      case "session.close": {
        if (this.closing) return this.violate(event.type, "session.close was sent twice");
        this.closing = true;
        this.send({ type: "session.closed", client_event_id: event.event_id, reason: "close_requested", session: { id: `live_conf_${this.index}`, model: this.model, status: "active" }, usage: { seconds: Math.round((this.inputBytes / BYTES_PER_SECOND) * 1000) / 1000 } });
        setTimeout(() => this.ws.close(1000), 20);
        return;
      }
    }
  }

  /** The next scripted utterance: its input transcript, an acknowledgement, a delegation. */
  private hear(turn: ScriptedTurn): void {
    const start = Math.max(0, (this.inputBytes / BYTES_PER_SECOND) * 1000 - 1000);
    this.send({ type: "session.input_transcript.delta", delta: ` ${turn.hear}`, start_ms: Math.round(start), end_ms: Math.round(start + 900) });
    this.speak("One moment.");
    const delegationId = `del_conf_${this.index}_${this.turn}`;
    this.delegations.add(delegationId);
    if (this.mode === "client") {
      this.send({ type: "session.delegation.created", offset_ms: Math.round(start + 900), delegation: { id: delegationId, type: "delegation", target: "client" } });
      return;
    }
    const responseId = `resp_conf_${this.index}_${this.turn}_a`;
    this.send({ type: "session.delegation.created", offset_ms: Math.round(start + 900), delegation: { id: delegationId, type: "delegation", target: "responses", response_id: responseId } });
    const envelope = (event: Record<string, unknown>) => this.send({ type: "response.event", delegation_id: delegationId, event });
    envelope({ type: "response.created", response: { id: responseId, object: "response", status: "in_progress", model: "backend-conf", output: [] } });
    const calls = (turn.calls ?? []).map((call, i) => ({ type: "function_call", id: `fc_${responseId}_${i}`, call_id: `call_${responseId}_${i}`, name: call.name, arguments: JSON.stringify(call.arguments), status: "completed" }));
    calls.forEach((item, i) => {
      envelope({ type: "response.output_item.added", output_index: i, item: { ...item, status: "in_progress", arguments: "" } });
      envelope({ type: "response.output_item.done", output_index: i, item });
    });
    // The completed response's output is empty: calls are read from the item events (docs/gpt-live-protocol.md).
    envelope({ type: "response.completed", response: { id: responseId, object: "response", status: "completed", model: "backend-conf", output: [], usage: { input_tokens: 30, input_tokens_details: { cached_tokens: 0 }, output_tokens: 12, output_tokens_details: { reasoning_tokens: 4 }, total_tokens: 42 } } });
    if (calls.length) this.waiting = { responseId, delegationId, callIds: calls.map((c) => c.call_id), reply: turn.reply ?? "Done." };
    else this.speak(turn.reply ?? "Done.");
  }

  private followUp(delegationId: string, reply: string): void {
    const responseId = `resp_conf_${this.index}_${this.turn}_b`;
    const envelope = (event: Record<string, unknown>) => this.send({ type: "response.event", delegation_id: delegationId, event });
    envelope({ type: "response.created", response: { id: responseId, object: "response", status: "in_progress", model: "backend-conf", output: [] } });
    envelope({ type: "response.output_item.done", output_index: 0, item: { type: "message", id: `msg_${responseId}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: reply, annotations: [] }] } });
    envelope({ type: "response.completed", response: { id: responseId, object: "response", status: "completed", model: "backend-conf", output: [], usage: { input_tokens: 50, output_tokens: 20, total_tokens: 70 } } });
    this.speak(reply);
  }

  /** Speech: PCM deltas (no timestamps, no event_id) and output transcript fragments on the session timeline. */
  private speak(text: string): void {
    this.sinks.spoken.push(text);
    const ms = 300;
    const samples = new Int16Array((24_000 * ms) / 1000);
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(3000 * Math.sin((2 * Math.PI * 220 * i) / 24_000));
    this.send({ type: "session.output_audio.delta", delta: Buffer.from(samples.buffer).toString("base64") });
    this.send({ type: "session.output_transcript.delta", delta: ` ${text}`, start_ms: this.spokenMs, end_ms: this.spokenMs + ms });
    this.spokenMs += ms;
  }
}
