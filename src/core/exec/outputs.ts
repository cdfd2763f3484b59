import * as fs from 'node:fs';
import * as path from 'node:path';
import { lookup } from 'mime-types';
import { ArtifactStore, formatArtifactRef } from './artifactStore';
import { ScriptRunError } from './scriptRunError';
import { compileGlob, GlobError, literalPrefix } from '../paths/globMatch';
import { resolveInRoot } from '../paths/resolveInRoot';
import { checkRelativePath, isInside } from './paths';
import type { ArtifactFile, OutputFile, OutputsSpec } from './execTypes';
import type { RunWorkspace } from './workspace';

/** Caps applied to collected outputs; a call's `outputs` may lower the file caps. */
export interface OutputCaps {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Inline text per file, in bytes. */
  inlineFileBytes: number;
  /** Inline text over all files, in bytes. */
  inlineTotalBytes: number;
}

const VAR_PREFIX = /^\$\{?(OUTPUT_DIR|WORK_DIR|RUN_DIR|WORKSPACE_DIR|SKILLS_DIR)\}?(?=\/|$)\/?/;
const VAR_DIRS: Record<string, string> = { OUTPUT_DIR: 'out/', WORK_DIR: 'work/', RUN_DIR: 'run/', WORKSPACE_DIR: '', SKILLS_DIR: 'skills/' };

/** `$OUTPUT_DIR/**` -> `out/**` (also `${...}` forms); refuses absolute and climbing patterns, and globs it cannot match. */
export function normalizeGlob(pattern: string): string {
  const replaced = pattern.replace(VAR_PREFIX, (_m, name: string) => VAR_DIRS[name]);
  const clean = checkRelativePath(replaced || '**', 'outputs.globs', 'path_outside_workspace', 'the workspace') || '**';
  matcherOf(clean, pattern);
  return clean;
}

function matcherOf(glob: string, given: string): (rel: string) => boolean {
  try {
    return compileGlob(glob);
  } catch (e) {
    if (e instanceof GlobError) throw new ScriptRunError('invalid_request', `outputs.globs "${given}" cannot be used: ${e.message}.`);
    throw e;
  }
}

/** The most entries of the run folder looked at for outputs (the run cap allows about 131,072). */
const MAX_WALKED = 262_144;

/**
 * Files (and links, not followed) of the run folder matching `patterns`, relative, its staged `skills/` left out.
 * Walked from each pattern's fixed leading folders; matched without regular expressions (paths/globMatch.ts), so a
 * pattern and a file name chosen to backtrack cost no more than their lengths' product.
 */
async function findOutputs(root: string, patterns: readonly string[], warnings: string[]): Promise<string[]> {
  const matchers = patterns.map((p) => matcherOf(p, p));
  const starts = [...new Set(patterns.map(literalPrefix))].sort();
  // A start below another start is walked with it.
  const roots = starts.filter((s) => !starts.some((o) => o !== s && isInside(path.join(root, o), path.join(root, s))));
  const found = new Set<string>();
  let walked = 0;
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.promises.readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++walked > MAX_WALKED) return;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (!rel && e.name === 'skills') continue;
      if (e.isDirectory()) await walk(child);
      else if (matchers.some((m) => m(child))) found.add(child);
    }
  };
  // A start is walked only when each folder on its way is a real folder (a link the script made is not followed).
  const realFolder = async (rel: string) => {
    let at = root;
    for (const name of rel ? rel.split('/') : []) {
      at = path.join(at, name);
      if (!(await fs.promises.lstat(at).catch(() => undefined))?.isDirectory()) return false;
    }
    return true;
  };
  for (const r of roots) if (r.split('/')[0] !== 'skills' && (await realFolder(r))) await walk(r);
  if (walked > MAX_WALKED) warnings.push(`outputs: the run folder holds more than ${MAX_WALKED} entries; only the first ${MAX_WALKED} were looked at.`);
  return [...found];
}

const TEXT_MIME = /^(text\/|application\/(json|xml|javascript|x-sh|x-python|yaml|x-yaml|toml|sql|x-httpd-php|ld\+json|csv))|\+(json|xml)$/;

function isText(mime: string, head: Buffer): boolean {
  if (head.includes(0)) return false;
  return TEXT_MIME.test(mime) || mime === 'application/octet-stream';
}

/** Reads at most `limit` bytes of a file. */
function readHead(file: string, limit: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(limit);
    const n = fs.readSync(fd, buf, 0, limit, 0);
    return buf.subarray(0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** Cuts UTF-8 at a character boundary at or below `limit` bytes. */
function utf8Prefix(buf: Buffer, limit: number): string {
  let end = Math.min(limit, buf.length);
  while (end > 0 && end < buf.length && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

/** Collected files plus what was saved. */
export interface CollectedOutputs {
  files: OutputFile[];
  primary?: OutputFile;
  artifacts: ArtifactFile[];
  warnings: string[];
}

/**
 * Finds files matching the globs inside the workspace (symlinks are not followed or collected),
 * sorted by path; reads each up to the caps, inlines text, and saves artifacts when asked.
 */
export async function collectOutputs(
  spec: OutputsSpec,
  ws: RunWorkspace,
  caps: OutputCaps,
  omitInline: boolean,
  store: ArtifactStore,
): Promise<CollectedOutputs> {
  const warnings: string[] = [];
  const maxFiles = Math.min(spec.max_files ?? caps.maxFiles, caps.maxFiles);
  const maxFileBytes = Math.min(spec.max_file_bytes ?? caps.maxFileBytes, caps.maxFileBytes);
  const maxTotalBytes = Math.min(spec.max_total_bytes ?? caps.maxTotalBytes, caps.maxTotalBytes);
  const patterns = spec.globs.map(normalizeGlob);
  const found = (await findOutputs(ws.root, patterns, warnings)).filter((rel) => !rel.startsWith('skills/')).sort();
  if (found.length > maxFiles) warnings.push(`outputs: ${found.length} files matched; only the first ${maxFiles} (max_files) were collected.`);
  const files: OutputFile[] = [];
  const artifacts: ArtifactFile[] = [];
  let totalRead = 0;
  let inlineLeft = caps.inlineTotalBytes;
  for (const rel of found.slice(0, maxFiles)) {
    const abs = path.join(ws.root, rel);
    const st = fs.lstatSync(abs);
    // Not a link itself (lstat), and the path rule for the folders above it: none may lead out of the run folder.
    if (!st.isFile() || !resolveInRoot(ws.root, rel).ok) continue;
    const mime = lookup(rel) || 'application/octet-stream';
    const readLimit = Math.max(0, Math.min(st.size, maxFileBytes, maxTotalBytes - totalRead));
    const head = readHead(abs, Math.min(readLimit, Math.max(caps.inlineFileBytes, 1024)));
    totalRead += readLimit;
    const text = isText(mime, head.subarray(0, 1024));
    const file: OutputFile = { name: rel, ref: `run://${ws.runId}/${rel}`, mime_type: text && mime === 'application/octet-stream' ? 'text/plain' : mime, size_bytes: st.size, truncated: false };
    if (text && spec.inline !== false && !omitInline) {
      const limit = Math.min(caps.inlineFileBytes, inlineLeft, readLimit);
      file.content = utf8Prefix(head, limit);
      const used = Buffer.byteLength(file.content);
      inlineLeft -= used;
      file.truncated = used < st.size;
    } else {
      file.truncated = readLimit < st.size;
    }
    if (spec.save) {
      if (st.size > maxFileBytes) {
        warnings.push(`outputs: ${rel} (${st.size} bytes) is larger than max_file_bytes (${maxFileBytes}) and was not saved.`);
      } else {
        const name = `${spec.name_template ?? ''}${rel.replace(/^out\//, '')}`;
        const info = store.save(name, abs, file.mime_type);
        const ref = formatArtifactRef(info.name, info.version);
        artifacts.push({ name: info.name, version: info.version, ref });
        file.ref = ref;
      }
    }
    files.push(file);
  }
  if (totalRead >= maxTotalBytes && found.length > 0) warnings.push(`outputs: max_total_bytes (${maxTotalBytes}) reached; later files were not read.`);
  const textual = files.filter((f) => f.content !== undefined || /^text\//.test(f.mime_type));
  const primary = textual.find((f) => f.name.startsWith('out/') && !f.truncated) ?? textual.find((f) => !f.truncated) ?? textual[0];
  return { files, primary, artifacts, warnings };
}

/** Rejects a manifest that cannot be collected, naming the field. */
export function checkOutputsSpec(spec: OutputsSpec): void {
  if (!Array.isArray(spec.globs) || spec.globs.length === 0) {
    throw new ScriptRunError('invalid_request', 'outputs.globs is empty; give at least one workspace-relative glob such as "out/**".');
  }
  for (const g of spec.globs) normalizeGlob(g);
}
