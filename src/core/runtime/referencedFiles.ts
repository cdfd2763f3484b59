import * as path from 'node:path';
import { extractBodyReferences, type BodyReferenceKind } from '../skill/bodyReferences';
import type { ParsedSkillFile } from '../skill/skillTypes';
import { resolveInRootVia } from '../paths/resolveInRoot';
import type { SkillsHost } from '../host/skillsHost';

/** A file the SKILL.md body mentions, resolved under the skill root (seed 002's progressive loading). */
export interface ResolvedReference {
  /** Path relative to the skill root, `/`-separated. */
  path: string;
  /** Where the body first mentions it. */
  via: BodyReferenceKind;
  size_bytes: number;
  kind: 'file' | 'directory';
}

/**
 * The files the body refers to (Markdown links, inline code, code blocks: the validator's
 * `extractBodyReferences`), resolved under the skill root and kept only when they exist there, once each
 * in order of first mention. A reference through a link that leaves the skill is dropped.
 */
export async function resolveBodyReferences(files: SkillsHost, parsed: ParsedSkillFile, rootDir: string, limit = 100): Promise<ResolvedReference[]> {
  const root = await files.realPath(rootDir);
  if (!root) return [];
  const folders = ((await files.readDirectory(root)) ?? []).filter((d) => d.kind === 'directory' && !d.name.startsWith('.')).map((d) => d.name);
  const refs = extractBodyReferences(parsed, { folders }).sort((a, b) => a.start - b.start);
  const seen = new Set<string>();
  const found: ResolvedReference[] = [];
  for (const r of refs) {
    if (found.length >= limit) break;
    // Mentioned but refused by the path rule (it leaves the skill, lexically or through a link) or absent: not offered.
    const resolved = await resolveInRootVia(files, root, r.path, { rootIsReal: true });
    if (!resolved.ok || !resolved.real) continue;
    const { rel, real } = resolved;
    if (seen.has(rel) || rel.toLowerCase() === 'skill.md') continue;
    seen.add(rel);
    const kind = await files.kind(real);
    if (!kind) continue;
    const size = kind === 'file' ? ((await files.stat(real))?.size ?? 0) : 0;
    found.push({ path: rel, via: r.kind, size_bytes: size, kind: kind === 'directory' ? 'directory' : 'file' });
  }
  return found;
}
