/**
 * A cheap token estimate: one token per four characters, rounded up. Good to about ±25% for English
 * prose and code, which is enough for "about 5,000 tokens" warnings; say "about" when showing it.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
