import type { SyncWritableHost } from './fileWrites';
import { createAsyncNodeHost, createNodeHost } from './nodeHost';
import type { SkillsHost } from './skillsHost';

/** The local disk as a host: what the core's parts read and write through when no other host is given. */
export const localDisk: SyncWritableHost = createNodeHost();

/** The local disk answering through `fs.promises`: for scans of many files (the validator), which then never block the event loop for long. */
export const asyncLocalDisk: SkillsHost = createAsyncNodeHost();
