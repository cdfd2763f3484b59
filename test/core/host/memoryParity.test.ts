// The in-memory host against the disk, differentially: each case runs the same calls on the Node host (in a temp
// folder) and on the in-memory host, and compares what each answered (done, or the error code) and the tree left
// behind. These are the corners the core meets: a folder renamed into itself or over a non-empty folder (archive,
// restore, createDirAtomic), a parent removed, a write whose parent is a file (an edit of `SKILL.md/x`), an append to
// a folder (the audit log), the lock, and the mtimes a sweep or a fingerprint reads.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { invokeUpdateSkill, SkillCatalog } from '../../../src/core/catalog';
import { createMemoryHost, createNodeHost, type SyncWritableHost } from '../../../src/core/host';
import { textOfRead } from '../../../src/core/host/skillsHost';
import { makeTempDir } from '../../support/tempDir';

type Op = (host: SyncWritableHost, at: (rel: string) => string) => unknown;

/** Every entry under `dir`: `rel/` for folders, `rel=content` for files. */
function treeOf(host: SyncWritableHost, dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of (host.readDirectory(dir) ?? []).slice().sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    const abs = path.join(dir, e.name);
    if (e.kind === 'directory') out.push(`${r}/`, ...treeOf(host, abs, r));
    else out.push(`${r}=${textOfRead(host.readFile(abs)) ?? '?'}`);
  }
  return out;
}

async function outcome(host: SyncWritableHost, at: (rel: string) => string, op: Op): Promise<string> {
  try {
    await op(host, at);
    return 'done';
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? String(e);
  }
}

/** Runs `setup` then `act` on both hosts; returns each one's answer and tree. */
async function both(setup: Op, act: Op): Promise<Record<'node' | 'memory', { answer: string; tree: string[] }>> {
  const tmp = makeTempDir('memory-parity-');
  try {
    const result = {} as Record<'node' | 'memory', { answer: string; tree: string[] }>;
    for (const [which, host, base] of [['node', createNodeHost(), tmp.dir], ['memory', createMemoryHost(), path.resolve('/mem/parity')]] as const) {
      const at = (rel: string) => path.join(base, ...rel.split('/'));
      await host.mkdir(base);
      await setup(host, at);
      result[which] = { answer: await outcome(host, at, act), tree: treeOf(host, base) };
    }
    return result;
  } finally {
    tmp.cleanup();
  }
}

/**
 * Both hosts leave the same tree and answer alike: the same answer, or (`expected` a pattern, for the corners where
 * Node's own answer depends on the call: `mkdir -p` says EEXIST or ENOTDIR for a file in the way) answers it matches.
 */
async function assertSame(name: string, setup: Op, act: Op, expected?: string | RegExp): Promise<void> {
  const r = await both(setup, act);
  assert.deepEqual(r.memory.tree, r.node.tree, `${name}: the in-memory host left another tree than the disk`);
  if (expected instanceof RegExp) {
    assert.match(r.node.answer, expected, `${name} (disk)`);
    assert.match(r.memory.answer, expected, `${name} (memory)`);
    return;
  }
  assert.equal(r.memory.answer, r.node.answer, `${name}: the in-memory host answered otherwise than the disk`);
  if (expected !== undefined) assert.equal(r.node.answer, expected, name);
}

const tree = (h: SyncWritableHost, at: (rel: string) => string) => Promise.all([h.writeFile(at('a/x/f.txt'), 'f'), h.writeFile(at('b/g.txt'), 'g'), h.writeFile(at('file.txt'), 'top'), h.mkdir(at('empty'))]);

describe('in-memory host parity with the disk', () => {
  describe('rename', () => {
    it('of a folder into its own subfolder is refused (EINVAL), new or existing', async () => {
      await assertSame('into a new subfolder', tree, (h, at) => h.rename(at('a'), at('a/inner')), 'EINVAL');
      await assertSame('into an existing empty subfolder', (h, at) => tree(h, at).then(() => h.mkdir(at('a/sub'))), (h, at) => h.rename(at('a'), at('a/sub')), 'EINVAL');
      // The disk says EINVAL, the in-memory host ENOTEMPTY: both refuse and leave the tree as it was.
      await assertSame('into an existing non-empty subfolder', tree, (h, at) => h.rename(at('a'), at('a/x')), /^(EINVAL|ENOTEMPTY)$/);
    });

    it('of a folder over a non-empty folder is refused, over an empty one replaces it, over a file is ENOTDIR', async () => {
      await assertSame('over a non-empty folder', tree, (h, at) => h.rename(at('a'), at('b')), /^(ENOTEMPTY|EEXIST)$/);
      await assertSame('over an empty folder', tree, (h, at) => h.rename(at('a'), at('empty')), 'done');
      await assertSame('over a file', tree, (h, at) => h.rename(at('a'), at('file.txt')), 'ENOTDIR');
      await assertSame('onto its parent', tree, (h, at) => h.rename(at('a/x'), at('a')));
      await assertSame('onto itself', tree, (h, at) => h.rename(at('a'), at('a')), 'done');
    });

    it('of a file over a folder is EISDIR, into a missing folder ENOENT, onto itself nothing', async () => {
      await assertSame('over a folder', tree, (h, at) => h.rename(at('file.txt'), at('empty')), 'EISDIR');
      await assertSame('into a missing folder', tree, (h, at) => h.rename(at('file.txt'), at('nowhere/f.txt')), 'ENOENT');
      await assertSame('onto itself', tree, (h, at) => h.rename(at('file.txt'), at('file.txt')), 'done');
      await assertSame('a missing source', tree, (h, at) => h.rename(at('missing'), at('other')), 'ENOENT');
    });

    it('to a path under a file is refused, and leaves the file alone', async () => {
      await assertSame('file under a file', tree, (h, at) => h.rename(at('b/g.txt'), at('file.txt/g.txt')), /^(ENOTDIR|ENOENT)$/);
      await assertSame('folder under a file', tree, (h, at) => h.rename(at('b'), at('file.txt/b')), /^(ENOTDIR|ENOENT)$/);
    });
  });

  describe('remove', () => {
    it('of a parent takes everything under it, and nothing beside it that shares its name as a prefix', async () => {
      const setup: Op = (h, at) => Promise.all([tree(h, at), h.writeFile(at('a-sibling/k.txt'), 'k'), h.writeFile(at('ab.txt'), 'ab')]);
      await assertSame('remove a parent', setup, (h, at) => h.remove(at('a')), 'done');
      await assertSame('remove nothing', setup, (h, at) => h.remove(at('missing/deeper')), 'done');
      await assertSame('remove a file', setup, (h, at) => h.remove(at('a/x/f.txt')), 'done');
    });
  });

  describe('writes where a folder or a file is in the way', () => {
    it('appendFile and writeFile to a folder are EISDIR', async () => {
      await assertSame('append to a folder', tree, (h, at) => h.appendFile(at('a'), 'line\n'), 'EISDIR');
      await assertSame('write over a folder', tree, (h, at) => h.writeFile(at('a'), 'x'), 'EISDIR');
      await assertSame('write over an empty folder', tree, (h, at) => h.writeFile(at('empty'), 'x'), 'EISDIR');
    });

    it('writeFile, appendFile and mkdir under a file are refused and keep the file (ENOTDIR)', async () => {
      await assertSame('write under a file', tree, (h, at) => h.writeFile(at('file.txt/x.md'), 'x'), /^(ENOTDIR|EEXIST)$/);
      await assertSame('write two levels under a file', tree, (h, at) => h.writeFile(at('file.txt/d/x.md'), 'x'), /^(ENOTDIR|EEXIST)$/);
      await assertSame('append under a file', tree, (h, at) => h.appendFile(at('file.txt/log'), 'x'), /^(ENOTDIR|EEXIST)$/);
      await assertSame('mkdir under a file', tree, (h, at) => h.mkdir(at('file.txt/d')), /^(ENOTDIR|EEXIST)$/);
      await assertSame('mkdir over a file', tree, (h, at) => h.mkdir(at('file.txt')), 'EEXIST');
    });

    it('truncate of a missing file is ENOENT', async () => {
      await assertSame('truncate missing', tree, (h, at) => h.truncate(at('missing.txt'), 0), 'ENOENT');
      await assertSame('truncate a file', tree, (h, at) => h.truncate(at('file.txt'), 1), 'done');
    });
  });

  describe('withLock', () => {
    for (const which of ['node', 'memory'] as const) {
      it(`${which}: serialises holders, frees the lock when a holder throws (sync or async), and a later holder runs`, async () => {
        const tmp = makeTempDir('memory-parity-lock-');
        try {
          const host = which === 'node' ? createNodeHost() : createMemoryHost();
          const lock = path.join(which === 'node' ? tmp.dir : path.resolve('/mem/lock'), 'x.lock');
          await host.mkdir(path.dirname(lock));
          const order: string[] = [];
          const holder = (name: string, ms: number) =>
            host.withLock(lock, async () => {
              order.push(`${name}+`);
              await new Promise((r) => setTimeout(r, ms));
              order.push(`${name}-`);
              return name;
            });
          const syncThrow = host.withLock(lock, (() => {
            throw new Error('sync throw');
          }) as unknown as () => Promise<never>);
          const results = await Promise.allSettled([holder('a', 20), syncThrow, holder('b', 5), host.withLock(lock, async () => Promise.reject(new Error('async throw'))), holder('c', 1)]);
          assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
          // No two holders overlap: every start is followed by its own end.
          for (let i = 0; i < order.length; i += 2) assert.equal(order[i].slice(0, -1), order[i + 1].slice(0, -1), order.join(' '));
          assert.equal(await host.withLock(lock, async () => 'free'), 'free');
        } finally {
          tmp.cleanup();
        }
      });
    }

    it('a holder that never ends makes the next one give up after its timeoutMs (STORE_BUSY) on both hosts', async function () {
      // The clock bounds below tell giving up at the 200 ms timeoutMs from waiting for good (the holder never ends);
      // they were 2 s and 3 s, which a loaded machine's late timers could reach, and are 20 s and 30 s now.
      this.timeout(90_000);
      const tmp = makeTempDir('memory-parity-stuck-');
      try {
        for (const [host, dir] of [[createNodeHost(), tmp.dir], [createMemoryHost(), path.resolve('/mem/stuck')]] as const) {
          const lock = path.join(dir, 'stuck.lock');
          await host.mkdir(dir);
          let release!: () => void;
          const stuck = host.withLock(lock, () => new Promise<void>((r) => (release = r)));
          await new Promise((r) => setTimeout(r, 20));
          const started = Date.now();
          const next = await Promise.race([
            host.withLock(lock, async () => 'ran', { timeoutMs: 200 }).then((v) => v, (e: Error & { code?: string }) => e.code ?? e.message),
            new Promise((r) => setTimeout(() => r('still waiting after 30 s'), 30_000).unref()),
          ]);
          assert.equal(next, 'STORE_BUSY', `${host.local ? 'node' : 'memory'}: ${String(next)}`);
          assert.ok(Date.now() - started < 20_000, `gave up ${Date.now() - started} ms after asking`);
          release();
          await stuck;
          assert.equal(await host.withLock(lock, async () => 'after'), 'after');
        }
      } finally {
        tmp.cleanup();
      }
    });
  });

  describe('mtimes', () => {
    for (const which of ['node', 'memory'] as const) {
      it(`${which}: a file's mtime moves on write, append and truncate; a folder's on an entry added, removed or renamed`, async () => {
        const tmp = makeTempDir('memory-parity-mtime-');
        try {
          const host = which === 'node' ? createNodeHost() : createMemoryHost();
          const base = which === 'node' ? tmp.dir : path.resolve('/mem/mtime');
          const file = path.join(base, 'd', 'f.txt');
          const dir = path.join(base, 'd');
          await host.writeFile(file, 'one');
          const step = async (what: string, target: string, change: () => unknown) => {
            const before = host.stat(target, { folders: true })?.mtimeMs ?? NaN;
            await new Promise((r) => setTimeout(r, 15));
            await change();
            const after = host.stat(target, { folders: true })?.mtimeMs ?? NaN;
            assert.ok(after > before, `${what}: mtime ${before} -> ${after}`);
          };
          await step('write', file, () => host.writeFile(file, 'two'));
          await step('append', file, () => host.appendFile(file, '+'));
          await step('truncate', file, () => host.truncate(file, 1));
          await step('entry added', dir, () => host.writeFile(path.join(dir, 'new.txt'), 'n'));
          await step('entry renamed', dir, () => host.rename(path.join(dir, 'new.txt'), path.join(dir, 'renamed.txt')));
          await step('entry removed', dir, () => host.remove(path.join(dir, 'renamed.txt')));
          await step('folder made', dir, () => host.mkdir(path.join(dir, 'sub')));
          // Epoch milliseconds on both: a sweep compares them with Date.now().
          const m = host.stat(file)?.mtimeMs ?? 0;
          assert.ok(Math.abs(Date.now() - m) < 60_000, `mtime ${m} is not near now`);
        } finally {
          tmp.cleanup();
        }
      });
    }
  });

  describe('through the catalog', () => {
    it('an edit of `SKILL.md/x.md`, or of a folder, is a tool failure over the in-memory host as on the disk; the skill keeps its files', async () => {
      for (const which of ['node', 'memory'] as const) {
        const tmp = makeTempDir('memory-parity-catalog-');
        try {
          const base = which === 'node' ? tmp.dir : path.resolve('/mem/catalog');
          const host = which === 'node' ? createNodeHost() : createMemoryHost();
          const ws = path.join(base, 'ws');
          await host.writeFile(path.join(ws, 'report', 'SKILL.md'), '---\nname: report\ndescription: Writes reports. Use when a report is due.\n---\n\n# Report\n');
          await host.writeFile(path.join(ws, 'report', 'scripts', 'run.sh'), 'echo hi\n');
          const before = textOfRead(host.readFile(path.join(ws, 'report', 'SKILL.md')));
          const catalog = await SkillCatalog.open({ roots: [{ path: ws, scope: 'workspace', source: 'test' }], stateDir: path.join(base, 'state'), host });
          for (const file of ['SKILL.md/x.md', 'SKILL.md/deeper/x.md', 'scripts']) {
            const r = (await invokeUpdateSkill(catalog, { action: 'replace', skill: 'report', file, content: 'x\n' })) as { ok: boolean; error?: { code: string } };
            assert.equal(r.ok, false, `${which} ${file}: the edit was written`);
            assert.match(r.error?.code ?? '', /^fs_(enotdir|eexist|eisdir|enotempty)$/, `${which} ${file}: ${JSON.stringify(r.error)}`);
          }
          assert.equal(host.kind(path.join(ws, 'report', 'SKILL.md')), 'file', which);
          assert.equal(textOfRead(host.readFile(path.join(ws, 'report', 'SKILL.md'))), before, which);
          assert.equal(textOfRead(host.readFile(path.join(ws, 'report', 'scripts', 'run.sh'))), 'echo hi\n', which);
          assert.equal(catalog.resolve('report').status, 'ok', which);
        } finally {
          tmp.cleanup();
        }
      }
    });
  });
});
