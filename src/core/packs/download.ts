import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../edit/atomicWrite';
import { PackError } from './packErrors';

/** Options of {@link downloadToCache}. */
export interface DownloadOptions {
  /** Cache root; downloads live in `<cacheDir>/downloads/<sha256 of the URL>/`. */
  cacheDir: string;
  /** Hex sha256 the archive must have; a mismatch fails and keeps nothing. */
  expectedSha256?: string;
  /** Largest archive accepted. Default 200 MiB. */
  maxBytes?: number;
  /** Ignore a cached copy and fetch again. */
  refresh?: boolean;
  /** fetch implementation (injected in hosts without a global fetch). Default: global fetch. */
  fetch?: typeof fetch;
}

/** A downloaded (or cached) archive. */
export interface DownloadResult {
  url: string;
  file: string;
  /** Hex sha256 of the archive bytes. */
  sha256: string;
  size: number;
  /** True when no network request was made. */
  fromCache: boolean;
}

const metaSchema = z.object({ url: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/), size: z.number(), fetchedAt: z.string() });

/** Hex sha256 of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Downloads `url` once into the cache: a second call with the same URL returns the
 * cached file (after checking its digest) without a request. The body is streamed to a
 * temp file, hashed and size-capped, then renamed into place.
 */
export async function downloadToCache(url: string, options: DownloadOptions): Promise<DownloadResult> {
  const dir = path.join(options.cacheDir, 'downloads', createHash('sha256').update(url).digest('hex').slice(0, 32));
  const file = path.join(dir, 'archive');
  const metaFile = path.join(dir, 'meta.json');
  const expected = options.expectedSha256?.toLowerCase();
  if (!options.refresh) {
    const cached = await readMeta(metaFile);
    if (cached && cached.url === url && (!expected || cached.sha256 === expected) && (await sha256File(file).catch(() => '')) === cached.sha256) {
      return { url, file, sha256: cached.sha256, size: cached.size, fromCache: true };
    }
  }
  const doFetch = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await doFetch(url, { redirect: 'follow' });
  } catch (err) {
    throw new PackError('DOWNLOAD_FAILED', `Could not download the skill pack ${url}: ${(err as Error).message}. Check the URL and the network, then retry.`);
  }
  if (!response.ok || !response.body) {
    throw new PackError('DOWNLOAD_FAILED', `Downloading the skill pack ${url} failed with HTTP ${response.status} ${response.statusText}. Check the URL.`);
  }
  const maxBytes = options.maxBytes ?? 200 * 1024 * 1024;
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.archive.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new PackError('LIMIT_EXCEEDED', `The skill pack ${url} is larger than ${maxBytes} bytes; it was not downloaded.`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), meter, createWriteStream(temp, { flags: 'wx' }));
    const sha256 = hash.digest('hex');
    if (expected && sha256 !== expected) {
      throw new PackError('DIGEST_MISMATCH', `The skill pack ${url} has sha256 ${sha256}, not the expected ${expected}; it was discarded. Check the pinned digest or the URL.`);
    }
    const handle = await fs.open(temp, 'r+');
    await handle.sync();
    await handle.close();
    await fs.rename(temp, file);
    await writeFileAtomic(metaFile, JSON.stringify({ url, sha256, size, fetchedAt: new Date().toISOString() }, null, 2) + '\n');
    return { url, file, sha256, size, fromCache: false };
  } catch (err) {
    await fs.rm(temp, { force: true });
    if (err instanceof PackError) throw err;
    throw new PackError('DOWNLOAD_FAILED', `Downloading the skill pack ${url} failed: ${(err as Error).message}.`);
  }
}

async function readMeta(metaFile: string): Promise<z.infer<typeof metaSchema> | undefined> {
  try {
    const parsed = metaSchema.safeParse(JSON.parse(await fs.readFile(metaFile, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
