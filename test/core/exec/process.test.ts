import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alive, cleanup, setup, waitFor, type Sandbox } from './helpers';

describe('core/exec process control and workspace', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  it('gives the script the workspace variables, the staged skill as cwd, and a scrubbed environment', async () => {
    process.env.SECRET_TOKEN = 'do-not-leak';
    try {
      const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/env.sh', env: { PASSED: 'yes' } });
      const vars = Object.fromEntries(r.stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
      const ws = vars.WORKSPACE_DIR;
      assert.ok(ws.startsWith(path.join(sb.stateDir, 'runs')), ws);
      assert.equal(vars.SKILLS_DIR, path.join(ws, 'skills'));
      assert.equal(vars.WORK_DIR, path.join(ws, 'work'));
      assert.equal(vars.OUTPUT_DIR, path.join(ws, 'out'));
      assert.equal(vars.RUN_DIR, path.join(ws, 'run'));
      assert.equal(vars.SKILL_NAME, 'exec-demo');
      assert.equal(vars.PWD, path.join(ws, 'skills', 'exec-demo'));
      assert.equal(vars.SECRET_TOKEN, '<unset>');
      assert.equal(vars.PASSED, 'yes');
      assert.equal(vars.PATH, process.env.PATH);
      assert.ok(vars.HOME.startsWith(path.join(sb.stateDir, 'deps')), 'HOME is the per-skill home');
    } finally {
      delete process.env.SECRET_TOKEN;
    }
  });

  it('passes extra host variables named in envAllowlist', async () => {
    process.env.SECRET_TOKEN = 'allowed-now';
    try {
      const r = await sb.runner({ envAllowlist: ['SECRET_TOKEN'] }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/env.sh' });
      assert.match(r.stdout, /^SECRET_TOKEN=allowed-now$/m);
    } finally {
      delete process.env.SECRET_TOKEN;
    }
  });

  it('does not let env override the workspace variables', async () => {
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/env.sh', env: { OUTPUT_DIR: '/etc' } });
    assert.doesNotMatch(r.stdout, /^OUTPUT_DIR=\/etc$/m);
  });

  it('kills the script and the child it forked at the timeout', async function () {
    this.timeout(60_000); // a hang guard above the clock bound below
    const started = Date.now();
    const r = await sb.runner({ killGraceMs: 200 }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/fork_hang.sh', timeoutMs: 500 });
    assert.equal(r.timed_out, true);
    // Not waiting for the forked child's 30 s sleep (which holds stdout): a bound on what the run waited for, far
    // below that sleep; the 5 s before it was a clock limit that a loaded machine could reach by spawning alone.
    assert.ok(Date.now() - started < 20_000, `returned ${Date.now() - started} ms after the start, not soon after the 500 ms timeout`);
    const child = Number(/child=(\d+)/.exec(r.stdout)?.[1]);
    assert.ok(child > 0, `child pid printed: ${r.stdout}`);
    assert.equal(await waitFor(() => !alive(child), 10_000), true, `child ${child} still alive`);
    assert.ok(r.warnings.some((w) => w.includes('timed out')));
  });

  it('cancels through an AbortSignal the same way', async () => {
    // The child's pid is read from a file while the run goes on, and the cancel comes only once the child
    // is seen alive (it came after a fixed 300 ms, and passed trivially when no pid had been printed yet).
    const pidFile = path.join(sb.tmp, `cancel-child-${Date.now()}.pid`);
    fs.writeFileSync(path.join(sb.skillRoot, 'scripts', 'fork_hang_file.sh'), 'sleep 30 &\necho "$!" > "$1.tmp" && mv "$1.tmp" "$1"\nwait\n');
    const ac = new AbortController();
    const p = sb.runner({ killGraceMs: 200 }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/fork_hang_file.sh', args: [pidFile], timeoutMs: 20000, signal: ac.signal });
    assert.equal(await waitFor(() => fs.existsSync(pidFile), 15000), true, 'the script wrote its child pid');
    const child = Number(fs.readFileSync(pidFile, 'utf8').trim());
    assert.ok(child > 0 && alive(child), `child ${child} runs before the cancel`);
    ac.abort();
    const r = await p;
    assert.equal(r.cancelled, true);
    assert.equal(r.timed_out, false);
    assert.equal(await waitFor(() => !alive(child), 10_000), true, `child ${child} still alive after the cancel`);
  });

  it('caps stdout and stderr and flags the truncation', async () => {
    const r = await sb.runner({ stdoutCap: 1000, stderrCap: 100 }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/spam.py', args: ['50000', '50'] });
    assert.equal(r.stdout.length, 1000);
    assert.equal(r.stdout_truncated, true);
    assert.equal(r.stderr, 'e'.repeat(50));
    assert.equal(r.stderr_truncated, false);
    const r2 = await sb.runner({ stdoutCap: 1000, stderrCap: 100 }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/spam.py', args: ['10', '500'] });
    assert.equal(r2.stdout_truncated, false);
    assert.equal(r2.stderr_truncated, true);
    assert.equal(r2.stderr.length, 100);
  });

  it('reports exit codes, phases and the mode', async () => {
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'echo out; echo err >&2; exit 3' });
    assert.equal(r.exit_code, 3);
    assert.equal(r.stdout, 'out\n');
    assert.equal(r.stderr, 'err\n');
    assert.equal(r.execution_mode, 'local');
    assert.equal(r.sandboxed, false);
    assert.match(r.sandbox_reason ?? '', /off/);
    for (const k of ['create', 'stage', 'run', 'collect', 'cleanup'] as const) assert.ok(r.phases[k] >= 0, k);
    assert.ok(r.duration_ms >= r.phases.run);
  });

  it('runs a command relative to the staged skill, with cwd variables', async () => {
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'pwd; ls scripts/hello.py', cwd: '.' });
    assert.match(r.stdout, /skills\/exec-demo\nscripts\/hello.py\n/);
    const w = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'pwd', cwd: '$WORK_DIR' });
    assert.match(w.stdout, /\/work\n$/);
  });

  it('keeps only the newest keepRuns run folders', async () => {
    const runner = sb.runner({ keepRuns: 2 });
    for (let i = 0; i < 4; i++) await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'true' });
    await runner.idle();
    assert.equal(fs.readdirSync(path.join(sb.stateDir, 'runs')).length, 2);
    const none = sb.runner({ keepRuns: 0 });
    await none.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'true' });
    await none.idle();
    assert.equal(fs.readdirSync(path.join(sb.stateDir, 'runs')).length, 0);
  });
});
