// plugin.json and mcp.json of an Agent Plugin in the editor: the rules a JSON schema cannot express (containment,
// name rules, version agreement, skills/ entries that are not skills, mcp.json's command and cwd forms), from the
// same core checks as `agent-skills validate <plugin>`, on the editor's text. The shape (completion, hover, types)
// comes from the JSON schemas the extension contributes with jsonValidation.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DiagnosticSeverity, type Connection, type Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { looksLikePlugin } from '../src/core/plugins/readPlugin';
import { validatePlugin } from '../src/core/plugins/validatePlugin';
import { MCP_CONFIG_FILE_NAMES } from '../src/core/plugins/pluginMcpConfig';
import { DIAGNOSTIC_SOURCE } from './protocol';
import { uriToPath } from './uris';

/** Manifest folders of the host layouts: their plugin.json belongs to the folder above. */
const HOST_MANIFEST_DIRS = new Set(['.claude-plugin', '.plugin', '.codex-plugin']);

/**
 * The plugin folder a plugin.json / mcp.json at `file` belongs to, or undefined when it is not a plugin's. A root
 * plugin.json is a common name in other ecosystems: it counts when it names the Agent Plugins schema or sits beside
 * skills/ or mcp.json (a host layout's manifest folder is unambiguous).
 */
export function pluginRootOf(file: string, text?: string): string | undefined {
  const base = path.basename(file);
  let root: string | undefined;
  if (base === 'plugin.json') {
    const dir = path.dirname(file);
    if (HOST_MANIFEST_DIRS.has(path.basename(dir))) root = path.dirname(dir);
    else if (path.basename(dir) === 'plugin' && path.basename(path.dirname(dir)) === '.github') root = path.dirname(path.dirname(dir));
    else if ((text ?? '').includes('agent-plugins.org/schemas/') || ['skills', ...MCP_CONFIG_FILE_NAMES].some((n) => fs.existsSync(path.join(dir, n)))) root = dir;
  } else if (MCP_CONFIG_FILE_NAMES.includes(base)) root = path.dirname(file);
  return root && looksLikePlugin(root) ? root : undefined;
}

/** True for a document the plugin checks (not the skill analysis) answer. */
export function isPluginDocumentUri(uri: string): boolean {
  const name = uri.slice(uri.lastIndexOf('/') + 1);
  return name === 'plugin.json' || MCP_CONFIG_FILE_NAMES.includes(name);
}

export class PluginDocuments {
  constructor(private readonly connection: Connection) {}

  /** Checks the document and publishes its findings (none for a JSON file that is not a plugin's). */
  validate(doc: TextDocument): void {
    const file = uriToPath(doc.uri);
    const root = file ? pluginRootOf(file, doc.getText()) : undefined;
    if (!file || !root) {
      void this.connection.sendDiagnostics({ uri: doc.uri, diagnostics: [] });
      return;
    }
    const v = validatePlugin(root, { texts: new Map([[file, doc.getText()]]) });
    const isManifest = path.basename(file) === 'plugin.json';
    const diagnostics: Diagnostic[] = v.findings
      // The manifest also carries what is wrong with the plugin's folders (containment, skills/ entries), which
      // have no JSON of their own to show it in.
      .filter((f) => f.file === file || (isManifest && (f.rule === 'plugin-skills' || f.rule === 'plugin-containment') && !/\.json$/.test(f.file)))
      .map((f) => ({ range: f.range, severity: f.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, code: f.rule, source: DIAGNOSTIC_SOURCE, message: f.message }));
    void this.connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  }

  closed(uri: string): void {
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }
}
