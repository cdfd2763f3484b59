import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { SkillRecord } from '../registry/registryTypes';
import { sourceOf } from '../sources';
import type { CatalogEntry, HistoryOwner } from './catalogTypes';

/**
 * The one answer to "is this skill installed read-only, so its edits go to an overlay and archiving hides it?": its
 * source kind says so. Asked of a record, never of an id's prefix (a kind registered beside the table's may be
 * read-only with any prefix; test/core/catalog/readOnlyDecision.test.ts).
 */
export function readOnlyAtSource(r: SkillRecord): boolean {
  return sourceOf(r.scope).readOnly;
}

/**
 * The key computed from its two inputs: the id, and a digest of the folder's path (not of its files). The id is the
 * one the skill has alone: the `@<skill folder>` the registry appends while another skill shares its id
 * (applyPrecedence) is left out, so a second plugin of that name installed anywhere does not change the key (before,
 * it dropped the user's patch and unhid an archived skill: overlayPlaces.redteam). The folder is in the digest already.
 */
function keyOf(id: string, skillDir: string): string {
  const suffix = `@${skillDir}`;
  const own = id.endsWith(suffix) ? id.slice(0, -suffix.length) : id;
  return `${own}@${createHash('sha256').update(path.resolve(skillDir)).digest('hex').slice(0, 16)}`;
}

/**
 * What a skill's state in the state folder is kept under (its revisions, a read-only skill's overlay, its place in
 * the hidden list): its id and the folder it is installed in. Ids repeat across projects (`workspace:pdf` in each,
 * `pack:tools:x` for every project's `tools.tgz`), and one state folder serves them all (the CLI's, an MCP
 * server's): keyed by id alone, one project listed, restored and was served another's edits
 * (test/cli/historyPlaces.redteam.test.ts, test/cli/overlayPlaces.redteam.test.ts). The folder is the skill's own
 * for workspace and user skills, the plugin's install folder for plugin skills, and for pack skills the unpacked
 * copy in the pack cache, named by the archive's sha256: a pack is known by its content.
 *
 * Keys are remembered per registry record with the id and folder they were made from, and served only while both
 * are still the record's, so a record whose folder changed gets a new key (test/core/catalog/historyKeyCache.test.ts).
 * It pays for the hidden list: with one skill archived, every `entries()` keys each read-only record
 * (`node --import tsx test/bench/overlayLookupCost.ts`: 10,000 plugin skills, `resolve` 31 ms of CPU unremembered,
 * 17 ms remembered; a single key 1.7 µs against 0.04 µs).
 */
export class HistoryKeys {
  private readonly known = new WeakMap<SkillRecord, { id: string; dir: string; key: string }>();

  /** The key of a record, a catalog entry (by its record) or any id and folder. */
  of(owner: HistoryOwner | SkillRecord): string {
    const record = 'rootDir' in owner ? owner : 'record' in owner ? (owner as CatalogEntry).record : undefined;
    const [id, dir] = 'rootDir' in owner ? [owner.id, owner.rootDir] : [owner.id, owner.skillDir];
    if (!record || record.id !== id || record.rootDir !== dir) return keyOf(id, dir);
    const known = this.known.get(record);
    if (known && known.id === id && known.dir === dir) return known.key;
    const key = keyOf(id, dir);
    this.known.set(record, { id, dir, key });
    return key;
  }
}
