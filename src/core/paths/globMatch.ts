/**
 * Glob matching without regular expressions, in time bounded by the product of the pattern's and the path's
 * lengths whatever either holds. A glob compiled to a backtracking regular expression took exponential time:
 * `out/*a*a*a*a*a*a*a*a*a*a*a*a*c` against a file named thirty `a`s and a `b` held the runner's thread 14.7 s, forty
 * never ended (a run's outputs: the glob is the caller's, the file name the script's); a lint configuration's
 * `exclude` did the same to `validate` and the language server on a repository's folder names.
 *
 * Syntax: `*` (any characters but `/`), `?` (one character but `/`), `[abc]`, `[a-z]`, `[!a]`/`[^a]`, `**` as a whole
 * segment (any number of segments, none included), `{a,b}` (expanded; at most {@link MAX_ALTERNATIVES} in all), `\`
 * escapes the next character. Dot files are matched like any other. Extended globs (`+(a|b)`, `@(...)`) are refused.
 */

/** The most patterns one glob's braces may expand to. */
export const MAX_ALTERNATIVES = 64;
/** The longest glob taken, in characters. */
export const MAX_GLOB_CHARS = 1024;

/** Why a glob was refused, to be worded by the caller (naming its field). */
export class GlobError extends Error {}

type Token = { lit: string } | { one: true } | { star: true } | { set: (c: string) => boolean };
type Segment = Token[] | 'globstar';

/** Expands `{a,b}` (nested too) into separate patterns, refusing more than {@link MAX_ALTERNATIVES}. */
export function expandBraces(glob: string): string[] {
  const out: string[] = [];
  const expand = (g: string): void => {
    let open = -1;
    for (let i = 0; i < g.length; i++) {
      if (g[i] === '\\') i++;
      else if (g[i] === '{') {
        open = i;
        break;
      }
    }
    if (open < 0) {
      out.push(g);
      if (out.length > MAX_ALTERNATIVES) throw new GlobError(`its braces expand to more than ${MAX_ALTERNATIVES} patterns`);
      return;
    }
    let depth = 0;
    const parts: string[] = [];
    let start = open + 1;
    for (let i = open; i < g.length; i++) {
      const c = g[i];
      if (c === '\\') i++;
      else if (c === '{') depth++;
      else if (c === ',' && depth === 1) {
        parts.push(g.slice(start, i));
        start = i + 1;
      } else if (c === '}' && --depth === 0) {
        parts.push(g.slice(start, i));
        // `{a}` is no alternative: kept as written (its braces literal).
        if (parts.length < 2) return expand(`${g.slice(0, open)}\\{${g.slice(open + 1, i)}\\}${g.slice(i + 1)}`);
        for (const p of parts) expand(g.slice(0, open) + p + g.slice(i + 1));
        return;
      }
    }
    throw new GlobError('it has a "{" without its "}"');
  };
  expand(glob);
  return out;
}

function compileSegment(seg: string): Segment {
  if (seg === '**') return 'globstar';
  const tokens: Token[] = [];
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i];
    if (c === '\\') tokens.push({ lit: seg[++i] ?? '\\' });
    else if (c === '*') {
      // `**` inside a segment means what `*` does there; one star is enough.
      if (!('star' in (tokens[tokens.length - 1] ?? {}))) tokens.push({ star: true });
    } else if (c === '?') tokens.push({ one: true });
    else if ('+@!'.includes(c) && seg[i + 1] === '(') throw new GlobError(`extended globs such as "${c}(...)" are not supported; use *, ?, [...] or {a,b}`);
    else if (c === '[') {
      const end = seg.indexOf(']', i + 2);
      if (end < 0) {
        tokens.push({ lit: c });
        continue;
      }
      let body = seg.slice(i + 1, end);
      const negate = body[0] === '!' || body[0] === '^';
      if (negate) body = body.slice(1);
      const ranges: [string, string][] = [];
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === '-' && k + 2 < body.length) {
          ranges.push([body[k], body[k + 2]]);
          k += 2;
        } else ranges.push([body[k], body[k]]);
      }
      tokens.push({ set: (ch) => ch !== '/' && ranges.some(([lo, hi]) => ch >= lo && ch <= hi) !== negate });
      i = end;
    } else tokens.push({ lit: c });
  }
  return tokens;
}

/**
 * Wildcard matching with one resume point: on a mismatch, go back to just after the last star and let it take one
 * more element. Exact for patterns whose only many-element wildcard is the star, in at most |pattern| x |subject|
 * element comparisons: the star before the last one never needs to take back what it took.
 */
function matchSeq<P, S>(pattern: readonly P[], subject: readonly S[], isStar: (p: P) => boolean, one: (p: P, s: S) => boolean): boolean {
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < subject.length) {
    if (p < pattern.length && isStar(pattern[p])) {
      starP = p++;
      starS = s;
    } else if (p < pattern.length && one(pattern[p], subject[s])) {
      p++;
      s++;
    } else if (starP >= 0) {
      p = starP + 1;
      s = ++starS;
    } else return false;
  }
  while (p < pattern.length && isStar(pattern[p])) p++;
  return p === pattern.length;
}

function matchToken(t: Token, ch: string): boolean {
  if ('lit' in t) return t.lit === ch;
  if ('one' in t) return ch !== '/';
  if ('set' in t) return t.set(ch);
  return false;
}

function matchSegment(seg: Token[], name: string): boolean {
  return matchSeq(seg, [...name], (t) => 'star' in t, matchToken);
}

/**
 * A matcher of `/`-separated relative paths for `glob`; throws {@link GlobError} saying what is wrong with it
 * (too long, too many alternatives, an extended glob, an unclosed brace).
 */
export function compileGlob(glob: string): (relPath: string) => boolean {
  if (glob.length > MAX_GLOB_CHARS) throw new GlobError(`it is longer than ${MAX_GLOB_CHARS} characters`);
  const compiled = expandBraces(glob).map((g) => g.split('/').filter((s, i, all) => s !== '' || i === all.length - 1).map(compileSegment));
  return (relPath) => {
    const names = relPath.split('/');
    return compiled.some((segs) => matchSeq(segs, names, (s) => s === 'globstar', (s, n) => s !== 'globstar' && matchSegment(s, n)));
  };
}

/** The folder below which every match of `glob` lies: its leading segments without a wildcard (`''` for the root). */
export function literalPrefix(glob: string): string {
  const segs = glob.split('/');
  const fixed: string[] = [];
  for (const s of segs.slice(0, -1)) {
    if (/[*?[\]{}\\]/.test(s)) break;
    fixed.push(s);
  }
  return fixed.join('/');
}
