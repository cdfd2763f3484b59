// Red team of placing a pack into a host that is not the local disk (packMounts.placeInHost): the pack is unpacked
// on the disk once per digest and copied into the host. The unpacked tree in the cache is a folder on the disk that
// anything running as the user can change; whatever is planted there (links to secrets, a link to a folder outside,
// a FIFO, a link to /dev/zero, a file over the extractor's per-file limit) must not reach the host, block the copy, or
// be read whole.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { skillPacks } from '../../../src/core/sourceReaders';
import { createAgentSkills } from '../../../src/core/agentSkills';
import { createMemoryHost, type MemoryHost } from '../../../src/core/host';
import { textOfRead } from '../../../src/core/host/skillsHost';
import { DEFAULT_LIMITS } from '../../../src/core/packs/extractPolicy';
import { buildZip } from '../../support/archiveBuilder';
import { makeTempDir } from '../../support/tempDir';

const SECRET = 'TOP-SECRET-pack-91c';
const skill = (name: string) => `---\nname: ${name}\ndescription: Draws ${name}. Use when ${name} are asked for.\n---\n\n# ${name}\n\nDraw them.\n`;

/** Every path under `dir` in the host: `rel/` for folders, `rel=<text>` for files. */
function hostTree(host: MemoryHost, dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of host.readDirectory(dir) ?? []) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    const abs = path.join(dir, e.name);
    if (e.kind === 'directory') out.push(`${r}/`, ...hostTree(host, abs, r));
    else out.push(`${r}=${textOfRead(host.readFile(abs, { maxBytes: 64 * 1024 * 1024 })) ?? '<binary>'}`);
  }
  return out.sort();
}

async function within<T>(ms: number, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`still running after ${ms} ms (blocked?)`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe('catalog red team: a pack placed into a non-local host copies only the regular files of its tree', function () {
  this.timeout(60_000);
  let tmp: ReturnType<typeof makeTempDir>;
  let fifo: string | undefined;
  beforeEach(() => {
    tmp = makeTempDir('pack-in-host-');
  });
  afterEach(() => {
    if (fifo) {
      try {
        fs.closeSync(fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
      } catch {
        // gone
      }
      fifo = undefined;
    }
    tmp.cleanup();
  });

  /** Mounts the pack once (unpacking it into the cache) and returns what a second mount needs. */
  async function unpacked() {
    const outside = path.join(tmp.dir, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'secret.txt'), `${SECRET}\n`);
    const archive = path.join(tmp.dir, 'demo.zip');
    fs.writeFileSync(archive, buildZip([{ name: 'demo/charts/SKILL.md', data: skill('charts') }, { name: 'demo/charts/data/points.csv', data: 'x,y\n1,2\n' }, { name: 'demo/maps/SKILL.md', data: skill('maps') }]));
    const packCacheDir = path.join(tmp.dir, 'packs');
    const base = path.join(tmp.dir, 'never-on-disk');
    const open = (host: MemoryHost) => {
      host.mkdir(path.join(base, 'ws'));
      return createAgentSkills({ host, stateDir: path.join(base, 'state'), roots: [{ path: path.join(base, 'ws'), scope: 'workspace', source: 'test' }], sources: [skillPacks([{ source: archive }])], packCacheDir }).catalog();
    };
    const first = createMemoryHost();
    const catalog = await open(first);
    const charts = catalog.resolve('charts').skillDir;
    assert.ok(fs.existsSync(path.join(charts, 'SKILL.md')), 'the pack is unpacked on the disk at the path the host holds it');
    return { outside, charts, open, base };
  }

  it('leaves out links (to a secret, to a folder outside, dangling, to /dev/zero) and a FIFO planted in the unpacked tree, without blocking', async () => {
    const { outside, charts, open } = await unpacked();
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(charts, 'leak.txt'));
    fs.symlinkSync(outside, path.join(charts, 'data', 'outdir'));
    fs.symlinkSync(path.join(outside, 'missing'), path.join(charts, 'dangling.txt'));
    fs.symlinkSync('/dev/zero', path.join(charts, 'zero.bin'));
    fifo = path.join(charts, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    const host = createMemoryHost();
    const catalog = await within(10_000, open(host));
    assert.deepEqual(hostTree(host, charts), ['SKILL.md=' + skill('charts'), 'data/', 'data/points.csv=x,y\n1,2\n']);
    assert.doesNotMatch(JSON.stringify(hostTree(host, path.dirname(charts))), new RegExp(SECRET));
    assert.equal(catalog.resolve('charts').status, 'ok');
  });

  it('a file over the per-file limit planted in the unpacked tree is never read whole: refused naming it, or left out', async () => {
    const { charts, open } = await unpacked();
    const big = path.join(charts, 'big.bin');
    fs.closeSync(fs.openSync(big, 'w'));
    fs.truncateSync(big, DEFAULT_LIMITS.maxFileBytes + 1);
    const host = createMemoryHost();
    const rss = process.memoryUsage().rss;
    let error: Error | undefined;
    try {
      await within(10_000, open(host));
    } catch (e) {
      error = e as Error;
    }
    assert.ok(process.memoryUsage().rss - rss < DEFAULT_LIMITS.maxFileBytes, 'the file was read');
    if (error) assert.ok(error.message.includes(big), error.message);
    else assert.equal(host.kind(big), undefined);
  });
});
