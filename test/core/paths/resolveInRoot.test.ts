// The one path rule (issue 12, point 3): the cases surfaces used to answer differently, through the shared
// function and through callers of three surfaces (the read tool, the exec engine, the edit engine), the
// validator's reference check and the language server's URI helper.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { resolveSkillPath } from '../../../src/core/runtime/skillPaths';
import { createAsyncNodeHost } from '../../../src/core/host';
import { resolveInside as execResolve } from '../../../src/core/exec/paths';
import { resolveInsideReal } from '../../../src/core/edit/safePath';
import { escapesFolder } from '../../../src/core/skill/validateFiles';
import { checkRelative, relativeInside, resolveInRoot } from '../../../src/core/paths/resolveInRoot';
import { isInside as serverIsInside } from '../../../server/uris';

const files = createAsyncNodeHost();

describe('paths: one rule for "inside the skill"', () => {
  let base: string;
  let skill: string;
  before(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'paths-'));
    skill = path.join(base, 'skill');
    fs.mkdirSync(path.join(skill, 'references'), { recursive: true });
    fs.writeFileSync(path.join(skill, '..notes.md'), 'dots');
    fs.writeFileSync(path.join(skill, 'references', 'guide.md'), 'guide');
    fs.writeFileSync(path.join(base, 'secret.txt'), 'outside');
    fs.symlinkSync(path.join(base, 'secret.txt'), path.join(skill, 'out-link.md'));
    fs.symlinkSync(path.join(skill, 'references', 'guide.md'), path.join(skill, 'in-link.md'));
    fs.symlinkSync(base, path.join(skill, 'out-dir'));
  });
  after(() => fs.rmSync(base, { recursive: true, force: true }));

  const cases: { value: string; verdict: string }[] = [
    { value: '..notes.md', verdict: 'ok' },
    { value: 'references/../..notes.md', verdict: 'ok' },
    { value: '..', verdict: 'outside' },
    { value: '../secret.txt', verdict: 'outside' },
    { value: '..\\secret.txt', verdict: 'outside' },
    { value: 'references\\guide.md', verdict: 'ok' },
    { value: '~', verdict: 'home' },
    { value: '~/x', verdict: 'home' },
    { value: '%2e%2e/secret.txt', verdict: 'percent-encoded' },
    { value: '/etc/passwd', verdict: 'absolute' },
    { value: 'C:\\x', verdict: 'absolute' },
    { value: 'a\0b', verdict: 'nul' },
  ];

  for (const c of cases) {
    it(`checkRelative(${JSON.stringify(c.value)}) is ${c.verdict}`, () => {
      const r = checkRelative(c.value);
      assert.equal(r.ok ? 'ok' : r.reason, c.verdict);
      // The validator's escape check agrees on what leaves the folder.
      assert.equal(escapesFolder(c.value), ['outside', 'absolute', 'home'].includes(c.verdict));
    });
  }

  it('follows a link within the skill, refuses a link out, on disk', () => {
    const within = resolveInRoot(skill, 'in-link.md');
    assert.ok(within.ok && within.real === fs.realpathSync(path.join(skill, 'references', 'guide.md')));
    const out = resolveInRoot(skill, 'out-link.md');
    assert.ok(!out.ok && out.reason === 'link-outside');
    const under = resolveInRoot(skill, 'out-dir/new-file.md', { mustExist: false });
    assert.ok(!under.ok && under.reason === 'link-outside', 'a new file under a linked-out folder is refused');
    const missing = resolveInRoot(skill, 'references/none.md');
    assert.ok(!missing.ok && missing.reason === 'not-found');
    assert.ok(resolveInRoot(skill, 'references/none.md', { mustExist: false }).ok);
  });

  it('the read tool, the exec engine and the edit engine give the same verdicts', async () => {
    for (const value of ['..notes.md', 'in-link.md']) {
      assert.ok((await resolveSkillPath(files, 's', skill, value)).real);
      assert.ok(execResolve(skill, value, 'script', 'path_outside_skill'));
      assert.ok(await resolveInsideReal(skill, value, 'file'));
    }
    for (const value of ['../secret.txt', '..\\secret.txt', '~/x', '%2e%2e/secret.txt', '/etc/passwd', 'out-link.md']) {
      await assert.rejects(resolveSkillPath(files, 's', skill, value), /refused/, value);
      assert.throws(() => execResolve(skill, value, 'script', 'path_outside_skill'), /relative|leaves|symlink|percent/, value);
      await assert.rejects(resolveInsideReal(skill, value, 'file'), /Invalid file/, value);
    }
  });

  it('the language server and the lexical helper treat ..notes.md as inside and .. as outside', () => {
    assert.equal(serverIsInside(skill, path.join(skill, '..notes.md')), true);
    assert.equal(serverIsInside(skill, path.join(base, 'secret.txt')), false);
    assert.equal(relativeInside(skill, path.join(skill, '..notes.md')), '..notes.md');
    assert.equal(relativeInside(skill, path.join(base, 'secret.txt')), undefined);
    assert.equal(relativeInside(skill, skill), '');
  });
});
