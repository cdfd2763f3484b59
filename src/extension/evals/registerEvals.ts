// Trigger tests in VS Code (issue 27): Test Triggers (the model judge), Draft Trigger Requests, Suggest a Better
// Description, and the code lenses on a skill's trigger file and SKILL.md that start them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TRIGGER_QUERIES_FILE } from '../../core/evals';
import { COMMANDS } from '../ids';
import type { ReportDocuments } from '../playground/reportDocuments';
import type { SkillsService } from '../skillsService';
import type { WindowCatalog } from '../windowCatalog';
import { draftTriggerRequests, type DraftOptions } from './draftRequests';
import { suggestDescription, type SuggestOptions } from './suggestDescription';
import { TriggerTests, type TestTriggersOptions } from './testTriggers';

/** Lenses at the top of `evals/trigger-queries.json` and of a SKILL.md. */
class TriggerLenses implements vscode.CodeLensProvider {
  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const top = new vscode.Range(0, 0, 0, 0);
    if (doc.uri.path.endsWith(`/${TRIGGER_QUERIES_FILE}`)) {
      return [
        new vscode.CodeLens(top, { title: 'Test triggers with a model', command: COMMANDS.testTriggers, arguments: [doc.uri] }),
        new vscode.CodeLens(top, { title: 'Draft more requests', command: COMMANDS.draftTriggerRequests, arguments: [doc.uri] }),
        new vscode.CodeLens(top, { title: 'Suggest a better description', command: COMMANDS.suggestDescription, arguments: [doc.uri] }),
      ];
    }
    // A SKILL.md: test its trigger set when it has one, else offer to draft one.
    const hasSet = fs.existsSync(path.join(path.dirname(doc.uri.fsPath), ...TRIGGER_QUERIES_FILE.split('/')));
    return [
      hasSet
        ? new vscode.CodeLens(top, { title: 'Test triggers with a model', command: COMMANDS.testTriggers, arguments: [doc.uri] })
        : new vscode.CodeLens(top, { title: 'Draft trigger requests', command: COMMANDS.draftTriggerRequests, arguments: [doc.uri] }),
    ];
  }
}

export function registerEvals(context: vscode.ExtensionContext, service: SkillsService, catalog: WindowCatalog, reports: ReportDocuments): void {
  const storageDir = context.globalStorageUri.fsPath;
  const tests = new TriggerTests(service, reports, storageDir);
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.testTriggers, (arg?: unknown, options?: TestTriggersOptions) => tests.run(arg, options)),
    vscode.commands.registerCommand(COMMANDS.stopTriggerTests, () => tests.stopAll()),
    vscode.commands.registerCommand(COMMANDS.draftTriggerRequests, (arg?: unknown, options?: DraftOptions) => draftTriggerRequests(service, arg, options)),
    vscode.commands.registerCommand(COMMANDS.suggestDescription, (arg?: unknown, options?: SuggestOptions) => suggestDescription({ service, catalog, reports, tests, storageDir }, arg, options)),
    vscode.languages.registerCodeLensProvider([{ scheme: 'file', pattern: `**/${TRIGGER_QUERIES_FILE}` }, { scheme: 'file', pattern: '**/SKILL.md' }], new TriggerLenses()),
  );
}
