// The skills of the catalog as MCP resources, per the Skills Extension's final text (SEP-2640): every file of a
// usable skill is `skill://<name>/<path>` with its size and sha256 digest; `skills/list` and `skills/get` give
// each skill's entry (frontmatter and the complete {uri, digest} set); `resources/directory/read` lists one
// folder. Reads resolve only to files in the skill's manifest (the spec's "complete" resource set), so a path
// that is not a listed file is refused before anything touches the disk.
import mime from 'mime-types';
import { parseDocument } from 'yaml';
import type { Resource } from '@modelcontextprotocol/server';
import type { CatalogEntry } from '../../core/catalog/catalogTypes';
import type { CatalogFile } from '../../core/catalog/skillCatalog';
import type { SkillCatalog } from '../../core/catalog/skillCatalog';
import { digestOf } from '../../core/edit/versionRef';
import { invalidParams, resourceNotFound, type RequestError } from './requestError';
import { parseSkillUri, skillFileUri, SkillUriError } from '../../core/mcp/skillUri';
import { compareStrings } from '../../core/text/compareStrings';
import { parseSkillText } from '../../core/skill/parseSkillText';
import { pageOf, type Page } from './pagination';

/** The extension's identifier, as declared under `capabilities.extensions`. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
/** `_meta` key of a file's digest on each resource (the extension reserves this prefix). */
export const DIGEST_META_KEY = 'io.modelcontextprotocol.skills/digest';
/** Largest file served by `resources/read`; larger ones are refused with their size. */
export const MAX_RESOURCE_BYTES = 16 * 1024 * 1024;
/** SEP-2640 Limits: most files one skill entry lists (SKILL.md included) and their total size. */
export const MAX_SKILL_FILES = 512;
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;
/** Page sizes: resources per `resources/list` (and directory) page; skills and their files per `skills/list` page. */
export const RESOURCES_PAGE = 1000;
export const SKILLS_PAGE = 100;
export const SKILLS_PAGE_FILES = 2048;

/** One entry of `skills/list` / `skills/get`. */
export interface SkillListEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string; size: number }[];
}

/** The content of one `resources/read`. */
export interface ReadContent {
  uri: string;
  mimeType: string;
  text?: string;
  blob?: string;
  _meta: Record<string, unknown>;
}

const invalid = invalidParams;

/**
 * A file's place in a skill's listing as a string that sorts like the listing (SKILL.md first, then by path), so a
 * cursor resumes after the file it names (pagination.ts); prefixed by the skill's name in `resources/list`.
 */
const fileKey = (relPath: string) => (relPath === 'SKILL.md' ? '\u0000' : `\u0000\u0001${relPath}`);

function mimeOf(relPath: string): string {
  if (/(^|\/)SKILL\.md$/i.test(relPath) || /\.md$/i.test(relPath)) return 'text/markdown';
  return mime.lookup(relPath) || 'application/octet-stream';
}

/** Bytes that are UTF-8 text without NULs are served as `text`, everything else as a base64 `blob`. */
function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  const text = bytes.toString('utf8');
  return Buffer.byteLength(text, 'utf8') === bytes.length && !text.includes('\uFFFD') ? text : undefined;
}

/** Skill files as resources over one catalog; manifests are cached until {@link invalidate} (the watcher calls it). */
export class SkillResources {
  private readonly manifests = new Map<string, { key: string; files: Promise<CatalogFile[]> }>();
  private readonly frontmatters = new Map<string, { key: string; data: Promise<Record<string, unknown>> }>();

  constructor(private readonly catalog: SkillCatalog) {}

  /** Forgets every cached manifest (files changed on disk). */
  invalidate(): void {
    this.manifests.clear();
    this.frontmatters.clear();
  }

  /**
   * The SKILL.md frontmatter as its author wrote it, as JSON (numbers, booleans, nulls, lists and maps kept:
   * the extension's "verbatim"), where the catalog's properties hold every scalar as a string. The YAML already
   * passed the core's bounded parse; this second parse only types its scalars. Falls back to the catalog's
   * properties when the file cannot be read or parsed again.
   */
  private frontmatter(entry: CatalogEntry): Promise<Record<string, unknown>> {
    const key = `${entry.id}|${entry.versionRef}|${entry.skillDir}`;
    const cached = this.frontmatters.get(entry.id);
    if (cached?.key === key) return cached.data;
    const data = this.catalog.readFile(entry, 'SKILL.md').then((file) => {
      const yaml = file ? parseSkillText(file.content.toString('utf8')).frontmatter : undefined;
      if (!yaml?.yamlOk || !yaml.isMapping) return entry.properties;
      const doc = parseDocument(yaml.yaml, { schema: 'core', uniqueKeys: true, strict: true, logLevel: 'silent' });
      if (doc.errors.length) return entry.properties;
      const js = doc.toJS({ maxAliasCount: 0 }) as unknown;
      return typeof js === 'object' && js !== null && !Array.isArray(js) ? (JSON.parse(JSON.stringify(js)) as Record<string, unknown>) : entry.properties;
    });
    data.catch(() => this.frontmatters.delete(entry.id));
    this.frontmatters.set(entry.id, { key, data });
    return data;
  }

  /** The skills served: usable catalog entries, one per name, by name. */
  skills(): CatalogEntry[] {
    return this.catalog
      .entries()
      .filter((e) => e.status === 'ok')
      .sort((a, b) => compareStrings(a.name, b.name));
  }

  private entry(name: string, uri: string, notFound: (uri: string, message: string) => RequestError = (_u, m) => invalid(m)): CatalogEntry {
    const e = this.skills().find((s) => s.name === name);
    if (!e) throw notFound(uri, `Resource ${uri}: no skill named '${name}' is served here. Call skills/list (or resources/list) for the served skills.`);
    return e;
  }

  /** The skill's files with size and digest (SKILL.md first). */
  files(entry: CatalogEntry): Promise<CatalogFile[]> {
    const key = `${entry.id}|${entry.versionRef}|${entry.skillDir}`;
    const cached = this.manifests.get(entry.id);
    if (cached?.key === key) return cached.files;
    const files = this.catalog.files(entry).then((list) => [...list].sort((a, b) => (a.path === 'SKILL.md' ? -1 : b.path === 'SKILL.md' ? 1 : a.path < b.path ? -1 : 1)));
    files.catch(() => this.manifests.delete(entry.id));
    this.manifests.set(entry.id, { key, files });
    return files;
  }

  private resourceOf(entry: CatalogEntry, f: CatalogFile): Resource {
    const isSkillFile = f.path === 'SKILL.md';
    return {
      uri: skillFileUri(entry.name, f.path),
      name: isSkillFile ? entry.name : `${entry.name}/${f.path}`,
      ...(isSkillFile ? { description: entry.description } : { description: `File ${f.path} of skill ${entry.name}.` }),
      mimeType: mimeOf(f.path),
      size: f.size,
      _meta: { [DIGEST_META_KEY]: f.ref },
    };
  }

  /** One page of the files of every served skill (`resources/list`). */
  async listResources(cursor?: unknown): Promise<Page<Resource>> {
    // Only the page's resources are built: a skill of 100,000 files built them all for each of its 101 pages.
    const all: Array<readonly [CatalogEntry, CatalogFile]> = [];
    for (const e of this.skills()) for (const f of await this.files(e)) all.push([e, f]);
    const page = pageOf('resources', all, cursor, 'resources/list', { maxItems: RESOURCES_PAGE, keyOf: ([e, f]) => `${e.name}${fileKey(f.path)}` });
    return { ...page, items: page.items.map(([e, f]) => this.resourceOf(e, f)) };
  }

  /** Why a skill is not served as an entry (past a SEP-2640 limit), or undefined. */
  private overLimit(entry: CatalogEntry, files: readonly CatalogFile[]): string | undefined {
    if (files.length > MAX_SKILL_FILES) return `skill '${entry.name}' has ${files.length} files, more than the ${MAX_SKILL_FILES} a skill served over MCP may have (Skills Extension limits); split it or remove files from ${entry.skillDir}.`;
    const total = files.reduce((n, f) => n + f.size, 0);
    if (total > MAX_SKILL_BYTES) return `skill '${entry.name}' holds ${total} bytes, more than the ${MAX_SKILL_BYTES} a skill served over MCP may hold (Skills Extension limits); move large files out of ${entry.skillDir}.`;
    return undefined;
  }

  /** The extension's entry for one skill. */
  async skillEntry(entry: CatalogEntry): Promise<SkillListEntry> {
    const files = await this.files(entry);
    return {
      uri: skillFileUri(entry.name, 'SKILL.md'),
      frontmatter: await this.frontmatter(entry),
      resources: files.map((f) => ({ uri: skillFileUri(entry.name, f.path), digest: f.ref, size: f.size })),
    };
  }

  /**
   * `skills/list`: one page of entries (never splitting an entry). A skill past the extension's limits is left
   * out: no conforming host is bound to load it (its files stay readable as resources).
   */
  async listSkills(cursor?: unknown): Promise<Page<SkillListEntry>> {
    // Entries are built for the page only (their files are counted from the cached manifests).
    const served: Array<readonly [CatalogEntry, number]> = [];
    for (const e of this.skills()) {
      const files = await this.files(e);
      if (!this.overLimit(e, files)) served.push([e, files.length]);
    }
    const page = pageOf('skills', served, cursor, 'skills/list', { maxItems: SKILLS_PAGE, weight: ([, n]) => n, maxWeight: SKILLS_PAGE_FILES, keyOf: ([e]) => e.name });
    return { ...page, items: await Promise.all(page.items.map(([e]) => this.skillEntry(e))) };
  }

  /** `skills/get`: the entry for a SKILL.md URI; -32602 for anything else. */
  async getSkill(uri: string): Promise<SkillListEntry> {
    const parsed = this.parse(uri);
    if (parsed.path !== 'SKILL.md') throw invalid(`skills/get needs the URI of a skill's SKILL.md (skill://<name>/SKILL.md), not ${uri}.`);
    const entry = this.entry(parsed.skill, uri);
    const tooBig = this.overLimit(entry, await this.files(entry));
    if (tooBig) throw invalid(`skills/get ${uri}: not served as a skill: ${tooBig}`);
    return this.skillEntry(entry);
  }

  private parse(uri: string) {
    try {
      return parseSkillUri(uri);
    } catch (e) {
      if (e instanceof SkillUriError) throw invalid(e.message);
      throw e;
    }
  }

  /** `resources/read` of one skill file: only a file in the skill's manifest, at most {@link MAX_RESOURCE_BYTES}. */
  async read(uri: string): Promise<ReadContent> {
    const { skill, path: rel } = this.parse(uri);
    const entry = this.entry(skill, uri, resourceNotFound);
    if (!rel) throw resourceNotFound(uri, `Resource ${uri} is the skill's folder, not a file: read skill://${skill}/SKILL.md, or list the folder with resources/directory/read.`);
    const listed = (await this.files(entry)).find((f) => f.path === rel);
    if (!listed) throw resourceNotFound(uri, `Resource ${uri}: skill '${skill}' has no file '${rel}'. Call skills/get for skill://${skill}/SKILL.md to see its files.`);
    if (listed.size > MAX_RESOURCE_BYTES) throw invalid(`Resource ${uri} is ${listed.size} bytes, more than the ${MAX_RESOURCE_BYTES} bytes served over MCP; read it from the skill folder instead.`);
    const content = await this.catalog.readFile(entry, rel);
    if (!content) throw resourceNotFound(uri, `Resource ${uri}: the file is gone since the skill was listed. Call skills/get again.`);
    if (content.content.length > MAX_RESOURCE_BYTES) throw invalid(`Resource ${uri} grew past ${MAX_RESOURCE_BYTES} bytes; it is not served over MCP.`);
    const digest = digestOf(content.content);
    // The manifest was stale: drop it so the next listing carries the digest just served.
    if (digest !== listed.ref) this.manifests.delete(entry.id);
    const text = asText(content.content);
    const meta = { [DIGEST_META_KEY]: digest };
    const mimeType = mimeOf(rel);
    return text !== undefined ? { uri, mimeType, text, _meta: meta } : { uri, mimeType, blob: content.content.toString('base64'), _meta: meta };
  }

  /** `resources/directory/read`: one page of the direct children of the skill root or one of its folders. */
  async directory(uri: string, cursor?: unknown): Promise<Page<Resource>> {
    const { skill, path: rel } = this.parse(uri);
    const entry = this.entry(skill, uri);
    const files = await this.files(entry);
    const prefix = rel ? `${rel}/` : '';
    if (rel && !files.some((f) => f.path.startsWith(prefix))) throw invalid(`Resource ${uri} is not a folder of skill '${skill}'. Call skills/get for its files.`);
    const out: Resource[] = [];
    const keys = new Map<Resource, string>();
    const dirs = new Set<string>();
    for (const f of files) {
      if (!f.path.startsWith(prefix)) continue;
      const rest = f.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) {
        const r = this.resourceOf(entry, f);
        keys.set(r, fileKey(f.path));
        out.push(r);
      }
      else dirs.add(rest.slice(0, slash));
    }
    for (const d of [...dirs].sort()) out.push({ uri: skillFileUri(skill, prefix + d), name: d, mimeType: 'inode/directory' });
    // Files first (in the manifest's order), then folders: a folder's key sorts after every file's.
    return pageOf(`dir:${uri}`, out, cursor, 'resources/directory/read', { maxItems: RESOURCES_PAGE, keyOf: (r) => keys.get(r) ?? `\u0002${r.name}` });
  }
}
