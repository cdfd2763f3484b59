import * as path from 'node:path';
import type { WritableHost } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import { readBytesOrNull } from '../host/readBytes';
import { MAX_CATALOG_FILE_BYTES } from '../os/readRegularFile';
import { SkillOverlay, resolveEffectiveFile } from '../edit/overlay';
import { RevisionStore, type RevisionRecord } from '../edit/revisionStore';
import { normalizeRelativePath, resolveInsideReal } from '../edit/safePath';
import { digestOf, skillManifest, type VersionRef } from '../edit/versionRef';
import { createSkillRegistry, type SkillRegistry } from '../registry/skillRegistry';
import { AmbiguousSkillError, BrokenSkillError, SkillNotFoundError } from '../registry/registryErrors';
import { sourceOf } from '../sources';
import { HistoryKeys, readOnlyAtSource } from './installedPlace';
import { readHiddenList } from './hiddenList';
import type { SkillRecord, SkillRoot } from '../registry/registryTypes';
import { parseSkillFile } from '../skill/parseSkillFile';
import { validateSkillContent } from '../skill/validateSkill';
import { suggestNames } from '../registry/suggestNames';
import { ToolError } from '../tools/toolError';
import type { CatalogEntry, HistoryOwner, WritableScope } from './catalogTypes';
import { catalogChanges, catalogRecord, settleStatuses, type CatalogSkillSource } from './catalogChanges';

/** Options of {@link SkillCatalog.open}. */
export interface SkillCatalogOptions {
  /** Every root: workspace (`project`), user, plugin and pack (the factory adds the roots of mounted packs). */
  roots: readonly SkillRoot[];
  /** Writable folder for the revision store (`revisions/`), overlays (`overlays/`) and hidden read-only skills. */
  stateDir: string;
  /**
   * The catalog's one file access: the registry scan, skill files, edits, the revision store, overlays, the
   * archive and the hidden list (the local disk by default).
   */
  host?: WritableHost;
  /**
   * A registry the host already keeps over the same `roots` (e.g. the VS Code extension's, which its views and
   * runtime use): the catalog reads and refreshes that one instead of scanning its own, so a write shows up
   * everywhere at once. It is not rescanned at open when it has records already.
   */
  registry?: SkillRegistry;
  /** Where `create` and `copy` write per scope; default the first project / user root. */
  writableRoots?: Partial<Record<WritableScope, string>>;
}

/** One file of a skill as readers see it. */
export interface CatalogFile {
  path: string;
  size: number;
  ref: VersionRef;
  origin: 'overlay' | 'source';
}

/** Effective content of one file. */
export interface EffectiveContent {
  path: string;
  content: Buffer;
  ref: VersionRef;
  origin: 'overlay' | 'source';
  absPath: string;
}

interface OverlayInfo {
  location: string;
  properties: Record<string, unknown>;
  description: string;
  ref: VersionRef;
  diagnostics: CatalogEntry['diagnostics'];
}

const SKILL_MD = 'SKILL.md';
function encodeId(id: string): string {
  return id.replace(/[^A-Za-z0-9_.-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * One catalog over every skill source: workspace, user and plugin roots plus mounted skill packs.
 * Plugin and pack skills are read-only at their source; their edits live in a revision overlay and the
 * catalog serves the newest revision. Bare names resolve by precedence (workspace > user > plugin > pack);
 * a tie fails with {@link AmbiguousSkillError} listing every candidate id.
 */
export class SkillCatalog {
  readonly store: RevisionStore;
  private readonly overlayInfo = new Map<string, OverlayInfo>();
  private readonly keys = new HistoryKeys();
  private hidden = new Set<string>();
  /**
   * Replaced whenever the catalog's own state (hidden list, overlays) may have changed: a change-feed cursor made
   * under another state is refused, so the index then compares the whole list (see catalogChanges.ts).
   */
  stateToken: object = {};
  private baseRoots: SkillRoot[];
  /** Where the catalog reads and writes (see {@link SkillCatalogOptions.host}). */
  readonly host: WritableHost;

  private constructor(
    readonly options: SkillCatalogOptions,
    readonly registry: SkillRegistry,
  ) {
    this.host = options.host ?? localDisk;
    this.store = new RevisionStore(path.join(options.stateDir, 'revisions'), { files: this.host });
    this.baseRoots = [...options.roots];
  }

  /** Creates the catalog and scans every root (a given registry with records already is not rescanned). */
  static async open(options: SkillCatalogOptions): Promise<SkillCatalog> {
    const registry =
      options.registry ??
      createSkillRegistry({
        roots: options.roots,
        host: options.host,
        check: ({ parsed, skillDir, fileName, mode }) => validateSkillContent({ parsed, folderName: path.basename(skillDir), fileName }, { mode }).diagnostics,
      });
    const catalog = new SkillCatalog(options, registry);
    if (options.registry && registry.all().length) await catalog.reloadState();
    else await catalog.refresh();
    return catalog;
  }

  /** Rescans all roots and reloads overlay state and the hidden list. */
  async refresh(): Promise<void> {
    await this.registry.refresh();
    await this.reloadState();
  }

  /** Rereads the hidden list and the overlays of skills from read-only sources (not the skill folders). */
  async reloadState(): Promise<void> {
    const hidden = await this.readHidden();
    const next = new Set('ids' in hidden ? hidden.ids : []);
    if (next.size !== this.hidden.size || [...next].some((id) => !this.hidden.has(id))) this.stateToken = {};
    this.hidden = next;
    this.hiddenProblem = 'problem' in hidden ? `${this.hiddenFile()} ${hidden.problem}; every archived plugin and pack skill is shown until it is fixed or deleted.` : undefined;
    const stale = new Set(this.overlayInfo.keys());
    for (const r of this.registry.all()) {
      if (!readOnlyAtSource(r)) continue;
      stale.delete(r.id);
      await this.loadOverlayInfo(r);
    }
    for (const id of stale) this.overlayInfo.delete(id);
    if (stale.size) this.stateToken = {};
  }

  /** Rereads one skill after a write. */
  async refreshSkill(entry: CatalogEntry): Promise<void> {
    if (entry.writableAtSource) await this.registry.refreshSkill(entry.skillDir);
    else await this.loadOverlayInfo(entry.record);
  }

  /**
   * Folder holding the overlay copies of a read-only skill's edited files, kept per id and place (see
   * {@link historyKey}); an id names the skill of that id installed here.
   */
  overlayDir(of: string | HistoryOwner | SkillRecord): string {
    const owner = typeof of === 'string' ? this.installedRecord(of) : of;
    return path.join(this.options.stateDir, 'overlays', encodeId(this.historyKey(owner)));
  }

  /** The read-only skill of that id installed here, or undefined (a writable one, or none). */
  private readOnlyRecord(id: string): SkillRecord | undefined {
    const record = this.registry.recordOf(id);
    return record && readOnlyAtSource(record) ? record : undefined;
  }

  /** The read-only skill of that id installed here; throws `not_found` naming the id when there is none. */
  private installedRecord(id: string): SkillRecord {
    const record = this.readOnlyRecord(id);
    if (!record) throw new ToolError('not_found', `No plugin or pack skill '${id}' is installed here; its overlay and hidden state are kept per installed place.`, 'List the skills (agent-skills list) and use an id from there.');
    return record;
  }

  /** The overlay of a read-only entry. */
  overlayOf(entry: CatalogEntry): SkillOverlay {
    return new SkillOverlay({ skillId: this.historyKey(entry), label: entry.id, sourceDir: entry.skillDir, overlayDir: this.overlayDir(entry), store: this.store, files: this.host });
  }

  /** Reads a read-only skill's overlay; a new or changed one (by digest) or one gone changes the catalog's state. */
  private async loadOverlayInfo(r: SkillRecord): Promise<void> {
    const location = path.join(this.overlayDir(r), SKILL_MD);
    const bytes = await readBytesOrNull(this.host, location, MAX_CATALOG_FILE_BYTES).catch(() => null);
    const before = this.overlayInfo.get(r.id)?.ref;
    if (!bytes) {
      if (before !== undefined) this.stateToken = {};
      this.overlayInfo.delete(r.id);
      return;
    }
    if (before !== digestOf(bytes)) this.stateToken = {};
    const parsed = parseSkillFile(bytes.toString('utf8'));
    const diagnostics = validateSkillContent({ parsed, folderName: path.basename(r.rootDir) }).diagnostics;
    const description = typeof parsed.properties.description === 'string' ? parsed.properties.description : '';
    this.overlayInfo.set(r.id, { location, properties: parsed.properties, description, ref: digestOf(bytes), diagnostics });
  }

  private entryOf(r: SkillRecord): CatalogEntry {
    const o = this.overlayInfo.get(r.id);
    const properties = o?.properties ?? r.properties;
    const kind = sourceOf(r.scope);
    return {
      id: r.id,
      name: r.name,
      description: o?.description ?? r.description,
      source: kind.idPrefix,
      origin: kind.idHasSource ? r.root.source : undefined,
      status: r.status,
      writableAtSource: !readOnlyAtSource(r),
      modelInvocationAllowed: String(properties['disable-model-invocation'] ?? '').trim().toLowerCase() !== 'true',
      versionRef: (o?.ref ?? r.digest) as VersionRef,
      skillDir: r.rootDir,
      location: o?.location ?? r.location,
      fromOverlay: o !== undefined,
      properties,
      diagnostics: o?.diagnostics ?? r.diagnostics,
      record: r,
    };
  }

  /**
   * Every visible entry (archived ones left out) with statuses recomputed over what is visible:
   * per name, the non-broken entries of the best scope are `ok` (or `ambiguous` when several tie), the rest `shadowed`.
   */
  entries(): CatalogEntry[] {
    const visible = this.registry.all().filter((r) => !this.isHidden(r)).map((r) => this.entryOf(r));
    const byName = new Map<string, CatalogEntry[]>();
    for (const e of visible) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
    for (const group of byName.values()) settleStatuses(group);
    return visible;
  }

  /** The visible entries of one name, statuses as {@link entries} gives them (without building the others). */
  entriesNamed(name: string): CatalogEntry[] {
    const group = this.registry.recordsNamed(name).filter((r) => !this.isHidden(r)).map((r) => this.entryOf(r));
    settleStatuses(group);
    return group;
  }

  /** The entry for a canonical id, or the one a bare name resolves to by precedence. Throws the registry's typed errors. */
  resolve(nameOrId: string): CatalogEntry {
    const all = this.entries();
    const exact = all.find((e) => e.id === nameOrId);
    if (exact) {
      if (exact.status === 'broken') throw new BrokenSkillError(exact.record);
      return exact;
    }
    const group = all.filter((e) => e.name === nameOrId);
    const ok = group.find((e) => e.status === 'ok');
    if (ok) return ok;
    const tied = group.filter((e) => e.status === 'ambiguous');
    if (tied.length) throw new AmbiguousSkillError(nameOrId, tied.map((e) => e.id), tied.map((e) => e.location));
    if (group.length) throw new BrokenSkillError(group[0].record);
    throw new SkillNotFoundError(nameOrId, suggestNames(nameOrId, new Set(all.map((e) => e.name)).values()));
  }

  /** The effective content of one file of a skill, or null when it does not exist. */
  async readFile(entry: CatalogEntry, relPath: string): Promise<EffectiveContent | null> {
    const rel = normalizeRelativePath(relPath, 'file');
    if (!entry.writableAtSource) return resolveEffectiveFile(entry.skillDir, this.overlayDir(entry), rel, this.host);
    const absPath = await resolveInsideReal(entry.skillDir, rel, 'file', this.host);
    // Never blocks on a FIFO or reads an oversized file: the hosts throw with what those are.
    const content = await readBytesOrNull(this.host, absPath, MAX_CATALOG_FILE_BYTES);
    return content ? { path: rel, content, ref: digestOf(content), origin: 'source', absPath } : null;
  }

  /** Every file of the skill as readers see it, with refs. */
  async files(entry: CatalogEntry): Promise<CatalogFile[]> {
    if (entry.writableAtSource) return (await skillManifest(entry.skillDir, this.host)).files.map((f) => ({ ...f, origin: 'source' as const }));
    const out: CatalogFile[] = [];
    for (const p of await this.overlayOf(entry).listFiles()) {
      const f = await this.readFile(entry, p);
      if (f) out.push({ path: p, size: f.content.length, ref: f.ref, origin: f.origin });
    }
    return out;
  }

  /** The revision history of a skill (optionally one file), oldest first. */
  history(entry: HistoryOwner, file?: string): Promise<RevisionRecord[]> {
    return this.store.history(this.historyKey(entry), file);
  }

  /** What a skill's revisions, overlay and place in the hidden list are kept under: its id and install folder (see {@link HistoryKeys}). */
  historyKey(of: HistoryOwner | SkillRecord): string {
    return this.keys.of(of);
  }

  /** True when the record is a read-only skill this catalog hides (archived, keyed as {@link historyKey} says). */
  private isHidden(r: SkillRecord): boolean {
    return this.hidden.size > 0 && readOnlyAtSource(r) && this.hidden.has(this.historyKey(r));
  }

  /** The folder `create` and `copy` write to for a scope. */
  writableRoot(scope: WritableScope): string | undefined {
    const configured = this.options.writableRoots?.[scope];
    if (configured) return path.resolve(configured);
    const found = this.baseRoots.find((r) => r.scope === scope);
    return found ? path.resolve(found.path) : undefined;
  }

  /** Adds a root (e.g. a writable root that did not exist at open) and rescans. */
  async addRoot(root: SkillRoot): Promise<void> {
    if (this.baseRoots.some((r) => path.resolve(r.path) === path.resolve(root.path))) return;
    this.baseRoots.push(root);
    this.registry.setRoots([...this.baseRoots]);
    await this.refresh();
  }

  /** Ids of this catalog's read-only skills archived (hidden); other projects' entries of the list are not named. */
  hiddenIds(): string[] {
    return this.registry.all().filter((r) => this.isHidden(r)).map((r) => r.id).sort();
  }

  /**
   * Hides or shows a read-only skill (archive / restore of plugin and pack skills, whose source cannot move). A
   * hidden list that cannot be read is never overwritten: the skills it hides would all reappear.
   */
  async setHidden(id: string, hide: boolean): Promise<void> {
    const key = this.historyKey(this.installedRecord(id));
    const read = await this.readHidden();
    if ('problem' in read) {
      throw new ToolError('broken', `${this.hiddenFile()} ${read.problem}, so the list of archived plugin and pack skills cannot be changed; nothing was written.`, 'Tell the user to fix that file (a JSON array of skill ids, such as ["plugin:acme.tools:pdf"]) or delete it, which shows every archived plugin and pack skill again.');
    }
    const next = new Set(read.ids);
    if (hide) next.add(key);
    else next.delete(key);
    await this.host.writeFile(this.hiddenFile(), JSON.stringify([...next].sort(), null, 2) + '\n');
    this.hidden = next;
    this.stateToken = {};
    this.hiddenProblem = undefined;
  }

  /** Why the hidden list could not be read at the last reload (its skills are then shown), if it could not. */
  hiddenProblem: string | undefined;

  private hiddenFile(): string {
    return path.join(this.options.stateDir, 'hidden-skills.json');
  }

  private readHidden(): Promise<{ ids: string[] } | { problem: string }> {
    return readHiddenList(this.host, this.hiddenFile());
  }

  /**
   * The catalog as the skills runtime's `SkillSource`: usable skills with their effective SKILL.md location,
   * and the overlay folder of read-only skills, so a session loads and reads the newest revision of an edited
   * plugin or pack skill. `resolve` throws the registry's typed errors (not found with suggestions, ambiguous
   * with every id, broken), which the runtime turns into messages the model can act on.
   */
  skillSource(): CatalogSkillSource {
    return {
      resolve: (nameOrId) => catalogRecord(this.resolve(nameOrId)),
      list: () => this.entries().filter((e) => e.status === 'ok').map(catalogRecord),
      // The same decision as updateSkill's and archive's: a skill read-only at its source is read through its overlay.
      overlayDir: (skillId) => {
        const r = this.readOnlyRecord(skillId);
        return r ? this.overlayDir(r) : undefined;
      },
      changes: (since) => catalogChanges(this, since),
    };
  }
}
