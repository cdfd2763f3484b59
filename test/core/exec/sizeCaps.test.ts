// Size caps of run folders and of a skill's HOME (issue 11 point 7). Before the change a script wrote 1 GiB
// to its output folder and 512 MiB to its HOME in 6 s, and both were kept.
import * as assert from 'node:assert/strict';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diskUse, diskUseQuick } from '../../../src/core/exec/sizeWatch';
import { cleanup, setup, type Sandbox } from './helpers';

const MiB = 1024 * 1024;

describe('core/exec size caps', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  const run = (command: string, caps: { maxRunBytes?: number; maxHomeBytes?: number }) => {
    const runner = sb.runner({ ...caps, killGraceMs: 200 });
    return { runner, result: runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command, timeoutMs: 60000 }) };
  };
  const runFolder = (runId: string) => path.join(sb.stateDir, 'runs', runId);

  it('holds one large file to the run cap (the file-size limit) and removes the over-cap run folder', async () => {
    const { runner, result } = run('head -c 64M /dev/zero > "$OUTPUT_DIR/big"; echo "head=$?"', { maxRunBytes: 4 * MiB });
    const r = await result;
    assert.doesNotMatch(r.stdout, /head=0/, 'the 64 MiB write completed');
    assert.ok(r.warnings.some((w) => w.startsWith('the run folder') && w.includes('size cap of 4 MiB') && w.includes('maxRunMB')), r.warnings.join('\n'));
    await runner.idle();
    assert.equal(fs.existsSync(runFolder(r.run_id)), false, 'the over-cap run folder is kept');
  });

  it('stops a script that writes many files past the run cap while it runs', async () => {
    const { result } = run('i=0; while [ $i -lt 400 ]; do head -c 1M /dev/zero > "$WORK_DIR/f$i"; i=$((i+1)); done; sleep 50; echo finished', { maxRunBytes: 16 * MiB });
    const r = await result;
    assert.doesNotMatch(r.stdout, /finished/);
    // Stopped by the cap, not by its end (no "finished") nor by the run's timeout: no clock needed, where a 45 s
    // limit against the script's 50 s sleep left a loaded machine 5 s.
    assert.equal(r.timed_out, false);
    assert.ok(r.warnings.some((w) => w.startsWith('the run folder') && w.includes('the script was stopped')), r.warnings.join('\n'));
  });

  it("stops a script that fills the skill's HOME past its cap, and says where and how to raise it", async () => {
    const { result } = run('i=0; while [ $i -lt 64 ]; do head -c 1M /dev/zero > "$HOME/f$i"; i=$((i+1)); done; sleep 50; echo finished', { maxHomeBytes: 8 * MiB });
    const r = await result;
    assert.doesNotMatch(r.stdout, /finished/);
    const w = r.warnings.find((x) => x.startsWith("the skill's HOME"));
    assert.ok(w, r.warnings.join('\n'));
    assert.match(w, /size cap of 8 MiB/);
    assert.match(w, /maxHomeMB/);
    assert.ok(w.includes(path.join(sb.stateDir, 'deps')), w);
  });

  it('counts disk blocks, not apparent sizes, and stops counting past the budget', async () => {
    const dir = path.join(sb.tmp, 'count');
    fs.mkdirSync(path.join(dir, 'skills'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a'), Buffer.alloc(2 * MiB, 1));
    // Sparse: a 1 GiB hole costs no disk.
    const fd = fs.openSync(path.join(dir, 'sparse'), 'w');
    fs.ftruncateSync(fd, 1024 * MiB);
    fs.closeSync(fd);
    fs.writeFileSync(path.join(dir, 'skills', 'hidden'), Buffer.alloc(4 * MiB, 1));
    const cap = { label: 'x', dirs: [dir], capBytes: 100 * MiB, skipTop: new Set(['skills']), setting: 's' };
    const used = await diskUse(cap);
    assert.ok(used >= 2 * MiB && used < 3 * MiB, `counted ${used}`);
    assert.ok((await diskUse({ ...cap, skipTop: undefined })) >= 6 * MiB);
  });

  it("counts the same on the event loop as on the thread pool, and a walk past its budget the same too (a run's last check, issue 23)", async () => {
    const dir = path.join(sb.tmp, 'quick');
    for (const sub of ['skills/s', 'out/a/b', 'work', 'run']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
    fs.writeFileSync(path.join(dir, 'skills', 's', 'big'), Buffer.alloc(3 * MiB, 1));
    fs.writeFileSync(path.join(dir, 'out', 'a', 'b', 'f'), Buffer.alloc(MiB, 1));
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(dir, 'work', `e${i}`), '');
    fs.symlinkSync('/etc', path.join(dir, 'run', 'link'));
    const cap = { label: 'x', dirs: [dir], capBytes: 100 * MiB, skipTop: new Set(['skills']), setting: 's' };
    const pool = await diskUse(cap);
    assert.ok(pool >= MiB + 50 * 4096 && pool < 3 * MiB, `counted ${pool}`);
    assert.equal(await diskUseQuick(cap), pool, 'within the budget');
    assert.equal(await diskUseQuick(cap, 10), pool, 'past a budget of 10 entries');
    assert.equal(await diskUseQuick({ ...cap, capBytes: MiB / 2 }), await diskUse({ ...cap, capBytes: MiB / 2 }), 'stopped past the cap alike');
  });

  it('the quick walk does not wait behind a busy thread pool; the other one does (one walk, its I/O passed in)', async () => {
    const dir = path.join(sb.tmp, 'busy');
    for (const sub of ['out', 'work']) fs.mkdirSync(path.join(dir, sub), { recursive: true });
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(dir, 'work', `e${i}`), 'x');
    const cap = { label: 'x', dirs: [dir], capBytes: 100 * MiB, setting: 's' };
    /** Which finished first: the walk, or jobs holding every thread of the pool (libuv's, 4 unless UV_THREADPOOL_SIZE). */
    const race = async (walk: () => Promise<number>): Promise<string> => {
      const order: string[] = [];
      const threads = Number(process.env.UV_THREADPOOL_SIZE) || 4;
      const jobs = Array.from({ length: threads }, () => new Promise<void>((resolve) => crypto.pbkdf2('p', 's', 300000, 32, 'sha256', () => resolve()))).map((j) => j.then(() => order.push('pool')));
      await walk().then(() => order.push('walk'));
      await Promise.all(jobs);
      return order[0];
    };
    assert.equal(await race(() => diskUseQuick(cap)), 'walk', 'the quick walk waited for the thread pool');
    assert.equal(await race(() => diskUse(cap)), 'pool', 'the thread-pool walk did not wait (the race shows nothing here)');
  });
});
