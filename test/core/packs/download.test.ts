import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { mountPack } from '../../../src/core/catalog/packMounts';
import { downloadToCache, installPack, PackError } from '../../../src/core/packs';
import { buildZip } from '../../support/archiveBuilder';
import { listTree, makeTempDir } from '../../support/tempDir';

describe('packs/download: URL packs through a local HTTP server', () => {
  let dir: string;
  let cleanup: () => void;
  let server: http.Server;
  let other: http.Server;
  let base: string;
  let otherBase: string;
  const timers = new Set<NodeJS.Timeout>();
  const hits = new Map<string, number>();
  const zip = buildZip([{ name: 'pdf/SKILL.md', data: '---\nname: pdf\ndescription: d\n---\nbody\n' }]);
  const zipSha = createHash('sha256').update(zip).digest('hex');

  before(async () => {
    server = http.createServer((req, res) => {
      hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
      if (req.url === '/pack.zip' || req.url === '/same-pack-other-url.zip') {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
        res.end(zip);
      } else if (req.url === '/never-answers.zip') {
        // Accepts the connection, reads the request, never sends a header.
      } else if (req.url === '/trickle.zip' || req.url === '/slow-but-steady.zip' || req.url === '/fast-trickle.zip') {
        // One byte a second (trickle), one byte every 20 ms (a trickle faster than any idle deadline below), or the
        // whole pack in 16 pieces 100 ms apart (1.5 s in all).
        const steady = req.url === '/slow-but-steady.zip';
        const fast = req.url === '/fast-trickle.zip';
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': steady ? zip.length : 1_000_000 });
        res.flushHeaders();
        let at = 0;
        const piece = steady ? Math.ceil(zip.length / 16) : 1;
        const tick = () => {
          if (res.destroyed || at >= zip.length) {
            clearInterval(t);
            if (at >= zip.length) res.end();
            return;
          }
          res.write(zip.subarray(at, at + piece));
          at += piece;
        };
        const t = setInterval(tick, steady ? 100 : fast ? 20 : 1000);
        tick();
        timers.add(t);
        res.on('close', () => clearInterval(t));
      } else if (req.url === '/here.zip') {
        res.writeHead(302, { location: '/pack.zip' });
        res.end();
      } else if (req.url === '/by-name.zip') {
        // Another host by name (localhost, this very server), as a CDN's name is written in a Location header.
        res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/pack.zip` });
        res.end();
      } else if (req.url === '/elsewhere.zip') {
        res.writeHead(302, { location: `${otherBase}/pack.zip` });
        res.end();
      } else if (req.url?.startsWith('/loop')) {
        res.writeHead(302, { location: `/loop${Number(req.url.slice(5).replace('.zip', '') || 0) + 1}.zip` });
        res.end();
      } else {
        res.writeHead(404);
        res.end('not found');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Another host: 127.0.0.2 is loopback too, but not the URL's host.
    other = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
      res.end(zip);
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    otherBase = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const t of timers) clearInterval(t);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await new Promise<void>((resolve) => other.close(() => resolve()));
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

  it('abandons a server that never answers at the connect deadline, and one that trickles at the idle deadline, naming the URL and the deadline; keeps nothing', async () => {
    const cacheDir = path.join(dir, 'cache');
    const quick = { cacheDir, connectTimeoutMs: 300, idleTimeoutMs: 300 };
    await assert.rejects(downloadToCache(`${base}/never-answers.zip`, quick), (e: unknown) => {
      assert.ok(e instanceof PackError && e.code === 'DOWNLOAD_TIMEOUT', String(e));
      assert.match(e.message, new RegExp(`The skill pack ${base}/never-answers\\.zip was abandoned: the server did not answer within 0\\.3 s \\(the connect deadline\\)`));
      return true;
    });
    // The connect deadline generous here: the first byte comes at once, but a loaded machine may deliver it late, and
    // this case is about the idle deadline after it (the server sends one byte and then nothing).
    await assert.rejects(downloadToCache(`${base}/trickle.zip`, { ...quick, connectTimeoutMs: 10_000 }), (e: unknown) => {
      assert.ok(e instanceof PackError && e.code === 'DOWNLOAD_TIMEOUT', String(e));
      assert.match(e.message, new RegExp(`The skill pack ${base}/trickle\\.zip was abandoned: no data came for 0\\.3 s \\(the idle deadline\\) after 1 bytes`));
      return true;
    });
    assert.deepEqual(listTree(cacheDir).filter((p) => !p.endsWith('/')), [], 'nothing kept');
    // The idle deadline is between chunks, not for the whole body: a slow but steady server (1.5 s in all, 0.1 s
    // between pieces) completes under a 1 s idle deadline.
    // (The pack is a few hundred bytes, so the minimum rate is lowered to what this server sends, about 100 bytes a second.)
    const steady = await downloadToCache(`${base}/slow-but-steady.zip`, { cacheDir, connectTimeoutMs: 1000, idleTimeoutMs: 1000, minBytesPerSecond: 20 });
    assert.equal(steady.sha256, zipSha);
  });

  it('abandons a trickle that comes faster than the idle deadline but below the minimum rate, and a download past the total deadline (red team: a byte a second was waited on forever)', async () => {
    const cacheDir = path.join(dir, 'cache-trickle');
    // 50 bytes a second, each byte well within the 300 ms window: a plain idle timer would be reset forever.
    await assert.rejects(downloadToCache(`${base}/fast-trickle.zip`, { cacheDir, connectTimeoutMs: 1000, idleTimeoutMs: 300 }), (e: unknown) => {
      assert.ok(e instanceof PackError && e.code === 'DOWNLOAD_TIMEOUT', String(e));
      assert.match(e.message, new RegExp(`The skill pack ${base}/fast-trickle\\.zip was abandoned: only \\d+ bytes came in 0\\.3 s \\(the minimum is 1024 bytes a second\\)`));
      return true;
    });
    // Steady enough for the rate, but longer than the total deadline allows.
    await assert.rejects(downloadToCache(`${base}/slow-but-steady.zip`, { cacheDir, connectTimeoutMs: 1000, idleTimeoutMs: 1000, minBytesPerSecond: 1, totalTimeoutMs: 400 }), (e: unknown) => {
      assert.ok(e instanceof PackError && e.code === 'DOWNLOAD_TIMEOUT', String(e));
      assert.match(e.message, /did not finish within 0\.4 s \(the total deadline\)/);
      return true;
    });
    assert.deepEqual(listTree(cacheDir).filter((p) => !p.endsWith('/')), [], 'nothing kept');
  });

  it('follows a redirect on the same host; refuses one to another host (naming the final URL to give instead) unless that host is allowed, and a loop', async () => {
    const cacheDir = path.join(dir, 'cache');
    assert.equal((await downloadToCache(`${base}/here.zip`, { cacheDir })).sha256, zipSha);
    await assert.rejects(downloadToCache(`${base}/elsewhere.zip`, { cacheDir }), (e: unknown) => {
      assert.ok(e instanceof PackError && e.code === 'REDIRECT_REFUSED', String(e));
      assert.match(e.message, new RegExp(`redirects to another host \\(${otherBase}/pack\\.zip\\); redirects to other hosts are not followed\\. If you trust 127\\.0\\.0\\.2:\\d+, give that URL instead`));
      return true;
    });
    assert.equal((await downloadToCache(`${base}/elsewhere.zip`, { cacheDir, allowRedirectHosts: ['127.0.0.2'] })).sha256, zipSha);
    // The setting's way to allow it: a pack spec's redirectHosts (agentSkills.packs), through mountPack as the extension mounts it.
    const specCache = path.join(dir, 'spec-cache');
    await assert.rejects(mountPack({ source: `${base}/elsewhere.zip` }, specCache), (e: unknown) => e instanceof PackError && e.code === 'REDIRECT_REFUSED' && /redirectHosts: \["127\.0\.0\.2:\d+"\]/.test(e.message));
    const mounted = await mountPack({ source: `${base}/elsewhere.zip`, name: 'team', redirectHosts: [new URL(otherBase).host] }, specCache);
    assert.equal(mounted.installed.sha256, zipSha);
    assert.ok(fs.existsSync(path.join(mounted.root.path, 'pdf', 'SKILL.md')), 'the allowed redirect was followed and the pack mounted');
    await assert.rejects(downloadToCache(`${base}/loop.zip`, { cacheDir }), (e: unknown) => e instanceof PackError && e.code === 'REDIRECT_REFUSED' && /more than 5 times/.test(e.message));
  });

  it('matches an allowed redirect host whatever its letter case (host names are case-insensitive; a URL is lowercased), and nothing beside it', async () => {
    // Attacked again 2026-11-27: "Objects.GitHubUserContent.com" as a user writes it was refused for the host it names.
    const cacheDir = path.join(dir, 'cache-case');
    const port = new URL(base).port;
    assert.equal((await downloadToCache(`${base}/by-name.zip`, { cacheDir, allowRedirectHosts: [`LocalHost:${port}`] })).sha256, zipSha);
    // Case folding only: another host, another port, a suffix or a userinfo-looking entry is still refused.
    for (const allow of [`localhost:${Number(port) + 1}`, 'host', `evil.localhost:${port}`, `localhost.:${port}`]) {
      await assert.rejects(downloadToCache(`${base}/by-name.zip`, { cacheDir: `${cacheDir}-${allow.replace(/\W/g, '_')}`, allowRedirectHosts: [allow] }), (e: unknown) => e instanceof PackError && e.code === 'REDIRECT_REFUSED', allow);
    }
  });
});
