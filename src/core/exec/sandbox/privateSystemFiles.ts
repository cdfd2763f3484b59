import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * System files a sandbox must hide although their folder is shown. A runner started as root maps the script's
 * unprivileged uid to the host's uid 0 (a user namespace made by root maps to root): without capabilities, but
 * still the owner of every root-owned file, so a file only root may read (`/etc/ssl/private/*.key`, mode 0600 or
 * a 0700 folder) would be readable inside. The sandbox shows only what every user of the host may read: each
 * entry of the shown `/etc` folders that others may not read (a folder: read and search) is hidden.
 *
 * Read on every run, cheaply: each folder's listing is kept with its stamp (mtime and ctime change when an
 * entry is added, removed or renamed) and read again only when that changes; the walk is bounded.
 */

/** Most entries looked at in one walk; past it, a folder not yet read is hidden whole (fails closed). */
export const MAX_SYSTEM_ENTRIES = 20_000;
/** Deepest folder level walked below a shown entry; deeper folders are hidden whole. */
export const MAX_SYSTEM_DEPTH = 12;

/** One hidden path: a folder (shown as an empty read-only folder) or a file (shown as an empty file). */
export interface HiddenPath {
  path: string;
  kind: 'dir' | 'file';
}

interface Listing {
  stamp: string;
  /** Child files others may not read, child folders others may not open, and child folders to walk. */
  hidden: HiddenPath[];
  subdirs: string[];
}

const listings = new Map<string, Listing>();

const othersMayRead = (st: fs.Stats) => (st.isDirectory() ? (st.mode & 0o005) === 0o005 : (st.mode & 0o004) !== 0);
const stampOf = (st: fs.Stats) => `${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;

/** The entries under `shown` (absolute host paths bound read-only) that others may not read. */
export function privateSystemFiles(shown: readonly string[]): HiddenPath[] {
  const out: HiddenPath[] = [];
  let budget = MAX_SYSTEM_ENTRIES;
  const walk = (dir: string, depth: number) => {
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!st?.isDirectory()) return;
    if (depth > MAX_SYSTEM_DEPTH || budget <= 0) {
      out.push({ path: dir, kind: 'dir' });
      return;
    }
    let listing = listings.get(dir);
    if (!listing || listing.stamp !== stampOf(st)) {
      listing = { stamp: stampOf(st), hidden: [], subdirs: [] };
      let names: string[] = [];
      try {
        names = fs.readdirSync(dir);
      } catch {
        // A folder the runner cannot list is hidden whole: nothing in it is known to be public.
        out.push({ path: dir, kind: 'dir' });
        return;
      }
      for (const name of names) {
        const child = path.join(dir, name);
        const cst = fs.lstatSync(child, { throwIfNoEntry: false });
        // A link is shown as a link: what it points to is hidden or not on its own path.
        if (!cst || cst.isSymbolicLink()) continue;
        if (!othersMayRead(cst)) listing.hidden.push({ path: child, kind: cst.isDirectory() ? 'dir' : 'file' });
        else if (cst.isDirectory()) listing.subdirs.push(child);
      }
      listings.set(dir, listing);
    }
    budget -= listing.hidden.length + listing.subdirs.length + 1;
    out.push(...listing.hidden);
    for (const sub of listing.subdirs) walk(sub, depth + 1);
  };
  for (const top of shown) {
    const st = fs.lstatSync(top, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) continue;
    if (!othersMayRead(st)) out.push({ path: top, kind: st.isDirectory() ? 'dir' : 'file' });
    else if (st.isDirectory()) walk(top, 0);
  }
  return out;
}
