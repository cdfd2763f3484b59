// What VS Code adds to a tool's calls beyond the descriptor's own wording: the confirmation of calls with side
// effects, the refusals only VS Code makes (workspace trust) and notes on results. Only tools that need more than
// their descriptor's `wording` are here; names, schemas, descriptions and wording come from the core's tool table.
import * as vscode from 'vscode';
import type { UpdatePreview } from '../../core/catalog/updateSkillTool';
import type { ToolErrorShape } from '../../core/tools/toolError';
import type { ToolDescriptor } from '../../core/toolTable/toolDescriptor';
import { updateTarget } from '../../core/toolTable/descriptors/catalogTools';
import type { ToolId } from '../../core/tools/toolNames';
import type { ToolResult } from '../../core/tools/toolResult';
import { runConfirmation, str, type RunConfirmationContext } from './runConfirmation';
import { workspaceWriteRefusal } from './workspaceTrust';

/** What the presentations may ask of the extension. */
export interface PresentationContext extends RunConfirmationContext {
  /** VS Code's workspace trust (Restricted Mode when false). */
  trusted(): boolean;
  previewUpdate(input: unknown): Promise<ToolResult<UpdatePreview>>;
}

/** What VS Code adds to one tool. */
export interface ToolPresentation {
  /** Replaces the descriptor's invocation message (e.g. with a confirmation). */
  prepare?(input: Record<string, unknown>, c: PresentationContext): vscode.PreparedToolInvocation | Promise<vscode.PreparedToolInvocation>;
  /** A refusal VS Code makes before the core is asked. */
  refuse?(input: Record<string, unknown>, c: PresentationContext): ToolErrorShape | undefined;
  /** What the result should add for VS Code (e.g. why a workspace skill was not found). */
  annotate?(r: ToolResult, c: PresentationContext): ToolResult;
}


/** Fences text in a Markdown code block that its own backticks cannot close. */
function codeBlock(text: string, lang: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** Adds a note to a refusal's hint when `when` holds. */
function withNote(r: ToolResult, when: (code: string) => boolean, note: string): ToolResult {
  return !r.ok && when(r.error.code) ? { ...r, error: { ...r.error, hint: `${r.error.hint} ${note}` } } : r;
}

const UNTRUSTED_NOTE = 'Note: workspace skills are not offered while this workspace is not trusted; the user can trust it with "Workspaces: Manage Workspace Trust".';
const UNTRUSTED_NOT_FOUND = 'Note: workspace skills are hidden and read-only while this workspace is not trusted; the user can trust it with "Workspaces: Manage Workspace Trust".';

async function runScriptPrepare(i: Record<string, unknown>, c: PresentationContext): Promise<vscode.PreparedToolInvocation> {
  const r = await runConfirmation(i, c);
  if (!r.confirmation) return { invocationMessage: r.invocationMessage };
  return { invocationMessage: r.invocationMessage, confirmationMessages: { title: r.confirmation.title, message: new vscode.MarkdownString(r.confirmation.lines.join('  \n')) } };
}

async function updateSkillPrepare(input: Record<string, unknown>, c: PresentationContext): Promise<vscode.PreparedToolInvocation> {
  const what = updateTarget(input);
  if (workspaceWriteRefusal(input, !c.trusted())) return { invocationMessage: `Not changing ${what}: this workspace is not trusted` };
  if (input.dryRun) return { invocationMessage: `Checking the ${str(input.action) || 'update'} of ${what} (dry run)…` };
  // Every real write asks; the dialog shows the dry run's diff, or why the dry run failed.
  const preview = await c.previewUpdate(input);
  const message = new vscode.MarkdownString();
  let title: string;
  if (preview.ok) {
    const { title: what, diff, warnings } = preview.result;
    title = `${what[0].toUpperCase()}${what.slice(1)}?`;
    if (diff) message.appendMarkdown(codeBlock(diff, 'diff'));
    else message.appendMarkdown(input.action === 'archive' ? 'The skill leaves the catalog; restore brings it back.' : 'The archived skill comes back into the catalog.');
    for (const w of warnings) message.appendMarkdown(`\n\n⚠ ${w.replace(/[\\`*_{}[\]<>]/g, '\\$&')}`);
  } else {
    title = `${str(input.action) || 'Update'} ${what}?`;
    message.appendMarkdown(`The dry run failed, so this call will most likely fail the same way and write nothing:\n\n${codeBlock(preview.error.message, 'text')}`);
  }
  return { invocationMessage: `Updating ${what}…`, confirmationMessages: { title, message } };
}

/** What VS Code adds, by descriptor id: only tools that need more than their descriptor's wording. */
const PRESENTATIONS: Partial<Record<ToolId, ToolPresentation>> = {
  run_script: { prepare: runScriptPrepare },
  runSkill: {
    annotate: (r, c) => (c.trusted() ? r : withNote(r, () => true, UNTRUSTED_NOTE)),
  },
  updateSkill: {
    prepare: updateSkillPrepare,
    refuse: (i, c) => workspaceWriteRefusal(i, !c.trusted()),
    annotate: (r, c) => (c.trusted() ? r : withNote(r, (code) => code.includes('not_found'), UNTRUSTED_NOT_FOUND)),
  },
};

/** How VS Code presents a tool: its descriptor's wording, with what VS Code adds. */
export function presentationOf(tool: ToolDescriptor): Required<Pick<ToolPresentation, 'prepare'>> & ToolPresentation & { progress(input: Record<string, unknown>): string } {
  const extra = (PRESENTATIONS as Partial<Record<string, ToolPresentation>>)[tool.id] ?? {};
  return {
    ...extra,
    prepare: extra.prepare ?? ((i, c) => ({ invocationMessage: tool.wording.invocation(i, c.targetSkill) })),
    progress: (i) => (tool.wording.progress ? tool.wording.progress(i) : `Calling ${tool.name}…`),
  };
}
