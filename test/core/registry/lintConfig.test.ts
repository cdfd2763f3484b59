// The registry (and so the Skills view and the tools) honours the lint configuration as the CLI and the language
// server do (issue 15 point 1): a rule turned off in the nearest .agent-skills.yaml does not show and does not break a
// skill, a level change applies, an excluded path is not linted, and editing the configuration re-checks the skills
// on the next scan. Installed (read-only) sources keep the default rules.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createSkillRegistry } from '../../../src/core/registry';
import { fileWriter } from '../../support/tempDir';

describe('registry: .agent-skills.yaml', () => {
  let base: string;
  const write = fileWriter(() => base);
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-lint-'));
    // The folder name differs from the name (an error in lenient mode: name-mismatch) and the body has a TODO.
    write('repo/.github/skills/deploy-tool/SKILL.md', '---\nname: deploy\ndescription: Deploys the service. Use when the user asks to deploy.\n---\n# Deploy\n\nTODO: write the steps.\n');
    write('repo/.github/skills/vendor/old/SKILL.md', '---\nname: old\ndescription: Use old for the old task.\n---\n# Old\n\nTBD\n');
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  const scan = async (scope: 'workspace' | 'pack' = 'workspace', registry = createSkillRegistry({ roots: [{ path: path.join(base, 'repo/.github/skills'), scope }] })) => {
    const snap = await registry.refresh();
    return { registry, deploy: snap.records.find((r) => r.rootDir.endsWith('deploy-tool'))! };
  };

  it('without a configuration the default rules apply', async () => {
    const { deploy } = await scan();
    assert.equal(deploy.status, 'ok');
    assert.deepEqual(deploy.diagnostics.map((d) => `${d.rule}:${d.severity}`).sort(), ['name-folder-mismatch:warning', 'placeholder-text:warning']);
  });

  it('a level from the file applies (an error breaks the skill), a rule turned off does not show, and an edit re-checks on the next scan', async () => {
    const rules = (r: Record<string, string>) => write('repo/.agent-skills.yaml', `rules:\n${Object.entries(r).map(([k, v]) => `  ${k}: ${v}`).join('\n')}\n`);
    rules({ 'name-folder-mismatch': 'error', 'placeholder-text': 'off' });
    const { registry, deploy } = await scan();
    assert.equal(deploy.status, 'broken', 'raised to an error by the configuration');
    assert.equal(deploy.diagnostics.find((d) => d.rule === 'name-folder-mismatch')?.severity, 'error');
    assert.ok(!deploy.diagnostics.some((d) => d.rule === 'placeholder-text'), 'the rule turned off does not show');
    rules({ 'name-folder-mismatch': 'off', 'placeholder-text': 'off' });
    const after = (await registry.refresh()).records.find((r) => r.rootDir.endsWith('deploy-tool'))!;
    assert.equal(after.status, 'ok', `the edited configuration applies on the next scan: ${JSON.stringify(after.diagnostics)}`);
    assert.deepEqual(after.diagnostics, []);
  });

  it('an excluded path keeps only what makes a skill unusable; an installed (read-only) source keeps the default rules', async () => {
    write('repo/.agent-skills.yaml', 'rules:\n  placeholder-text: error\nexclude:\n  - .github/skills/deploy-tool\n');
    const { deploy } = await scan();
    assert.ok(deploy.diagnostics.every((d) => d.severity === 'error'), JSON.stringify(deploy.diagnostics));
    assert.ok(!deploy.diagnostics.some((d) => d.rule === 'placeholder-text'));
    write('repo/.agent-skills.yaml', 'rules:\n  placeholder-text: off\n');
    const pack = (await scan('pack')).deploy;
    assert.ok(pack.diagnostics.some((d) => d.rule === 'placeholder-text'), 'a pack is judged by the default rules');
  });
});
