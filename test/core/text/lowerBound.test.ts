import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lowerBound } from '../../../src/core/text/lowerBound';
import { REPO, sourceFiles, withoutComments } from '../../support/sourceFiles';

const HOME = 'src/core/text/lowerBound.ts';

/** The midpoints a file's code takes between two ends of its own: `(lo + hi) >> 1`, `>>> 1`, `/ 2`, `+ 1) >> 1`. */
export function ownMidpoints(code: string): string[] {
  return [...code.matchAll(/\(\s*\w+\s*\+\s*\w+\s*(?:\+\s*1\s*)?\)\s*(?:>>>?\s*1\b|\/\s*2\b)/g)].map((m) => m[0]);
}

/** The index of the first entry of a sorted list at or above `value`, asked the one way. */
const firstAtOrAbove = (list: readonly number[], value: number) => lowerBound(list.length, (i) => list[i] < value);

/** The same answer by walking the list, to hold the search against. */
const linear = (list: readonly number[], value: number) => {
  let i = 0;
  while (i < list.length && list[i] < value) i++;
  return i;
};

/** A search that records every index it asks about. */
function asked(count: number, end: number): { answer: number; asks: number[] } {
  const asks: number[] = [];
  const answer = lowerBound(count, (i) => {
    asks.push(i);
    // A search that wraps its midpoint can loop for ever: stop it with a failure instead.
    if (asks.length > 200) throw new Error(`more than 200 asks for count ${count} (the last ${asks.slice(-3).join(', ')})`);
    return i < end;
  });
  return { answer, asks };
}

describe('lowerBound (the one binary search)', () => {
  it('an empty range answers 0 without asking anything', () => {
    assert.deepEqual(asked(0, 0), { answer: 0, asks: [] });
    assert.equal(firstAtOrAbove([], 5), 0);
  });

  it('every entry below the value: the answer is the count', () => {
    assert.equal(firstAtOrAbove([1, 2, 3], 10), 3);
    assert.equal(firstAtOrAbove([7], 8), 1);
  });

  it('every entry at or above the value: the answer is 0', () => {
    assert.equal(firstAtOrAbove([4, 5, 6], 1), 0);
    assert.equal(firstAtOrAbove([4, 5, 6], 4), 0);
  });

  it('duplicates: the first of the equal run, and past the run for "at or before" (an upper bound)', () => {
    const list = [1, 3, 3, 3, 3, 8];
    assert.equal(firstAtOrAbove(list, 3), 1);
    assert.equal(lowerBound(list.length, (i) => list[i] <= 3), 5);
    const same = [2, 2, 2, 2];
    assert.equal(firstAtOrAbove(same, 2), 0);
    assert.equal(lowerBound(same.length, (i) => same[i] <= 2), 4);
  });

  it('agrees with a linear walk on 2,000 random sorted lists with duplicates, for every value around them', () => {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let n = 0; n < 2000; n++) {
      const list = Array.from({ length: Math.floor(rand() * 40) }, () => Math.floor(rand() * 20)).sort((a, b) => a - b);
      for (let v = -1; v <= 21; v++) assert.equal(firstAtOrAbove(list, v), linear(list, v), `list ${JSON.stringify(list)}, value ${v}`);
    }
  });

  it('asks only about indices inside the range, at most ceil(log2(count + 1)) times', () => {
    for (const count of [1, 2, 3, 7, 8, 9, 1000, 1023, 1024]) {
      for (const end of [0, 1, Math.floor(count / 2), count - 1, count]) {
        const { answer, asks } = asked(count, end);
        assert.equal(answer, end, `count ${count}, end ${end}`);
        assert.ok(asks.every((i) => Number.isInteger(i) && i >= 0 && i < count), `asked outside [0, ${count}): ${asks}`);
        assert.ok(asks.length <= Math.ceil(Math.log2(count + 1)), `${asks.length} asks for ${count}`);
      }
    }
  });

  it('hostile sizes: counts past 2^31, 2^32 and up to MAX_SAFE_INTEGER are searched without the midpoint wrapping', () => {
    for (const count of [2 ** 31 + 5, 2 ** 32 + 5, 2 ** 40, Number.MAX_SAFE_INTEGER]) {
      for (const end of [0, 2 ** 31 + 1, 2 ** 32 + 1, Math.floor(count / 3), count - 1, count]) {
        if (end > count) continue;
        const { answer, asks } = asked(count, end);
        assert.equal(answer, end, `count ${count}, end ${end}`);
        assert.ok(asks.every((i) => Number.isSafeInteger(i) && i >= 0 && i < count), `count ${count}: asked ${asks.find((i) => !(i >= 0 && i < count))}`);
        assert.ok(asks.length <= 54, `${asks.length} asks`);
      }
    }
  });

  it('refuses a count that is not a whole number from 0 (negative, fractional, NaN, infinite, unsafe)', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      assert.throws(() => lowerBound(bad, () => true), (e: unknown) => e instanceof RangeError && /count must be a whole number/.test(e.message), String(bad));
    }
  });

  it('is the only binary search of src/ and server/: no other file takes a midpoint between two ends of its own', () => {
    // The scan itself catches the shapes the four copies had.
    assert.deepEqual(ownMidpoints('const mid = (lo + hi) >> 1; const m = (a + b) >>> 1; const k = (lo + hi + 1) >> 1; x = Math.floor((l + r) / 2);').length, 4);
    assert.deepEqual(ownMidpoints('const parent = (i - 1) >> 1; const half = n >> 1;'), []);
    const found = ['src', 'server']
      .flatMap((d) => sourceFiles(d))
      .filter((f) => path.relative(REPO, f).split(path.sep).join('/') !== HOME)
      .flatMap((f) => ownMidpoints(withoutComments(fs.readFileSync(f, 'utf8'))).map((m) => `${path.relative(REPO, f)}: ${m}`));
    assert.deepEqual(found, [], `use lowerBound (${HOME}) instead of a search of one's own`);
  });
});
