export type { DirEntry, FileRead, FileStamp, MaybePromise, PathKind, SkillsHost, SyncSkillsHost } from './skillsHost';
export { asBuffer, readTextFile, resolvedEntries, textOfRead } from './skillsHost';
export { createAsyncNodeHost, createNodeHost } from './nodeHost';
export { createMemoryHost, type MemoryHost } from './memoryHost';
export type { FileWrites, LockOptions, SyncWritableHost, WritableHost } from './fileWrites';
export { nodeWrites } from './nodeWrites';
