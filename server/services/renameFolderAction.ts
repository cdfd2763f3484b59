import * as path from 'node:path';
import { CodeActionKind, type CodeAction, type Diagnostic, type Range } from 'vscode-languageserver';
import type { SkillAnalysis } from '../skillAnalysis';
import { badNewName, renameSkill, type RenameContext } from './rename';

/**
 * The `name-folder-mismatch` fix that keeps the name and renames the folder to it, updating links and mentions of
 * the old folder in every Markdown file of the workspace: the same WorkspaceEdit as F2 on `name` (renameSkill), so
 * the user can preview it. Offered only when the name is a valid folder name and no folder of that name exists.
 */
export async function renameFolderAction(a: SkillAnalysis, range: Range, diagnostics: Diagnostic[], ctxFor: (name: string) => RenameContext & { name: string }): Promise<CodeAction | undefined> {
  const name = a.parsed.fields.find((f) => f.key === 'name');
  if (!name || name.kind !== 'scalar' || typeof name.value !== 'string' || !a.skillDir) return undefined;
  const onMismatch = diagnostics.find((d) => d.code === 'name-folder-mismatch') ?? a.problems.find((p) => p.rule === 'name-folder-mismatch' && p.range.start.line <= range.end.line && p.range.end.line >= range.start.line);
  if (!onMismatch || name.value === path.basename(a.skillDir) || badNewName(name.value)) return undefined;
  const ctx = ctxFor(name.value);
  if (!ctx.canRenameFiles || ctx.fsys.kind(path.join(path.dirname(a.skillDir), name.value))) return undefined;
  const edit = await renameSkill(a, name.valueRange.start, name.value, ctx);
  if (!edit) return undefined;
  const diag = 'code' in onMismatch ? (onMismatch as Diagnostic) : undefined;
  return { title: `Rename the folder to '${name.value}' and update links to it`, kind: CodeActionKind.QuickFix, ...(diag ? { diagnostics: [diag] } : {}), edit };
}
