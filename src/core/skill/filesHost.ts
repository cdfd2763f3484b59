import { remembered, type SkillsHost } from '../host/skillsHost';
import { SKIP, walkSkill } from '../paths/walkSkill';

const BINARY_EXT = /\.(png|jpe?g|gif|webp|bmp|ico|icns|pdf|zip|gz|tgz|bz2|xz|7z|tar|jar|war|class|woff2?|ttf|otf|eot|mp[34]|mov|avi|wav|ogg|flac|pyc|so|dylib|dll|exe|bin|o|a|wasm|db|sqlite3?|psd|ai|sketch|docx?|xlsx?|pptx?)$/i;

/** Limits for walking a skill folder. */
export interface ListFilesLimits {
  maxFiles?: number;
  maxDepth?: number;
}

/**
 * The skill's files that may hold text, relative to `root` with `/` separators, breadth first.
 * Skips VCS, dependency and cache folders and files whose extension marks them as binary. A host that keeps what it
 * read (the language server's) keeps the walk too, until a file under `root` changes.
 */
export async function listSkillTextFiles(host: SkillsHost, root: string, limits: ListFilesLimits = {}): Promise<string[]> {
  const maxFiles = limits.maxFiles ?? 500;
  const maxDepth = limits.maxDepth ?? 6;
  const walk = () => walkSkill(host, root, { skipDirs: [...SKIP.vcs, ...SKIP.dependencies], include: (rel) => !BINARY_EXT.test(rel), followLinksInside: true, maxFiles, maxDepth });
  return (await remembered(host, root, 'textFiles', `${maxFiles}/${maxDepth}`, walk)).slice();
}
