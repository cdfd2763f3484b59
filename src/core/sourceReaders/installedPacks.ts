// Skills of installed skill packs (archives from a path or URL): downloaded once and unpacked on this machine's
// disk, then placed in the host when it keeps its files elsewhere; each pack is one `pack` root. The packs are
// mounted again only when their specs change (a settings change), and only the newest mount applies.
import * as path from 'node:path';
import type { PackSpec } from '../catalog/catalogTypes';
import { mountPack, type MountedPack } from '../catalog/packMounts';
import { ToolError } from '../tools/toolError';
import { sourceOf } from '../sources/sourceKinds';
import type { SourceReaderSpec } from './sourceReader';

/**
 * How a front end wraps the mount of one pack (a progress notification; a failure reported and the pack left out
 * by resolving undefined). Without it a failure rejects the core's `prepareSources` (and `catalog()`).
 */
export type PackMountHook = (spec: PackSpec, mount: () => Promise<MountedPack>) => Promise<MountedPack | undefined>;

/** The packs of `specs` (a getter when settings change them); `mounted()` lists those mounted last. */
export function skillPacks(specs: readonly PackSpec[] | (() => readonly PackSpec[]), options: { fetch?: typeof fetch; mount?: PackMountHook } = {}): SourceReaderSpec & { mounted(): readonly MountedPack[] } {
  const current = typeof specs === 'function' ? specs : () => specs;
  let packs: { key: string; mounted: MountedPack[] } | undefined;
  let mounting: { key: string; done: Promise<void> } | undefined;
  return {
    kind: sourceOf('pack'),
    mounted: () => packs?.mounted ?? [],
    open: (context) => {
      const mountAll = async (list: readonly PackSpec[]): Promise<MountedPack[]> => {
        const next: MountedPack[] = [];
        for (const spec of list) {
          const mount = () => {
            // The extractor's bounds are the disk's: a host that keeps its files elsewhere needs a cache on the disk.
            if (!context.host.local && !context.packCacheDir) {
              return Promise.reject(new ToolError('pack_refused', `Cannot mount ${spec.source}: this catalog keeps its files outside the local disk, where packs are unpacked first. Give the catalog a packCacheDir on this machine.`));
            }
            return mountPack(spec, context.packCacheDir ?? path.join(context.stateDir, 'packs'), options.fetch, context.host);
          };
          const mounted = options.mount ? await options.mount(spec, mount) : await mount();
          if (!mounted) continue;
          const i = next.findIndex((p) => p.name === mounted.name);
          if (i >= 0) next.splice(i, 1, mounted);
          else next.push(mounted);
        }
        return next;
      };
      return {
        kind: sourceOf('pack'),
        prepare() {
          const list = current();
          const key = JSON.stringify(list);
          if (packs?.key === key) return Promise.resolve();
          if (mounting?.key !== key) {
            const started: { key: string; done: Promise<void> } = {
              key,
              done: mountAll(list).then(
                (mounted) => {
                  // A newer change may have started another mount meanwhile: only the newest one applies.
                  if (mounting === started) packs = { key, mounted };
                },
                (e: unknown) => {
                  if (mounting === started) mounting = undefined;
                  throw e;
                },
              ),
            };
            mounting = started;
          }
          return mounting.done;
        },
        roots: () => (packs?.mounted ?? []).map((p) => p.root),
      };
    },
  };
}
