import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import { safeEntryPath, type ExtractSink } from './extractPolicy';
import { PackError } from './packErrors';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, zip) => (err ? reject(err) : resolve(zip)));
  });
}

function readAllEntries(zip: yauzl.ZipFile, max: number): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (e: yauzl.Entry) => {
      entries.push(e);
      // central directory records are tiny; stop early on absurd counts
      if (entries.length > max) resolve(entries);
      else zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

function openStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, s) => (err ? reject(err) : resolve(s))));
}

/**
 * Extracts a zip into `sink.dest`. Every entry is checked first (names, links, count,
 * declared sizes) from the central directory, so a hostile archive is refused before
 * any byte is written; then files are inflated with the actual bytes counted.
 */
export async function extractZip(file: string, sink: ExtractSink): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (err) {
    throw new PackError('CORRUPT_ARCHIVE', `${file} is not a readable zip archive: ${(err as Error).message}.`);
  }
  try {
    const entries = await readAllEntries(zip, sink.limits.maxEntries);
    const plan: { entry: yauzl.Entry; rel: string; kind: 'dir' | 'file'; mode: number }[] = [];
    for (const entry of entries) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      sink.countEntry(name);
      const rel = safeEntryPath(name);
      const unixMode = entry.externalFileAttributes >>> 16;
      if ((unixMode & S_IFMT) === S_IFLNK) {
        sink.link(name, 'symlink', undefined);
        continue;
      }
      if (rel === null) continue;
      const isDir = name.endsWith('/') || (unixMode & S_IFMT) === S_IFDIR;
      if (!isDir) {
        if (entry.isEncrypted()) throw new PackError('UNSUPPORTED_FORMAT', `Zip entry "${name}" is encrypted; packs must not be encrypted.`, [name]);
        sink.checkDeclaredSize(name, entry.uncompressedSize);
      }
      sink.claim(rel, name, isDir ? 'directory' : 'file');
      plan.push({ entry, rel, kind: isDir ? 'dir' : 'file', mode: unixMode });
    }
    for (const p of plan) {
      if (p.kind === 'dir') await sink.directory(p.rel);
      else {
        try {
          await sink.file(p.rel, await openStream(zip, p.entry), p.mode);
        } catch (err) {
          if (err instanceof PackError) throw err;
          throw new PackError('CORRUPT_ARCHIVE', `Zip entry "${p.rel}" of ${file} is damaged or lies about its size (${(err as Error).message}); the pack was refused.`, [p.rel]);
        }
      }
    }
  } catch (err) {
    if (err instanceof PackError) throw err;
    throw new PackError('CORRUPT_ARCHIVE', `Could not extract ${file}: ${(err as Error).message}.`);
  } finally {
    zip.close();
  }
}
