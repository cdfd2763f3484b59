import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { WritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { tempSibling } from '../os/atomicFile';
import { installPack, type InstalledPack } from '../packs';
import { DEFAULT_LIMITS } from '../packs/extractPolicy';
import type { SkillRoot } from '../registry/registryTypes';
import type { PackSpec } from './catalogTypes';

/** A pack made available to the registry as a `pack` root. */
export interface MountedPack {
  name: string;
  root: SkillRoot;
  installed: InstalledPack;
}

/** The default pack name: the archive's file name without its extension, as an id-safe slug. */
export function packNameOf(source: string): string {
  let base = source;
  if (/^https?:\/\//i.test(source)) {
    try {
      base = new URL(source).pathname;
    } catch {
      // fall through with the raw string
    }
  }
  const file = base.split(/[\\/]/).filter(Boolean).pop() ?? 'pack';
  const stem = file.replace(/\.(zip|tgz|tar\.gz|tar)$/i, '');
  const slug = stem.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '');
  return slug || 'pack';
}

/**
 * Downloads (once) and extracts (once per digest) a pack into `cacheDir`, and returns the folder whose
 * child folders are its skills. A pack whose archive root is itself a skill is copied once into
 * `<cacheDir>/mounts/<sha256>/<folder>` so it can be scanned like any root.
 */
export async function mountPack(spec: PackSpec, cacheDir: string, fetchImpl?: typeof fetch, host: WritableHost = localDisk): Promise<MountedPack> {
  const installed = await installPack(spec.source, { cacheDir, expectedSha256: spec.sha256, fetch: fetchImpl, allowRedirectHosts: spec.redirectHosts });
  const name = spec.name ?? packNameOf(spec.source);
  let rootPath: string;
  if (installed.skills.length === 1 && installed.skills[0] === installed.root) {
    rootPath = path.join(cacheDir, 'mounts', installed.sha256);
    const folder = path.join(rootPath, packNameOf(spec.source));
    if (!(await fs.stat(folder).catch(() => undefined))) {
      const temp = tempSibling(rootPath);
      await fs.cp(installed.root, path.join(temp, path.basename(folder)), { recursive: true });
      await fs.rm(rootPath, { recursive: true, force: true });
      await fs.rename(temp, rootPath);
    }
  } else {
    rootPath = installed.skills.length ? path.dirname(installed.skills[0]) : installed.root;
  }
  if (!host.local) await placeInHost(host, rootPath);
  return { name, installed, root: { path: rootPath, scope: 'pack', source: name } };
}

/**
 * Copies an unpacked pack's tree from the disk into a host that keeps its files elsewhere (in memory, remote), at
 * the same paths, so the catalog reads the pack's skills where it reads every other skill. Once per digest: a
 * tree the host already holds is not copied again. The tree is the extractor's (bounded in size, count and depth,
 * links refused or skipped), so the copy is bounded too.
 */
async function placeInHost(host: WritableHost, root: string): Promise<void> {
  if ((await host.kind(root)) === 'directory') return;
  // A staging folder of this call's own (two mounts of one pack may run at once over a host that answers later).
  const staging = tempSibling(root);
  const copy = async (from: string, to: string): Promise<void> => {
    await host.mkdir(to);
    for (const e of localDisk.readDirectory(from) ?? []) {
      const src = path.join(from, e.name);
      if (e.kind === 'directory') await copy(src, path.join(to, e.name));
      else if (e.kind === 'file') {
        const read = localDisk.readFile(src, { maxBytes: DEFAULT_LIMITS.maxFileBytes, noFollow: true });
        const mode = localDisk.stat(src)?.mode;
        if (read) await host.writeFile(path.join(to, e.name), read.bytes, mode === undefined ? undefined : { mode: mode & 0o777 });
      }
    }
  };
  try {
    await copy(root, staging);
    await host.rename(staging, root);
  } catch (e) {
    await host.remove(staging);
    // Another mount of the same pack placed it first: that copy is whole (it was renamed into place), keep it.
    if ((await host.kind(root)) !== 'directory') throw e;
  }
}
