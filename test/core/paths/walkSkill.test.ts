// The one walk of a skill's files (src/core/paths/walkSkill.ts), on real folders: links that stay inside are
// followed when asked, links out of the skill never are (attack: a skill that links to a folder of the user's
// secrets), a folder reached twice (a loop, a second name) is walked once, the skip sets and limits hold, and the
// sync and async drivers agree.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createAsyncNodeHost, createNodeHost } from '../../../src/core/host';
import { SKIP, walkSkill, walkSkillSync, type WalkOptions } from '../../../src/core/paths/walkSkill';
import { parseSkillText, validateSkill } from '../../../src/core/skill';
import { fileWriter, makeTempDir } from '../../support/tempDir';

describe('paths/walkSkill', function () {
  this.timeout(30_000);
  let tmp: { dir: string; cleanup: () => void };
  let skill: string;
  const write = fileWriter(() => tmp.dir);
  const both = async (options: WalkOptions): Promise<string[]> => {
    const sync = walkSkillSync(createNodeHost(), skill, options);
    const async = await walkSkill(createAsyncNodeHost(), skill, options);
    assert.deepEqual(async, sync, 'the async and sync drivers disagree');
    return sync;
  };

  beforeEach(() => {
    tmp = makeTempDir('walk-skill-');
    skill = path.join(tmp.dir, 'skill');
    write('skill/SKILL.md', '---\nname: skill\ndescription: Test. Use when testing.\n---\n');
    write('skill/references/guide.md', 'guide\n');
    write('skill/node_modules/dep/index.js', 'x\n');
    write('skill/.git/config', 'x\n');
    write('skill/.hidden.md', 'x\n');
    write('outside/secrets/token.txt', `ghp_${'A1b2C3d4E5'.repeat(4)}\n`);
    fs.symlinkSync(path.join(tmp.dir, 'outside', 'secrets'), path.join(skill, 'leak'));
    fs.symlinkSync(path.join(tmp.dir, 'outside', 'secrets', 'token.txt'), path.join(skill, 'leak.txt'));
    fs.symlinkSync(path.join(skill, 'references'), path.join(skill, 'docs'));
    fs.symlinkSync(skill, path.join(skill, 'references', 'loop'));
  });
  afterEach(() => tmp.cleanup());

  it('leaves every link out by default, and the named skip sets and hidden names', async () => {
    assert.deepEqual(await both({ skipDirs: [...SKIP.vcs, ...SKIP.dependencies], skipHidden: true }), ['SKILL.md', 'references/guide.md']);
    assert.deepEqual(await both({}), ['.hidden.md', 'SKILL.md', '.git/config', 'references/guide.md', 'node_modules/dep/index.js']);
  });

  it('attack: follows links that stay inside only; a link to a folder or file out of the skill is never entered or listed', async () => {
    write('skill/.templates/form.md', 'form\n');
    fs.symlinkSync(path.join(skill, '.templates'), path.join(skill, 'forms'));
    const files = await both({ followLinksInside: true, skipDirs: SKIP.vcs, skipHidden: true });
    assert.ok(files.includes('forms/form.md'), `the link inside was not followed: ${files.join(', ')}`);
    assert.ok(!files.some((f) => f.startsWith('leak')), `a link out of the skill was followed: ${files.join(', ')}`);
    // Each real folder once: docs -> references and the loop references/loop -> the skill list nothing a second time.
    assert.deepEqual(files, ['SKILL.md', 'forms/form.md', 'references/guide.md', 'node_modules/dep/index.js']);
  });

  it('stops at maxFiles and maxDepth', async () => {
    assert.equal((await both({ maxFiles: 2 })).length, 2);
    assert.deepEqual(await both({ maxDepth: 0, skipHidden: true }), ['SKILL.md']);
  });

  it('attack: the secret scan reads no file behind a link out of the skill, and still reads one inside', async () => {
    const parsed = parseSkillText(fs.readFileSync(path.join(skill, 'SKILL.md'), 'utf8'));
    const secretRules = async () => (await validateSkill({ parsed, folderName: 'skill', rootDir: skill })).diagnostics.filter((d) => d.rule === 'secret-detected');
    assert.deepEqual(await secretRules(), [], 'a credential behind a link out of the skill was read');
    write('skill/references/inside.txt', `ghp_${'A1b2C3d4E5'.repeat(4)}\n`);
    assert.deepEqual((await secretRules()).map((d) => d.file), ['references/inside.txt']);
  });
});
