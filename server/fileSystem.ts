import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRegularFileSync } from '../src/core/os/readRegularFile';
import { MAX_SKILL_FILE_BYTES } from '../src/core/skill/parseLimits';

/** What the server needs from the disk; injected through `ServerDeps` so services can be tested on temp folders. */
export interface ServerFileSystem {
  /** The UTF-8 text of a regular file, or undefined when it cannot be read, is not a regular file or is over 16 MiB. */
  readText(p: string): string | undefined;
  /** Size and kind of a path, or undefined when it does not exist. */
  stat(p: string): { size: number; isFile: boolean; isDirectory: boolean } | undefined;
  /** Entry names of a folder with their kind; empty when unreadable. */
  readDir(p: string): { name: string; isFile: boolean; isDirectory: boolean }[];
  /** The path with every symbolic link resolved, or undefined when it does not exist. */
  realPath(p: string): string | undefined;
}

/** The real file system, synchronous: every call touches one small file or folder. */
export const nodeFileSystem: ServerFileSystem = {
  readText(p) {
    try {
      // Never blocks on a FIFO (a hover over a link to one would stall the server) nor reads a huge file.
      return readRegularFileSync(p, MAX_SKILL_FILE_BYTES).bytes.toString('utf8');
    } catch {
      return undefined;
    }
  },
  stat(p) {
    try {
      const s = fs.statSync(p);
      return { size: s.size, isFile: s.isFile(), isDirectory: s.isDirectory() };
    } catch {
      return undefined;
    }
  },
  realPath(p) {
    try {
      return fs.realpathSync(p);
    } catch {
      return undefined;
    }
  },
  readDir(p) {
    try {
      return fs.readdirSync(p, { withFileTypes: true }).map((d) => ({ name: d.name, isFile: d.isFile(), isDirectory: d.isDirectory() }));
    } catch {
      return [];
    }
  },
};

const SKIPPED_DIRS = new Set(['.git', 'node_modules', '__pycache__', '.venv']);

/** Files of a skill folder as POSIX paths relative to it, breadth-first, capped so a huge folder cannot stall a request. */
export function listSkillFiles(fsys: ServerFileSystem, skillDir: string, limit = 2000, maxDepth = 6): string[] {
  const out: string[] = [];
  const queue: { dir: string; rel: string; depth: number }[] = [{ dir: skillDir, rel: '', depth: 0 }];
  while (queue.length > 0 && out.length < limit) {
    const { dir, rel, depth } = queue.shift()!;
    const entries = fsys.readDir(dir).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (out.length >= limit) break;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) {
        if (!SKIPPED_DIRS.has(e.name) && depth < maxDepth) queue.push({ dir: path.join(dir, e.name), rel: r, depth: depth + 1 });
      } else if (e.isFile && !(rel === '' && e.name === 'SKILL.md')) {
        out.push(r);
      }
    }
  }
  return out;
}
