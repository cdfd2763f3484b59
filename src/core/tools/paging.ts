// The one paging contract of the tools that return files (read_skill_file and runSkill inspect).
//
// A large file is never cut silently: a result holds `offset` (bytes from the start), `length` (bytes in
// this part), the file's total size, and where the next part starts, or nothing when this part is the last.
// Text parts never split a UTF-8 sequence (a part ends before a trailing partial character); text is sent as
// UTF-8 and anything else as base64. The model passes the next offset back as the same tool's `offset`.
//
// The field's spelling follows the tool's own input convention, because the model echoes it back into that
// tool's input: the runtime tools are snake_case (`next_offset`, `encoding: 'utf-8'`), seed 003's catalog
// tools camelCase (`nextOffset`, `encoding: 'utf8'`). Both are what models have been told and shown since the
// first release, and renaming either would break the tools' descriptions and prompts written against them.

/** Length of `buf` without a trailing incomplete UTF-8 sequence (its whole length when it ends cleanly). */
export function utf8Boundary(buf: Uint8Array): number {
  let i = buf.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && (buf[i] & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return buf.length;
  const lead = buf[i];
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return need > continuation + 1 ? i : buf.length;
}

/** Where the part after `[offset, offset + length)` of a `total`-byte file starts, or null when it was the last. */
export function nextPartOffset(offset: number, length: number, total: number): number | null {
  return offset + length >= total ? null : offset + length;
}
