// Host processes seen from the extension host's side, for tests that check a script's process tree is gone.
import * as fs from 'node:fs';

/** Host pids (with their command lines) of the processes whose command line contains `marker`. */
export function processesWith(marker: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (cmdline.includes(marker)) found.set(Number(name), cmdline);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

/** True while `pid` runs (a zombie no one reaped yet counts as gone: it runs nothing). */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
