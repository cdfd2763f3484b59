// Plugin scope (issue 2, seed 002's `<plugin-root>/skills/*/SKILL.md`): which skills an installed package
// (a VS Code extension) contributes, read from its manifest. Only packages that opt in are looked at:
//   contributes.chatSkills: [{ path }]   VS Code's own contribution point; `path` names a skill's SKILL.md
//                                        (a skill folder is accepted too), relative to the package root.
//   agentSkills: { skills: "./skills" }  a folder (or list of folders) whose direct child folders are skills.
// Nothing else in a package folder is scanned.
import { resolveInRootOn } from '../paths/resolveInRoot';
import * as path from 'node:path';
import { z } from 'zod';
import { FILE_WRITE_METHODS } from '../host/fileWrites';
import { localDisk } from '../host/localDisk';
import type { DirEntry, FileRead, FileStamp, MaybePromise, SkillsHost, SyncSkillsHost } from '../host/skillsHost';

/** One installed package as the host knows it. */
export interface PluginPackage {
  /** The package id (`publisher.name` for a VS Code extension): the `<source>` of its skills' ids. */
  id: string;
  /** Absolute path of the package's root folder. */
  root: string;
  /** The parsed package.json (untrusted). */
  manifest: unknown;
}

/** The skills packages contribute, ready for `defaultSkillRoots({ pluginRoots })` and {@link pluginRegistryHost}. */
export interface PluginContributions {
  /** Folders holding skill folders, each with the contributing package id as `source`. */
  roots: { path: string; source: string }[];
  /**
   * Roots that hold skills contributed one by one (`chatSkills`): only these child folders are skills there.
   * A root absent from the map (an `agentSkills.skills` folder) contributes every child folder.
   */
  only: Map<string, Set<string>>;
  /** Skill folders contributed through `chatSkills` (VS Code's built-in skill support lists those itself). */
  chatSkillDirs: string[];
  /** Manifest entries that were not used, each naming the package, the field and what to do. */
  problems: string[];
}

const chatSkillSchema = z.object({ path: z.string().min(1) }).loose();
const manifestSchema = z
  .object({
    contributes: z.object({ chatSkills: z.unknown().optional() }).loose().optional(),
    agentSkills: z.unknown().optional(),
  })
  .loose();
const agentSkillsSchema = z.object({ skills: z.union([z.string().min(1), z.array(z.string().min(1))]) }).loose();

/** SKILL.md (or skill.md, which the registry reads when SKILL.md is absent). */
function isSkillFileName(name: string): boolean {
  return name.toLowerCase() === 'skill.md';
}

/**
 * Maps installed packages to plugin roots. Packages without `contributes.chatSkills` or `agentSkills` cost one
 * object check and no disk access; for the others, each declared path is checked to exist inside the package.
 * Packages are taken in the order given; a root claimed twice keeps its first package.
 */
export function pluginContributions(packages: readonly PluginPackage[], files: Pick<SyncSkillsHost, 'kind' | 'realPath'> = localDisk): PluginContributions {
  const kind = (p: string) => files.kind(p);
  /** The declared path under the package's folder when the path rule keeps it there (links followed), else undefined. */
  const within = (base: string, rel: string): string | undefined => {
    const r = resolveInRootOn(files, base, rel, { mustExist: false, allowRoot: true });
    // Keep the package's own spelling of its folder (it may be reached through a link): the rule decided, not its path.
    return r.ok ? path.join(base, ...r.rel.split('/').filter(Boolean)) : undefined;
  };
  const out: PluginContributions = { roots: [], only: new Map(), chatSkillDirs: [], problems: [] };
  const whole = new Set<string>();
  const owner = new Map<string, string>();
  const claim = (root: string, source: string, field: string): boolean => {
    const prev = owner.get(root);
    if (prev !== undefined && prev !== source) {
      out.problems.push(`Extension '${source}' package.json ${field}: ${root} is already contributed by '${prev}'; ignored.`);
      return false;
    }
    if (prev === undefined) {
      owner.set(root, source);
      out.roots.push({ path: root, source });
    }
    return true;
  };
  for (const pkg of packages) {
    const parsed = manifestSchema.safeParse(pkg.manifest);
    if (!parsed.success) continue;
    const { contributes, agentSkills } = parsed.data;
    if (contributes?.chatSkills === undefined && agentSkills === undefined) continue;
    const base = path.resolve(pkg.root);
    const where = (field: string) => `Extension '${pkg.id}' package.json ${field}`;

    if (agentSkills !== undefined) {
      const a = agentSkillsSchema.safeParse(agentSkills);
      if (!a.success) out.problems.push(`${where('agentSkills')}: expected { "skills": "./skills" } (a folder or a list of folders of skill folders); ignored.`);
      else {
        const folders = typeof a.data.skills === 'string' ? [a.data.skills] : a.data.skills;
        folders.forEach((rel, i) => {
          const field = typeof a.data.skills === 'string' ? 'agentSkills.skills' : `agentSkills.skills[${i}]`;
          const abs = within(base, rel);
          if (abs === undefined) out.problems.push(`${where(field)}: '${rel}' resolves outside the extension folder; use a path inside it such as "./skills".`);
          else if (kind(abs) !== 'directory') out.problems.push(`${where(field)}: '${rel}' is not a folder in ${base}; create it or fix the path.`);
          else if (claim(abs, pkg.id, field)) {
            whole.add(abs);
            out.only.delete(abs);
          }
        });
      }
    }

    const entries = contributes?.chatSkills;
    if (entries === undefined) continue;
    if (!Array.isArray(entries)) {
      out.problems.push(`${where('contributes.chatSkills')}: expected an array of { "path": "./skills/<name>/SKILL.md" }; ignored.`);
      continue;
    }
    entries.forEach((raw: unknown, i) => {
      const field = `contributes.chatSkills[${i}].path`;
      const e = chatSkillSchema.safeParse(raw);
      if (!e.success) {
        out.problems.push(`${where(`contributes.chatSkills[${i}]`)}: expected { "path": "./skills/<name>/SKILL.md" }; ignored.`);
        return;
      }
      const abs = within(base, e.data.path);
      if (abs === undefined) {
        out.problems.push(`${where(field)}: '${e.data.path}' resolves outside the extension folder; point it at a SKILL.md inside the extension.`);
        return;
      }
      const k = kind(abs);
      let skillDir: string;
      if (k === 'file' && isSkillFileName(path.basename(abs))) skillDir = path.dirname(abs);
      else if (k === 'directory') skillDir = abs;
      else {
        out.problems.push(
          k === 'file'
            ? `${where(field)}: '${e.data.path}' is not a SKILL.md; a skill is a folder holding SKILL.md, so point the path at that file.`
            : `${where(field)}: '${e.data.path}' does not exist in ${base}; fix the path or ship the file.`,
        );
        return;
      }
      if (skillDir === base) {
        out.problems.push(`${where(field)}: '${e.data.path}' is at the extension's root; put the skill in its own folder (e.g. ./skills/<name>/SKILL.md).`);
        return;
      }
      const root = path.dirname(skillDir);
      if (!claim(root, pkg.id, field)) return;
      out.chatSkillDirs.push(skillDir);
      if (whole.has(root)) return;
      const set = out.only.get(root) ?? new Set<string>();
      set.add(path.basename(skillDir));
      out.only.set(root, set);
    });
  }
  return out;
}

/**
 * A registry host that sees, in each root of `only()`, just the listed child folders: the registry then finds
 * exactly the skills a package contributed one by one, not their siblings. `only` is read on every call, so
 * the host follows packages being installed and removed. Writes go to `base` unfiltered.
 */
export function pluginRegistryHost<H extends SkillsHost>(base: H, only: () => ReadonlyMap<string, ReadonlySet<string>>): H {
  // Whether `p` lies below a filtered root in a child folder that is not contributed.
  const hidden = (p: string): boolean => {
    for (const [root, names] of only()) {
      if (p.length > root.length + 1 && p.startsWith(root) && p[root.length] === path.sep) {
        const rest = p.slice(root.length + 1);
        const i = rest.indexOf(path.sep);
        if (!names.has(i < 0 ? rest : rest.slice(0, i))) return true;
      }
    }
    return false;
  };
  const filtered: SkillsHost = {
    readDirectory(dir): MaybePromise<DirEntry[] | undefined> {
      if (hidden(dir)) return undefined;
      const names = only().get(dir);
      const listed = base.readDirectory(dir);
      if (!names) return listed;
      const keep = (entries: DirEntry[] | undefined) => entries?.filter((e) => names.has(e.name));
      return listed instanceof Promise ? listed.then(keep) : keep(listed);
    },
    stat(file, options): MaybePromise<FileStamp | undefined> {
      return hidden(file) ? undefined : base.stat(file, options);
    },
    readFile(file, options): MaybePromise<FileRead | undefined> {
      return hidden(file) ? undefined : base.readFile(file, options);
    },
    kind: (p, options) => (hidden(p) ? undefined : base.kind(p, options)),
    realPath: (p) => (hidden(p) ? undefined : base.realPath(p)),
  };
  // Answers as `base` does (at once when it does), so the result is a host of the same kind: reads filtered, and
  // whatever writes `base` has passed on by name (a spread would miss the methods of a host written as a class).
  const out: Record<string, unknown> = { ...filtered, local: base.local };
  for (const m of FILE_WRITE_METHODS) {
    const write = (base as unknown as Partial<Record<string, unknown>>)[m];
    if (typeof write === 'function') out[m] = write.bind(base);
  }
  return out as unknown as H;
}
