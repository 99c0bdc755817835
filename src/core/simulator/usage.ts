/** Usage: the input audio a session is billed for, and the token counts its simulated backend reports. */
import type { ResponseUsage } from "../live/protocol";

import { estimateTokens } from "../language/tokens";

export { estimateTokens };

/** Input audio received (24 kHz PCM16: 48 bytes a millisecond), and when a `session.usage.updated` is due. */
export class InputUsage {
  private bytes = 0;
  private steps = 0;

  constructor(private readonly intervalMs: number) {}

  add(bytes: number): void {
    this.bytes += bytes;
  }

  get ms(): number {
    return this.bytes / 48;
  }

  /** Cumulative `usage.seconds`: whole milliseconds of input audio. */
  get seconds(): number {
    return Math.round(this.ms) / 1000;
  }

  /** Whether the input crossed another interval since the last update was sent (the caller then sends one). */
  updateDue(): boolean {
    const step = Math.floor(this.ms / this.intervalMs);
    if (step <= this.steps) return false;
    this.steps = step;
    return true;
  }
}

/**
 * Token usage of one delegation's responses: each response's input is the whole context so far, and the
 * part of it the previous response already read counts as cached (in blocks of 64 tokens).
 */
export class ResponseUsageMeter {
  private previousInput = 0;

  constructor(private context: string) {}

  /** Text that joins the context (a function call's output). */
  read(text: string): void {
    this.context += text;
  }

  /** The usage of a response that wrote `outputText`. */
  usage(outputText: string): ResponseUsage {
    const input = estimateTokens(this.context);
    const cached = Math.floor(this.previousInput / 64) * 64;
    this.previousInput = input;
    const reasoning = 24;
    const output = reasoning + estimateTokens(outputText);
    return {
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached, cache_write_tokens: 0 },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: reasoning },
      total_tokens: input + output,
    };
  }
}
