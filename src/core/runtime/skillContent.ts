import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_CATALOG_FILE_BYTES, readRegularFile, UnreadableFileError } from '../os/readRegularFile';
import { MAX_SKILL_FILE_BYTES } from '../skill/parseLimits';
import { parseSkillFile } from '../skill/parseSkillFile';
import type { ParsedSkillFile } from '../skill/types';
import { ToolError } from '../tools/toolError';
import { resolveSkillPath } from './skillPaths';

/** A SKILL.md as read from disk. */
export interface SkillFileContent {
  body: string;
  digest: string;
  properties: Record<string, unknown>;
  parsed: ParsedSkillFile;
}

interface Stamped<T> {
  key: string;
  value: T;
}

function stampOf(st: fs.Stats): string {
  return `${st.size}:${st.mtimeMs}:${st.ino}`;
}

/** The file's bytes; a FIFO, device or oversized file becomes a tool error saying what it is (never a hang). */
async function readOrRefuse(skill: string, file: string, maxBytes: number, code: 'skill_unusable' | 'path_refused'): Promise<Buffer> {
  try {
    return (await readRegularFile(file, maxBytes)).bytes;
  } catch (e) {
    if (e instanceof UnreadableFileError) throw new ToolError(code, `Skill '${skill}': ${e.message}`, 'Pick another skill or doc; the file must be fixed on disk first.');
    throw e;
  }
}

/**
 * Reads skill bodies and docs, caching each by path and file stamp (size, mtime, inode), so composing
 * many model calls re-reads nothing unless a file changed on disk.
 */
export class SkillContentCache {
  private readonly skills = new Map<string, Stamped<SkillFileContent>>();
  private readonly docs = new Map<string, Stamped<string>>();

  /** Reads (or reuses) a SKILL.md; `skill` names it in errors. */
  async skillFile(skill: string, location: string): Promise<SkillFileContent> {
    let st: fs.Stats;
    try {
      st = await fs.promises.stat(location);
    } catch {
      throw new ToolError('not_found', `SKILL.md of skill '${skill}' is missing at ${location}.`, 'The skill was moved or deleted; pick another skill from <available_skills>.');
    }
    const key = stampOf(st);
    const hit = this.skills.get(location);
    if (hit && hit.key === key) return hit.value;
    const bytes = await readOrRefuse(skill, location, MAX_SKILL_FILE_BYTES, 'skill_unusable');
    const parsed = parseSkillFile(bytes.toString('utf8'));
    const value: SkillFileContent = {
      body: parsed.body.replace(/^(\r?\n)+/, '').replace(/\s+$/, ''),
      digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      properties: parsed.properties,
      parsed,
    };
    this.skills.set(location, { key, value });
    return value;
  }

  /** Reads (or reuses) one doc under a skill root; refuses paths that leave it. */
  async doc(skill: string, rootDir: string, rel: string): Promise<string> {
    const { real, stat } = await resolveSkillPath(skill, rootDir, rel);
    if (!stat.isFile()) throw new ToolError('not_found', `Doc '${rel}' of skill '${skill}' is not a file.`, `Call list_docs for '${skill}' to see its docs.`);
    const key = stampOf(stat);
    const cacheKey = path.join(rootDir, rel);
    const hit = this.docs.get(cacheKey);
    if (hit && hit.key === key) return hit.value;
    const value = (await readOrRefuse(skill, real, MAX_CATALOG_FILE_BYTES, 'path_refused')).toString('utf8').replace(/\s+$/, '');
    this.docs.set(cacheKey, { key, value });
    return value;
  }
}
