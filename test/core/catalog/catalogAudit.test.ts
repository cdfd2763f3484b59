import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { AuditLog, readAuditFile } from '../../../src/core/audit/auditLog';
import { invokeRunSkill, invokeUpdateSkill } from '../../../src/core/catalog';
import { failed, makeWorld, ok, openCatalog, writeSkill } from './catalogTestUtil';

describe('catalog: every runSkill and updateSkill call is audited', () => {
  it('writes, dry runs, refusals, creates, archives and inspects each leave one line naming the skill, outcome and version', async () => {
    const w = makeWorld();
    writeSkill(w.workspace, 'report');
    const catalog = await openCatalog(w);
    const audit = new AuditLog({ file: path.join(w.stateDir, 'audit.jsonl') });
    const opts = { audit, sessionId: 'chat-1' };

    const inspected = ok(await invokeRunSkill(catalog, { action: 'inspect', skill: 'report' }, { sessionId: 'chat-1' }, { audit })) as unknown as { versionRef: string };
    const edit = { action: 'patch', skill: 'report', edits: [{ startLine: 7, newText: 'Step one, carefully.' }] };
    ok(await invokeUpdateSkill(catalog, { ...edit, dryRun: true }, opts));
    const written = ok(await invokeUpdateSkill(catalog, { ...edit, expectedVersionRef: inspected.versionRef }, opts)) as unknown as { versionRef: string; revision: { seq: number } };
    assert.equal(failed(await invokeUpdateSkill(catalog, { ...edit, expectedVersionRef: inspected.versionRef }, opts)).code, 'stale_ref');
    assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'patch', skill: 'report', file: '../x', edits: [{ startLine: 1, newText: 'x' }] }, opts)).code, 'unsafe_path');
    assert.equal(failed(await invokeUpdateSkill(catalog, { action: 'patch' }, opts)).code, 'invalid_input');
    const big = 'x'.repeat(100_000);
    ok(await invokeUpdateSkill(catalog, { action: 'create', scope: 'user', name: 'notes', description: 'Keeps notes. Use when asked to note something.', body: `# Notes\n\n${big}\n` }, opts));
    ok(await invokeUpdateSkill(catalog, { action: 'archive', skill: 'user:notes' }, opts));
    await audit.flush();

    const lines = await readAuditFile(audit.file);
    assert.deepEqual(
      lines.map((l) => [l.action, l.skill, l.outcome]),
      [
        ['runSkill.inspect', 'workspace:report', 'ok'],
        ['updateSkill.patch', 'workspace:report', 'ok'],
        ['updateSkill.patch', 'workspace:report', 'ok'],
        ['updateSkill.patch', 'report', 'error:stale_ref'],
        ['updateSkill.patch', 'report', 'error:unsafe_path'],
        ['updateSkill.patch', undefined, 'error:invalid_input'],
        ['updateSkill.create', 'user:notes', 'ok'],
        ['updateSkill.archive', 'user:notes', 'ok'],
      ],
    );
    assert.ok(lines.every((l) => l.session === 'chat-1' && typeof l.duration_ms === 'number' && !Number.isNaN(Date.parse(l.time))));
    assert.equal(lines[1].details?.dryRun, true);
    assert.equal(lines[1].details?.written, false);
    assert.equal(lines[2].details?.written, true);
    assert.equal(lines[2].details?.revision, written.revision.seq);
    assert.equal(lines[2].digest, written.versionRef);
    assert.equal(lines[2].details?.previousRef, inspected.versionRef);
    assert.match(String(lines[3].details?.message), /changed since version/);
    // A 100 KB body is logged as its size and digest, not copied into the log.
    const body = (lines[6].arguments as { body: string }).body;
    assert.match(body, /\[100\d{3} characters, sha256:[0-9a-f]{64}\]$/);
    assert.ok(JSON.stringify(lines[6]).length < 5000);
    assert.equal(lines[7].details?.change, 'archived');
  });

  it('without an audit sink nothing is logged and results are unchanged', async () => {
    const w = makeWorld();
    writeSkill(w.workspace, 'report');
    const catalog = await openCatalog(w);
    const r = ok(await invokeUpdateSkill(catalog, { action: 'metadata', skill: 'report', fields: { license: 'MIT' } }));
    assert.equal((r as unknown as { written: boolean }).written, true);
  });
});
