// The unique part of this process's temp names (atomicFile.ts's temp files, spareFiles.ts's spares).
import { randomBytes } from 'node:crypto';

/** Random per process (drawn at its first temp name) and a count: unique names without drawing random bytes each time. */
let tagPrefix: string | undefined;
let tagCount = 0;

/**
 * `<pid>-<tag>`, new on every call: the process's random prefix tells it from an earlier process that had its pid
 * (and left a temp file in a crash), the count tells this process's names apart. Drawing 4 random bytes for each
 * name cost ~20 us of CPU a state save (a CPU profile of the state folder's save loop).
 */
export function tempTag(): string {
  tagPrefix ??= randomBytes(4).toString('hex');
  return `${process.pid}-${tagPrefix}${(tagCount++).toString(36)}`;
}
