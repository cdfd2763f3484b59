import * as fs from 'node:fs';
import * as path from 'node:path';

/** One way to run a file: a program looked up on PATH, plus arguments put before the script path. */
export interface InterpreterCandidate {
  /** Program name looked up on PATH, or an absolute path. */
  command: string;
  /** Arguments placed before the script path. */
  args?: string[];
}

/** A row of the interpreter mapping: file extensions and the candidates tried in order. */
export interface InterpreterRule {
  /** Lower-case extensions with the dot, e.g. `.py`. */
  extensions: string[];
  candidates: InterpreterCandidate[];
  /** Shown in docs. */
  note?: string;
}

/**
 * How a script is run, by extension. When no row matches, the file's `#!` line decides; without one
 * the file is executed directly (the staged copy is marked executable, so the skill's own files need no
 * executable bit). `.js` falls back to the Node that runs the runtime when no `node` is on PATH.
 */
export const INTERPRETER_MAPPING: readonly InterpreterRule[] = [
  { extensions: ['.py'], candidates: [{ command: 'python3' }, { command: 'python' }] },
  { extensions: ['.sh', '.bash'], candidates: [{ command: 'bash' }, { command: 'sh' }], note: 'sh when bash is missing' },
  { extensions: ['.zsh'], candidates: [{ command: 'zsh' }] },
  { extensions: ['.js', '.mjs', '.cjs'], candidates: [{ command: 'node' }, { command: process.execPath }], note: 'the runtime\'s own Node when no node on PATH' },
  {
    extensions: ['.ts', '.mts', '.cts'],
    candidates: [{ command: 'tsx' }, { command: 'bun' }, { command: 'deno', args: ['run', '--allow-all'] }],
    note: 'tsx, else bun, else deno; Node 20 cannot run TypeScript by itself',
  },
  { extensions: ['.rb'], candidates: [{ command: 'ruby' }] },
  { extensions: ['.pl'], candidates: [{ command: 'perl' }] },
  { extensions: ['.php'], candidates: [{ command: 'php' }] },
  { extensions: ['.lua'], candidates: [{ command: 'lua' }] },
  { extensions: ['.r'], candidates: [{ command: 'Rscript' }] },
  { extensions: ['.ps1'], candidates: [{ command: 'pwsh', args: ['-NoProfile', '-File'] }] },
];

/**
 * Variables a program needs when it is the runtime's own executable: in the editor's extension host that is
 * Electron, which opens a window instead of running the script unless ELECTRON_RUN_AS_NODE is set.
 */
export function selfNodeEnv(program: string, runtime: { execPath: string; versions: NodeJS.ProcessVersions } = process): Record<string, string> {
  return program === runtime.execPath && runtime.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {};
}

/** How a script will be launched, with where that decision came from. */
export interface LaunchPlan {
  /** Absolute program path to spawn. */
  program: string;
  /** Arguments before the script path. */
  args: string[];
  source: 'mapping' | 'shebang' | 'direct';
  warning?: string;
}

/**
 * Which programs may be used, and as which path: with a sandbox, only those it trusts by their real path,
 * named by a path that exists inside it; undefined for a program it refuses. `named`: the path was written by
 * the skill or the call (a #! line, a command's program), not found by the runner on its PATH; a sandbox takes
 * such a path only where it already shows it (a system folder), so naming a program never adds a bind.
 */
export type ProgramFilter = (program: string, named?: boolean) => string | undefined;

/** Looks programs up on a PATH once and remembers the answer (also a miss). */
export class ProgramResolver {
  private readonly cache = new Map<string, string[]>();

  constructor(private readonly searchPath: string) {}

  /**
   * Absolute path of `command` (kept as is when absolute and executable), or undefined: the first hit on PATH
   * that `accept` takes (every hit without it).
   */
  resolve(command: string, accept?: ProgramFilter, named = false): string | undefined {
    let hits = this.cache.get(command);
    if (!hits) this.cache.set(command, (hits = lookup(command, this.searchPath)));
    if (!accept) return hits[0];
    for (const h of hits) {
      const taken = accept(h, named);
      if (taken) return taken;
    }
    return undefined;
  }
}

function isExecutableFile(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Every executable `command` on the search path, in order (the path itself when absolute). */
function lookup(command: string, searchPath: string): string[] {
  if (command.includes('/')) return path.isAbsolute(command) && isExecutableFile(command) ? [path.normalize(command)] : [];
  const out: string[] = [];
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutableFile(candidate) && !out.includes(candidate)) out.push(candidate);
  }
  return out;
}

/** The mapping row for a file name, if any. */
export function ruleFor(file: string): InterpreterRule | undefined {
  const ext = path.extname(file).toLowerCase();
  return ext ? INTERPRETER_MAPPING.find((r) => r.extensions.includes(ext)) : undefined;
}

/** Reads a `#!` line: returns the interpreter and its arguments, or undefined. */
export function readShebang(file: string): string[] | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(256);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    if (n < 3 || buf[0] !== 0x23 || buf[1] !== 0x21) return undefined;
    const line = buf.subarray(2, n).toString('utf8').split('\n')[0].replace(/\r$/, '').trim();
    if (!line) return undefined;
    const [program, ...rest] = line.split(/\s+/);
    // `/usr/bin/env [-S] prog args`: the program is looked up on PATH, its words split.
    if (path.basename(program) === 'env') {
      const words = rest[0] === '-S' ? rest.slice(1) : rest;
      return words.length > 0 ? words : undefined;
    }
    // The kernel passes everything after the interpreter as a single argument.
    const arg = line.slice(program.length).trim();
    return arg ? [program, arg] : [program];
  } finally {
    fs.closeSync(fd);
  }
}

/** Why a program found on PATH was not taken: the sandbox does not show where it lives. */
function untrusted(found: string): string {
  return `${found} lives outside the system and toolchain folders the sandbox shows (/usr, /bin, /opt, /nix/store...); install the interpreter there, or run with the sandbox off`;
}

/**
 * Decides how to launch `file` (an absolute path of the staged copy): mapping, then shebang, then direct.
 * With `accept` (a sandbox), only programs it takes are used: a #! program it refuses (one in the skill,
 * behind a link the skill ships, under HOME or /tmp) is replaced by the program of the same name on PATH
 * that it takes, with a warning; the #! path itself is never shown inside.
 * Says which interpreter is missing when a mapped or shebang interpreter is not installed.
 */
export function planLaunch(file: string, resolver: ProgramResolver, accept?: ProgramFilter): LaunchPlan | { missing: string } {
  const rule = ruleFor(file);
  if (rule) {
    for (const c of rule.candidates) {
      const program = resolver.resolve(c.command, accept);
      if (!program) continue;
      // The first one on PATH was passed over (a pyenv shim, an nvm node): say which ran instead.
      const first = accept && resolver.resolve(c.command);
      const warning = first && !accept(first) ? `${first} is outside the system and toolchain folders the sandbox shows; ran ${program} instead` : undefined;
      return { program, args: c.args ?? [], source: 'mapping', ...(warning ? { warning } : {}) };
    }
    const anywhere = accept && rule.candidates.map((c) => resolver.resolve(c.command)).find((p) => p !== undefined);
    if (anywhere) return { missing: `no interpreter for ${path.extname(file)} files the sandbox can run: ${untrusted(anywhere)}` };
    return { missing: `no interpreter for ${path.extname(file)} files: tried ${rule.candidates.map((c) => c.command).join(', ')} on PATH; install one of them` };
  }
  const shebang = readShebang(file);
  if (shebang) {
    const [wanted, ...args] = shebang;
    // An absolute #! path is the skill's choice, not the runner's: a sandbox runs it as written only from a folder it shows anyway.
    const direct = resolver.resolve(wanted, accept, path.isAbsolute(wanted));
    const program = direct ?? (path.isAbsolute(wanted) ? resolver.resolve(path.basename(wanted), accept) : undefined);
    if (!program) {
      const anywhere = accept && (resolver.resolve(wanted) ?? resolver.resolve(path.basename(wanted)));
      if (anywhere) return { missing: `the #! line asks for ${wanted}; ${untrusted(anywhere)}` };
      return { missing: `the #! line asks for ${wanted}, which is not installed (nor ${path.basename(wanted)} on PATH)` };
    }
    let warning: string | undefined;
    if (!direct && accept && resolver.resolve(wanted)) {
      if (program !== path.normalize(wanted)) warning = `#! interpreter ${wanted} is not one the sandbox runs as written (only a program in a system folder is; a toolchain program is used when found on PATH); used ${program} from PATH`;
    }
    else if (program !== wanted && path.isAbsolute(wanted)) warning = `#! interpreter ${wanted} not found; used ${program} from PATH`;
    return { program, args, source: 'shebang', warning };
  }
  if (!isElf(file)) {
    // A text file without #! is a shell script by POSIX convention (what execvp does on ENOEXEC).
    const sh = resolver.resolve('sh', accept);
    if (sh) return { program: sh, args: [], source: 'direct', warning: 'no extension mapping and no #! line: ran with sh' };
  }
  return { program: file, args: [], source: 'direct' };
}

function isElf(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4);
    return fs.readSync(fd, buf, 0, 4, 0) === 4 && buf.toString('latin1') === '\x7fELF';
  } finally {
    fs.closeSync(fd);
  }
}
