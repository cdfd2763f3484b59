// Which documents the server answers with which checks: plugin.json / mcp.json of Agent Plugins, a skill's
// evals/trigger-queries.json, and everything else (SKILL.md files) with the skill analysis.
import { isPluginDocumentUri } from './pluginDocuments';
import { isTriggerDocumentUri } from './triggerDocuments';

/** A JSON document of ours (a plugin's or a trigger set): none of the SKILL.md features or checks apply to it. */
export function isJsonDocumentUri(uri: string): boolean {
  return isPluginDocumentUri(uri) || isTriggerDocumentUri(uri);
}
