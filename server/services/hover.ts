import type { Hover, Position } from 'vscode-languageserver';
import { MarkupKind } from 'vscode-languageserver';
import { explainRule, type FrontmatterField } from '../../src/core/skill';
import type { SyncSkillsHost } from '../../src/core/host/skillsHost';
import { readTextSync } from '../fileSystem';
import { BUILTIN_HOVER_FIELDS } from '../protocol';
import type { SkillAnalysis } from '../skillAnalysis';
import { BODY_TOKEN_BUDGET, charCount, estimateTokenCount, knownFields } from '../skillCore';
import { containsPosition, referenceAt, resolveReference } from './links';

/** Reading more than this to estimate a linked file's tokens is not worth a hover. */
const MAX_TOKEN_READ_BYTES = 2_000_000;

const fmt = (n: number) => n.toLocaleString('en-US');

/** `builtinShown`: the editor shows its own hover with the field's meaning; only the count is added then. */
function fieldHover(field: FrontmatterField, builtinShown: boolean): string | undefined {
  const doc = knownFields().find((f) => f.key === field.key);
  let count: string | undefined;
  if (field.kind === 'scalar' || field.kind === 'empty') {
    const n = fmt(charCount(String(field.value ?? '')));
    count = `\`${field.key}: ${n}${doc?.maxChars !== undefined ? ` / ${fmt(doc.maxChars)}` : ''} characters\``;
  }
  const scope = doc && !doc.standard ? 'host-specific, not in the open standard' : undefined;
  if (builtinShown && doc) return count ? [count, scope].filter(Boolean).join(' · ') : scope && `**${field.key}**: ${scope}`;
  const lines: string[] = [];
  if (!doc) lines.push(`**${field.key}**: not a field the Agent Skills format or its hosts define.`);
  else lines.push(`**${field.key}**${doc.required ? ' (required)' : ''}${scope ? ` (${scope})` : ''}`, '', doc.doc);
  if (count) lines.push('', count);
  return lines.join('\n');
}

/** How the editor around the server shows hovers. */
export interface HoverContext {
  /** The document's language id (VS Code's own field hover serves `skill` documents only). */
  languageId?: string;
  /** The client shows its own hover on the fields of {@link BUILTIN_HOVER_FIELDS} (see SkillServerInitOptions). */
  builtinFieldHover?: boolean;
}

/**
 * Hover text: a field's meaning and limits with a live count; a linked file's size and estimated
 * tokens; on a frontmatter delimiter, the body's estimated tokens against the recommended budget.
 */
export function hover(a: SkillAnalysis, pos: Position, fsys: SyncSkillsHost, ctx: HoverContext = {}): Hover | undefined {
  const base = contentHover(a, pos, fsys, ctx);
  // The documentation of each rule with a finding here: the text `agent-skills explain <rule>` prints.
  const here = a.problems.filter((p) => (p.file === undefined || p.file === 'SKILL.md') && containsPosition(p.range, pos));
  const docs = [...new Set(here.map((p) => p.rule))].map((r) => explainRule(r)).filter((t): t is string => t !== undefined);
  if (docs.length === 0) return base;
  const text = base && typeof base.contents === 'object' && 'value' in base.contents ? base.contents.value : undefined;
  return { contents: { kind: MarkupKind.Markdown, value: [text, ...docs].filter(Boolean).join('\n\n---\n\n') }, range: base?.range ?? here[0].range };
}

function contentHover(a: SkillAnalysis, pos: Position, fsys: SyncSkillsHost, ctx: HoverContext): Hover | undefined {
  const fm = a.parsed.frontmatter;
  if (fm && (pos.line === fm.openLine || pos.line === fm.closeLine)) {
    const tokens = estimateTokenCount(a.parsed.body);
    const lines = a.index.lineCount - a.parsed.bodyStartLine;
    const verdict = tokens > BODY_TOKEN_BUDGET ? 'over the recommended budget: move detail into references/ files' : 'within the recommended budget';
    return {
      contents: { kind: MarkupKind.Markdown, value: `**SKILL.md body**: about ${fmt(tokens)} / ${fmt(BODY_TOKEN_BUDGET)} tokens (${fmt(Math.max(0, lines))} lines), ${verdict}.` },
      range: a.index.lineRange(pos.line),
    };
  }
  for (const field of a.parsed.fields) {
    if (containsPosition(field.keyRange, pos) || containsPosition(field.valueRange, pos)) {
      const builtinShown = ctx.builtinFieldHover === true && ctx.languageId === 'skill' && BUILTIN_HOVER_FIELDS.includes(field.key);
      const value = fieldHover(field, builtinShown);
      return value ? { contents: { kind: MarkupKind.Markdown, value }, range: field.keyRange } : undefined;
    }
  }
  const ref = referenceAt(a, pos);
  if (ref) {
    const r = resolveReference(a, ref, fsys);
    if (!r) return undefined;
    let value: string;
    if (!r.inside) value = `\`${ref.target}\` points outside the skill folder.`;
    else if (!r.exists) value = `\`${ref.target}\` does not exist in the skill folder.`;
    else if (r.size === undefined) value = `\`${ref.target}\` is a folder.`;
    else {
      const text = r.size <= MAX_TOKEN_READ_BYTES ? readTextSync(fsys, r.targetPath) : undefined;
      const tokens = text !== undefined && !text.includes('\u0000') ? `, about ${fmt(estimateTokenCount(text))} tokens when loaded` : '';
      value = `\`${ref.target}\`: ${fmt(r.size)} bytes${tokens}.`;
    }
    return { contents: { kind: MarkupKind.Markdown, value }, range: ref.range };
  }
  return undefined;
}
