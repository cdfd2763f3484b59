import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type Position, type Range } from 'vscode-languageserver';
import { COMMON_LICENSE_IDS, FIELD_VALUE_KINDS, KNOWN_TOOL_NAMES } from '../../src/core/skill/fieldValues';
import type { SyncSkillsHost } from '../../src/core/host/skillsHost';
import { listSkillFiles } from '../fileSystem';
import type { SkillAnalysis } from '../skillAnalysis';
import { knownFields } from '../skillCore';
import { MAX_REFERENCE_CHARS } from '../../src/core/skill/bodyReferences';

const KEY_PREFIX = /^([A-Za-z0-9_-]*)$/;
const VALUE_PREFIX = /^([A-Za-z0-9_-]+)[ \t]*:[ \t]*(.*)$/;
const LIST_ITEM_PREFIX = /^[ \t]+-[ \t]*([^\s]*)$/;
const LINK_PREFIX = /\]\(<?([^)\s>]*)$/;
const CODE_PREFIX = /`((?:scripts|references|assets)\/[^`\s]*)$/;

/** Completions at a position of a SKILL.md: frontmatter keys and values, or skill-relative file paths in the body. */
export function complete(a: SkillAnalysis, pos: Position, fsys: SyncSkillsHost): CompletionItem[] {
  if (pos.line >= a.index.lineCount) return [];
  const prefix = a.index.lineText(pos.line).slice(0, pos.character);
  const fm = a.parsed.frontmatter;
  const inFrontmatter = fm !== undefined && pos.line > fm.openLine && (fm.closeLine < 0 || pos.line < fm.closeLine);
  if (inFrontmatter) return frontmatterCompletions(a, pos, prefix);
  if (fm && pos.line <= Math.max(fm.openLine, fm.closeLine)) return [];
  return pathCompletions(a, pos, prefix, fsys);
}

function replaceRange(pos: Position, length: number): Range {
  return { start: { line: pos.line, character: pos.character - length }, end: pos };
}

function frontmatterCompletions(a: SkillAnalysis, pos: Position, prefix: string): CompletionItem[] {
  const key = KEY_PREFIX.exec(prefix);
  if (key) {
    const present = new Set(a.parsed.fields.filter((f) => f.keyRange.start.line !== pos.line).map((f) => f.key));
    return knownFields()
      .filter((f) => !present.has(f.key))
      .map((f, i) => {
        const limit = f.maxChars !== undefined ? ` At most ${f.maxChars.toLocaleString('en-US')} characters.` : '';
        return {
          label: f.key,
          kind: CompletionItemKind.Property,
          detail: `${f.required ? 'required' : 'optional'}${f.standard ? '' : ', host-specific'}`,
          documentation: { kind: MarkupKind.Markdown, value: `${f.doc}${limit}` },
          sortText: String(i).padStart(3, '0'),
          textEdit: { range: replaceRange(pos, key[1].length), newText: `${f.key}: ` },
        };
      });
  }
  const value = VALUE_PREFIX.exec(prefix);
  if (value) return valueCompletions(a, value[1], value[2], pos);
  const item = LIST_ITEM_PREFIX.exec(prefix);
  if (item && enclosingKey(a, pos.line) === 'allowed-tools') return toolItems(pos, item[1], []);
  return [];
}

/** The top-level key a nested line belongs to (the nearest unindented `key:` above). */
function enclosingKey(a: SkillAnalysis, line: number): string | undefined {
  for (let l = line - 1; l >= 0; l--) {
    const m = /^([A-Za-z0-9_-]+)[ \t]*:/.exec(a.index.lineText(l));
    if (m) return m[1];
  }
  return undefined;
}

function valueCompletions(a: SkillAnalysis, key: string, typed: string, pos: Position): CompletionItem[] {
  const kind = FIELD_VALUE_KINDS[key] ?? (knownFields().find((f) => f.key === key)?.type === 'boolean' ? 'boolean' : undefined);
  const simple = (labels: readonly string[], itemKind: CompletionItemKind): CompletionItem[] =>
    labels.map((label) => ({ label, kind: itemKind, textEdit: { range: replaceRange(pos, typed.length), newText: label } }));
  switch (kind) {
    case 'skill-name':
      return a.folderName ? simple([a.folderName], CompletionItemKind.Value).map((i) => ({ ...i, detail: 'the skill folder name' })) : [];
    case 'boolean':
      return simple(['true', 'false'], CompletionItemKind.Keyword);
    case 'license':
      return simple(COMMON_LICENSE_IDS, CompletionItemKind.EnumMember);
    case 'tool-list': {
      const words = typed.split(/[\s,]+/);
      const current = /[\s,]$/.test(typed) ? '' : (words.pop() ?? '');
      return toolItems(pos, current, words);
    }
    default:
      return [];
  }
}

function toolItems(pos: Position, current: string, already: string[]): CompletionItem[] {
  const used = new Set(already.filter(Boolean));
  return KNOWN_TOOL_NAMES.filter((t) => !used.has(t)).map((label) => ({
    label,
    kind: CompletionItemKind.Function,
    textEdit: { range: replaceRange(pos, current.length), newText: label },
  }));
}

function pathCompletions(a: SkillAnalysis, pos: Position, prefix: string, fsys: SyncSkillsHost): CompletionItem[] {
  if (!a.skillDir) return [];
  // A path being typed is no longer than any path can be: the patterns look at the end of the line only, so a
  // long line of `](` does not make them backtrack over all of it from each one.
  const tail = prefix.slice(-(MAX_REFERENCE_CHARS + 3));
  const link = LINK_PREFIX.exec(tail);
  const code = link ? undefined : CODE_PREFIX.exec(tail);
  const typed = link?.[1] ?? code?.[1];
  if (typed === undefined || /^[a-z][a-z0-9+.-]*:/i.test(typed) || typed.startsWith('#')) return [];
  const typedPath = typed.replace(/^\.\//, '');
  const files = listSkillFiles(fsys, a.skillDir);
  const top = code ? typedPath.split('/')[0] + '/' : '';
  return files
    .filter((f) => f.startsWith(top))
    .map((f, i) => ({
      label: f,
      kind: CompletionItemKind.File,
      filterText: typed.startsWith('./') ? `./${f}` : f,
      sortText: String(i).padStart(5, '0'),
      insertTextFormat: InsertTextFormat.PlainText,
      textEdit: { range: replaceRange(pos, typed.length), newText: typed.startsWith('./') ? `./${f}` : f },
    }));
}
