import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import type { FrontmatterField } from '../../src/core/skill';
import type { SkillAnalysis } from '../skillAnalysis';

const MAX_HEADINGS = 5000;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/** A Markdown ATX heading of the body. */
export interface Heading {
  level: number;
  text: string;
  line: number;
}

/** ATX headings of the body, skipping fenced code blocks; capped for huge files. */
export function bodyHeadings(a: SkillAnalysis): Heading[] {
  const out: Heading[] = [];
  let fence: string | undefined;
  for (let line = a.parsed.bodyStartLine; line < a.index.lineCount && out.length < MAX_HEADINGS; line++) {
    const text = a.index.lineText(line);
    const f = FENCE.exec(text);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (fence) continue;
    const m = ATX.exec(text);
    if (m) out.push({ level: m[1].length, text: (m[2] ?? '').trim(), line });
  }
  return out;
}

function fieldSymbol(f: FrontmatterField): DocumentSymbol {
  const kind = f.kind === 'map' ? SymbolKind.Object : f.kind === 'seq' ? SymbolKind.Array : SymbolKind.Property;
  const range = { start: f.keyRange.start, end: f.valueRange.end };
  const detail = f.kind === 'scalar' ? String(f.value).slice(0, 80) : undefined;
  return { name: f.key || '(empty key)', kind, range, selectionRange: f.keyRange, detail, children: f.children?.map(fieldSymbol) };
}

/** Outline: a `frontmatter` symbol holding one symbol per field, then the body's headings nested by level. */
export function documentSymbols(a: SkillAnalysis): DocumentSymbol[] {
  const out: DocumentSymbol[] = [];
  const fm = a.parsed.frontmatter;
  if (fm) {
    const endLine = fm.closeLine >= 0 ? fm.closeLine : a.index.lineCount - 1;
    const range = { start: { line: fm.openLine, character: 0 }, end: a.index.lineRange(endLine).end };
    out.push({ name: 'frontmatter', kind: SymbolKind.Namespace, range, selectionRange: a.index.lineRange(fm.openLine), children: a.parsed.fields.map(fieldSymbol) });
  }
  const headings = bodyHeadings(a);
  const stack: { level: number; sym: DocumentSymbol }[] = [];
  const lastLine = a.index.lineCount - 1;
  const close = (upTo: number, endLine: number) => {
    while (stack.length > 0 && stack[stack.length - 1].level >= upTo) {
      const top = stack.pop()!;
      top.sym.range = { start: top.sym.range.start, end: a.index.lineRange(Math.max(top.sym.range.start.line, endLine)).end };
    }
  };
  for (const h of headings) {
    close(h.level, h.line - 1);
    const lineRange = a.index.lineRange(h.line);
    const sym: DocumentSymbol = { name: h.text || '#'.repeat(h.level), kind: SymbolKind.String, range: lineRange, selectionRange: lineRange, children: [] };
    (stack.length > 0 ? stack[stack.length - 1].sym.children! : out).push(sym);
    stack.push({ level: h.level, sym });
  }
  close(0, lastLine);
  return out;
}

/** The frontmatter folds as one region; headings fold to the next heading of the same or a higher level. */
export function foldingRanges(a: SkillAnalysis): FoldingRange[] {
  const out: FoldingRange[] = [];
  const fm = a.parsed.frontmatter;
  if (fm && fm.closeLine > fm.openLine) out.push({ startLine: fm.openLine, endLine: fm.closeLine, kind: FoldingRangeKind.Region });
  const headings = bodyHeadings(a);
  let lastLine = a.index.lineCount - 1;
  while (lastLine > a.parsed.bodyStartLine && a.index.lineText(lastLine).trim() === '') lastLine--;
  // Each heading folds until the next heading of its level or higher: one pass with a stack of open headings.
  const open: Heading[] = [];
  const fold = (h: Heading, endLine: number) => {
    let end = endLine;
    while (end > h.line && a.index.lineText(end).trim() === '') end--;
    if (end > h.line) out.push({ startLine: h.line, endLine: end });
  };
  for (const h of headings) {
    while (open.length > 0 && open[open.length - 1].level >= h.level) fold(open.pop()!, h.line - 1);
    open.push(h);
  }
  while (open.length > 0) fold(open.pop()!, lastLine);
  out.sort((x, y) => x.startLine - y.startLine);
  return out;
}
