// truncatedEnding is asked of every description a scan reads, so it tests the last characters instead of running
// regular expressions over the whole description. This holds it to the plain way, written here as the rule reads:
// trim, drop a final ellipsis, then one expression per ending.
import * as assert from 'node:assert/strict';
import { truncatedEnding } from '../../../src/core/skill/rules/description';
import { seededRandom } from '../../support/seededRandom';

const DANGLING = /(?:^|\s)(?:a|an|the|and|or|but|nor|to|of|for|with|in|on|at|by|from|into|onto|via|including|such as|like|e\.g\.|i\.e\.|as well as|than|that|which|whose|when|if|your|its|their|our)$/i;

function plainEnding(description: string): string | undefined {
  const t = description.trim().replace(/(?:\.{3}|…)$/, '').trimEnd();
  if (t.length < 20) return undefined;
  if (/[,;:(\[{–—-]$/.test(t)) return `'${t.slice(-1)}'`;
  const opens = (t.match(/[([{]/g) ?? []).length;
  const closes = (t.match(/[)\]}]/g) ?? []).length;
  if (opens > closes && !/[.!?]["')\]]?$/.test(t)) return 'an unclosed bracket';
  if ((t.match(/`/g) ?? []).length % 2 === 1) return 'an unclosed `';
  const word = DANGLING.exec(t);
  return word ? `'${word[0].trim()}'` : undefined;
}

describe('description-truncated: the fast ending test equals the plain one', function () {
  it('on 100,000 seeded descriptions built from endings, brackets, quotes and white space', function () {
    const pieces = ['a', ' ', 'the', ' as well as', ' such as', ' e.g.', 'x', '(', ')', '[', ']', '{', '}', '`', '.', '...', '…', ',', ';', ':', '—', '–', '-', '!', '?', '"', "'", '\n', '\u00a0', ' and', ' if', 'Use when', 'I.E.', ' AS WELL AS'];
    const outcomes = new Map<string, number>();
    for (let seed = 1; seed <= 100_000; seed++) {
      const next = seededRandom(seed);
      let d = '';
      for (let j = 0, k = Math.floor(next() * 30); j < k; j++) d += pieces[Math.floor(next() * pieces.length)];
      const want = plainEnding(d);
      outcomes.set(String(want), (outcomes.get(String(want)) ?? 0) + 1);
      assert.equal(truncatedEnding(d), want, `seed ${seed}: ${JSON.stringify(d)}`);
    }
    // Every kind of ending was met, each many times, or the comparison proves little.
    assert.ok(outcomes.size >= 15 && [...outcomes.values()].every((n) => n >= 20), JSON.stringify([...outcomes]));
  });
});
