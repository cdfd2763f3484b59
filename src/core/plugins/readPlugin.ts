// One installed plugin folder, whatever its layout, as the runtime sees it: its manifest, the skill folders
// it contributes (each proven inside the plugin root, links followed: Agent Plugins 1.0 §4.1) and what was
// wrong, with the narrowest failure boundary: a bad manifest rejects the plugin, a bad `skills/` location
// rejects only its skills, a skill that leaves the root or has no SKILL.md is skipped alone (§4.1, §6.2, §7.1).
import * as path from 'node:path';
import { localDisk } from '../host/localDisk';
import { asBuffer, type FileRead, type SyncSkillsHost } from '../host/skillsHost';
import { UnreadableFileError } from '../os/readRegularFile';
import { absolutePath, childPath } from '../paths/absolutePath';
import { resolveInRootOn, type ResolvedPath } from '../paths/resolveInRoot';
import { MAX_MANIFEST_BYTES, readAgentManifest, readStandardManifest, type PluginLayout, type PluginManifest, type PluginProblem } from './pluginManifest';
import { PLUGIN_MANIFESTS } from '../sources/pluginManifestPaths';

/** Where a manifest may be, relative to the plugin folder, in the order they are looked for. */
export const MANIFEST_PATHS: readonly string[] = PLUGIN_MANIFESTS.map((m) => m.rel);

/** Most skills read from one plugin (a plugin is a handful; a hostile one may hold millions of folders). */
export const MAX_PLUGIN_SKILLS = 1000;

/** A folder of skills the plugin contributes, and which of its child folders are vetted skills. */
export interface PluginSkillRoot {
  /** Absolute path of the folder holding skill folders. */
  path: string;
  /** Names of the child folders that are skills of this plugin (inside the root, with a SKILL.md file). */
  skills: string[];
}

/** A plugin folder read. `manifest` is undefined when the plugin is rejected. */
export interface PluginRead {
  /** Absolute path of the plugin folder (as given; links in it are followed when checking containment). */
  root: string;
  layout?: PluginLayout;
  manifest?: PluginManifest;
  skillRoots: PluginSkillRoot[];
  problems: PluginProblem[];
  /** Absolute path of the manifest found (whatever the layout). */
  manifestFile?: string;
  /**
   * For a rejected plugin, the manifest file's device and inode: the same folder reached by two paths has the same.
   * (A loaded plugin is known by its name and version.)
   */
  identity?: string;
}

/** True when `dir` holds a plugin manifest of any known layout (cheap: stats only). */
export function looksLikePlugin(dir: string, files: SyncSkillsHost = localDisk): boolean {
  // `kind` never throws: ENOTDIR (a file given as the folder), EACCES...: not a plugin here.
  return PLUGIN_MANIFESTS.some((m) => files.kind(path.join(dir, m.rel)) === 'file');
}

/** How thoroughly {@link readPlugin} looks. */
export interface ReadPluginOptions {
  /**
   * Discovery: plain child folders of `skills/` are taken as skills without looking for their SKILL.md (the registry
   * reads it, held inside the plugin); a folder without one is then simply not a skill instead of a warning.
   */
  fast?: boolean;
  /** The real path of `root`, when the caller has it already (spares a realpath). */
  realRoot?: string;
  /** Where the plugin is read: the disk by default, any host that answers at once (an in-memory one in tests). */
  files?: SyncSkillsHost;
}

/** Reads the plugin at `root`. Never throws for what is in the folder; problems are returned. */
export function readPlugin(root: string, options: ReadPluginOptions = {}): PluginRead {
  const out: PluginRead = { root: absolutePath(root), skillRoots: [], problems: [] };
  // Plain entries of the root (not links) are inside it by construction, so only links pay for the root's real
  // path (computed once, on first use): a plugin without links costs no realpath at all.
  let realRootCache = options.realRoot;
  const files = options.files ?? localDisk;
  const realRoot = (): string => (realRootCache ??= realPathOf(files, out.root));
  // The standard plugin.json is opened without following a link (a plain file in the root is inside by
  // construction: no lstat first, no realpath); a link, or a host layout's nested manifest, is resolved first.
  let found: (typeof PLUGIN_MANIFESTS)[number] | undefined;
  let text: string | undefined;
  let file = childPath(out.root, 'plugin.json');
  try {
    for (const m of PLUGIN_MANIFESTS) {
      file = childPath(out.root, m.rel);
      const got = readManifest(files, file, m.rel, realRoot);
      if (got === undefined) continue;
      found = m;
      if ('outside' in got) {
        out.layout = m.layout;
        out.problems.push({ file, severity: 'error', rule: 'Agent Plugins 1.0 §4.1', message: `${file} resolves outside the plugin folder (${got.outside}); the plugin is not loaded. Make the manifest a regular file inside the plugin.` });
        return out;
      }
      text = got.text;
      break;
    }
  } catch (e) {
    const why = e instanceof UnreadableFileError ? e.message : `${(e as NodeJS.ErrnoException).code ?? 'error'}: ${(e as Error).message}`;
    out.problems.push({ file, severity: 'error', rule: 'Agent Plugins 1.0 §5.1', message: `${file} cannot be read (${why}); the plugin is not loaded. Make it a readable regular file of at most ${MAX_MANIFEST_BYTES} bytes.` });
    return out;
  }
  if (!found || text === undefined) {
    out.problems.push({ file: path.join(out.root, 'plugin.json'), severity: 'error', rule: 'Agent Plugins 1.0 §4.1', message: `${out.root} is not a plugin: it has no plugin.json (nor .claude-plugin/, .github/plugin/, .plugin/ or .codex-plugin/plugin.json). Add a plugin.json with "$schema" and "name".` });
    return out;
  }
  out.layout = found.layout;
  out.manifestFile = file;
  const read = found.layout === 'agent-plugins' ? readStandardManifest(text, file) : readAgentManifest(text, file, found.layout);
  out.problems.push(...read.problems);
  if (!read.manifest) {
    // A rejected plugin has no name@version to be told apart by: the manifest's device and inode name its folder
    // whatever path reached it, so it is reported once (readPlugins). A valid one is recognised by name and version.
    const st = files.stat(file);
    if (st?.ino !== undefined) out.identity = `${st.dev}:${st.ino}`;
    return out;
  }
  out.manifest = read.manifest;
  const budget = { left: MAX_PLUGIN_SKILLS };
  const ctx: FolderContext = { out, realRoot, budget, options, files };
  try {
    addSkillFolder(ctx, './skills', true);
    for (const p of read.manifest.skillPaths) if (p.replace(/\/$/, '') !== './skills') addSkillFolder(ctx, p, false);
  } catch (e) {
    out.problems.push({ file: out.root, severity: 'error', rule: 'Agent Plugins 1.0 §4.1', message: `${out.root}: its skills cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); they are not loaded.` });
  }
  return out;
}

/** What reading one plugin's skill locations shares. */
interface FolderContext {
  out: PluginRead;
  /** The plugin root's real path (computed on first use: only links need it). */
  realRoot: () => string;
  budget: { left: number };
  options: ReadPluginOptions;
  files: SyncSkillsHost;
}

/**
 * Adds the skills of a location: a folder of skill folders (immediate children only, §7.1), or, for a host
 * manifest's path, a skill folder itself.
 */
function addSkillFolder(ctx: FolderContext, rel: string, fixed: boolean): void {
  const { out, budget, options, files } = ctx;
  const label = path.join(out.root, rel);
  // The fixed skills/ as a plain folder is inside by construction; anything else (a link, a host path) is resolved.
  const skillsDir = childPath(out.root, 'skills');
  const entry = fixed ? files.kind(skillsDir, NO_FOLLOW) : undefined;
  if (fixed && !entry) return; // §6.2: an absent fixed location is not an error.
  const plain = entry === 'directory';
  const loc: ResolvedPath = plain ? { ok: true, rel: 'skills', abs: skillsDir, realRoot: '' } : resolveInRootOn(files, ctx.realRoot(), rel, { rootIsReal: true });
  if (!loc.ok) {
    if (loc.reason === 'not-found' && fixed) return;
    out.problems.push({ file: label, field: fixed ? undefined : 'skills', severity: 'error', rule: 'Agent Plugins 1.0 §4.1', message: `${label}: ${loc.reason === 'not-found' ? 'does not exist' : 'resolves outside the plugin folder'}; its skills are not loaded.` });
    return;
  }
  const real = loc.real ?? loc.abs;
  if (!plain && files.kind(real) !== 'directory') {
    out.problems.push({ file: label, severity: 'error', rule: 'Agent Plugins 1.0 §6.2', message: `${label} is not a folder; its skills are not loaded. Make skills/ a folder of skill folders.` });
    return;
  }
  if (!fixed && isSkillFile(files, ctx.realRoot(), `${loc.rel}/SKILL.md`)) {
    out.skillRoots.push({ path: path.dirname(path.join(out.root, loc.rel)), skills: [path.basename(loc.rel)] });
    budget.left--;
    return;
  }
  const names: string[] = [];
  for (const e of files.readDirectory(real) ?? []) {
    if (e.name.startsWith('.') || !(e.kind === 'directory' || e.kind === 'symlink')) continue;
    if (budget.left <= 0) {
      out.problems.push({ file: label, severity: 'warning', rule: 'runtime limit', message: `${label}: more than ${MAX_PLUGIN_SKILLS} skills; the rest are not loaded.` });
      break;
    }
    // A plain folder (not a link) in a folder already proven inside is inside too, and so is a plain SKILL.md in
    // it: only links need their real path. In `fast` mode (discovery) even the SKILL.md is left to the registry,
    // which opens it without following a link and checks a link's target (loadSkill's readHeld): no realpath per
    // skill, and none per plugin without links.
    if (e.kind === 'directory' && (options.fast || files.kind(path.join(real, e.name, 'SKILL.md'), NO_FOLLOW) === 'file')) {
      names.push(e.name);
      budget.left--;
      continue;
    }
    const skillRel = `${loc.rel}/${e.name}`;
    const skill = resolveInRootOn(files, ctx.realRoot(), skillRel, { rootIsReal: true });
    if (!skill.ok) {
      out.problems.push({ file: path.join(label, e.name), severity: 'error', rule: 'Agent Plugins 1.0 §4.1', message: `${path.join(label, e.name)} resolves outside the plugin folder; the skill is skipped. Keep skills inside the plugin.` });
      continue;
    }
    if (!isSkillFile(files, ctx.realRoot(), `${skillRel}/SKILL.md`)) {
      if (files.kind(skill.real ?? skill.abs) === 'directory') {
        out.problems.push({ file: path.join(label, e.name, 'SKILL.md'), severity: 'warning', rule: 'Agent Plugins 1.0 §7.1', message: `${path.join(label, e.name)} has no SKILL.md regular file inside the plugin; it is not a skill. Add SKILL.md or move the folder out of skills/.` });
      }
      continue;
    }
    names.push(e.name);
    budget.left--;
  }
  names.sort();
  out.skillRoots.push({ path: plain ? skillsDir : path.join(out.root, loc.rel), skills: names });
}

/**
 * The text of the manifest at `file` (`rel` inside the plugin), undefined when there is none, or where a link
 * leads when it leaves the plugin. Throws for a manifest that is there but cannot be read.
 */
function readManifest(files: SyncSkillsHost, file: string, rel: string, realRoot: () => string): { text: string } | { outside: string } | undefined {
  const text = (r: FileRead) => ({ text: asBuffer(r.bytes).toString('utf8') });
  if (rel === 'plugin.json') {
    try {
      // No stamp needed (one system call fewer per plugin): see `identity` for the one case that wants the inode.
      const read = files.readFile(file, { maxBytes: MAX_MANIFEST_BYTES, noFollow: true, stampless: true });
      return read && text(read);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ELOOP') throw e;
    }
  } else if (!files.kind(file, NO_FOLLOW)) return undefined;
  const where = resolveInRootOn(files, realRoot(), rel, { rootIsReal: true });
  if (!where.ok) {
    if (where.reason === 'not-found') return undefined;
    return { outside: where.reason };
  }
  const read = files.readFile(where.real ?? where.abs, { maxBytes: MAX_MANIFEST_BYTES });
  return read && text(read);
}

/** A `SKILL.md` that is a regular file whose real path lies in the plugin (§7.1, §4.1); `realRoot` is a real path. */
function isSkillFile(files: SyncSkillsHost, realRoot: string, rel: string): boolean {
  const r = resolveInRootOn(files, realRoot, rel, { rootIsReal: true });
  return r.ok && files.kind(r.real ?? r.abs) === 'file';
}

const NO_FOLLOW = { noFollow: true } as const;

/** The real path of a plugin root; throws ENOENT (the caller reports the plugin's skills as unreadable). */
function realPathOf(files: SyncSkillsHost, p: string): string {
  const real = files.realPath(p);
  if (real === undefined) throw Object.assign(new Error(`ENOENT: ${p} cannot be resolved`), { code: 'ENOENT' });
  return real;
}
