import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SessionStore, type SessionEvent } from '../../../src/core/runtime';
import { makeTempDir } from '../../support/tempDir';

describe('runtime/SessionStore', () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => {
    tmp = makeTempDir('sessions-');
  });
  afterEach(() => tmp.cleanup());

  it('keeps many sessions side by side and restores them all in a new store on the same folder', async () => {
    const a = new SessionStore({ stateDir: tmp.dir });
    await a.ensure('chat-1');
    await a.ensure('chat/2', 'session');
    await a.update('chat-1', 'test', (s) => {
      s.lifecycle.pdf = 'loaded';
      s.turn = 3;
    });
    await a.flush();
    const b = new SessionStore({ stateDir: tmp.dir });
    assert.deepEqual(b.list().map((s) => s.id).sort(), ['chat-1', 'chat/2']);
    assert.equal(b.get('chat-1')?.turn, 3);
    assert.equal(b.get('chat-1')?.lifecycle.pdf, 'loaded');
    assert.equal(b.get('chat/2')?.load_mode, 'session');
    // The slash in the id is encoded: the file stays inside sessions/.
    assert.deepEqual(fs.readdirSync(path.join(tmp.dir, 'sessions')).sort(), ['chat%2F2.json', 'chat-1.json']);
  });

  it('writes behind the update: nothing is on disk until the write runs, everything after flush', async () => {
    const a = new SessionStore({ stateDir: tmp.dir });
    await a.ensure('w');
    await a.update('w', 'x', (s) => void (s.turn = 7));
    await a.flush();
    assert.equal(new SessionStore({ stateDir: tmp.dir }).get('w')?.turn, 7);
    await a.update('w', 'x', (s) => void (s.turn = 8));
    await a.delete('w');
    await a.flush();
    assert.equal(fs.existsSync(path.join(tmp.dir, 'sessions', 'w.json')), false, 'a queued write does not resurrect a deleted session');
  });

  it('writes atomically: no temp files remain, and a leftover temp file from a crash is ignored and removed', async () => {
    const a = new SessionStore({ stateDir: tmp.dir });
    await a.ensure('x');
    for (let i = 0; i < 20; i++) void a.update('x', 'bump', (s) => void (s.turn = i + 1));
    await a.flush();
    const dir = path.join(tmp.dir, 'sessions');
    assert.deepEqual(fs.readdirSync(dir), ['x.json']);
    assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'x.json'), 'utf8')).turn, 20, 'the last update wins on disk');
    fs.writeFileSync(path.join(dir, 'x.json.123.abcd.tmp'), '{"torn":');
    const b = new SessionStore({ stateDir: tmp.dir });
    assert.equal(b.get('x')?.turn, 20);
    await b.flush(); // the leftover is removed through the host, behind the load
    assert.deepEqual(fs.readdirSync(dir), ['x.json']);
  });

  it('sweeps the temp file of an atomic write a crash left once it is over a minute old, and not a younger one', async () => {
    const a = new SessionStore({ stateDir: tmp.dir });
    await a.ensure('x');
    await a.flush();
    const dir = path.join(tmp.dir, 'sessions');
    const old = path.join(dir, '.x.json.tmp-99999-0a0b0c0d');
    const young = path.join(dir, '.x.json.tmp-99999-1a1b1c1d');
    fs.writeFileSync(old, '{"torn":');
    fs.writeFileSync(young, '{"in flight":');
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    fs.utimesSync(old, twoMinutesAgo, twoMinutesAgo);
    const b = new SessionStore({ stateDir: tmp.dir });
    await b.flush();
    assert.deepEqual(fs.readdirSync(dir).sort(), ['.x.json.tmp-99999-1a1b1c1d', 'x.json']);
    assert.ok(b.get('x'), 'the session itself loads');
  });

  it('reports a corrupt session file instead of failing', async () => {
    fs.mkdirSync(path.join(tmp.dir, 'sessions'), { recursive: true });
    fs.writeFileSync(path.join(tmp.dir, 'sessions', 'bad.json'), '{"id": 5}');
    const s = new SessionStore({ stateDir: tmp.dir });
    assert.equal(s.list().length, 0);
    assert.equal(s.loadProblems.length, 1);
    assert.match(s.loadProblems[0].problem, /id/);
  });

  it('emits an event for every change, and none after dispose', async () => {
    const store = new SessionStore({ stateDir: tmp.dir });
    const events: SessionEvent[] = [];
    const sub = store.onDidChange((e) => events.push(e));
    await store.ensure('s');
    await store.update('s', 'load', (s) => void (s.lifecycle.a = 'loaded'));
    await store.update('s', 'noop', () => false);
    await store.clear('s');
    await store.delete('s');
    sub.dispose();
    await store.ensure('t');
    assert.deepEqual(
      events.map((e) => `${e.kind}:${e.reason}`),
      ['created:create', 'updated:load', 'cleared:clear', 'deleted:delete'],
    );
    assert.deepEqual(events[2].session?.lifecycle, {});
  });

  it('clear empties the state but keeps the session; delete removes its file', async () => {
    const store = new SessionStore({ stateDir: tmp.dir });
    await store.ensure('s', 'session');
    await store.update('s', 'x', (s) => void (s.last_used.a = new Date().toISOString()));
    await store.flush();
    const cleared = await store.clear('s');
    assert.deepEqual(cleared.last_used, {});
    assert.equal(cleared.load_mode, 'session');
    assert.equal(await store.delete('s'), true);
    assert.equal(await store.delete('s'), false);
    assert.equal(fs.existsSync(path.join(tmp.dir, 'sessions', 's.json')), false);
    assert.equal(new SessionStore({ stateDir: tmp.dir }).get('s'), undefined);
  });

  it('returns copies: changing a returned session does not change the store', async () => {
    const store = new SessionStore();
    const s = await store.ensure('m');
    s.active_skills.push({} as never);
    assert.equal(store.get('m')?.active_skills.length, 0);
    await assert.rejects(store.update('nope', 'x', () => undefined), /No session with id 'nope'/);
  });
});
