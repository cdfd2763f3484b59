import { getRule } from './rules';
import type { SkillDiagnostic, ValidationMode } from './types';
import { includesVia } from './textSearch';

/** One suppression comment: which rules (empty: all), and the 0-based lines it covers (inclusive). */
interface Suppression {
  rules: string[];
  from: number;
  to: number;
}

/** Every suppression starts with a disable comment; an enable alone does nothing. */
const MARK_DISABLE = 'agent-skills-disable';
/** `<!-- agent-skills-disable-next-line a b -->` in the body, `# agent-skills-disable a` in the frontmatter. */
const COMMENT = /(?:<!--|^[ \t]*#)[ \t]*agent-skills-(disable-next-line|disable-line|disable|enable)\b([^\n]*?)(?:-->|$)/gm;

/**
 * Reads the suppression comments of a SKILL.md text. `-disable-next-line` covers the next line,
 * `-disable` runs to the matching `-enable` (or the end of the file; in the frontmatter, the whole file).
 */
export function readSuppressions(text: string, frontmatterEndLine = -1): Suppression[] {
  // 'k' is the mark's rarest character in the corpus (0.65% of characters).
  if (!includesVia(text, MARK_DISABLE, MARK_DISABLE.indexOf('k'))) return [];
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
