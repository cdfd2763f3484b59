import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSkillRegistry } from '../../../src/core/registry';
import { createSkillsRuntime, skillSourceOf } from '../../../src/core/runtime';
import { makeTempDir } from '../../support/tempDir';
import { writeSkill } from './runtimeSupport';

describe('runtime over the real skill registry', () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    tmp = makeTempDir('rt-registry-');
  });
  afterEach(() => tmp.cleanup());

  it('lists usable skills, loads by name, and turns registry errors into hinted tool errors', async () => {
    const root = path.join(tmp.dir, 'skills');
    writeSkill(root, 'pdf-tools', { description: 'Work with PDF files.', body: 'PDF-BODY' });
    fs.mkdirSync(path.join(root, 'broken'), { recursive: true });
    fs.writeFileSync(path.join(root, 'broken', 'SKILL.md'), '---\nname: broken\n---\nno description\n');
    const registry = createSkillRegistry({ roots: [{ path: root, scope: 'workspace' }] });
    await registry.refresh();
    const rt = createSkillsRuntime({ source: skillSourceOf(registry) });
    const c = await rt.compose('s', []);
    assert.deepEqual(c.catalog.shown, ['pdf-tools']);
    const ok = await rt.invoke('load', { names: ['pdf-tools'] }, { sessionId: 's' });
    assert.equal(ok.ok, true);
    assert.match((await rt.compose('s', [])).instructions, /PDF-BODY/);
    const missing = await rt.invoke('load', { names: ['pdf-tool'] }, { sessionId: 's' });
    assert.ok(!missing.ok);
    assert.equal(missing.error.code, 'unknown_skill');
    assert.match(missing.error.message, /pdf-tools/);
    const broken = await rt.invoke('load', { names: ['broken'] }, { sessionId: 's' });
    assert.ok(!broken.ok);
    assert.equal(broken.error.code, 'skill_unusable');
    assert.match(broken.error.message, /broken/);
  });
});
