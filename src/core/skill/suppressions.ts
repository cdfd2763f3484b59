import { getRule } from './rules';
import type { SkillDiagnostic, ValidationMode } from './skillTypes';
import { includesVia, indexVia } from './textSearch';

/** One suppression comment: which rules (empty: all), and the 0-based lines it covers (inclusive). */
interface Suppression {
  rules: string[];
  from: number;
  to: number;
}

/** Every suppression starts with a disable comment; an enable alone does nothing. */
const MARK_DISABLE = 'agent-skills-disable';
/** `<!-- agent-skills-disable-next-line a b -->` in the body, `# agent-skills-disable a` in the frontmatter (a `#` line of the body is a heading, not a suppression). */
const COMMENT = /(?:<!--|^[ \t]*#)[ \t]*agent-skills-(disable-next-line|disable-line|disable|enable)\b([^\n]*?)(?:-->|$)/gm;

/**
 * Reads the suppression comments of a SKILL.md text. `-disable-next-line` covers the next line,
 * `-disable` runs to the matching `-enable` (or the end of the file; in the frontmatter, the whole file).
 */
export function readSuppressions(text: string, frontmatterEndLine = -1): Suppression[] {
  if (!maySuppress(text, frontmatterEndLine)) return [];
  const out: Suppression[] = [];
  const open: Suppression[] = [];
  let line = 0;
  let scanned = 0;
  COMMENT.lastIndex = 0;
  for (let m = COMMENT.exec(text); m; m = COMMENT.exec(text)) {
    for (let i = text.indexOf('\n', scanned); i >= 0 && i < m.index; i = text.indexOf('\n', i + 1)) line++;
    scanned = m.index;
    const rules = m[2].replace(/-->.*$/, '').split(/[\s,]+/).filter((r) => r !== '');
    const inFrontmatter = line < frontmatterEndLine;
    if (frontmatterEndLine >= 0 && !inFrontmatter && !m[0].startsWith('<!--')) continue;
    switch (m[1]) {
      case 'disable-next-line':
        out.push({ rules, from: line + 1, to: line + 1 });
        break;
      case 'disable-line':
        out.push({ rules, from: line, to: line });
        break;
      case 'disable': {
        const s = { rules, from: inFrontmatter ? 0 : line, to: Number.MAX_SAFE_INTEGER };
        out.push(s);
        if (!inFrontmatter) open.push(s);
        break;
      }
      case 'enable':
        for (const s of open.splice(0)) if (rules.length === 0 || s.rules.some((r) => rules.includes(r))) s.to = line;
        break;
    }
  }
  return out;
}

/**
 * A necessary condition for any suppression, cheap on a long body: an HTML comment that starts with the mark
 * ('!' is among the rarest characters of SKILL.md files), or the mark in the frontmatter. Without a known
 * frontmatter end, the mark anywhere.
 */
function maySuppress(text: string, frontmatterEndLine: number): boolean {
  if (frontmatterEndLine < 0) return includesVia(text, MARK_DISABLE, MARK_DISABLE.indexOf('k'));
  for (let at = indexVia(text, '<!--', 1); at >= 0; at = indexVia(text, '<!--', 1, at + 1)) {
    let i = at + 4;
    while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
    if (text.startsWith('agent-skills-', i)) return true;
  }
  let end = 0;
  for (let line = 0; line < frontmatterEndLine && end >= 0; line++) end = text.indexOf('\n', end + (line > 0 ? 1 : 0));
  const frontmatter = end < 0 ? text : text.slice(0, end);
  return frontmatter.includes(MARK_DISABLE);
}

/** Rule ids named in suppression comments that no rule has (a typo would silently suppress nothing). */
export function unknownSuppressedRules(text: string): string[] {
  return [...new Set(readSuppressions(text).flatMap((s) => s.rules))].filter((r) => !getRule(r));
}

/**
 * Drops the findings of SKILL.md that a suppression comment covers. In strict mode the reference's
 * errors cannot be suppressed, so `--strict` verdicts stay the reference's.
 */
export function applySuppressions(diagnostics: SkillDiagnostic[], text: string, mode: ValidationMode, frontmatterEndLine = -1): SkillDiagnostic[] {
  const sups = readSuppressions(text, frontmatterEndLine);
  if (sups.length === 0) return diagnostics;
  return diagnostics.filter((d) => {
    if (d.file !== undefined && d.file !== 'SKILL.md') return true;
    if (mode === 'strict' && getRule(d.rule)?.strict === 'error') return true;
    const line = d.range.start.line;
    return !sups.some((s) => line >= s.from && line <= s.to && (s.rules.length === 0 || s.rules.includes(d.rule)));
  });
}
