import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readAuditFile } from '../../../src/core/audit';
import { createSkillsRuntime } from '../../../src/core/runtime';
import { folderSource, writeSkill } from './runtimeSupport';

// The VS Code tools hand the model's raw input to runtime.invoke (they no longer pre-validate), so a malformed
// call is refused by the runtime with the field named, and audited like every other refusal.
describe('runtime: malformed tool input is refused with the field named and audited', () => {
  it('wrong types, missing fields, extra fields and NaN each give invalid_input and one audit line', async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-audit-'));
    try {
      const skills = path.join(base, 'skills');
      writeSkill(skills, 'notes');
      const rt = createSkillsRuntime({ source: folderSource(skills), stateDir: path.join(base, 'state') });
      const s = { sessionId: 'chat' };
      await rt.invoke('load', { names: ['notes'] }, s);
      const calls: [string, unknown, RegExp][] = [
        ['read', { path: 5 }, /path: .*expected string/],
        ['read', {}, /path: /],
        ['read', { path: 'SKILL.md', offset: Number.NaN }, /offset: .*NaN/],
        ['read', { path: 'SKILL.md', length: -3 }, /length: /],
        ['load', { names: ['notes'], bogus: true }, /bogus/],
        ['run_script', { script: 'a.sh', command: 'ls' }, /exactly one of 'script' and 'command'/],
        ['unload', null, /either 'names' or 'all: true'/],
      ];
      for (const [tool, input, problem] of calls) {
        const r = await rt.invoke(tool, input, s);
        assert.ok(!r.ok, `${tool} ${JSON.stringify(input)} was accepted`);
        assert.equal(r.error.code, 'invalid_input');
        assert.match(r.error.message, problem);
        assert.match(r.error.hint, /Fix the named field/);
      }
      await rt.flush();
      const lines = (await readAuditFile(path.join(base, 'state', 'audit.jsonl'))).slice(1);
      assert.deepEqual(lines.map((l) => [l.action, l.outcome]), calls.map(([tool]) => [tool, 'error:invalid_input']));
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
