// The unified skill catalog of this window (issue 6): one SkillCatalog over the extension's own registry (same
// roots, same scan, so a write shows in the Skills view at once) and its state folder (revisions, overlays),
// connected to the runtime's sessions so runSkill `run` loads into the calling chat like load_skills does.
import * as vscode from 'vscode';
import { runtimeSessionLoader } from '../core/catalog/sessionLoader';
import type { SkillCatalog } from '../core/catalog/skillCatalog';
import type { SessionLoader } from '../core/catalog/catalogTypes';
import type { CatalogProvider, SkillsService } from './skillsService';

export class WindowCatalog implements CatalogProvider {
  private opened: { key: string; catalog: Promise<SkillCatalog> } | undefined;
  private latest: SkillCatalog | undefined;

  constructor(private readonly service: SkillsService) {}

  /**
   * The catalog, opened on first use over the registry the views use (no second scan). Reopened (cheaply, the
   * registry is shared) when the roots change: settings, workspace folders, trust.
   */
  ready(): Promise<SkillCatalog> {
    const roots = this.service.roots();
    const key = JSON.stringify(roots);
    if (this.opened?.key !== key) {
      const catalog = this.service.core().then((core) => core.catalog({ roots }));
      const opened = { key, catalog };
      this.opened = opened;
      catalog.then((c) => {
        if (this.opened === opened) this.latest = c;
      }, () => undefined);
      catalog.catch((e: unknown) => {
        this.service.log.error(`The skill catalog could not be opened: ${e instanceof Error ? e.message : String(e)}`);
        if (this.opened === opened) this.opened = undefined;
      });
    }
    return this.opened.catalog;
  }

  /** The catalog opened last (the runtime's skill source once it exists). */
  current(): SkillCatalog | undefined {
    return this.latest;
  }

  /** runSkill `run` loads through the runtime's load tool into the caller's session (created when missing). */
  readonly sessions: SessionLoader = runtimeSessionLoader({
    invoke: (tool, input, call) => this.service.invoke(tool, input, call.sessionId),
    sessions: { get: (id) => this.service.peek()?.runtime.sessions.get(id) },
  });

  /** True when a write to workspace skills must be refused: VS Code's Restricted Mode. */
  get workspaceWritesBlocked(): boolean {
    return !vscode.workspace.isTrusted;
  }
}
