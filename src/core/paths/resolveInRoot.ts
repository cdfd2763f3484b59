import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SkillsHost, SyncSkillsHost } from '../host/skillsHost';
import { isInside } from './isInside';

/**
 * Why a relative path given for a root (a skill or plugin folder) was refused. Callers word the message for
 * their audience (the model, the user, a CLI flag); the decision is made here only.
 *
 * The one answer to the cases surfaces used to disagree on:
 * - `..notes.md` is a file name, inside; `..` or `../x` climbs out; `a/../b` is `b`.
 * - `~` and `~/x` are refused (`home`): nothing here expands them, and a model that writes them means the home folder.
 * - `%2e%2e/x` is refused (`percent-encoded`): paths are plain text at this layer (URIs are decoded once, before).
 * - `..\x` is `../x` on every platform (backslashes are separators).
 * - A symbolic link is followed; its target must lie inside the root's real path (a link within is fine).
 */
export type PathRefusal = 'empty' | 'nul' | 'percent-encoded' | 'absolute' | 'home' | 'outside' | 'link-outside' | 'not-found' | 'root-missing';

/** What to accept. */
export interface RelativeOptions {
  /** The root itself (`''`, `.`) is acceptable. Default false (`empty`). */
  allowRoot?: boolean;
}

/** A checked relative path (POSIX separators, no `.` segments, no trailing slash; `''` for the root), or why not. */
export type CheckedRelative = { ok: true; rel: string } | { ok: false; reason: PathRefusal };

/** The lexical half of the rule: no file system access. */
export function checkRelative(value: string, options: RelativeOptions = {}): CheckedRelative {
  if (value.includes('\0')) return { ok: false, reason: 'nul' };
  if (/%[0-9a-f]{2}/i.test(value)) return { ok: false, reason: 'percent-encoded' };
  const unified = value.replace(/\\/g, '/');
  if (unified.startsWith('/') || /^[a-z]:/i.test(unified)) return { ok: false, reason: 'absolute' };
  if (unified === '~' || unified.startsWith('~/')) return { ok: false, reason: 'home' };
  const normalized = path.posix.normalize(unified === '' ? '.' : unified);
  if (normalized === '..' || normalized.startsWith('../')) return { ok: false, reason: 'outside' };
  const rel = normalized === '.' || normalized === './' ? '' : normalized.replace(/\/$/, '');
  if (rel === '' && !options.allowRoot) return { ok: false, reason: 'empty' };
  return { ok: true, rel };
}

/** How to resolve against the disk. */
export interface ResolveOptions extends RelativeOptions {
  /** The target must exist (`not-found` otherwise). Default true. */
  mustExist?: boolean;
  /**
   * `root` is already a real path (spares one realpath call on hot paths such as a script run). Default false.
   */
  rootIsReal?: boolean;
}

/** A resolved path inside the root, or why not (with the link target for `link-outside`). */
export type ResolvedPath =
  | { ok: true; rel: string; abs: string; real?: string; realRoot: string }
  | { ok: false; reason: PathRefusal; rel?: string; real?: string };

/**
 * Resolves `value` under `root` and proves it stays there, links followed: the real path of the target (or,
 * when it does not exist and may not, of its deepest existing parent) must lie inside the real path of the
 * root. The root itself may be a link (a symlinked skill folder): what counts is what lies inside its target.
 * Synchronous on the disk: one or two `realpath(3)` calls, cheaper than the promise round trips on every tool
 * call. {@link resolveInRootVia} asks a host instead; both run the same steps ({@link resolveSteps}).
 */
export function resolveInRoot(root: string, value: string, options: ResolveOptions = {}): ResolvedPath {
  return resolveSync(diskRealPath, root, value, options);
}

/** {@link resolveInRoot} through a host that answers at once (the Node host, the in-memory one). */
export function resolveInRootOn(host: Pick<SyncSkillsHost, 'realPath'>, root: string, value: string, options: ResolveOptions = {}): ResolvedPath {
  return resolveSync((p) => host.realPath(p) ?? { missing: true }, root, value, options);
}

/** realpath(3) on the disk, telling a path that is not there from one that cannot be looked at. */
function diskRealPath(p: string): RealPathAnswer {
  try {
    return fs.realpathSync.native(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { missing: code === 'ENOENT' || code === 'ENOTDIR' };
  }
}

/** Runs {@link resolveSteps} with answers given at once. */
function resolveSync(realPath: (p: string) => RealPathAnswer, root: string, value: string, options: ResolveOptions): ResolvedPath {
  const steps = resolveSteps(root, value, options);
  for (let next = steps.next(); ; ) {
    if (next.done) return next.value;
    next = steps.next(realPath(next.value));
  }
}

/** {@link resolveInRoot} through a host's `realPath` (which answers undefined for a path that is not there). */
export async function resolveInRootVia(host: Pick<SkillsHost, 'realPath'>, root: string, value: string, options: ResolveOptions = {}): Promise<ResolvedPath> {
  const steps = resolveSteps(root, value, options);
  for (let next = steps.next(); ; ) {
    if (next.done) return next.value;
    next = steps.next((await host.realPath(next.value)) ?? { missing: true });
  }
}

/** The real path of a path asked about, or why there is none (`missing`: nothing there, as opposed to unreadable). */
type RealPathAnswer = string | { missing: boolean };

/** The rule itself: yields each path whose real path it needs, and returns the answer. */
function* resolveSteps(root: string, value: string, options: ResolveOptions): Generator<string, ResolvedPath, RealPathAnswer> {
  const checked = checkRelative(value, options);
  if (!checked.ok) return checked;
  const { rel } = checked;
  let realRoot = root;
  if (!options.rootIsReal) {
    const answer = yield path.resolve(root);
    if (typeof answer !== 'string') return { ok: false, reason: 'root-missing', rel };
    realRoot = answer;
  }
  const abs = rel === '' ? realRoot : path.join(realRoot, ...rel.split('/'));
  for (let probe = abs; ; probe = path.dirname(probe)) {
    const real = yield probe;
    if (typeof real !== 'string') {
      if (options.mustExist !== false) return { ok: false, reason: 'not-found', rel };
      // Not there (yet): a new file, or a dangling link; what matters is where its existing parent really is.
      if (real.missing && probe.length > realRoot.length) continue;
      return { ok: true, rel, abs, realRoot };
    }
    if (!isInside(realRoot, real)) return { ok: false, reason: 'link-outside', rel, real };
    return probe === abs ? { ok: true, rel, abs, real, realRoot } : { ok: true, rel, abs, realRoot };
  }
}

/** The POSIX path of `abs` relative to `root` when it lies inside (`''` for the root itself), undefined otherwise. Lexical. */
export function relativeInside(root: string, abs: string): string | undefined {
  if (!isInside(root, abs)) return undefined;
  return path.relative(root, abs).split(path.sep).join('/');
}
