// The one store behind MCP 2026-07-28 state handles, on both of its backends: a state folder (real temp files) and a
// real redis-server started for the suite. Same contract on both; then what each bounds: a value over the size bound
// is refused before it is parsed, a bad value names the store, and a Redis that does not answer fails within the
// timeout naming the store.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { buildSync } from 'esbuild';
import { createNodeHost } from '../../../src/core/host/nodeHost';
import { encodeStored, handleKey, isHandle, MAX_AUDIT_ENTRIES, MAX_STATE_BYTES, mintHandle, type SessionStateStore } from '../../../src/core/runtime/sessionStateStore';
import { folderStateStore } from '../../../src/core/runtime/folderStateStore';
import { redisStateStore, redisUrlLabel } from '../../../src/core/runtime/redisStateStore';
import type { SessionState } from '../../../src/core/runtime/runtimeTypes';
import type { AuditEntry } from '../../../src/core/audit/auditLog';
import { makeTempDir } from '../../support/tempDir';
import { startRedis, type TestRedis } from '../../support/redisServer';

/** A state folder's files but this process's kept lock owner file (folderStateStore locks link to it) and its spare files (spareFiles.ts). */
const sessionFiles = (dir: string) => fs.readdirSync(dir).filter((n) => n !== `.lock-owner-${process.pid}` && !n.startsWith(`.spare.tmp-${process.pid}-`));

const entry = (action: string, n: number): AuditEntry => ({ time: '2026-11-27T00:00:00.000Z', session: 'mcp-h-x', action, arguments: { names: ['alpha'] }, outcome: 'ok', duration_ms: n });
const state = (id: string, names: string[]): SessionState => ({
  id,
  created_at: '2026-11-27T00:00:00.000Z',
  updated_at: new Date().toISOString(),
  load_mode: 'session',
  turn: 1,
  turn_started_at: '2026-11-27T00:00:00.000Z',
  active_skills: names.map((n, i) => ({ name: n, id: n, digest: `sha256:${i}`, location: `/s/${n}/SKILL.md`, root_dir: `/s/${n}`, docs: [], loaded_at: '2026-11-27T00:00:00.000Z', loaded_turn: 1 })),
  lifecycle: Object.fromEntries(names.map((n) => [n, 'loaded' as const])),
  last_used: {},
});

describe('session state store (state folder and Redis)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let redis: TestRedis;
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    await redis?.stop();
  });
  beforeEach(() => {
    tmp = makeTempDir('state-store-');
  });
  afterEach(() => tmp.cleanup());

  it('mints unguessable handles and keys them by digest', () => {
    const a = mintHandle();
    const b = mintHandle();
    assert.notEqual(a, b);
    assert.ok(isHandle(a));
    for (const bad of ['ash_short', '../../etc/passwd', `${a}x`, a.replace('ash_', 'xyz_'), 42, undefined]) assert.equal(isHandle(bad), false, String(bad));
    assert.match(handleKey(a), /^[0-9a-f]{64}$/);
    assert.ok(!handleKey(a).includes(a.slice(4, 20)));
  });

  it('encodes a stored value as JSON.stringify of the whole value, audit entries encoded once and reused, the oldest dropped past the bound', () => {
    const odd: AuditEntry = { ...entry('run', 3), arguments: { env: { A: '[redacted]' }, note: 'é \u2028 "quoted" \\ </script>', none: undefined }, details: { n: [1, null] } };
    const values = [
      { state: state('x', ['alpha']), audit: [] },
      { state: state('x', ['alpha', 'beta']), audit: [entry('load', 1), odd], subscriptions: ['skill://alpha/SKILL.md'] },
      { state: state('y', []), audit: [odd, odd, entry('read', 2)], elicitation: true as const },
      { state: state('z', ['gamma']), audit: [entry('load', 4)], subscriptions: [], elicitation: true as const },
    ];
    for (const [i, v] of values.entries()) {
      const { subscriptions, elicitation } = v as { subscriptions?: string[]; elicitation?: true };
      const want = JSON.stringify({ v: 1, g: i + 7, state: v.state, audit: v.audit, ...(subscriptions?.length ? { subscriptions } : {}), ...(elicitation ? { elicitation } : {}) });
      // Twice: the second time from the entries' saved text.
      for (let n = 0; n < 2; n++) assert.equal(encodeStored('test', v, i + 7), want, `value ${i}, encoding ${n + 1}`);
    }
    // Past the bound, the oldest entries go first (halves), and the text is still the value's JSON.
    const big: AuditEntry[] = Array.from({ length: MAX_AUDIT_ENTRIES }, (_, i) => ({ ...entry('load', i), details: { pad: 'x'.repeat(4000) } }));
    const one = state('x', ['alpha']);
    const text = encodeStored('test', { state: one, audit: big }, 1);
    const kept = (JSON.parse(text) as { audit: AuditEntry[] }).audit;
    assert.ok(kept.length > 0 && kept.length < big.length && Buffer.byteLength(text) <= MAX_STATE_BYTES, `${kept.length} entries, ${Buffer.byteLength(text)} bytes`);
    assert.equal(text, JSON.stringify({ v: 1, g: 1, state: one, audit: big.slice(-kept.length) }));
  });

  const contract = (label: string, make: () => SessionStateStore) => {
    it(`${label}: saves, loads (load order kept), replaces and removes a session`, async () => {
      const store = make();
      try {
        const key = handleKey(mintHandle());
        assert.equal(await store.load(key), undefined);
        assert.equal(await store.save(key, { state: state('x', ['beta', 'alpha']), audit: [entry('load', 1)] }, 0), true);
        assert.deepEqual((await store.load(key))?.state.active_skills.map((a) => a.name), ['beta', 'alpha']);
        // Audit trails longer than the bound keep their newest entries.
        const trail = Array.from({ length: MAX_AUDIT_ENTRIES + 20 }, (_, i) => entry('load', i));
        assert.equal(await store.save(key, { state: state('x', ['beta', 'alpha', 'gamma']), audit: trail }, 1), true);
        const back = await store.load(key);
        assert.deepEqual(back?.state.active_skills.map((a) => a.name), ['beta', 'alpha', 'gamma']);
        assert.equal(back?.audit.length, MAX_AUDIT_ENTRIES);
        assert.equal(back?.audit.at(-1)?.duration_ms, MAX_AUDIT_ENTRIES + 19);
        await store.remove(key);
        assert.equal(await store.load(key), undefined);
      } finally {
        await store.close();
      }
    });

    it(`${label}: a save compares and sets: only one of two writers from one generation is saved, the other is told`, async () => {
      // Two store objects over one place: what two replicas (or two processes over one state folder) each hold.
      const [a, b] = [make(), make()];
      try {
        const key = handleKey(mintHandle());
        assert.equal(await a.save(key, { state: state('x', ['alpha']), audit: [] }, 0), true);
        const seenA = await a.load(key);
        const seenB = await b.load(key);
        assert.equal(seenA?.generation, 1);
        assert.equal(seenB?.generation, 1);
        // Both computed their next state from generation 1; at the same instant, exactly one wins.
        const saved = await Promise.all([a.save(key, { state: state('x', ['alpha', 'beta']), audit: [] }, 1), b.save(key, { state: state('x', ['alpha', 'gamma']), audit: [] }, 1)]);
        assert.deepEqual(saved.filter(Boolean).length, 1, `one save wins: ${saved}`);
        const after = await b.load(key);
        assert.equal(after?.generation, 2);
        assert.deepEqual(after?.state.active_skills.map((s) => s.name), saved[0] ? ['alpha', 'beta'] : ['alpha', 'gamma'], 'the stored value is the winner\'s');
        // A stale writer is refused at every later generation too; the one that read the newest is saved.
        assert.equal(await a.save(key, { state: state('x', ['stale']), audit: [] }, 1), false);
        assert.equal(await a.save(key, { state: state('x', ['alpha', 'beta', 'gamma']), audit: [] }, 2), true);
        assert.deepEqual((await b.load(key))?.state.active_skills.map((s) => s.name), ['alpha', 'beta', 'gamma']);
        // Fifty writers from one generation: one wins.
        const many = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).save(key, { state: state('x', [`s${i}`]), audit: [] }, 3)));
        assert.equal(many.filter(Boolean).length, 1, 'exactly one of 50 concurrent saves from one generation');
      } finally {
        await a.close();
        await b.close();
      }
    });

    it(`${label}: subscriptions travel with the session's value; one signing key and one-time claims shared by every store object`, async () => {
      const [a, b] = [make(), make()];
      try {
        const key = handleKey(mintHandle());
        assert.equal(await a.save(key, { state: state('x', ['alpha']), audit: [], subscriptions: ['skill://alpha/SKILL.md'], elicitation: true }, 0), true);
        const seen = await b.load(key);
        assert.deepEqual(seen?.subscriptions, ['skill://alpha/SKILL.md']);
        assert.equal(seen?.elicitation, true);
        // A save without them drops them (the caller carries what it keeps); removal takes them with the session.
        assert.equal(await b.save(key, { state: state('x', ['alpha']), audit: [] }, 1), true);
        assert.equal((await a.load(key))?.subscriptions, undefined);
        // The key both sign with: made once, the same for both, 32 bytes.
        const [ka, kb] = await Promise.all([a.signingKey(), b.signingKey()]);
        assert.equal(ka.length, 32);
        assert.ok(ka.equals(kb), 'both store objects sign with one key');
        // A claim succeeds once across both; another key is its own; an expired one can be claimed again.
        const once = handleKey(mintHandle());
        const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).claimOnce(once, 60_000)));
        assert.equal(claims.filter(Boolean).length, 1, `exactly one of 10 concurrent claims: ${claims}`);
        assert.equal(await a.claimOnce(handleKey(mintHandle()), 60_000), true);
        const brief = handleKey(mintHandle());
        assert.equal(await a.claimOnce(brief, 1), true);
        await new Promise((r) => setTimeout(r, 30)); // the 1 ms claim's expiry is what is waited out, not a readiness
        assert.equal(await b.claimOnce(brief, 1), true, 'an expired claim is free again');
        await assert.rejects(a.claimOnce('../../etc/passwd', 1000), /64 hex digits/);
      } finally {
        await a.close();
        await b.close();
      }
    });
  };
  contract('state folder', () => folderStateStore(tmp.dir, createNodeHost()));
  contract('Redis', () => redisStateStore(redis.url));

  it('state folder: written for the next process (atomic file named by the key), read back by a new store', async () => {
    const key = handleKey(mintHandle());
    const a = folderStateStore(tmp.dir, createNodeHost());
    await a.save(key, { state: state('x', ['alpha']), audit: [] }, 0);
    await a.close();
    const file = path.join(tmp.dir, 'handles', `${key}.json`);
    assert.ok(fs.existsSync(file));
    assert.deepEqual(sessionFiles(path.join(tmp.dir, 'handles')), [`${key}.json`], 'no temp file left');
    const b = folderStateStore(tmp.dir, createNodeHost());
    assert.deepEqual((await b.load(key))?.state.active_skills.map((s) => s.name), ['alpha']);
  });

  it('state folder: a save writes the free name and then removes the old file; a save killed in between leaves a state a load uses', async () => {
    const key = handleKey(mintHandle());
    const dir = path.join(tmp.dir, 'handles');
    const [first, second] = [path.join(dir, `${key}.json`), path.join(dir, `${key}.b.json`)];
    const a = folderStateStore(tmp.dir, createNodeHost());
    assert.equal(await a.save(key, { state: state('x', ['alpha']), audit: [] }, 0), true);
    assert.equal(await a.save(key, { state: state('x', ['alpha', 'beta']), audit: [] }, 1), true);
    assert.deepEqual(sessionFiles(dir), [`${key}.b.json`], 'the new state under the free name, the old file removed');
    assert.equal(await a.save(key, { state: state('x', ['gamma']), audit: [] }, 2), true);
    assert.deepEqual(sessionFiles(dir), [`${key}.json`]);
    // What a save killed between its write and its removal leaves: both files. A load (another process) takes the
    // newer one; the next save removes the older before it writes, and leaves one file.
    fs.copyFileSync(first, second);
    fs.writeFileSync(first, JSON.stringify({ v: 1, g: 2, state: state('x', ['old']), audit: [] }));
    const b = folderStateStore(tmp.dir, createNodeHost());
    const got = await b.load(key);
    assert.equal(got?.generation, 3);
    assert.deepEqual(got?.state.active_skills.map((s) => s.name), ['gamma']);
    assert.equal(await b.save(key, { state: state('x', ['stale']), audit: [] }, 2), false, 'the stored generation is the newer file\'s');
    assert.equal(await b.save(key, { state: state('x', ['delta']), audit: [] }, 3), true);
    assert.deepEqual(sessionFiles(dir), [`${key}.json`]);
    assert.deepEqual((await a.load(key))?.state.active_skills.map((s) => s.name), ['delta'], 'the first store reads the other\'s save');
    // What a power loss can leave of a save not yet on disk: an empty file. It reads as no session (the client is told to start one).
    fs.writeFileSync(first, '');
    assert.equal(await folderStateStore(tmp.dir, createNodeHost()).load(key), undefined);
  });

  it("state folder: every save's file is JSON.stringify of its value, also when it reuses the audit bytes of the session's last save", async () => {
    const key = handleKey(mintHandle());
    const dir = path.join(tmp.dir, 'handles');
    const store = folderStateStore(tmp.dir, createNodeHost());
    // Entries with characters of 2, 3 and 4 UTF-8 bytes, so a byte offset counted as characters shows.
    const note = (i: number): AuditEntry => ({ ...entry('load', i), details: { note: `ü€😀 ${i}`.repeat(1 + (i % 3)) } });
    let want: { audit: AuditEntry[]; subscriptions?: string[] } = { audit: [] };
    for (let i = 0; i < 130; i++) {
      const loaded = await store.load(key);
      let audit = [...(loaded?.audit ?? []), note(i)];
      if (i % 40 === 39) audit = loaded!.audit; // a call that adds no entry
      if (i === 77) audit = audit.map((e) => structuredClone(e)); // entries that are not the saved ones: encoded again
      if (i === 90) audit = [note(1000)]; // a list that does not start with the saved entries
      const subscriptions = i % 7 === 0 ? [`skill://s${i}/SKILL.md`] : undefined;
      const st = state('x', [`s${i}`]);
      assert.equal(await store.save(key, { state: st, audit, ...(subscriptions ? { subscriptions } : {}) }, loaded?.generation ?? 0), true, `save ${i}`);
      want = { audit: audit.slice(-MAX_AUDIT_ENTRIES), ...(subscriptions ? { subscriptions } : {}) };
      const [file] = sessionFiles(dir);
      assert.equal(fs.readFileSync(path.join(dir, file), 'utf8'), JSON.stringify({ v: 1, g: i + 1, state: st, ...want }), `save ${i}: the file is the value's JSON`);
    }
    assert.equal(want.audit.length, 39, 'the list restarted at save 90 holds its entries since (38 added, one call added none)');
  });

  it("state folder: a save compares the stored generation, not the one this process last saw under that file name", async () => {
    // a saves generation 1 under the first name; b saves 2 (the second name) and 3 (the first name again, a new
    // file). a, which last saw generation 1 under the first name, must read what is there now and be refused.
    const key = handleKey(mintHandle());
    const [a, b] = [folderStateStore(tmp.dir, createNodeHost()), folderStateStore(tmp.dir, createNodeHost())];
    assert.equal(await a.save(key, { state: state('x', ['alpha']), audit: [] }, 0), true);
    assert.equal((await a.load(key))?.generation, 1);
    assert.equal(await b.save(key, { state: state('x', ['alpha', 'beta']), audit: [] }, (await b.load(key))!.generation), true);
    assert.equal(await b.save(key, { state: state('x', ['alpha', 'beta', 'gamma']), audit: [] }, 2), true);
    assert.deepEqual(sessionFiles(path.join(tmp.dir, 'handles')), [`${key}.json`], 'generation 3 is under the first name again');
    assert.equal(await a.save(key, { state: state('x', ['stale']), audit: [] }, 1), false, 'a stale save is refused');
    assert.deepEqual((await a.load(key))?.state.active_skills.map((s) => s.name), ['alpha', 'beta', 'gamma']);
    assert.equal(await a.save(key, { state: state('x', ['delta']), audit: [] }, 3), true, 'from the stored generation it saves');
  });

  it('state folder: its locks link to one pid file per process, gone when the process exits; one a killed process left is removed by the next first lock', async () => {
    const script = path.join(tmp.dir, 'saver.js');
    // A process that saves one session, then exits or is killed (SIGKILL: no exit handler runs).
    buildSync({
      stdin: {
        contents: `import { folderStateStore } from './src/core/runtime/folderStateStore'; import { createNodeHost } from './src/core/host/nodeHost';
          const [dir, key, end] = process.argv.slice(2);
          folderStateStore(dir, createNodeHost()).save(key, JSON.parse(process.env.STORED), 0).then((ok) => { process.stdout.write(String(ok)); if (end === 'kill') process.kill(process.pid, 'SIGKILL'); });`,
        resolveDir: path.resolve(__dirname, '../../..'),
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: script,
      logLevel: 'silent',
    });
    const handles = path.join(tmp.dir, 'handles');
    const owners = () => fs.readdirSync(handles).filter((n) => n.startsWith('.lock-owner-')).sort();
    const save = (end: 'exit' | 'kill') => {
      const r = spawnSync(process.execPath, [script, tmp.dir, handleKey(mintHandle()), end], { encoding: 'utf8', env: { ...process.env, STORED: JSON.stringify({ state: state('x', ['alpha']), audit: [] }) }, timeout: 60_000 });
      assert.equal(r.stdout, 'true', `the ${end} child saved: ${r.stderr}`);
      return r.pid as number;
    };
    save('exit');
    assert.deepEqual(owners(), [], 'a process that exits removes its pid file');
    const killed = save('kill');
    assert.deepEqual(owners(), [`.lock-owner-${killed}`], 'a killed process leaves its pid file');
    const key = handleKey(mintHandle());
    assert.equal(await folderStateStore(tmp.dir, createNodeHost()).save(key, { state: state('x', ['beta']), audit: [] }, 0), true);
    assert.deepEqual(owners(), [`.lock-owner-${process.pid}`], "the next process's first lock removes the killed one's; its own stays while it runs");
    assert.equal(fs.statSync(path.join(handles, `.lock-owner-${process.pid}`)).nlink, 1, 'no lock is left linked to it');
    // Its pid file removed while it runs (the folder emptied): the next lock makes it again and links to it.
    fs.rmSync(path.join(handles, `.lock-owner-${process.pid}`));
    assert.equal(await folderStateStore(tmp.dir, createNodeHost()).save(handleKey(mintHandle()), { state: state('x', ['gamma']), audit: [] }, 0), true);
    assert.deepEqual(owners(), [`.lock-owner-${process.pid}`], 'made again by the next lock');
  });

  it('state folder: a loaded session is a copy: changing it changes neither the file nor the next load', async () => {
    const key = handleKey(mintHandle());
    const store = folderStateStore(tmp.dir, createNodeHost());
    await store.save(key, { state: state('x', ['alpha']), audit: [entry('load', 1)] }, 0);
    for (let i = 0; i < 2; i++) {
      const got = await store.load(key);
      assert.deepEqual(got?.state.active_skills.map((s) => s.name), ['alpha'], `load ${i + 1}`);
      assert.equal(got?.audit.length, 1);
      got!.state.active_skills.push({ ...got!.state.active_skills[0], name: 'mutated' });
      got!.audit.push(entry('load', 2));
    }
  });

  it('state folder: a file over the bound is refused unread, a bad one and an expired one named or dropped', async () => {
    const host = createNodeHost();
    const dir = path.join(tmp.dir, 'handles');
    fs.mkdirSync(dir, { recursive: true });
    const big = handleKey(mintHandle());
    fs.writeFileSync(path.join(dir, `${big}.json`), Buffer.alloc(MAX_STATE_BYTES + 10, 0x20));
    await assert.rejects(folderStateStore(tmp.dir, host).load(big), (e: Error) => e.message.includes(`state folder ${dir}`) && e.message.includes('over the') && e.message.includes(big));
    const bad = handleKey(mintHandle());
    fs.writeFileSync(path.join(dir, `${bad}.json`), JSON.stringify({ id: 'x', active_skills: 'nope' }));
    await assert.rejects(folderStateStore(tmp.dir, host).load(bad), (e: Error) => e.message.includes(`state folder ${dir}`) && /\bv\b|state|audit/.test(e.message));
    const old = handleKey(mintHandle());
    const store = folderStateStore(tmp.dir, host, () => Date.now() + 25 * 3600_000);
    fs.writeFileSync(path.join(dir, `${old}.json`), JSON.stringify({ v: 1, state: state('x', ['alpha']), audit: [] }));
    assert.equal(await store.load(old), undefined, 'a day unused: expired');
    await store.close();
    assert.ok(!fs.existsSync(path.join(dir, `${old}.json`)), 'the expired file is removed');
    await assert.rejects(store.load('../../etc/passwd'), /not a session key/);
  });

  it('state folder: used keys past their lifetime are swept by later claims, a few at a time; a live one stays and still refuses a replay', async () => {
    const host = createNodeHost();
    const used = path.join(tmp.dir, 'handles', 'used');
    const ttl = 15 * 60_000;
    const clock = Date.now();
    const store = folderStateStore(tmp.dir, host, () => clock);
    const old = Array.from({ length: 6 }, () => handleKey(mintHandle()));
    for (const k of old) assert.equal(await store.claimOnce(k, ttl), true);
    // Their files are aged past the lifetime on disk (mtime), as 16 minutes of real time would leave them.
    const past = new Date(clock - 16 * 60_000);
    for (const k of old) fs.utimesSync(path.join(used, k), past, past);
    const fresh = handleKey(mintHandle());
    assert.equal(await store.claimOnce(fresh, ttl), true);
    const left = () => old.filter((k) => fs.existsSync(path.join(used, k))).length;
    assert.equal(left(), 2, 'one claim removes at most 4 expired files');
    assert.equal(await store.claimOnce(handleKey(mintHandle()), ttl), true);
    assert.equal(left(), 0, 'the next claim removes the rest');
    assert.ok(fs.existsSync(path.join(used, fresh)), 'a claim inside its lifetime is kept');
    assert.equal(await store.claimOnce(fresh, ttl), false, 'and still refuses a replay');
    // A claim made with a longer lifetime is kept by a sweep run by a claim with a shorter one (the file records its own).
    const long = handleKey(mintHandle());
    assert.equal(await store.claimOnce(long, 60 * 60_000), true);
    const twentyAgo = new Date(clock - 20 * 60_000);
    fs.utimesSync(path.join(used, long), twentyAgo, twentyAgo);
    assert.equal(await store.claimOnce(handleKey(mintHandle()), ttl), true);
    assert.ok(fs.existsSync(path.join(used, long)), 'an hour-long claim 20 minutes old is not swept by a 15-minute claim');
    assert.equal(await store.claimOnce(long, ttl), false, 'nor freed by a replay with a shorter lifetime');
    // Only key files are swept: a stray file in the folder is left alone.
    fs.writeFileSync(path.join(used, 'notes.txt'), 'x');
    fs.utimesSync(path.join(used, 'notes.txt'), past, past);
    assert.equal(await store.claimOnce(handleKey(mintHandle()), ttl), true);
    assert.ok(fs.existsSync(path.join(used, 'notes.txt')));
    await store.close();
  });

  it('Redis: a value over the bound is refused unread; a bad value names the store and the key', async () => {
    const raw = new Redis(redis.url);
    try {
      const store = redisStateStore(redis.url);
      const big = handleKey(mintHandle());
      await raw.set(`agent-skills:session:${big}`, Buffer.alloc(MAX_STATE_BYTES * 4, 0x20));
      await assert.rejects(store.load(big), (e: Error) => e.message.includes(`Redis state store ${redisUrlLabel(redis.url)}`) && e.message.includes('over the') && e.message.includes(big.slice(0, 16)));
      const bad = handleKey(mintHandle());
      await raw.set(`agent-skills:session:${bad}`, '{"id": 3');
      await assert.rejects(store.load(bad), (e: Error) => e.message.includes('Redis state store') && e.message.includes(bad.slice(0, 16)));
      await store.close();
    } finally {
      raw.disconnect();
    }
  });

  it('Redis: a store that accepts but never answers fails within the timeout naming the store; one that is down too', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const store = redisStateStore(`redis://127.0.0.1:${port}/0`, { timeoutMs: 300 });
      const t0 = Date.now();
      await assert.rejects(store.load(handleKey(mintHandle())), (e: Error) => e.message.includes(`Redis state store redis://127.0.0.1:${port}/0`) && e.message.includes('within 300 ms'));
      assert.ok(Date.now() - t0 < 5000, `failed after ${Date.now() - t0} ms`);
      await store.close();
    } finally {
      silent.close();
    }
    const down = redisStateStore('redis://:secretpw@127.0.0.1:1/0', { timeoutMs: 300 });
    await assert.rejects(down.save(handleKey(mintHandle()), { state: state('x', []), audit: [] }, 0), (e: Error) => e.message.includes('Redis state store redis://127.0.0.1:1/0') && !e.message.includes('secretpw'));
    await down.close();
  });

  it('refuses a --state-store that is not a Redis URL, naming the fix', () => {
    assert.throws(() => redisUrlLabel('http://x:1'), /redis:\/\/host:port\/db/);
    assert.throws(() => redisUrlLabel('redis://h:1/abc'), /not a number/);
    assert.throws(() => redisUrlLabel('nonsense'), /not a URL/);
    assert.equal(redisUrlLabel('redis://u:p@h:6380/2'), 'redis://h:6380/2');
  });
});
