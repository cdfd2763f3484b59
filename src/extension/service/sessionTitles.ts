import type * as vscode from 'vscode';

/** What a chat session is called in the tree (the first prompt of its conversation). */
const LABELS_KEY = 'agentSkills.sessionLabels';

/** Session titles, kept per workspace so the tree shows them after a reload. */
export class SessionTitles {
  constructor(private readonly state: vscode.Memento) {}

  get(id: string): string | undefined {
    return this.state.get<Record<string, string>>(LABELS_KEY, {})[id];
  }

  /** Sets the title once (the first prompt wins), cut to 60 characters. */
  async setOnce(id: string, title: string): Promise<void> {
    const labels = { ...this.state.get<Record<string, string>>(LABELS_KEY, {}) };
    if (labels[id]) return;
    labels[id] = title.length > 60 ? `${title.slice(0, 57)}…` : title;
    await this.state.update(LABELS_KEY, labels);
  }
}
