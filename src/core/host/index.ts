export type { DirEntry, FileRead, FileStamp, MaybePromise, SkillsHost } from './skillsHost';
export { createAsyncNodeHost, createNodeHost } from './nodeHost';
export { createMemoryHost, type MemoryHost } from './memoryHost';
