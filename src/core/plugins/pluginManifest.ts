// plugin.json of an Agent Plugin (agent-plugins.org 1.0, §5), and the manifests of the host layouts that carry
// skills the same way (Claude Code, Copilot, Codex). Parsed from untrusted bytes: bounded in size and depth, never
// fetched, every problem named with the file, the field, the spec section and what to do.
import { z } from 'zod';
import { nestingDepth } from '../text/jsonNesting';

/** The canonical `$schema` of an Agent Plugins 1.0 manifest (§5.2). Never retrieved. */
export const PLUGIN_SCHEMA_1_0 = 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json';

/** Largest plugin.json read (a manifest is a few hundred bytes). */
export const MAX_MANIFEST_BYTES = 256 * 1024;
/** Deepest nesting of objects and arrays accepted before parsing. */
export const MAX_MANIFEST_DEPTH = 32;

/** Which kind of manifest a plugin has: the open standard, or a host's own layout. */
export type { PluginLayout } from '../sources/pluginManifestPaths';
import type { PluginLayout } from '../sources/pluginManifestPaths';

/** One thing wrong with a plugin, named for the author. */
export interface PluginProblem {
  /** Absolute path of the file at fault. */
  file: string;
  /** The field at fault (`name`, `author.email`), when one is. */
  field?: string;
  /** `error`: the plugin (or the skill) is rejected; `warning`: reported and ignored. */
  severity: 'error' | 'warning';
  message: string;
  /** Where the rule comes from: `Agent Plugins 1.0 §5.5`, or the host's documentation. */
  rule: string;
}

/** The manifest fields the runtime uses. */
export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  /** Extra skill locations a host layout's manifest lists (`./` paths), besides `skills/`. */
  skillPaths: string[];
}

/** §5.5: 1-64 of a-z 0-9 - ., alphanumeric at both ends, no `--` or `..`. */
export const PLUGIN_NAME = /^(?!.*(?:--|\.\.))[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/;

const stringField = z.string();
const author = z.strictObject({ name: stringField.optional(), email: stringField.optional(), url: stringField.optional() });
/** §5.2-5.4: every permitted field and its type (the closed schema; unknown fields are handled before). */
const standardFields = z.object({
  $schema: z.literal(PLUGIN_SCHEMA_1_0),
  name: z.string().min(1).max(64).regex(PLUGIN_NAME),
  version: stringField.optional(),
  description: stringField.optional(),
  author: author.optional(),
  homepage: stringField.optional(),
  repository: stringField.optional(),
  license: stringField.optional(),
  keywords: z.array(stringField).optional(),
});
const PERMITTED = new Set(['$schema', 'name', 'version', 'description', 'author', 'homepage', 'repository', 'license', 'keywords', 'extensions']);

/** Parses bounded JSON text into an object, or a problem naming the file. */
export function parseBoundedJson(text: string, file: string, rule: string): { value?: Record<string, unknown>; problem?: PluginProblem } {
  const fail = (message: string): { problem: PluginProblem } => ({ problem: { file, severity: 'error', message, rule } });
  if (text.length > MAX_MANIFEST_BYTES) return fail(`${file} is ${text.length} bytes; a manifest may have at most ${MAX_MANIFEST_BYTES}. Remove what does not belong in it.`);
  if (nestingDepth(text, MAX_MANIFEST_DEPTH) > MAX_MANIFEST_DEPTH) return fail(`${file} nests deeper than ${MAX_MANIFEST_DEPTH} levels; flatten it.`);
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    return fail(`${file} is not valid JSON (${(e as Error).message}). Fix the syntax.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(`${file} must hold a JSON object at the top level.`);
  return { value: value as Record<string, unknown> };
}

/**
 * An Agent Plugins 1.0 manifest (§5): unknown top-level fields and a non-object `extensions` are reported and
 * ignored; any other violation rejects the plugin (no manifest returned). Extension namespaces are not looked into.
 */
export function readStandardManifest(text: string, file: string): { manifest?: PluginManifest; problems: PluginProblem[] } {
  const parsed = parseBoundedJson(text, file, 'Agent Plugins 1.0 §5.2');
  if (!parsed.value) return { problems: [parsed.problem!] };
  const raw = parsed.value;
  const problems: PluginProblem[] = [];
  for (const key of Object.keys(raw)) {
    if (!PERMITTED.has(key)) problems.push({ file, field: key, severity: 'warning', rule: 'Agent Plugins 1.0 §5.2', message: `${file}: unknown top-level field "${key}" is ignored. Move client-specific data under "extensions" (reverse-domain namespace) or remove it.` });
  }
  if ('extensions' in raw && (typeof raw.extensions !== 'object' || raw.extensions === null || Array.isArray(raw.extensions))) {
    problems.push({ file, field: 'extensions', severity: 'warning', rule: 'Agent Plugins 1.0 §8.1', message: `${file}: "extensions" must be an object of namespaces; it is ignored. Write { "com.example.client": { ... } }.` });
  }
  if (typeof raw.$schema === 'string' && raw.$schema !== PLUGIN_SCHEMA_1_0) {
    problems.push({ file, field: '$schema', severity: 'error', rule: 'Agent Plugins 1.0 §5.2', message: `${file}: "$schema" is "${raw.$schema}", a version this runtime does not support; the plugin is not loaded. Use "${PLUGIN_SCHEMA_1_0}".` });
    return { problems };
  }
  const result = standardFields.safeParse(raw);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.path.join('.') || '(manifest)';
      problems.push({ file, field, severity: 'error', rule: field === 'name' ? 'Agent Plugins 1.0 §5.5' : field === '$schema' || field === 'name' ? 'Agent Plugins 1.0 §5.3' : 'Agent Plugins 1.0 §5.4', message: `${file}: ${fieldMessage(field, issue.message, raw)} The plugin is not loaded.` });
    }
    return { problems };
  }
  const m = result.data;
  return { manifest: { name: m.name, version: m.version, description: m.description, skillPaths: [] }, problems };
}

function fieldMessage(field: string, zodMessage: string, raw: Record<string, unknown>): string {
  if (field === '$schema') return `"$schema" is missing or wrong; set it to "${PLUGIN_SCHEMA_1_0}".`;
  if (field === 'name') return `"name" ${JSON.stringify(raw.name)} is not a plugin name: 1-64 of a-z, 0-9, "-" and ".", starting and ending with a letter or digit, no "--" or "..".`;
  return `"${field}" is invalid (${zodMessage}); fix its type.`;
}

/**
 * An agent's own layout's manifest (Claude Code's `.claude-plugin/plugin.json`, Copilot's, Codex's): `name` is required
 * and follows the same name rule; other fields belong to that agent and are not judged here, except `skills`
 * (a `./` path or a list of them) which names more skill locations.
 */
export function readAgentManifest(text: string, file: string, layout: Exclude<PluginLayout, 'agent-plugins'>): { manifest?: PluginManifest; problems: PluginProblem[] } {
  const rule = `${layout} plugin manifest`;
  const parsed = parseBoundedJson(text, file, rule);
  if (!parsed.value) return { problems: [parsed.problem!] };
  const raw = parsed.value;
  if (typeof raw.name !== 'string' || !PLUGIN_NAME.test(raw.name) || raw.name.length > 64) {
    return { problems: [{ file, field: 'name', severity: 'error', rule, message: `${file}: ${fieldMessage('name', '', raw)} The plugin is not loaded.` }] };
  }
  const problems: PluginProblem[] = [];
  const skills = raw.skills === undefined ? [] : typeof raw.skills === 'string' ? [raw.skills] : Array.isArray(raw.skills) ? raw.skills : undefined;
  const skillPaths: string[] = [];
  if (!skills) problems.push({ file, field: 'skills', severity: 'warning', rule, message: `${file}: "skills" must be a "./" path or a list of them; it is ignored.` });
  for (const s of skills ?? []) {
    if (typeof s === 'string' && s.startsWith('./')) skillPaths.push(s);
    else problems.push({ file, field: 'skills', severity: 'warning', rule, message: `${file}: skill path ${JSON.stringify(s)} is ignored; write paths relative to the plugin folder starting with "./".` });
  }
  return {
    manifest: { name: raw.name, version: typeof raw.version === 'string' ? raw.version : undefined, description: typeof raw.description === 'string' ? raw.description : undefined, skillPaths },
    problems,
  };
}
