import { createReadStream, promises as fs } from 'node:fs';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { safeEntryPath, type EntryStream, type ExtractSink } from './extractPolicy';
import { PackError } from './packErrors';

const BLOCK = 512;

/**
 * Bytes of the decompressed stream no header accounts for that a pack may hold: the end-of-archive blocks and
 * the record padding of common tar writers (10 KiB), extended (pax) headers for long names, and one chunk of
 * look-ahead (headers are seen after the chunk holding them is counted).
 */
const MAX_UNACCOUNTED_BYTES = 1024 * 1024;

async function isGzip(file: string): Promise<boolean> {
  const h = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await h.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await h.close();
  }
}

/**
 * Extracts a .tar, .tar.gz or .tgz into `sink.dest`, streaming: each entry is checked
 * before anything is written for it, file bytes are counted as they arrive, and the
 * decompressed stream as a whole is capped too (a gzip bomb of padding is stopped).
 */
export async function extractTar(file: string, sink: ExtractSink): Promise<void> {
  const gz = await isGzip(file);
  // headers and padding: at most 1.5 KiB per entry on top of the file bytes
  const streamCap = sink.limits.maxTotalBytes + (sink.limits.maxEntries + 4) * 1536;
  let streamed = 0;
  // Bytes the headers seen so far account for (each header block plus its entry's content, rounded up to
  // whole blocks). What the stream holds beyond that is padding or data after the end of the archive: the
  // tar parser is slow on it (64 MiB of zeros after a valid skill cost 142 s of CPU), and it is no file, so
  // more than a little of it is refused while streaming rather than at the total limit.
  let accounted = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      streamed += chunk.length;
      if (streamed > streamCap) return done(new PackError('LIMIT_EXCEEDED', `${file} decompresses past ${streamCap} bytes (limit maxTotalBytes plus headers); the pack was refused (possible gzip bomb).`));
      if (streamed - accounted > MAX_UNACCOUNTED_BYTES) {
        return done(
          new PackError(
            'LIMIT_EXCEEDED',
            `${file} holds more than ${MAX_UNACCOUNTED_BYTES} bytes that belong to no file (padding, oversized headers or data after the end of the archive); the pack was refused (possible decompression bomb). Rebuild it with tar or zip as usual.`,
          ),
        );
      }
      done(null, chunk);
    },
  });
  let failure: unknown;
  const pending: Promise<void>[] = [];
  const parser = new Parser();
  let waiting: ((err?: Error) => void) | null = null;
  const fail = (err: unknown): void => {
    if (!failure) failure = err;
    // a write parked on the parser's backpressure must not wait for a drain that will never come
    const w = waiting;
    waiting = null;
    w?.(failure as Error);
  };
  parser.on('entry', (entry: ReadEntry) => {
    accounted += BLOCK + Math.ceil(Math.max(0, entry.size ?? 0) / BLOCK) * BLOCK;
    if (failure) return entry.resume();
    try {
      const name = entry.path;
      sink.countEntry(name);
      const rel = safeEntryPath(name);
      switch (entry.type) {
        case 'SymbolicLink':
        case 'Link':
          sink.link(name, entry.type === 'Link' ? 'hardlink' : 'symlink', entry.linkpath);
          return entry.resume();
        case 'Directory':
          if (rel !== null) {
            sink.claim(rel, name, 'directory');
            pending.push(sink.directory(rel).catch(fail));
          }
          return entry.resume();
        case 'File':
        case 'OldFile':
        case 'ContiguousFile':
          if (rel === null) return entry.resume();
          sink.checkDeclaredSize(name, entry.size);
          sink.claim(rel, name, 'file');
          pending.push(sink.file(rel, entry as unknown as EntryStream, entry.mode ?? 0o644).catch(fail));
          return;
        default:
          throw new PackError('SPECIAL_ENTRY', `Archive entry "${name}" is a ${entry.type} entry; packs may only contain files and folders. The pack was refused.`, [name]);
      }
    } catch (err) {
      fail(err);
      entry.resume();
    }
  });
  parser.on('warn', (code: string, message: string | Error) => {
    if (code !== 'TAR_ENTRY_INFO') fail(new PackError('CORRUPT_ARCHIVE', `${file} is not a valid tar archive (${code}: ${message instanceof Error ? message.message : message}).`));
  });
  parser.on('error', (err: Error) => fail(new PackError('CORRUPT_ARCHIVE', `${file} is not a valid tar archive: ${err.message}.`)));
  const sinkStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (failure) return done(failure as Error);
      if (parser.write(chunk)) return done();
      waiting = done;
      parser.once('drain', () => {
        if (waiting === done) {
          waiting = null;
          done();
        }
      });
    },
    final(done) {
      if (failure) return done(failure as Error);
      waiting = done;
      parser.once('end', () => {
        if (waiting === done) {
          waiting = null;
          done();
        }
      });
      parser.end();
    },
  });
  try {
    if (gz) await pipeline(createReadStream(file), createGunzip(), cap, sinkStream);
    else await pipeline(createReadStream(file), cap, sinkStream);
  } catch (err) {
    fail(err instanceof PackError ? err : new PackError('CORRUPT_ARCHIVE', `Could not read ${file} as a tar archive: ${(err as Error).message}.`));
  }
  await Promise.all(pending);
  if (failure) throw failure;
}
