import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { readRegularFile } from '../os/readRegularFile';
import { compareStrings } from '../text/compareStrings';

/** One directory entry. */
export interface SkillDirEntry {
  name: string;
  kind: 'file' | 'directory' | 'other';
}

/**
 * The file-system access the validator needs: existence of referenced files, listing and reading a skill's
 * text files (for the secret scan), finding SKILL.md. Paths are absolute. Tests may pass an in-memory host.
 */
export interface SkillFilesHost {
  /** What is at `p`, or undefined when nothing is (symbolic links are followed). */
  stat(p: string): Promise<'file' | 'directory' | 'other' | undefined>;
  /** The entries of a directory, or undefined when it cannot be read. */
  readDir(p: string): Promise<SkillDirEntry[] | undefined>;
  /** The file as UTF-8 text; undefined when missing, larger than `maxBytes`, or binary (has a NUL byte). */
  readText(p: string, maxBytes?: number): Promise<string | undefined>;
}

const DEFAULT_MAX_BYTES = 1024 * 1024;

/** The host over the real file system (async, so scanning many skills never blocks the event loop for long). */
export const nodeFilesHost: SkillFilesHost = {
  async stat(p) {
    try {
      const s = await fsp.stat(p);
      return s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
    } catch {
      return undefined;
    }
  },
  async readDir(p) {
    try {
      const entries = await fsp.readdir(p, { withFileTypes: true });
      const out: SkillDirEntry[] = [];
      for (const e of entries) {
        let kind: SkillDirEntry['kind'] = e.isFile() ? 'file' : e.isDirectory() ? 'directory' : 'other';
        if (e.isSymbolicLink()) kind = (await nodeFilesHost.stat(path.join(p, e.name))) ?? 'other';
        out.push({ name: e.name, kind: kind === 'file' || kind === 'directory' ? kind : 'other' });
      }
      return out;
    } catch {
      return undefined;
    }
  },
  async readText(p, maxBytes = DEFAULT_MAX_BYTES) {
    try {
      // Kind and size checked on the open file: a FIFO never blocks the scan, a huge file is never read.
      const buf = (await readRegularFile(p, maxBytes)).bytes;
      if (buf.subarray(0, 8000).includes(0)) return undefined;
      return buf.toString('utf8');
    } catch {
      return undefined;
    }
  },
};

const SKIP_DIRS = new Set(['.git', 'node_modules', '__pycache__', '.venv', 'venv', '.mypy_cache', '.pytest_cache']);
const BINARY_EXT = /\.(png|jpe?g|gif|webp|bmp|ico|icns|pdf|zip|gz|tgz|bz2|xz|7z|tar|jar|war|class|woff2?|ttf|otf|eot|mp[34]|mov|avi|wav|ogg|flac|pyc|so|dylib|dll|exe|bin|o|a|wasm|db|sqlite3?|psd|ai|sketch|docx?|xlsx?|pptx?)$/i;

/** Limits for walking a skill folder. */
export interface ListFilesLimits {
  maxFiles?: number;
  maxDepth?: number;
}

/**
 * The skill's files that may hold text, relative to `root` with `/` separators, breadth first.
 * Skips VCS, dependency and cache folders and files whose extension marks them as binary.
 */
export async function listSkillTextFiles(host: SkillFilesHost, root: string, limits: ListFilesLimits = {}): Promise<string[]> {
  const maxFiles = limits.maxFiles ?? 500;
  const maxDepth = limits.maxDepth ?? 6;
  const out: string[] = [];
  let level: string[] = [''];
  for (let depth = 0; depth <= maxDepth && level.length > 0 && out.length < maxFiles; depth++) {
    const next: string[] = [];
    for (const rel of level) {
      const entries = await host.readDir(rel ? path.join(root, rel) : root);
      if (!entries) continue;
      entries.sort((a, b) => compareStrings(a.name, b.name));
      for (const e of entries) {
        const child = rel ? `${rel}/${e.name}` : e.name;
        if (e.kind === 'directory' && !SKIP_DIRS.has(e.name)) next.push(child);
        else if (e.kind === 'file' && !BINARY_EXT.test(e.name) && out.length < maxFiles) out.push(child);
      }
    }
    level = next;
  }
  return out;
}
