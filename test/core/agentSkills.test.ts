// createAgentSkills: the one assembly of the core. Over an in-memory host it scans without touching the disk
// and the catalog shares that scan; over real folders the runtime it builds loads a skill and runs its script
// through the runner it built, and the audit log it exposes records the run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createAgentSkills } from '../../src/core/agentSkills';
import { readAuditFile } from '../../src/core/audit';
import { createMemoryHost } from '../../src/core/host';
import { sourceOf } from '../../src/core/sources';
import { makeTempDir } from '../support/tempDir';
import { writeMemSkill } from './registry/registryTestUtil';
import { writeSkill } from './runtime/runtimeSupport';

describe('createAgentSkills', () => {
  it('scans through the host it is given, and builds neither runner nor runtime until asked', async () => {
    const host = createMemoryHost();
    const ws = path.resolve('/mem/ws');
    const home = path.resolve('/mem/home');
    writeMemSkill(host, ws, 'pdf');
    writeMemSkill(host, home, 'pdf');
    writeMemSkill(host, home, 'notes');
    const stateDir = path.resolve('/nonexistent/state-of-a-memory-test');
    const core = createAgentSkills({ host, stateDir, roots: [{ path: ws, scope: 'workspace' }, { path: home, scope: 'user' }] });
    const snap = await core.refresh();
    assert.deepEqual(snap.records.map((r) => `${r.id}=${r.status}`), ['user:notes=ok', 'workspace:pdf=ok', 'user:pdf=shadowed']);
    assert.equal(core.host, host);
    assert.equal(fs.existsSync(stateDir), false, 'nothing was written for a scan');
  });

  it('loads, lists docs and reads files of a skill that exists only in the host it is given (nothing from the disk)', async () => {
    const host = createMemoryHost();
    const home = path.resolve('/mem/only-in-memory/skills');
    const dir = path.join(home, 'guide');
    host.write(path.join(dir, 'SKILL.md'), '---\nname: guide\ndescription: Explains the guide. Use when the guide is asked for.\n---\n\n# Guide\n\nRead [the details](references/details.md) first.\n');
    host.write(path.join(dir, 'references', 'details.md'), '# Details\n\nOnly in memory.\n');
    host.write(path.join(dir, 'assets', 'big.txt'), 'x'.repeat(50_000));
    assert.equal(fs.existsSync(dir), false, 'the skill is not on the disk');
    // Sessions are state, written on the disk (a temp folder); the skill's files come from the host only.
    const state = makeTempDir('agent-skills-mem-state-');
    try {
      const core = createAgentSkills({ host, stateDir: state.dir, roots: [{ path: home, scope: 'user' }], runtime: { audit: false } });
      await core.refresh();
      await core.tools().openSession('m');
      const load = await core.tools().invoke('load', { names: ['guide'] }, { sessionId: 'm' });
      assert.ok(load.ok, JSON.stringify(load));
      assert.match(JSON.stringify(load.result), /references\/details\.md/, 'the body reference was resolved through the host');
      const docs = await core.tools().invoke('list_docs', { skill: 'guide' }, { sessionId: 'm' });
      assert.ok(docs.ok, JSON.stringify(docs));
      assert.match(JSON.stringify(docs.result), /references\/details\.md/);
      const read = await core.tools().invoke('read', { skill: 'guide', path: 'references/details.md' }, { sessionId: 'm' });
      assert.ok(read.ok, JSON.stringify(read));
      assert.equal((read.result as { content: string }).content, '# Details\n\nOnly in memory.\n');
      // A page of a larger file, then the rest from next_offset: the host's ranged read.
      const first = await core.tools().invoke('read', { skill: 'guide', path: 'assets/big.txt', length: 1000 }, { sessionId: 'm' });
      assert.ok(first.ok, JSON.stringify(first));
      const page = first.result as { content: string; total_bytes: number; next_offset: number; complete: boolean };
      assert.deepEqual([page.content.length, page.total_bytes, page.next_offset, page.complete], [1000, 50_000, 1000, false]);
      const listing = await core.tools().invoke('read', { skill: 'guide', path: 'references' }, { sessionId: 'm' });
      assert.ok(listing.ok, JSON.stringify(listing));
      assert.deepEqual((listing.result as { entries: string[] }).entries, ['details.md']);
      const outside = await core.tools().invoke('read', { skill: 'guide', path: '../../etc/passwd' }, { sessionId: 'm' });
      assert.equal(outside.ok, false, 'a path out of the skill is refused in memory too');
      await core.flush();
    } finally {
      state.cleanup();
    }
  });

  it('runs a skill script from real folders through the runtime and runner it built, and audits the run', async function () {
    this.timeout(30_000);
    const tmp = makeTempDir('agent-skills-');
    try {
      const skills = path.join(tmp.dir, 'skills');
      writeSkill(skills, 'hello', { description: 'Says hello. Use when greeting.', files: { 'scripts/hello.sh': '#!/bin/sh\necho "hello $1"\n' } });
      const stateDir = path.join(tmp.dir, 'state');
      const core = createAgentSkills({ stateDir, roots: [{ path: skills, scope: 'user' }], runner: { sandbox: 'off' } });
      await core.refresh();
      await core.tools().openSession('s');
      assert.equal((await core.tools().invoke('load', { names: ['hello'] }, { sessionId: 's' })).ok, true);
      const r = await core.tools().invoke('run_script', { skill: 'hello', script: 'scripts/hello.sh', args: ['world'] }, { sessionId: 's' });
      assert.ok(r.ok, JSON.stringify(r));
      assert.equal((r.result as { stdout: string }).stdout, 'hello world\n');
      assert.ok(fs.existsSync(path.join(stateDir, 'exec')), 'the runner works under <stateDir>/exec');
      await core.flush();
      const lines = await readAuditFile(path.join(stateDir, 'audit.jsonl'));
      assert.ok(lines.some((l) => l.action === 'run_script' && l.outcome === 'ok'), `no run_script line in ${JSON.stringify(lines)}`);
    } finally {
      tmp.cleanup();
    }
  });

  it('opens a catalog over the same registry: no second scan, writes show in the registry', async () => {
    const tmp = makeTempDir('agent-skills-cat-');
    try {
      const skills = path.join(tmp.dir, 'skills');
      writeSkill(skills, 'pdf', { description: 'Reads PDFs. Use when a PDF is given.' });
      const core = createAgentSkills({ stateDir: path.join(tmp.dir, 'state'), roots: [{ path: skills, scope: 'user' }] });
      await core.refresh();
      const generation = core.skills.snapshot().generation;
      const catalog = await core.catalog();
      assert.equal(catalog.registry, core.skills);
      assert.equal(core.skills.snapshot().generation, generation, 'the catalog did not rescan a scanned registry');
      assert.equal(catalog.resolve('pdf').id, 'user:pdf');
    } finally {
      tmp.cleanup();
    }
  });

  it('reconfigures the runner and runtime over the same registry, flushing the old runtime; logs only through the logger it is given', async () => {
    const state = makeTempDir('agent-skills-reconfigure-');
    try {
      const roots = path.join(state.dir, 'skills');
      writeSkill(roots, 'one', {});
      writeSkill(roots, 'two', {});
      const notes: string[] = [];
      const core = createAgentSkills({ stateDir: path.join(state.dir, 'state'), roots: [{ path: roots, scope: 'user' }], runtime: { maxLoadedSkills: 1 }, logger: { info: (m) => notes.push(m), warn: (m) => notes.push(m), error: (m) => notes.push(m) } });
      await core.refresh();
      const first = core.tools();
      await first.openSession('s');
      assert.equal((await first.invoke('load', { names: ['one', 'two'] }, { sessionId: 's' })).ok, false, 'a cap of one refuses two');
      const registry = core.skills;
      await core.reconfigure({ runtime: { maxLoadedSkills: 2 } });
      assert.notEqual(core.tools(), first, 'a new runtime after reconfigure');
      assert.equal(core.skills, registry, 'over the same registry (no second scan)');
      // The sessions folder is shared: the session the old runtime wrote is there for the new one.
      await core.tools().openSession('s');
      assert.equal((await core.tools().invoke('load', { names: ['one', 'two'] }, { sessionId: 's' })).ok, true, 'the new cap holds');
      core.log.warn('a note');
      assert.deepEqual(notes, ['a note']);
      await core.dispose();
    } finally {
      state.cleanup();
    }
  });

  it('dispose() writes out what the runtime queued (the audit log) and lets every source reader go', async () => {
    const tmp = makeTempDir('agent-skills-dispose-');
    try {
      const roots = path.join(tmp.dir, 'skills');
      writeSkill(roots, 'one', {});
      const kind = sourceOf('extension');
      let disposed = 0;
      const core = createAgentSkills({ stateDir: path.join(tmp.dir, 'state'), roots: [{ path: roots, scope: 'user' }], sources: [{ kind, open: () => ({ kind, dispose: () => void disposed++ }) }] });
      await core.refresh();
      await core.tools().openSession('s');
      assert.ok((await core.tools().invoke('load', { names: ['one'] }, { sessionId: 's' })).ok);
      // No flush first: the audit line of the load is still queued when dispose is called.
      await core.dispose();
      assert.equal(disposed, 1, 'the reader was let go');
      const lines = await readAuditFile(path.join(tmp.dir, 'state', 'audit.jsonl'));
      assert.deepEqual(lines.filter((l) => l.action === 'load').map((l) => l.session), ['s'], 'the queued audit line is on disk');
    } finally {
      tmp.cleanup();
    }
  });
});
