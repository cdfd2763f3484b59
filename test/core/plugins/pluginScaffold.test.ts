// "Create Plugin" writes a plugin that passes every check the runtime makes (issue 13 point 5).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDirAtomic } from '../../../src/core/edit/atomicWrite';
import { pluginNameProblem, pluginScaffold } from '../../../src/core/plugins/pluginScaffold';
import { validatePlugin } from '../../../src/core/plugins/validatePlugin';
import { validateSkillDir } from '../../../src/core/skill';

describe('Create Plugin scaffold', () => {
  let base: string;
  beforeEach(() => (base = fs.mkdtempSync(path.join(os.tmpdir(), 'plugin-scaffold-'))));
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('is a valid plugin with one valid skill, in strict mode too', async () => {
    const dir = path.join(base, 'team-tools');
    await createDirAtomic(dir, pluginScaffold('team-tools', 'release-guide', 'Drafts release notes. Use when the user asks for release notes.'));
    const v = validatePlugin(dir);
    assert.deepEqual(v.findings, []);
    assert.equal(v.plugin.manifest?.name, 'team-tools');
    assert.deepEqual(v.skillDirs, [path.join(dir, 'skills', 'release-guide')]);
    for (const mode of ['lenient', 'strict'] as const) {
      const s = await validateSkillDir(v.skillDirs[0], { mode });
      assert.equal(s.valid, true, JSON.stringify(s.diagnostics));
    }
  });

  it('names what is wrong with a plugin name and suggests one', () => {
    assert.equal(pluginNameProblem('team-tools'), undefined);
    assert.equal(pluginNameProblem('acme.tools'), undefined);
    assert.match(pluginNameProblem('Team Tools') ?? '', /§5\.5.*try "team-tools"/);
    assert.match(pluginNameProblem('a--b') ?? '', /no "--"/);
    assert.match(pluginNameProblem('x'.repeat(65)) ?? '', /At most 64/);
  });
});
