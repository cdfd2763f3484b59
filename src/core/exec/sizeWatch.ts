import * as fs from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../paths/isInside';
import type { HeldFile } from './heldFiles';

/** A group of folders whose disk use together may not pass `capBytes`. */
export interface SizeCap {
  /** Names the group in messages, e.g. "the run folder". */
  label: string;
  dirs: readonly string[];
  capBytes: number;
  /** Names skipped at the top of each folder (the run's read-only `skills/` links). */
  skipTop?: ReadonlySet<string>;
  /** The setting or option that raises the cap, for the message. */
  setting: string;
}

/** A cap found passed. */
export interface SizeExceeded {
  cap: SizeCap;
  /** Bytes counted when the walk stopped (at least the cap). */
  used: number;
  /** Of `used`, bytes in files the run's processes deleted but still held open or mapped. */
  held?: number;
}

/** The deleted files a run's processes still hold ({@link heldDeletedFiles}), on the caps' devices. */
export type HeldFiles = (devs: ReadonlySet<number>) => Promise<HeldFile[]>;

const MiB = 1024 * 1024;

/**
 * What one entry counts for. An empty file, a symlink or a FIFO holds no block but takes an inode and a
 * directory entry: counted at their blocks alone, a script made 200,000 empty files under a 4 MiB cap, and
 * could exhaust the disk's inodes under the default one. Each entry counts at least one 4 KiB block (what a
 * one-byte file takes on ext4), so a cap also bounds how many files it allows (512 MiB: 131,072).
 */
const ENTRY_FLOOR = 4096;

/** Disk bytes of a file (allocated blocks: a sparse file costs what it holds), at least {@link ENTRY_FLOOR}. */
function bytesOf(st: fs.Stats): number {
  return Math.max(ENTRY_FLOOR, st.blocks !== undefined ? st.blocks * 512 : st.size);
}

/**
 * The file operations of a walk: synchronous ({@link SYNC_IO}) or on the thread pool ({@link POOL_IO}). Folders are
 * read a few entries at a time (fs.Dir), so one huge folder costs a walk no more than its budget.
 */
interface WalkIo {
  open(dir: string): fs.Dir | Promise<fs.Dir>;
  next(d: fs.Dir): fs.Dirent | null | Promise<fs.Dirent | null>;
  close(d: fs.Dir): void | Promise<void>;
  lstat(abs: string): fs.Stats | Promise<fs.Stats>;
}

/** On the event loop: awaiting its answers only queues microtasks, so the walk never waits behind the thread pool. */
const SYNC_IO: WalkIo = { open: (dir) => fs.opendirSync(dir), next: (d) => d.readSync(), close: (d) => d.closeSync(), lstat: (abs) => fs.lstatSync(abs) };

/** On the thread pool, so a large HOME does not block the event loop while a script runs. */
const POOL_IO: WalkIo = { open: (dir) => fs.promises.opendir(dir), next: (d) => d.read(), close: (d) => d.close(), lstat: (abs) => fs.promises.lstat(abs) };

/**
 * The one walk of a cap's folders (links not followed): bytes used, counting stopped once past `stopAt`; undefined
 * once it has seen more than `budget` entries.
 */
async function walkUse(cap: SizeCap, io: WalkIo, stopAt: number, budget = Infinity): Promise<number | undefined> {
  let total = 0;
  let left = budget;
  /** False once the budget is spent. */
  const walk = async (dir: string, top: boolean): Promise<boolean> => {
    let d: fs.Dir;
    try {
      d = await io.open(dir);
    } catch {
      return true;
    }
    try {
      for (let e = await io.next(d); e !== null; e = await io.next(d)) {
        if (--left < 0) return false;
        if (total > stopAt) return true;
        if (top && cap.skipTop?.has(e.name)) continue;
        const abs = path.join(dir, e.name);
        let st: fs.Stats;
        try {
          st = await io.lstat(abs);
        } catch {
          continue;
        }
        total += bytesOf(st);
        if (st.isDirectory() && !(await walk(abs, false))) return false;
      }
      return true;
    } catch {
      return true; // the folder went away while it was read
    } finally {
      try {
        await io.close(d);
      } catch {
        // closing a folder handle fails only if it was closed already
      }
    }
  };
  for (const d of cap.dirs) if (!(await walk(d, true))) return undefined;
  return total;
}

/** Disk use of the cap's folders, on the thread pool; stops counting once past `stopAt`. */
export async function diskUse(cap: SizeCap, stopAt = cap.capBytes): Promise<number> {
  return (await walkUse(cap, POOL_IO, stopAt)) ?? 0;
}

/**
 * Entries a check of {@link diskUse} walks on the event loop before it leaves the walk to the thread pool. A run's
 * last check comes right after its script ended, while the previous run's folder is being removed and the next
 * workspace built on that pool: behind them, a walk of a few empty folders waited ~10 ms (issue 23, exec.bench).
 */
export const QUICK_WALK_ENTRIES = 256;

/**
 * Disk use of the cap's folders as {@link diskUse} counts it (the same walk), on the event loop while it has seen at
 * most `budget` entries; else again on the thread pool.
 */
export async function diskUseQuick(cap: SizeCap, budget = QUICK_WALK_ENTRIES, stopAt = cap.capBytes): Promise<number> {
  return (await walkUse(cap, SYNC_IO, stopAt, budget)) ?? diskUse(cap, stopAt);
}

/** The result's sentence for a passed cap: what, how much, what was done, how to raise it. */
export function describeExceeded(e: SizeExceeded, action: string): string {
  const mb = (n: number) => `${Math.round((n / MiB) * 10) / 10} MiB`;
  const held = e.held ? `, ${mb(e.held)} of it in files deleted but still held open or mapped` : '';
  return `${e.cap.label} (${e.cap.dirs[0]}) passed its size cap of ${mb(e.cap.capBytes)} (at least ${mb(e.used)} on disk${held}); ${action}. Write less, delete what is not needed, or raise ${e.cap.setting}.`;
}

/** Bytes in use on the file system holding `dir` (undefined where statfs is not there). */
async function fsUsed(dir: string): Promise<number | undefined> {
  try {
    const st = await fs.promises.statfs(dir);
    return (st.blocks - st.bfree) * st.bsize;
  } catch {
    return undefined;
  }
}

/**
 * Walks the caps' folders while a script runs, first after `firstMs`, then again after each walk (at least
 * `everyMs` apart, and four times as long as the last walk took, so a large HOME costs little), and calls
 * `onExceeded` once when one passes its cap. A single file is also held to the file-size limit the launcher
 * sets, so one large write cannot outrun the walk by more than that limit.
 *
 * A file deleted while the script holds it open (or mapped) keeps its blocks but is in no folder: with `held`, when
 * the disk of the first cap grew since the start by more than the room the walk left, the run's held deleted files
 * are counted too (each in the cap whose folder it was in, else the first), so unlinked files cannot fill the disk.
 */
export class SizeWatch {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private baseline: Promise<number | undefined> | undefined;

  constructor(
    private readonly caps: readonly SizeCap[],
    private readonly onExceeded: (e: SizeExceeded) => void,
    private readonly everyMs = 250,
    private readonly held?: HeldFiles,
  ) {}

  start(firstMs = 200): void {
    if (this.held && this.caps.length) this.baseline = fsUsed(this.caps[0].dirs[0]);
    this.schedule(firstMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    const t0 = performance.now();
    const used: number[] = [];
    for (const cap of this.caps) {
      used.push(await diskUse(cap));
      if (this.stopped) return;
      if (used[used.length - 1] > cap.capBytes) return this.exceeded({ cap, used: used[used.length - 1] });
    }
    const heldOver = await this.heldOver(used);
    if (this.stopped) return;
    if (heldOver) return this.exceeded(heldOver);
    this.schedule(Math.max(this.everyMs, 4 * (performance.now() - t0)));
  }

  private exceeded(e: SizeExceeded): void {
    this.stopped = true;
    this.onExceeded(e);
  }

  /** A cap passed once the held deleted files are added, looked at only when the disk grew past the room left. */
  private async heldOver(used: readonly number[]): Promise<SizeExceeded | undefined> {
    const before = await this.baseline;
    if (!this.held || before === undefined) return undefined;
    const now = await fsUsed(this.caps[0].dirs[0]);
    const room = Math.min(...this.caps.map((c, i) => c.capBytes - used[i]));
    if (now === undefined || now - before <= room) return undefined;
    const devs = new Set<number>();
    for (const cap of this.caps) for (const d of cap.dirs) {
      const st = await fs.promises.stat(d).catch(() => undefined);
      if (st) devs.add(st.dev);
    }
    const extra = this.caps.map(() => 0);
    for (const f of await this.held(devs)) {
      const i = this.caps.findIndex((c) => c.dirs.some((d) => isInside(d, f.path)));
      extra[i < 0 ? 0 : i] += f.bytes;
    }
    const i = this.caps.findIndex((c, k) => used[k] + extra[k] > c.capBytes);
    return i < 0 ? undefined : { cap: this.caps[i], used: used[i] + extra[i], held: extra[i] };
  }
}
