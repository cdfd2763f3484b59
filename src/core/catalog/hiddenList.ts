import type { SkillsHost } from '../host/skillsHost';
import { readBytesOrNull } from '../host/readBytes';

/** Most bytes of the hidden list read (a list of keys: thousands fit in a fraction of this). */
const MAX_HIDDEN_LIST_BYTES = 4 * 1024 * 1024;

/**
 * The keys in the catalog's hidden list (archived plugin and pack skills, see HistoryKeys); a missing file is an
 * empty list, a file that cannot be read or is not a JSON list of strings a problem, worded to follow its path.
 */
export async function readHiddenList(host: SkillsHost, file: string): Promise<{ ids: string[] } | { problem: string }> {
  let text: string | undefined;
  try {
    const bytes = await readBytesOrNull(host, file, MAX_HIDDEN_LIST_BYTES);
    if (bytes === null) return { ids: [] };
    text = bytes.toString('utf8');
  } catch (e) {
    return { problem: `cannot be read (${(e as Error).message})` };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: 'is not valid JSON' };
  }
  if (!Array.isArray(data) || data.some((x) => typeof x !== 'string')) return { problem: 'is not a JSON array of skill ids' };
  return { ids: data as string[] };
}
