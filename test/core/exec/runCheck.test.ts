// ScriptRunner.check (issue 26): the checks a run makes before staging, without running. It must refuse exactly
// what run refuses for the request (same error code), accept what run accepts, and make nothing on disk.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptRunError, type RunRequest } from '../../../src/core/exec';
import { cleanup, setup, type Sandbox } from './helpers';

describe('core/exec: check, the run decision without the run', () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = setup();
  });
  afterEach(() => cleanup(sb));

  const codeOf = async (p: Promise<unknown>): Promise<string> => {
    try {
      await p;
      return 'ok';
    } catch (e) {
      assert.ok(e instanceof ScriptRunError, String(e));
      return e.code;
    }
  };

  it('refuses what run refuses, with the same code, and stages nothing', async () => {
    const runner = sb.runner({ allowedCommands: ['echo'] });
    const base = { skillName: 'exec-demo', skillRoot: sb.skillRoot };
    fs.mkdirSync(path.join(sb.skillRoot, 'scripts', 'sub'));
    const refused: RunRequest[] = [
      { ...base, script: 'scripts/missing.sh' },
      { ...base, script: '../../../etc/passwd' },
      { ...base, script: 'scripts/sub' },
      { ...base, script: 'scripts/hello.sh', env: { 'BAD-NAME': 'x' } },
      { ...base, command: 'rm -rf /tmp/nothing' },
      { ...base, skillRoot: path.join(sb.tmp, 'no-such-skill'), script: 'scripts/hello.sh' },
    ];
    for (const req of refused) {
      const checked = await codeOf(runner.check(req));
      assert.notEqual(checked, 'ok', `check accepted ${JSON.stringify(req)}`);
      assert.ok(!fs.existsSync(path.join(sb.stateDir, 'runs')) || fs.readdirSync(path.join(sb.stateDir, 'runs')).length === 0, 'a check stages no run folder');
      assert.equal(await codeOf(runner.run(req)), checked, `run and check disagree on ${JSON.stringify(req)}`);
    }
    const fine: RunRequest = { ...base, script: 'scripts/hello.sh' };
    assert.equal(await codeOf(runner.check(fine)), 'ok');
    const r = await runner.run(fine);
    assert.equal(r.exit_code, 0);
  });
});
