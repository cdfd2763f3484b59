import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readAuditFile } from '../../../src/core/audit';
import { createSkillsRuntime, type SkillsRuntimeOptions } from '../../../src/core/runtime';
import { makeTempDir } from '../../support/tempDir';
import { folderSource, writeSkill } from './runtimeSupport';

describe('runtime load modes, permissions, persistence and audit', function () {
  this.timeout(20000);
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  let stateDir: string;
  const make = (o: Partial<SkillsRuntimeOptions> = {}) => createSkillsRuntime({ source: folderSource(skills), stateDir, ...o });
  const s = { sessionId: 'conv' };

  beforeEach(() => {
    tmp = makeTempDir('rt-modes-');
    skills = path.join(tmp.dir, 'skills');
    stateDir = path.join(tmp.dir, 'state');
    writeSkill(skills, 'git-helper', { description: 'Git workflows.', frontmatter: 'allowed-tools: Bash(git:*), Read', body: 'GIT-BODY' });
    writeSkill(skills, 'notes', { description: 'Take notes.', body: 'NOTES-BODY' });
  });
  afterEach(() => tmp.cleanup());

  it("turn: content stays through the turn's tool loop and is cleared when the next turn begins", async () => {
    const rt = make({ loadMode: 'turn' });
    await rt.beginTurn('conv', 'first');
    await rt.invoke('load', { names: ['notes'] }, s);
    assert.match((await rt.compose('conv', [])).instructions, /NOTES-BODY/);
    assert.match((await rt.compose('conv', [])).instructions, /NOTES-BODY/);
    const { session } = await rt.beginTurn('conv', 'second');
    assert.equal(session.turn, 2);
    assert.deepEqual(session.active_skills, []);
    assert.equal(session.lifecycle.notes, 'discovered');
    assert.doesNotMatch((await rt.compose('conv', [])).instructions, /NOTES-BODY/);
  });

  it('once: content goes to the next model call only; the skill stays usable for reads until the turn ends', async () => {
    const rt = make({ loadMode: 'once' });
    await rt.beginTurn('conv', 'x');
    await rt.invoke('load', { names: ['notes'] }, s);
    assert.match((await rt.compose('conv', [])).instructions, /NOTES-BODY/);
    assert.doesNotMatch((await rt.compose('conv', [])).instructions, /NOTES-BODY/);
    assert.equal((await rt.invoke('read', { path: 'SKILL.md' }, s)).ok, true);
    await rt.invoke('load', { names: ['notes'] }, s);
    assert.match((await rt.compose('conv', [])).instructions, /NOTES-BODY/, 'loading again shows it again');
    await rt.beginTurn('conv', 'y');
    assert.equal(rt.sessions.get('conv')?.active_skills.length, 0);
  });

  it('session: content persists across turns until unloaded, and across a restart of the runtime', async () => {
    const rt = make({ loadMode: 'session' });
    await rt.beginTurn('conv', 'a');
    await rt.invoke('load', { names: ['git-helper'], docs: [] }, s);
    await rt.beginTurn('conv', 'b');
    assert.match((await rt.compose('conv', [])).instructions, /GIT-BODY/);
    await rt.openSession('other', 'turn');
    await rt.flush();
    const again = make({ loadMode: 'session' });
    assert.deepEqual(again.sessions.list().map((x) => x.id), ['conv', 'other']);
    const restored = again.sessions.get('conv');
    assert.deepEqual(restored?.active_skills.map((a) => a.name), ['git-helper']);
    assert.equal(restored?.turn, 2);
    assert.match((await again.compose('conv', [])).instructions, /GIT-BODY/);
    assert.equal((await again.invoke('read', { path: 'SKILL.md' }, s)).ok, true);
    await again.invoke('unload', { all: true }, s);
    assert.doesNotMatch((await again.compose('conv', [])).instructions, /GIT-BODY/);
    await again.setLoadMode('conv', 'once');
    await again.flush();
    assert.equal(make().sessions.get('conv')?.load_mode, 'once');
  });

  it('beginTurn loads skills named with $name or #name; a bare name only ranks', async () => {
    const rt = make();
    const r = await rt.beginTurn('conv', 'use $notes and #git-helper');
    assert.deepEqual(r.autoLoaded, ['notes', 'git-helper']);
    assert.deepEqual(rt.sessions.get('conv')?.active_skills.map((a) => a.name), ['notes', 'git-helper']);
    const bare = await rt.beginTurn('conv', 'what do the notes say');
    assert.deepEqual(bare.autoLoaded, []);
    assert.deepEqual((await rt.compose('conv', [])).catalog.mentioned, ['notes']);
    const off = make({ autoLoadMentions: false });
    assert.deepEqual((await off.beginTurn('c2', 'use $notes')).autoLoaded, []);
  });

  it("reports a loaded skill's allowed-tools as pre-approved; restricted mode denies the rest", async () => {
    const rt = make();
    await rt.invoke('load', { names: ['git-helper', 'notes'] }, s);
    assert.deepEqual(rt.preApprovedTools('conv'), ['Bash(git:*)', 'Read']);
    assert.equal(rt.checkToolPermission('conv', 'bash').decision, 'allow');
    assert.match(rt.checkToolPermission('conv', 'Bash').reason, /git-helper/);
    assert.equal(rt.checkToolPermission('conv', 'WebFetch').decision, 'ask');
    await rt.flush();
    const strict = make({ restrictedTools: true });
    assert.equal(strict.checkToolPermission('conv', 'WebFetch').decision, 'deny');
    assert.match(strict.checkToolPermission('conv', 'WebFetch').reason, /not in allowed-tools of git-helper/);
    assert.equal(strict.checkToolPermission('conv', 'Read').decision, 'allow');
    assert.notEqual(strict.checkToolPermission('conv', 'unload').decision, 'deny', "the runtime's own tools are never denied");
    await strict.invoke('unload', { names: ['git-helper'] }, s);
    assert.equal(strict.checkToolPermission('conv', 'WebFetch').decision, 'ask', 'no restricting skill loaded: normal permissions');
  });

  it('appends one audit line per load, unload, read and run attempt, with outcome and duration', async () => {
    const rt = make();
    await rt.invoke('load', { names: ['notes'] }, s);
    await rt.invoke('read', { path: 'SKILL.md' }, s);
    await rt.invoke('read', { path: '../x' }, s);
    await rt.invoke('run_script', { command: 'true' }, s);
    await rt.invoke('unload', { all: true }, s);
    await rt.flush();
    const lines = await readAuditFile(path.join(stateDir, 'audit.jsonl'));
    assert.deepEqual(
      lines.map((l) => `${l.action}:${l.skill}:${l.outcome}`),
      ['load:notes:ok', 'read:notes:ok', 'read:notes:error:path_refused', 'run_script:notes:error:no_executor', 'unload:notes:ok'],
    );
    const first = lines[0];
    assert.equal(first.session, 'conv');
    assert.match(first.digest ?? '', /^sha256:/);
    assert.deepEqual(first.arguments, { names: ['notes'] });
    assert.ok(first.duration_ms >= 0 && !Number.isNaN(Date.parse(first.time)));
  });

  it('rotates the audit file by size and keeps N old files', async () => {
    const rt = make({ audit: { maxBytes: 600, keep: 2 } });
    await rt.invoke('load', { names: ['notes'] }, s);
    for (let i = 0; i < 12; i++) await rt.invoke('read', { path: 'SKILL.md' }, s);
    await rt.flush();
    const files = fs.readdirSync(stateDir).filter((f) => f.startsWith('audit')).sort();
    assert.deepEqual(files, ['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2']);
    for (const f of files) assert.ok(fs.statSync(path.join(stateDir, f)).size <= 600, `${f} within the size`);
    const all = (await Promise.all(files.map((f) => readAuditFile(path.join(stateDir, f))))).flat();
    assert.ok(all.length < 13, 'the oldest lines were dropped');
    assert.equal((await readAuditFile(path.join(stateDir, 'audit.jsonl.2')))[0].action === 'load', false);
  });
});
