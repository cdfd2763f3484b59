// Red team of what a run copies out of a skill on the disk: `skill://` inputs in copy mode (sourceTree.copyOut) and
// the snapshot (sourceTree.copyTree). A hostile skill holds links out at every depth, links to folders (a loop),
// a chain that leaves and re-enters, a FIFO and a link to /dev/zero; and a file is swapped for a link to a secret
// between the listing and the read. No secret may reach the script or the run's result, nothing may block, and
// every entry skipped is named in a warning.
//
// `noFollow` guards the last part of a path only: a *folder* swapped for a link to a folder outside between the
// listing and the read is read through. The copy then proves that what it read is the file inside the skill (its
// real path, and its inode now), and fails the copy when it is not: tested below for the snapshot and for inputs.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeHost } from '../../../src/core/host/nodeHost';
import { withHangGuard } from '../../support/hangGuard';
import { cleanup, setup, type Sandbox } from './helpers';

const SECRET = 'TOP-SECRET-7f3a';
/** A run still going this long by the clock is hung (it takes a second or two, more under load). */
const HANG_MS = 120_000;

/**
 * The Node host, except that read number `skipReads + 1` of `victim` first finds `replaced` (the victim itself, or
 * a folder on its path) replaced by a link to `target`: a swap made between a listing (or path check) and the
 * read, as a hostile process sharing the folder could.
 */
function swappingHost(victim: string, target: string, skipReads = 0, replaced = victim): { host: ReturnType<typeof createNodeHost>; swapped: () => boolean } {
  const node = createNodeHost();
  let swapped = false;
  let reads = 0;
  const host = {
    ...node,
    readFile: (file: string, options?: Parameters<typeof node.readFile>[1]) => {
      if (file === victim && !swapped && reads++ === skipReads) {
        swapped = true;
        fs.rmSync(replaced, { recursive: true });
        fs.symlinkSync(target, replaced);
      }
      return node.readFile(file, options);
    },
  };
  return { host, swapped: () => swapped };
}

describe('core/exec red team: copies out of a skill never carry a file from outside it', () => {
  let sb: Sandbox;
  let outside: string;
  beforeEach(() => {
    sb = setup();
    outside = path.join(sb.tmp, 'outside');
    fs.mkdirSync(path.join(outside, 'nested'), { recursive: true });
    fs.writeFileSync(path.join(outside, 'secret.txt'), `${SECRET}\n`);
    fs.writeFileSync(path.join(outside, 'nested', 'deep-secret.txt'), `${SECRET}-deep\n`);
  });
  afterEach(() => cleanup(sb));

  const resolveSkillRoot = (n: string) => (n === 'exec-demo' ? sb.skillRoot : undefined);

  /** `kit/` with plain files, and every kind of hostile entry at several depths. */
  function hostileKit(): string {
    const kit = path.join(sb.skillRoot, 'kit');
    fs.mkdirSync(path.join(kit, 'a', 'b', 'c'), { recursive: true });
    fs.writeFileSync(path.join(kit, 'plain.txt'), 'plain\n');
    fs.writeFileSync(path.join(kit, 'a', 'b', 'c', 'deep.txt'), 'deep\n');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(kit, 'leak-top.txt'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(kit, 'a', 'b', 'c', 'leak-deep.txt'));
    fs.symlinkSync(outside, path.join(kit, 'a', 'out-dir'));
    fs.symlinkSync('..', path.join(kit, 'a', 'b', 'loop')); // a folder inside: could recurse for ever
    fs.symlinkSync(kit, path.join(kit, 'self'));
    fs.symlinkSync(path.join(outside, 'missing.txt'), path.join(kit, 'dangling.txt'));
    // Leaves the skill and comes back: the file it names is the skill's own plain.txt.
    fs.symlinkSync(path.join(kit, 'plain.txt'), path.join(outside, 'hop.txt'));
    fs.symlinkSync(path.join(outside, 'hop.txt'), path.join(kit, 'via-outside.txt'));
    // Leaves the skill through a link inside, to a folder outside: the inside link points at a link out.
    fs.symlinkSync(path.join(kit, 'a', 'out-dir', 'nested', 'deep-secret.txt'), path.join(kit, 'a', 'b', 'two-hops.txt'));
    fs.symlinkSync('/dev/zero', path.join(kit, 'zero.bin'));
    execFileSync('mkfifo', [path.join(kit, 'a', 'pipe.txt')]);
    return kit;
  }

  it('copies a folder input with only the skill\'s own files, naming every entry it skipped, without blocking', async () => {
    hostileKit();
    const r = await sb.runner({ resolveSkillRoot }).run({
      skillName: 'exec-demo',
      skillRoot: sb.skillRoot,
      timeoutMs: 20000,
      command: 'cd inputs/kit && find . | LC_ALL=C sort; cat via-outside.txt; cat * */* */*/* */*/*/* 2>/dev/null | grep -c SECRET || true',
      inputs: [{ from: 'skill://exec-demo/kit', mode: 'copy' }],
    });
    assert.equal(r.exit_code, 0, r.stderr);
    const listing = r.stdout.trim().split('\n');
    assert.deepEqual(listing.slice(0, -2), ['.', './a', './a/b', './a/b/c', './a/b/c/deep.txt', './plain.txt', './via-outside.txt']);
    assert.deepEqual(listing.slice(-2), ['plain', '0'], r.stdout);
    for (const skipped of ['leak-top.txt', 'a/b/c/leak-deep.txt', 'a/out-dir', 'a/b/loop', 'self', 'dangling.txt', 'a/b/two-hops.txt', 'zero.bin', 'a/pipe.txt']) {
      assert.ok(r.warnings.some((w) => w.includes(`skipped kit/${skipped}:`)), `no warning names kit/${skipped}: ${JSON.stringify(r.warnings)}`);
    }
    assert.doesNotMatch(JSON.stringify(r), new RegExp(SECRET));
  });

  it('refuses a top-level input that is, or goes through, a link out; copies one that is a link to a file inside', async () => {
    hostileKit();
    const runner = sb.runner({ resolveSkillRoot });
    for (const from of ['skill://exec-demo/kit/leak-top.txt', 'skill://exec-demo/kit/a/out-dir', 'skill://exec-demo/kit/a/out-dir/secret.txt', 'skill://exec-demo/kit/a/b/two-hops.txt', 'skill://exec-demo/../outside/secret.txt', 'skill://exec-demo/kit/../../outside/secret.txt']) {
      await assert.rejects(
        runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'cat inputs/*', inputs: [{ from, mode: 'copy' }] }),
        (e: unknown) => (e as { code?: string }).code === 'input_refused' && !String((e as Error).message).includes(SECRET),
        from,
      );
    }
    const via = await runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'cat inputs/one.txt', inputs: [{ from: 'skill://exec-demo/kit/via-outside.txt', mode: 'copy', to: 'inputs/one.txt' }] });
    assert.equal(via.stdout, 'plain\n', via.stderr);
  });

  it('a FIFO or /dev/zero named as the input itself is refused or skipped, never read', async function () {
    // Reading the FIFO would block for good, /dev/zero never end: each run has a hang guard that names its input,
    // instead of a 15 s clock limit on both runs together, which a loaded machine reaches by spawning alone.
    this.timeout(2 * HANG_MS + 30_000);
    hostileKit();
    const runner = sb.runner({ resolveSkillRoot });
    for (const from of ['skill://exec-demo/kit/a/pipe.txt', 'skill://exec-demo/kit/zero.bin']) {
      let r;
      try {
        const run = runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'ls inputs 2>/dev/null | wc -l', inputs: [{ from, mode: 'copy', to: 'inputs/x' }] });
        r = await withHangGuard(run, HANG_MS, `a run with ${from} as its input`);
      } catch (e) {
        assert.equal((e as { code?: string }).code, 'input_refused', `${from}: ${(e as Error).message}`);
        continue;
      }
      assert.equal(r.stdout.trim(), '0', `${from} was copied`);
      assert.ok(r.warnings.some((w) => w.includes('skipped')), `${from}: no warning ${JSON.stringify(r.warnings)}`);
    }
  });

  it('the snapshot skips links out at any depth and never blocks on a FIFO', async () => {
    hostileKit();
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, timeoutMs: 20000, command: 'cat kit/via-outside.txt; cat kit/a/b/c/deep.txt; (cat -- kit/leak-top.txt kit/a/b/c/leak-deep.txt kit/a/out-dir/secret.txt kit/a/b/two-hops.txt; cat kit/a/out-dir/nested/*) 2>/dev/null | grep -c SECRET || true' });
    assert.equal(r.exit_code, 0, r.stderr);
    assert.equal(r.stdout, 'plain\ndeep\n0\n');
    assert.doesNotMatch(JSON.stringify(r), new RegExp(SECRET));
    for (const skipped of ['kit/leak-top.txt', 'kit/a/b/c/leak-deep.txt', 'kit/a/out-dir', 'kit/dangling.txt', 'kit/a/b/two-hops.txt', 'kit/zero.bin']) {
      assert.ok(r.warnings.some((w) => w.includes(`skipped ${skipped}:`)), `no warning names ${skipped}: ${JSON.stringify(r.warnings)}`);
    }
  });

  it('a link to its own folder (`docs/current -> .`) is kept in the snapshot, not a failed run', async () => {
    fs.mkdirSync(path.join(sb.skillRoot, 'docs'));
    fs.writeFileSync(path.join(sb.skillRoot, 'docs', 'guide.md'), 'guide\n');
    fs.symlinkSync('.', path.join(sb.skillRoot, 'docs', 'current'));
    fs.symlinkSync(sb.skillRoot, path.join(sb.skillRoot, 'docs', 'root'));
    const r = await sb.runner().run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'cat docs/current/guide.md docs/root/docs/guide.md; readlink docs/current' });
    assert.equal(r.exit_code, 0, r.stderr);
    assert.equal(r.stdout, 'guide\nguide\n.\n');
  });

  it('a file swapped for a link to a secret between the listing and the read is not copied into the snapshot (noFollow)', async () => {
    const victim = path.join(sb.skillRoot, 'notes.txt');
    const swap = swappingHost(victim, path.join(outside, 'secret.txt'));
    const files = swap.host;
    let result: unknown;
    try {
      result = await sb.runner({ files }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'cat notes.txt 2>/dev/null; echo ran' });
    } catch (e) {
      result = { error: String((e as Error).message) };
    }
    assert.ok(swap.swapped(), 'the swap did not happen');
    assert.doesNotMatch(JSON.stringify(result), new RegExp(SECRET), JSON.stringify(result).slice(0, 400));
    assert.match(JSON.stringify(result), /ELOOP|symbolic link|notes\.txt|ran/);
  });

  it('a skill:// input file swapped for a link to a secret between the path check and the read is not copied (noFollow)', async () => {
    const kit = path.join(sb.skillRoot, 'kit');
    fs.mkdirSync(kit);
    fs.writeFileSync(path.join(kit, 'data.txt'), 'data\n');
    const victim = path.join(fs.realpathSync(kit), 'data.txt');
    // The first read is the snapshot's copy; the second, the input's: that one finds the swap.
    const swap = swappingHost(victim, path.join(outside, 'secret.txt'), 1);
    const files = swap.host;
    let result: unknown;
    try {
        result = await sb.runner({ files, resolveSkillRoot }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, command: 'cat inputs/kit/data.txt 2>/dev/null; echo ran', inputs: [{ from: 'skill://exec-demo/kit', mode: 'copy' }] });
    } catch (e) {
      result = { error: String((e as Error).message) };
    }
    assert.ok(swap.swapped(), 'the swap did not happen');
    assert.doesNotMatch(JSON.stringify(result), new RegExp(SECRET), JSON.stringify(result).slice(0, 400));
  });

  for (const which of ['snapshot', 'skill:// input'] as const) {
    it(`a folder swapped for a link out between the listing and the read fails the ${which} copy; nothing from outside is copied`, async () => {
      const kit = path.join(sb.skillRoot, 'kit');
      fs.mkdirSync(path.join(kit, 'sub'), { recursive: true });
      fs.writeFileSync(path.join(kit, 'sub', 'data.txt'), 'data\n');
      const outsideSub = path.join(outside, 'sub');
      fs.mkdirSync(outsideSub);
      fs.writeFileSync(path.join(outsideSub, 'data.txt'), `${SECRET}-via-folder\n`);
      const realKit = fs.realpathSync(kit);
      // The snapshot reads kit/sub/data.txt first; the input's copy reads it second.
      const swap = swappingHost(path.join(realKit, 'sub', 'data.txt'), outsideSub, which === 'snapshot' ? 0 : 1, path.join(realKit, 'sub'));
      let result: unknown;
      try {
        result = await sb.runner({ files: swap.host, resolveSkillRoot }).run({
          skillName: 'exec-demo',
          skillRoot: sb.skillRoot,
          command: 'cat kit/sub/data.txt inputs/kit/sub/data.txt 2>/dev/null; echo ran',
          inputs: [{ from: 'skill://exec-demo/kit', mode: 'copy' }],
        });
      } catch (e) {
        result = { error: String((e as Error).message) };
      }
      assert.ok(swap.swapped(), 'the swap did not happen');
      assert.doesNotMatch(JSON.stringify(result), new RegExp(SECRET), JSON.stringify(result).slice(0, 400));
      assert.match(JSON.stringify(result), /moved while it was being copied/, JSON.stringify(result).slice(0, 400));
    });
  }
});
