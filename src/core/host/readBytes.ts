import { UnreadableFileError } from '../os/readRegularFile';
import { asBuffer, type SkillsHost } from './skillsHost';

/**
 * A file's bytes through a host, or null when nothing is there or a folder is (a path an edit may create): what
 * the edit engine and the catalog read. A FIFO, a device or a file over `maxBytes` still throws (never blocks).
 */
export async function readBytesOrNull(host: Pick<SkillsHost, 'readFile'>, file: string, maxBytes: number): Promise<Buffer | null> {
  try {
    const read = await host.readFile(file, { maxBytes });
    return read ? asBuffer(read.bytes) : null;
  } catch (err) {
    if (err instanceof UnreadableFileError && err.kind === 'folder') return null;
    throw err;
  }
}
