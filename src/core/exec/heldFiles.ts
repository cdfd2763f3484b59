import * as fs from 'node:fs';

/**
 * Files a run's processes still hold after deleting them. A deleted file keeps its blocks while a descriptor or a
 * mapping holds it, and no folder walk sees it: a script that opened, unlinked and kept writing files (each under the
 * launcher's file-size limit) filled the disk far past its run folder's cap while it ran (36 MiB under an 8 MiB cap
 * with six files; with a thousand descriptors, the disk). Linux only (/proc).
 */
export interface HeldFile {
  /** The path the file had (what /proc shows before " (deleted)"). */
  path: string;
  /** Bytes on disk: its allocated blocks, or for a mapping the runner may not look into, the most a file may hold. */
  bytes: number;
}

const DELETED = ' (deleted)';

/** `major:minor` in hex (as /proc/<pid>/maps writes a device) as Linux encodes a dev_t (what `stat` gives as `dev`). */
function devOf(majorMinor: string): number {
  const [major, minor] = majorMinor.split(':').map((h) => parseInt(h, 16));
  return (minor & 0xff) | (major << 8) | ((minor & ~0xff) << 12);
}

/**
 * The deleted files (no link left) on one of `devs` that `pids` hold open or mapped, each counted once. A mapping is
 * measured through `/proc/<pid>/map_files` (root only); a runner that may not look there counts `unknownBytes` (the
 * file-size limit: what a file may hold, whatever part of it is still mapped). At most `maxPids` processes are read;
 * a process that is gone or not readable is passed over.
 */
export async function heldDeletedFiles(pids: readonly number[], devs: ReadonlySet<number>, unknownBytes: number, maxPids = 4096): Promise<HeldFile[]> {
  const p = fs.promises;
  const seen = new Map<string, HeldFile>();
  for (const pid of pids.slice(0, maxPids)) {
    const fdDir = `/proc/${pid}/fd`;
    for (const n of await p.readdir(fdDir).catch(() => [] as string[])) {
      const link = await p.readlink(`${fdDir}/${n}`).catch(() => '');
      if (!link.endsWith(DELETED)) continue;
      const st = await p.stat(`${fdDir}/${n}`).catch(() => undefined);
      if (!st || !st.isFile() || st.nlink !== 0 || !devs.has(st.dev)) continue;
      seen.set(`${st.dev}:${st.ino}`, { path: link.slice(0, -DELETED.length), bytes: st.blocks * 512 });
    }
    const maps = await p.readFile(`/proc/${pid}/maps`, 'latin1').catch(() => '');
    for (const line of maps.split('\n')) {
      if (!line.endsWith(DELETED)) continue;
      // "start-end perms offset major:minor inode   path (deleted)"
      const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ ([0-9a-f]+:[0-9a-f]+) (\d+) +(.*)$/.exec(line);
      if (!m || m[4] === '0') continue;
      const dev = devOf(m[3]);
      const key = `${dev}:${m[4]}`;
      if (!devs.has(dev) || seen.has(key)) continue;
      const st = await p.stat(`/proc/${pid}/map_files/${m[1]}-${m[2]}`).catch(() => undefined);
      if (st && st.nlink !== 0) continue;
      const bytes = st ? st.blocks * 512 : unknownBytes;
      seen.set(key, { path: m[5].slice(0, -DELETED.length), bytes });
    }
  }
  return [...seen.values()];
}
