// The whole core over one in-memory host: createAgentSkills scans, the catalog creates, edits, records revisions,
// archives and restores, edits a read-only skill through its overlay, the runtime keeps its session and audit log,
// and the script runner reads a skill to run it, all through the host. Only what a script needs on a real disk
// (its snapshot and workspace, under runner.stateDir) is on the disk; nothing else is, which the test checks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { skillPacks } from '../../src/core/sourceReaders';
import { createAgentSkills } from '../../src/core/agentSkills';
import { readAuditFile } from '../../src/core/audit';
import { invokeRunSkill, invokeUpdateSkill } from '../../src/core/catalog';
import type { ToolResult } from '../../src/core/tools';
import { createMemoryHost } from '../../src/core/host';
import { textOfRead } from '../../src/core/host/skillsHost';
import { buildZip } from '../support/archiveBuilder';
import { makeTempDir } from '../support/tempDir';
import { writeMemSkill } from './registry/registryTestUtil';

function ok<T>(r: ToolResult<T>): T {
  if (!r.ok) assert.fail(JSON.stringify(r).slice(0, 800));
  return r.result;
}

describe('the core over an in-memory host', () => {
  it('creates, edits, versions, archives and restores skills, and keeps sessions and the audit log, without the disk', async function () {
    this.timeout(30_000);
    const tmp = makeTempDir('core-in-memory-');
    let core: ReturnType<typeof createAgentSkills> | undefined;
    try {
      // Every path of skills and state lies under a folder that does not exist on the disk, and must not come to.
      const base = path.join(tmp.dir, 'never-on-disk');
      const ws = path.join(base, 'ws');
      const ext = path.join(base, 'ext');
      const stateDir = path.join(base, 'state');
      const host = createMemoryHost();
      writeMemSkill(host, ws, 'report');
      writeMemSkill(host, ext, 'tool');
      host.mkdir(path.join(base, 'home'));
      core = createAgentSkills({
        host,
        stateDir,
        roots: [{ path: ws, scope: 'workspace', source: 'test' }, { path: path.join(base, 'home'), scope: 'user', source: 'test' }, { path: ext, scope: 'extension', source: 'acme.tools' }],
        runner: { stateDir: path.join(tmp.dir, 'exec'), sandbox: 'off' },
      });
      await core.refresh();
      const catalog = await core.catalog();
      const audit = { audit: core.tools().audit, sessionId: 'm' };
      const text = (p: string): string | undefined => textOfRead(host.readFile(p));

      // create: the folder appears whole in the host, scripts included
      ok(await invokeUpdateSkill(catalog, { action: 'create', scope: 'user', name: 'notes', description: 'Takes notes. Use when asked to note things.', body: '# Notes\n\nWrite them down.\n', files: [{ path: 'scripts/hello.sh', content: '#!/bin/sh\necho "hello from memory"\n' }] }, audit));
      assert.match(text(path.join(base, 'home', 'notes', 'SKILL.md')) ?? '', /name: notes/);
      // patch with a ref from inspect; a stale ref is refused with the current one
      const inspected = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'report' })) as unknown as { versionRef: string };
      ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'report', content: '---\nname: report\ndescription: Writes reports. Use when a report is due.\n---\n\n# Report v2\n', expectedVersionRef: inspected.versionRef }, audit));
      assert.match(text(path.join(ws, 'report', 'SKILL.md')) ?? '', /Report v2/);
      const stale = await invokeUpdateSkill(catalog, { action: 'replace', skill: 'report', content: 'x', expectedVersionRef: inspected.versionRef });
      assert.equal(stale.ok, false);
      // revisions live in the host; the seed (revision 1) can be restored
      ok(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'report', revision: 1 }, audit));
      assert.match(text(path.join(ws, 'report', 'SKILL.md')) ?? '', /^# report$/m);
      assert.ok((host.readDirectory(path.join(stateDir, 'revisions', 'skills')) ?? []).length >= 1, 'the revision logs are in the host');
      // a read-only (extension) skill is edited through its overlay in the host; the source stays as it was
      const sourceBefore = text(path.join(ext, 'tool', 'SKILL.md'));
      ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'tool', file: 'references/extra.md', content: '# Extra\n' }, audit));
      assert.equal(text(path.join(ext, 'tool', 'SKILL.md')), sourceBefore);
      const overlays = host.readDirectory(path.join(stateDir, 'overlays')) ?? [];
      assert.equal(overlays.length, 1);
      assert.equal(text(path.join(stateDir, 'overlays', overlays[0].name, 'references', 'extra.md')), '# Extra\n');
      const extra = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'tool', file: 'references/extra.md' })) as unknown as { content?: string; raw?: string };
      assert.match(JSON.stringify(extra), /# Extra/);
      // archive moves the folder inside the host; restore brings it back
      ok(await invokeUpdateSkill(catalog, { action: 'archive', skill: 'report', reason: 'cleanup' }, audit));
      assert.equal(host.kind(path.join(ws, 'report')), undefined);
      assert.equal(host.kind(path.join(ws, '.archived')), 'directory');
      ok(await invokeUpdateSkill(catalog, { action: 'restore', skill: 'report' }, audit));
      assert.equal(host.kind(path.join(ws, 'report', 'SKILL.md')), 'file');

      // the runtime's session and audit log are kept in the host too
      await core.tools().openSession('m');
      ok(await core.tools().invoke('load', { names: ['notes'] }, { sessionId: 'm' }));
      // the runner reads the skill from the host to run it (its snapshot is on the disk, under runner.stateDir)
      const run = await core.tools().invoke('run_script', { skill: 'notes', script: 'scripts/hello.sh' }, { sessionId: 'm' });
      assert.ok(run.ok, JSON.stringify(run).slice(0, 800));
      assert.match(JSON.stringify(run.result), /hello from memory/);
      await core.flush();
      assert.equal(host.kind(path.join(stateDir, 'sessions', 'm.json')), 'file');
      const auditFile = path.join(stateDir, 'audit.jsonl');
      const actions = (await readAuditFile(auditFile, host)).map((e) => e.action);
      for (const a of ['load', 'run_script']) assert.ok(actions.includes(a), `${a} in ${actions.join(',')}`);
      assert.equal(actions.filter((a) => a.startsWith('updateSkill.')).length, 6, `updateSkill calls audited: ${actions.join(',')}`);

      assert.equal(fs.existsSync(base), false, 'nothing of the skills or the state reached the disk');
    } finally {
      await core?.idle(); // the next spare workspace is built behind a run: let it finish before cleaning up
      tmp.cleanup();
    }
  });

  it('mounts a pack: unpacked on the disk in packCacheDir, placed in the host, edited through an overlay in the host', async () => {
    const tmp = makeTempDir('core-in-memory-pack-');
    try {
      const base = path.join(tmp.dir, 'never-on-disk');
      const stateDir = path.join(base, 'state');
      const archive = path.join(tmp.dir, 'demo.zip');
      const skill = (name: string) => `---\nname: ${name}\ndescription: Draws ${name}. Use when ${name} are asked for.\n---\n\n# ${name}\n\nDraw them.\n`;
      fs.writeFileSync(archive, buildZip([{ name: 'demo/charts/SKILL.md', data: skill('charts') }, { name: 'demo/maps/SKILL.md', data: skill('maps') }]));
      const host = createMemoryHost();
      host.mkdir(path.join(base, 'ws'));
      const roots = [{ path: path.join(base, 'ws'), scope: 'workspace' as const, source: 'test' }];
      // Without a cache folder on the disk, the pack is refused with what to give (the state folder is not on the disk).
      const refused = createAgentSkills({ host, stateDir, roots, sources: [skillPacks([{ source: archive }])] });
      await assert.rejects(refused.catalog(), /packCacheDir/);
      const core = createAgentSkills({ host, stateDir, roots, sources: [skillPacks([{ source: archive }])], packCacheDir: path.join(tmp.dir, 'packs') });
      const catalog = await core.catalog();
      const list = ok(await invokeRunSkill(catalog, { action: 'list', source: 'pack' })) as unknown as { skills: { id: string }[] };
      assert.deepEqual(list.skills.map((e) => e.id), ['pack:demo:charts', 'pack:demo:maps']);
      const charts = catalog.resolve('charts');
      assert.equal(host.kind(path.join(charts.skillDir, 'SKILL.md')), 'file', 'the pack is in the host');
      ok(await invokeUpdateSkill(catalog, { action: 'replace', skill: 'charts', content: skill('charts').replace('Draw them.', 'Draw bars.') }));
      assert.match(textOfRead(host.readFile(path.join(catalog.overlayDir('pack:demo:charts'), 'SKILL.md'))) ?? '', /Draw bars\./);
      assert.match(textOfRead(host.readFile(path.join(charts.skillDir, 'SKILL.md'))) ?? '', /Draw them\./, 'the pack source is unchanged');
      // A second catalog over the same host finds the pack placed already and serves the edit.
      const again = await createAgentSkills({ host, stateDir, roots, sources: [skillPacks([{ source: archive }])], packCacheDir: path.join(tmp.dir, 'packs') }).catalog();
      assert.match(JSON.stringify(ok(await invokeRunSkill(again, { action: 'inspect', skill: 'charts' }))), /Draw bars\./);
      assert.equal(fs.existsSync(base), false, 'nothing of the skills or the state reached the disk');
    } finally {
      tmp.cleanup();
    }
  });
});
