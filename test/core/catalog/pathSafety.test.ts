import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invokeRunSkill, invokeUpdateSkill } from '../../../src/core/catalog';
import { failed, makeWorld, ok, openCatalog, tempDir, writeSkill } from './catalogTestUtil';

/** A folder outside every skill root, with one file the model must never see or change. */
function outsideFolder(): string {
  const outside = tempDir('outside-');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
  return outside;
}

/** A workspace skill `report` whose `references` folder links to {@link outsideFolder} and whose `leak.md` links to its secret. */
async function reportLinkingOut() {
  const w = makeWorld();
  const outside = outsideFolder();
  const dir = writeSkill(w.workspace, 'report');
  fs.symlinkSync(outside, path.join(dir, 'references'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'leak.md'));
  return { outside, dir, catalog: await openCatalog(w) };
}

describe('catalog: paths never leave the skill folder through symbolic links', () => {
  it('inspect refuses a file reached through a linked folder or a linked file that points outside', async () => {
    const { outside, dir, catalog } = await reportLinkingOut();
    for (const file of ['references/secret.txt', 'leak.md']) {
      const err = failed(await invokeRunSkill(catalog, { action: 'inspect', skill: 'report', file }));
      assert.equal(err.code, 'unsafe_path', file);
      assert.match(err.message, /symbolic link .* outside the skill folder/);
      assert.doesNotMatch(JSON.stringify(err), /TOP SECRET/);
    }
  });

  it('replace and patch refuse to write through a link out of the skill; nothing lands outside', async () => {
    const { outside, dir, catalog } = await reportLinkingOut();
    assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'report', file: 'references/new.txt', content: 'pwned\n' })).code, 'unsafe_path');
    assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'report', file: 'references/secret.txt', content: 'pwned\n' })).code, 'unsafe_path');
    assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', file: 'leak.md', edits: [{ startLine: 1, newText: 'pwned' }] })).code, 'unsafe_path');
    assert.deepEqual(fs.readdirSync(outside), ['secret.txt']);
    assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
    assert.ok(fs.lstatSync(path.join(dir, 'leak.md')).isSymbolicLink(), 'the link itself is left alone');
  });

  it('a plugin skill (overlay) with a link out is refused too', async () => {
    const w = makeWorld();
    const outside = outsideFolder();
    const dir = writeSkill(w.plugin, 'tool');
    fs.symlinkSync(outside, path.join(dir, 'references'));
    const catalog = await openCatalog(w);
    assert.equal(failed(await invokeRunSkill(catalog, { action: 'inspect', skill: 'plugin:acme.tools:tool', file: 'references/secret.txt' })).code, 'unsafe_path');
    assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'plugin:acme.tools:tool', file: 'references/secret.txt', content: 'x\n' })).code, 'unsafe_path');
    assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'TOP SECRET\n');
  });

  it('links that stay inside the skill, and a skill folder that is itself a link, keep working', async () => {
    const w = makeWorld();
    const real = writeSkill(tempDir('real-skill-'), 'linked', { files: { 'docs/guide.md': '# Guide\n' } });
    fs.symlinkSync(real, path.join(w.workspace, 'linked'));
    fs.symlinkSync('docs', path.join(real, 'references'));
    const catalog = await openCatalog(w);
    const r = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'linked', file: 'references/guide.md', view: 'raw' }));
    assert.equal((r as unknown as { content: string }).content, '# Guide\n');
    ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'linked', file: 'references/guide.md', content: '# Guide v2\n' }));
    assert.equal(fs.readFileSync(path.join(real, 'docs', 'guide.md'), 'utf8'), '# Guide v2\n');
  });
});

describe('catalog: file system refusals come back as tool failures', () => {
  it('a path too long for the file system, and a folder where a file is expected, name the problem and the fix', async () => {
    const w = makeWorld();
    writeSkill(w.workspace, 'report', { files: { 'scripts/run.sh': 'echo hi\n' } });
    const catalog = await openCatalog(w);
    const long = 'a'.repeat(300);
    const inspect = failed(await invokeRunSkill(catalog, { action: 'inspect', skill: 'report', file: long }));
    assert.equal(inspect.code, 'fs_enametoolong');
    assert.match(inspect.message, /too long .* shorter file name/);
    assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'report', file: long, content: 'x\n' })).code, 'fs_enametoolong');
    const dirAsFile = failed(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'report', file: 'scripts', content: 'x\n' }));
    assert.match(dirAsFile.code, /^fs_(eisdir|enotempty|eexist)$/);
    assert.match(dirAsFile.message, /folder|in the way|already exists/);
    assert.equal(fs.readFileSync(path.join(w.workspace, 'report', 'scripts', 'run.sh'), 'utf8'), 'echo hi\n');
  });
});

describe('catalog: restore trusts no archive manifest found on disk', () => {
  /** Plants `<ws>/.archived/<id>/manifest.json` (+ a folder `helper/` in the entry), as a checked-in repo could. */
  function plant(w: ReturnType<typeof makeWorld>, id: string, manifest: Record<string, unknown>): void {
    const entry = path.join(w.workspace, '.archived', id);
    writeSkill(entry, 'helper');
    fs.writeFileSync(path.join(entry, 'manifest.json'), JSON.stringify({ v: 1, id, archivedAt: '2026-01-01T00:00:00.000Z', versionRef: 'sha256:' + '0'.repeat(64), ...manifest }));
  }

  it('a manifest whose name climbs out cannot make restore move a folder from elsewhere', async () => {
    const w = makeWorld();
    const victim = tempDir('victim-');
    fs.writeFileSync(path.join(victim, 'keep.txt'), 'mine\n');
    const rel = path.relative(path.join(w.workspace, '.archived', 'evil-1'), victim);
    plant(w, 'evil-1', { name: rel, originalPath: path.join(w.workspace, 'stolen') });
    const catalog = await openCatalog(w);
    for (const skill of ['evil-1', rel]) assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'restore', skill })).code, 'not_archived');
    assert.equal(fs.readFileSync(path.join(victim, 'keep.txt'), 'utf8'), 'mine\n');
    assert.equal(fs.existsSync(path.join(w.workspace, 'stolen')), false);
  });

  it('a manifest whose originalPath points elsewhere restores into the skills root it was archived from', async () => {
    const w = makeWorld();
    const elsewhere = path.join(tempDir('elsewhere-'), 'autostart');
    plant(w, 'helper-1', { name: 'helper', originalPath: elsewhere });
    const catalog = await openCatalog(w);
    const r = ok(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'helper' }));
    assert.equal((r as unknown as { path: string }).path, path.join(w.workspace, 'helper'));
    assert.equal(fs.existsSync(elsewhere), false);
    assert.ok(fs.existsSync(path.join(w.workspace, 'helper', 'SKILL.md')));
  });

  it('an unreadable manifest is skipped, not thrown', async () => {
    const w = makeWorld();
    fs.mkdirSync(path.join(w.workspace, '.archived', 'torn-1'), { recursive: true });
    fs.writeFileSync(path.join(w.workspace, '.archived', 'torn-1', 'manifest.json'), '{"v":1,"id":');
    const catalog = await openCatalog(w);
    assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'torn' })).code, 'not_archived');
  });
});
