import { estimateTokens } from './estimateTokens';
import type { Finding } from './findings';
import type { TextIndex } from './textIndex';
import type { ParsedSkillFile } from './types';

export const BODY_MAX_LINES = 500;
export const BODY_MAX_TOKENS = 5000;

/** Number of lines of a text (a final line break does not start another line). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.charCodeAt(text.length - 1) === 10 ? n : n + 1;
}

/** Body size rules: lines and estimated tokens. Each finding spans the part of the body past the limit. */
export function validateBody(parsed: ParsedSkillFile, index: TextIndex, out: Finding[]): void {
  const body = parsed.body;
  const base = parsed.text.length - body.length;
  if (body.length === 0) return;
  // A body has no more lines than characters, so a short one needs no count. Otherwise the shared index
  // counts the lines once; later ranges (here and for references) reuse its line starts.
  const lines = body.length <= BODY_MAX_LINES ? 0 : index.lineCount - parsed.bodyStartLine - (body.charCodeAt(body.length - 1) === 10 ? 1 : 0);
  if (lines > BODY_MAX_LINES) {
    const from = index.offsetAt({ line: parsed.bodyStartLine + BODY_MAX_LINES, character: 0 });
    out.push({
      rule: 'body-too-long',
      message: `The SKILL.md body is ${lines} lines; the recommended limit is ${BODY_MAX_LINES}. Move detailed material into files under references/ and link to them.`,
      range: index.rangeOf(from, parsed.text.length),
      data: { lines, limit: BODY_MAX_LINES },
    });
  }
  const tokens = estimateTokens(body);
  if (tokens > BODY_MAX_TOKENS) {
    const from = base + BODY_MAX_TOKENS * 4;
    out.push({
      rule: 'body-too-many-tokens',
      message: `The SKILL.md body is about ${formatCount(tokens)} tokens (${formatCount(body.length)} characters / 4); the recommended limit is about ${formatCount(BODY_MAX_TOKENS)}. Move detail into referenced files.`,
      range: index.rangeOf(Math.min(from, parsed.text.length), parsed.text.length),
      data: { tokens, limit: BODY_MAX_TOKENS },
    });
  }
}

/** `12345` -> `12,345` (without Intl, which is slow to call on a hot path). */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
