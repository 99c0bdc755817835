/**
 * The live completion observer of RUN: a small structured-output model call that reads the conversation
 * so far (what both sides said) and the caller's goal, and says whether the call is over
 * (`{should_drain, outcome: resolved | refused | unresolved, reason}`). It never decides who speaks; when
 * it says "drain", remaining speech and delegated work finish before the relay stops. It is asked again
 * after each new exchange, at most once per `minIntervalMs`. Its usage is the harness's, never the target's.
 */
import OpenAI from "openai";
import { zodTextFormat } from "openai/helpers/zod";
import { z } from "zod";
import { serviceClientOptions, type AuthHeader } from "../../services/auth";

export const CompletionVerdict = z.strictObject({
  should_drain: z.boolean(),
  outcome: z.enum(["resolved", "refused", "unresolved"]),
  reason: z.string(),
});
export type CompletionVerdict = z.infer<typeof CompletionVerdict>;

export interface CompletionObserverOptions {
  model: string;
  /** Responses endpoint; default OpenAI's. */
  baseURL?: string;
  /** The key for that endpoint only; empty sends no credential at all. */
  apiKey: string;
  /** The header the key travels in: `Authorization: Bearer` (default) or Azure's `api-key`. */
  authHeader?: AuthHeader;
  minIntervalMs?: number;
  timeoutMs?: number;
}

export interface ObserverUsage {
  calls: number;
  failures: number;
  input_tokens: number;
  output_tokens: number;
}

const INSTRUCTIONS = [
  "You watch a phone call between a caller and an assistant, as a neutral observer. Decide only whether the call is over.",
  "should_drain is true when the caller's business is settled — their goal was met, or the assistant finally refused and the caller accepted that — and the caller has said goodbye or clearly has nothing more to ask.",
  "outcome: resolved (the goal was met), refused (finally refused), unresolved (otherwise). reason: one short sentence.",
  "If anything is still being worked on, asked or answered, should_drain is false.",
].join("\n");

export class CompletionObserver {
  readonly #client: OpenAI;
  private inFlight = false;
  private lastAskedAt = Number.NEGATIVE_INFINITY;
  private lastAskedLines = 0;
  private verdict: CompletionVerdict | null = null;
  readonly usage: ObserverUsage = { calls: 0, failures: 0, input_tokens: 0, output_tokens: 0 };

  get model(): string {
    return this.options.model;
  }

  constructor(private readonly options: CompletionObserverOptions) {
    this.#client = new OpenAI(
      serviceClientOptions({ ...(options.baseURL ? { url: options.baseURL } : {}), auth: options.apiKey ? { key: options.apiKey, header: options.authHeader ?? "authorization" } : null, maxRetries: 1, timeoutMs: options.timeoutMs ?? 20_000 }),
    );
  }

  /** The latest verdict that said the call is over, if any. */
  drained(): CompletionVerdict | null {
    return this.verdict?.should_drain ? this.verdict : null;
  }

  /**
   * Ask again when the conversation grew since the last question and the rate limit allows; never more
   * than one call at a time. A failed call is counted and retried at the next exchange (the maximum
   * duration still bounds the conversation). Once it said "drain" it is not asked again: the drain
   * (the goodbyes that follow) must not be undone by a later verdict.
   */
  consider(now: number, goal: string, lines: readonly string[]): void {
    if (this.drained() || this.inFlight || lines.length === 0 || lines.length === this.lastAskedLines) return;
    if (now - this.lastAskedAt < (this.options.minIntervalMs ?? 3_000)) return;
    this.inFlight = true;
    this.lastAskedAt = now;
    this.lastAskedLines = lines.length;
    this.usage.calls++;
    const format = zodTextFormat(CompletionVerdict, "completion_verdict");
    this.#client.responses
      .create({
        model: this.options.model,
        instructions: INSTRUCTIONS,
        input: [{ role: "user", content: `The caller's goal: ${goal}\n\nThe call so far:\n${lines.join("\n")}` }],
        text: { format: { type: format.type, name: format.name, strict: true, schema: format.schema } },
        store: false,
      })
      .then((response) => {
        this.usage.input_tokens += response.usage?.input_tokens ?? 0;
        this.usage.output_tokens += response.usage?.output_tokens ?? 0;
        const parsed = CompletionVerdict.safeParse(JSON.parse(response.output_text || "null"));
        if (parsed.success) this.verdict = parsed.data;
        else this.usage.failures++;
      })
      .catch(() => {
        this.usage.failures++;
      })
      .finally(() => {
        this.inFlight = false;
      });
  }
}
