import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { fsyncDir, writeFileAtomic } from '../edit/atomicWrite';
import { copyRegularFile } from '../os/copyRegularFile';
import { UnreadableFileError } from '../os/readRegularFile';
import { DEFAULT_MAX_ARCHIVE_BYTES, downloadToCache, type DownloadOptions } from './download';
import { DEFAULT_LIMITS, ExtractSink, type ExtractLimits, type ExtractReport, type LinkPolicy } from './extractPolicy';
import { extractTar } from './extractTar';
import { extractZip } from './extractZip';
import { findPackSkills } from './findSkills';
import { PackError } from './packErrors';

/** Options of {@link installPack}. */
export interface InstallPackOptions extends Omit<DownloadOptions, 'cacheDir'> {
  /** Cache root: downloads in `downloads/`, extracted packs in `packs/<sha256>/`. */
  cacheDir: string;
  limits?: Partial<ExtractLimits>;
  /** Symlink / hardlink entries: 'refuse' the pack (default) or 'skip' them (reported in `skipped`). */
  links?: LinkPolicy;
}

/** A pack ready to be read by the registry. */
export interface InstalledPack {
  /** The path or URL given. */
  source: string;
  /** Hex sha256 of the archive. */
  sha256: string;
  /** The extracted pack (read-only by convention: edits go to an overlay). */
  root: string;
  /** Skill folders found (see {@link findPackSkills}). */
  skills: string[];
  report: ExtractReport;
  /** Whether the download and the extraction were served from the cache. */
  cached: { download: boolean; extraction: boolean };
}

type ArchiveKind = 'zip' | 'tar';

async function sniff(file: string): Promise<ArchiveKind> {
  const h = await fs.open(file, 'r');
  try {
    const { buffer, bytesRead } = await h.read(Buffer.alloc(262), 0, 262, 0);
    if (bytesRead >= 4 && buffer[0] === 0x50 && buffer[1] === 0x4b && (buffer[2] === 3 || buffer[2] === 5)) return 'zip';
    if (bytesRead >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return 'tar';
    if (bytesRead >= 262 && buffer.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  } finally {
    await h.close();
  }
  throw new PackError('UNSUPPORTED_FORMAT', `${file} is neither a zip nor a (gzipped) tar archive; skill packs must be .zip, .tar, .tar.gz or .tgz.`);
}

const reportSchema = z.object({
  files: z.number(),
  directories: z.number(),
  bytes: z.number(),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
});

/**
 * Makes a skill pack available from an archive path or URL: downloads it once into the
 * cache (URLs), then extracts it safely, once per archive digest, into a temp folder
 * renamed into place. Hostile archives (entries escaping the target, absolute paths,
 * links, too many or too large entries) are refused and leave nothing behind.
 */
export async function installPack(source: string, options: InstallPackOptions): Promise<InstalledPack> {
  if (/^https?:\/\//i.test(source)) {
    const d = await downloadToCache(source, options);
    return unpack(source, d.file, d.sha256, d.fromCache, options);
  }
  // A local archive is copied once into the cache, hashed as it is copied, and only that copy is checked and
  // unpacked: a path read twice (a FIFO answering each open differently, a file swapped after it was hashed) would
  // let other bytes than the digest's be unpacked, and cached under that digest.
  const local = await copyLocalArchive(source, options);
  try {
    return await unpack(source, local.file, local.sha256, false, options);
  } finally {
    await fs.rm(local.file, { force: true });
  }
}

/** A local archive's private copy in the cache, and the digest of exactly its bytes. */
async function copyLocalArchive(source: string, options: InstallPackOptions): Promise<{ file: string; sha256: string }> {
  const archive = source.startsWith('file:') ? fileURLToPath(source) : path.resolve(source);
  const dir = path.join(options.cacheDir, 'downloads');
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `.local.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_ARCHIVE_BYTES;
  let sha256: string;
  try {
    sha256 = (await copyRegularFile(archive, file, maxBytes)).sha256;
  } catch (err) {
    await fs.rm(file, { force: true });
    if (err instanceof UnreadableFileError) {
      throw new PackError(err.code === 'EFBIG' ? 'LIMIT_EXCEEDED' : 'UNSUPPORTED_FORMAT', `The skill pack ${archive} is not read: ${err.message} A pack is a .zip, .tar, .tar.gz or .tgz file of at most ${maxBytes} bytes.`);
    }
    throw new PackError('UNSUPPORTED_FORMAT', `Cannot read the skill pack ${archive}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. Give an existing .zip/.tar.gz path or an http(s) URL.`);
  }
  if (options.expectedSha256 && options.expectedSha256.toLowerCase() !== sha256) {
    await fs.rm(file, { force: true });
    throw new PackError('DIGEST_MISMATCH', `The skill pack ${archive} has sha256 ${sha256}, not the expected ${options.expectedSha256}.`);
  }
  return { file, sha256 };
}

/** Unpacks `archive` (a file only this process reads: a download or a private copy) once per digest. */
async function unpack(source: string, archive: string, sha256: string, downloadCached: boolean, options: InstallPackOptions): Promise<InstalledPack> {
  const packsDir = path.join(options.cacheDir, 'packs');
  const root = path.join(packsDir, sha256);
  const reportFile = path.join(packsDir, `${sha256}.json`);
  const existing = await readReport(reportFile);
  if (existing && (await fs.stat(root).catch(() => undefined))?.isDirectory()) {
    return { source, sha256, root, skills: await findPackSkills(root), report: existing, cached: { download: downloadCached, extraction: true } };
  }
  const kind = await sniff(archive);
  await fs.mkdir(packsDir, { recursive: true });
  const temp = path.join(packsDir, `.${sha256}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(temp);
  const sink = new ExtractSink(temp, { ...DEFAULT_LIMITS, ...options.limits }, options.links ?? 'refuse');
  try {
    if (kind === 'zip') await extractZip(archive, sink);
    else await extractTar(archive, sink);
    await fsyncDir(temp);
    await writeFileAtomic(reportFile, JSON.stringify(sink.report, null, 2) + '\n');
    await fs.rm(root, { recursive: true, force: true });
    await fs.rename(temp, root);
    await fsyncDir(packsDir);
  } catch (err) {
    await fs.rm(temp, { recursive: true, force: true });
    throw err;
  }
  return { source, sha256, root, skills: await findPackSkills(root), report: sink.report, cached: { download: downloadCached, extraction: false } };
}

async function readReport(file: string): Promise<ExtractReport | undefined> {
  try {
    const parsed = reportSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
