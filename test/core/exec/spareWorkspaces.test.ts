import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanup, setup, type Sandbox } from './helpers';

describe('workspaces built ahead of time', () => {
  let sb: Sandbox;
  beforeEach(() => {
    sb = setup();
  });
  afterEach(() => {
    cleanup(sb);
  });

  const sparesDir = () => path.join(sb.stateDir, 'spares');
  const spares = () => (fs.existsSync(sparesDir()) ? fs.readdirSync(sparesDir()) : []);

  it('takes the prepared workspace for the next run, which is fresh, read-only where it must be, and linked', async () => {
    const runner = sb.runner({ keepRuns: 5 });
    const first = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'echo one > out/a.txt; echo w > work/w.txt; ls' });
    assert.equal(first.exit_code, 0, first.stderr);
    await runner.idle();
    const [spare] = spares();
    assert.ok(spare, 'a spare workspace was built after the first run');
    const second = await runner.run({
      skillName: 'exec-demo',
      skillRoot: sb.skillRoot,
      command: 'ls out work; test -L out && test -L .venv && ls scripts/hello.py; touch SKILL.md.new 2>/dev/null && echo writable || echo read-only; echo two > out/b.txt; echo "$OUTPUT_DIR"',
    });
    assert.equal(second.exit_code, 0, second.stderr);
    assert.ok(!spares().includes(spare), 'the spare was taken');
    const lines = second.stdout.trim().split('\n');
    // out/ and work/ start empty (work holds only the inputs link), the skill files and links are there.
    assert.deepEqual(lines.slice(0, 5), ['out:', '', 'work:', 'inputs', 'scripts/hello.py']);
    if (process.getuid?.() !== 0) assert.equal(lines[5], 'read-only');
    const outDir = lines[lines.length - 1];
    assert.equal(fs.readFileSync(path.join(outDir, 'b.txt'), 'utf8'), 'two\n');
    assert.ok(outDir.startsWith(path.join(sb.stateDir, 'runs', second.run_id)), outDir);
    assert.ok(!fs.existsSync(path.join(outDir, 'a.txt')), "the first run's output is not in the second run's out/");
  });

  it('does not hand out a spare built for an older version of the skill', async () => {
    const runner = sb.runner();
    await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'true' });
    await runner.idle();
    assert.equal(spares().length, 1);
    fs.writeFileSync(path.join(sb.skillRoot, 'added.txt'), 'new file\n');
    const r = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'cat added.txt' });
    assert.equal(r.stdout, 'new file\n', r.stderr);
    await runner.idle();
    assert.equal(spares().length, 1, 'the old spare was removed and one for the new version built');
  });
});
