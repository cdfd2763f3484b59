import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { fileKind, UnreadableFileError } from './readRegularFile';

/** What {@link copyRegularFile} copied: the digest and size of exactly the bytes written to `dest`. */
export interface RegularFileCopy {
  sha256: string;
  size: number;
}

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Copies a regular file of at most `maxBytes` to `dest` (created, never replaced), hashing the bytes as they are
 * written, from one open descriptor: what the caller then checks (the digest) and uses (the copy) are the same
 * bytes, whatever happens to `file` meanwhile. A path read twice (once to hash, once to use) can be a FIFO that
 * answers each open differently, or a file swapped between the two. The source is opened non-blocking and checked
 * on the descriptor (a FIFO, device or folder is refused at once, as {@link UnreadableFileError}); a file that
 * grows meanwhile is cut at the size checked.
 */
export async function copyRegularFile(file: string, dest: string, maxBytes: number): Promise<RegularFileCopy> {
  const handle = await fs.promises.open(file, OPEN_FLAGS);
  let st: fs.Stats;
  try {
    st = await handle.stat();
    if (!st.isFile()) throw new UnreadableFileError('ENOTREG', file, st.size, maxBytes, fileKind(st));
    if (st.size > maxBytes) throw new UnreadableFileError('EFBIG', file, st.size, maxBytes, 'file');
  } catch (err) {
    await handle.close();
    throw err;
  }
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  if (st.size === 0) {
    await handle.close();
    await fs.promises.writeFile(dest, '', { flag: 'wx', mode: 0o600 });
  } else {
    await pipeline(handle.createReadStream({ start: 0, end: st.size - 1, autoClose: true }), meter, fs.createWriteStream(dest, { flags: 'wx', mode: 0o600 }));
  }
  return { sha256: hash.digest('hex'), size };
}
