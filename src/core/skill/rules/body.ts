import { estimateTokens } from '../estimateTokens';
import type { Finding } from '../findings';
import { fencedBlocks, inBlocks, inInlineCode, MAX_FENCE_SHOWN } from '../markdownBlocks';
import type { TextIndex } from '../textIndex';
import type { ParsedSkillFile } from '../skillTypes';
import { formatCount } from './fieldAccess';
import { mayHoldPlaceholder, placeholderMatches } from './placeholders';
import { rule, type RuleInfo } from './ruleInfo';
import { checkBodySecurity, ENCODED_MIN_DEFAULT, securityMayFire, type BodyScan } from './security';
import { charOffsetsOf, includesVia, indexFrom, NextChar } from '../textSearch';
import { DIAGNOSTIC_LIMITS, excerpt } from '../diagnosticLimits';

export const BODY_MAX_LINES = 500;
export const BODY_MAX_TOKENS = 5000;

/** Rules about the Markdown body of SKILL.md: its size and its structure. */
export const BODY_RULES: readonly RuleInfo[] = [
  rule('body-too-long', 'warning', 'warning', 'The body has more than 500 lines.',
    'The whole body is loaded when the skill activates. Keep SKILL.md under 500 lines and move detail into files under `references/`.',
    { options: { maxLines: { default: BODY_MAX_LINES, description: 'Most body lines before a finding.' } } }),
  rule('body-too-many-tokens', 'warning', 'warning', 'The body is about 5,000 tokens or more.',
    'The specification recommends under 5,000 tokens of instructions (estimated here as characters / 4). Move detail into referenced files.',
    { options: { maxTokens: { default: BODY_MAX_TOKENS, description: 'Most estimated body tokens (characters / 4) before a finding.' } } }),
  rule('code-fence-unclosed', 'warning', 'warning', 'A fenced code block is never closed.',
    'An unclosed ```` ``` ```` turns the rest of the file into code: headings, links and instructions after it are shown (and often read) as code. Add the closing fence where the block ends; the quick fix adds it at the end of the file.',
    { fix: { title: 'Close the code block at the end of the file', safe: true } }),
  rule('anchor-missing', 'info', 'info', 'A `#anchor` link matches no heading of SKILL.md.',
    'Links such as `[setup](#setup)` jump to the heading whose GitHub-style slug is `setup`. Fix the anchor or the heading text.'),
];

/** Limits the body rules read from the configuration. */
export interface BodyLimits {
  maxLines: number;
  maxTokens: number;
  encodedMin: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { maxLines: BODY_MAX_LINES, maxTokens: BODY_MAX_TOKENS, encodedMin: ENCODED_MIN_DEFAULT };

/** Number of lines of a text (a final line break does not start another line). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.charCodeAt(text.length - 1) === 10 ? n : n + 1;
}

/**
 * A necessary condition for any structure rule to fire in a body, from the searches the rules start with: a fence,
 * an anchor link, a placeholder's literal.
 */
function structureMayFire(body: string, quiet: boolean): boolean {
  // Quiet text (see quietText) has no '`', '~' or ']': only a placeholder's literal is left to look for.
  if (quiet) return mayHoldPlaceholder(body);
  return body.includes('```') || body.includes('~~~') || includesVia(body, '](#', 0) || mayHoldPlaceholder(body);
}

/**
 * True when no body rule (size, structure, security) has anything to say about this body at the default limits.
 * `quiet`: the text is quiet (see quietText), which lets the searches that start from its characters be skipped.
 */
export function bodyIsPlain(body: string, quiet = false): boolean {
  if (body.length > BODY_MAX_TOKENS * 4 || (body.length > BODY_MAX_LINES && countLines(body) >= BODY_MAX_LINES)) return false;
  return !structureMayFire(body, quiet) && !securityMayFire(body, quiet);
}

/** Body rules: size, structure and security. Each finding spans what it is about. */
export function checkBody(parsed: ParsedSkillFile, index: TextIndex, limits: BodyLimits, out: Finding[]): void {
  const body = parsed.body;
  const text = parsed.text;
  const base = text.length - body.length;
  if (body.length === 0) return;
  // A body has no more lines than characters, so a short one needs no count. Otherwise the shared index
  // counts the lines once; later ranges (here and for references) reuse its line starts.
  const lines = body.length <= limits.maxLines ? 0 : index.lineCount - parsed.bodyStartLine - (body.charCodeAt(body.length - 1) === 10 ? 1 : 0);
  if (lines > limits.maxLines) {
    const from = index.offsetAt({ line: parsed.bodyStartLine + limits.maxLines, character: 0 });
    out.push({
      rule: 'body-too-long',
      message: `The SKILL.md body is ${lines} lines; the recommended limit is ${limits.maxLines}. Move detailed material into files under references/ and link to them.`,
      range: index.rangeOf(from, text.length),
      data: { lines, limit: limits.maxLines },
    });
  }
  const tokens = estimateTokens(body);
  if (tokens > limits.maxTokens) {
    const from = base + limits.maxTokens * 4;
    out.push({
      rule: 'body-too-many-tokens',
      message: `The SKILL.md body is about ${formatCount(tokens)} tokens (${formatCount(body.length)} characters / 4); the recommended limit is about ${formatCount(limits.maxTokens)}. Move detail into referenced files.`,
      range: index.rangeOf(Math.min(from, text.length), text.length),
      data: { tokens, limit: limits.maxTokens },
    });
  }
  const fences = fencedBlocks(text, index, base);
  const scan: BodyScan = { text, base, index, blocks: fences.blocks };
  if (fences.unclosed) {
    const { start, fence, length } = fences.unclosed;
    const end = index.lineEnd(index.positionAt(start).line);
    const eol = parsed.eol;
    const atEnd = index.rangeOf(text.length, text.length);
    const newText = `${text.endsWith('\n') ? '' : eol}${fence}${eol}`;
    const shown = length > 16 ? `${fence.slice(0, 16)}… (${length} characters)` : fence;
    out.push({
      rule: 'code-fence-unclosed',
      message: `The code block opened with ${shown} on line ${index.positionAt(start).line + 1} is never closed, so everything after it is code. ${showsFences(text, fences.blocks, length) ? `An earlier block shows code fences inside a block fenced with ${shown}: its inner fence ended it, and its last fence opened this one. Fence the outer block with more ${fence[0] === '`' ? 'backticks' : 'tildes'} (${fence[0].repeat(length + 1)}) than the fences it shows.` : `Add a closing ${shown} line where the block ends.`}`,
      range: index.rangeOf(start, end),
      // A fence thousands of characters long gets no fix: the edit would repeat it whole.
      data: length > MAX_FENCE_SHOWN ? { fence: shown } : { fence, fix: { title: `Close the code block with ${fence} at the end of the file`, edits: [{ range: atEnd, newText }] } },
    });
  }
  let placeholders = 0;
  for (const p of placeholderMatches(text, base)) {
    if (inBlocks(fences.blocks, p.start) || inInlineCode(index, p.start)) continue;
    // Past what one file reports (see diagnosticLimits), more findings would only be counted and dropped.
    if (++placeholders > DIAGNOSTIC_LIMITS.maxPerFile) break;
    out.push({
      rule: 'placeholder-text',
      message: `Placeholder '${p.text}' is left in the body; the model reads it as an instruction. Replace it with the real text or remove it.`,
      range: index.rangeOf(p.start, p.start + p.text.length),
      data: { placeholder: p.text },
    });
  }
  if (indexFrom(charOffsetsOf(index, text, ']'), text, '](#', base) >= 0) checkAnchors(scan, out);
  checkBodySecurity(scan, limits.encodedMin, out);
}

/**
 * True when a ```markdown (or ```md) block holds a fence line with a language (```` ```python ````) as long as its own
 * fence: a block that shows fences inside a fence of the same length, which CommonMark ends at the first inner
 * closing fence. Only the blocks' lines are read.
 */
function showsFences(text: string, blocks: readonly [number, number][], length: number): boolean {
  for (let i = 0; i + 1 < blocks.length; i++) {
    const [, end] = blocks[i];
    const info = text.slice(blocks[i][0], text.indexOf('\n', blocks[i][0])).replace(/^\s*[`~]+/, '').trim();
    if (/^(?:markdown|md)\b/i.test(info) && text.slice(blocks[i][0], end).split('\n').slice(1).some((l) => new RegExp(`^\\s{0,3}[\`~]{${length}}[\\w-]+`).test(l))) return true;
  }
  return false;
}

/** GitHub's heading slug: lowercase, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** A slug with each run of hyphens folded to one: how renderers other than GitHub's write it. */
function foldHyphens(slug: string): string {
  return slug.replace(/-{2,}/g, '-');
}

function checkAnchors(s: BodyScan, out: Finding[]): void {
  const { text, base, index, blocks } = s;
  const slugs = new Set<string>();
  const counts = new Map<string, number>();
  const heading = /^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$/gm;
  heading.lastIndex = base;
  for (let m = heading.exec(text); m; m = heading.exec(text)) {
    if (inBlocks(blocks, m.index)) continue;
    const slug = headingSlug(m[1]);
    const n = counts.get(slug) ?? 0;
    counts.set(slug, n + 1);
    slugs.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of text.slice(base).matchAll(/\bid=["']([^"']+)["']|\{#([\w-]+)\}/g)) slugs.add(m[1] ?? m[2]);
  // `](#anchor)`: the anchor runs to the next `)` or white space, found once for all the links before it (a
  // regular expression scanned to the end of the text from each of them).
  const stop = new NextChar(text, /[)\s]/g);
  const brackets = charOffsetsOf(index, text, ']');
  for (let at = indexFrom(brackets, text, '](#', base); at >= 0; at = indexFrom(brackets, text, '](#', at + 1)) {
    const end = stop.at(at + 3);
    if (end < 0 || text.charCodeAt(end) !== 41 || inBlocks(blocks, at)) continue;
    const written = text.slice(at + 3, end);
    let anchor = written;
    try {
      anchor = decodeURIComponent(anchor);
    } catch {
      // keep it as written
    }
    if (slugs.has(anchor) || slugs.has(anchor.toLowerCase())) continue;
    const start = at + 2;
    // `#api-quick-reference` for "API - Quick Reference": other renderers fold the hyphens, GitHub and VS Code keep
    // one per space and hyphen (`#api---quick-reference`). Name the anchor that works.
    const folded = foldHyphens(anchor.toLowerCase());
    const near = [...slugs].find((sl) => sl !== folded && foldHyphens(sl) === folded);
    out.push({
      rule: 'anchor-missing',
      message: near
        ? `\`#${excerpt(written)}\` matches no heading of SKILL.md on GitHub or in VS Code, which keep one hyphen for each space and hyphen of the heading. Write \`#${excerpt(near)}\`.`
        : `\`#${excerpt(written)}\` matches no heading of SKILL.md. Fix the anchor (headings become lowercase, hyphenated slugs) or the heading.`,
      range: index.rangeOf(start, end),
      data: { anchor: excerpt(written), ...(near ? { suggestion: near } : {}) },
    });
  }
}
