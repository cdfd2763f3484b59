import { digestOf, type VersionRef } from '../edit/versionRef';
import { contentWithLineNumbers } from '../edit/lineDiff';
import { nextPartOffset, utf8Boundary } from '../tools/paging';
import { ToolError } from '../tools/toolError';

/** One explicit part of a large file (the paging contract of src/core/tools/paging.ts); concatenating every part's `text` (decoded per `encoding`) gives the file exactly. */
export interface ContentChunk {
  /** 1-based part number. */
  part: number;
  parts: number;
  /** Byte offset of this part in the file. */
  offset: number;
  /** Bytes in this part. */
  length: number;
  /** Offset to ask for next, or null for the last part. */
  nextOffset: number | null;
  /** 1-based line number of the part's first line (text files). */
  startLine: number;
  encoding: 'utf8' | 'base64';
  text: string;
  /** Line-numbered view of this part (text files only), numbered as in the whole file. */
  numbered?: string;
  /** Digest of this part's bytes, to check a reassembly. */
  digest: VersionRef;
}

/** True when the bytes are UTF-8 text without NUL bytes (what inspect returns as text). */
export function isText(buf: Buffer): boolean {
  if (buf.includes(0)) return false;
  return Buffer.from(buf.toString('utf8'), 'utf8').equals(buf);
}

/**
 * Start offsets of the parts of `buf`: each part holds at most `limit` bytes and, for text, ends after a
 * newline when one falls inside it, else on a UTF-8 character boundary, so parts are valid strings.
 * Deterministic: the same content and limit always give the same parts.
 */
export function chunkStarts(buf: Buffer, limit: number, text: boolean): number[] {
  if (limit < 16) throw new ToolError('invalid_input', `The chunk size ${limit} is too small; use at least 16 bytes.`);
  const step = text ? limit : limit - (limit % 3);
  const starts: number[] = [];
  let start = 0;
  while (start < buf.length || starts.length === 0) {
    starts.push(start);
    let end = Math.min(start + step, buf.length);
    if (text && end < buf.length) {
      const nl = buf.lastIndexOf(0x0a, end - 1);
      if (nl >= start) end = nl + 1;
      else end = start + (utf8Boundary(buf.subarray(start, end)) || end - start);
    }
    if (end >= buf.length) break;
    start = end;
  }
  return starts;
}

/**
 * The part of `buf` that starts at `offset` (which must be a part start, e.g. the previous part's
 * `nextOffset`); part 1 when offset is 0.
 */
export function chunkAt(buf: Buffer, offset: number, limit: number, options: { numbered?: boolean } = {}): ContentChunk {
  const text = isText(buf);
  const starts = chunkStarts(buf, limit, text);
  const index = starts.indexOf(offset);
  if (index < 0) {
    const near = starts.filter((s) => s <= offset).pop() ?? 0;
    throw new ToolError('invalid_offset', `Offset ${offset} is not the start of a part (parts start at ${starts.slice(0, 8).join(', ')}${starts.length > 8 ? ', …' : ''}). Ask for offset ${near}, or follow nextOffset from the previous part.`, 'Ask for an offset listed in details.partStarts, or start at 0.', { partStarts: starts });
  }
  const end = index + 1 < starts.length ? starts[index + 1] : buf.length;
  const bytes = buf.subarray(offset, end);
  let startLine = 1;
  if (text) for (let i = buf.indexOf(0x0a); i >= 0 && i < offset; i = buf.indexOf(0x0a, i + 1)) startLine++;
  const body = text ? bytes.toString('utf8') : bytes.toString('base64');
  return {
    part: index + 1,
    parts: starts.length,
    offset,
    length: bytes.length,
    nextOffset: nextPartOffset(offset, bytes.length, buf.length),
    startLine,
    encoding: text ? 'utf8' : 'base64',
    text: body,
    ...(text && options.numbered !== false ? { numbered: contentWithLineNumbers(body, { startLine }) } : {}),
    digest: digestOf(bytes),
  };
}
