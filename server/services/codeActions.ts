import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextEdit } from 'vscode-languageserver';
import type { FrontmatterField } from '../../src/core/skill';
import type { SkillAnalysis } from '../skillAnalysis';
import { DESCRIPTION_PLACEHOLDER } from '../../src/core/skill/rules/placeholders';
import { charCount, FIX_RULES, knownFields } from '../skillCore';
import { toLspDiagnostic, type DiagnosticData } from './diagnostics';
import { DIAGNOSTIC_SOURCE } from '../protocol';

const COLON_YAML_CODES = new Set(['BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY', 'NESTED_MAPPING', 'UNEXPECTED_TOKEN']);

function overlaps(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function ruleOf(d: Diagnostic): string | undefined {
  const data = d.data as Partial<DiagnosticData> | undefined;
  if (data && typeof data.rule === 'string') return data.rule;
  return typeof d.code === 'string' ? d.code : undefined;
}

/**
 * Quick fixes for the problems in a range. Works from the diagnostics the client sends (ours, by code)
 * and from a fresh analysis of the document, so fixes also apply to problems left to VS Code's own validator.
 */
export function codeActions(a: SkillAnalysis, range: Range, contextDiagnostics: Diagnostic[]): CodeAction[] {
  const seen = new Set<string>();
  const problems: { rule: string; diag: Diagnostic }[] = [];
  const add = (rule: string, diag: Diagnostic) => {
    const key = `${rule}@${diag.range.start.line}:${diag.range.start.character}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push({ rule, diag });
  };
  for (const d of contextDiagnostics) {
    const rule = ruleOf(d);
    if (rule && (d.source === DIAGNOSTIC_SOURCE || d.source === undefined)) add(rule, d);
  }
  for (const p of a.problems) if (overlaps(p.range, range)) add(p.rule, toLspDiagnostic(p));
  const out: CodeAction[] = [];
  const titles = new Set<string>();
  const results = new Set<string>();
  for (const { rule, diag } of problems) {
    for (const fix of fixesFor(a, rule, diag)) {
      // Two fixes may make the same edit (name-uppercase's expected name is the lowercased one): offer it once.
      const result = JSON.stringify(fix.edits);
      if (titles.has(fix.title) || results.has(result)) continue;
      titles.add(fix.title);
      results.add(result);
      out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diag], isPreferred: fix.preferred, edit: { changes: { [a.uri]: fix.edits } } });
    }
  }
  return out;
}

interface Fix {
  title: string;
  edits: TextEdit[];
  preferred?: boolean;
}

function field(a: SkillAnalysis, key: string): FrontmatterField | undefined {
  return a.parsed.fields.find((f) => f.key === key);
}

function fixesFor(a: SkillAnalysis, rule: string, diag: Diagnostic): Fix[] {
  const fixes: Fix[] = [];
  const name = field(a, 'name');
  if (FIX_RULES.nameToFolder.has(rule) && name && a.folderName && name.value !== a.folderName) {
    fixes.push({ title: `Set name to the folder name '${a.folderName}'`, edits: [{ range: name.valueRange, newText: a.folderName }], preferred: true });
  }
  const expected = (diag.data as Partial<DiagnosticData> | undefined)?.data?.expected;
  if (FIX_RULES.lowercaseName.has(rule) && name && name.kind === 'scalar') {
    const lower = String(name.value).toLowerCase();
    // Lowercasing alone is offered only when it mends the name (the core's finding names the mended one).
    if (lower !== name.value && (typeof expected !== 'string' || expected === lower)) fixes.push({ title: `Lowercase the name to '${lower}'`, edits: [{ range: name.valueRange, newText: lower }] });
  }
  if (rule.startsWith('name-') && name && typeof expected === 'string' && expected !== '' && expected !== name.value && expected !== a.folderName) {
    fixes.push({ title: `Change name to '${expected}'`, edits: [{ range: name.valueRange, newText: expected }] });
  }
  if (FIX_RULES.quoteColon.has(rule)) {
    const code = (diag.data as Partial<DiagnosticData> | undefined)?.data?.yamlCode;
    if (typeof code !== 'string' || COLON_YAML_CODES.has(code)) {
      const q = quoteColonFix(a, diag.range.start.line);
      if (q) fixes.push(q);
    }
  }
  if (FIX_RULES.moveToMetadata.has(rule)) {
    const f = a.parsed.fields.find((x) => overlaps(x.keyRange, diag.range));
    const m = f ? moveToMetadataFix(a, f) : undefined;
    if (m) fixes.push(m);
  }
  if (FIX_RULES.shortenDescription.has(rule)) {
    const s = shortenDescriptionFix(a, diag);
    if (s) fixes.push(s);
  }
  const fm = a.parsed.frontmatter;
  const eol = a.parsed.eol;
  if (FIX_RULES.addName.has(rule) && fm && !name && a.folderName) {
    fixes.push({ title: `Add the required field 'name: ${a.folderName}'`, edits: [{ range: lineStart(fm.openLine + 1), newText: `name: ${a.folderName}${eol}` }], preferred: true });
  }
  if (FIX_RULES.addDescription.has(rule) && fm && !field(a, 'description')) {
    const at = name ? name.valueRange.end.line + 1 : fm.openLine + 1;
    fixes.push({ title: "Add the required field 'description'", edits: [{ range: lineStart(at), newText: `description: ${DESCRIPTION_PLACEHOLDER}${eol}` }], preferred: true });
  }
  if (FIX_RULES.addFrontmatter.has(rule) && !fm) {
    const nm = a.folderName ?? 'my-skill';
    fixes.push({ title: 'Add frontmatter with name and description', edits: [{ range: lineStart(0), newText: `---${eol}name: ${nm}${eol}description: ${DESCRIPTION_PLACEHOLDER}${eol}---${eol}` }], preferred: true });
  }
  // The rule's own fix, computed by the core with the finding (the same edits `validate --fix` applies).
  const own = (diag.data as Partial<DiagnosticData> | undefined)?.data?.fix as { title?: unknown; edits?: unknown } | undefined;
  if (own && typeof own.title === 'string' && Array.isArray(own.edits)) fixes.push({ title: own.title, edits: own.edits as TextEdit[], preferred: fixes.length === 0 });
  return fixes;
}

function lineStart(line: number): Range {
  return { start: { line, character: 0 }, end: { line, character: 0 } };
}

/** Wraps the value of the `key: value` line at or above `line` in double quotes. */
function quoteColonFix(a: SkillAnalysis, line: number): Fix | undefined {
  const fm = a.parsed.frontmatter;
  if (!fm) return undefined;
  for (let l = Math.min(line, a.index.lineCount - 1); l > fm.openLine; l--) {
    const text = a.index.lineText(l);
    // `(.*)` and a trim, not `(.*?)[ \t]*$`: that backtracks over every blank of a long line, for each character.
    const m = /^([A-Za-z0-9_-]+)([ \t]*:[ \t]+)(.*)$/.exec(text);
    if (!m) continue;
    const value = m[3].replace(/[ \t]+$/, '');
    if (!value.includes(':') || /^["'|>]/.test(value)) return undefined;
    const start = m[1].length + m[2].length;
    return {
      title: `Quote the value of '${m[1]}' (it contains a colon)`,
      edits: [{ range: { start: { line: l, character: start }, end: { line: l, character: start + value.length } }, newText: JSON.stringify(value) }],
      preferred: true,
    };
  }
  return undefined;
}

function moveToMetadataFix(a: SkillAnalysis, f: FrontmatterField): Fix | undefined {
  const fm = a.parsed.frontmatter;
  if (!fm || fm.closeLine < 0 || f.key === 'metadata') return undefined;
  const eol = a.parsed.eol;
  const first = f.keyRange.start.line;
  const last = Math.max(first, f.valueRange.end.line);
  const lines: string[] = [];
  for (let l = first; l <= last; l++) lines.push(a.index.lineText(l));
  const meta = field(a, 'metadata');
  const del: TextEdit = { range: { start: { line: first, character: 0 }, end: { line: last + 1, character: 0 } }, newText: '' };
  if (!meta) {
    const body = lines.map((s) => `  ${s}`).join(eol);
    return { title: `Move '${f.key}' under metadata`, edits: [del, { range: lineStart(fm.closeLine), newText: `metadata:${eol}${body}${eol}` }] };
  }
  if (meta.kind !== 'map' && meta.kind !== 'empty') return undefined;
  const indent = meta.children && meta.children.length > 0 ? meta.children[0].keyRange.start.character : 2;
  const at = meta.kind === 'map' ? meta.valueRange.end.line + 1 : meta.keyRange.start.line + 1;
  const body = lines.map((s) => `${' '.repeat(indent)}${s}`).join(eol);
  return { title: `Move '${f.key}' under metadata`, edits: [del, { range: lineStart(at), newText: `${body}${eol}` }] };
}

/** The longest prefix of `text` within `limit` characters that ends a sentence (or, failing that, a word). */
export function shortenAtSentence(text: string, limit: number): string {
  const chars = [...text];
  if (chars.length <= limit) return text;
  const head = chars.slice(0, limit).join('');
  const nextChar = chars[limit] ?? '';
  let best = -1;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    const after = i + 1 < head.length ? head[i + 1] : nextChar;
    if ((c === '.' || c === '!' || c === '?') && (after === '' || /\s/.test(after))) best = i + 1;
  }
  if (best > 0) return head.slice(0, best).trimEnd();
  const space = head.search(/\s\S*$/);
  return (space > 0 ? head.slice(0, space) : head).trimEnd();
}

function shortenDescriptionFix(a: SkillAnalysis, diag: Diagnostic): Fix | undefined {
  const desc = field(a, 'description');
  if (!desc || desc.kind !== 'scalar') return undefined;
  const dataLimit = (diag.data as Partial<DiagnosticData> | undefined)?.data?.limit;
  const limit = typeof dataLimit === 'number' ? dataLimit : knownFields().find((f) => f.key === 'description')?.maxChars;
  const value = String(desc.value);
  if (limit === undefined || charCount(value) <= limit) return undefined;
  const short = shortenAtSentence(value, limit);
  const singleLinePlain = desc.style === 'plain' && desc.valueRange.start.line === desc.valueRange.end.line;
  return {
    title: `Shorten the description to ${charCount(short)} characters (limit ${limit}) at a sentence boundary`,
    edits: [{ range: desc.valueRange, newText: singleLinePlain ? short : JSON.stringify(short) }],
  };
}
