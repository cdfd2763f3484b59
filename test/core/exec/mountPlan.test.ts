// The mount plan's check at bind time (issue 22, point 1): every source is resolved again when bubblewrap's
// arguments are built, and one that now leads elsewhere (a run folder swapped for a link after planning)
// is refused, naming it, instead of being bound.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptRunError } from '../../../src/core/exec';
import { checkedBinds, mountPlan, type RunFolders } from '../../../src/core/exec/sandbox/mountPlan';
import { hostSystemView } from '../../../src/core/exec/sandboxView';
import { cleanup, setup, type Sandbox } from './helpers';

describe('core/exec mount plan: checked again at bind time', () => {
  let sb: Sandbox;
  let run: RunFolders;
  const roots = () => ({ view: hostSystemView(), stateDir: sb.stateDir, forbidden: [sb.skillRoot] });
  beforeEach(() => {
    sb = setup();
    const s = sb.stateDir;
    run = {
      workspace: path.join(s, 'runs', 'r1'),
      skillsDir: path.join(s, 'runs', 'r1', 'skills'),
      snapshotDir: path.join(s, 'skills', 'k'),
      home: path.join(s, 'deps', 'k', 'home'),
      depDirs: [path.join(s, 'deps', 'k', 'node_modules')],
      linked: [],
      identityDir: path.join(s, 'deps', 'k', 'sandbox-etc'),
    };
    for (const d of [run.skillsDir, run.snapshotDir, run.home, ...run.depDirs, run.identityDir]) fs.mkdirSync(d, { recursive: true });
    for (const f of ['passwd', 'group']) fs.writeFileSync(path.join(run.identityDir, f), '');
  });
  afterEach(() => cleanup(sb));

  const plan = () => mountPlan(run, ['/bin/sh'], roots(), { user: { uid: 65534, gid: 65534 }, cwd: run.workspace, env: {} });

  it('binds every source by its real path, at the path the script knows', () => {
    const b = checkedBinds(plan(), run, roots());
    assert.deepEqual(b.writable.map((w) => w.dest), [run.home, ...run.depDirs]);
    for (const x of [...b.system, ...b.identity, ...b.readOnly, b.workspace, ...b.writable, b.skillsDir]) assert.equal(x.source, fs.realpathSync(x.dest));
  });

  it('refuses a run folder swapped for a link to /, to HOME, or into the skill after planning', () => {
    for (const target of ['/', os.homedir(), sb.skillRoot]) {
      const p = plan();
      fs.rmSync(run.home, { recursive: true, force: true });
      fs.symlinkSync(target, run.home);
      assert.throws(
        () => checkedBinds(p, run, roots()),
        (e: unknown) => e instanceof ScriptRunError && e.code === 'internal_error' && e.message.includes(`bind source ${run.home} resolves to ${fs.realpathSync(target)}`),
        target,
      );
      fs.rmSync(run.home);
      fs.mkdirSync(run.home);
    }
  });

  it('refuses a linked input or plugin folder that is /, or holds HOME or the state folder (it would show the host)', () => {
    for (const wide of ['/', path.dirname(os.homedir()), path.dirname(sb.stateDir)]) {
      run.linked = [wide];
      assert.throws(
        () => checkedBinds(plan(), run, roots()),
        (e: unknown) => e instanceof ScriptRunError && e.code === 'internal_error' && /which is or holds/.test(e.message),
        wide,
      );
    }
    const narrow = fs.mkdtempSync(path.join(os.tmpdir(), 'linked-'));
    run.linked = [narrow];
    assert.ok(checkedBinds(plan(), run, roots()).readOnly.some((b) => b.source === fs.realpathSync(narrow)));
    fs.rmSync(narrow, { recursive: true, force: true });
  });

  it('refuses an interpreter folder that is not under a system or toolchain folder, even when it got into the plan', () => {
    const p = plan();
    p.readOnly.push(sb.skillRoot);
    assert.throws(() => checkedBinds(p, run, roots()), /is neither a folder of this run nor a system or toolchain folder/);
  });
});
