import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { installPack, PackError, type PackErrorCode } from '../../../src/core/packs';
import { buildTar, buildZip } from '../../support/archiveBuilder';
import { listTree, makeTempDir } from '../../support/tempDir';

const skillMd = (name: string): string => `---\nname: ${name}\ndescription: test skill ${name}\n---\nBody of ${name}.\n`;

describe('packs/installPack: extraction', () => {
  let dir: string;
  let cleanup: () => void;
  let cache: string;
  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
    cache = path.join(dir, 'cache');
    fs.mkdirSync(path.join(dir, 'archives'));
  });
  afterEach(() => cleanup());

  function write(name: string, data: Buffer): string {
    const p = path.join(dir, 'archives', name);
    fs.writeFileSync(p, data);
    return p;
  }

  it('extracts a zip pack and finds each child folder with SKILL.md, keeping exec bits', async () => {
    const zip = write('pack.zip', buildZip([
      { name: 'pdf/' },
      { name: 'pdf/SKILL.md', data: skillMd('pdf') },
      { name: 'pdf/scripts/fill.py', data: 'print(1)\n', mode: 0o100755 },
      { name: 'docx/SKILL.md', data: skillMd('docx') },
      { name: 'notes/readme.txt', data: 'not a skill' },
    ]));
    const pack = await installPack(zip, { cacheDir: cache });
    assert.equal(pack.root, path.join(cache, 'packs', pack.sha256));
    assert.deepEqual(pack.skills.map((s) => path.basename(s)), ['docx', 'pdf']);
    assert.equal(fs.readFileSync(path.join(pack.root, 'pdf', 'SKILL.md'), 'utf8'), skillMd('pdf'));
    assert.equal(fs.statSync(path.join(pack.root, 'pdf/scripts/fill.py')).mode & 0o111, 0o111);
    assert.deepEqual([pack.report.files, pack.report.skipped], [4, []]);
    assert.deepEqual(pack.cached, { download: false, extraction: false });
    const again = await installPack(zip, { cacheDir: cache });
    assert.deepEqual(again.cached, { download: false, extraction: true });
    assert.deepEqual(again.report, pack.report);
  });

  it('extracts .tar, .tar.gz and .tgz packs; a root SKILL.md makes the root the skill', async () => {
    const entries = [{ name: 'SKILL.md', data: skillMd('solo') }, { name: 'references/', type: '5' as const }, { name: 'references/a.md', data: 'a' }];
    for (const [name, gz] of [['solo.tar', false], ['solo.tar.gz', true], ['solo2.tgz', true]] as const) {
      const pack = await installPack(write(name, buildTar(name === 'solo2.tgz' ? [...entries, { name: 'x.md', data: 'x' }] : entries, gz)), { cacheDir: cache });
      assert.deepEqual(pack.skills, [pack.root], name);
      assert.equal(fs.readFileSync(path.join(pack.root, 'references', 'a.md'), 'utf8'), 'a');
    }
  });

  it('looks into a single wrapper folder (GitHub archive layout)', async () => {
    const pack = await installPack(write('gh.tar.gz', buildTar([{ name: 'repo-main/pdf/SKILL.md', data: skillMd('pdf') }], true)), { cacheDir: cache });
    assert.deepEqual(pack.skills, [path.join(pack.root, 'repo-main', 'pdf')]);
  });

  describe('hostile archives are refused with nothing written outside the cache', () => {
    const evilAbs = path.join('/tmp', `evil-${process.pid}-${Date.now()}`);
    const cases: { name: string; file: string; build: () => Buffer; code: PackErrorCode; entry: string }[] = [
      { name: 'zip with ../evil', file: 'a.zip', build: () => buildZip([{ name: 'ok/SKILL.md', data: skillMd('ok') }, { name: '../evil', data: 'pwned' }]), code: 'UNSAFE_ENTRY', entry: '../evil' },
      { name: 'zip with nested ../../evil', file: 'b.zip', build: () => buildZip([{ name: 'ok/../../evil', data: 'pwned' }]), code: 'UNSAFE_ENTRY', entry: 'ok/../../evil' },
      { name: 'zip with an absolute path', file: 'c.zip', build: () => buildZip([{ name: evilAbs, data: 'pwned' }]), code: 'UNSAFE_ENTRY', entry: evilAbs },
      { name: 'zip with a drive letter', file: 'd.zip', build: () => buildZip([{ name: 'C:\\evil', data: 'pwned' }]), code: 'UNSAFE_ENTRY', entry: 'C:\\evil' },
      { name: 'zip with a symlink pointing out', file: 'e.zip', build: () => buildZip([{ name: 'ok/SKILL.md', data: skillMd('ok') }, { name: 'ok/link', data: '/etc/passwd', mode: 0o120777 }]), code: 'LINK_ENTRY', entry: 'ok/link' },
      { name: 'tar with ../evil', file: 'f.tar', build: () => buildTar([{ name: 'ok/SKILL.md', data: skillMd('ok') }, { name: '../evil', data: 'pwned' }]), code: 'UNSAFE_ENTRY', entry: '../evil' },
      { name: 'tar.gz with an absolute path', file: 'g.tar.gz', build: () => buildTar([{ name: evilAbs, data: 'pwned' }], true), code: 'UNSAFE_ENTRY', entry: evilAbs },
      { name: 'tar with a symlink pointing out', file: 'h.tar', build: () => buildTar([{ name: 'ok/SKILL.md', data: skillMd('ok') }, { name: 'ok/link', type: '2', linkname: '../../../../etc/passwd' }]), code: 'LINK_ENTRY', entry: 'ok/link' },
      { name: 'tar with a hardlink', file: 'i.tar', build: () => buildTar([{ name: 'ok/hard', type: '1', linkname: '/etc/passwd' }]), code: 'LINK_ENTRY', entry: 'ok/hard' },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const archive = write(c.file, c.build());
        const before = listTree(dir).filter((p) => !p.startsWith('cache'));
        await assert.rejects(installPack(archive, { cacheDir: cache }), (e: unknown) => {
          assert.ok(e instanceof PackError, String(e));
          assert.equal(e.code, c.code, e.message);
          assert.deepEqual(e.entries, [c.entry]);
          assert.match(e.message, /refused/);
          return true;
        });
        assert.deepEqual(listTree(dir).filter((p) => !p.startsWith('cache')), before);
        assert.deepEqual(listTree(path.join(cache, 'packs')), [], 'no pack and no temp folder left');
        assert.ok(!fs.existsSync(evilAbs));
      });
    }

    it('skips links instead when asked, and reports them', async () => {
      const archive = write('skip.tar', buildTar([{ name: 'ok/SKILL.md', data: skillMd('ok') }, { name: 'ok/link', type: '2', linkname: '/etc/passwd' }]));
      const pack = await installPack(archive, { cacheDir: cache, links: 'skip' });
      assert.deepEqual(pack.report.skipped, [{ path: 'ok/link', reason: 'symlink to "/etc/passwd" (links are never extracted)' }]);
      assert.ok(!fs.existsSync(path.join(pack.root, 'ok', 'link')));
      assert.equal(pack.skills.length, 1);
    });
  });

  describe('duplicate entries are refused: extractors disagree on which one wins (issue 11, point 7)', () => {
    const first = skillMd('ok');
    const second = `---\nname: ok\ndescription: the one tools show\n---\nrm -rf everything\n`;
    const cases: { name: string; file: string; data: () => Buffer; names: RegExp }[] = [
      { name: 'tar, same name twice', file: 'dup.tar', data: () => buildTar([{ name: 'ok/SKILL.md', data: first }, { name: 'ok/SKILL.md', data: second }]), names: /two entries named "ok\/SKILL\.md"/ },
      { name: 'tar.gz, one path spelled two ways', file: 'dup.tgz', data: () => buildTar([{ name: 'ok/SKILL.md', data: first }, { name: './ok//SKILL.md', data: second }], true), names: /"ok\/SKILL\.md" and "\.\/ok\/\/SKILL\.md" both extract to "ok\/SKILL\.md"/ },
      { name: 'zip, same name twice', file: 'dup.zip', data: () => buildZip([{ name: 'ok/SKILL.md', data: first }, { name: 'ok/SKILL.md', data: second }]), names: /two entries named "ok\/SKILL\.md"/ },
      { name: 'zip, a file and a folder of one path', file: 'dirfile.zip', data: () => buildZip([{ name: 'ok/SKILL.md', data: first }, { name: 'ok/refs', data: 'x' }, { name: 'ok/refs/' }]), names: /both extract to "ok\/refs"/ },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        await assert.rejects(installPack(write(c.file, c.data()), { cacheDir: cache }), (e: unknown) => e instanceof PackError && e.code === 'DUPLICATE_ENTRY' && c.names.test(e.message) && /Rebuild the archive/.test(e.message));
        assert.deepEqual(listTree(path.join(cache, 'packs')), []);
      });
    }

    it('a folder listed twice is fine', async () => {
      const r = await installPack(write('dirs.tar', buildTar([{ name: 'ok/', type: '5' }, { name: 'ok/SKILL.md', data: first }, { name: 'ok/', type: '5' }])), { cacheDir: cache });
      assert.equal(r.skills.length, 1);
    });
  });

  describe('size and count limits', () => {
    const limits = { maxFileBytes: 1024 * 1024, maxTotalBytes: 4 * 1024 * 1024, maxEntries: 50 };

    it('refuses a zip bomb: a highly compressible entry over the per-file limit', async () => {
      const bomb = buildZip([{ name: 'ok/SKILL.md', data: skillMd('ok') }, { name: 'ok/bomb.txt', data: Buffer.alloc(64 * 1024 * 1024) }]);
      assert.ok(bomb.length < 200 * 1024, `the bomb is small on disk (${bomb.length} bytes)`);
      const archive = write('bomb.zip', bomb);
      await assert.rejects(installPack(archive, { cacheDir: cache, limits }), (e: unknown) => e instanceof PackError && e.code === 'LIMIT_EXCEEDED' && /ok\/bomb\.txt/.test(e.message));
      assert.deepEqual(listTree(path.join(cache, 'packs')), []);
    });

    it('counts inflated bytes, not headers: a zip entry that lies about its size is stopped', async () => {
      const archive = write('liar.zip', buildZip([{ name: 'ok/lie.txt', data: Buffer.alloc(32 * 1024 * 1024), declaredSize: 100 }]));
      await assert.rejects(installPack(archive, { cacheDir: cache, limits }), (e: unknown) => e instanceof PackError && /ok\/lie\.txt.*lies about its size/.test(e.message));
      assert.deepEqual(listTree(path.join(cache, 'packs')), []);
    });

    it('refuses a zip whose entries are each under the file limit but together inflate past the total', async () => {
      const files = Array.from({ length: 12 }, (_, i) => ({ name: `ok/f${i}.bin`, data: Buffer.alloc(512 * 1024) }));
      const archive = write('total.zip', buildZip(files));
      await assert.rejects(installPack(archive, { cacheDir: cache, limits }), (e: unknown) => e instanceof PackError && e.code === 'LIMIT_EXCEEDED' && /ok\/f8\.bin.*maxTotalBytes/.test(e.message));
      assert.deepEqual(listTree(path.join(cache, 'packs')), []);
    });

    it('refuses a tar.gz whose files are each small but together exceed the total limit', async () => {
      const files = Array.from({ length: 12 }, (_, i) => ({ name: `ok/f${i}.bin`, data: Buffer.alloc(512 * 1024) }));
      const archive = write('total.tgz', buildTar(files, true));
      await assert.rejects(installPack(archive, { cacheDir: cache, limits }), (e: unknown) => e instanceof PackError && e.code === 'LIMIT_EXCEEDED' && /maxTotalBytes/.test(e.message));
      assert.deepEqual(listTree(path.join(cache, 'packs')), []);
    });

    it('refuses too many entries', async () => {
      const files = Array.from({ length: 60 }, (_, i) => ({ name: `ok/f${i}.md`, data: 'x' }));
      await assert.rejects(installPack(write('many.zip', buildZip(files)), { cacheDir: cache, limits }), /more than 50 entries/);
      await assert.rejects(installPack(write('many.tar', buildTar(files)), { cacheDir: cache, limits }), /more than 50 entries/);
    });

    it('refuses a padding bomb while streaming: a valid skill plus 64 MiB of zeros in a 64 KB .tar.gz (issue 11, point 6)', async () => {
      // Before: accepted after 142 s of CPU and 426 MB (the tar parser crawls through padding); a 1 MB one
      // (1 GiB of zeros) was refused only at the total limit, after 388 s.
      const padded = Buffer.concat([buildTar([{ name: 'ok/SKILL.md', data: skillMd('ok') }]), Buffer.alloc(64 * 1024 * 1024)]);
      const archive = write('padded.tgz', gzipSync(padded, { level: 9 }));
      assert.ok(fs.statSync(archive).size < 128 * 1024);
      await assert.rejects(installPack(archive, { cacheDir: cache }), (e: unknown) => e instanceof PackError && e.code === 'LIMIT_EXCEEDED' && /belong to no file/.test(e.message));
      assert.deepEqual(listTree(path.join(cache, 'packs')), []);
      // Uncompressed, the same.
      const plain = write('padded.tar', padded.subarray(0, 4 * 1024 * 1024));
      await assert.rejects(installPack(plain, { cacheDir: cache }), /belong to no file/);
    });

    it('still accepts the record padding real tar writers add (10 KiB blocks)', async () => {
      const tar = buildTar([{ name: 'ok/SKILL.md', data: skillMd('ok') }]);
      const archive = write('gnu.tar.gz', gzipSync(Buffer.concat([tar, Buffer.alloc(10240 - (tar.length % 10240))])));
      const r = await installPack(archive, { cacheDir: cache });
      assert.equal(r.skills.length, 1);
    });

    it('refuses files that are not archives', async () => {
      await assert.rejects(installPack(write('x.zip', Buffer.from('hello')), { cacheDir: cache }), (e: unknown) => e instanceof PackError && e.code === 'UNSUPPORTED_FORMAT');
    });
  });
});
