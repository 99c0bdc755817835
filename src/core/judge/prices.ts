/**
 * Judge cost estimation (docs/verifiers-and-clauses.md: estimated cost on each assessment). Prices are USD per 1M tokens. The table
 * is a snapshot of published list prices and goes stale; users override or extend it with the `prices`
 * option of the semantic verifiers. A model without a price gets a null cost, never a guessed one.
 */
export interface ModelPrice {
  /** Uncached input tokens. */
  input: number;
  /** Cached input tokens (cache reads). */
  cached_input: number;
  /** Cache writes; billed as `input` when absent. */
  cache_write?: number;
  /** Output tokens, reasoning tokens included. */
  output: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** Standard-tier list prices for prompts up to 272K input tokens, as published (GPT-5.6: June 2026; GPT-6.1 Terra: October 2026). */
export const JUDGE_PRICES: PriceTable = {
  "gpt-5.6-sol": { input: 5, cached_input: 0.5, cache_write: 6.25, output: 30 },
  "gpt-5.6-terra": { input: 2.5, cached_input: 0.25, cache_write: 3.125, output: 15 },
  "gpt-5.6-luna": { input: 1, cached_input: 0.1, cache_write: 1.25, output: 6 },
  "gpt-6.1-terra": { input: 1, cached_input: 0.05, cache_write: 1.25, output: 5 },
};

export interface JudgeTokens {
  /** All input tokens, cached ones included (as the Responses API reports them). */
  input: number;
  cached: number;
  cache_write: number;
  /** All output tokens, reasoning included. */
  output: number;
  reasoning: number;
  total: number;
}

export const NO_TOKENS: JudgeTokens = Object.freeze({ input: 0, cached: 0, cache_write: 0, output: 0, reasoning: 0, total: 0 });

export function addTokens(a: JudgeTokens, b: JudgeTokens): JudgeTokens {
  return { input: a.input + b.input, cached: a.cached + b.cached, cache_write: a.cache_write + b.cache_write, output: a.output + b.output, reasoning: a.reasoning + b.reasoning, total: a.total + b.total };
}

/**
 * The price of a model: an exact entry, else the longest entry the id extends with "-" (a dated snapshot
 * such as `gpt-5.6-terra-2026-06-26` is priced as `gpt-5.6-terra`). Overrides win over the built-in table.
 */
export function priceFor(model: string, overrides: PriceTable = {}): ModelPrice | null {
  const prices: Record<string, ModelPrice> = { ...JUDGE_PRICES, ...overrides };
  if (prices[model]) return prices[model]!;
  const base = Object.keys(prices)
    .filter((key) => model.startsWith(`${key}-`))
    .sort((a, b) => b.length - a.length)[0];
  return base ? prices[base]! : null;
}

/** Estimated USD for the tokens at the given price; null without a price. */
export function estimateCost(tokens: JudgeTokens, price: ModelPrice | null): number | null {
  if (!price) return null;
  const uncached = Math.max(0, tokens.input - tokens.cached - tokens.cache_write);
  const usd = uncached * price.input + tokens.cached * price.cached_input + tokens.cache_write * (price.cache_write ?? price.input) + tokens.output * price.output;
  return usd / 1_000_000;
}
