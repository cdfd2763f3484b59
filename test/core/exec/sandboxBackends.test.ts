// The sandbox backend interface (issue 23 point 6): the runner asks a registry of backends, each owning its
// probe, its launch (mount plan) and its wording. bubblewrap and "none" work today; the macOS backend
// reports itself unverified until it has run on a Mac.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ProgramResolver } from '../../../src/core/exec/interpreters';
import type { ProbeEnv } from '../../../src/core/exec/sandbox/backend';
import { backendById, describeSandbox, probeBackends, SANDBOX_BACKENDS, statusOf } from '../../../src/core/exec/sandbox/registry';
import { SEATBELT_UNVERIFIED } from '../../../src/core/exec/sandbox/seatbelt';
import { REPO, sourceFiles, withoutComments } from '../../support/sourceFiles';
import { cleanup, setup, type Sandbox } from './helpers';

describe('core/exec sandbox backends', () => {
  let sb: Sandbox;
  before(() => {
    sb = setup();
  });
  after(() => cleanup(sb));

  const env = (searchPath: string): ProbeEnv => ({
    resolver: new ProgramResolver(searchPath),
    run: () => Promise.reject(new Error('a probe that needs no program must not run one')),
    stateDir: sb.stateDir,
    user: { uid: 65534, gid: 65534 },
    identityDir: (dir) => dir,
  });

  it('on macOS the seatbelt backend reports itself unverified: auto runs unsandboxed saying why, required refuses', async () => {
    const probe = await probeBackends(env('/nonexistent'), 'darwin');
    assert.deepEqual(probe, { available: false, backend: 'seatbelt', reason: SEATBELT_UNVERIFIED });
    assert.equal(describeSandbox(statusOf('auto', probe)), `Not sandboxed, because ${SEATBELT_UNVERIFIED}: the script runs with your user's rights: it can read your files and use the network. It starts in a fresh run folder with a scrubbed environment, and the timeout kills its process tree.`);
    assert.equal(statusOf('required', probe).refused, true);
    // The refusal says what to do on this platform (not "install bubblewrap").
    assert.equal(describeSandbox(statusOf('required', probe)), `Not run: the sandbox is required but unavailable (${SEATBELT_UNVERIFIED}). Set agentSkills.scripts.sandbox to "auto" to run scripts without a sandbox on macOS until this backend is verified.`);
  });

  it('on a platform without a backend, and on Linux without bwrap, says which', async () => {
    assert.equal((await probeBackends(env('/nonexistent'), 'win32')).reason, 'there is no sandbox backend for win32');
    const linux = await probeBackends(env('/nonexistent'), 'linux');
    assert.equal(linux.available, false);
    assert.match(linux.reason ?? '', /bubblewrap \(bwrap\) is not installed; install the package "bubblewrap"/);
    assert.match(describeSandbox(statusOf('required', linux)), /\)\. Install bubblewrap or set agentSkills\.scripts\.sandbox to "auto"\.$/);
  });

  it('a working backend is named with its own guarantees; "off" is the none backend with its limits', () => {
    const s = statusOf('auto', { available: true, backend: 'bubblewrap', program: '/usr/bin/bwrap' });
    assert.deepEqual(s, { policy: 'auto', sandboxed: true, refused: false, mechanism: 'bubblewrap', program: '/usr/bin/bwrap' });
    assert.match(describeSandbox(s), /^Sandboxed with bubblewrap \(\/usr\/bin\/bwrap\): no network; sees only system programs/);
    assert.match(describeSandbox(statusOf('off', undefined)), /^Not sandboxed \(the sandbox is off .*\): the script runs with your user's rights/);
    assert.deepEqual(SANDBOX_BACKENDS.map((b) => b.id), ['bubblewrap', 'seatbelt']);
  });

  it('the runner names no backend: only the registry imports them (a new backend is one file plus one line there)', () => {
    const exec = path.resolve(__dirname, '../../../src/core/exec');
    const files = [...fs.readdirSync(exec).filter((f) => f.endsWith('.ts')).map((f) => path.join(exec, f)), ...fs.readdirSync(path.join(exec, 'sandbox')).map((f) => path.join(exec, 'sandbox', f))];
    const importers = files.filter((f) => /from '\.\/(sandbox\/)?(bubblewrap|seatbelt|none)'/.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(exec, f));
    assert.deepEqual(importers, ['sandbox/registry.ts']);
  });
  it("a backend's options stay in its file: no other file reads a probe's options, and bubblewrap refuses a probe it did not make", () => {
    const exec = path.resolve(__dirname, '../../../src/core/exec');
    const files = [...fs.readdirSync(exec).filter((f) => f.endsWith('.ts')).map((f) => path.join(exec, f)), ...fs.readdirSync(path.join(exec, 'sandbox')).map((f) => path.join(exec, 'sandbox', f))];
    const readers = files.filter((f) => /\.options\b/.test(fs.readFileSync(f, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, ''))).map((f) => path.relative(exec, f));
    assert.deepEqual(readers, ['sandbox/bubblewrap.ts']);
    const bwrap = backendById('bubblewrap');
    assert.ok(bwrap?.launch, 'bubblewrap launches');
    const spec = { run: { workspace: sb.stateDir, skillsDir: sb.stateDir, snapshotDir: sb.stateDir, home: sb.stateDir, depDirs: [], linked: [], identityDir: sb.stateDir }, argv: ['/bin/true'], sh: '/bin/sh', user: { uid: 65534, gid: 65534 }, cwd: '/', env: {}, maxFileBytes: 1024, processLimit: '16', stateDir: sb.stateDir };
    // A probe without bubblewrap's options (made by another backend, or by hand) would launch without the root
    // drop or the descriptor pins: refused, saying why.
    assert.throws(() => bwrap.launch!(spec as never, { available: true, backend: 'bubblewrap', program: '/usr/bin/bwrap' }), /launch was given a probe it did not make/);
    assert.throws(() => bwrap.launch!(spec as never, { available: true, backend: 'seatbelt', program: '/usr/bin/sandbox-exec', options: { disableUserns: false, sizeOption: false, bindFdOption: false, seccomp: false } }), /did not make \(backend seatbelt\)/);
  });

  it("a backend's wording stays in its file: no code of src/ or server/ outside the backends names one (comments aside)", () => {
    const names = /\b(bubblewrap|bwrap|seatbelt|sandbox-exec)\b/;
    const sandboxDir = path.join(REPO, 'src/core/exec/sandbox') + path.sep;
    const naming = [...sourceFiles('src'), ...sourceFiles('server')]
      .filter((f) => !f.startsWith(sandboxDir) && names.test(withoutComments(fs.readFileSync(f, 'utf8'))))
      .map((f) => path.relative(REPO, f));
    assert.deepEqual(naming, [], 'these files word a sandbox backend themselves: take the wording from the backend (describeSandbox, guarantees, whenUnavailable)');
    assert.ok(names.test(fs.readFileSync(path.join(sandboxDir, 'bubblewrap.ts'), 'utf8')), 'the scan sees a backend\'s own file');
  });
});
