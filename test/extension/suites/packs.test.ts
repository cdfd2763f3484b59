// Skill packs in a real VS Code: the test builds a .tar.gz with one skill, lists it (and a missing archive) in
// agentSkills.packs (user settings). The pack's skill shows in the Skills tree under "Packs" with the id
// pack:<pack>:<skill> and is in the catalog the runtime serves the model, while the missing pack is only reported;
// removing the setting removes the skill. A pack by URL is downloaded (from a local server) without holding back
// the other skills: they are listed while the download waits, and the pack joins them when it lands.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as tar from 'tar';
import * as vscode from 'vscode';
import type { SkillRecord } from '../../../src/core/registry/registryTypes';
import type { SkillsExtensionApi } from '../../../src/extension/extension';
import { activatedExtension } from '../helpers/extension';
import { describeTree, flatten, type DescribedNode } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

const PACK = 'demo-skills';
const SKILL = 'pack-greeting';
const ID = `pack:${PACK}:${SKILL}`;

/** The skill records under the tree's "Packs" group (none when the group is absent). */
async function packSkills(): Promise<SkillRecord[]> {
  const group = (await describeTree()).available.find((n) => n.label === 'Packs');
  return group ? flatten(group.children).flatMap((n: DescribedNode) => (n.node.kind === 'skill' ? [n.node.record] : [])) : [];
}

describe('skill packs from agentSkills.packs', function () {
  this.timeout(120_000);
  let api: SkillsExtensionApi;
  let tmp: string;
  let archive: string;

  before(async () => {
    api = (await activatedExtension()).exports as SkillsExtensionApi;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-pack-'));
    const src = path.join(tmp, 'src');
    fs.mkdirSync(path.join(src, SKILL), { recursive: true });
    fs.writeFileSync(
      path.join(src, SKILL, 'SKILL.md'),
      `---\nname: ${SKILL}\ndescription: Greets the user from a skill pack. Use when the user asks for a pack greeting.\n---\n\n# Pack greeting\n\nSay hello from the pack.\n`,
    );
    archive = path.join(tmp, `${PACK}.tar.gz`);
    await tar.c({ gzip: true, file: archive, cwd: src }, [SKILL]);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('agentSkills').update('packs', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('mounts a .tar.gz pack: its skill shows under Packs with a pack: id and in the catalog; a missing pack is skipped; removing the setting removes it', async () => {
    assert.deepEqual(await packSkills(), [], 'a pack skill is listed before any pack is configured');
    const missing = path.join(tmp, 'no-such-pack.zip');
    await vscode.workspace.getConfiguration('agentSkills').update('packs', [archive, missing], vscode.ConfigurationTarget.Global);

    const shown = await waitFor('the pack skill under Packs in the tree', async () => (await packSkills()).find((r) => r.name === SKILL), 30_000);
    assert.equal(shown.id, ID);
    assert.equal(shown.scope, 'pack');
    assert.equal(shown.status, 'ok');
    // Extracted into the extension's storage, not read from the archive's folder.
    assert.ok(shown.location.startsWith(path.join(api.service.stateDir, 'packs')), `the skill is read from ${shown.location}`);
    assert.match(fs.readFileSync(shown.location, 'utf8'), /Say hello from the pack/);
    // The missing archive is only reported; the workspace skills are still there.
    assert.equal((await packSkills()).length, 1);
    assert.ok(api.service.peekRegistry()?.usable().some((r) => r.scope === 'workspace'), 'the workspace skills went away');

    // What the runtime (and so the model's catalog) lists once the catalog has reopened over the new roots.
    const catalog = await api.catalog.ready();
    assert.ok(catalog.skillSource().list().some((r) => r.id === ID), `the catalog does not offer ${ID}`);
    assert.equal(catalog.resolve(ID).id, ID);

    await vscode.workspace.getConfiguration('agentSkills').update('packs', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('the pack skill to leave the tree', async () => (await packSkills()).length === 0, 30_000);
    const after = await api.catalog.ready();
    assert.ok(!after.skillSource().list().some((r) => r.id === ID), `the catalog still offers ${ID}`);
  });

  it('downloads a pack by URL without holding back the other skills, then lists its skill', async () => {
    const config = vscode.workspace.getConfiguration('agentSkills');
    // The server answers only when the test lets it: until then the download hangs, as a slow one would.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      void released.then(() => {
        res.writeHead(200, { 'content-type': 'application/gzip' });
        fs.createReadStream(archive).pipe(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/url-skills.tar.gz`;
    const extra = path.join(tmp, 'extra-root');
    fs.mkdirSync(path.join(extra, 'beside-download'), { recursive: true });
    fs.writeFileSync(path.join(extra, 'beside-download', 'SKILL.md'), '---\nname: beside-download\ndescription: Listed while a pack downloads. Use in tests.\n---\n\n# Beside\n');
    try {
      await config.update('packs', [url], vscode.ConfigurationTarget.Global);
      await config.update('extraRoots', [extra], vscode.ConfigurationTarget.Global);
      // Listed while the server still holds the pack back: the scan did not wait for the download.
      await waitFor('the extra root\'s skill while the pack downloads', async () => api.service.peekRegistry()?.usable().some((r) => r.name === 'beside-download'), 30_000);
      assert.ok(requests >= 1, 'the pack download started');
      assert.deepEqual(await packSkills(), [], 'the pack cannot be listed before it is downloaded');
      release();
      const shown = await waitFor('the downloaded pack\'s skill under Packs', async () => (await packSkills()).find((r) => r.name === SKILL), 30_000);
      assert.equal(shown.id, `pack:url-skills:${SKILL}`);
      assert.ok(shown.location.startsWith(path.join(api.service.stateDir, 'packs')), shown.location);
      assert.ok(api.service.peekRegistry()?.usable().some((r) => r.name === 'beside-download'), 'the extra root\'s skill stays');
    } finally {
      release();
      await config.update('packs', undefined, vscode.ConfigurationTarget.Global);
      await config.update('extraRoots', undefined, vscode.ConfigurationTarget.Global);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    await waitFor('the URL pack skill to leave the tree', async () => (await packSkills()).length === 0, 30_000);
  });
});
