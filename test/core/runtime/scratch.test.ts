// The runtime's scratch copy, behind the "Preview Prompt" command: a turn and a compose there give what the
// real session would send, and nothing of it reaches the real session, its file or its listeners.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createSkillsRuntime, type SessionEvent, type SkillsRuntime } from '../../../src/core/runtime';
import { makeTempDir, listTree } from '../../support/tempDir';
import { folderSource, writeSkill } from './runtimeSupport';

describe('runtime: scratch copy for previews', () => {
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  let rt: SkillsRuntime;
  let events: SessionEvent[];

  beforeEach(async () => {
    tmp = makeTempDir('rt-scratch-');
    skills = path.join(tmp.dir, 'skills');
    for (const n of ['alpha', 'beta', 'gamma', 'zeta-tool']) writeSkill(skills, n, { body: `# ${n}\n\nBODY-OF-${n}.` });
    rt = createSkillsRuntime({ source: folderSource(skills), stateDir: path.join(tmp.dir, 'state'), loadMode: 'session', catalogBudget: { maxChars: 450 } });
    await rt.openSession('chat');
    await rt.invoke('load', { names: ['beta'] }, { sessionId: 'chat' });
    await rt.flush();
    events = [];
    rt.onDidChange((e) => events.push(e));
  });
  afterEach(() => tmp.cleanup());

  it('composes a turn of an existing session as the session would, leaving the session as it was', async () => {
    const before = rt.sessions.get('chat');
    const files = listTree(path.join(tmp.dir, 'state'));
    const scratch = rt.scratch('chat');
    await scratch.beginTurn('chat', 'please use $gamma now');
    const composed = await scratch.compose('chat', [{ role: 'user', content: 'please use $gamma now' }]);
    assert.equal(composed.instructions.split('BODY-OF-beta').length - 1, 1, 'the loaded skill body is in the instructions once');
    assert.equal(composed.instructions.split('BODY-OF-gamma').length - 1, 1, 'the $-mention was auto-loaded as a turn does');
    assert.ok(composed.sections.active.includes('BODY-OF-beta'));
    assert.equal(composed.sections.active.indexOf('BODY-OF-beta') < composed.sections.active.indexOf('BODY-OF-gamma'), true, 'load order');
    assert.equal(
      [composed.sections.rules, composed.sections.catalog, composed.sections.guidance].filter(Boolean).join('\n\n') + `\n\n${composed.sections.active}`,
      composed.instructions,
      'the sections are the instructions, in order',
    );
    assert.deepEqual(rt.sessions.get('chat'), before, 'the real session changed');
    assert.deepEqual(events, []);
    await rt.flush();
    assert.deepEqual(listTree(path.join(tmp.dir, 'state')), files, 'the scratch wrote state files');
  });

  it('ranks a skill named in the request first, and shows it even when the budget leaves others out', async () => {
    const scratch = rt.scratch();
    const s = await scratch.openSession();
    await scratch.beginTurn(s.id, 'write it with zeta-tool');
    const composed = await scratch.compose(s.id, []);
    assert.equal(composed.catalog.ranked[0], 'zeta-tool');
    assert.ok(composed.catalog.shown.includes('zeta-tool'), `shown: ${composed.catalog.shown.join(', ')}`);
    assert.ok(composed.catalog.omitted > 0, 'the test budget should leave skills out');
    assert.deepEqual(rt.sessions.list().map((x) => x.id), ['chat'], 'the scratch session reached the real store');
  });

  it('shows an edited SKILL.md on the next scratch compose', async () => {
    const first = await rt.scratch('chat').compose('chat', []);
    fs.writeFileSync(path.join(skills, 'beta', 'SKILL.md'), '---\nname: beta\ndescription: Does beta things. Use when asked for beta.\n---\n\nEDITED-BETA.\n');
    const second = await rt.scratch('chat').compose('chat', []);
    assert.ok(first.instructions.includes('BODY-OF-beta') && !first.instructions.includes('EDITED-BETA'));
    assert.ok(second.instructions.includes('EDITED-BETA') && !second.instructions.includes('BODY-OF-beta'));
  });
});
