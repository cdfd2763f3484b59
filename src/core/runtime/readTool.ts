import mime from 'mime-types';
import { parseArtifactRef } from '../exec/artifactStore';
import { asBuffer } from '../host/skillsHost';
import { UnreadableFileError } from '../os/readRegularFile';
import { effectiveRoot } from './effectiveFiles';
import { nextPartOffset, utf8Boundary } from '../tools/paging';
import { ToolError } from '../tools/toolError';
import { resolveSkillPath } from './skillPaths';
import { pickLoaded, sessionOf, type ToolCall, type ToolContext } from './toolContext';
import { succeeded, type ToolSuccess } from '../tools/toolResult';
import type { ReadInput } from './runtimeToolInputs';

/** A file (or a slice of it), a folder listing, or an artifact. Never silently truncated; paging as in src/core/tools/paging.ts. */
export interface ReadResult {
  /** The skill read from; absent for artifacts. */
  skill?: string;
  path: string;
  kind: 'text' | 'binary' | 'directory';
  mime_type?: string;
  /** `utf-8` text or `base64` bytes. */
  encoding?: 'utf-8' | 'base64';
  content?: string;
  /** Folder entries (sub-folders end with `/`). */
  entries?: string[];
  offset?: number;
  /** Bytes returned. */
  length?: number;
  total_bytes?: number;
  /** True when content holds the rest of the file from `offset`. */
  complete?: boolean;
  /** Where the next read should start, when `complete` is false. */
  next_offset?: number;
  artifact_version?: number;
}

/** `read`: a file under a loaded skill's root, or an `artifact://` ref. */
export async function readSkillFile(ctx: ToolContext, call: ToolCall, input: ReadInput): Promise<ToolSuccess<ReadResult>> {
  const ref = parseArtifactRef(input.path);
  if (ref) return readArtifact(ctx, input, ref.name, ref.version, ctx.artifactScope(call));
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input.path)) {
    throw new ToolError('path_refused', `read does not accept '${input.path.split('://')[0]}://' refs.`, "Pass a path relative to the skill root, or an 'artifact://name[@version]' ref from a run result.");
  }
  const active = pickLoaded(sessionOf(ctx, call), input.skill, 'read');
  // An edited plugin or pack skill: its newest revision of this file lives in the source's overlay.
  const files = ctx.content.files;
  const root = await effectiveRoot(files, ctx.source, active, input.path);
  const { real, kind, relative } = await resolveSkillPath(files, active.name, root, input.path);
  const skills = [{ name: active.name, digest: active.digest }];
  if (kind === 'directory') {
    const entries = ((await files.readDirectory(real)) ?? [])
      .filter((d) => !d.name.startsWith('.'))
      .map((d) => (d.kind === 'directory' ? `${d.name}/` : d.name))
      .sort();
    return succeeded('read', { skill: active.name, path: relative, kind: 'directory', entries }, skills);
  }
  // The host checks what it opens: a FIFO or device (or one swapped in since the path was resolved) is refused at
  // once instead of blocking the read for ever. The first bytes decide text or binary; then the page asked for.
  const page = async (offset: number, length: number) => {
    try {
      const r = await files.readFile(real, { range: { offset, length } });
      if (!r) throw new ToolError('not_found', `Skill '${active.name}' has no file '${relative}' any more.`, 'The file was removed since it was listed; check the load receipt again.');
      return { bytes: asBuffer(r.bytes), size: r.size };
    } catch (e) {
      if (e instanceof UnreadableFileError) throw new ToolError('path_refused', `Path '${relative}' of skill '${active.name}' is refused: it is a ${e.kind}, not a regular file.`, 'Read a regular file of the skill; the load receipt lists them.');
      throw e;
    }
  };
  const sniff = await page(0, 8192);
  const size = sniff.size;
  const offset = input.offset ?? 0;
  if (offset > size) {
    throw new ToolError('invalid_offset', `offset ${offset} is past the end of '${relative}' (${size} bytes).`, `Use an offset between 0 and ${size}.`);
  }
  const want = Math.min(input.length ?? ctx.limits.maxReadBytes, ctx.limits.maxReadBytes, size - offset);
  // The sniff holds the page already when it starts at 0 and fits in it: one read for a small file.
  const bytes = offset === 0 && want <= sniff.bytes.length ? sniff.bytes.subarray(0, want) : want > 0 ? (await page(offset, want)).bytes : Buffer.alloc(0);
  return succeeded('read', sliceResult(relative, bytes, offset, size, looksText(sniff.bytes, size), mime.lookup(relative) || undefined, active.name), skills);
}

function sliceResult(p: string, bytes: Buffer, offset: number, size: number, text: boolean, type: string | undefined, skill?: string): ReadResult {
  // Never split a UTF-8 sequence: a text slice stops before a trailing partial character.
  const chunk = text && offset + bytes.length < size ? bytes.subarray(0, utf8Boundary(bytes) || bytes.length) : bytes;
  const next = nextPartOffset(offset, chunk.length, size);
  const complete = next === null;
  return {
    ...(skill ? { skill } : {}),
    path: p,
    kind: text ? 'text' : 'binary',
    mime_type: type ?? (text ? 'text/plain' : 'application/octet-stream'),
    encoding: text ? 'utf-8' : 'base64',
    content: text ? chunk.toString('utf8') : chunk.toString('base64'),
    offset,
    length: chunk.length,
    total_bytes: size,
    complete,
    ...(next === null ? {} : { next_offset: next }),
  };
}

/** Text when the first bytes hold no NUL and decode as UTF-8 (a cut final character is allowed). */
function looksText(sample: Buffer, size: number): boolean {
  if (sample.includes(0)) return false;
  const s = size > sample.length ? sample.subarray(0, utf8Boundary(sample)) : sample;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(s);
    return true;
  } catch {
    return false;
  }
}

async function readArtifact(ctx: ToolContext, input: ReadInput, name: string, version: number | undefined, scope: string | undefined): Promise<ToolSuccess<ReadResult>> {
  if (!ctx.artifacts) {
    throw new ToolError('no_artifacts', 'This runtime has no artifact store, so artifact:// refs cannot be read.', "Re-run the script with outputs.inline true, or read the output's run:// content from the run result.");
  }
  const art = await ctx.artifacts.read(name, version, scope);
  if (!art) {
    throw new ToolError(
      'not_found',
      `No artifact '${name}'${version === undefined ? '' : ` version ${version}`}.`,
      'Use an artifact ref exactly as a run result listed it in artifact_files.',
    );
  }
  const bytes = Buffer.from(art.bytes);
  const offset = input.offset ?? 0;
  if (offset > bytes.length) {
    throw new ToolError('invalid_offset', `offset ${offset} is past the end of artifact '${name}' (${bytes.length} bytes).`, `Use an offset between 0 and ${bytes.length}.`);
  }
  const want = Math.min(input.length ?? ctx.limits.maxReadBytes, ctx.limits.maxReadBytes, bytes.length - offset);
  const text = looksText(bytes.subarray(0, 8192), bytes.length);
  const result = sliceResult(input.path, bytes.subarray(offset, offset + want), offset, bytes.length, text, art.mime_type || mime.lookup(name) || undefined);
  return succeeded('read', { ...result, artifact_version: art.version }, []);
}
