// Red team (issue 11, point 7): the disk caps counted allocated blocks only, and an empty file (a symlink,
// a FIFO) holds none. A script made 200,000 empty files under a 4 MiB run cap (13.8 s, no warning): inodes,
// not bytes, were the limit, and the 10 kept run folders could hold millions. Each entry now counts at
// least one 4 KiB block, so a cap also bounds the number of files.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanup, setup, type Sandbox } from './helpers';

const MiB = 1024 * 1024;

describe('core/exec size caps against many empty files (red team)', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  it('counts empty files and symlinks against the run cap', async function () {
    // 500 forks of `ln` and a watched run folder: about 2 s alone, far more at load 45; a hang guard, not a bound.
    this.timeout(180_000);
    const runner = sb.runner({ maxRunBytes: 4 * MiB, killGraceMs: 200 });
    // 1,500 entries: 5.9 MiB at one block each, about 40 KiB of directory blocks otherwise.
    const r = await runner.run({
      skillName: 'exec-demo',
      skillRoot: sb.skillRoot,
      timeoutMs: 60000,
      command: 'mkdir -p "$WORK_DIR/e"; cd "$WORK_DIR/e"; i=0; while [ $i -lt 1000 ]; do : > f$i; i=$((i+1)); done; while [ $i -lt 1500 ]; do ln -s f0 l$i; i=$((i+1)); done; ls | wc -l',
    });
    // The watch may stop the script before it lists them (it did here); without the floor it ran to the end.
    assert.ok(r.warnings.some((w) => w.startsWith('the run folder') && w.includes('size cap of 4 MiB')), `no cap warning: ${r.warnings.join('\n')}`);
    await runner.idle();
    assert.equal(fs.existsSync(path.join(sb.stateDir, 'runs', r.run_id)), false, 'the over-cap run folder is kept');
  });

  it('still lets a run hold a few hundred small files under the default cap', async function () {
    this.timeout(180_000);
    const r = await sb.runner().run({
      skillName: 'exec-demo',
      skillRoot: sb.skillRoot,
      timeoutMs: 60000,
      command: 'i=0; while [ $i -lt 300 ]; do echo $i > "$OUTPUT_DIR/f$i"; i=$((i+1)); done; echo done',
    });
    assert.equal(r.exit_code, 0, r.stderr);
    assert.deepEqual(r.warnings.filter((w) => w.includes('size cap')), []);
  });
});
