import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptRunError } from '../scriptRunError';
import { isInside } from '../paths';
import type { SandboxUser } from '../sandboxView';
import { interpreterPrefix, realPathOf, trustedFolders, trustedProgram, untrustedFolders, type TrustRoots } from './trustedPrograms';

/**
 * What a sandbox binds, decided in this one place from trusted inputs only: the system view, interpreters
 * the runner found itself (trusted by their real path: trustedPrograms.ts), and the run's own folders,
 * which the runner made. Nothing the skill ships (a link, a #! line, a file name) becomes a bind source
 * unless it is one of those. Every source is canonical (its real path) and is checked again when the
 * arguments are built ({@link checkedBinds}), so a folder swapped for a link after planning is refused.
 */
export interface MountPlan {
  /** The run's workspace (writable, except its `skills/` folder). */
  workspace: string;
  /** The staged skills folder inside the workspace, re-bound read-only. */
  skillsDir: string;
  /** Host folders and files bound read-only: the skill's snapshot, interpreter prefixes, linked inputs, plugin root. */
  readOnly: string[];
  /** Per-skill folders that stay writable (HOME, dependency folders, plugin data). */
  writable: string[];
  /** Files shown as /etc/passwd and /etc/group. */
  passwdFile: string;
  groupFile: string;
  user: SandboxUser;
  cwd: string;
  /** The script's whole environment, set inside the sandbox only. */
  env: Readonly<Record<string, string>>;
}

/** The run's own parts, as the runner made or checked them. */
export interface RunFolders {
  workspace: string;
  skillsDir: string;
  snapshotDir: string;
  home: string;
  depDirs: readonly string[];
  /** Sources of inputs staged as links (checked against the allowed host paths by the runner) and a plugin's root. */
  linked: readonly string[];
  /** The folder holding the generated passwd and group. */
  identityDir: string;
}

/**
 * A bind source the plan refused at bind time: the run is not started. The runtime's own failure (its state
 * folder changed under it), not the request's: retrying or installing something would not help.
 */
export class MountRefused extends ScriptRunError {
  constructor(message: string) {
    super('internal_error', message);
  }
}

/** The read-only binds that let `programs` (the interpreter, `sh`) run inside: only trusted ones get any. */
export function interpreterBinds(programs: readonly string[], roots: TrustRoots): string[] {
  const out = new Set<string>();
  for (const p of programs) {
    const real = trustedProgram(p, roots);
    if (!real) continue;
    const prefix = interpreterPrefix(real, roots);
    if (prefix) out.add(prefix);
  }
  return [...out];
}

/** The plan for one run: the run's folders, the snapshot, and the binds of its (trusted) programs. */
export function mountPlan(run: RunFolders, programs: readonly string[], roots: TrustRoots, rest: Pick<MountPlan, 'user' | 'cwd' | 'env'>): MountPlan {
  return {
    workspace: run.workspace,
    skillsDir: run.skillsDir,
    readOnly: [run.snapshotDir, ...interpreterBinds(programs, roots), ...run.linked],
    writable: [run.home, ...run.depDirs],
    passwdFile: path.join(run.identityDir, 'passwd'),
    groupFile: path.join(run.identityDir, 'group'),
    ...rest,
  };
}

/** One bind: the canonical source on the host, the path it appears at inside. */
export interface Bind {
  source: string;
  dest: string;
}

/** The binds of one plan, in mount order, each checked by {@link checkedBinds}. */
export interface CheckedBinds {
  system: Bind[];
  identity: Bind[];
  readOnly: Bind[];
  workspace: Bind;
  writable: Bind[];
  skillsDir: Bind;
}

/**
 * The plan's binds, each source resolved again now, when the arguments are built: it must exist, and its real
 * path (the source bubblewrap is given) must lie in the allowed set: the system view, a folder of this run
 * where the runner made it under the state folder (workspace, snapshot, HOME, dependency folders, identity
 * files), and for read-only binds also a linked input or a trusted program folder (under a system or
 * toolchain folder, holding no untrusted one). A source whose real path lies elsewhere
 * (a link swapped in after planning) throws {@link MountRefused} naming it; nothing is bound.
 */
export function checkedBinds(plan: MountPlan, run: RunFolders, roots: TrustRoots): CheckedBinds {
  const canon = (p: string) => realPathOf(p) ?? path.resolve(p);
  // A run folder is where the runner put it under its state folder: that folder's real path plus the same
  // relative path, never the folder's own real path (which a link swapped in would move anywhere).
  const stateReal = canon(roots.stateDir);
  const ownPlace = (p: string) => (isInside(roots.stateDir, p) ? path.join(stateReal, path.relative(roots.stateDir, p)) : canon(p));
  const own = [run.workspace, run.snapshotDir, run.home, ...run.depDirs, run.identityDir].map(ownPlace);
  const linked = run.linked.map(canon);
  const system = roots.view.binds.map(canon);
  const trusted = trustedFolders(roots.view);
  const untrusted = untrustedFolders(roots);
  const check = (dest: string, allowed: 'system' | 'run' | 'any'): Bind => {
    const real = realPathOf(dest);
    if (real === undefined) throw new MountRefused(`sandbox: bind source ${dest} does not exist any more; run the script again.`);
    if (allowed === 'system' && system.some((s) => isInside(s, real))) return { source: real, dest };
    if (allowed !== 'system' && own.some((o) => isInside(o, real))) return { source: real, dest };
    // Linked inputs (and a plugin's root) are shown read-only only: a writable bind never lands in one. None may be
    // `/` or hold HOME or the state folder, whatever led to it (an install record, a configured folder): that would show
    // the whole host, the runtime's sessions and audit log, or every other run.
    if (allowed === 'any' && linked.some((o) => isInside(o, real))) {
      const holds = ['/', os.homedir(), roots.stateDir, stateReal].find((h) => isInside(real, h));
      if (holds) throw new MountRefused(`sandbox: bind source ${dest} resolves to ${real}, which is or holds ${holds}; a linked input or plugin folder that wide is never shown to a script. Link a narrower folder.`);
      return { source: real, dest };
    }
    if (allowed === 'any' && trusted.some((t) => isInside(t, real)) && !untrusted.some((u) => isInside(u, real) || isInside(real, u))) return { source: real, dest };
    throw new MountRefused(`sandbox: bind source ${dest} resolves to ${real}, which is neither a folder of this run nor a system or toolchain folder; it is not bound and the script does not run. If this repeats, report it: something changed the state folder under the runner.`);
  };
  return {
    system: roots.view.binds.map((b) => check(b, 'system')),
    identity: [plan.passwdFile, plan.groupFile].map((f) => check(f, 'run')),
    readOnly: plan.readOnly.map((r) => check(r, 'any')),
    workspace: check(plan.workspace, 'run'),
    writable: plan.writable.map((w) => check(w, 'run')),
    skillsDir: check(plan.skillsDir, 'run'),
  };
}
