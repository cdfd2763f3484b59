import { localDisk } from '../src/core/host/localDisk';
import { textOfRead, type DirEntry, type SyncSkillsHost } from '../src/core/host/skillsHost';
import { SKIP, walkSkillSync } from '../src/core/paths/walkSkill';

/**
 * The server's file access for its request handlers: the core's host interface, answering at once (every call
 * touches one small file or folder). Injected through `ServerDeps`, so services can be tested on temp folders.
 */
export const nodeFileSystem: SyncSkillsHost = localDisk;

/** A file's UTF-8 text; undefined when it cannot be read, is not a regular file, is binary or over `maxBytes` (16 MiB). Never throws. */
export function readTextSync(fsys: SyncSkillsHost, p: string, maxBytes?: number): string | undefined {
  try {
    // The host's read never blocks on a FIFO (a hover over a link to one would stall the server) nor reads a huge file.
    return textOfRead(fsys.readFile(p, maxBytes === undefined ? undefined : { maxBytes }));
  } catch {
    return undefined;
  }
}

/** A folder's entries (links not followed: kind `symlink`); empty when it cannot be read. Never throws. */
export function listDirSync(fsys: SyncSkillsHost, dir: string): DirEntry[] {
  try {
    return fsys.readDirectory(dir) ?? [];
  } catch {
    return [];
  }
}

/** Files of a skill folder but its SKILL.md, as POSIX paths relative to it, breadth-first, capped so a huge folder cannot stall a request. */
export function listSkillFiles(fsys: SyncSkillsHost, skillDir: string, limit = 2000, maxDepth = 6): string[] {
  return walkSkillSync(fsys, skillDir, { skipDirs: [...SKIP.vcs, ...SKIP.dependencies], include: (rel) => rel !== 'SKILL.md', followLinksInside: true, maxFiles: limit, maxDepth });
}
