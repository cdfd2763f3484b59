import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AuditLog, REDACTED, readAuditFile } from '../../../src/core/audit';

describe('audit log: environment values are never written', () => {
  it('keeps env keys and replaces their values, at any depth, leaving other arguments as given', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-redact-'));
    const log = new AuditLog({ file: path.join(dir, 'audit.jsonl') });
    const secret = ['sk', 'live', 'abcdefghijklmnop'].join('-');
    log.append({
      time: new Date(0).toISOString(),
      session: 's1',
      action: 'run_script',
      arguments: { skill: 'demo', path: 'scripts/x.sh', args: ['--token', 'visible-arg'], env: { API_KEY: secret, MODE: 'fast' }, nested: [{ env: { DB_PASSWORD: secret } }] },
      outcome: 'ok',
      duration_ms: 1,
    });
    await log.flush();
    const text = fs.readFileSync(log.file, 'utf8');
    assert.ok(!text.includes(secret), `the secret reached the audit log: ${text}`);
    const [entry] = await readAuditFile(log.file);
    const args = entry.arguments as { env: Record<string, string>; args: string[]; nested: { env: Record<string, string> }[] };
    assert.deepEqual(args.env, { API_KEY: REDACTED, MODE: REDACTED });
    assert.deepEqual(args.nested[0].env, { DB_PASSWORD: REDACTED });
    assert.deepEqual(args.args, ['--token', 'visible-arg']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
