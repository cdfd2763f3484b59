// One way to add a skill source (issue 23 point 5): every kind's reader is opened by createAgentSkills from the
// kinds table, and the core composes them. Attacked here: the refusal of MCP-served scripts is inside the factory
// (a core no front end guarded refuses a run of a skill in the MCP cache, and says so in its log); a reader's file
// filter and served skills reach the registry and the runtime; a kind missing from the table is refused with the
// file to edit; no front end calls a source wrapper. (A plugin run gets its plugin through the factory alone:
// test/core/exec/pluginRuns.test.ts.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createAgentSkills } from '../../../src/core/agentSkills';
import { pluginRegistryHost } from '../../../src/core/registry/pluginContributions';
import type { SkillRecord } from '../../../src/core/registry/registryTypes';
import { sourceOf, type SourceKind } from '../../../src/core/sources';
import { extensionSkills, type SourceReaderSpec } from '../../../src/core/sourceReaders';
import { makeTempDir } from '../../support/tempDir';
import { writeSkill } from '../runtime/runtimeSupport';

const SCRIPT = { 'scripts/hi.sh': '#!/bin/sh\necho "hi from $0"\n' };

describe('skill sources: one reader interface, opened and composed by the factory', function () {
  this.timeout(60_000);

  it('refuses a run of an MCP-served skill in any core, with no guard put in by a front end, and logs the refusal once', async () => {
    const tmp = makeTempDir('agent-skills-mcp-guard-');
    try {
      const stateDir = path.join(tmp.dir, 'state');
      // A copy as the MCP client keeps it: <stateDir>/mcp-cache/<server>/<skill>; listed through a root so it resolves.
      const served = path.join(stateDir, 'mcp-cache', 'docs-server');
      writeSkill(served, 'served', { files: SCRIPT });
      const local = path.join(tmp.dir, 'skills');
      writeSkill(local, 'local', { files: SCRIPT });
      const warned: string[] = [];
      const core = createAgentSkills({
        stateDir,
        roots: [{ path: local, scope: 'workspace' }, { path: served, scope: 'user' }],
        runner: { sandbox: 'off' },
        runtime: { audit: false },
        logger: { info: () => undefined, warn: (m) => warned.push(m), error: () => undefined },
      });
      await core.refresh();
      await core.tools().openSession('s');
      assert.ok((await core.tools().invoke('load', { names: ['served', 'local'] }, { sessionId: 's' })).ok);
      const refused = await core.tools().invoke('run_script', { skill: 'served', script: 'scripts/hi.sh' }, { sessionId: 's' });
      assert.equal(refused.ok, false, JSON.stringify(refused));
      assert.match(JSON.stringify(refused), /run_refused/);
      assert.match(JSON.stringify(refused), /Skill mcp:docs-server:served is served by MCP server 'docs-server': MCP-served skills are instructions only/);
      assert.deepEqual(warned.filter((w) => /served by MCP server/.test(w)).length, 1, JSON.stringify(warned));
      const ran = await core.tools().invoke('run_script', { skill: 'local', script: 'scripts/hi.sh' }, { sessionId: 's' });
      assert.ok(ran.ok, JSON.stringify(ran));
      await core.dispose();
    } finally {
      tmp.cleanup();
    }
  });

  it('filters the one host through a reader (skills contributed one by one) and joins served skills to the runtime', async () => {
    const tmp = makeTempDir('agent-skills-readers-');
    try {
      const root = path.join(tmp.dir, 'ext', 'skills');
      writeSkill(root, 'chosen');
      writeSkill(root, 'not-chosen');
      const core = createAgentSkills({
        stateDir: path.join(tmp.dir, 'state'),
        roots: [{ path: root, scope: 'extension', source: 'acme.tools' }],
        sources: [extensionSkills(() => new Map([[root, new Set(['chosen'])]]))],
        runtime: { audit: false },
      });
      const snap = await core.refresh();
      assert.deepEqual(snap.records.map((r) => r.name), ['chosen']);
      assert.equal(core.host.kind(path.join(root, 'not-chosen', 'SKILL.md')), undefined, 'the core host is the filtered one');
      assert.ok(fs.existsSync(path.join(root, 'not-chosen', 'SKILL.md')));
      await core.dispose();
    } finally {
      tmp.cleanup();
    }
  });

  it('a reader of a kind the table lists serves skills through the factory; a kind not in the table is refused naming the file', () => {
    const mcp = sourceOf('mcp');
    const extra: SkillRecord = { id: 'mcp:x:extra', name: 'extra', description: 'd', location: '/nowhere/extra/SKILL.md', rootDir: '/nowhere/extra', scope: 'mcp', root: { path: '/nowhere', scope: 'mcp', source: 'x' }, properties: {}, digest: '', diagnostics: [], status: 'ok', shadows: [] };
    const served: SourceReaderSpec = { kind: mcp, open: () => ({ kind: mcp, serve: (base) => ({ ...base, list: () => [...base.list(), extra], resolve: (n) => (n === 'extra' ? extra : base.resolve(n)) }) }) };
    const core = createAgentSkills({ stateDir: '/nonexistent/state', roots: [], sources: [served] });
    assert.deepEqual(core.served().map((r) => r.id), ['mcp:x:extra']);
    const stray: SourceKind = { name: 'stray', rank: 9, readOnly: true, label: 'Stray', idPrefix: 'stray', idHasSource: false, scopeWord: 'stray', inWorkspace: false };
    assert.throws(() => createAgentSkills({ stateDir: '/nonexistent/state', roots: [], sources: [{ kind: stray, open: () => ({ kind: stray }) }] }), /Skill source kind 'stray' has no line in the kinds table \(src\/core\/sources\/sourceKinds\.ts\)/);
  });

  it('no front end wraps a source: the readers alone use the wrappers', () => {
    const root = path.resolve(__dirname, '../../..');
    const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
    const wrappers = /\b(withMcpSkills|refuseMcpScripts|pluginRegistryHost|pluginRunContext|mountPack)\(/;
    const users = [...files(path.join(root, 'src')), ...files(path.join(root, 'server'))]
      .filter((f) => wrappers.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(root, f).split(path.sep).join('/'))
      .filter((f) => !f.startsWith('src/core/sourceReaders/'))
      // where each is defined (and, for the pack and plugin helpers, the module that holds them)
      .filter((f) => !['src/core/mcp/mcpSkillSource.ts', 'src/core/registry/pluginContributions.ts', 'src/core/plugins/pluginRuns.ts', 'src/core/catalog/packMounts.ts'].includes(f));
    assert.deepEqual(users, []);
    assert.equal(typeof pluginRegistryHost, 'function');
  });
});
