// A runner started as root (CI containers, a root MCP server) maps the script's uid 65534 to the host's uid 0:
// without capabilities, but the owner of every root-owned file. A sandboxed script then read what only root may
// read inside the system folders it is shown: the host's TLS private keys under /etc/ssl/private (mode 0710, keys
// 0600). Found by this red-team pass. The end-to-end case plants a root-only folder and file in a shown /etc
// folder (root only, removed after); the walk itself is tested on a temp tree, as any user.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hostSystemView } from '../../../src/core/exec/sandboxView';
import { MAX_SYSTEM_DEPTH, privateSystemFiles } from '../../../src/core/exec/sandbox/privateSystemFiles';
import { makeTempDir } from '../../support/tempDir';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

describe('core/exec: a sandboxed script sees no root-only system file (red team)', function () {
  let sb: Sandbox;
  const tag = randomBytes(4).toString('hex');
  let etcDir: string | undefined;
  const planted: string[] = [];

  before(async function () {
    sb = setup();
    if (process.getuid?.() !== 0) {
      console.log('    skipped: only a runner started as root maps the script to the host\'s uid 0 (the walk is tested below as any user)');
      this.skip();
    }
    if (!(await sandboxWorks(sb))) this.skip();
    etcDir = hostSystemView().binds.find((b) => b.startsWith('/etc/') && fs.statSync(b).isDirectory() && b !== '/etc/alternatives');
    if (!etcDir) {
      console.log('    skipped: no /etc folder is shown in this host\'s sandbox view');
      this.skip();
    }
    const dir = path.join(etcDir, `agent-skills-canary-${tag}`);
    fs.mkdirSync(dir, { mode: 0o700 });
    planted.push(dir);
    fs.writeFileSync(path.join(dir, 'key'), `dir-secret-${tag}\n`, { mode: 0o600 });
    const file = path.join(etcDir, `agent-skills-canary-${tag}.key`);
    fs.writeFileSync(file, `file-secret-${tag}\n`, { mode: 0o600 });
    planted.push(file);
  });
  after(() => {
    for (const p of planted) fs.rmSync(p, { recursive: true, force: true });
    cleanup(sb);
  });

  it('a root-only folder and a root-only file in a shown /etc folder are empty inside; the folder itself still works', async () => {
    const script = path.join(sb.skillRoot, 'scripts', 'peek.sh');
    const dir = path.join(etcDir!, `agent-skills-canary-${tag}`);
    fs.writeFileSync(script, `#!/bin/sh\ncat "${dir}/key" 2>&1\ncat "${dir}.key" 2>&1\nls "${etcDir}" | head -3 | wc -l\necho done\n`, { mode: 0o755 });
    const r = await sb.runner({ sandbox: 'required' }).run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, script: 'scripts/peek.sh', timeoutMs: 15000 });
    assert.equal(r.sandboxed, true);
    assert.doesNotMatch(`${r.stdout}${r.stderr}`, new RegExp(`(dir|file)-secret-${tag}`), r.stdout);
    assert.match(r.stdout, /done/, r.stderr);
    // The shown folder is still listed (only the private entries are hidden).
    assert.match(r.stdout, /^[1-3]$/m, r.stdout);
  });
});

describe('privateSystemFiles: which entries of a shown folder others may not read', () => {
  let tmp: { dir: string; cleanup: () => void };
  before(() => {
    tmp = makeTempDir('private-system-');
  });
  after(() => tmp.cleanup());

  it('finds a 0600 file and a 0700 folder at any depth, skips links, and sees an entry added later', () => {
    const top = path.join(tmp.dir, 'etc-like');
    fs.mkdirSync(path.join(top, 'public', 'deeper'), { recursive: true });
    fs.writeFileSync(path.join(top, 'public', 'cert.pem'), 'x', { mode: 0o644 });
    fs.writeFileSync(path.join(top, 'public', 'deeper', 'key.pem'), 'x', { mode: 0o600 });
    fs.mkdirSync(path.join(top, 'private'), { mode: 0o710 });
    fs.symlinkSync('/nonexistent', path.join(top, 'public', 'link'));
    const names = () => privateSystemFiles([top]).map((h) => `${h.kind}:${path.relative(top, h.path)}`).sort();
    assert.deepEqual(names(), ['dir:private', 'file:public/deeper/key.pem']);
    // Added after the first walk: the folder's stamp changed, so it is read again.
    fs.writeFileSync(path.join(top, 'public', 'later.key'), 'x', { mode: 0o600 });
    assert.deepEqual(names(), ['dir:private', 'file:public/deeper/key.pem', 'file:public/later.key']);
  });

  it('hides a folder deeper than the walk goes, whole (fails closed)', () => {
    let dir = path.join(tmp.dir, 'deep');
    const top = dir;
    for (let i = 0; i <= MAX_SYSTEM_DEPTH + 1; i++) dir = path.join(dir, `d${i}`);
    fs.mkdirSync(dir, { recursive: true });
    const hidden = privateSystemFiles([top]);
    assert.equal(hidden.length, 1);
    assert.equal(hidden[0].kind, 'dir');
    assert.ok(hidden[0].path.startsWith(top));
  });
});
