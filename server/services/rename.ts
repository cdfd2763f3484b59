import * as path from 'node:path';
import type { Position, Range, TextDocumentEdit, TextEdit, WorkspaceEdit, RenameFile } from 'vscode-languageserver';
import { TextIndex } from '../../src/core/skill';
import { isSimpleName, NAME_MAX } from '../../src/core/skill/rules/name';
import type { SyncSkillsHost } from '../../src/core/host/skillsHost';
import { readTextSync } from '../fileSystem';
import type { SkillAnalysis } from '../skillAnalysis';
import { pathToUri } from '../uris';
import { containsPosition } from './links';
import { findFiles } from './workspaceScan';

/** Where F2 may start: the value of `name`, when it is a plain one-line scalar. */
export function prepareRename(a: SkillAnalysis, pos: Position): { range: Range; placeholder: string } | undefined {
  const f = a.parsed.fields.find((x) => x.key === 'name');
  if (!f || f.kind !== 'scalar' || typeof f.value !== 'string' || f.valueRange.start.line !== f.valueRange.end.line) return undefined;
  if (!containsPosition(f.valueRange, pos) && !containsPosition(f.keyRange, pos)) return undefined;
  return { range: f.valueRange, placeholder: f.value };
}

/** Why a new name cannot be used, or undefined when it can (the same rules as the name validator). */
export function badNewName(newName: string): string | undefined {
  if (!isSimpleName(newName) || newName.length > NAME_MAX) return `'${newName}' is not a valid skill name: use at most ${NAME_MAX} lowercase letters, digits and single hyphens, e.g. 'pdf-tools'.`;
  return undefined;
}

/** What the client can do with a WorkspaceEdit. */
export interface RenameContext {
  fsys: SyncSkillsHost;
  roots: string[];
  /** The client applies `RenameFile` operations (workspace.workspaceEdit.resourceOperations includes `rename`). */
  canRenameFiles: boolean;
  /** Current text of open documents, by path (edits must be computed on what the user sees). */
  openText(p: string): string | undefined;
}

const MAX_FILES = 2000;
const MAX_BYTES = 1_000_000;

/**
 * F2 on `name`: one WorkspaceEdit that sets the name, renames the skill's folder to it (when the folder
 * had the old name, or when asked to fix a mismatch), and updates, in every Markdown file of the workspace,
 * paths through the old folder (`skills/old/…`, `../old/SKILL.md`), `` `old` `` in inline code, and `/old`
 * slash commands. Bare words are left alone: a skill named `pdf` would otherwise rewrite every "pdf".
 */
export async function renameSkill(a: SkillAnalysis, pos: Position, newName: string, ctx: RenameContext): Promise<WorkspaceEdit | undefined> {
  const at = prepareRename(a, pos);
  if (!at || !a.skillDir || !a.filePath) return undefined;
  const oldName = at.placeholder;
  const skillDir = a.skillDir;
  const oldFolder = path.basename(skillDir);
  const newDir = path.join(path.dirname(skillDir), newName);
  const skillEdits: TextEdit[] = [{ range: at.range, newText: newName }];
  const others: TextDocumentEdit[] = [];
  const files = await findFiles(ctx.fsys, ctx.roots, (n) => /\.md$/i.test(n));
  for (const file of files.slice(0, MAX_FILES)) {
    const text = ctx.openText(file) ?? readTextSync(ctx.fsys, file, MAX_BYTES);
    if (text === undefined) continue;
    // In the skill's own SKILL.md only the body is searched: the frontmatter's `name` is edited above.
    const edits = mentionEdits(text, file === a.filePath ? a.parsed.text.length - a.parsed.body.length : 0, [oldName, oldFolder], newName);
    if (file === a.filePath) skillEdits.push(...edits);
    else if (edits.length) others.push({ textDocument: { uri: pathToUri(file), version: null }, edits });
  }
  // Every text edit first (on the files' current URIs), then the folder: files inside it move with it.
  const documentChanges: (TextDocumentEdit | RenameFile)[] = [{ textDocument: { uri: pathToUri(a.filePath), version: a.version }, edits: skillEdits }, ...others];
  if (ctx.canRenameFiles && oldFolder !== newName && !ctx.fsys.kind(newDir)) documentChanges.push({ kind: 'rename', oldUri: pathToUri(skillDir), newUri: pathToUri(newDir) });
  return { documentChanges };
}

/** Edits that replace path segments, inline code and slash commands naming one of `olds` in `text` from `from`. */
function mentionEdits(text: string, from: number, olds: string[], newName: string): TextEdit[] {
  const index = new TextIndex(text);
  const edits: TextEdit[] = [];
  const seen = new Set<number>();
  for (const old of [...new Set(olds)]) {
    if (!old) continue;
    const esc = old.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // A path segment (between `/`, `(`, a line start and `/`), inline code exactly `old`, or a `/old` command.
    const re = new RegExp(`(?<=[/(\\s\`"'])${esc}(?=/)|(?<=^|\\s)${esc}(?=/)|(?<=\`)${esc}(?=\`)|(?<=(?:^|\\s)/)${esc}(?![\\w-])`, 'gm');
    re.lastIndex = from;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (seen.has(m.index)) continue;
      seen.add(m.index);
      edits.push({ range: index.rangeOf(m.index, m.index + old.length), newText: newName });
    }
  }
  return edits;
}
