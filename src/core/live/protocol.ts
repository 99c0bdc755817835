/**
 * The GPT-Live wire protocol (docs/gpt-live-protocol.md) as zod schemas: the session config (strict, as
 * the service checks it), every client event (strict, so the simulator rejects what the service
 * rejects), every server event the client reads (loose: servers add fields, and nothing is lost), and
 * typed builders for client events.
 *
 * Unknown server event types are not errors: `parseServerEvent` reports them as `{known: false}` so the
 * client can log and ignore them, as the protocol requires of clients.
 */
import { z } from "zod";
import { encodePcmBase64 } from "../audio/pcm";
import { LiveProtocolError, type ConfigIssue } from "./errors";

/** The model the Live endpoint serves. */
export const GPT_LIVE_MODEL = "gpt-live-1";

/**
 * GPT-Live takes a context summary in its instructions (there is no separate field): the adapter appends
 * it under this heading, which is also how the local simulator finds it.
 */
export const CONTEXT_SUMMARY_HEADING = "Context from earlier in this call (authorized):";
/** The voice a session speaks with when `audio.output.voice` is omitted (OpenAI's GPT-Live guide). */
export const GPT_LIVE_DEFAULT_VOICE = "marin";
/**
 * Built-in GPT-Live voice names crashlab accepts for a live caller: the default and those OpenAI's GPT-Live
 * guide lists, plus the voices the SDK-based clients name (docs/gpt-live-conformance.md). The service may
 * serve more; custom voices are objects with an id.
 */
export const GPT_LIVE_VOICES: readonly string[] = [
  "marin", "cedar", "alloy", "ash", "ballad", "coral", "echo", "sage", "shimmer", "verse", "aster",
  "quartz", "ripple", "vesper", "willow", "stone", "gleam", "meridian", "bossa", "tempo", "beacon", "delta", "cinder",
  "nuri", "juni", "flitz", "brise", "sillage", "nira", "harema", "shida", "noeul",
];
/** Voices the service refuses with `forbidden`. */
export const FORBIDDEN_VOICES: readonly string[] = ["fable", "nova", "onyx"];
/** `session.start.session.input`: at most this many prior messages. */
export const MAX_INPUT_MESSAGES = 128;
/** Error codes after which the service ends the session. */
export const FATAL_ERROR_CODES: readonly string[] = [
  "insufficient_quota",
  "invalid_api_key",
  "account_deactivated",
  "billing_hard_limit_reached",
];
/** Reasons `session.closed` carries. Others may appear; the schema accepts any string. */
export const SESSION_CLOSED_REASONS = ["close_requested", "expired", "content", "remote_hangup", "connection_lost"] as const;

// ---- session config -----------------------------------------------------------------------------

export const AudioFormatSchema = z.discriminatedUnion("type", [
  // Rate defaults to 24000 when omitted.
  z.strictObject({ type: z.literal("audio/pcm"), rate: z.literal([24000, 16000]).optional() }),
  z.strictObject({ type: z.literal("audio/pcmu"), rate: z.literal(8000).optional() }),
  z.strictObject({ type: z.literal("audio/pcma"), rate: z.literal(8000).optional() }),
]);

const InputTextPart = z.strictObject({ type: z.literal("input_text"), text: z.string() });
/** Assistant history: `output_text` (what crashlab sends); the reference harness also accepts `text` (docs/gpt-live-conformance.md). */
const OutputTextPart = z.strictObject({ type: z.enum(["output_text", "text"]), text: z.string() });

/** A prior text turn in `session.input`: one text part each; assistant turns use `output_text` content. */
export const InputMessageSchema = z.discriminatedUnion("role", [
  z.strictObject({ type: z.literal("message"), role: z.literal("developer"), content: z.array(InputTextPart).length(1, { error: "a history message has exactly one text part" }) }),
  z.strictObject({ type: z.literal("message"), role: z.literal("user"), content: z.array(InputTextPart).length(1, { error: "a history message has exactly one text part" }) }),
  z.strictObject({ type: z.literal("message"), role: z.literal("assistant"), content: z.array(OutputTextPart).length(1, { error: "a history message has exactly one text part" }) }),
]);

export const FunctionToolSchema = z.strictObject({
  type: z.literal("function"),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "tool names are 1-64 letters, digits, '_' or '-'" }),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  strict: z.boolean().optional(),
});

/** Hosted tools (`web_search` …) the public references show beside function tools; crashlab sends only functions. */
export const HostedToolSchema = z.looseObject({ type: z.string().refine((t) => t !== "function", { error: "a function tool needs name and parameters" }) });

export const ResponsesSettingsSchema = z.strictObject({
  model: z.string().min(1).optional(),
  instructions: z.string().optional(),
  tools: z.array(z.union([FunctionToolSchema, HostedToolSchema])).optional(),
  tool_choice: z
    .union([z.enum(["auto", "none", "required"]), z.strictObject({ type: z.literal("function"), name: z.string() })])
    .optional(),
  parallel_tool_calls: z.boolean().optional(),
  reasoning: z.strictObject({ effort: z.enum(["none", "minimal", "low", "medium", "high", "xhigh"]).optional(), summary: z.string().optional() }).optional(),
  max_output_tokens: z.number().int().positive().optional(),
  service_tier: z.string().optional(),
  text: z.strictObject({ verbosity: z.enum(["low", "medium", "high"]).optional() }).optional(),
});

export const DelegationConfigSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("client") }),
  z.strictObject({ type: z.literal("responses"), responses: ResponsesSettingsSchema.optional() }),
]);

/** A built-in voice by name, or an authorized custom voice by id (`{id: "voice_…"}`). */
export const VoiceSchema = z.union([z.string().min(1), z.strictObject({ id: z.string().min(1) })]);

/** `session.start.session`. Strict: the service rejects unknown fields. */
export const SessionConfigSchema = z.strictObject({
  model: z.string().min(1),
  instructions: z.string().optional(),
  audio: z
    .strictObject({
      format: AudioFormatSchema.optional(),
      output: z.strictObject({ voice: VoiceSchema.optional() }).optional(),
    })
    .optional(),
  input: z.array(InputMessageSchema).max(MAX_INPUT_MESSAGES).optional(),
  /** Omitted or null: client delegation. */
  delegation: DelegationConfigSchema.nullable().optional(),
  /** Keep the session for forking and recording download; default false. */
  store: z.boolean().optional(),
});

/** `session.update.session`: delegation settings only. */
export const SessionUpdateSchema = z.strictObject({ delegation: DelegationConfigSchema });

export type AudioFormat = z.infer<typeof AudioFormatSchema>;
export type InputMessage = z.infer<typeof InputMessageSchema>;
export type FunctionTool = z.infer<typeof FunctionToolSchema>;
export type ResponsesSettings = z.infer<typeof ResponsesSettingsSchema>;
export type DelegationConfig = z.infer<typeof DelegationConfigSchema>;
export type SessionConfig = z.infer<typeof SessionConfigSchema>;

/**
 * Every reason the service would refuse this config: schema issues (unknown fields, types, the
 * 128-message limit) and forbidden voices. Empty when the config is acceptable.
 */
export function checkSessionConfig(config: unknown): ConfigIssue[] {
  const parsed = SessionConfigSchema.safeParse(config);
  if (!parsed.success) return configIssues(parsed.error);
  const voice = parsed.data.audio?.output?.voice;
  if (typeof voice === "string" && FORBIDDEN_VOICES.includes(voice.toLowerCase())) {
    return [{ path: "audio.output.voice", code: "forbidden", message: `voice "${voice}" is not available for GPT-Live; choose e.g. marin, cedar or coral` }];
  }
  return [];
}

/** Zod issues as service-style issues: dotted path plus the error code the service would use. */
export function configIssues(error: z.ZodError): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        issues.push({ path: [...path, key].join("."), code: "unknown_parameter", message: `unknown field "${key}"; remove it` });
      }
    } else if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) {
      issues.push({ path: path.join("."), code: "missing_required_parameter", message: `required field is missing (${issue.expected})` });
    } else if (issue.code === "invalid_type") {
      issues.push({ path: path.join("."), code: "invalid_type", message: issue.message });
    } else {
      issues.push({ path: path.join("."), code: "invalid_value", message: issue.message });
    }
  }
  return issues;
}

// ---- client events --------------------------------------------------------------------------------

const clientBase = { event_id: z.string().min(1).optional() };
const appendBody = { ...clientBase, delegation_id: z.string().nullable(), content: z.string() };

export const FunctionCallOutputItemSchema = z.strictObject({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1),
  output: z.string(),
});
/** Any other Responses input item (a user message, …): the public reference accepts every input item. */
export const OtherInputItemSchema = z.looseObject({ type: z.string().refine((t) => t !== "function_call_output", { error: "a function_call_output needs call_id and output" }) });

export const ClientEventSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("session.start"), ...clientBase, session: SessionConfigSchema }),
  z.strictObject({ type: z.literal("session.update"), ...clientBase, session: SessionUpdateSchema }),
  z.strictObject({ type: z.literal("session.input_audio.append"), ...clientBase, audio: z.string() }),
  z.strictObject({ type: z.literal("session.input_audio.mute"), ...clientBase }),
  z.strictObject({ type: z.literal("session.input_audio.unmute"), ...clientBase }),
  z.strictObject({ type: z.literal("session.instructions.append"), ...appendBody }),
  z.strictObject({ type: z.literal("session.thinking.append"), ...appendBody }),
  z.strictObject({ type: z.literal("session.commentary.append"), ...appendBody }),
  z.strictObject({ type: z.literal("response.item.create"), ...clientBase, item: z.union([FunctionCallOutputItemSchema, OtherInputItemSchema]) }),
  z.strictObject({ type: z.literal("response.create"), ...clientBase }),
  z.strictObject({ type: z.literal("session.close"), ...clientBase }),
]);

export type ClientEvent = z.infer<typeof ClientEventSchema>;
export type ClientEventType = ClientEvent["type"];
export type ClientEventOf<T extends ClientEventType> = Extract<ClientEvent, { type: T }>;
export type FunctionCallOutputItem = z.infer<typeof FunctionCallOutputItemSchema>;
/** The three timeline appends share one shape. */
export type AppendKind = "instructions" | "thinking" | "commentary";

export const CLIENT_EVENT_TYPES: readonly ClientEventType[] = ClientEventSchema.options.map((o) => o.shape.type.value);

/** Builders for every client event. `event_id` is stamped by the client when it sends. */
export const clientEvents = {
  sessionStart: (session: SessionConfig): ClientEventOf<"session.start"> => ({ type: "session.start", session }),
  sessionUpdate: (delegation: DelegationConfig): ClientEventOf<"session.update"> => ({ type: "session.update", session: { delegation } }),
  /** Raw PCM in the session's format (PCM16 LE mono for audio/pcm). */
  inputAudioAppend: (pcm: Uint8Array): ClientEventOf<"session.input_audio.append"> => ({
    type: "session.input_audio.append",
    audio: encodePcmBase64(pcm),
  }),
  inputAudioMute: (): ClientEventOf<"session.input_audio.mute"> => ({ type: "session.input_audio.mute" }),
  inputAudioUnmute: (): ClientEventOf<"session.input_audio.unmute"> => ({ type: "session.input_audio.unmute" }),
  /** `delegationId` null means general context; under Responses delegation only null is accepted. */
  append: <K extends AppendKind>(kind: K, delegationId: string | null, content: string): ClientEventOf<`session.${K}.append`> =>
    ({ type: `session.${kind}.append`, delegation_id: delegationId, content }) as ClientEventOf<`session.${K}.append`>,
  instructionsAppend: (delegationId: string | null, content: string) => clientEvents.append("instructions", delegationId, content),
  thinkingAppend: (delegationId: string | null, content: string) => clientEvents.append("thinking", delegationId, content),
  commentaryAppend: (delegationId: string | null, content: string) => clientEvents.append("commentary", delegationId, content),
  /** One per function call, Responses delegation only. */
  functionCallOutput: (callId: string, output: string): ClientEventOf<"response.item.create"> => ({
    type: "response.item.create",
    item: { type: "function_call_output", call_id: callId, output },
  }),
  /** Continue the backend once every call of the response has its output. */
  responseCreate: (): ClientEventOf<"response.create"> => ({ type: "response.create" }),
  sessionClose: (): ClientEventOf<"session.close"> => ({ type: "session.close" }),
};

export type ClientParseResult =
  | { known: true; type: ClientEventType; event: ClientEvent }
  | { known: false; type: string; raw: unknown }
  | { known: true; invalid: true; type: string; issues: ConfigIssue[] };

/** The simulator's reading of a client frame: known and valid, known but invalid, or an unknown type. */
export function parseClientEvent(json: unknown): ClientParseResult | { known: false; type: undefined; raw: unknown } {
  const type = isRecord(json) && typeof json.type === "string" ? json.type : undefined;
  if (type === undefined) return { known: false, type: undefined, raw: json };
  if (!(CLIENT_EVENT_TYPES as readonly string[]).includes(type)) return { known: false, type, raw: json };
  const parsed = ClientEventSchema.safeParse(json);
  if (parsed.success) return { known: true, type: parsed.data.type, event: parsed.data };
  return { known: true, invalid: true, type, issues: configIssues(parsed.error) };
}

// ---- server events --------------------------------------------------------------------------------

const serverBase = { event_id: z.string().optional() };
const replyBase = { ...serverBase, client_event_id: z.string().nullish() };

/** Base64 of PCM16: valid alphabet and padding, and an even number of bytes (whole samples). */
const Pcm16Base64 = z.string().check(
  z.refine((s) => s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s), { error: "audio delta is not valid base64" }),
  z.refine((s) => base64ByteLength(s) % 2 === 0, { error: "audio delta has an odd number of bytes; PCM16 needs whole 2-byte samples" }),
);

function base64ByteLength(s: string): number {
  const padding = s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0;
  return (s.length / 4) * 3 - padding;
}

/** The session object the service reports (resolved config plus id, status, expiry). */
export const LiveSessionSchema = z.looseObject({
  id: z.string(),
  object: z.string().optional(),
  model: z.string().optional(),
  status: z.string().optional(),
  /** Unix seconds. */
  expires_at: z.number().nullish(),
  instructions: z.string().nullish(),
  audio: z
    .looseObject({
      format: z.looseObject({ type: z.string(), rate: z.number().optional() }).optional(),
      output: z.looseObject({ voice: z.union([z.string(), z.looseObject({ id: z.string() })]).optional() }).optional(),
    })
    .nullish(),
  input: z.array(z.unknown()).nullish(),
  delegation: z.looseObject({ type: z.string() }).nullish(),
});
export type LiveSession = z.infer<typeof LiveSessionSchema>;

export const TokenUsageSchema = z.looseObject({
  input_tokens: z.number(),
  input_tokens_details: z.looseObject({ cached_tokens: z.number().optional(), cache_write_tokens: z.number().optional() }).nullish(),
  output_tokens: z.number(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.number().optional() }).nullish(),
  total_tokens: z.number(),
});
export type ResponseUsage = z.infer<typeof TokenUsageSchema>;

export const FunctionCallItemSchema = z.looseObject({
  type: z.literal("function_call"),
  id: z.string().optional(),
  call_id: z.string(),
  name: z.string(),
  /** A JSON string, as the model wrote it. */
  arguments: z.string(),
  status: z.string().optional(),
});
export const ReasoningItemSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string().optional(),
  summary: z.array(z.looseObject({ type: z.string(), text: z.string() })).optional(),
  encrypted_content: z.string().nullish(),
});
export const MessageItemSchema = z.looseObject({
  type: z.literal("message"),
  id: z.string().optional(),
  role: z.string(),
  status: z.string().optional(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
});
const KNOWN_ITEM_TYPES = ["function_call", "reasoning", "message"];
/** Any other output item (hosted tool calls, …): kept as sent. */
export const OtherItemSchema = z.looseObject({
  type: z.string().refine((t) => !KNOWN_ITEM_TYPES.includes(t), { error: "malformed known output item" }),
});
export const OutputItemSchema = z.union([FunctionCallItemSchema, ReasoningItemSchema, MessageItemSchema, OtherItemSchema]);

export type FunctionCallItem = z.infer<typeof FunctionCallItemSchema>;
export type ReasoningItem = z.infer<typeof ReasoningItemSchema>;
export type MessageItem = z.infer<typeof MessageItemSchema>;
export type OutputItem = z.infer<typeof OutputItemSchema>;

export const isFunctionCallItem = (item: OutputItem): item is FunctionCallItem => item.type === "function_call";
export const isReasoningItem = (item: OutputItem): item is ReasoningItem => item.type === "reasoning";
export const isMessageItem = (item: OutputItem): item is MessageItem => item.type === "message";

/** A Responses API response object; `output` items are not validated (completed responses carry none). */
export const ResponseObjectSchema = z.looseObject({
  id: z.string(),
  object: z.string().optional(),
  status: z.string().optional(),
  model: z.string().optional(),
  output: z.array(z.looseObject({ type: z.string() })).optional(),
  usage: TokenUsageSchema.nullish(),
  error: z.looseObject({ code: z.string().nullish(), message: z.string() }).nullish(),
  incomplete_details: z.looseObject({ reason: z.string().nullish() }).nullish(),
});
export type ResponseObject = z.infer<typeof ResponseObjectSchema>;

const streamBase = { sequence_number: z.number().optional() };
/** The Responses streaming events a `response.event` envelope may carry and the client reads. */
export const ResponseStreamEventSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("response.created"), ...streamBase, response: ResponseObjectSchema }),
  z.looseObject({ type: z.literal("response.in_progress"), ...streamBase, response: ResponseObjectSchema }),
  z.looseObject({ type: z.literal("response.output_item.added"), ...streamBase, output_index: z.number().optional(), item: OutputItemSchema }),
  z.looseObject({ type: z.literal("response.output_item.done"), ...streamBase, output_index: z.number().optional(), item: OutputItemSchema }),
  z.looseObject({
    type: z.literal("response.output_text.delta"),
    ...streamBase,
    item_id: z.string().optional(),
    output_index: z.number().optional(),
    content_index: z.number().optional(),
    delta: z.string(),
  }),
  z.looseObject({ type: z.literal("response.output_text.done"), ...streamBase, item_id: z.string().optional(), text: z.string() }),
  z.looseObject({ type: z.literal("response.completed"), ...streamBase, response: ResponseObjectSchema }),
  z.looseObject({ type: z.literal("response.failed"), ...streamBase, response: ResponseObjectSchema }),
  z.looseObject({ type: z.literal("response.incomplete"), ...streamBase, response: ResponseObjectSchema }),
]);
export type ResponseStreamEvent = z.infer<typeof ResponseStreamEventSchema>;
export type ResponseStreamEventType = ResponseStreamEvent["type"];
export const RESPONSE_STREAM_EVENT_TYPES: readonly string[] = ResponseStreamEventSchema.options.map((o) => o.shape.type.value);

const transcriptDelta = { ...serverBase, delta: z.string(), start_ms: z.number().optional(), end_ms: z.number().optional() };
const appended = { ...replyBase, delegation_id: z.string().nullish(), start_ms: z.number(), end_ms: z.number() };

export const ServerEventSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("session.started"), ...serverBase, session: LiveSessionSchema }),
  z.looseObject({ type: z.literal("session.updated"), ...replyBase, session: LiveSessionSchema }),
  // No timestamps: the client places audio on its own receive clock.
  z.looseObject({ type: z.literal("session.output_audio.delta"), ...serverBase, delta: Pcm16Base64 }),
  z.looseObject({ type: z.literal("session.input_transcript.delta"), ...transcriptDelta }),
  z.looseObject({ type: z.literal("session.output_transcript.delta"), ...transcriptDelta }),
  z.looseObject({
    type: z.literal("session.delegation.created"),
    ...serverBase,
    offset_ms: z.number().optional(),
    delegation: z.looseObject({
      id: z.string(),
      type: z.string().optional(),
      // "client" or "responses"; the references also name other targets (Foundry's "decisions"), which a client must tolerate.
      target: z.string(),
      response_id: z.string().nullish(),
    }),
  }),
  z.looseObject({ type: z.literal("response.event"), ...serverBase, delegation_id: z.string().nullish(), event: ResponseStreamEventSchema }),
  z.looseObject({
    type: z.literal("session.usage.updated"),
    ...serverBase,
    // Cumulative: keep the last value, never sum.
    usage: z.looseObject({ seconds: z.number().nonnegative() }),
    context_window: z.looseObject({ usage_ratio: z.number() }).nullish(),
  }),
  z.looseObject({
    type: z.literal("session.closed"),
    ...serverBase,
    reason: z.string(),
    session: LiveSessionSchema.optional(),
    usage: z.looseObject({ seconds: z.number().nonnegative() }).optional(),
  }),
  z.looseObject({ type: z.literal("session.instructions.appended"), ...appended }),
  z.looseObject({ type: z.literal("session.thinking.appended"), ...appended }),
  z.looseObject({ type: z.literal("session.commentary.appended"), ...appended }),
  z.looseObject({ type: z.literal("session.input_audio.muted"), ...replyBase }),
  z.looseObject({ type: z.literal("session.input_audio.unmuted"), ...replyBase }),
  z.looseObject({
    type: z.literal("error"),
    ...serverBase,
    error: z.looseObject({
      type: z.string().optional(),
      code: z.string().nullish(),
      message: z.string(),
      param: z.string().nullish(),
      client_event_id: z.string().nullish(),
    }),
  }),
  z.looseObject({ type: z.literal("info"), ...serverBase, code: z.string(), message: z.string() }),
]);

export type ServerEvent = z.infer<typeof ServerEventSchema>;
export type ServerEventType = ServerEvent["type"];
export type ServerEventOf<T extends ServerEventType> = Extract<ServerEvent, { type: T }>;
export type ServerEventInput = z.input<typeof ServerEventSchema>;
export const SERVER_EVENT_TYPES: readonly ServerEventType[] = ServerEventSchema.options.map((o) => o.shape.type.value);

export type ServerParseResult =
  | { known: true; event: ServerEvent }
  /** A type this client does not know (newer SDKs add some): log it and carry on. */
  | { known: false; type: string; raw: unknown; innerType?: string };

/**
 * Read one decoded JSON frame from the server. Unknown event types (and `response.event` envelopes with
 * an unknown inner type) are tolerated; a known type with an invalid payload, or JSON that is not an
 * event at all, throws a LiveProtocolError.
 */
export function parseServerEvent(json: unknown): ServerParseResult {
  if (!isRecord(json) || typeof json.type !== "string") {
    throw new LiveProtocolError("not_an_event", "server frame is JSON but not an event object with a string type", {
      excerpt: excerpt(json),
    });
  }
  const type = json.type;
  if (!(SERVER_EVENT_TYPES as readonly string[]).includes(type)) return { known: false, type, raw: json };
  if (type === "response.event") {
    const inner = isRecord(json.event) ? json.event.type : undefined;
    if (typeof inner === "string" && !RESPONSE_STREAM_EVENT_TYPES.includes(inner)) return { known: false, type, raw: json, innerType: inner };
  }
  const parsed = ServerEventSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(event)"}: ${i.message}`);
    throw new LiveProtocolError("invalid_event", `server event ${type} does not match the protocol: ${issues.join("; ")}`, {
      eventType: type,
      issues,
    });
  }
  return { known: true, event: parsed.data };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function excerpt(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
