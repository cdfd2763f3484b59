// Skills published together (a collection repository, a plugin's skills/ folder) often point to each other:
// `../other-skill/SKILL.md`, or a script of another skill. Installers put every skill of a collection side by
// side under one skills folder (.claude/skills/<name>, .agents/skills/<name>), so such a path works when the other
// skill is installed too, and breaks when this one is installed alone. A plugin is installed whole. This module
// tells which case a path is in; the reference rules word the finding.
import * as path from 'node:path';
import { answerOrUndefined, resolvedEntries, type SkillsHost } from '../host/skillsHost';
import { PLUGIN_MANIFESTS } from '../sources/pluginManifestPaths';

/** Most sibling folders looked into for a path missing from the skill (a skills folder of a large catalog is not searched). */
export const MAX_SIBLINGS_SEARCHED = 256;

/** What the linter knows about the skills beside one skill folder, looked up once per skill. */
export class SiblingSkills {
  private readonly parent: string;
  private inPlugin?: Promise<boolean>;
  private skills?: Promise<string[]>;

  constructor(private readonly host: SkillsHost, private readonly rootDir: string) {
    this.parent = path.dirname(rootDir);
  }

  /** True when the skill is in a plugin's `skills/` folder: the host installs the plugin whole, siblings included. */
  installedWhole(): Promise<boolean> {
    this.inPlugin ??= (async () => {
      if (path.basename(this.parent) !== 'skills') return false;
      const pluginRoot = path.dirname(this.parent);
      for (const m of PLUGIN_MANIFESTS) if ((await answerOrUndefined(() => this.host.kind(path.join(pluginRoot, m.rel)))) === 'file') return true;
      return false;
    })();
    return this.inPlugin;
  }

  /**
   * The sibling skill a path relative to the skill folder lands in (`../other/x.md` when `../other/SKILL.md` is a
   * file and `../other/x.md` exists), or undefined.
   */
  async holding(rel: string): Promise<string | undefined> {
    const norm = path.posix.normalize(rel);
    const m = /^\.\.\/([^/]+)\/./.exec(norm);
    if (!m || m[1] === '..' || m[1] === path.basename(this.rootDir)) return undefined;
    return (await this.isSkill(m[1])) && (await this.exists(path.join(this.rootDir, norm))) ? m[1] : undefined;
  }

  /** The one sibling skill that holds `rel` (a path missing from this skill), or undefined when none or several do. */
  async owner(rel: string): Promise<string | undefined> {
    const found: string[] = [];
    for (const name of await this.skillNames()) if (await this.exists(path.join(this.parent, name, rel))) found.push(name);
    return found.length === 1 ? found[0] : undefined;
  }

  private skillNames(): Promise<string[]> {
    this.skills ??= (async () => {
      const entries = (await resolvedEntries(this.host, this.parent)) ?? [];
      const own = path.basename(this.rootDir);
      const dirs = entries.filter((e) => e.kind === 'directory' && e.name !== own && !e.name.startsWith('.')).slice(0, MAX_SIBLINGS_SEARCHED);
      const out: string[] = [];
      for (const d of dirs) if (await this.isSkill(d.name)) out.push(d.name);
      return out;
    })();
    return this.skills;
  }

  private async isSkill(name: string): Promise<boolean> {
    return (await answerOrUndefined(() => this.host.kind(path.join(this.parent, name, 'SKILL.md')))) === 'file';
  }

  private async exists(abs: string): Promise<boolean> {
    return (await answerOrUndefined(() => this.host.kind(abs))) !== undefined;
  }
}
