import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  AmbiguousSkillError,
  BrokenSkillError,
  createAsyncNodeHost,
  createNodeHost,
  createFullChecker,
  createSkillRegistry,
  defaultSkillRoots,
  SkillNotFoundError,
  type RegistryChange,
  type SkillRecord,
  type SkillRoot,
  type SkillsHost,
} from '../../../src/core/registry';
import { parseSkillFile } from '../../../src/core/skill/parseSkillFile';
import { validateSkillContent } from '../../../src/core/skill/validateSkill';
import { createMemoryHost } from '../../../src/core/host';
import { FIXTURE, tempDir, writeMemSkill, writeSkill } from './registryTestUtil';
import { invalidUtf8Skill } from '../../support/hostileDocs';

const fixtureRoots = (): SkillRoot[] =>
  defaultSkillRoots({
    workspaceFolders: [path.join(FIXTURE, 'workspace')],
    homeDir: path.join(FIXTURE, 'home'),
    pluginRoots: [{ path: path.join(FIXTURE, 'plugin/skills'), source: 'acme.pdf-tools' }],
  });

function byId(records: readonly SkillRecord[], id: string): SkillRecord {
  const r = records.find((x) => x.id === id);
  assert.ok(r, `no record ${id}; have ${records.map((x) => x.id).join(', ')}`);
  return r;
}

describe('skill registry over the fixture roots', () => {
  let records: readonly SkillRecord[];
  const registry = createSkillRegistry({ roots: fixtureRoots() });
  before(async () => {
    records = (await registry.refresh()).records;
  });

  it('finds every skill folder and ignores folders without SKILL.md', () => {
    assert.deepEqual(
      records.map((r) => r.id),
      [
        'workspace:broken-one',
        'workspace:lower',
        'workspace:pdf',
        'user:pdf',
        'plugin:acme.pdf-tools:pdf',
        'plugin:acme.pdf-tools:plug-only',
        'user:solo',
        `workspace:twin@${path.join(FIXTURE, 'workspace/.agents/skills/twin-copy')}`,
        `workspace:twin@${path.join(FIXTURE, 'workspace/.claude/skills/twin')}`,
      ],
    );
    assert.ok(!records.some((r) => r.rootDir.endsWith('notes')));
  });

  it('project wins over user over plugin, and the losers say who shadows them', () => {
    const project = byId(records, 'workspace:pdf');
    assert.equal(project.status, 'ok');
    assert.deepEqual(project.shadows, ['user:pdf', 'plugin:acme.pdf-tools:pdf']);
    for (const id of ['user:pdf', 'plugin:acme.pdf-tools:pdf']) {
      assert.equal(byId(records, id).status, 'shadowed');
      assert.equal(byId(records, id).shadowedBy, 'workspace:pdf');
    }
    assert.equal(registry.resolve('pdf').location, path.join(FIXTURE, 'workspace/.github/skills/pdf/SKILL.md'));
    assert.equal(registry.resolve('user:pdf').description, 'User PDF skill, shadowed by the project one.');
  });

  it('fills in seed 000 record fields, scope and a sha256 digest of the file bytes', async () => {
    const r = byId(records, 'user:solo');
    const file = path.join(FIXTURE, 'home/.copilot/skills/solo/SKILL.md');
    assert.equal(r.location, file);
    assert.equal(r.rootDir, path.dirname(file));
    assert.equal(r.scope, 'user');
    assert.deepEqual(r.properties, { name: 'solo', description: 'Only in the user scope.' });
    const { createHash } = await import('node:crypto');
    assert.equal(r.digest, `sha256:${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}`);
  });

  it('reports two skills of one name in one scope as ambiguous, and resolve fails listing both', () => {
    const twins = records.filter((r) => r.name === 'twin');
    assert.equal(twins.length, 2);
    for (const t of twins) {
      assert.equal(t.status, 'ambiguous');
      assert.deepEqual(t.ambiguousWith, twins.filter((o) => o !== t).map((o) => o.id));
    }
    assert.throws(
      () => registry.resolve('twin'),
      (e: unknown) => e instanceof AmbiguousSkillError && e.ids.length === 2 && twins.every((t) => e.message.includes(t.id)),
    );
    assert.equal(registry.resolve(twins[0].id).id, twins[0].id, 'an ambiguous skill can still be picked by id');
    assert.ok(!registry.usable().some((r) => r.name === 'twin'));
  });

  it('keeps a skill that fails to parse as a broken entry with its diagnostics', () => {
    const b = byId(records, 'workspace:broken-one');
    assert.equal(b.status, 'broken');
    assert.equal(b.name, 'broken-one', 'name falls back to the folder name');
    assert.ok(b.diagnostics.some((d) => d.rule === 'frontmatter-unclosed' && d.severity === 'error'));
    assert.throws(() => registry.resolve('broken-one'), BrokenSkillError);
  });

  it('reads skill.md when SKILL.md is absent', () => {
    assert.equal(byId(records, 'workspace:lower').location, path.join(FIXTURE, 'workspace/.claude/skills/lower/skill.md'));
  });

  it('usable() lists the ok winners sorted by name', () => {
    assert.deepEqual(registry.usable().map((r) => r.id), ['workspace:lower', 'workspace:pdf', 'plugin:acme.pdf-tools:plug-only', 'user:solo']);
  });

  it('suggests close names when a skill is not found', () => {
    assert.throws(
      () => registry.resolve('pfd'),
      (e: unknown) => e instanceof SkillNotFoundError && e.suggestions[0] === 'pdf' && /Did you mean 'pdf'/.test(e.message),
    );
    assert.throws(() => registry.resolve('zzzzzzzzzz'), (e: unknown) => e instanceof SkillNotFoundError && e.suggestions.length === 0);
  });

  it('gives the same records through the asynchronous fs host', async () => {
    const other = createSkillRegistry({ roots: fixtureRoots(), host: createAsyncNodeHost(), concurrency: 3 });
    // The records' fields (the stamps are not among them: a cold scan on the sync host reads without them).
    const fields = (rs: readonly SkillRecord[]) => JSON.parse(JSON.stringify(rs));
    assert.deepEqual(fields((await other.refresh()).records), fields(records));
  });
});

describe('skill registry digests', () => {
  const sha = (bytes: Buffer | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const head = (name: string) => `---\nname: ${name}\ndescription: Digest case ${name}. Use in tests.\n---\n`;
  // Each file's digest is the sha256 of its bytes, whether the registry kept the text (small, valid UTF-8)
  // or the bytes (large, or decoding replaced something) for it.
  const cases: [string, Buffer][] = [
    ['ascii', Buffer.from(`${head('ascii')}\nPlain text.\n`)],
    ['utf8', Buffer.from(`${head('utf8')}\nÜmlaut, 中文, emoji 🎉 and a literal \uFFFD.\n`)],
    ['bom', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${head('bom')}\nAfter a BOM.\n`)])],
    ['crlf', Buffer.from(`${head('crlf')}\r\nWindows lines.\r\n`.replace(/\n/g, '\r\n').replace(/\r\r/g, '\r'))],
    ['invalid', Buffer.concat([Buffer.from(`${head('invalid')}\nBytes that are not UTF-8: `), Buffer.from([0xc3, 0x28, 0xff, 0xed, 0xa0, 0x80]), Buffer.from('\n')])],
    ['large', Buffer.from(`${head('large')}\n${'A long body line that makes the file larger than four kilobytes.\n'.repeat(100)}`)],
    ['large-utf8', Buffer.from(`${head('large-utf8')}\n${'Zeile mit Umlauten: äöü, und noch mehr Text für die Länge.\n'.repeat(100)}`)],
  ];

  it('is the sha256 of the file bytes for every kind of file, also in JSON', async () => {
    const root = tempDir();
    for (const [name, bytes] of cases) {
      fs.mkdirSync(path.join(root, name));
      fs.writeFileSync(path.join(root, name, 'SKILL.md'), bytes);
    }
    const registry = createSkillRegistry({ roots: [{ path: root, scope: 'user' }] });
    const { records } = await registry.refresh();
    assert.equal(records.length, cases.length);
    const json = JSON.parse(JSON.stringify(records)) as SkillRecord[];
    for (const [name, bytes] of cases) {
      const r = records.find((x) => x.rootDir.endsWith(`${path.sep}${name}`));
      assert.ok(r, name);
      assert.equal(r.digest, sha(bytes), name);
      assert.equal(r.digest, r.digest, 'asking twice gives the same digest');
      const j = json.find((x) => x.id === r.id)!;
      assert.equal(j.digest, sha(bytes), `${name} in JSON`);
      assert.deepEqual(Object.keys(j).sort(), ['description', 'diagnostics', 'digest', 'id', 'location', 'name', 'properties', 'root', 'rootDir', 'scope', 'shadows', 'status']);
    }
    // The large files' values are the same as any other's (they are copies that do not keep the text).
    const large = records.find((x) => x.rootDir.endsWith(`${path.sep}large-utf8`))!;
    assert.deepEqual(large.properties, { name: 'large-utf8', description: 'Digest case large-utf8. Use in tests.' });
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is the digest of the file as read, not as it is when the digest is asked for', async () => {
    const root = tempDir();
    const dir = writeSkill(root, 'changing');
    const before = fs.readFileSync(path.join(dir, 'SKILL.md'));
    const registry = createSkillRegistry({ roots: [{ path: root, scope: 'user' }] });
    const [r] = (await registry.refresh()).records;
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `${before.toString()}\nChanged after the scan.\n`);
    assert.equal(r.digest, sha(before));
    const [again] = (await registry.refresh()).records;
    assert.equal(again.digest, sha(fs.readFileSync(path.join(dir, 'SKILL.md'))));
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is empty for a file that cannot be read, and the sha256 of nothing for an empty file', async function () {
    const root = tempDir();
    const empty = path.join(root, 'empty');
    fs.mkdirSync(empty);
    fs.writeFileSync(path.join(empty, 'SKILL.md'), '');
    const locked = writeSkill(root, 'locked');
    fs.chmodSync(path.join(locked, 'SKILL.md'), 0o000);
    const { records } = await createSkillRegistry({ roots: [{ path: root, scope: 'user' }] }).refresh();
    assert.equal(records.find((r) => r.name === 'empty')!.digest, sha(Buffer.alloc(0)));
    const lockedRecord = records.find((r) => r.name === 'locked')!;
    if (process.getuid?.() === 0) {
      console.log('      note: running as root, a mode-000 file is still readable; checking its digest is that of its bytes');
      assert.equal(lockedRecord.digest, sha(fs.readFileSync(path.join(locked, 'SKILL.md'))));
    } else {
      assert.equal(lockedRecord.digest, '');
      assert.equal(lockedRecord.status, 'broken');
    }
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('skill registry on changing folders', () => {
  it('prefers SKILL.md over skill.md in the same folder', async function () {
    const root = tempDir();
    writeSkill(root, 'both', { name: 'upper' });
    fs.writeFileSync(path.join(root, 'both', 'skill.md'), '---\nname: lower\ndescription: x\n---\n');
    if (fs.readdirSync(path.join(root, 'both')).length < 2) this.skip(); // case-insensitive file system
    const reg = createSkillRegistry({ roots: [{ path: root, scope: 'workspace' }] });
    const [r] = (await reg.refresh()).records;
    assert.equal(r.name, 'upper');
    assert.equal(path.basename(r.location), 'SKILL.md');
  });

  it('ignores files, dot-folders and missing roots', async () => {
    const root = path.resolve('/mem/root');
    const host = createMemoryHost({ [path.join(root, 'SKILL.md')]: '---\nname: root-file\ndescription: x\n---\n' });
    writeMemSkill(host, root, 'real');
    writeMemSkill(host, root, '.hidden');
    const reg = createSkillRegistry({ host, roots: [{ path: root, scope: 'workspace' }, { path: path.join(root, 'nope'), scope: 'user' }] });
    assert.deepEqual((await reg.refresh()).records.map((r) => r.id), ['workspace:real']);
  });

  it('picks up new, changed and deleted skills on refresh, rereading only changed files', async () => {
    const root = path.resolve('/mem/user');
    const host = createMemoryHost();
    writeMemSkill(host, root, 'a');
    writeMemSkill(host, root, 'b');
    const reg = createSkillRegistry({ host, roots: [{ path: root, scope: 'user' }] });
    const changes: RegistryChange[] = [];
    reg.onDidChange((c) => changes.push(c));
    let snap = await reg.refresh();
    assert.deepEqual(snap.stats, { ...snap.stats, skills: 2, loaded: 2, reused: 0 });
    assert.deepEqual(changes[0].added, ['user:a', 'user:b']);

    const readsBefore = host.calls.readFile;
    snap = await reg.refresh();
    assert.equal(snap.stats.reused, 2, 'unchanged files are not read again');
    assert.equal(host.calls.readFile, readsBefore, 'no file was read for the unchanged skills');
    assert.equal(changes.length, 1, 'no change event without a change');

    writeMemSkill(host, root, 'c');
    writeMemSkill(host, root, 'a', { description: 'A longer, changed description.' });
    host.remove(path.join(root, 'b'));
    snap = await reg.refresh();
    assert.deepEqual(snap.records.map((r) => r.id), ['user:a', 'user:c']);
    assert.equal(reg.resolve('a').description, 'A longer, changed description.');
    assert.deepEqual(changes[1], { snapshot: snap, added: ['user:c'], removed: ['user:b'], changed: ['user:a'] });
    assert.deepEqual([snap.stats.loaded, snap.stats.reused], [2, 0], 'a (changed) and c (new) were read; b is gone');
  });

  it('refreshSkill rereads one folder even when its stamps look unchanged, and drops it when it is gone', async () => {
    const root = tempDir();
    const dir = writeSkill(root, 'x', { description: 'one' });
    const file = path.join(dir, 'SKILL.md');
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    const reg = createSkillRegistry({ roots: [{ path: root, scope: 'workspace' }] });
    await reg.refresh();
    await reg.refresh(); // the first rescan compares the content read without a stamp, and records the stamp
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('one', 'two'));
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000); // same size and mtime: only a forced reread sees it
    assert.equal(reg.resolve('x').description, 'one');
    assert.equal((await reg.refresh()).stats.reused, 1);
    await reg.refreshSkill(dir);
    assert.equal(reg.resolve('x').description, 'two');
    fs.rmSync(dir, { recursive: true });
    assert.deepEqual((await reg.refreshSkill(dir)).records, []);
  });

  it('a cold scan reads without stamps; the first rescan compares content once (seeing even a same-size, same-mtime change), then stats only', async () => {
    const root = tempDir();
    const dirs = ['a', 'b', 'c'].map((n) => writeSkill(root, n, { description: `first ${n}` }));
    const files = dirs.map((d) => path.join(d, 'SKILL.md'));
    for (const f of files) fs.utimesSync(f, 1_700_000_000, 1_700_000_000);
    const node = createNodeHost();
    const reads: string[] = [];
    const host: SkillsHost = { ...node, readFile: (f, o) => (reads.push(`${path.basename(path.dirname(f))}${o?.stampless ? ' stampless' : ''}`), node.readFile(f, o)) };
    const reg = createSkillRegistry({ roots: [{ path: root, scope: 'workspace' }], host });
    await reg.refresh();
    assert.deepEqual(reads.sort(), ['a stampless', 'b stampless', 'c stampless']);
    assert.ok(reg.all().every((r) => Number.isNaN((r as unknown as { mtimeMs: number }).mtimeMs)), 'a cold scan of small files asks no stamp');
    // b changes behind the registry's back: same size, mtime put back. A stamp comparison alone would miss it.
    fs.writeFileSync(files[1], fs.readFileSync(files[1], 'utf8').replace('first', 'later'));
    fs.utimesSync(files[1], 1_700_000_000, 1_700_000_000);
    reads.length = 0;
    const first = await reg.refresh();
    assert.equal(reg.resolve('b').description, 'later b');
    assert.deepEqual([first.stats.reused, first.stats.loaded], [2, 1]);
    assert.deepEqual(reads.sort(), ['a', 'b', 'b', 'c'], 'each file is read once, stamped, to compare; b again to load it');
    reads.length = 0;
    const second = await reg.refresh();
    assert.deepEqual([second.stats.reused, reads], [3, []], 'stamps are known now: the next rescan reads nothing');
    fs.writeFileSync(files[0], fs.readFileSync(files[0], 'utf8').replace('first a', 'changed a, longer'));
    await reg.refresh();
    assert.equal(reg.resolve('a').description, 'changed a, longer');
  });

  it('the content comparison of the first rescan holds for a file kept by digest (invalid UTF-8) too', async () => {
    const root = tempDir();
    const file = path.join(root, 'odd', 'SKILL.md');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, invalidUtf8Skill('odd'));
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    const reg = createSkillRegistry({ roots: [{ path: root, scope: 'user' }] });
    await reg.refresh();
    assert.equal((await reg.refresh()).stats.reused, 1, 'the same bytes: reused, and the stamp recorded');
    const other = createSkillRegistry({ roots: [{ path: root, scope: 'user' }] });
    await other.refresh();
    // One byte changed, same size and mtime: the digest comparison of the first rescan sees it.
    const bytes = invalidUtf8Skill('odd');
    bytes[bytes.length - 2] = 0x78;
    fs.writeFileSync(file, bytes);
    fs.utimesSync(file, 1_700_000_000, 1_700_000_000);
    const snap = await other.refresh();
    assert.deepEqual([snap.stats.reused, snap.stats.loaded], [0, 1]);
  });

  it('refreshRoot rescans one root only', async () => {
    const project = path.resolve('/mem/ws');
    const user = path.resolve('/mem/home');
    const host = createMemoryHost();
    writeMemSkill(host, project, 'p');
    const reg = createSkillRegistry({ host, roots: [{ path: project, scope: 'workspace' }, { path: user, scope: 'user' }] });
    await reg.refresh();
    writeMemSkill(host, user, 'p');
    writeMemSkill(host, project, 'q');
    const snap = await reg.refreshRoot(user);
    assert.deepEqual(snap.records.map((r) => `${r.id}=${r.status}`), ['workspace:p=ok', 'user:p=shadowed']);
    assert.equal(reg.resolve('user:p').shadowedBy, 'workspace:p');
  });

  it('lets a lower scope win when the higher one is broken, and keeps both visible', async () => {
    const project = path.resolve('/mem/ws');
    const user = path.resolve('/mem/home');
    const host = createMemoryHost();
    writeMemSkill(host, project, 'same', { text: 'no frontmatter at all\n' });
    writeMemSkill(host, user, 'same');
    const reg = createSkillRegistry({ host, roots: [{ path: user, scope: 'user' }, { path: project, scope: 'workspace' }] });
    const snap = await reg.refresh();
    assert.deepEqual(snap.records.map((r) => `${r.id}=${r.status}`), ['workspace:same=broken', 'user:same=ok']);
    assert.equal(reg.resolve('same').id, 'user:same');
  });

  it('validates with the validator in lenient mode by default and strict when asked', async () => {
    const root = path.resolve('/mem/ws');
    const host = createMemoryHost();
    writeMemSkill(host, root, 'folder-name', { name: 'other-name' });
    const lenient = createSkillRegistry({ host, roots: [{ path: root, scope: 'workspace' }] });
    const [l] = (await lenient.refresh()).records;
    assert.equal(l.status, 'ok');
    assert.ok(l.diagnostics.some((d) => d.rule === 'name-folder-mismatch' && d.severity === 'warning'));
    const strict = createSkillRegistry({ host, roots: [{ path: root, scope: 'workspace' }], mode: 'strict' });
    const [s] = (await strict.refresh()).records;
    assert.equal(s.status, 'broken');
    assert.ok(s.diagnostics.some((d) => d.rule === 'name-folder-mismatch' && d.severity === 'error'));
  });

  it('adds reference and secret warnings with the full checker, without changing the status', async () => {
    const root = tempDir();
    const dir = writeSkill(root, 'leaky', { text: '---\nname: leaky\ndescription: Has a key.\n---\n\nRun [the script](scripts/missing.py).\n' });
    // Built at run time so no credential-shaped literal sits in the repository.
    fs.writeFileSync(path.join(dir, 'notes.txt'), `token: ${'ghp_' + 'a1B2c3D4e5'.repeat(4)}\n`);
    const [content] = (await createSkillRegistry({ roots: [{ path: root, scope: 'user' }] }).refresh()).records;
    const [full] = (await createSkillRegistry({ roots: [{ path: root, scope: 'user' }], check: createFullChecker() }).refresh()).records;
    assert.ok(!content.diagnostics.some((d) => d.rule === 'reference-missing'));
    assert.ok(full.diagnostics.some((d) => d.rule === 'reference-missing'), JSON.stringify(full.diagnostics.map((d) => d.rule)));
    assert.ok(full.diagnostics.some((d) => d.rule === 'secret-detected' && d.file === 'notes.txt'), JSON.stringify(full.diagnostics.map((d) => [d.rule, d.file])));
    assert.equal(full.status, 'ok');
    assert.equal(content.status, 'ok');
  });

  it("reports exactly the validator's findings, ranges included, for simple and YAML-parsed files in both modes", async () => {
    const root = tempDir();
    const texts: Record<string, string> = {
      mismatch: '---\nname: Other--Name\ndescription: has <b>xml</b>\nversion: 1.0\nfoo: bar\nuser-invocable: maybe\n---\nbody\n',
      meta: '---\nname: meta\nmetadata:\n  a: 1\n  b: two\ncompatibility: ' + 'c'.repeat(600) + '\n---\n',
      nameless: '---\ndescription: ' + 'd'.repeat(1100) + '\nallowed-tools: Read\n---\n',
      'claude-long': '---\nname: claude-long\n---\n' + 'line\n'.repeat(600),
      crlf: '---\r\nname: crlf\r\nmetadata:\r\n  v: 1\r\nhooks: y\r\n---\r\nbody\r\n',
      quoted: '---\nname: "quoted"\ndescription: >\n  folded\nmetadata:\n  list: [a]\n---\n',
    };
    for (const [folder, text] of Object.entries(texts)) writeSkill(root, folder, { text });
    for (const mode of ['lenient', 'strict'] as const) {
      const { records } = await createSkillRegistry({ roots: [{ path: root, scope: 'user' }], mode }).refresh();
      assert.equal(records.length, Object.keys(texts).length);
      for (const r of records) {
        const folder = path.basename(r.rootDir);
        const expected = validateSkillContent({ parsed: parseSkillFile(texts[folder]), folderName: folder, fileName: 'SKILL.md' }, { mode }).diagnostics;
        assert.ok(expected.length > 0, folder);
        assert.deepStrictEqual(r.diagnostics, expected, `${folder} (${mode})`);
      }
    }
  });

  it('uses the configured checker and mode; any error makes the skill broken', async () => {
    const root = tempDir();
    writeSkill(root, 'fine');
    const seen: string[] = [];
    const reg = createSkillRegistry({
      roots: [{ path: root, scope: 'pack', source: 'starter' }],
      mode: 'strict',
      check: ({ parsed, mode, fileName }) => {
        seen.push(`${mode}:${fileName}`);
        return [{ rule: 'demo', severity: 'error', message: `bad ${String(parsed.properties.name)}`, range: parsed.fields[0].keyRange }];
      },
    });
    const [r] = (await reg.refresh()).records;
    assert.deepEqual(seen, ['strict:SKILL.md']);
    assert.equal(r.id, 'pack:starter:fine');
    assert.equal(r.status, 'broken');
    assert.equal(r.diagnostics[0].message, 'bad fine');
  });
});
