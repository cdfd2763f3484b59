import * as fs from 'node:fs';
import * as path from 'node:path';

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
}

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
 * Disk use of the cap's folders; stops counting once past `stopAt`. Links are not followed. On the thread
 * pool, so a large HOME does not block the event loop while a script runs.
 */
export async function diskUse(cap: SizeCap, stopAt = cap.capBytes): Promise<number> {
  const p = fs.promises;
  let total = 0;
  const walk = async (dir: string, top: boolean): Promise<void> => {
    let names: string[];
    try {
      names = await p.readdir(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (total > stopAt) return;
      if (top && cap.skipTop?.has(name)) continue;
      const abs = path.join(dir, name);
      const st = await p.lstat(abs).catch(() => undefined);
      if (!st) continue;
      total += bytesOf(st);
      if (st.isDirectory()) await walk(abs, false);
    }
  };
  for (const d of cap.dirs) await walk(d, true);
  return total;
}

/** The result's sentence for a passed cap: what, how much, what was done, how to raise it. */
export function describeExceeded(e: SizeExceeded, action: string): string {
  const mb = (n: number) => `${Math.round((n / MiB) * 10) / 10} MiB`;
  return `${e.cap.label} (${e.cap.dirs[0]}) passed its size cap of ${mb(e.cap.capBytes)} (at least ${mb(e.used)} on disk); ${action}. Write less, delete what is not needed, or raise ${e.cap.setting}.`;
}

/**
 * Walks the caps' folders while a script runs, first after `firstMs`, then again after each walk (at least
 * `everyMs` apart, and four times as long as the last walk took, so a large HOME costs little), and calls
 * `onExceeded` once when one passes its cap. A single file is also held to the file-size limit the launcher
 * sets, so one large write cannot outrun the walk by more than that limit.
 */
export class SizeWatch {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly caps: readonly SizeCap[],
    private readonly onExceeded: (e: SizeExceeded) => void,
    private readonly everyMs = 250,
  ) {}

  start(firstMs = 200): void {
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
    for (const cap of this.caps) {
      const used = await diskUse(cap);
      if (this.stopped) return;
      if (used > cap.capBytes) {
        this.stopped = true;
        this.onExceeded({ cap, used });
        return;
      }
    }
    this.schedule(Math.max(this.everyMs, 4 * (performance.now() - t0)));
  }
}
