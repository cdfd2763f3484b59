import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

/** One entry of a test zip. `mode` is the full unix mode (type bits included), e.g. 0o100644, 0o120777 for a symlink. */
export interface ZipEntrySpec {
  name: string;
  data?: Buffer | string;
  mode?: number;
  /** Size written into the headers instead of the real one (to build lying archives). */
  declaredSize?: number;
}

/** Builds a zip archive in memory (deflate for files, stored for empty entries), hostile names allowed. */
export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const raw = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '', 'utf8');
    const method = raw.length ? 8 : 0;
    const body = method === 8 ? deflateRawSync(raw) : raw;
    const crc = crc32(raw);
    const size = e.declaredSize ?? raw.length;
    const mode = e.mode ?? (e.name.endsWith('/') ? 0o040755 : 0o100644);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // utf-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** One entry of a test tar. type: '0' file, '1' hardlink, '2' symlink, '5' directory. */
export interface TarEntrySpec {
  name: string;
  type?: '0' | '1' | '2' | '5';
  data?: Buffer | string;
  linkname?: string;
  mode?: number;
}

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

/** Builds a ustar archive in memory (optionally gzipped), hostile names allowed (names up to 100 bytes). */
export function buildTar(entries: TarEntrySpec[], gzip = false): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '', 'utf8');
    const type = e.type ?? '0';
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, 'utf8');
    h.write(octal(e.mode ?? (type === '5' ? 0o755 : 0o644), 8), 100, 'latin1');
    h.write(octal(0, 8), 108, 'latin1');
    h.write(octal(0, 8), 116, 'latin1');
    h.write(octal(type === '0' ? data.length : 0, 12), 124, 'latin1');
    h.write(octal(Math.floor(Date.now() / 1000), 12), 136, 'latin1');
    h.write('        ', 148, 'latin1');
    h.write(type, 156, 'latin1');
    if (e.linkname) h.write(e.linkname, 157, 100, 'utf8');
    h.write('ustar\u000000', 257, 'latin1');
    let sum = 0;
    for (const b of h) sum += b;
    h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
    blocks.push(h);
    if (type === '0' && data.length) {
      blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  const tar = Buffer.concat(blocks);
  return gzip ? gzipSync(tar) : tar;
}
