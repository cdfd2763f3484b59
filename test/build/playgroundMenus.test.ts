// Where "Run Script…" shows up (package.json menus, issue 16): on usable skills in the Skills view, and in the
// editor and explorer of files under a skills folder's <skill>/scripts/, not of any other scripts/ folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS } from '../../src/extension/ids';

const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]> };
};

/** The `resourcePath =~ /.../` part of a when clause, as a RegExp. */
function pathRegex(when: string): RegExp {
  const m = /resourcePath =~ \/(.+)\/$/.exec(when);
  assert.ok(m, `no resourcePath regex in "${when}"`);
  return new RegExp(m[1]);
}

describe('Run Script… and Preview Prompt menus', () => {
  it('offers Run Script… in the editor title, the editor and the explorer of skill scripts only', () => {
    for (const menu of ['editor/title', 'editor/context', 'explorer/context']) {
      const item = manifest.contributes.menus[menu]?.find((m) => m.command === COMMANDS.runScript);
      assert.ok(item?.when, `${menu} has no ${COMMANDS.runScript}`);
      assert.match(item.when, /resourceScheme == file/);
      const re = pathRegex(item.when);
      for (const p of ['/w/.github/skills/greeting/scripts/greet.sh', '/home/u/.claude/skills/pdf/scripts/sub/x.py', '/home/u/.agents/skills/a/scripts/run']) assert.ok(re.test(p), `${menu}: not offered for ${p}`);
      for (const p of ['/repo/scripts/build.mjs', '/w/.github/skills/greeting/SKILL.md', '/w/.github/skills/greeting/scripts/', '/w/skills/scripts/x.sh']) assert.ok(!re.test(p), `${menu}: offered for ${p}`);
    }
  });

  it('offers Run Script… on usable skills of the Skills view and Preview Prompt in its title bar and on sessions', () => {
    const items = manifest.contributes.menus['view/item/context'];
    assert.ok(items.some((m) => m.command === COMMANDS.runScript && m.when === 'view == agentSkills.available && viewItem == skill.ok'));
    assert.ok(items.some((m) => m.command === COMMANDS.previewPrompt && /view == agentSkills\.sessions/.test(m.when ?? '')));
    assert.ok(manifest.contributes.menus['view/title'].some((m) => m.command === COMMANDS.previewPrompt && m.when === 'view == agentSkills.available'));
    assert.ok(manifest.contributes.menus['editor/title'].some((m) => m.command === COMMANDS.refreshPromptPreview && m.when === 'resourceScheme == agent-skills-preview'));
  });
});
