import * as path from 'node:path';
import type { DirEntry, PathKind, SkillsHost, SyncSkillsHost } from '../host/skillsHost';
import { compareStrings } from '../text/compareStrings';
import { isInside } from './isInside';

/**
 * The one walk of a skill's files (the validator's secret scan, the language server's file completion, the
 * docs tool, revision manifests, overlays, the script picker), so they agree on what a skill's files are. Each
 * caller names what it leaves out from the sets below instead of keeping a list of its own.
 */

/** Named sets of folder names a walk does not enter. */
export const SKIP = {
  /** Version-control data. */
  vcs: ['.git', '.hg', '.svn'],
  /** Installed dependencies and the caches of language tools. */
  dependencies: ['node_modules', '.venv', 'venv', '__pycache__', '.mypy_cache', '.pytest_cache'],
  /** The folders of a script run's workspace, which a run may leave beside the skill's own files. */
  runFolders: ['out', 'work', 'inputs'],
  /** Earlier revisions the edit tools keep. */
  archive: ['.archived'],
  /** Build output and test installs of a workspace (not of a skill). */
  build: ['dist', 'out', '.vscode-test'],
} as const satisfies Record<string, readonly string[]>;

export interface WalkOptions {
  /** Folder names not entered (at any depth), e.g. `[...SKIP.vcs, ...SKIP.dependencies]`. */
  skipDirs?: readonly string[];
  /** Leaves out every file and folder whose name starts with a dot. */
  skipHidden?: boolean;
  /** Leaves out the files and folders this names (the temp files of an atomic write). */
  skipName?: (name: string) => boolean;
  /** Which files to list, by path relative to the root; default: every file. */
  include?: (rel: string) => boolean;
  /**
   * Follows symbolic links (to files and folders) whose target lies inside the root, links resolved; a link out
   * of the root, or dangling, is left out. Default: every link is left out.
   */
  followLinksInside?: boolean;
  /** Stops after this many files (default 2,000): a vendored tree must not stall a request. */
  maxFiles?: number;
  /** Folders deeper than this are not entered (default 8; the root is depth 0). */
  maxDepth?: number;
}

/** The file access a walk needs. */
export type WalkHost = Pick<SkillsHost, 'readDirectory' | 'kind' | 'realPath'>;

/** The same, answering at once. */
export type SyncWalkHost = Pick<SyncSkillsHost, 'readDirectory' | 'kind' | 'realPath'>;

/** Files under `root`, as `/`-separated paths relative to it, breadth first, each folder's entries in code-unit order. */
export async function walkSkill(host: WalkHost, root: string, options: WalkOptions = {}): Promise<string[]> {
  const walk = steps(root, options);
  for (let step = walk.next(); ; ) {
    if (step.done) return step.value;
    let answer: unknown;
    try {
      answer = await ask(host, step.value);
    } catch {
      answer = undefined;
    }
    step = walk.next(answer);
  }
}

/** {@link walkSkill} over a host that answers at once (the language server's request handlers). */
export function walkSkillSync(host: SyncWalkHost, root: string, options: WalkOptions = {}): string[] {
  const walk = steps(root, options);
  for (let step = walk.next(); ; ) {
    if (step.done) return step.value;
    let answer: unknown;
    try {
      answer = ask(host, step.value);
    } catch {
      answer = undefined;
    }
    step = walk.next(answer);
  }
}

/** One question of the walk to its host; an unreadable folder or path answers `undefined`. */
type Ask = { op: 'list' | 'real' | 'kind'; path: string };

function ask(host: WalkHost, a: Ask): unknown {
  return a.op === 'list' ? host.readDirectory(a.path) : a.op === 'real' ? host.realPath(a.path) : host.kind(a.path);
}

/** The walk, written once: it yields each question and is handed the answer, so a sync and an async driver share it. */
function* steps(root: string, o: WalkOptions): Generator<Ask, string[], unknown> {
  const maxFiles = o.maxFiles ?? 2000;
  const maxDepth = o.maxDepth ?? 8;
  const skipDirs = new Set(o.skipDirs ?? []);
  const out: string[] = [];
  const realRoot = o.followLinksInside ? ((yield { op: 'real', path: root }) as string | undefined) : undefined;
  // Followed links are aliases of something inside the skill: each real folder is walked once (under the first path
  // that reaches it, a plain folder before a link beside it), so a link loop or a second name for a folder lists
  // nothing twice. A file linked under a second name is listed under both names (each is a path that can be read).
  const seen = new Set<string>(realRoot === undefined ? [] : [realRoot]);
  let level: { rel: string; real: string }[] = [{ rel: '', real: realRoot ?? root }];
  for (let depth = 0; depth <= maxDepth && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { rel, real: dirReal } of level) {
      const dir = rel ? path.join(root, rel) : root;
      const entries = (yield { op: 'list', path: dir }) as DirEntry[] | undefined;
      if (!entries) continue;
      const shown = [...entries].filter((e) => !(o.skipHidden && e.name.startsWith('.')) && !o.skipName?.(e.name)).sort((a, b) => compareStrings(a.name, b.name));
      // Plain folders claim their real paths first; a folder whose real path was reached before is left out.
      const stale = new Set<DirEntry>();
      for (const e of shown) if (e.kind === 'directory' && realRoot !== undefined && !claim(seen, path.join(dirReal, e.name))) stale.add(e);
      for (const e of shown) {
        const child = rel ? `${rel}/${e.name}` : e.name;
        let kind: DirEntry['kind'] | undefined = e.kind;
        let real = path.join(dirReal, e.name);
        if (kind === 'symlink') {
          if (realRoot === undefined) continue;
          const target = (yield { op: 'real', path: path.join(dir, e.name) }) as string | undefined;
          if (target === undefined || !isInside(realRoot, target)) continue;
          real = target;
          kind = (yield { op: 'kind', path: target }) as PathKind | undefined;
          if (kind === 'directory' && !claim(seen, target)) continue;
        } else if (stale.has(e)) continue;
        if (kind === 'directory') {
          if (!skipDirs.has(e.name)) next.push({ rel: child, real });
        } else if (kind === 'file' && (!o.include || o.include(child))) {
          out.push(child);
          if (out.length >= maxFiles) return out;
        }
      }
    }
    level = next;
  }
  return out;
}

/** Adds `real` to `seen`; false when it was there already. */
function claim(seen: Set<string>, real: string): boolean {
  if (seen.has(real)) return false;
  seen.add(real);
  return true;
}
