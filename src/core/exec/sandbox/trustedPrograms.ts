import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isInside } from '../paths';
import type { SystemView } from '../sandboxView';

/**
 * Which programs a sandbox may show, decided from the program's real path only. An interpreter is trusted
 * when its real path lies under the host's system folders or a toolchain prefix, and under none of the
 * places a skill, a script or a run can write or reach: a skill (whose links could point anywhere), its
 * snapshot and run folders (the state folder), the home folder, /tmp, /run, /proc, /sys, /dev.
 * Nothing a skill ships (a link, a #! line) can make a program trusted: the path is resolved with realpath
 * first, and the answer depends on where the file really is.
 */

/** Folders where system package managers and toolchain installers put programs (besides the system view). */
export const TOOLCHAIN_PREFIXES: readonly string[] = ['/opt', '/usr/local', '/nix/store', '/gnu/store', '/snap', '/home/linuxbrew/.linuxbrew'];

/** Folders never shown as an interpreter's install prefix, whatever else holds them. */
export const NEVER_TRUSTED: readonly string[] = ['/tmp', '/var/tmp', '/run', '/proc', '/sys', '/dev'];

/** What decides trust for one runner: the system view and the folders the runner itself holds. */
export interface TrustRoots {
  view: SystemView;
  /** The runner's state folder (snapshots, run folders, skills' HOME). */
  stateDir: string;
  /** Further folders never trusted (the skill's own root, when known). */
  forbidden?: readonly string[];
}

/** The real path of `p`, or undefined when it cannot be resolved (missing, a loop, no access). */
export function realPathOf(p: string): string | undefined {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** The folders a trusted program may not lie in, canonical (the real path of each that exists, and the path as given). */
export function untrustedFolders(roots: TrustRoots): string[] {
  const given = [...NEVER_TRUSTED, os.tmpdir(), os.homedir(), roots.stateDir, ...(roots.forbidden ?? [])];
  const out = new Set<string>();
  for (const g of given) {
    if (!path.isAbsolute(g)) continue;
    out.add(path.resolve(g));
    const real = realPathOf(g);
    if (real) out.add(real);
  }
  return [...out];
}

const trustedByView = new WeakMap<SystemView, string[]>();

/**
 * The folders a trusted program must lie in: the system view's (real) folders and the toolchain prefixes.
 * Read once per view (system folders, like the view itself, do not move under a running editor).
 */
export function trustedFolders(view: SystemView): string[] {
  const known = trustedByView.get(view);
  if (known) return known;
  const out = new Set<string>();
  for (const p of [...view.binds, ...view.symlinks.map((l) => l.path), ...TOOLCHAIN_PREFIXES]) {
    if (p.startsWith('/etc')) continue;
    const real = realPathOf(p);
    if (real && real !== '/') out.add(real);
  }
  const folders = [...out];
  trustedByView.set(view, folders);
  return folders;
}

/**
 * The real path of `program` when a sandbox may run it: a regular executable file whose real path is under a
 * trusted folder and under no untrusted one. Undefined otherwise (a program in a skill, behind a link the
 * skill ships, in a run folder, HOME or /tmp).
 */
export function trustedProgram(program: string, roots: TrustRoots): string | undefined {
  if (!path.isAbsolute(program)) return undefined;
  const real = realPathOf(program);
  if (!real) return undefined;
  try {
    if (!fs.statSync(real).isFile()) return undefined;
  } catch {
    return undefined;
  }
  if (!trustedFolders(roots.view).some((t) => isInside(t, real))) return undefined;
  if (untrustedFolders(roots).some((u) => isInside(u, real) || isInside(real, u))) return undefined;
  return real;
}

/** True when `p` (canonical) is visible through the system view. */
export function inSystemView(p: string, view: SystemView): boolean {
  return view.binds.some((b) => isInside(b, p)) || view.symlinks.some((l) => isInside(l.path, p));
}

/**
 * The folder to bind read-only so that a trusted program runs inside (none when the system view shows it):
 * its install prefix (the folder above `bin/`, `sbin/` or `shims/`, else its own folder), kept only while it
 * stays under a trusted folder and holds no untrusted one; else the program file alone.
 */
export function interpreterPrefix(realProgram: string, roots: TrustRoots): string | undefined {
  if (inSystemView(realProgram, roots.view)) return undefined;
  const dir = path.dirname(realProgram);
  const prefix = ['bin', 'sbin', 'shims'].includes(path.basename(dir)) ? path.dirname(dir) : dir;
  const trusted = trustedFolders(roots.view).some((t) => isInside(t, prefix));
  const clashes = untrustedFolders(roots).some((u) => isInside(u, prefix) || isInside(prefix, u));
  return trusted && !clashes ? prefix : realProgram;
}

/**
 * The path a sandbox runs a trusted `program` by: the path as found when its folder is the real program's
 * folder or a system one (so `/usr/bin/python3 -> python3.11` and a multi-call binary keep their name),
 * else the real path (the found path, a link from elsewhere, would not exist inside). Undefined when the
 * program is not trusted.
 */
export function visibleProgram(program: string, roots: TrustRoots): string | undefined {
  const real = trustedProgram(program, roots);
  if (!real) return undefined;
  const dir = realPathOf(path.dirname(program));
  return dir !== undefined && dir === path.dirname(path.normalize(program)) && (dir === path.dirname(real) || inSystemView(dir, roots.view)) ? path.normalize(program) : real;
}

/**
 * {@link visibleProgram} for a path the skill or the call wrote (a #! line, a command's program) rather than one the
 * runner found on its PATH: taken only when the system view already shows it, so naming a program never makes the
 * sandbox bind a folder (`#!/opt/app/bin/bash` would show all of `/opt/app`). A toolchain program is still used when
 * the runner finds it on PATH by its name.
 */
export function namedProgram(program: string, roots: TrustRoots): string | undefined {
  const real = trustedProgram(program, roots);
  return real !== undefined && inSystemView(real, roots.view) ? visibleProgram(program, roots) : undefined;
}
