// Skills of installed skill packs (archives from a path or URL): downloaded once and unpacked on this machine's
// disk, then placed in the host when it keeps its files elsewhere; each pack is one `pack` root.
import * as path from 'node:path';
import type { PackSpec } from '../../catalog/catalogTypes';
import { mountPack, type MountedPack } from '../../catalog/packMounts';
import { ToolError } from '../../tools/toolError';
import { packSource } from '../packSource';
import type { SourceReaderKind, SourceReaderSpec } from './sourceReader';

/** The packs of `specs`, mounted when the catalog opens (`mounted()` lists them then); `fetch` for pack URLs. */
export function skillPacks(specs: readonly PackSpec[], options: { fetch?: typeof fetch } = {}): SourceReaderSpec & { mounted(): readonly MountedPack[] } {
  let packs: MountedPack[] = [];
  return {
    kind: packSource,
    mounted: () => packs,
    open: (context) => ({
      kind: packSource,
      async prepare() {
        const next: MountedPack[] = [];
        for (const spec of specs) {
          // The extractor's bounds are the disk's: a host that keeps its files elsewhere needs a cache on the disk.
          if (!context.host.local && !context.packCacheDir) {
            throw new ToolError('pack_refused', `Cannot mount ${spec.source}: this catalog keeps its files outside the local disk, where packs are unpacked first. Give the catalog a packCacheDir on this machine.`);
          }
          const mounted = await mountPack(spec, context.packCacheDir ?? path.join(context.stateDir, 'packs'), options.fetch, context.host);
          const i = next.findIndex((p) => p.name === mounted.name);
          if (i >= 0) next.splice(i, 1, mounted);
          else next.push(mounted);
        }
        packs = next;
      },
      roots: () => packs.map((p) => p.root),
    }),
  };
}

export const skillPacksReader: SourceReaderKind = { kind: packSource };
