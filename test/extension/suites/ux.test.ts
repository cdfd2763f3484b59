// What a user notices first, checked in a real VS Code: the Problems view agrees with the Skills view about a
// broken skill without opening it, the outline lists each heading once next to VS Code's Markdown outline,
// a broken skill's tooltip puts its errors first, and Create Skill suggests a valid name for a bad one.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillNameProblem, suggestSkillName } from '../../../src/extension/commands/createSkill';
import { activatedExtension } from '../helpers/extension';
import { availableSkill } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

function skillFile(name: string): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  assert.ok(f, 'no workspace folder is open');
  return vscode.Uri.file(path.join(f.uri.fsPath, '.github', 'skills', name, 'SKILL.md'));
}

describe('Agent Skills as a user first sees it', function () {
  this.timeout(120_000);

  before(async () => {
    await activatedExtension();
  });

  it('lists a broken skill\'s problems in the Problems view as soon as the Skills view shows it broken, unopened', async () => {
    // A skill of its own, so no other suite has opened it; created on disk as a user (or git) would.
    const uri = skillFile('ux-broken');
    fs.mkdirSync(path.dirname(uri.fsPath), { recursive: true });
    fs.writeFileSync(uri.fsPath, '---\nname: ux-broken\n---\n\n# Missing its description\n');
    try {
      await waitFor('ux-broken shown as broken in the Skills view', async () => (await availableSkill('ux-broken').catch(() => undefined))?.contextValue === 'skill.broken', 20_000);
      assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.fsPath === uri.fsPath), 'the test must not open the file');
      // VS Code's own validator only checks open files, so even the rules it shares with ours are ours to report here.
      const ours = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'agent-skills').map((d) => String(d.code));
      await waitFor('description-missing from agent-skills on the unopened SKILL.md', () => ours().includes('description-missing'), 30_000);
    } finally {
      fs.rmSync(path.dirname(uri.fsPath), { recursive: true, force: true });
    }
  });

  it('puts a broken skill\'s errors first in its tooltip', async () => {
    const tip = (await availableSkill('Broken_Skill')).tooltip ?? '';
    const items = tip.split('\n').filter((l) => l.startsWith('- '));
    assert.ok(items.length >= 2, `tooltip: ${tip}`);
    assert.match(items[0], /^- error: The required field `description` is missing/);
    const firstOther = items.findIndex((l) => !l.startsWith('- error'));
    assert.ok(firstOther > 0 && items.slice(firstOther).every((l) => !l.startsWith('- error')), `errors are not first: ${items.join(' | ')}`);
  });

  it('honours the lint configuration in the Skills view: a rule turned off in agentSkills.validation.rules or .agent-skills.yaml leaves the tooltip', async () => {
    const mismatch = /'Broken_Skill' contains "_"/;
    const tip = async () => (await availableSkill('Broken_Skill')).tooltip ?? '';
    assert.match(await tip(), mismatch);
    const config = vscode.workspace.getConfiguration('agentSkills');
    try {
      await config.update('validation.rules', { 'name-invalid-chars': 'off' }, vscode.ConfigurationTarget.Workspace);
      await waitFor('the rule turned off in the setting to leave the tooltip', async () => !mismatch.test(await tip()), 30_000);
    } finally {
      await config.update('validation.rules', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor('the rule back once the setting is gone', async () => mismatch.test(await tip()), 30_000);
    const file = path.join(vscode.workspace.workspaceFolders![0].uri.fsPath, '.agent-skills.yaml');
    fs.writeFileSync(file, 'rules:\n  name-invalid-chars: off\n');
    try {
      await waitFor('the rule turned off in .agent-skills.yaml to leave the tooltip', async () => !mismatch.test(await tip()), 30_000);
    } finally {
      fs.rmSync(file, { force: true });
    }
    await waitFor('the rule back once the file is gone', async () => mismatch.test(await tip()), 30_000);
  });

  it('outlines the frontmatter and lists each Markdown heading once', async () => {
    const uri = skillFile('commit-message');
    // VS Code's Markdown extension outlines SKILL.md headings too; wait for it, so both providers answer.
    const markdown = vscode.extensions.getExtension('vscode.markdown-language-features');
    assert.ok(markdown, 'VS Code ships its Markdown extension');
    await markdown.activate();
    await vscode.window.showTextDocument(uri);
    const flat = (ss: vscode.DocumentSymbol[]): vscode.DocumentSymbol[] => ss.flatMap((s) => [s, ...flat(s.children ?? [])]);
    const names = await waitFor(
      'the frontmatter symbol from the language server',
      async () => {
        const syms = (await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri)) ?? [];
        const all = flat(syms).map((s) => s.name);
        return all.includes('frontmatter') && all.some((n) => /Commit message$/.test(n)) && all;
      },
      30_000,
    );
    assert.ok(names.includes('description'), `symbols: ${names.join(', ')}`);
    const headings = names.filter((n) => /Commit message$/.test(n));
    assert.equal(headings.length, 1, `the heading appears ${headings.length} times: ${names.join(', ')}`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("hovering a field shows its meaning once (VS Code's own hover) and our live count beside it", async () => {
    const uri = skillFile('commit-message');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.languageId, 'skill');
    const line = doc.getText().split('\n').findIndex((l) => l.startsWith('description:'));
    assert.ok(line > 0, 'commit-message has a description line');
    const description = doc.lineAt(line).text.slice('description:'.length).trim();
    const texts = await waitFor(
      'hovers from VS Code and from the language server on `description`',
      async () => {
        const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, new vscode.Position(line, 3))) ?? [];
        const all = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
        return all.some((t) => t.includes('/ 1,024 characters')) && all;
      },
      30_000,
    );
    const ours = texts.filter((t) => t.includes('/ 1,024 characters'));
    assert.deepEqual(ours, [`\`description: ${[...description].length} / 1,024 characters\``], `our hover repeats more than the count: ${JSON.stringify(ours)}`);
    // The meaning comes from VS Code's own skill hover, which must be there for ours to leave it out.
    assert.ok(texts.length >= 2, `VS Code showed no hover of its own on the field: ${JSON.stringify(texts)}`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('Create Skill explains a bad name and suggests a valid one', () => {
    assert.equal(suggestSkillName('My_Skill'), 'my-skill');
    assert.equal(suggestSkillName('my-skill'), undefined);
    assert.match(skillNameProblem('My_Skill') ?? '', /try "my-skill"/);
    assert.match(skillNameProblem('x'.repeat(70)) ?? '', /this one has 70/);
    assert.equal(skillNameProblem('pdf-processing'), undefined);
  });
});
