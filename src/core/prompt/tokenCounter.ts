import type { TokenCounter } from './promptTypes';

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
  atMost: (text: string) => Buffer.byteLength(text, 'utf8'),
};

/** True when the texts, each counted with `extra` tokens more, fit in `limit`: from the counter's bound when that is enough. */
export function fitsTokens(counter: TokenCounter, texts: readonly string[], limit: number, extra = 0): boolean {
  if (limit === Number.POSITIVE_INFINITY) return true;
  const { atMost } = counter;
  if (atMost && texts.reduce((n, t) => n + atMost(t) + extra, 0) <= limit) return true;
  return texts.reduce((n, t) => n + counter.count(t) + extra, 0) <= limit;
}

/** `{ key: compute() }` with each value computed on its first read (a count nobody reads loads no encoder). */
export function lazyCounts<K extends string>(compute: Record<K, () => number>): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const key of Object.keys(compute) as K[]) {
    let value: number | undefined;
    Object.defineProperty(out, key, { enumerable: true, get: () => (value ??= compute[key]()) });
  }
  return out;
}

/**
 * Wraps a counter with a bounded memo, so the catalog entries and skill bodies counted on every model
 * call are tokenized once. The oldest entries are dropped first.
 */
export function memoizeCounter(counter: TokenCounter, max = 4000): TokenCounter {
  const memo = new Map<string, number>();
  return {
    ...(counter.atMost ? { atMost: (text: string) => (counter.atMost as (t: string) => number)(text) } : {}),
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
