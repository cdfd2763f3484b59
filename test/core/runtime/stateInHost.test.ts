// Sessions and the audit log live in the host the store and the runtime are given: over an in-memory host a second
// store on the same host finds what the first wrote, and nothing reaches the disk. The state folder is named under
// a fresh temp folder that is never made, so a write that went to the disk instead of the host would make it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readAuditFile } from '../../../src/core/audit';
import { createMemoryHost, textOfRead, type MemoryHost, type SyncWritableHost } from '../../../src/core/host';
import { createSkillRegistry } from '../../../src/core/registry';
import { createSkillsRuntime, SessionStore, skillSourceOf } from '../../../src/core/runtime';
import { makeTempDir } from '../../support/tempDir';
import { writeMemSkill } from '../registry/registryTestUtil';

const names = (host: MemoryHost, dir: string): string[] => (host.readDirectory(dir) ?? []).map((e) => e.name).sort();

/** The memory host with its whole-file writes held until `release()`: a write that is still running. */
function heldWrites(host: MemoryHost): { files: SyncWritableHost; started: Promise<void>; release: () => void } {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const entered = new Promise<void>((r) => (started = r));
  const files: SyncWritableHost = {
    ...host,
    async writeFile(file, data, options) {
      started();
      await gate;
      return host.writeFile(file, data, options);
    },
  };
  return { files, started: entered, release };
}

describe('sessions and audit log over an in-memory host', () => {
  let tmp: { dir: string; cleanup: () => void };
  let stateDir: string;
  let sessionsDir: string;
  let host: MemoryHost;
  beforeEach(() => {
    tmp = makeTempDir('state-in-host-');
    stateDir = path.join(tmp.dir, 'state');
    sessionsDir = path.join(stateDir, 'sessions');
    host = createMemoryHost();
  });
  afterEach(() => {
    assert.equal(fs.existsSync(stateDir), false, 'nothing of the state reached the disk');
    tmp.cleanup();
  });

  describe('SessionStore', () => {
    it('persists into the host, and a second store over the same host loads the same sessions', async () => {
      const a = new SessionStore({ stateDir, files: host });
      await a.ensure('chat-1');
      await a.ensure('chat/2', 'session');
      await a.update('chat-1', 'test', (s) => {
        s.lifecycle.pdf = 'loaded';
        s.turn = 3;
      });
      await a.flush();
      assert.deepEqual(a.writeErrors, []);
      assert.deepEqual(names(host, sessionsDir), ['chat%2F2.json', 'chat-1.json'], 'one file per session, nothing beside them');
      const b = new SessionStore({ stateDir, files: host });
      assert.deepEqual(b.loadProblems, []);
      assert.deepEqual(b.list(), a.list());
      assert.equal(b.get('chat-1')?.turn, 3);
      assert.equal(JSON.parse(textOfRead(host.readFile(path.join(sessionsDir, 'chat-1.json'))) ?? '').lifecycle.pdf, 'loaded');
    });

    it('does not resurrect a session deleted before its queued write ran', async () => {
      const a = new SessionStore({ stateDir, files: host });
      await a.ensure('w');
      await a.flush();
      await a.update('w', 'x', (s) => void (s.turn = 8));
      await a.delete('w');
      await a.flush();
      assert.deepEqual(names(host, sessionsDir), []);
      assert.equal(new SessionStore({ stateDir, files: host }).get('w'), undefined);
    });

    it('does not resurrect a session deleted while its write was running', async () => {
      const held = heldWrites(host);
      const a = new SessionStore({ stateDir, files: held.files });
      await a.ensure('w');
      await held.started;
      const deleted = a.delete('w');
      held.release();
      assert.equal(await deleted, true);
      await a.flush();
      assert.deepEqual(a.writeErrors, []);
      assert.deepEqual(names(host, sessionsDir), [], 'the file written meanwhile was removed');
      assert.equal(new SessionStore({ stateDir, files: host }).get('w'), undefined);
    });

    it('keeps the file of a session created again while its deletion waited for the writes', async () => {
      const held = heldWrites(host);
      const a = new SessionStore({ stateDir, files: held.files });
      await a.ensure('r');
      await held.started;
      const deleted = a.delete('r');
      await a.ensure('r', 'session');
      held.release();
      await deleted;
      await a.flush();
      assert.deepEqual(names(host, sessionsDir), ['r.json']);
      assert.equal(new SessionStore({ stateDir, files: host }).get('r')?.load_mode, 'session', 'the new session, as written last');
    });

    it('reports corrupt session files in loadProblems and loads the others', async () => {
      const good = new SessionStore({ stateDir, files: host });
      await good.ensure('ok');
      await good.flush();
      host.write(path.join(sessionsDir, 'bad.json'), '{"id": 5}');
      host.write(path.join(sessionsDir, 'torn.json'), '{"id": "torn", "crea');
      const s = new SessionStore({ stateDir, files: host });
      assert.deepEqual(s.list().map((x) => x.id), ['ok']);
      assert.deepEqual(s.loadProblems.map((p) => path.basename(p.file)), ['bad.json', 'torn.json']);
      assert.match(s.loadProblems[0].problem, /id/);
    });

    it('removes a temp file an older version left behind, through the host', async () => {
      const a = new SessionStore({ stateDir, files: host });
      await a.ensure('x');
      await a.flush();
      host.write(path.join(sessionsDir, 'x.json.123.abcd.tmp'), '{"torn":');
      const b = new SessionStore({ stateDir, files: host });
      assert.ok(b.get('x'));
      await b.flush();
      assert.deepEqual(names(host, sessionsDir), ['x.json']);
    });

    it('collects a write the host refuses in writeErrors, keeping the state in memory', async () => {
      host.write(path.join(sessionsDir, 'x.json', 'inside'), 'a folder where the session file would go');
      const a = new SessionStore({ stateDir, files: host });
      await a.ensure('x');
      await a.flush();
      assert.equal(a.writeErrors.length, 1);
      assert.equal(a.writeErrors[0].file, path.join(sessionsDir, 'x.json'));
      assert.match(a.writeErrors[0].problem, /EISDIR/);
      assert.ok(a.get('x'));
    });
  });

  it('a runtime over the host keeps its session file and audit lines there', async () => {
    const skills = path.join(tmp.dir, 'skills');
    writeMemSkill(host, skills, 'notes');
    const registry = createSkillRegistry({ roots: [{ path: skills, scope: 'user' }], host });
    await registry.refresh();
    const rt = createSkillsRuntime({ files: host, stateDir, source: skillSourceOf(registry) });
    const load = await rt.invoke('load', { names: ['notes'] }, { sessionId: 'm' });
    assert.ok(load.ok, JSON.stringify(load));
    const read = await rt.invoke('read', { skill: 'notes', path: 'SKILL.md' }, { sessionId: 'm' });
    assert.ok(read.ok, JSON.stringify(read));
    await rt.flush();
    assert.equal(rt.audit?.lastError, undefined);
    assert.deepEqual(rt.sessions.writeErrors, []);
    assert.deepEqual(names(host, stateDir), ['audit.jsonl', 'sessions']);
    assert.deepEqual(names(host, sessionsDir), ['m.json']);
    const saved = JSON.parse(textOfRead(host.readFile(path.join(sessionsDir, 'm.json'))) ?? '');
    assert.deepEqual(saved.active_skills.map((a: { name: string }) => a.name), ['notes']);
    const lines = await readAuditFile(path.join(stateDir, 'audit.jsonl'), host);
    assert.deepEqual(lines.map((l) => `${l.action}:${l.skill}:${l.outcome}`), ['load:notes:ok', 'read:notes:ok']);
    const again = createSkillsRuntime({ files: host, stateDir, source: skillSourceOf(registry) });
    assert.deepEqual(again.sessions.get('m')?.active_skills.map((a) => a.name), ['notes'], 'a runtime restarted on the host finds the session');
    assert.equal(fs.existsSync(skills), false, 'the skill itself was only in memory too');
  });
});
