import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { defaultSkillRoots } from '../../../src/core/registry';

describe('defaultSkillRoots', () => {
  it('lists VS Code’s skill folders in precedence order: project, user, plugin', () => {
    const ws = path.resolve('/ws');
    const home = path.resolve('/home/u');
    const roots = defaultSkillRoots({
      workspaceFolders: [ws],
      homeDir: home,
      extraRoots: [
        { path: '/cfg/user-skills', scope: 'user' },
        { path: '/cfg/team-skills', scope: 'workspace' },
        { path: '/cfg/pack', scope: 'pack', source: 'starter' },
      ],
      pluginRoots: [{ path: '/ext/skills', source: 'acme.tools' }],
    });
    assert.deepEqual(
      roots.map((r) => `${r.scope}:${r.source}:${r.path}`),
      [
        `workspace:workspace:${path.join(ws, '.github/skills')}`,
        `workspace:workspace:${path.join(ws, '.agents/skills')}`,
        `workspace:workspace:${path.join(ws, '.claude/skills')}`,
        `workspace:config:${path.resolve('/cfg/team-skills')}`,
        `user:user:${path.join(home, '.copilot/skills')}`,
        `user:user:${path.join(home, '.agents/skills')}`,
        `user:user:${path.join(home, '.claude/skills')}`,
        `user:config:${path.resolve('/cfg/user-skills')}`,
        `extension:acme.tools:${path.resolve('/ext/skills')}`,
        `pack:starter:${path.resolve('/cfg/pack')}`,
      ],
    );
  });

  it('keeps a folder listed twice once, at its highest place (a home folder opened as the workspace)', () => {
    const home = path.resolve('/home/u');
    const roots = defaultSkillRoots({ workspaceFolders: [home], homeDir: home });
    assert.deepEqual(
      roots.map((r) => `${r.scope}:${path.relative(home, r.path)}`),
      ['workspace:.github/skills', 'workspace:.agents/skills', 'workspace:.claude/skills', 'user:.copilot/skills'].map((s) => s.replace(/\//g, path.sep)),
    );
  });

  it('gives nothing without inputs', () => {
    assert.deepEqual(defaultSkillRoots({}), []);
  });
});
