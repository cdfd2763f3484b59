// A runner started as root (CI containers, a root MCP server) used to make the sandbox's user namespace as root,
// which maps the script's uid 65534 to the host's uid 0: without capabilities, but the owner of every root-owned
// file. A sandboxed script read what only root may read in the system folders it is shown (the host's TLS keys
// under /etc/ssl/private). Hiding such entries of /etc left /usr open, and missed a file made root-only after its
// folder was listed. Now a root runner starts bubblewrap as nobody (sandboxView.ts SandboxUser.host), so the
// kernel refuses every root-only file anywhere. The canaries are planted by root and removed after.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hostSystemView } from '../../../src/core/exec/sandboxView';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

describe('core/exec: a sandboxed script of a root runner reads no root-only host file (red team)', function () {
  let sb: Sandbox;
  const tag = randomBytes(4).toString('hex');
  const planted: string[] = [];
  const canaries: Record<string, string> = {};
  let later = '';

  const plant = (file: string, mode: number) => {
    fs.writeFileSync(file, `${path.basename(file)}-secret-${tag}\n`, { mode });
    fs.chmodSync(file, mode);
    canaries[file] = `${path.basename(file)}-secret-${tag}`;
  };

  before(async function () {
    sb = setup();
    if (process.getuid?.() !== 0) {
      console.log('    skipped: only a runner started as root could map the script to the host\'s uid 0 (this pass runs as an ordinary user)');
      this.skip();
    }
    if (!(await sandboxWorks(sb))) this.skip();
    const etcDir = hostSystemView().binds.find((b) => b.startsWith('/etc/') && fs.statSync(b).isDirectory() && b !== '/etc/alternatives');
    const share = '/usr/local/share';
    fs.mkdirSync(share, { recursive: true });
    for (const parent of [share, ...(etcDir ? [etcDir] : [])]) {
      const dir = path.join(parent, `agent-skills-canary-${tag}`);
      fs.mkdirSync(dir, { mode: 0o700 });
      planted.push(dir);
      plant(path.join(dir, 'in-private-folder'), 0o644);
      const file = path.join(parent, `agent-skills-canary-${tag}.key`);
      planted.push(file);
      plant(file, 0o600);
    }
    // Public at the first run, root-only from the second on.
    later = path.join(share, `agent-skills-later-${tag}.key`);
    planted.push(later);
    plant(later, 0o644);
  });
  after(() => {
    for (const p of planted) fs.rmSync(p, { recursive: true, force: true });
    cleanup(sb);
  });

  const peek = async () => {
    const script = path.join(sb.skillRoot, 'scripts', 'peek.sh');
    const cats = Object.keys(canaries).map((f) => `cat "${f}" 2>&1`).join('\n');
    fs.writeFileSync(script, `#!/bin/sh\n${cats}\ncat /proc/self/uid_map\necho made > "$OUTPUT_DIR/made.txt" && echo home > "$HOME/home.txt" && echo wrote\n`, { mode: 0o755 });
    const r = await sb.runner({ sandbox: 'required' }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/peek.sh', timeoutMs: 15000 });
    assert.equal(r.sandboxed, true);
    return r;
  };

  it('root-only files and folders under /usr/local/share and /etc, and a file made root-only after a first run, stay unreadable', async () => {
    const first = await peek();
    // The first run read the public file: the test can see a read when one happens.
    assert.match(first.stdout, new RegExp(canaries[later]), first.stdout + first.stderr);
    fs.chmodSync(later, 0o600);
    const r = await peek();
    const seen = Object.values(canaries).filter((c) => r.stdout.includes(c) || r.stderr.includes(c));
    assert.deepEqual(seen, [], r.stdout);
    assert.match(r.stdout, /Permission denied/, r.stdout);
    // The script is nobody on the host too (a namespace made by root would map it to 0), and can still write its folders.
    assert.match(r.stdout, /^\s*65534\s+65534\s+1\s*$/m, r.stdout);
    assert.match(r.stdout, /^wrote$/m, r.stderr);
  });
});
