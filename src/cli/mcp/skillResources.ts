// The skills of the catalog as MCP resources, per the Skills Extension's final text (SEP-2640): every file of a
// usable skill is `skill://<name>/<path>` with its size and sha256 digest; `skills/list` and `skills/get` give
// each skill's entry (frontmatter and the complete {uri, digest} set); `resources/directory/read` lists one
// folder. Reads resolve only to files in the skill's manifest (the spec's "complete" resource set), so a path
// that is not a listed file is refused before anything touches the disk.
import mime from 'mime-types';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogEntry } from '../../core/catalog/catalogTypes';
import type { CatalogFile } from '../../core/catalog/skillCatalog';
import type { SkillCatalog } from '../../core/catalog/skillCatalog';
import { digestOf } from '../../core/edit/versionRef';
import { invalidParams } from './requestError';
import { parseSkillUri, skillFileUri, SkillUriError } from '../../core/mcp/skillUri';
import { compareStrings } from '../../core/text/compareStrings';

/** The extension's identifier, as declared under `capabilities.extensions`. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
/** `_meta` key of a file's digest on each resource (the extension reserves this prefix). */
export const DIGEST_META_KEY = 'io.modelcontextprotocol.skills/digest';
/** Largest file served by `resources/read`; larger ones are refused with their size. */
export const MAX_RESOURCE_BYTES = 16 * 1024 * 1024;

/** One entry of `skills/list` / `skills/get`. */
export interface SkillListEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: { uri: string; digest: string }[];
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

  constructor(private readonly catalog: SkillCatalog) {}

  /** Forgets every cached manifest (files changed on disk). */
  invalidate(): void {
    this.manifests.clear();
  }

  /** The skills served: usable catalog entries, one per name, by name. */
  skills(): CatalogEntry[] {
    return this.catalog
      .entries()
      .filter((e) => e.status === 'ok')
      .sort((a, b) => compareStrings(a.name, b.name));
  }

  private entry(name: string, uri: string): CatalogEntry {
    const e = this.skills().find((s) => s.name === name);
    if (!e) throw invalid(`Resource ${uri}: no skill named '${name}' is served here. Call skills/list (or resources/list) for the served skills.`);
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

  /** Every file of every served skill (`resources/list`). */
  async listResources(): Promise<Resource[]> {
    const out: Resource[] = [];
    for (const e of this.skills()) for (const f of await this.files(e)) out.push(this.resourceOf(e, f));
    return out;
  }

  /** The extension's entry for one skill. */
  async skillEntry(entry: CatalogEntry): Promise<SkillListEntry> {
    const files = await this.files(entry);
    return {
      uri: skillFileUri(entry.name, 'SKILL.md'),
      frontmatter: entry.properties,
      resources: files.map((f) => ({ uri: skillFileUri(entry.name, f.path), digest: f.ref })),
    };
  }

  /** `skills/list`: every served skill (the catalog is bounded, so the listing is complete and unpaged). */
  async listSkills(): Promise<SkillListEntry[]> {
    return Promise.all(this.skills().map((e) => this.skillEntry(e)));
  }

  /** `skills/get`: the entry for a SKILL.md URI; -32602 for anything else. */
  async getSkill(uri: string): Promise<SkillListEntry> {
    const parsed = this.parse(uri);
    if (parsed.path !== 'SKILL.md') throw invalid(`skills/get needs the URI of a skill's SKILL.md (skill://<name>/SKILL.md), not ${uri}.`);
    return this.skillEntry(this.entry(parsed.skill, uri));
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
    const entry = this.entry(skill, uri);
    if (!rel) throw invalid(`Resource ${uri} is the skill's folder, not a file: read skill://${skill}/SKILL.md, or list the folder with resources/directory/read.`);
    const listed = (await this.files(entry)).find((f) => f.path === rel);
    if (!listed) throw invalid(`Resource ${uri}: skill '${skill}' has no file '${rel}'. Call skills/get for skill://${skill}/SKILL.md to see its files.`);
    if (listed.size > MAX_RESOURCE_BYTES) throw invalid(`Resource ${uri} is ${listed.size} bytes, more than the ${MAX_RESOURCE_BYTES} bytes served over MCP; read it from the skill folder instead.`);
    const content = await this.catalog.readFile(entry, rel);
    if (!content) throw invalid(`Resource ${uri}: the file is gone since the skill was listed. Call skills/get again.`);
    if (content.content.length > MAX_RESOURCE_BYTES) throw invalid(`Resource ${uri} grew past ${MAX_RESOURCE_BYTES} bytes; it is not served over MCP.`);
    const digest = digestOf(content.content);
    // The manifest was stale: drop it so the next listing carries the digest just served.
    if (digest !== listed.ref) this.manifests.delete(entry.id);
    const text = asText(content.content);
    const meta = { [DIGEST_META_KEY]: digest };
    const mimeType = mimeOf(rel);
    return text !== undefined ? { uri, mimeType, text, _meta: meta } : { uri, mimeType, blob: content.content.toString('base64'), _meta: meta };
  }

  /** `resources/directory/read`: the direct children of the skill root or one of its folders. */
  async directory(uri: string): Promise<Resource[]> {
    const { skill, path: rel } = this.parse(uri);
    const entry = this.entry(skill, uri);
    const files = await this.files(entry);
    const prefix = rel ? `${rel}/` : '';
    if (rel && !files.some((f) => f.path.startsWith(prefix))) throw invalid(`Resource ${uri} is not a folder of skill '${skill}'. Call skills/get for its files.`);
    const out: Resource[] = [];
    const dirs = new Set<string>();
    for (const f of files) {
      if (!f.path.startsWith(prefix)) continue;
      const rest = f.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) out.push(this.resourceOf(entry, f));
      else dirs.add(rest.slice(0, slash));
    }
    for (const d of [...dirs].sort()) out.push({ uri: skillFileUri(skill, prefix + d), name: d, mimeType: 'inode/directory' });
    return out;
  }
}
