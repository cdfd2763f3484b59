import type { TokenCounter } from './types';

type O200k = typeof import('gpt-tokenizer/encoding/o200k_base');
let o200k: O200k['countTokens'] | undefined;

/**
 * The encoder is required on the first count, not at import: its tables are ~2.4 MB of JavaScript that take
 * ~100-200 ms to load, which the extension's activation and the CLI's start-up should not pay. In the bundles
 * the build turns this require into one of a separate file in dist/ (scripts/build.mjs, `vendor`), so the
 * tables are not even parsed until a count is asked for.
 */
function countO200k(text: string): number {
  o200k ??= (require('gpt-tokenizer/encoding/o200k_base') as O200k).countTokens;
  return o200k(text);
}

/** The default counter: o200k_base, offline, loaded on its first count. */
export const o200kCounter: TokenCounter = {
  count: (text: string) => (text ? countO200k(text) : 0),
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
