// Issue 22, second pair of eyes: /proc/keys is masked, but the kernel's key calls were not. A new user namespace and
// a new session do not give a process a new session keyring: the sandboxed script inherited the runner's and, as its
// possessor, read every key in it (`keyctl search @s` then `keyctl read`), as root's script running as `nobody` and
// as an ordinary user's. Now bubblewrap loads a seccomp filter refusing add_key, request_key and keyctl (ENOSYS),
// also through the 32-bit entry (int 0x80). Real runner, real bwrap, a real key added to this process's session
// keyring; a run without a sandbox reads it first (the control). As root and as the unprivileged account.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { keyringFilterProgram } from '../../../src/core/exec/sandbox/keyringFilter';
import { cleanup, onPath, sandboxWorks, setup, type Sandbox } from './helpers';

// Python through ctypes: no keyutils needed. Numbers are x86-64's and aarch64's (add_key, keyctl).
const CALLS = `import ctypes, os, platform
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ADD, KEYCTL = (248, 250) if platform.machine() == 'x86_64' else (217, 219)
`;

// Into the keyring @s names for this process without creating one (its session keyring, else its user-session
// keyring): the one the runner's children reach as @s too.
const ADD_KEY = `${CALLS}import sys
ring = libc.syscall(KEYCTL, 0, -3, 0)
r = libc.syscall(ADD, b"user", sys.argv[1].encode(), sys.argv[2].encode(), len(sys.argv[2]), ring) if ring >= 0 else ring
print(r if r >= 0 else 'error ' + os.strerror(ctypes.get_errno()))
`;

const UNLINK_KEY = `${CALLS}import sys
libc.syscall(KEYCTL, 9, int(sys.argv[1]), libc.syscall(KEYCTL, 0, -3, 0))
`;

/** The script: finds the key by name in its session keyring and prints its payload, or why not. */
const READ_KEY = (name: string) => `${CALLS}
kid = libc.syscall(KEYCTL, 10, -3, b"user", b"${name}", 0)
if kid < 0:
    print("search: " + os.strerror(ctypes.get_errno()))
else:
    buf = ctypes.create_string_buffer(256)
    n = libc.syscall(KEYCTL, 11, kid, buf, 256)
    print("read: " + (buf.raw[:n].decode() if n >= 0 else os.strerror(ctypes.get_errno())))
if platform.machine() == 'x86_64':
    import mmap
    # keyctl(KEYCTL_GET_KEYRING_ID, @s) through the i386 entry: mov eax,288; mov ebx,0; mov ecx,-3; xor edx,edx; int 0x80; ret
    code = bytes([0xb8]) + (288).to_bytes(4, 'little') + bytes([0xbb, 0, 0, 0, 0, 0xb9]) + (2**32 - 3).to_bytes(4, 'little') + bytes([0x31, 0xd2, 0xcd, 0x80, 0xc3])
    m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    m.write(code)
    r = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m)))()
    print("int80: " + ("keyring " + str(r) if r >= 0 else os.strerror(-r)))
print("done")
`;

describe('core/exec keyring: a sandboxed script cannot read the runner\'s kernel keys (red team)', function () {
  let sb: Sandbox;
  const name = `agent-skills-canary-${randomBytes(4).toString('hex')}`;
  const secret = `key-secret-${randomBytes(6).toString('hex')}`;
  let keyId: string | undefined;
  let root: string;

  before(async function () {
    if (!onPath('python3')) {
      console.log('      skipped: python3 is not installed (the key calls are made through its ctypes)');
      this.skip();
    }
    sb = setup();
    const added = spawnSync('python3', ['-c', ADD_KEY, name, secret], { encoding: 'utf8' });
    keyId = /^\d+$/.test(added.stdout.trim()) ? added.stdout.trim() : undefined;
    if (!keyId) {
      console.log(`      skipped: could not add a key to the session keyring here (${added.stdout.trim()} ${added.stderr.trim()})`);
      this.skip();
    }
    root = path.join(sb.tmp, 'keys');
    fs.cpSync(sb.skillRoot, root, { recursive: true });
    fs.writeFileSync(path.join(root, 'scripts', 'keys.py'), READ_KEY(name));
  });
  after(() => {
    if (keyId) spawnSync('python3', ['-c', UNLINK_KEY, keyId]);
    cleanup(sb);
  });

  const run = (sandbox: 'off' | 'required') => sb.runner({ sandbox }).run({ skillName: 'keys', skillRoot: root, script: 'scripts/keys.py', timeoutMs: 20000 });

  it('the sandboxed script finds no key: the key calls answer ENOSYS (also through int 0x80), while without a sandbox it reads the key', async function () {
    // The control: the key is in a keyring this process's children share, or the test would prove nothing.
    const control = await run('off');
    if (!control.stdout.includes(`read: ${secret}`)) {
      console.log(`      skipped: the added key is not in a session keyring this process's children share (${control.stdout.trim()})`);
      this.skip();
    }
    if (!(await sandboxWorks(sb))) this.skip();
    const r = await run('required');
    const all = `${r.stdout}\n${r.stderr}`;
    assert.equal(r.sandboxed, true, all);
    assert.doesNotMatch(all, new RegExp(secret), all);
    assert.match(r.stdout, /search: Function not implemented/, all);
    if (process.arch === 'x64') assert.match(r.stdout, /int80: Function not implemented/, all);
    assert.match(r.stdout, /done/, all);
  });
});

describe('core/exec keyring filter program (classic BPF, run here by a small interpreter)', () => {
  /** Runs the filter on one call: what seccomp would answer. */
  function answer(prog: Buffer, arch: number, nr: number): number {
    let acc = 0;
    for (let pc = 0; pc * 8 < prog.length; pc++) {
      const code = prog.readUInt16LE(pc * 8);
      const [jt, jf, k] = [prog.readUInt8(pc * 8 + 2), prog.readUInt8(pc * 8 + 3), prog.readUInt32LE(pc * 8 + 4)];
      if (code === 0x20) acc = k === 4 ? arch : k === 0 ? nr : assert.fail(`load of offset ${k}`);
      else if (code === 0x54) acc = (acc & k) >>> 0;
      else if (code === 0x15) pc += acc === k ? jt : jf;
      else if (code === 0x06) return k;
      else assert.fail(`unknown instruction ${code}`);
    }
    return assert.fail('fell off the end of the program');
  }
  const ALLOW = 0x7fff0000;
  const ENOSYS = 0x00050000 | 38;
  const cases: Record<string, { native: number; compat: number; keys: number[]; compatKeys: number[]; other: number[] }> = {
    x64: { native: 0xc000003e, compat: 0x40000003, keys: [248, 249, 250, 0x40000000 + 250], compatKeys: [286, 287, 288], other: [0, 1, 59, 247, 251, 0x40000000 + 1] },
    arm64: { native: 0xc00000b7, compat: 0x40000028, keys: [217, 218, 219], compatKeys: [309, 310, 311], other: [0, 63, 64, 216, 220, 221] },
  };
  for (const [arch, c] of Object.entries(cases)) {
    it(`${arch}: the three key calls answer ENOSYS in both entries, every other call is allowed, an unknown architecture gets ENOSYS`, () => {
      const prog = keyringFilterProgram(arch)!;
      for (const nr of c.keys) assert.equal(answer(prog, c.native, nr), ENOSYS, `native ${nr}`);
      for (const nr of c.compatKeys) assert.equal(answer(prog, c.compat, nr), ENOSYS, `compat ${nr}`);
      for (const nr of c.other) assert.equal(answer(prog, c.native, nr), ALLOW, `native ${nr}`);
      for (const nr of [0, 3, 11, 252]) assert.equal(answer(prog, c.compat, nr), ALLOW, `compat ${nr}`);
      assert.equal(answer(prog, 0x12345678, 1), ENOSYS);
    });
  }
});
