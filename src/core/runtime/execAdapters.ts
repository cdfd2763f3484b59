import * as fs from 'node:fs';
import type { ArtifactStore } from '../exec/artifactStore';
import type { ArtifactReader } from './runtimeTypes';

/** Reads `artifact://` refs from the exec engine's artifact store. */
export function artifactReaderOf(store: ArtifactStore): ArtifactReader {
  return {
    async read(name, version, scope) {
      const info = store.scoped(scope).stat(version === undefined ? { name } : { name, version });
      if (!info) return undefined;
      return { name: info.name, version: info.version, mime_type: info.mime_type, bytes: await fs.promises.readFile(info.path) };
    },
  };
}
