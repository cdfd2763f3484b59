// A run that fails inside the runtime (its state folder cannot be written) is not a refusal of the call:
// its own code, a message that names the step, the folder and the remedy, and never "fix the named field".
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createScriptRunner, ScriptRunError } from '../../../src/core/exec';
import { createSkillsRuntime, type SkillsRuntime } from '../../../src/core/runtime';
import type { ToolResult as ToolInvocation } from '../../../src/core/tools';
import { makeTempDir } from '../../support/tempDir';
import { folderSource, writeSkill } from './runtimeSupport';

function failure(r: ToolInvocation): { code: string; message: string; hint: string; details?: Record<string, unknown> } {
  if (r.ok) assert.fail(`expected an error, got ${JSON.stringify(r.result).slice(0, 300)}`);
  return r.error;
}

describe('run_script: failures of the runtime itself', function () {
  this.timeout(30_000);
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  let execDir: string;
  let rt: SkillsRuntime;
  const call = { sessionId: 'chat' };

  beforeEach(async () => {
    tmp = makeTempDir('rt-run-failures-');
    skills = path.join(tmp.dir, 'skills');
    writeSkill(skills, 'hi', { files: { 'scripts/hi.sh': 'echo hi from $(id -u)\n' } });
    execDir = path.join(tmp.dir, 'exec');
    rt = createSkillsRuntime({ source: folderSource(skills), stateDir: path.join(tmp.dir, 'state'), executor: createScriptRunner({ stateDir: execDir, sandbox: 'off' }) });
    await rt.openSession('chat');
    const loaded = await rt.invoke('load', { names: ['hi'] }, call);
    assert.ok(loaded.ok, JSON.stringify(loaded));
  });
  afterEach(async () => {
    await rt.flush();
    tmp.cleanup();
  });

  it('runs the script for whoever runs the tests (root and the unprivileged pass of npm test)', async () => {
    const r = await rt.invoke('run_script', { script: 'scripts/hi.sh' }, call);
    assert.ok(r.ok, JSON.stringify(r.ok ? r.result : r.error));
    assert.equal((r.result as { stdout: string }).stdout, `hi from ${process.getuid?.()}\n`);
  });

  it('a state folder that cannot be made is run_failed, naming the step and the folder, with no "fix the field" hint', async () => {
    // A file where the snapshots folder belongs: mkdir fails for root and for everyone else alike.
    fs.mkdirSync(execDir, { recursive: true });
    fs.writeFileSync(path.join(execDir, 'skills'), 'not a folder');
    const e = failure(await rt.invoke('run_script', { script: 'scripts/hi.sh' }, call));
    assert.equal(e.code, 'run_failed');
    assert.equal(e.details?.exec_code, 'internal_error');
    assert.match(e.message, /^Making the read-only copy of skill "hi" in .*exec\/skills failed: E(NOTDIR|EXIST)/);
    assert.match(e.message, /Check that .*exec\/skills exists, is writable/);
    assert.doesNotMatch(`${e.message} ${e.hint}`, /fix the named field/i);
    assert.match(e.hint, /not of your call/);
  });

  it('an unwritable state folder (EACCES) says whose folder it must be and that it may be removed', async function () {
    if (process.getuid?.() === 0) {
      console.log('      skipped as root: permission bits do not stop root; the unprivileged pass of npm test runs this');
      this.skip();
    }
    fs.mkdirSync(path.join(execDir, 'skills'), { recursive: true });
    fs.chmodSync(path.join(execDir, 'skills'), 0o555);
    const e = failure(await rt.invoke('run_script', { script: 'scripts/hi.sh' }, call));
    fs.chmodSync(path.join(execDir, 'skills'), 0o755);
    assert.equal(e.code, 'run_failed');
    assert.match(e.message, /EACCES/);
    assert.match(e.message, /belongs to you and that you can write it .* or remove it/);
    assert.doesNotMatch(`${e.message} ${e.hint}`, /fix the named field/i);
  });

  it('an unreadable file of the skill names that file, not the state folder', async function () {
    if (process.getuid?.() === 0) {
      console.log('      skipped as root: permission bits do not stop root; the unprivileged pass of npm test runs this');
      this.skip();
    }
    const secret = path.join(skills, 'hi', 'private.txt');
    fs.writeFileSync(secret, 'x');
    fs.chmodSync(secret, 0o000);
    const e = failure(await rt.invoke('run_script', { script: 'scripts/hi.sh' }, call));
    assert.equal(e.code, 'run_failed');
    assert.match(e.message, new RegExp(`You cannot read ${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: make it readable`));
  });

  it('a refusal of the call keeps run_refused and its own hint', async () => {
    const e = failure(await rt.invoke('run_script', { script: 'scripts/hi.sh', cwd: '/etc' }, call));
    assert.equal(e.code, 'run_refused');
    assert.equal(e.details?.exec_code, 'path_outside_skill');
    assert.match(e.hint, /relative to the root of 'hi'/);
  });

  it('the exec engine reports the same failure as a ScriptRunError internal_error', async () => {
    fs.mkdirSync(execDir, { recursive: true });
    fs.writeFileSync(path.join(execDir, 'runs'), 'not a folder');
    const runner = createScriptRunner({ stateDir: execDir, sandbox: 'off' });
    await assert.rejects(runner.run({ skillName: 'hi', skillRoot: path.join(skills, 'hi'), script: 'scripts/hi.sh' }), (err: unknown) => {
      assert.ok(err instanceof ScriptRunError);
      assert.equal(err.code, 'internal_error');
      assert.match(err.message, /^Making the runs folder in .*exec\/runs failed/);
      return true;
    });
  });
});
