import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenCounter } from './types';

/** The default counter: o200k_base, offline. */
export const o200kCounter: TokenCounter = {
  count: (text: string) => (text ? countTokens(text) : 0),
};

/**
 * Wraps a counter with a bounded memo, so the catalog entries and skill bodies counted on every model
 * call are tokenized once. The oldest entries are dropped first.
 */
export function memoizeCounter(counter: TokenCounter, max = 4000): TokenCounter {
  const memo = new Map<string, number>();
  return {
    count(text: string): number {
      const hit = memo.get(text);
      if (hit !== undefined) return hit;
      const n = counter.count(text);
      if (memo.size >= max) memo.delete(memo.keys().next().value as string);
      memo.set(text, n);
      return n;
    },
  };
}
