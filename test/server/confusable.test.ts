// skills-confusable in the language server, over stdio: a catalog-wide pass over the workspace's skills. Two
// skills that would route the same requests are each told about the other, with what sets each apart; a third,
// distinct skill is not; editing one description apart clears the finding on both files (the partner is
// published again); with the rule off in the settings nothing is reported.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { removeDir } from './fixtureWorkspace';
import { changeDoc, fileUri, openDoc, startServer, type LspSession } from './lspTestClient';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nSee the description.\n`;
// LSP 3.18 allows a diagnostic's message to be Markup; this server sends plain strings, read as text here.
const confusable = (p: PublishDiagnosticsParams) => p.diagnostics.filter((d) => d.code === 'skills-confusable').map((d) => ({ ...d, message: typeof d.message === 'string' ? d.message : d.message.value }));

describe('language server: skills-confusable across the workspace', function () {
  let ws: string;
  let s: LspSession | undefined;
  const files: Record<string, string> = {};

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'lsp-confusable-'));
    const skills: Record<string, string> = {
      'csv-report': 'Summarize CSV sales exports into a quarterly revenue report with charts. Use when the user shares CSV sales data.',
      'csv-summary': 'Summarize CSV sales exports into a quarterly revenue report with tables. Use when the user shares CSV sales data.',
      'k8s-deploy': 'Deploy services to Kubernetes with Helm charts and roll back a failed release. Use for cluster deployments.',
    };
    for (const [name, description] of Object.entries(skills)) {
      files[name] = path.join(ws, '.github', 'skills', name, 'SKILL.md');
      fs.mkdirSync(path.dirname(files[name]), { recursive: true });
      fs.writeFileSync(files[name], skill(name, description));
    }
  });
  afterEach(async () => {
    await s?.stop();
    s = undefined;
    removeDir(ws);
  });

  it('reports a confusable pair on both SKILL.md files with what sets each apart, and clears both when one is edited apart', async () => {
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0 } });
    const session = s;
    const report = await session.waitForDiagnostics(fileUri(files['csv-report']), (p) => confusable(p).length > 0);
    const summary = await session.waitForDiagnostics(fileUri(files['csv-summary']), (p) => confusable(p).length > 0);
    const [onReport] = confusable(report);
    const [onSummary] = confusable(summary);
    assert.match(onReport.message, /Skill 'csv-report' would be confused with 'csv-summary'/);
    assert.match(onReport.message, /only 'csv-report' says "charts"; only 'csv-summary' says [^;]*"tables"/);
    assert.match(onSummary.message, /Skill 'csv-summary' would be confused with 'csv-report'/);
    assert.ok(onReport.message.includes(files['csv-summary']), 'names where the other skill is');
    const k8s = await session.waitForDiagnostics(fileUri(files['k8s-deploy']));
    assert.deepEqual(confusable(k8s), [], 'a distinct skill is not reported');

    // Edit one description apart in the editor: both files lose the finding.
    const uri = fileUri(files['csv-summary']);
    await openDoc(session, uri, fs.readFileSync(files['csv-summary'], 'utf8'));
    const n = session.published.length;
    await changeDoc(session, uri, skill('csv-summary', 'Transcribe podcast audio into subtitles with speaker labels. Use for audio files.'), 2);
    await session.waitForDiagnostics(uri, (p) => session.published.indexOf(p) >= n && confusable(p).length === 0);
    await session.waitForDiagnostics(fileUri(files['csv-report']), (p) => session.published.indexOf(p) >= n && confusable(p).length === 0);
  });

  it('reports nothing with the rule turned off in the settings', async () => {
    s = await startServer({ workspaceFolders: [ws], initializationOptions: { debounceMs: 0 }, configuration: { validation: { rules: { 'skills-confusable': 'off' } } } });
    await s.waitForNotification('skills/workspaceScanned');
    for (const f of Object.values(files)) assert.deepEqual(confusable(await s.waitForDiagnostics(fileUri(f))), [], f);
  });
});
