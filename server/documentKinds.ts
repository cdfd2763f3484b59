// Which documents the server answers with which checks: plugin.json / mcp.json of Agent Plugins, a skill's
// evals/trigger-queries.json and evals/evals.json, and everything else (SKILL.md files) with the skill analysis.
import { isPluginDocumentUri } from './pluginDocuments';
import { isEvalsDocumentUri } from './evalsDocuments';
import { isTriggerDocumentUri } from './triggerDocuments';

/** A JSON document of ours (a plugin's, a trigger set or an eval set): none of the SKILL.md features or checks apply to it. */
export function isJsonDocumentUri(uri: string): boolean {
  return isPluginDocumentUri(uri) || isTriggerDocumentUri(uri) || isEvalsDocumentUri(uri);
}
