// Plugin scope in a real VS Code: the scripted model test extension contributes one skill through VS Code's own
// `contributes.chatSkills` point (and ships a sibling skill folder it does not list). The skill shows in the
// Skills tree under Extensions with the id plugin:<extension id>:<name>, is in the catalog @skills sends the
// model and loads through load_skills, and a workspace skill of the same name shadows it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeUpdateSkill } from '../../../src/core/catalog/updateSkillTool';
import type { SkillRecord } from '../../../src/core/registry/registryTypes';
import type { SkillsExtensionApi } from '../../../src/extension/extension';
import { TOOL_NAMES } from '../../../src/extension/ids';
import { askSkills } from '../helpers/chat';
import { activatedExtension } from '../helpers/extension';
import { scriptedChatModel, setScript, waitForRequests, type RecordedRequest } from '../helpers/scriptedModel';
import { describeTree, flatten, type DescribedNode } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

const SKILL = 'scripted-checklist';

function textOf(r: RecordedRequest): string {
  return r.messages
    .flatMap((m) => m.parts)
    .map((p) => (p.kind === 'text' ? p.value : p.kind === 'toolResult' ? p.content.join('') : ''))
    .join('\n');
}

/** The skill nodes under the tree's "Extensions" group. */
async function extensionSkills(): Promise<DescribedNode[]> {
  const group = (await describeTree()).available.find((n) => n.label === 'Extensions');
  return group ? flatten(group.children) : [];
}

function recordOf(n: DescribedNode): SkillRecord | undefined {
  return n.node.kind === 'skill' ? n.node.record : undefined;
}

describe('skills contributed by other extensions (plugin scope)', function () {
  this.timeout(120_000);
  let api: SkillsExtensionApi;
  let extId: string;
  let id: string;

  before(async () => {
    api = (await activatedExtension()).exports as SkillsExtensionApi;
    await scriptedChatModel();
    const ext = vscode.extensions.all.find((e) => (e.packageJSON as { name?: string }).name === 'scripted-model');
    assert.ok(ext, 'the scripted model test extension is not installed');
    extId = ext.id;
    id = `plugin:${extId}:${SKILL}`;
  });

  it('shows the chatSkills skill under Extensions as plugin:<extension id>:<name>, not the sibling it does not list', async () => {
    const node = await waitFor(`${SKILL} under Extensions (problems: ${api.service.pluginSkills().problems.join(' ')})`, async () => (await extensionSkills()).find((n) => n.label === SKILL));
    assert.equal(recordOf(node)?.id, id);
    assert.equal(node.contextValue, 'skill.ok');
    assert.match(node.description ?? '', /pre-release checklist/);
    const ours = (await extensionSkills()).filter((n) => recordOf(n)?.root.source === extId).map((n) => n.label);
    assert.deepEqual(ours, [SKILL], 'only the listed skill of the scripted model extension is discovered');
    assert.deepEqual(api.service.pluginSkills().problems.filter((p) => p.includes(extId)), []);
  });

  it('@skills lists it in <available_skills> and load_skills loads its body', async function () {
    this.timeout(90_000);
    await setScript([{ toolCalls: [{ name: TOOL_NAMES.load, input: { names: [id] } }] }, { text: 'Loaded the checklist.' }]);
    await askSkills('run the scripted checklist');
    const [first, second] = await waitForRequests(2, 60_000);
    const catalog = /<available_skills>[\s\S]*<\/available_skills>/.exec(textOf(first))?.[0] ?? '';
    assert.match(catalog, new RegExp(`<name>${SKILL}</name>`), `catalog sent: ${catalog.slice(0, 2000)}`);
    assert.doesNotMatch(catalog, /<name>uncontributed<\/name>/);
    assert.match(textOf(second), /Write the changelog entry\./, 'the second request carries the loaded body');
  });

  it('an edit through updateSkill goes to the overlay, and load_skills then serves the newest revision', async () => {
    const catalog = await api.catalog.ready();
    const source = recordOf((await extensionSkills()).find((n) => n.label === SKILL)!)!.location;
    const before = fs.readFileSync(source, 'utf8');
    const edited = before.replace('2. Write the changelog entry.', '2. Write the changelog entry.\n3. Tag the release.');
    const r = await invokeUpdateSkill(catalog, { action: 'replace', skill: id, content: edited, reason: 'plugin suite' });
    assert.ok(r.ok, JSON.stringify(r));
    try {
      const session = 'plugin-suite-session';
      const loaded = await api.service.invoke(TOOL_NAMES.load, { names: [id] }, session);
      assert.ok(loaded.ok, JSON.stringify(loaded));
      const receipt = (loaded.result as { active_skills: { location: string }[] }).active_skills[0];
      assert.equal(receipt.location, path.join(catalog.overlayDir(id), 'SKILL.md'));
      const read = await api.service.invoke(TOOL_NAMES.read, { path: 'SKILL.md' }, session);
      assert.match(JSON.stringify(read), /3\. Tag the release\./);
      assert.equal(fs.readFileSync(source, 'utf8'), before, 'the extension folder is never written');
    } finally {
      fs.rmSync(catalog.overlayDir(id), { recursive: true, force: true });
      await catalog.reloadState();
    }
  });

  it('a workspace skill of the same name shadows it; removing the workspace skill brings it back', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder is open');
    const dir = path.join(folder.uri.fsPath, '.github', 'skills', SKILL);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${SKILL}\ndescription: The workspace's own checklist. Use when the user asks for the scripted checklist.\n---\n\n# Workspace checklist\n`);
    try {
      const shadowed = await waitFor('the plugin skill shadowed by the workspace one', async () =>
        (await extensionSkills()).find((n) => n.label === SKILL && n.contextValue === 'skill.shadowed'),
      );
      assert.equal(recordOf(shadowed)?.shadowedBy, `workspace:${SKILL}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await waitFor('the plugin skill usable again', async () => (await extensionSkills()).find((n) => n.label === SKILL && n.contextValue === 'skill.ok'));
  });
});
