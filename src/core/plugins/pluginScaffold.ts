// A new Agent Plugin as "Agent Skills: Create Plugin" writes it: plugin.json with the canonical $schema and the
// name, and one skill under skills/, valid as written (the scaffold test runs validatePlugin over it).
import type { NewFile } from '../edit/atomicWrite';
import { skillSkeleton } from '../skill/skillSkeleton';
import { PLUGIN_NAME, PLUGIN_SCHEMA_1_0 } from './pluginManifest';

/** Why `name` cannot name a plugin (§5.5), with a fix; undefined when it can. */
export function pluginNameProblem(name: string): string | undefined {
  if (!name) return 'Give the plugin a name, e.g. "team-tools".';
  if (name.length > 64) return `At most 64 characters (this one has ${name.length}).`;
  if (!PLUGIN_NAME.test(name)) {
    const hint = name.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/-{2,}/g, '-').replace(/\.{2,}/g, '.').replace(/^[-.]+|[-.]+$/g, '');
    return `Lower-case letters, digits, "-" and ".", a letter or digit at each end, no "--" or ".." (Agent Plugins 1.0 §5.5)${hint && PLUGIN_NAME.test(hint) ? `: try "${hint}"` : ''}.`;
  }
  return undefined;
}

/** The files of a new plugin named `name` with one skill `skill` described by `description`. */
export function pluginScaffold(name: string, skill: string, description: string): NewFile[] {
  const manifest = { $schema: PLUGIN_SCHEMA_1_0, name, version: '0.1.0', description: `Describe what the ${name} plugin offers.` };
  return [
    { path: 'plugin.json', content: `${JSON.stringify(manifest, null, 2)}\n` },
    { path: `skills/${skill}/SKILL.md`, content: skillSkeleton(skill, description) },
  ];
}
