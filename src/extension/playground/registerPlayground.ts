// Trying skills without a model: "Run Script…" (a user's own run of a skill script) and "Preview Prompt" (what
// @skills would send). Both go through the same runtime as the chat; see runScriptCommand.ts and promptPreview.ts.
import * as vscode from 'vscode';
import { COMMANDS, START_VIEW_ENV, VIEWS } from '../ids';
import type { SkillsService } from '../skillsService';
import type { SkillsTree } from '../tree/registerTree';
import { PREVIEW_SCHEME, PromptPreviews } from './promptPreview';
import { ReportDocuments, RUN_REPORT_SCHEME } from './reportDocuments';
import { ScriptRuns } from './runScriptCommand';
import type { RunScriptArgs } from './scriptTarget';

/** Registers the playground; answers its report documents, which trigger-test reports open in too. */
export function registerPlayground(context: vscode.ExtensionContext, service: SkillsService, tree: SkillsTree): ReportDocuments {
  const reports = new ReportDocuments();
  const runs = new ScriptRuns(service, context.workspaceState, reports);
  const previews = new PromptPreviews(service, tree, context.workspaceState);
  context.subscriptions.push(
    previews,
    vscode.workspace.registerTextDocumentContentProvider(RUN_REPORT_SCHEME, reports),
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.commands.registerCommand(COMMANDS.runScript, (arg?: unknown, extra?: RunScriptArgs) => runs.run(arg, extra)),
    vscode.commands.registerCommand(COMMANDS.stopScriptRuns, () => runs.stopAll()),
    vscode.commands.registerCommand(COMMANDS.previewPrompt, (arg?: unknown) => previews.open(arg)),
    vscode.commands.registerCommand(COMMANDS.refreshPromptPreview, (uri?: unknown) => previews.refresh(uri instanceof vscode.Uri ? uri : typeof uri === 'string' ? vscode.Uri.parse(uri) : undefined)),
  );
  // `npm start` opens the sample workspace to try skills: show the Skills view rather than the Explorer.
  if (process.env[START_VIEW_ENV] === 'skills') void vscode.commands.executeCommand(`workbench.view.extension.${VIEWS.container}`);
  return reports;
}
