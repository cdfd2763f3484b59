import * as vscode from 'vscode';
import type { SkillIndex } from '../../core/registry/skillRegistry';
import type { SessionEvent } from '../../core/runtime/runtimeTypes';

/** Listeners of the service: the tree, the badge, the language client. */
export interface ServiceEvents {
  /** Skills were added, removed or changed (a refresh, a watcher, a settings change). */
  onDidChangeSkills: vscode.Event<void>;
  /** A session changed (load, unload, new turn, ...). */
  onDidChangeSessions: vscode.Event<SessionEvent>;
}

/** The service's events and their emitters, disposed together. */
export class ServiceEventHub implements ServiceEvents, vscode.Disposable {
  protected readonly skillsChanged = new vscode.EventEmitter<void>();
  protected readonly sessionsChanged = new vscode.EventEmitter<SessionEvent>();
  protected readonly scannedEmitter = new vscode.EventEmitter<SkillIndex>();
  readonly onDidChangeSkills = this.skillsChanged.event;
  readonly onDidChangeSessions = this.sessionsChanged.event;
  /** The registry finished its first scan (whoever asked for it: a view, a tool, a chat request). */
  readonly onDidScan = this.scannedEmitter.event;

  dispose(): void {
    this.skillsChanged.dispose();
    this.sessionsChanged.dispose();
    this.scannedEmitter.dispose();
  }
}
