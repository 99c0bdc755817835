/** The live backend for client delegation: the OpenAI Responses API running the world's tools through the harness. */

import OpenAI from "openai";
import { serviceClientOptions, type AuthHeader } from "../services/auth";
import type { BackendResult, BackendTask, PolicyTools } from "./policy";
import type { TokenUsage, ToolDeclaration } from "./types";

/**
 * The application-managed backend for client delegation when live: the OpenAI Responses API with the
 * world's tools. It rebuilds the request from the transcript and authorized context (GPT-Live's client
 * delegation carries no task text), runs the function-call loop, executing every call through the
 * harness's tool door, and returns the speakable result.
 */
export interface ResponsesBackendOptions {
  /** The Responses endpoint's own key; empty sends no credential at all. */
  apiKey: string;
  /** The header the key travels in: `Authorization: Bearer` (default) or Azure's `api-key`. */
  authHeader?: AuthHeader;
  /** e.g. `http://127.0.0.1:PORT/v1` for a compatible local server; default the OpenAI API. */
  baseURL?: string;
  model: string;
  instructions: string;
  tools: ToolDeclaration[];
  reasoningEffort?: "minimal" | "low" | "medium" | "high";
  /** Function-call rounds before giving up (each round is one provider request). */
  maxRounds?: number;
  timeoutMs?: number;
}

export interface BackendResponseObserver {
  /** Called before each provider request (the harness counts it against the trial limit). */
  request(): void;
  created(responseId: string, model: string): void;
  completed(responseId: string, model: string, usage: TokenUsage | undefined, status: "completed" | "failed" | "incomplete"): void;
}

export class ResponsesBackend {
  readonly #client: OpenAI;

  constructor(private readonly options: ResponsesBackendOptions) {
    this.#client = new OpenAI(
      serviceClientOptions({ ...(options.baseURL ? { url: options.baseURL } : {}), auth: options.apiKey ? { key: options.apiKey, header: options.authHeader ?? "authorization" } : null, maxRetries: 1, timeoutMs: options.timeoutMs ?? 60_000 }),
    );
  }

  async run(task: BackendTask, tools: PolicyTools, observe: BackendResponseObserver, signal?: AbortSignal): Promise<BackendResult> {
    const context = task.context?.summary ? `\n\nAuthorized context from earlier turns: ${task.context.summary}` : "";
    let input: OpenAI.Responses.ResponseInput = task.transcript.map((m) =>
      m.role === "user" ? { role: "user" as const, content: m.text } : { role: "assistant" as const, content: m.text },
    );
    let previous: string | undefined;
    const rounds = this.options.maxRounds ?? 8;
    for (let round = 0; round < rounds; round++) {
      observe.request();
      const response = await this.#client.responses.create(
        {
          model: this.options.model,
          instructions: this.options.instructions + context,
          input,
          tools: this.options.tools.map((t) => ({ type: "function" as const, name: t.name, description: t.description, parameters: t.parameters, strict: false })),
          ...(previous ? { previous_response_id: previous } : {}),
          ...(this.options.reasoningEffort ? { reasoning: { effort: this.options.reasoningEffort } } : {}),
        },
        { signal },
      );
      observe.created(response.id, response.model);
      const status = response.status === "completed" ? "completed" : response.status === "incomplete" ? "incomplete" : response.status === "failed" ? "failed" : "completed";
      observe.completed(response.id, response.model, normalizeUsage(response.usage), status);
      if (status === "failed") throw new Error(`the backend response ${response.id} failed: ${response.error?.message ?? "no reason given"}`);
      const calls = response.output.filter((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === "function_call");
      if (calls.length === 0) return { reply: response.output_text.trim() };
      const outputs: OpenAI.Responses.ResponseInputItem[] = [];
      for (const call of calls) {
        let args: Record<string, unknown> = {};
        try {
          const parsed: unknown = JSON.parse(call.arguments);
          if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) args = parsed as Record<string, unknown>;
        } catch {
          // Malformed arguments still go to the tool door, which records the call as invalid.
        }
        const result = await tools.call(call.name, args);
        outputs.push({ type: "function_call_output", call_id: call.call_id, output: JSON.stringify(result.output) });
      }
      previous = response.id;
      input = outputs;
    }
    throw new Error(`the backend did not finish within ${rounds} function-call rounds`);
  }
}

/** The usage shape both the Responses API and GPT-Live's `response.completed` report. */
export interface ResponsesUsageLike {
  input_tokens: number;
  input_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  output_tokens: number;
  output_tokens_details?: { reasoning_tokens?: number } | null;
  total_tokens: number;
}

/** Normalize to the consumption contract (docs/audio-and-metrics.md): input split into cached / cache_write / text, output into text / reasoning. */
export function normalizeUsage(usage: ResponsesUsageLike | undefined | null): TokenUsage | undefined {
  if (!usage) return undefined;
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  const cacheWrite = usage.input_tokens_details?.cache_write_tokens ?? 0;
  const reasoning = usage.output_tokens_details?.reasoning_tokens ?? 0;
  return {
    total: usage.total_tokens,
    input: { cached, cache_write: cacheWrite, text: usage.input_tokens - cached, audio: 0 },
    output: { text: usage.output_tokens - reasoning, audio: 0, reasoning },
  };
}
