// The skill roots of this window: the workspace folders (when trusted), the home folder, extra roots from
// settings, skills other extensions contribute, and the mounted `agentSkills.packs`.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PluginContributions } from '../../core/registry/pluginContributions';
import { defaultSkillRoots } from '../../core/registry/defaultSkillRoots';
import type { SkillRoot } from '../../core/registry/types';
import { sourceOf } from '../../core/sources';
import { readPluginContributions } from '../pluginSkills';
import { resolvePackSpecs } from '../packSpecs';
import type { RuntimeSettings } from '../settings';
import { mountConfiguredPacks } from '../skillPacks';

/** How long a scan waits for the configured skill packs; a first download takes longer and lands later. */
const QUICK_PACK_MOUNT_MS = 1500;

/** The file-scheme workspace folders of this window. */
export function workspaceFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

export class WindowRoots {
  private plugins: PluginContributions | undefined;
  /** Roots of the mounted `agentSkills.packs`, and the key (the resolved specs) they were mounted for. */
  private packs: { key: string; roots: SkillRoot[] } = { key: '', roots: [] };
  private packsMounting: { key: string; done: Promise<void> } | undefined;

  constructor(
    private readonly settings: () => RuntimeSettings,
    private readonly stateDir: () => string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /**
   * Skills other extensions contribute (read once, then on every extension change). Not tied to workspace
   * trust: the user installed those extensions.
   */
  pluginSkills(): PluginContributions {
    if (!this.plugins) {
      this.plugins = readPluginContributions();
      for (const p of this.plugins.problems) this.log.warn(p);
    }
    return this.plugins;
  }

  /** Rereads the extensions' contributions; true when their roots or chosen skill folders changed. */
  rereadPluginSkills(): boolean {
    const before = this.plugins;
    this.plugins = undefined;
    const after = this.pluginSkills();
    const key = (c: PluginContributions | undefined) => JSON.stringify([c?.roots, [...(c?.only ?? [])].map(([k, v]) => [k, [...v].sort()])]);
    return key(before) !== key(after);
  }

  /** Roots of sources that need trust (the workspace's) only in a trusted workspace; the others always. */
  roots(): SkillRoot[] {
    const trusted = vscode.workspace.isTrusted;
    const extra = this.settings()
      .extraRoots.filter((r) => trusted || !sourceOf(r.scope).inWorkspace)
      .map((r) => ({ path: r.path.startsWith('~/') ? path.join(os.homedir(), r.path.slice(2)) : path.resolve(workspaceFolders()[0] ?? os.homedir(), r.path), scope: r.scope }));
    const packRoots = this.packs.roots.map((r) => ({ path: r.path, scope: r.scope, source: r.source }));
    return defaultSkillRoots({ workspaceFolders: trusted ? workspaceFolders() : [], homeDir: os.homedir(), extraRoots: [...extra, ...packRoots], pluginRoots: this.pluginSkills().roots });
  }

  /**
   * Mounts `agentSkills.packs` (into `<stateDir>/packs`) when the setting or the trust changed since the last
   * mount (trust decides whether workspace-relative paths count). Failed packs are reported and left out.
   * Packs on disk (and downloads already cached) mount in a moment and are waited for; a first download is
   * not: the skills scan without it, and `onLate` runs when it lands (with its progress shown).
   */
  async mountPacks(onLate: () => Promise<void>): Promise<void> {
    const mounting = this.startMountingPacks();
    if (!mounting) return;
    let timer: NodeJS.Timeout | undefined;
    const landed = await Promise.race([mounting.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), QUICK_PACK_MOUNT_MS)))]);
    clearTimeout(timer);
    if (landed) return;
    this.log.info('A skill pack is still downloading; the other skills are listed now, and the pack joins them when it is installed.');
    void mounting.then(onLate).catch((e) => this.log.error(`Adding the downloaded skill packs failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  /** Starts (or joins) mounting the packs of the current settings; undefined when they are mounted already. */
  private startMountingPacks(): Promise<void> | undefined {
    const trusted = vscode.workspace.isTrusted;
    const resolved = resolvePackSpecs(this.settings().packs, { trusted, workspaceFolder: workspaceFolders()[0] });
    const key = JSON.stringify(resolved.specs);
    if (this.packs.key === key) return;
    if (this.packsMounting?.key !== key) {
      for (const line of resolved.ignored) this.log.warn(line);
      const done = mountConfiguredPacks(resolved.specs, path.join(this.stateDir(), 'packs'), this.log).then((mounted) => {
        // A newer settings change may have started another mount meanwhile: only the newest one applies.
        if (this.packsMounting?.key === key) this.packs = { key, roots: mounted.map((m) => m.root) };
      });
      this.packsMounting = { key, done };
    }
    return this.packsMounting.done;
  }
}
