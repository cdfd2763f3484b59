// Red team of the edit path rule on the disk, through the catalog's updateSkill: nothing an edit writes may land
// outside the skill folder (or, for a read-only skill, its overlay), whatever `..`, absolute path, link (at any
// depth, dangling, chained) or archive folder the skill or the workspace holds. Each test lists the outside folder
// afterwards: a file created there, or a changed secret, fails it.
//
// Not closed, and so not tested here: a folder swapped for a link out *after* resolveInsideReal answered and before
// the host's writeFile ran (its mkdir, temp file and rename follow the new link) still writes outside. Node has no
// openat/O_NOFOLLOW per path component to close that window; it needs a process that can already write the skill.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeUpdateSkill, SkillCatalog } from '../../../src/core/catalog';
import { createNodeHost } from '../../../src/core/host/nodeHost';
import { failed, makeWorld, ok, openCatalog, tempDir, writeSkill, type World } from './catalogTestUtil';

/** A folder outside every root, holding one secret. */
function outsideFolder(): string {
  const outside = tempDir('edit-escape-outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
  return outside;
}

/** Every path under `dir` (relative, sorted), links listed as links. */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string): void => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      out.push(r);
      if (e.isDirectory()) walk(path.join(abs, e.name), r);
    }
  };
  walk(dir, '');
  return out.sort();
}

function assertUntouched(outside: string): void {
  assert.deepEqual(tree(outside), ['secret.txt'], 'something was written outside the skill');
  assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
}

const replace = (catalog: SkillCatalog, skill: string, file: string, content = 'pwned\n') => invokeUpdateSkill(catalog, { action: 'replace', skill, file, content });

describe('catalog red team: updateSkill never writes outside the skill folder or its overlay', () => {
  let outside: string;
  let w: World;
  beforeEach(() => {
    outside = outsideFolder();
    w = makeWorld();
  });

  it('refuses `..`, absolute, home, percent-encoded, backslash and NUL paths, for a source and an overlay skill', async () => {
    writeSkill(w.workspace, 'report');
    writeSkill(w.plugin, 'tool');
    const catalog = await openCatalog(w);
    const fromSkill = path.relative(path.join(w.workspace, 'report'), path.join(outside, 'new.txt'));
    const bad = [
      '../../escape.txt',
      fromSkill,
      fromSkill.split('/').join('\\'),
      `references/../../${fromSkill}`,
      path.join(outside, 'new.txt'),
      path.join(outside, 'secret.txt'),
      '~/escape.txt',
      '%2e%2e/%2e%2e/escape.txt',
      'ok.txt\0/../../escape.txt',
      'C:/escape.txt',
    ];
    for (const skill of ['report', 'plugin:acme.tools:tool']) {
      for (const file of bad) {
        const err = failed(await replace(catalog, skill, file));
        assert.match(err.code, /^(unsafe_path|invalid_input)$/, `${skill} ${JSON.stringify(file)}: ${err.code} ${err.message}`);
      }
    }
    assertUntouched(outside);
    assert.equal(fs.existsSync(path.join(w.base, 'escape.txt')), false);
    assert.equal(fs.existsSync(path.join(w.workspace, 'escape.txt')), false);
  });

  it('refuses a link out at any depth, for the file itself and for any folder above it', async () => {
    const dir = writeSkill(w.workspace, 'report', { files: { 'docs/deep/keep.md': 'keep\n' } });
    fs.symlinkSync(outside, path.join(dir, 'docs', 'deep', 'sub'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'docs', 'deep', 'leak.md'));
    fs.symlinkSync(path.join(dir, 'docs', 'deep', 'sub'), path.join(dir, 'chained')); // inside link → link out
    const catalog = await openCatalog(w);
    for (const file of ['docs/deep/sub/new.md', 'docs/deep/sub/secret.txt', 'docs/deep/leak.md', 'chained/new.md', 'chained/secret.txt', 'docs/deep/sub/a/b/c.md']) {
      const err = failed(await replace(catalog, 'report', file));
      assert.equal(err.code, 'unsafe_path', `${file}: ${err.code} ${err.message}`);
      assert.match(err.message, /symbolic link/);
    }
    assertUntouched(outside);
  });

  it('a dangling link out (to a file or a folder that does not exist yet) is never created through', async () => {
    const dir = writeSkill(w.workspace, 'report');
    fs.symlinkSync(path.join(outside, 'created.md'), path.join(dir, 'notes.md'));
    fs.symlinkSync(path.join(outside, 'newdir'), path.join(dir, 'refs'));
    fs.symlinkSync(path.join(outside, 'a', 'b'), path.join(dir, 'deeper'));
    const catalog = await openCatalog(w);
    for (const file of ['notes.md', 'refs/x.md', 'deeper/x.md']) {
      const r = await replace(catalog, 'report', file, 'written\n');
      if (r.ok) {
        // Allowed only as a replacement of the link itself by a file inside the skill.
        const st = fs.lstatSync(path.join(dir, file));
        assert.ok(st.isFile(), `${file} was written, but not as a regular file inside the skill`);
      }
    }
    assertUntouched(outside);
  });

  it('a chain that leaves the skill and re-enters it writes inside only (the link replaced, nothing outside)', async () => {
    const dir = writeSkill(w.workspace, 'report', { files: { 'real.md': 'real\n' } });
    fs.symlinkSync(path.join(dir, 'real.md'), path.join(outside, 'hop.md'));
    fs.symlinkSync(path.join(outside, 'hop.md'), path.join(dir, 'via.md'));
    const catalog = await openCatalog(w);
    const r = await replace(catalog, 'report', 'via.md', 'via\n');
    if (r.ok) assert.equal(fs.readFileSync(path.join(dir, 'via.md'), 'utf8'), 'via\n');
    assert.ok(fs.lstatSync(path.join(outside, 'hop.md')).isSymbolicLink(), 'the outside link was replaced');
    assert.deepEqual(tree(outside), ['hop.md', 'secret.txt']);
    assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  });

  it('a link planted in a read-only skill\'s overlay folder is refused too', async () => {
    writeSkill(w.plugin, 'tool');
    const catalog = await openCatalog(w);
    const overlay = catalog.overlayDir('plugin:acme.tools:tool');
    fs.mkdirSync(overlay, { recursive: true });
    fs.symlinkSync(outside, path.join(overlay, 'references'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(overlay, 'notes.md'));
    for (const file of ['references/new.md', 'references/secret.txt', 'notes.md']) {
      const err = failed(await replace(catalog, 'plugin:acme.tools:tool', file));
      assert.equal(err.code, 'unsafe_path', `${file}: ${err.code} ${err.message}`);
    }
    assertUntouched(outside);
  });

  it('restoring a revision writes through the same rule: a folder swapped for a link out since the edit is refused', async () => {
    const dir = writeSkill(w.workspace, 'report', { files: { 'references/guide.md': 'v1\n' } });
    const catalog = await openCatalog(w);
    ok(await replace(catalog, 'report', 'references/guide.md', 'v2\n'));
    fs.rmSync(path.join(dir, 'references'), { recursive: true });
    fs.symlinkSync(outside, path.join(dir, 'references'));
    const err = failed(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'report', file: 'references/guide.md', revision: 1 }));
    assert.equal(err.code, 'unsafe_path', err.message);
    assertUntouched(outside);
  });

  it('a folder swapped for a link out after the edit was read and checked (before the path rule runs) is refused', async () => {
    const dir = writeSkill(w.workspace, 'report', { files: { 'references/keep.md': 'keep\n' } });
    const target = path.join(dir, 'references', 'new.md');
    const node = createNodeHost();
    let reads = 0;
    // The second read of the new file is writeSkillFile's last look before it resolves the path and writes:
    // a swap there is what a concurrent process could do while the edit was validated.
    const host = {
      ...node,
      readFile: (file: string, options?: Parameters<typeof node.readFile>[1]) => {
        if (file === target && ++reads === 2) {
          fs.rmSync(path.join(dir, 'references'), { recursive: true });
          fs.symlinkSync(outside, path.join(dir, 'references'));
        }
        return node.readFile(file, options);
      },
    };
    const catalog = await SkillCatalog.open({ roots: w.roots, stateDir: w.stateDir, host });
    const err = failed(await replace(catalog, 'report', 'references/new.md'));
    assert.ok(reads >= 2, `the swap did not happen (${reads} reads)`);
    assert.equal(err.code, 'unsafe_path', err.message);
    assertUntouched(outside);
  });

  it('archive never moves a skill out of its root through a `.archived` that is a link out (a checked-in repo may hold one)', async () => {
    const dir = writeSkill(w.workspace, 'report');
    fs.symlinkSync(outside, path.join(w.workspace, '.archived'));
    const catalog = await openCatalog(w);
    const err = failed(await invokeUpdateSkill(catalog, { action: 'archive', skill: 'report' }));
    assert.equal(err.code, 'unsafe_path', err.message);
    assert.match(err.message, /\.archived.*symbolic link/);
    assertUntouched(outside);
    assert.equal(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8').includes('name: report'), true, 'a refused archive leaves the skill in place');
  });

  it('restore never moves a folder in from where a `.archived` link points', async () => {
    const id = 'helper-20260101T000000Z-abcdef';
    writeSkill(path.join(outside, id), 'helper');
    fs.writeFileSync(path.join(outside, id, 'manifest.json'), JSON.stringify({ v: 1, id, name: 'helper', originalPath: path.join(w.workspace, 'helper'), archivedAt: '2026-01-01T00:00:00.000Z', versionRef: 'sha256:' + '0'.repeat(64) }));
    fs.symlinkSync(outside, path.join(w.workspace, '.archived'));
    const catalog = await openCatalog(w);
    const err = failed(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'helper' }));
    assert.equal(err.code, 'unsafe_path', err.message);
    assert.equal(fs.existsSync(path.join(w.workspace, 'helper')), false);
    assert.ok(fs.existsSync(path.join(outside, id, 'helper', 'SKILL.md')), 'the folder the link points at stays where it is');
  });

  it('archive and restore through a real `.archived` folder still work (the check refuses links out only)', async () => {
    writeSkill(w.workspace, 'report');
    const catalog = await openCatalog(w);
    ok(await invokeUpdateSkill(catalog, { action: 'archive', skill: 'report' }));
    assert.equal(fs.existsSync(path.join(w.workspace, 'report')), false);
    ok(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'report' }));
    assert.ok(fs.existsSync(path.join(w.workspace, 'report', 'SKILL.md')));
  });
});
