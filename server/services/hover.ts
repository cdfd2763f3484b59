import type { Hover, Position } from 'vscode-languageserver';
import { MarkupKind } from 'vscode-languageserver';
import type { FrontmatterField } from '../../src/core/skill';
import type { ServerFileSystem } from '../fileSystem';
import type { SkillAnalysis } from '../skillAnalysis';
import { BODY_TOKEN_BUDGET, charCount, estimateTokenCount, knownFields } from '../skillCore';
import { containsPosition, referenceAt, resolveReference } from './links';

/** Reading more than this to estimate a linked file's tokens is not worth a hover. */
const MAX_TOKEN_READ_BYTES = 2_000_000;

const fmt = (n: number) => n.toLocaleString('en-US');

function fieldHover(field: FrontmatterField): string {
  const doc = knownFields().find((f) => f.key === field.key);
  const lines: string[] = [];
  if (!doc) lines.push(`**${field.key}**: not a field the Agent Skills format or its hosts define.`);
  else lines.push(`**${field.key}**${doc.required ? ' (required)' : ''}${doc.standard ? '' : ' (host-specific, not in the open standard)'}`, '', doc.doc);
  if (field.kind === 'scalar' || field.kind === 'empty') {
    const n = charCount(String(field.value ?? ''));
    lines.push('', doc?.maxChars !== undefined ? `\`${field.key}: ${fmt(n)} / ${fmt(doc.maxChars)} characters\`` : `\`${field.key}: ${fmt(n)} characters\``);
  }
  return lines.join('\n');
}

/**
 * Hover text: a field's meaning and limits with a live count; a linked file's size and estimated
 * tokens; on a frontmatter delimiter, the body's estimated tokens against the recommended budget.
 */
export function hover(a: SkillAnalysis, pos: Position, fsys: ServerFileSystem): Hover | undefined {
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
      return { contents: { kind: MarkupKind.Markdown, value: fieldHover(field) }, range: field.keyRange };
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
      const text = r.size <= MAX_TOKEN_READ_BYTES ? fsys.readText(r.targetPath) : undefined;
      const tokens = text !== undefined && !text.includes('\u0000') ? `, about ${fmt(estimateTokenCount(text))} tokens when loaded` : '';
      value = `\`${ref.target}\`: ${fmt(r.size)} bytes${tokens}.`;
    }
    return { contents: { kind: MarkupKind.Markdown, value }, range: ref.range };
  }
  return undefined;
}
