import type { Finding } from '../findings';
import { DIAGNOSTIC_LIMITS, excerpt } from '../diagnosticLimits';
import { inBlocks } from '../markdownBlocks';
import type { TextIndex } from '../textIndex';
import { charOffsetsOf, indexFrom } from '../textSearch';
import { rule, type RuleInfo } from './ruleInfo';

export const ENCODED_MIN_DEFAULT = 200;

/** Security rules over the text of a skill (the secret scan of every file lives in validateFiles). */
export const SECURITY_RULES: readonly RuleInfo[] = [
  rule('secret-detected', 'warning', 'warning', 'A file of the skill appears to contain a credential (API key, token, private key, password).',
    'Skills must not contain credentials: they are shared and loaded into model context. Remove the value, rotate it, and read it from an environment variable instead. Obvious demo values are not reported: placeholders (`your-api-key`, `<token>`), variable references, a vendor prefix with a tail that counts up (`rk_test_abc123xyz789`), and passwords that spell password or secret (`P@ssw0rd`).'),
  rule('hidden-directive', 'warning', 'warning', 'An HTML comment or link-reference definition holds instructions a reader does not see.',
    'HTML comments (`<!-- … -->`) and link-reference definitions used as comments (`[//]: # (…)`) are hidden when the Markdown is rendered, but the model reads them. Instructions placed there ("ignore the previous instructions", "do not tell the user") are a prompt-injection pattern. Move real instructions into visible text, or delete the comment.'),
  rule('encoded-payload', 'info', 'info', 'A long base64 or hex string in SKILL.md.',
    'A long encoded string cannot be reviewed by a reader, and a model may decode and follow it. Put binary data in a file under `assets/` and describe it in words. The length that counts as long is the option `minLength` (characters).',
    { options: { minLength: { default: ENCODED_MIN_DEFAULT, description: 'Shortest run of base64 or hex characters reported.' } } }),
  rule('dynamic-context', 'warning', 'warning', 'A dynamic-context command (`!`cmd``) that some hosts run in a shell when the skill loads.',
    'Claude Code runs `!`command`` (and ```` ```! ```` blocks) in a shell before the model sees the skill, with the user\'s permissions and no confirmation. Make sure the command is harmless and intended; prefer a script under `scripts/` that the model runs with the user\'s approval.'),
];

const DIRECTIVE = /\b(?:ignore|disregard|forget|override)\b[^.\n]{0,60}\b(?:instructions?|rules?|above|previous|prior|system)\b|\b(?:do not|don't|never)\s+(?:tell|mention|reveal|inform|show|disclose|ask)\b|\bsystem prompt\b|\byou (?:must|should|will|are now)\b|\b(?:always|must|then)\s+(?:run|execute|call|send|upload|curl|fetch|post)\b|\bsecretly\b|\bwithout (?:telling|asking|informing)\b/i;
const COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;
const LINK_COMMENT = /^ {0,3}\[[^\]\n]+\]:[ \t]*(?:#|<>|\S+)[ \t]*(?:\(([^)\n]*)\)|"([^"\n]*)"|'([^'\n]*)')[ \t]*$/gm;
const DYNAMIC = /!`[^`\n]+`|^ {0,3}```!/gm;

/**
 * A necessary condition for any rule of this module to fire in a body at the default limits, from the same
 * searches the rules start with: an HTML comment or dynamic-context form, a link-reference definition, a long run of
 * base64 characters. The fast path asks this.
 */
export function securityMayFire(body: string, quiet = false): boolean {
  // Quiet text (see quietText) has no '!' (comments, dynamic context) and no ']' (link-reference definitions).
  if (quiet) return longRuns(body, 0, ENCODED_MIN_DEFAULT).length > 0;
  const bangs = bangForms(body, 0);
  return bangs.comment || bangs.dynamic || body.includes(']:') || longRuns(body, 0, ENCODED_MIN_DEFAULT).length > 0;
}

/** `[A-Za-z0-9+/_=-]`: the characters of base64 (and base64url), which hex is a subset of. */
function isBase64Code(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 47 && c <= 57) || c === 43 || c === 95 || c === 45 || c === 61;
}

/**
 * `[start, end)` of every run of base64 characters at least `min` long. Such a run covers `min` consecutive
 * offsets, so it holds a multiple of `min`: only those offsets are probed, and a hit is widened both ways.
 */
function longRuns(text: string, from: number, min: number): [number, number][] {
  const runs: [number, number][] = [];
  const step = Math.max(1, min);
  for (let probe = Math.ceil(from / step) * step; probe < text.length; probe += step) {
    if (!isBase64Code(text.charCodeAt(probe))) continue;
    let start = probe;
    while (start > from && isBase64Code(text.charCodeAt(start - 1))) start--;
    let end = probe + 1;
    while (end < text.length && isBase64Code(text.charCodeAt(end))) end++;
    if (end - start >= min) runs.push([start, end]);
    probe = Math.floor(end / step) * step;
  }
  return runs;
}

/** Body offsets and the fenced blocks of the body. */
export interface BodyScan {
  text: string;
  base: number;
  index: TextIndex;
  blocks: readonly [number, number][];
}

/** The security rules of the body: hidden directives, encoded payloads, dynamic-context commands. */
export function checkBodySecurity(s: BodyScan, encodedMin: number, out: Finding[]): void {
  const { text, base, index, blocks } = s;
  const bangs = bangForms(text, base);
  if (bangs.comment) {
    COMMENT.lastIndex = base;
    for (let m = COMMENT.exec(text); m; m = COMMENT.exec(text)) {
      const inner = m[1];
      if (inBlocks(blocks, m.index) || /^\s*agent-skills-(?:disable|enable)/.test(inner)) continue;
      const d = DIRECTIVE.exec(inner);
      if (d) out.push(directive('an HTML comment', d[0], index, m.index, m.index + m[0].length));
    }
  }
  // The `]`s of the body are found once for all the rules that start from one (see CharOffsets).
  if (indexFrom(charOffsetsOf(index, text, ']'), text, ']:', base) >= 0) {
    LINK_COMMENT.lastIndex = base;
    for (let m = LINK_COMMENT.exec(text); m; m = LINK_COMMENT.exec(text)) {
      const inner = m[1] ?? m[2] ?? m[3] ?? '';
      const d = DIRECTIVE.exec(inner);
      if (d && !inBlocks(blocks, m.index)) out.push(directive('a link-reference definition', d[0], index, m.index, m.index + m[0].length));
    }
  }
  for (const [start, end] of longRuns(text, base, encodedMin)) {
    const run = text.slice(start, end);
    // A run of one repeated character or of letters only (a long word, a path) is not a payload.
    if (!/\d/.test(run) || !/[A-Za-z]/.test(run) || /^(.)\1*$/.test(run)) continue;
    const hex = /^[0-9a-fA-F]+$/.test(run);
    out.push({
      rule: 'encoded-payload',
      message: `A ${run.length}-character ${hex ? 'hex' : 'base64'} string sits in SKILL.md; readers cannot review it and a model may decode and follow it. Move the data into a file under assets/ and describe it in words.`,
      range: index.rangeOf(start, end),
      data: { length: run.length, encoding: hex ? 'hex' : 'base64' },
    });
  }
  if (bangs.dynamic) {
    DYNAMIC.lastIndex = base;
    let found = 0;
    for (let m = DYNAMIC.exec(text); m; m = DYNAMIC.exec(text)) {
      const block = m[0].trimStart().startsWith('```');
      if (!block && inBlocks(blocks, m.index)) continue;
      // Past what one file reports (see diagnosticLimits), more findings would only be counted and dropped.
      if (++found > DIAGNOSTIC_LIMITS.maxPerFile) break;
      // An odd number of backticks before the '!' on its line: the backtick after it closes a code span (`try!`),
      // so no command was meant; Claude Code still runs the text up to the next backtick and the skill fails to load.
      const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
      const closesSpan = !block && (text.slice(lineStart, m.index).match(/`/g) ?? []).length % 2 === 1;
      out.push({
        rule: 'dynamic-context',
        message: closesSpan
          ? `A code span ends with '!' before its closing backtick: Claude Code reads \`${excerpt(m[0])}\` as a command to run when the skill loads, runs the words up to the next backtick and fails to load the skill. Put a space before the closing backtick (\`x! \`), or write the '!' outside the code span.`
          : `${block ? `The \`\`\`! block on line ${index.positionAt(m.index).line + 1}` : `\`${excerpt(m[0])}\``} is run in a shell by Claude Code when the skill loads, without asking the user. Check that the command is harmless, or move it into a script under scripts/ that the model runs with approval.`,
        range: index.rangeOf(m.index, m.index + m[0].length),
        data: { command: block ? '```!' : excerpt(m[0].slice(2, -1)) },
      });
    }
  }
}

/**
 * Which of the forms built on '!' (among the rarest characters of a SKILL.md) the body holds: an HTML comment
 * (`<!--`) or a dynamic-context command (`` !` `` or a ```` ```! ```` block). One search for '!' answers both.
 */
function bangForms(text: string, base: number): { comment: boolean; dynamic: boolean } {
  let comment = false;
  let dynamic = false;
  for (let at = text.indexOf('!', base); at >= 0 && !(comment && dynamic); at = text.indexOf('!', at + 1)) {
    if (!comment && at - 1 >= base && text.charCodeAt(at - 1) === 60 && text.startsWith('--', at + 1)) comment = true;
    if (!dynamic && (text.charCodeAt(at + 1) === 96 || (at - 3 >= base && text.startsWith('```', at - 3)))) dynamic = true;
  }
  return { comment, dynamic };
}

function directive(where: string, phrase: string, index: TextIndex, start: number, end: number): Finding {
  return {
    rule: 'hidden-directive',
    message: `${where[0].toUpperCase()}${where.slice(1)} holds an instruction ('${phrase}') that readers of the rendered Markdown do not see but the model reads. Move real instructions into visible text, or delete it.`,
    range: index.rangeOf(start, end),
    data: { phrase },
  };
}
