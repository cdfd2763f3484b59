import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { localDisk } from '../host/localDisk';
import { asBuffer, type FileStamp, type SkillsHost } from '../host/skillsHost';
import { MAX_CATALOG_FILE_BYTES, UnreadableFileError } from '../os/readRegularFile';
import { MAX_SKILL_FILE_BYTES } from '../skill/parseLimits';
import { parseSkillFile } from '../skill/parseSkillFile';
import type { ParsedSkillFile } from '../skill/skillTypes';
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

function stampOf(st: FileStamp): string {
  return `${st.size}:${st.mtimeMs}:${st.ino ?? ''}`;
}

/** The file's bytes; a FIFO, device or oversized file becomes a tool error saying what it is (never a hang). */
async function readOrRefuse(files: SkillsHost, skill: string, file: string, maxBytes: number, code: 'skill_unusable' | 'path_refused'): Promise<Buffer> {
  let read;
  try {
    read = await files.readFile(file, { maxBytes });
  } catch (e) {
    if (e instanceof UnreadableFileError) throw new ToolError(code, `Skill '${skill}': ${e.message}`, 'Pick another skill or doc; the file must be fixed on disk first.');
    throw e;
  }
  if (!read) throw new ToolError('not_found', `Skill '${skill}': ${file} is gone.`, 'The file was removed since it was listed; reload the skill list.');
  return asBuffer(read.bytes);
}

/**
 * Reads skill bodies and docs through a host (the factory's: the disk, or memory in tests), caching each by path
 * and file stamp (size, mtime, inode), so composing many model calls re-reads nothing unless a file changed.
 * The runtime's other readers (read, docs, body references) take their files from the same host (`files`).
 */
export class SkillContentCache {
  private readonly skills = new Map<string, Stamped<SkillFileContent>>();
  private readonly docs = new Map<string, Stamped<string>>();

  constructor(readonly files: SkillsHost = localDisk) {}

  /** Reads (or reuses) a SKILL.md; `skill` names it in errors. */
  async skillFile(skill: string, location: string): Promise<SkillFileContent> {
    let st: FileStamp | undefined;
    try {
      st = await this.files.stat(location);
    } catch {
      st = undefined;
    }
    if (!st) throw new ToolError('not_found', `SKILL.md of skill '${skill}' is missing at ${location}.`, 'The skill was moved or deleted; pick another skill from <available_skills>.');
    const key = stampOf(st);
    const hit = this.skills.get(location);
    if (hit && hit.key === key) return hit.value;
    const bytes = await readOrRefuse(this.files, skill, location, MAX_SKILL_FILE_BYTES, 'skill_unusable');
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
    const { real, kind, stamp } = await resolveSkillPath(this.files, skill, rootDir, rel);
    if (kind !== 'file' || !stamp) throw new ToolError('not_found', `Doc '${rel}' of skill '${skill}' is not a file.`, `Call list_docs for '${skill}' to see its docs.`);
    const key = stampOf(stamp);
    const cacheKey = path.join(rootDir, rel);
    const hit = this.docs.get(cacheKey);
    if (hit && hit.key === key) return hit.value;
    const value = (await readOrRefuse(this.files, skill, real, MAX_CATALOG_FILE_BYTES, 'path_refused')).toString('utf8').replace(/\s+$/, '');
    this.docs.set(cacheKey, { key, value });
    return value;
  }
}
