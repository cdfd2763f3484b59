// Read-only documents of the reports of user script runs (scheme `agent-skills-run`): each run gets its own,
// the newest few are kept in memory. They are Markdown, shown formatted in VS Code's Markdown preview.
import * as vscode from 'vscode';

/** The URI scheme of run reports. */
export const RUN_REPORT_SCHEME = 'agent-skills-run';

const KEEP = 30;

export class ReportDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();

  /**
   * Stores a report and returns the URI it opens at. `title` is the file name a tab shows; `runId` keeps two
   * reports of one title apart (in the query, which no title shows).
   */
  add(title: string, text: string, runId: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RUN_REPORT_SCHEME, path: `/${title}.md`, query: `run=${encodeURIComponent(runId)}` });
    this.texts.set(uri.toString(), text);
    // Oldest first in a Map: drop beyond the newest KEEP.
    for (const key of [...this.texts.keys()].slice(0, Math.max(0, this.texts.size - KEEP))) this.texts.delete(key);
    return uri;
  }

  /**
   * Opens a report formatted (VS Code's Markdown preview), in a tab of its own: locked to its report, since an
   * unlocked preview is reused for the next document and the earlier report's tab would be gone.
   */
  async show(uri: vscode.Uri): Promise<void> {
    await vscode.commands.executeCommand('markdown.showPreview', uri, undefined, { locked: true });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This run report is no longer kept (only the newest 30 are). Run the script again to get a new one.';
  }
}
