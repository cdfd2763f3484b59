// The glob matcher without regular expressions (src/core/paths/globMatch.ts): the same answers as picomatch (what
// tinyglobby matched outputs with before) on generated patterns and paths, with dot files matched, and refusals that
// say what is wrong. The exponential case is in test/core/exec/outputGlobs.redteam.test.ts.
import * as assert from 'node:assert/strict';
import picomatch from 'picomatch';
import { compileGlob, expandBraces, GlobError, literalPrefix, MAX_ALTERNATIVES } from '../../../src/core/paths/globMatch';
import { seededRandom } from '../../support/seededRandom';

describe('core/paths globMatch', () => {
  it('answers as picomatch (dot: true) on 4,000 generated patterns and paths of *, ?, **, [..], {a,b} and literals', () => {
    const rnd = seededRandom(22);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    // `[!a]` is left out: picomatch reads it as the literal or `[!a]`, not as POSIX negation (ours); `[^a]` is the same in both.
    const pieces = ['a', 'b', '.', '*', '?', '[ab]', '[^a]', '{a,b}', '{a,bb}'];
    // `**` only as a whole segment: inside one, picomatch lets it cross `/` (`**b` matches `a/b`); ours reads it as `*`.
    const seg = () => (rnd() < 0.15 ? '**' : Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(pieces)).join('').replace(/\*+/g, '*').replace(/^\.{1,2}$/, 'c'));
    // A file name is never `.` or `..` (a folder listing gives neither).
    const name = () => Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => pick(['a', 'b', '.', 'c'])).join('').replace(/^\.{1,2}$/, 'c$&');
    let matched = 0;
    for (let i = 0; i < 4000; i++) {
      // A trailing `/**` after a wildcard segment is left out: picomatch lets it match no segment after a literal one
      // (`a/**` matches `a`) but not after a wildcard (`*/**` does not match `a`); ours lets it in both (bash's globstar).
      const segs = Array.from({ length: 1 + Math.floor(rnd() * 3) }, seg);
      while (segs.length > 1 && segs[segs.length - 1] === '**') segs[segs.length - 1] = 'a*';
      const glob = segs.join('/');
      const rel = Array.from({ length: 1 + Math.floor(rnd() * 3) }, name).join('/');
      const want = picomatch(glob, { dot: true })(rel);
      assert.equal(compileGlob(glob)(rel), want, `${glob} on ${rel}`);
      if (want) matched++;
    }
    assert.ok(matched > 150, `only ${matched} matches: the generator should exercise both answers`);
  });

  it('refuses extended globs, unclosed braces, too many alternatives and overlong globs, saying which', () => {
    assert.throws(() => compileGlob('out/+(a|b)'), (e: Error) => e instanceof GlobError && /extended globs such as "\+\(\.\.\.\)"/.test(e.message));
    assert.throws(() => compileGlob('out/{a,b'), (e: Error) => e instanceof GlobError && /without its "}"/.test(e.message));
    assert.throws(() => expandBraces('{a,b}'.repeat(7)), (e: Error) => e instanceof GlobError && e.message.includes(`more than ${MAX_ALTERNATIVES}`));
    assert.equal(expandBraces('{a,b}'.repeat(6)).length, 64);
    assert.throws(() => compileGlob(`out/${'a'.repeat(1100)}`), GlobError);
  });

  it('gives the fixed folders a walk can start from', () => {
    assert.equal(literalPrefix('out/**'), 'out');
    assert.equal(literalPrefix('out/dir/*.txt'), 'out/dir');
    assert.equal(literalPrefix('**/id_test'), '');
    assert.equal(literalPrefix('out/{a,b}/x'), 'out');
    assert.equal(literalPrefix('file'), '');
  });
});
