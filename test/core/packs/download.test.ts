import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { downloadToCache, installPack, PackError } from '../../../src/core/packs';
import { buildZip } from '../../support/archiveBuilder';
import { listTree, makeTempDir } from '../../support/tempDir';

describe('packs/download: URL packs through a local HTTP server', () => {
  let dir: string;
  let cleanup: () => void;
  let server: http.Server;
  let base: string;
  const hits = new Map<string, number>();
  const zip = buildZip([{ name: 'pdf/SKILL.md', data: '---\nname: pdf\ndescription: d\n---\nbody\n' }]);
  const zipSha = createHash('sha256').update(zip).digest('hex');

  before(async () => {
    server = http.createServer((req, res) => {
      hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
      if (req.url === '/pack.zip' || req.url === '/same-pack-other-url.zip') {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
        res.end(zip);
      } else {
        res.writeHead(404);
        res.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir());
    hits.clear();
  });
  afterEach(() => cleanup());

  it('downloads a pack once; the second install reuses the cached archive and extraction', async () => {
    const cacheDir = path.join(dir, 'cache');
    const first = await installPack(`${base}/pack.zip`, { cacheDir });
    assert.equal(first.sha256, zipSha);
    assert.deepEqual(first.cached, { download: false, extraction: false });
    assert.deepEqual(first.skills.map((s) => path.relative(first.root, s)), ['pdf']);
    const second = await installPack(`${base}/pack.zip`, { cacheDir });
    assert.deepEqual(second.cached, { download: true, extraction: true });
    assert.equal(second.root, first.root);
    assert.equal(hits.get('/pack.zip'), 1);
    // the same bytes from another URL: downloaded (keyed by URL) but extracted once (keyed by digest)
    const other = await installPack(`${base}/same-pack-other-url.zip`, { cacheDir });
    assert.deepEqual(other.cached, { download: false, extraction: true });
    assert.equal(other.root, first.root);
    assert.equal(listTree(path.join(cacheDir, 'downloads')).filter((p) => p.endsWith('/archive')).length, 2);
  });

  it('re-downloads when asked, or when the cached file was damaged', async () => {
    const cacheDir = path.join(dir, 'cache');
    const d1 = await downloadToCache(`${base}/pack.zip`, { cacheDir });
    fs.writeFileSync(d1.file, 'damaged');
    const d2 = await downloadToCache(`${base}/pack.zip`, { cacheDir });
    assert.equal(d2.fromCache, false);
    assert.equal(d2.sha256, zipSha);
    assert.equal((await downloadToCache(`${base}/pack.zip`, { cacheDir, refresh: true })).fromCache, false);
    assert.equal(hits.get('/pack.zip'), 3);
  });

  it('fails clearly on HTTP errors, digest mismatches and oversize bodies, keeping nothing', async () => {
    const cacheDir = path.join(dir, 'cache');
    await assert.rejects(downloadToCache(`${base}/missing.zip`, { cacheDir }), (e: unknown) => e instanceof PackError && e.code === 'DOWNLOAD_FAILED' && /HTTP 404/.test(e.message));
    await assert.rejects(downloadToCache(`${base}/pack.zip`, { cacheDir, expectedSha256: '0'.repeat(64) }), (e: unknown) => e instanceof PackError && e.code === 'DIGEST_MISMATCH');
    await assert.rejects(downloadToCache(`${base}/pack.zip`, { cacheDir, maxBytes: 10 }), (e: unknown) => e instanceof PackError && e.code === 'LIMIT_EXCEEDED');
    assert.deepEqual(listTree(cacheDir).filter((p) => !p.endsWith('/')), []);
    const ok = await downloadToCache(`${base}/pack.zip`, { cacheDir, expectedSha256: zipSha });
    assert.equal(ok.size, zip.length);
  });
});
