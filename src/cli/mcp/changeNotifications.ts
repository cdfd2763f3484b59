// What a change of the skill folders tells a client, by what it asked to hear: one rule for a legacy session
// (resources/subscribe and the list-changed capabilities) and a 2026-07-28 `subscriptions/listen` stream.
import { skillFileUri } from '../../core/mcp/skillUri';

/** A rescan's outcome, as the backend emits it: the skills whose files changed, and whether skills came or went. */
export interface SkillsChange {
  skills: string[];
  listChanged: boolean;
}

/** What a listener asked for (the 2026-07-28 filter's names). */
export interface ChangeFilter {
  resourcesListChanged: boolean;
  promptsListChanged: boolean;
  /** Resource URIs whose updates it wants. */
  resourceSubscriptions: ReadonlySet<string>;
}

/** The notifications (method and params) a change gives this listener, in order. */
export function changeNotifications(c: SkillsChange, f: ChangeFilter): { method: string; params: Record<string, unknown> }[] {
  const out: { method: string; params: Record<string, unknown> }[] = [];
  if (f.resourcesListChanged) out.push({ method: 'notifications/resources/list_changed', params: {} });
  if (c.listChanged && f.promptsListChanged) out.push({ method: 'notifications/prompts/list_changed', params: {} });
  const changed = new Set(c.skills.map((s) => skillFileUri(s)));
  for (const uri of f.resourceSubscriptions) {
    const m = /^skill:\/\/([^/]+)/.exec(uri);
    if (m && changed.has(`skill://${m[1]}`)) out.push({ method: 'notifications/resources/updated', params: { uri } });
  }
  return out;
}
