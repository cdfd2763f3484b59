import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * A seccomp filter that refuses the kernel key management calls (`add_key`, `request_key`, `keyctl`) with ENOSYS,
 * as if the kernel had no keys, loaded by bubblewrap (`--seccomp FD`) before it starts the script. A new user
 * namespace and session do not give a process a new session keyring: a sandboxed script inherited the runner's and,
 * as its possessor, read every key in it (`keyctl search @s` then `keyctl read`: a key root added was read by the
 * script running as `nobody`), though /proc/keys is masked. `request_key` would also start the host's
 * `/sbin/request-key` as root. Docker's default profile refuses the same three calls.
 *
 * The program is classic BPF (struct sock_filter: u16 code, u8 jt, u8 jf, u32 k; little-endian on the architectures
 * below). For the native architecture and its 32-bit compatibility one, each by its own call numbers; any other
 * architecture a process could switch to is refused every call. x32 calls (bit 30 set on x86-64) are matched with
 * that bit cleared.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const AND_K = 0x54;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const ENOSYS = 38;
/** Offsets in struct seccomp_data. */
const NR = 0;
const ARCH = 4;

interface ArchTable {
  audit: number;
  /** add_key, request_key, keyctl. */
  calls: [number, number, number];
}

const TABLES: Record<string, { native: ArchTable; compat: ArchTable; nrMask?: number }> = {
  // x86-64 (AUDIT_ARCH_X86_64) and i386 through int 0x80 (AUDIT_ARCH_I386).
  x64: { native: { audit: 0xc000003e, calls: [248, 249, 250] }, compat: { audit: 0x40000003, calls: [286, 287, 288] }, nrMask: 0xbfffffff },
  // aarch64 (AUDIT_ARCH_AARCH64) and 32-bit ARM (AUDIT_ARCH_ARM).
  arm64: { native: { audit: 0xc00000b7, calls: [217, 218, 219] }, compat: { audit: 0x40000028, calls: [309, 310, 311] } },
};

type Insn = [code: number, jt: number, jf: number, k: number];

/** The filter for `arch` (Node's `process.arch`), or undefined where no table is known (no filter is loaded there). */
export function keyringFilterProgram(arch: string = process.arch): Buffer | undefined {
  const t = TABLES[arch];
  if (!t) return undefined;
  // Each block: load the call number, compare it with the three calls; jumps are relative to the next instruction.
  const block = (table: ArchTable, mask: number | undefined, denyAt: number, here: number): Insn[] => {
    const out: Insn[] = [[LD_W_ABS, 0, 0, NR]];
    if (mask !== undefined) out.push([AND_K, 0, 0, mask]);
    for (const nr of table.calls) {
      const at = here + out.length;
      out.push([JEQ_K, denyAt - at - 1, 0, nr]);
    }
    out.push([RET_K, 0, 0, RET_ALLOW]);
    return out;
  };
  const nativeLen = 1 + (t.nrMask !== undefined ? 1 : 0) + 3 + 1;
  const compatLen = 1 + 3 + 1;
  // 0: load arch; 1: native? else jump to 2 + nativeLen; compat block starts with its own arch check.
  const nativeStart = 2;
  const compatCheck = nativeStart + nativeLen;
  const compatStart = compatCheck + 1;
  const deny = compatStart + compatLen;
  const prog: Insn[] = [
    [LD_W_ABS, 0, 0, ARCH],
    [JEQ_K, 0, compatCheck - 2, t.native.audit],
    ...block(t.native, t.nrMask, deny, nativeStart),
    [JEQ_K, 0, deny - compatCheck - 1, t.compat.audit],
    ...block(t.compat, undefined, deny, compatStart),
    [RET_K, 0, 0, RET_ERRNO | ENOSYS],
  ];
  const buf = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    buf.writeUInt16LE(code, i * 8);
    buf.writeUInt8(jt, i * 8 + 2);
    buf.writeUInt8(jf, i * 8 + 3);
    buf.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return buf;
}

/**
 * Test knob, for tests only: with `AGENT_SKILLS_TEST_SECCOMP=unloadable` in the runner's environment the filter file
 * holds a program the kernel refuses to load (one load, no return: EINVAL, what a kernel built without seccomp
 * filters answers too), so a test sees the sandbox fall back without the filter and say so (README "Script sandbox").
 */
export const SECCOMP_TEST_KNOB = 'AGENT_SKILLS_TEST_SECCOMP';

/** The program the test knob loads: a lone load instruction, which the kernel's filter check refuses. */
const UNLOADABLE = Buffer.from([LD_W_ABS, 0, 0, 0, NR, 0, 0, 0]);

/** Whether the test knob asks for an unloadable filter. */
export function unloadableFilterAsked(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[SECCOMP_TEST_KNOB] === 'unloadable';
}

/**
 * The filter's file in `dir` (the runner's state folder, its owner's alone), written once (temp + rename) and
 * rewritten when its content differs; undefined where no filter is known for this architecture.
 */
export function keyringFilterFile(dir: string, arch: string = process.arch): string | undefined {
  const prog = unloadableFilterAsked() ? UNLOADABLE : keyringFilterProgram(arch);
  if (!prog) return undefined;
  const file = path.join(dir, `keyring-${arch}.seccomp`);
  let current: Buffer | undefined;
  try {
    current = fs.readFileSync(file);
  } catch {
    current = undefined;
  }
  if (!current || !current.equals(prog)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, prog, { mode: 0o600 });
    fs.renameSync(tmp, file);
  }
  return file;
}
