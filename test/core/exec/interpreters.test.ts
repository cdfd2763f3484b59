import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { INTERPRETER_MAPPING } from '../../../src/core/exec';
import { planLaunch, ProgramResolver, selfNodeEnv } from '../../../src/core/exec/interpreters';
import { visibleProgram } from '../../../src/core/exec/sandbox/trustedPrograms';
import { hostSystemView } from '../../../src/core/exec/sandboxView';
import { cleanup, onPath, setup, type Sandbox } from './helpers';

describe('core/exec interpreters', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  const cases: Array<{ file: string; needs: string; expect: string }> = [
    { file: 'scripts/hello.py', needs: 'python3', expect: 'py a b\n' },
    { file: 'scripts/hello.sh', needs: 'bash', expect: 'sh a b\n' },
    { file: 'scripts/hello.js', needs: '', expect: 'js a b\n' },
    { file: 'scripts/hello.pl', needs: 'perl', expect: 'pl a b\n' },
    { file: 'scripts/hello.rb', needs: 'ruby', expect: 'rb a b\n' },
  ];
  for (const c of cases) {
    it(`runs ${c.file} through the mapping without an executable bit`, async function () {
      if (c.needs && !onPath(c.needs)) {
        console.log(`      skipped: ${c.needs} is not installed on this machine`);
        this.skip();
      }
      assert.equal(fs.statSync(path.join(sb.skillRoot, c.file)).mode & 0o111, 0, 'fixture must not be executable');
      const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: c.file, args: ['a', 'b'] });
      assert.equal(r.stderr, '');
      assert.equal(r.exit_code, 0);
      assert.equal(r.stdout, c.expect);
    });
  }

  it('runs .mjs as an ES module with node', async () => {
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/hello.mjs' });
    assert.equal(r.stdout, 'mjs true\n');
  });

  it('uses the #! line when there is no extension', async () => {
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/tool', args: ['x'] });
    assert.equal(r.stdout, "shebang-py ['x']\n");
    assert.match(r.argv[0], /python3$/);
  });

  it('runs a text file without #! or extension with sh, and an ELF binary directly', async () => {
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/plain', args: ['arg'] });
    assert.equal(r.stdout, 'plain arg\n');
    assert.ok(r.warnings.some((w) => w.includes('ran with sh')));
    // A copy of a real binary without its executable bit: the staged copy is made executable.
    fs.copyFileSync(fs.realpathSync('/bin/echo'), path.join(sb.skillRoot, 'scripts', 'echo-bin'));
    fs.chmodSync(path.join(sb.skillRoot, 'scripts', 'echo-bin'), 0o644);
    const e = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/echo-bin', args: ['direct'] });
    assert.equal(e.stdout, 'direct\n');
    assert.match(e.argv[0], /echo-bin$/);
  });

  it('exports the mapping as data, with python3, bash and node rows', () => {
    const ext = (e: string) => INTERPRETER_MAPPING.find((r) => r.extensions.includes(e))?.candidates[0].command;
    assert.equal(ext('.py'), 'python3');
    assert.equal(ext('.sh'), 'bash');
    assert.equal(ext('.js'), 'node');
    assert.equal(ext('.pl'), 'perl');
    assert.ok(INTERPRETER_MAPPING.find((r) => r.extensions.includes('.ts')));
  });

  it('reports a missing interpreter with what to install', async function () {
    if (onPath('pwsh')) {
      console.log('      skipped: pwsh is installed, so no mapped interpreter is missing here');
      this.skip();
    }
    fs.writeFileSync(path.join(sb.skillRoot, 'scripts', 'x.ps1'), 'Write-Output hi\n');
    await assert.rejects(sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/x.ps1' }), /no interpreter for \.ps1 files: tried pwsh on PATH; install/);
  });

  it("runs a .js script with the runtime's own executable as plain Node, also when that is Electron (the editor's extension host)", () => {
    const electron = { execPath: '/opt/code/code', versions: { ...process.versions, electron: '39.0.0' } };
    assert.deepEqual(selfNodeEnv('/opt/code/code', electron), { ELECTRON_RUN_AS_NODE: '1' });
    assert.deepEqual(selfNodeEnv('/usr/bin/node', electron), {}, 'another program gets nothing');
    assert.deepEqual(selfNodeEnv(process.execPath), process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {});
  });
  it('with a sandbox, a #! program it does not trust is replaced by the trusted one of that name on PATH; a mapped interpreter found only outside trusted folders is refused naming where it is', () => {
    const roots = { view: hostSystemView(), stateDir: sb.stateDir, forbidden: [sb.skillRoot] };
    const accept = (p: string) => visibleProgram(p, roots);
    // A copy of sh inside the skill, and a link to / the skill ships.
    const mine = path.join(sb.skillRoot, 'tools', 'sh');
    fs.mkdirSync(path.dirname(mine), { recursive: true });
    fs.copyFileSync(fs.realpathSync('/bin/sh'), mine);
    fs.chmodSync(mine, 0o755);
    fs.symlinkSync('/', path.join(sb.skillRoot, 'rootlink'));
    const resolver = new ProgramResolver(process.env.PATH ?? '');
    const trustedSh = resolver.resolve('sh', accept);
    assert.ok(trustedSh, 'a trusted sh on PATH');
    for (const shebang of [mine, `${sb.skillRoot}/rootlink/bin/sh`, `${sb.skillRoot}/rootlink/proc/self/root/bin/sh`]) {
      const file = path.join(sb.tmp, 'evil');
      fs.writeFileSync(file, `#!${shebang}\necho hi\n`);
      const plan = planLaunch(file, resolver, accept);
      assert.ok(!('missing' in plan), shebang);
      if ('missing' in plan) continue;
      // Through the link the real path is /usr/bin/...: trusted, but named by its real path, never through the skill.
      assert.ok(!plan.program.startsWith(sb.skillRoot), `${shebang} ran as ${plan.program}`);
      if (shebang === mine) {
        assert.equal(plan.program, trustedSh);
        assert.match(plan.warning ?? '', /is not one the sandbox runs .*used .* from PATH/);
      }
    }
    // Only an untrusted python3 on PATH (in the skill): refused, naming where it was found.
    const onlyHere = path.join(sb.tmp, 'only-bin');
    fs.mkdirSync(onlyHere, { recursive: true });
    fs.copyFileSync(mine, path.join(onlyHere, 'python3'));
    const py = path.join(sb.tmp, 'x.py');
    fs.writeFileSync(py, 'print(1)\n');
    // Found first outside, then in a system folder: the system one runs, and the result says so.
    const both = planLaunch(py, new ProgramResolver(`${onlyHere}:/usr/bin:/bin`), accept);
    if (fs.existsSync('/usr/bin/python3')) {
      assert.ok(!('missing' in both));
      assert.equal((both as { program: string }).program, '/usr/bin/python3');
      assert.equal((both as { warning?: string }).warning, `${onlyHere}/python3 is outside the system and toolchain folders the sandbox shows; ran /usr/bin/python3 instead`);
    } else console.log('      (no /usr/bin/python3 here: the fallback half is not checked)');
    const refused = planLaunch(py, new ProgramResolver(onlyHere), accept);
    assert.ok('missing' in refused);
    assert.match((refused as { missing: string }).missing, new RegExp(`^no interpreter for \\.py files the sandbox can run: ${onlyHere}/python3 lives outside the system and toolchain folders`));
  });
});
