// The audit log writes, rotates and is read back through the host it is given: over an in-memory host every line,
// rename and removal stays in the map. The log's file is named under a fresh temp folder that is never made, so a
// write that reached the disk instead of the host would make it and fail the test.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AuditLog, readAuditFile, type AuditEntry } from '../../../src/core/audit';
import { createMemoryHost, type MemoryHost } from '../../../src/core/host';
import { makeTempDir } from '../../support/tempDir';

/** One audit entry numbered `n` (its line is about 150 bytes). */
function entry(n: number): AuditEntry {
  return { time: new Date(n * 1000).toISOString(), session: 's', skill: 'notes', action: 'read', arguments: { path: 'SKILL.md', n }, outcome: 'ok', duration_ms: 1 };
}

const numbers = (entries: AuditEntry[]): number[] => entries.map((e) => (e.arguments as { n: number }).n);
const names = (host: MemoryHost, dir: string): string[] => (host.readDirectory(dir) ?? []).map((e) => e.name).sort();

describe('audit log over an in-memory host', () => {
  let tmp: { dir: string; cleanup: () => void };
  let stateDir: string;
  let host: MemoryHost;
  beforeEach(() => {
    tmp = makeTempDir('audit-in-host-');
    stateDir = path.join(tmp.dir, 'state');
    host = createMemoryHost();
  });
  afterEach(() => {
    assert.equal(fs.existsSync(stateDir), false, 'nothing of the log reached the disk');
    tmp.cleanup();
  });

  it('appends lines to the host, and readAuditFile reads them back through it', async () => {
    const log = new AuditLog({ file: path.join(stateDir, 'audit.jsonl'), files: host });
    for (let i = 0; i < 3; i++) log.append(entry(i));
    await log.flush();
    assert.equal(log.lastError, undefined);
    assert.deepEqual(names(host, stateDir), ['audit.jsonl']);
    assert.deepEqual(numbers(await readAuditFile(log.file, host)), [0, 1, 2]);
    assert.deepEqual(await readAuditFile(path.join(stateDir, 'audit.jsonl.1'), host), [], 'a missing file has no entries');
  });

  it('rotates at maxBytes keeping N files, dropping the oldest lines', async () => {
    const maxBytes = 400;
    const log = new AuditLog({ file: path.join(stateDir, 'audit.jsonl'), files: host, maxBytes, keep: 2 });
    for (let i = 0; i < 12; i++) log.append(entry(i));
    await log.flush();
    assert.equal(log.lastError, undefined);
    assert.deepEqual(names(host, stateDir), ['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2']);
    for (const name of names(host, stateDir)) {
      const size = host.stat(path.join(stateDir, name))?.size ?? 0;
      assert.ok(size > 0 && size <= maxBytes, `${name} holds ${size} bytes, within ${maxBytes}`);
    }
    // Oldest file first: the kept lines are the newest ones, in order, without a gap.
    const kept = numbers((await Promise.all(['audit.jsonl.2', 'audit.jsonl.1', 'audit.jsonl'].map((f) => readAuditFile(path.join(stateDir, f), host)))).flat());
    assert.equal(kept[kept.length - 1], 11);
    assert.ok(kept[0] > 0, `the oldest lines were dropped (kept ${kept.join(',')})`);
    assert.deepEqual(kept, kept.map((_, i) => kept[0] + i));
  });

  it('with keep 0 a rotation removes the full file instead of keeping it', async () => {
    const log = new AuditLog({ file: path.join(stateDir, 'audit.jsonl'), files: host, maxBytes: 400, keep: 0 });
    for (let i = 0; i < 6; i++) log.append(entry(i));
    await log.flush();
    assert.deepEqual(names(host, stateDir), ['audit.jsonl']);
    const left = numbers(await readAuditFile(log.file, host));
    assert.equal(left[left.length - 1], 5);
    assert.ok(left.length < 6);
  });

  it('a new log on the same host counts the size already there (stat through the host) before rotating', async () => {
    const file = path.join(stateDir, 'audit.jsonl');
    const first = new AuditLog({ file, files: host });
    first.append(entry(0));
    first.append(entry(1));
    await first.flush();
    const size = host.stat(file)?.size ?? 0;
    const second = new AuditLog({ file, files: host, maxBytes: size + 10, keep: 1 });
    second.append(entry(2));
    await second.flush();
    assert.deepEqual(numbers(await readAuditFile(`${file}.1`, host)), [0, 1], 'the existing lines were rotated away');
    assert.deepEqual(numbers(await readAuditFile(file, host)), [2]);
  });

  it('readAuditFile refuses a file over its maxBytes instead of answering no entries', async () => {
    const log = new AuditLog({ file: path.join(stateDir, 'audit.jsonl'), files: host });
    log.append(entry(0));
    await log.flush();
    await assert.rejects(readAuditFile(log.file, host, 10), (e: NodeJS.ErrnoException) => e.code === 'EFBIG');
  });
});
