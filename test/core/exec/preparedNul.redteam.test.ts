// Red team (seventh round, attack23): a root runner's unsandboxed run may be started by a prepared sh, which reads the
// run's line on its standard input (preparedStart.ts). dash drops NUL bytes from what it reads, so an argument
// "x\0y" or an env value "a\0b" reached the script as "xy" and "ab", where a spawned run (the first run, an ordinary
// user's runner, a sandboxed run) failed with "could not start (ERR_INVALID_ARG_VALUE); check that the program is
// installed". The same call ran with other words depending on whether a start happened to be prepared. Now the request
// check refuses a NUL in an argument, an env value or a command before any launch, naming the field.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptRunError } from '../../../src/core/exec';
import { writeSkill } from '../runtime/runtimeSupport';
import { cleanup, setup, type Sandbox } from './helpers';

describe('core/exec NUL bytes in a run\'s words (red team, prepared starts)', function () {
  this.timeout(120000);
  let sb: Sandbox;
  let skills = '';
  before(() => {
    sb = setup();
    skills = path.join(sb.tmp, 'skills');
    // Writes what it was given to a file of its run folder's parent: a run that should have been refused leaves it.
    writeSkill(skills, 'probe', { files: { 'scripts/p.sh': `printf '%s|%s' "$*" "$K" > ${JSON.stringify(path.join(sb.tmp, 'ran'))}\n` } });
  });
  after(() => cleanup(sb));

  const req = (args: string[], env: Record<string, string> = {}) => ({ skillName: 'probe', skillRoot: path.join(skills, 'probe'), script: 'scripts/p.sh', args, env, timeoutMs: 60000 });
  const refused = (field: string) => (e: unknown) => {
    assert.ok(e instanceof ScriptRunError && e.code === 'invalid_request', String(e));
    assert.ok(e.message.includes(field) && /NUL/.test(e.message), e.message);
    return true;
  };

  it('refuses a NUL in an argument, an env value and a command, before and after a start was prepared, and never runs the script', async () => {
    const runner = sb.runner({ sandbox: 'off' });
    const ran = path.join(sb.tmp, 'ran');
    // The first run is spawned; the runner then prepares the next one (a root runner with a pids cgroup).
    for (let i = 0; i < 3; i++) {
      fs.rmSync(ran, { force: true });
      const ok = await runner.run(req(['plain'], { K: 'v' }));
      assert.equal(ok.exit_code, 0, ok.stderr);
      assert.equal(fs.readFileSync(ran, 'utf8'), 'plain|v');
      fs.rmSync(ran, { force: true });
      await new Promise((resolve) => setImmediate(resolve));
      const attempt = i === 0 ? req(['x\0y']) : i === 1 ? req(['ok'], { K: 'a\0b' }) : { ...req([]), script: undefined, command: 'printf x\0y' };
      const field = i === 0 ? 'args[0]' : i === 1 ? 'env.K' : 'command';
      const outcome = await runner.run(attempt as never).then(
        (r) => `ended (exit ${r.exit_code}: ${r.stderr.trim()})`,
        (e: unknown) => e,
      );
      const seen = fs.existsSync(ran) ? `ran with ${JSON.stringify(fs.readFileSync(ran, 'utf8'))}` : 'not run';
      assert.equal(seen, 'not run', `the run with a NUL in ${field} ${seen}, ${typeof outcome === 'string' ? outcome : ''}`);
      assert.ok(typeof outcome !== 'string', `the run with a NUL in ${field} was not refused: it ${outcome}`);
      refused(field)(outcome);
    }
    await runner.idle();
  });
});
