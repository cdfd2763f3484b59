import { codePointLength } from '../codePoints';
import type { Finding } from '../findings';
import type { FrontmatterField } from '../skillTypes';
import { formatCount, rangeOfValue } from './fieldAccess';
import { mayHoldPlaceholder, placeholderIn } from './placeholders';
import { rule, type RuleInfo } from './ruleInfo';
import { routingIsPlain, checkRouting, type TriggerElsewhere } from './routing';
import { invisibleIn } from './unicode';
import { XML_TAG, xmlFinding } from './xmlTags';

export const DESCRIPTION_MAX = 1024;

/** The `description` rules (its wording is judged by the routing rules). */
export const DESCRIPTION_RULES: readonly RuleInfo[] = [
  rule('description-missing', 'error', 'error', 'The required `description` field is missing.',
    'The description is all a model sees before it activates a skill: without it no host can offer the skill. Add `description:` saying what the skill does and when to use it.',
    { fix: { title: 'Add a `description:` line to fill in', safe: false } }),
  rule('description-empty', 'error', 'error', '`description` is empty or not a string.',
    '`description` must be a non-empty string saying what the skill does and when to use it.'),
  rule('description-truncated', 'warning', 'warning', '`description` stops mid-sentence (it ends with a comma, "and", "the", an open bracket …).',
    'A description cut off (often by a tool that shortened it, or a YAML line break that ended the value) tells the model only half of when to use the skill. Finish the sentence.'),
  rule('description-too-long', 'error', 'warning', '`description` is longer than 1024 characters.',
    'Descriptions have at most 1024 characters; longer ones are loaded by Claude Code but may be truncated or rejected elsewhere. Shorten it and move detail into the body.',
    { fix: { title: 'Shorten the description at a sentence boundary', safe: false } }),
];

/** Words a sentence does not end on: articles, conjunctions, prepositions. */
const DANGLING = /(?:^|\s)(?:a|an|the|and|or|but|nor|to|of|for|with|in|on|at|by|from|into|onto|via|including|such as|like|e\.g\.|i\.e\.|as well as|than|that|which|whose|when|if|your|its|their|our)$/i;

/**
 * How a description stops mid-sentence, or undefined: it ends on a comma, colon, semicolon, a dash, an
 * unclosed bracket or quote, or a word a sentence does not end on. Three dots are a deliberate ellipsis
 * only after a finished clause, so "…, and..." counts too.
 */
export function truncatedEnding(description: string): string | undefined {
  const t = description.trim().replace(/(?:\.{3}|…)$/, '').trimEnd();
  if (t.length < 20) return undefined;
  if (/[,;:(\[{–—-]$/.test(t)) return `'${t.slice(-1)}'`;
  const opens = (t.match(/[([{]/g) ?? []).length;
  const closes = (t.match(/[)\]}]/g) ?? []).length;
  if (opens > closes && !/[.!?]["')\]]?$/.test(t)) return 'an unclosed bracket';
  if (((t.match(/`/g) ?? []).length % 2 === 1)) return 'an unclosed `';
  const word = DANGLING.exec(t);
  if (word) return `'${word[0].trim()}'`;
  return undefined;
}

/**
 * True when no rule has anything to say about this description: a non-empty string within the limit,
 * without tags, invisible characters or placeholders, worded as the routing rules want. The fast path
 * (plainlyValid) and {@link checkDescription} both ask this.
 */
export function descriptionIsPlain(value: unknown, name: string, quiet = false): boolean {
  return (
    typeof value === 'string' &&
    value.length <= DESCRIPTION_MAX &&
    // Quiet text (see quietText) has no '<' and no character from U+0080 on (every invisible one is).
    (quiet || (!value.includes('<') && invisibleIn(value) < 0)) &&
    value.trim() !== '' &&
    truncatedEnding(value) === undefined &&
    (!mayHoldPlaceholder(value) || placeholderIn(value) === undefined) &&
    routingIsPlain(value, name)
  );
}

/** The `description` rules for a present `description` field (`elsewhere`: see {@link TriggerElsewhere}). */
export function checkDescription(value: unknown, f: FrontmatterField, name: string, out: Finding[], elsewhere?: TriggerElsewhere): void {
  if (descriptionIsPlain(value, name)) return;
  if (typeof value !== 'string' || value.trim() === '') {
    out.push({
      rule: 'description-empty',
      message: '`description` must be a non-empty string saying what the skill does and when to use it (at most 1024 characters).',
      range: rangeOfValue(f),
      data: { field: 'description' },
    });
    return;
  }
  const len = value.length > DESCRIPTION_MAX ? codePointLength(value) : value.length;
  if (len > DESCRIPTION_MAX) {
    out.push({
      rule: 'description-too-long',
      message: `\`description\` is ${formatCount(len)} characters; the limit is ${DESCRIPTION_MAX}. Shorten it by ${len - DESCRIPTION_MAX} and move detail into the body.`,
      range: rangeOfValue(f),
      data: { field: 'description', length: len, limit: DESCRIPTION_MAX },
    });
  }
  if (value.includes('<') && XML_TAG.test(value)) out.push(xmlFinding('description', rangeOfValue(f)));
  const cut = len <= DESCRIPTION_MAX ? truncatedEnding(value) : undefined;
  if (cut) {
    out.push({
      rule: 'description-truncated',
      message: `\`description\` stops mid-sentence: it ends with ${cut}. The model reads only this to decide when to use the skill; finish the sentence.`,
      range: rangeOfValue(f),
      data: { field: 'description', ending: cut },
    });
  }
  const placeholder = placeholderIn(value);
  if (placeholder !== undefined) {
    out.push({
      rule: 'placeholder-text',
      message: `\`description\` still holds the placeholder '${placeholder}'. Replace it with what the skill does and when to use it.`,
      range: rangeOfValue(f),
      data: { field: 'description', placeholder },
    });
  }
  checkRouting(value, f, name, out, elsewhere);
}
