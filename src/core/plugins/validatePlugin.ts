// `agent-skills validate <plugin>` and the language server's checks of plugin.json and mcp.json: everything the
// runtime checks when it loads a plugin (manifest §5, containment §4.1, skills/ §6-§7.1, mcp.json §7.2), read
// thoroughly (every skills/ entry that is not a skill is named), as findings with a rule id, the spec section in
// the message, and where in the file when the field is known. The skills themselves go through the skill validator.
import * as os from 'node:os';
import * as path from 'node:path';
import type { Range } from '../skill/skillTypes';
import { mcpConfigFileName, readPluginMcp } from './pluginMcpConfig';
import { readRegularFileSync } from '../os/readRegularFile';
import { MAX_MANIFEST_BYTES, readAgentManifest, readStandardManifest, type PluginProblem } from './pluginManifest';
import { readPlugin, type PluginRead } from './readPlugin';

/** One finding about a plugin, in the skill findings' shape. */
export interface PluginFinding {
  /** `plugin-manifest`, `plugin-containment`, `plugin-skills` or `plugin-mcp`. */
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  /** Absolute path of the file it is about. */
  file: string;
  range: Range;
}

/** Unsaved text of the plugin's files, by absolute path (the editor's buffers); the disk for the rest. */
export interface PluginValidationInput {
  texts?: ReadonlyMap<string, string>;
}

/** A plugin checked: what was read (its skill folders) and the findings about its own files. */
export interface PluginValidation {
  plugin: PluginRead;
  findings: PluginFinding[];
  /** Absolute folders of the plugin's skills, for the skill validator. */
  skillDirs: string[];
}

const ZERO: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** The rule id of a problem, from the spec section it cites. */
function ruleOf(p: PluginProblem): string {
  if (/§7\.2|§9/.test(p.rule)) return 'plugin-mcp';
  if (/§4\.1/.test(p.rule)) return 'plugin-containment';
  if (/§6|§7\.1|runtime limit/.test(p.rule)) return 'plugin-skills';
  return 'plugin-manifest';
}

/** Where `field` (`name`, `mcpServers.db.command`) is written in JSON `text`: its last key, found as `"key"`. */
export function fieldRange(text: string | undefined, field: string | undefined): Range {
  if (!text || !field) return ZERO;
  let from = 0;
  let at = -1;
  // Each part of the path is looked for after the previous one, so `mcpServers.db.command` finds db's command.
  for (const part of field.split('.')) {
    const i = text.indexOf(JSON.stringify(part), from);
    if (i < 0) break;
    at = i;
    from = i + 1;
  }
  if (at < 0) return ZERO;
  const before = text.slice(0, at);
  const line = before.split('\n').length - 1;
  const character = at - (before.lastIndexOf('\n') + 1);
  const key = JSON.stringify(field.split('.').pop());
  return { start: { line, character }, end: { line, character: character + key.length } };
}

/** Checks the plugin at `root`, with `texts` in place of the files they name. */
export function validatePlugin(root: string, input: PluginValidationInput = {}): PluginValidation {
  const plugin = readPlugin(root);
  const texts = input.texts ?? new Map<string, string>();
  const problems = [...plugin.problems];
  // The manifest as the editor holds it: its own problems replace those of the saved file.
  const manifestFile = plugin.manifestFile;
  if (manifestFile && plugin.layout && texts.has(manifestFile)) {
    const text = texts.get(manifestFile)!;
    const fresh = plugin.layout === 'agent-plugins' ? readStandardManifest(text, manifestFile) : readAgentManifest(text, manifestFile, plugin.layout);
    for (let i = problems.length - 1; i >= 0; i--) if (problems[i].file === manifestFile) problems.splice(i, 1);
    problems.push(...fresh.problems);
  }
  const mcpFile = path.join(plugin.root, mcpConfigFileName(plugin.layout));
  // The data folder only names where a server's data would go; validation creates nothing.
  const mcp = readPluginMcp(plugin, path.join(os.tmpdir(), 'agent-skills-validate'), { text: texts.get(mcpFile), name: plugin.manifest?.name ?? path.basename(plugin.root) });
  problems.push(...mcp.problems);
  // Each file read once, however many findings it has.
  const read = new Map<string, string | undefined>(texts);
  const textOf = (file: string): string | undefined => {
    if (!read.has(file)) {
      try {
        read.set(file, readRegularFileSync(file, MAX_MANIFEST_BYTES).bytes.toString('utf8'));
      } catch {
        read.set(file, undefined);
      }
    }
    return read.get(file);
  };
  // Every message names the spec section it comes from (some say it in their text already).
  const findings = problems.map((p) => ({ rule: ruleOf(p), severity: p.severity, message: p.message.includes('§') ? p.message : `${p.message} (${p.rule})`, file: p.file, range: /\.json$/.test(p.file) ? fieldRange(textOf(p.file), p.field) : ZERO }));
  const skillDirs = plugin.skillRoots.flatMap((r) => r.skills.map((s) => path.join(r.path, s)));
  return { plugin, findings, skillDirs };
}
