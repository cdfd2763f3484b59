import type { SkillRecord } from '../registry/registryTypes';
import type { SkillDiagnostic } from '../skill/skillTypes';
import type { VersionRef } from '../edit/versionRef';

/** Where a catalog skill comes from: its source kind's id prefix (`workspace`, `user`, `plugin`, `pack`), the first segment of its canonical id. */
export type CatalogSource = string;

/** Scopes a new skill (create, copy) can be written to: source kinds that are not read-only. */
export type WritableScope = 'workspace' | 'user';

/** What a skill's revision history is keyed by (see SkillCatalog.historyKey). */
export type HistoryOwner = Pick<CatalogEntry, 'id' | 'skillDir' | 'writableAtSource'>;

/** One skill as the catalog serves it: the registry record with the newest revision applied. */
export interface CatalogEntry {
  /** Canonical id: `workspace:<name>`, `user:<name>`, `plugin:<source>:<name>`, `pack:<source>:<name>`. */
  id: string;
  name: string;
  description: string;
  source: CatalogSource;
  /** The root's source when the kind's ids carry one: the contributing extension id, the pack name. */
  origin?: string;
  status: SkillRecord['status'];
  /** True when edits are written into the skill folder itself (workspace, user); false for plugin and pack skills, which are edited through the revision overlay. */
  writableAtSource: boolean;
  /** False when the frontmatter says `disable-model-invocation: true`. */
  modelInvocationAllowed: boolean;
  /** Version ref of the effective SKILL.md (overlay copy when there is one). */
  versionRef: VersionRef;
  /** The skill folder at its source. */
  skillDir: string;
  /** Path of the effective SKILL.md: the overlay copy when edited, the source file otherwise. */
  location: string;
  /** True when SKILL.md is served from the overlay (the skill has overlay edits). */
  fromOverlay: boolean;
  /** Frontmatter of the effective SKILL.md (scalars as strings). */
  properties: Record<string, unknown>;
  diagnostics: SkillDiagnostic[];
  /** The registry record this entry is built from (source content). */
  record: SkillRecord;
}

/** A skill pack to mount: an archive path or an http(s) URL (.zip, .tar, .tar.gz, .tgz). */
export interface PackSpec {
  source: string;
  /** Source part of the ids (`pack:<name>:<skill>`); default: the archive file name without extension. */
  name?: string;
  /** Hex sha256 the archive must have. */
  sha256?: string;
  /** Hosts (`name` or `name:port`) a redirect of this pack's URL may lead to besides the URL's own (none by default). */
  redirectHosts?: string[];
}

/**
 * What `runSkill run` needs from a chat session: put the skill into the session's loaded skills.
 * The skills runtime satisfies it through {@link runtimeSessionLoader}; hosts without sessions omit it.
 */
export interface SessionLoader {
  /** Loads the skill (by canonical id) into the session; rejects with a message the model can act on. */
  loadIntoSession(sessionId: string, skillId: string): Promise<unknown>;
  /** Ids (or names) of the skills loaded in the session, for `list` with `activeOnly`. */
  activeSkills?(sessionId: string): readonly string[] | Promise<readonly string[]>;
}

/** Per-call facts the host passes with a tool invocation. */
export interface CatalogCall {
  sessionId?: string;
}
