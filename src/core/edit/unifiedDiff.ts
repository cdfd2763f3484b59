import { EditError } from './editErrors';

/**
 * Cleans up a unified diff as language models tend to write it, before it reaches
 * `parsePatch`: CRLF becomes LF, hunk headers get line counts recomputed from the body
 * (models often miscount), bare `@@ @@` headers get a start line of 1 (the fuzzy search
 * finds the real place), and blank body lines count as blank context lines.
 * Throws PATCH_PARSE when there is no hunk at all.
 */
export function normalizeUnifiedDiff(diff: string): string {
  const input = diff.replace(/\r\n/g, '\n').split('\n');
  if (input.length && input[input.length - 1] === '') input.pop();
  const out: string[] = [];
  let hunks = 0;
  let i = 0;
  while (i < input.length) {
    const line = input[i];
    if (!line.startsWith('@@')) {
      out.push(line);
      i++;
      continue;
    }
    const m = /^@@\s*(?:-(\d+)(?:,\d+)?)?\s*(?:\+(\d+)(?:,\d+)?)?\s*@@(.*)$/.exec(line);
    if (!m) {
      throw new EditError('PATCH_PARSE', `Unified diff line ${i + 1} "${line}" is not a valid hunk header; write it as "@@ -<old start>,<old count> +<new start>,<new count> @@".`);
    }
    i++;
    const body: string[] = [];
    while (i < input.length && isBodyLine(input, i)) body.push(input[i++]);
    while (body.length && body[body.length - 1] === '') body.pop();
    let oldCount = 0;
    let newCount = 0;
    const fixed = body.map((b) => {
      const l = b === '' ? ' ' : b;
      if (l[0] === ' ' || l[0] === '-') oldCount++;
      if (l[0] === ' ' || l[0] === '+') newCount++;
      return l;
    });
    let oldStart = m[1] !== undefined ? Number(m[1]) : m[2] !== undefined ? Number(m[2]) : 1;
    if (oldCount > 0 && oldStart === 0) oldStart = 1;
    const newStart = m[2] !== undefined ? Number(m[2]) : oldStart;
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@${m[3]}`, ...fixed);
    hunks++;
  }
  if (hunks === 0) {
    throw new EditError(
      'PATCH_PARSE',
      'The unified diff has no hunk: expected at least one "@@ -a,b +c,d @@" header followed by lines starting with " " (context), "-" (removed) or "+" (added).',
    );
  }
  return out.join('\n') + '\n';
}

function isBodyLine(lines: string[], i: number): boolean {
  const l = lines[i];
  if (l.startsWith('@@') || l.startsWith('diff ') || l.startsWith('Index: ')) return false;
  // a "--- a/x" directly followed by "+++ b/x" starts the next file, not a removed line
  if (l.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) return false;
  return l === '' || l[0] === ' ' || l[0] === '-' || l[0] === '+' || l[0] === '\\';
}
