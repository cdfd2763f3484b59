import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { domainToASCII } from 'node:url';
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
  /** Longest wait for a server to start answering (connection and response headers, per redirect hop). Default 30 s. */
  connectTimeoutMs?: number;
  /**
   * Length of each window of the body. A window in which less than `minBytesPerSecond` per second arrived (none at
   * all: the server stalled) abandons the download. Default 30 s.
   */
  idleTimeoutMs?: number;
  /** The slowest the body may arrive, averaged over each idle window: a server that trickles slower is abandoned. Default 1024. */
  minBytesPerSecond?: number;
  /** Longest a whole download may take, however steadily it arrives. Default 30 min. */
  totalTimeoutMs?: number;
  /**
   * Hosts (`name` or `name:port`) a redirect may lead to besides the URL's own. A redirect to any other host is
   * refused (its error names the final URL, which can be given instead); so is one from https to http.
   */
  allowRedirectHosts?: readonly string[];
}

const MAX_REDIRECTS = 5;
const DEFAULT_CONNECT_MS = 30_000;
const DEFAULT_IDLE_MS = 30_000;
const DEFAULT_MIN_BYTES_PER_SECOND = 1024;
const DEFAULT_TOTAL_MS = 30 * 60_000;

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
/** The largest pack archive downloaded or read (`maxBytes`), unless the caller says otherwise. */
export const DEFAULT_MAX_ARCHIVE_BYTES = 200 * 1024 * 1024;

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
  // One deadline at a time: until a hop's headers arrive (connect), then between chunks of the body (idle).
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let expired: PackError | undefined;
  const arm = (ms: number, why: () => string) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      expired = new PackError('DOWNLOAD_TIMEOUT', why());
      abort.abort(expired);
    }, ms);
  };
  const connectMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_MS;
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_MS;
  let response: Response;
  try {
    response = await fetchFollowingSameHost(url, doFetch, abort.signal, options.allowRedirectHosts ?? [], (hop) =>
      arm(connectMs, () => `The skill pack ${url} was abandoned: ${hop === url ? 'the server' : `${hop} (after a redirect)`} did not answer within ${connectMs / 1000} s (the connect deadline). Check the URL and the network, then retry.`),
    );
  } catch (err) {
    clearTimeout(timer);
    if (expired) throw expired;
    if (err instanceof PackError) throw err;
    throw new PackError('DOWNLOAD_FAILED', `Could not download the skill pack ${url}: ${(err as Error).message}. Check the URL and the network, then retry.`);
  }
  if (!response.ok || !response.body) {
    clearTimeout(timer);
    await response.body?.cancel().catch(() => undefined);
    throw new PackError('DOWNLOAD_FAILED', `Downloading the skill pack ${url} failed with HTTP ${response.status} ${response.statusText}. Check the URL.`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_ARCHIVE_BYTES;
  await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.archive.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  const hash = createHash('sha256');
  let size = 0;
  // Three deadlines on the body, checked by one timer: no data for idleMs (a stall); less than the minimum rate over
  // a window of idleMs (a trickle of a byte a second would otherwise reset an idle timer forever); the whole body
  // within totalMs.
  const minRate = options.minBytesPerSecond ?? DEFAULT_MIN_BYTES_PER_SECOND;
  const floor = Math.ceil((minRate * idleMs) / 1000);
  const totalMs = options.totalTimeoutMs ?? DEFAULT_TOTAL_MS;
  const started = Date.now();
  let lastChunk = started;
  let windowAt = started;
  let windowSize = 0;
  const check = () => {
    const now = Date.now();
    const abandoned = (why: string) => {
      expired = new PackError('DOWNLOAD_TIMEOUT', `The skill pack ${url} was abandoned: ${why} after ${size} bytes. Check the network, or ask the server's owner; then retry.`);
      abort.abort(expired);
    };
    if (now - started >= totalMs) return abandoned(`it did not finish within ${totalMs / 1000} s (the total deadline)`);
    if (now - lastChunk >= idleMs) return abandoned(`no data came for ${idleMs / 1000} s (the idle deadline)`);
    let next = Math.min(lastChunk + idleMs, windowAt + idleMs, started + totalMs);
    if (now - windowAt >= idleMs) {
      if (size - windowSize >= floor) {
        windowAt = now;
        windowSize = size;
        next = Math.min(lastChunk + idleMs, windowAt + idleMs, started + totalMs);
      } else if (now - lastChunk < idleMs / 2) {
        return abandoned(`only ${size - windowSize} bytes came in ${idleMs / 1000} s (the minimum is ${minRate} bytes a second)`);
      } else {
        // Silent for a while already: it is a stall, said as one at the idle deadline.
        next = Math.min(lastChunk + idleMs, started + totalMs);
      }
    }
    clearTimeout(timer);
    timer = setTimeout(check, Math.max(1, next - now));
  };
  check();
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      lastChunk = Date.now();
      // Enough came in this window: a new one starts now.
      if (size - windowSize >= floor) {
        windowAt = lastChunk;
        windowSize = size;
      }
      if (size > maxBytes) return done(new PackError('LIMIT_EXCEEDED', `The skill pack ${url} is larger than ${maxBytes} bytes; it was not downloaded.`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>), meter, createWriteStream(temp, { flags: 'wx' }));
    clearTimeout(timer);
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
    clearTimeout(timer);
    await fs.rm(temp, { force: true });
    if (expired) throw expired;
    if (err instanceof PackError) throw err;
    throw new PackError('DOWNLOAD_FAILED', `Downloading the skill pack ${url} failed: ${(err as Error).message}.`);
  }
}

/**
 * fetch that follows at most MAX_REDIRECTS redirects, each only to the URL's own host (or one of `allowHosts`) and
 * never from https to http; anything else is refused with a PackError naming the final URL. `hop` is called before
 * each request (the connect deadline is armed per hop).
 */
async function fetchFollowingSameHost(url: string, doFetch: typeof fetch, signal: AbortSignal, allowHosts: readonly string[], hop: (at: string) => void): Promise<Response> {
  const origin = new URL(url);
  let at = url;
  for (let i = 0; ; i++) {
    hop(at);
    const res = await doFetch(at, { redirect: 'manual', signal });
    if (res.status < 300 || res.status > 399 || res.status === 304) return res;
    const location = res.headers.get('location');
    await res.body?.cancel().catch(() => undefined);
    if (!location) return res;
    const next = new URL(location, at);
    const allowed = next.host === origin.host || allowedHost(next, allowHosts);
    if (next.protocol !== 'https:' && next.protocol !== 'http:') throw new PackError('REDIRECT_REFUSED', `The skill pack ${url} redirects to ${next.href}, which is not http(s); it was not followed.`);
    if (new URL(at).protocol === 'https:' && next.protocol === 'http:') throw new PackError('REDIRECT_REFUSED', `The skill pack ${url} redirects from https to plain http (${next.href}); it was not followed. Use an https URL.`);
    if (!allowed) {
      throw new PackError('REDIRECT_REFUSED', `The skill pack ${url} redirects to another host (${next.href}); redirects to other hosts are not followed. If you trust ${next.host}, give that URL instead of ${url}, or allow the host for this pack (redirectHosts: ["${next.host}"]).`);
    }
    if (i + 1 >= MAX_REDIRECTS) throw new PackError('REDIRECT_REFUSED', `The skill pack ${url} redirects more than ${MAX_REDIRECTS} times (last to ${next.href}); give the final URL instead.`);
    at = next.href;
  }
}

/**
 * True when `next` is one of `allowHosts`: a host name in any letter case (an IDN as written or in punycode) or an
 * address, with a port (the scheme's default when the URL gives none) or for every port. Compared as the URL
 * parser writes hosts (lowercase, punycode): "Objects.GitHubUserContent.com" was refused for the host it names.
 */
function allowedHost(next: URL, allowHosts: readonly string[]): boolean {
  const port = next.port || (next.protocol === 'https:' ? '443' : '80');
  return allowHosts.some((entry) => {
    const m = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(entry.length <= 300 ? entry.trim() : '');
    if (!m) return false;
    const host = m[1].startsWith('[') ? m[1].toLowerCase() : domainToASCII(m[1]);
    return host !== '' && host === next.hostname && (m[2] === undefined || String(Number(m[2])) === port);
  });
}

async function readMeta(metaFile: string): Promise<z.infer<typeof metaSchema> | undefined> {
  try {
    const parsed = metaSchema.safeParse(JSON.parse(await fs.readFile(metaFile, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
