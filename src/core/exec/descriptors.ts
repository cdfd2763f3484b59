import * as fs from 'node:fs';

/** The part of `fs` {@link execInheritedFds} reads /proc with. */
export interface FdReader {
  readdirSync(path: string): string[];
  readFileSync(path: string, encoding: 'latin1'): string;
}

/**
 * Descriptors above 2 of this process that a program it starts would inherit: those whose flags lack
 * O_CLOEXEC (octal 02000000) in /proc/self/fdinfo (Linux; elsewhere none are reported). Node and libuv open
 * everything close-on-exec, so these are descriptors the process itself inherited (from an editor, a shell
 * or a test) above the few Node marks at its start. Self-contained (only its arguments and globals): the
 * persistent launcher embeds its source text to close them (launcherProgram.ts), the runner calls it to
 * check its `sh` fallback, so both decide by one rule. macOS has no fdinfo: there libuv spawns with posix_spawn
 * and POSIX_SPAWN_CLOEXEC_DEFAULT, which passes only the stdio it was given (no test here checks it: the
 * descriptor tests read /proc and run on Linux).
 */
export function execInheritedFds(procFs: FdReader, platform: string): number[] {
  if (platform !== 'linux') return [];
  const found: number[] = [];
  let names: string[];
  try {
    names = procFs.readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  for (const name of names) {
    const fd = Number(name);
    if (!(fd > 2)) continue;
    let info: string;
    try {
      info = procFs.readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1');
    } catch {
      // Closed meanwhile (the listing's own descriptor is one).
      continue;
    }
    const flags = /^flags:\s*([0-7]+)/m.exec(info);
    if (flags && (parseInt(flags[1], 8) & 0o2000000) === 0) found.push(fd);
  }
  return found;
}

/** {@link execInheritedFds} of this process. */
export function inheritedFds(): number[] {
  return execInheritedFds(fs, process.platform);
}
