/** A rough token count (about four characters a token): budgets for history text, the simulator's usage. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
