// Issue 22 (stop 31, left): a core dump ignores the file-size limit and the run's size watch sees it only at its next
// walk. A script raised its own core limit and crashed a large process: the dump, as big as that process, landed in
// its working folder. The launcher now sets RLIMIT_CORE 0, soft and hard, before the script runs (launcher.ts
// NO_CORE_DUMPS), so the script can no longer raise it. With that line removed, this test fails: the script raises
// the limit and a `core` file of about the process's size appears in the run folder and in the folder it names.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

/**
 * Prints the core limits, tries to raise them, then in its working folder and in `$1` crashes a shell holding 8 MB
 * (SIGSEGV, whose default action dumps core), and lists every `core*` file it can find in both.
 */
const CRASH_SCRIPT = [
  'echo "limits soft=$(ulimit -Sc) hard=$(ulimit -Hc)"',
  'ulimit -Hc unlimited 2>/dev/null && echo "raised hard" || echo "hard refused"',
  'ulimit -Sc unlimited 2>/dev/null && echo "raised soft" || echo "soft refused"',
  'echo "now soft=$(ulimit -Sc) hard=$(ulimit -Hc)"',
  'here=$PWD',
  'for d in "$here" "$1"; do',
  '  (cd "$d" && sh -c \'x=$(head -c 8000000 /dev/zero | tr "\\000" a); kill -SEGV $$\')',
  '  echo "crash in $d: status $?"',
  'done',
  'for d in "$here" "$1"; do find "$d" -maxdepth 1 -name "core*" -exec ls -ln {} \\; 2>/dev/null; done | sed "s/^/found /"',
  'echo end',
].join('\n');

/** This process holds CAP_SYS_RESOURCE (bit 24 of CapEff), which lets a root script raise a hard limit again. */
function raisesHardLimits(): boolean {
  if (process.getuid?.() !== 0) return false;
  const eff = /^CapEff:\s+([0-9a-f]+)$/m.exec(fs.readFileSync('/proc/self/status', 'latin1'))?.[1];
  return eff === undefined || (BigInt(`0x${eff}`) & (1n << 24n)) !== 0n;
}

/** What the host's kernel does with a dump (a plain name is written in the crashing process's folder). */
function corePattern(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/core_pattern', 'utf8').trim();
  } catch {
    return '(unknown)';
  }
}

describe('core/exec core dumps: a script cannot raise its core limit and write a dump past the size cap (issue 22)', function () {
  this.timeout(120000);
  let sb: Sandbox;
  let outside: string;
  before(function () {
    if (process.platform !== 'linux') {
      console.log('      skipped: RLIMIT_CORE and /proc/sys/kernel/core_pattern are checked on Linux');
      this.skip();
    }
    sb = setup();
    fs.writeFileSync(path.join(sb.skillRoot, 'scripts', 'crash.sh'), CRASH_SCRIPT);
    // A folder the script may write without a sandbox (its user's, outside the run folder); sandboxed it names the private /tmp.
    outside = path.join(sb.tmp, 'outside');
    fs.mkdirSync(outside, { mode: 0o777 });
    fs.chmodSync(outside, 0o777);
    console.log(`      core_pattern here: ${corePattern()}`);
  });
  after(() => cleanup(sb));

  for (const sandbox of ['off', 'required'] as const) {
    const where = sandbox === 'off' ? 'without a sandbox' : 'sandboxed';
    it(`the hard core limit is 0, the script cannot raise it, and a crash leaves no core file (${where})`, async function () {
      if (sandbox === 'required' && !(await sandboxWorks(sb))) this.skip();
      const rootMayRaise = sandbox === 'off' && raisesHardLimits();
      // A root script holding CAP_SYS_RESOURCE may raise any hard limit (README: a root runner without a sandbox).
      if (rootMayRaise) console.log('      note: this root runner holds CAP_SYS_RESOURCE and runs the script as root, which may raise the hard limit again; only the limit it starts with is asserted');
      const dir = sandbox === 'off' ? outside : '/tmp';
      const r = await sb.runner({ sandbox, maxRunBytes: 64 * 1024 * 1024 }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/crash.sh', args: [dir], timeoutMs: 60000 });
      console.log(`      ${where}: ${r.stdout.split('\n').filter((l) => /^(limits|now|found|raised|hard|soft)/.test(l)).join(' | ')}`);
      assert.equal(r.exit_code, 0, `${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /^limits soft=0 hard=0$/m, 'the script starts with RLIMIT_CORE 0, soft and hard');
      assert.match(r.stdout, /^crash in .*: status 139$/m, 'the large shell was killed by SIGSEGV');
      assert.match(r.stdout, /^end$/m);
      if (rootMayRaise) return;
      assert.match(r.stdout, /^hard refused$/m, 'the script raised its hard core limit');
      assert.match(r.stdout, /^now soft=0 hard=0$/m, 'the script raised its core limit');
      assert.doesNotMatch(r.stdout, /^found /m, 'a core file was written in a folder the script can write');
      assert.doesNotMatch(r.stderr, /core dumped/, 'the shell says a core was dumped');
      for (const name of fs.readdirSync(outside)) assert.ok(!name.startsWith('core'), `${path.join(outside, name)} was left by the crash`);
    });
  }
});
