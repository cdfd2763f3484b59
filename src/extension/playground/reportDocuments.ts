// Read-only documents of the reports of user script runs (scheme `agent-skills-run`): each run gets its own,
// the newest few are kept in memory.
import * as vscode from 'vscode';

/** The URI scheme of run reports. */
export const RUN_REPORT_SCHEME = 'agent-skills-run';

const KEEP = 30;

export class ReportDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  /** Stores a report and returns the URI it opens at. */
  add(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RUN_REPORT_SCHEME, path: `/${name}.md` });
    this.texts.set(uri.toString(), text);
    // Oldest first in a Map: drop beyond the newest KEEP.
    for (const key of [...this.texts.keys()].slice(0, Math.max(0, this.texts.size - KEEP))) this.texts.delete(key);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This run report is no longer kept (only the newest 30 are). Run the script again to get a new one.';
  }
}
