import type { SyncWritableHost } from './fileWrites';
import { createNodeHost } from './nodeHost';

/** The local disk as a host: what the core's parts read and write through when no other host is given. */
export const localDisk: SyncWritableHost = createNodeHost();
