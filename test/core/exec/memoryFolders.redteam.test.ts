// Red team (issue 11, points 4 and 7): the sandbox's private /tmp and its /dev are tmpfs, that is memory.
// Before the fix neither was capped (each the kernel's default, half the host's RAM: 12 GB here), so a
// script with a 4 MiB run cap put 39 MB in /tmp, 39 MB in /dev/shm and more in /dev itself, none of it
// seen by the disk-cap walk. Now /tmp and /dev/shm are capped at the run cap and /dev is read-only.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

const CAP = 4 * 1024 * 1024;

describe('core/exec sandbox memory folders (red team)', function () {
  let sb: Sandbox;
  before(async function () {
    sb = setup();
    if (!(await sandboxWorks(sb))) this.skip();
    const status = await sb.runner({ sandbox: 'required' }).sandboxStatus();
    // bubblewrap older than 0.5 has no --size: the folders stay uncapped there (README: limits).
    if (!execFileSync(status.program ?? 'bwrap', ['--help'], { encoding: 'utf8' }).includes('--size')) {
      console.log('      skipped: this bubblewrap has no --size option, so it cannot cap a tmpfs');
      this.skip();
    }
  });
  after(() => cleanup(sb));

  // du rounds each file up to whole blocks: a full 4 MiB tmpfs shows a little above 4096 KiB.
  /** Writes 2 MB pieces into `dir` until one fails or 12 MB are written; prints the KiB it holds. */
  const fill = (dir: string, label: string) =>
    `for i in 1 2 3 4 5 6; do head -c 2000000 /dev/zero > ${dir}/rt$i 2>/dev/null || break; done; echo "${label}=$(du -sk ${dir} | cut -f1)"`;

  it('caps the private /tmp and /dev/shm at the run cap and keeps /dev read-only, for a script trying to fill memory', async () => {
    const r = await sb.runner({ sandbox: 'required', maxRunBytes: CAP }).run({
      skillName: 'exec-demo',
      skillRoot: sb.skillRoot,
      timeoutMs: 30000,
      command: [fill('/tmp', 'tmp'), fill('/dev/shm', 'shm'), 'head -c 2000000 /dev/zero > /dev/rt 2>/dev/null; echo "dev=$?"', 'echo ok > /dev/null && echo "null=$?"'].join('\n'),
    });
    assert.equal(r.sandboxed, true);
    const kib = (label: string) => Number(new RegExp(`^${label}=(\\d+)$`, 'm').exec(r.stdout)?.[1]);
    // Before: tmp=39256 and shm=39120 (KiB).
    assert.ok(kib('tmp') <= CAP / 1024 + 256, `/tmp holds ${kib('tmp')} KiB:\n${r.stdout}`);
    assert.ok(kib('shm') <= CAP / 1024 + 256, `/dev/shm holds ${kib('shm')} KiB:\n${r.stdout}`);
    assert.ok(kib('tmp') >= 1000 && kib('shm') >= 1000, `the capped folders must still be usable:\n${r.stdout}`);
    assert.doesNotMatch(r.stdout, /^dev=0$/m, 'a file was written into /dev');
    assert.match(r.stdout, /^null=0$/m, '/dev/null must stay writable');
  });
});
