import * as path from 'node:path';
import { localDisk } from '../host/localDisk';
import type { SyncSkillsHost } from '../host/skillsHost';

/** Most entries compared between two folders of one plugin name; past it they count as different (fails closed). */
export const MAX_COMPARED_ENTRIES = 5000;
/** Most bytes compared between two folders of one plugin name; past it they count as different (fails closed). */
export const MAX_COMPARED_BYTES = 64 * 1024 * 1024;

/**
 * Whether two plugin folders that give the same name and version hold the same plugin: the same entries at every
 * level, the same bytes in every file, links resolving to the same place relative to their plugin. That is what two
 * hosts installing one plugin leave; a plugin that only took another's name differs somewhere (a skill, a script).
 * Bounded in entries and bytes; anything unreadable or over the bounds counts as different.
 */
export function samePluginContent(a: string, b: string, files: SyncSkillsHost = localDisk, limits = { entries: MAX_COMPARED_ENTRIES, bytes: MAX_COMPARED_BYTES }): boolean {
  const budget = { ...limits };
  try {
    return sameFolder(a, b, '', files, budget);
  } catch {
    return false;
  }
}

function sameFolder(a: string, b: string, rel: string, files: SyncSkillsHost, budget: { entries: number; bytes: number }): boolean {
  const la = files.readDirectory(path.join(a, rel));
  const lb = files.readDirectory(path.join(b, rel));
  if (!la || !lb || la.length !== lb.length) return false;
  budget.entries -= la.length;
  if (budget.entries < 0) return false;
  const kinds = new Map(lb.map((e) => [e.name, e.kind]));
  for (const e of la) {
    if (kinds.get(e.name) !== e.kind) return false;
    const child = path.join(rel, e.name);
    if (e.kind === 'directory') {
      if (!sameFolder(a, b, child, files, budget)) return false;
    } else if (e.kind === 'file') {
      const [fa, fb] = [files.readFile(path.join(a, child), { noFollow: true, maxBytes: budget.bytes }), files.readFile(path.join(b, child), { noFollow: true, maxBytes: budget.bytes })];
      if (!fa || !fb || fa.bytes.length !== fb.bytes.length) return false;
      budget.bytes -= fa.bytes.length;
      if (budget.bytes < 0 || !Buffer.from(fa.bytes).equals(Buffer.from(fb.bytes))) return false;
    } else if (e.kind === 'symlink') {
      const [ra, rb] = [files.realPath(path.join(a, child)), files.realPath(path.join(b, child))];
      const [roota, rootb] = [files.realPath(a), files.realPath(b)];
      if (!ra || !rb || !roota || !rootb || path.relative(roota, ra) !== path.relative(rootb, rb)) return false;
    } else return false;
  }
  return true;
}
