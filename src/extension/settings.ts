// The extension's settings (`agentSkills.*`), read through zod so a bad value is reported and replaced by
// its default instead of reaching the core. The language-server keys live in server/protocol.ts.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { z } from 'zod';
import { PROJECT_SKILL_DIRS, USER_SKILL_DIRS } from '../core/registry/defaultSkillRoots';
import { configFromData } from '../core/skill/config/loadConfig';
import type { RuleConfig } from '../core/skill/ruleConfig';
import { RUNTIME_SETTING_KEYS, schemas } from './settingsSchema';

/** The settings section every key lives in. */
export const SECTION = 'agentSkills';
export { RUNTIME_SETTING_KEYS };

/** The runtime settings, every field valid. */
export type RuntimeSettings = { [K in keyof typeof schemas]: z.output<(typeof schemas)[K]> };

/** Settings plus the problems found while reading them (shown in the output channel). */
export interface SettingsRead {
  settings: RuntimeSettings;
  problems: string[];
}

/** Reads `agentSkills.*`; a value that fails its schema falls back to the default and is reported. */
export function readSettings(config: Pick<vscode.WorkspaceConfiguration, 'get'> = vscode.workspace.getConfiguration(SECTION)): SettingsRead {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(RUNTIME_SETTING_KEYS) as [keyof RuntimeSettings, string][]) {
    const schema = schemas[field] as z.ZodType;
    const raw = config.get(key);
    const r = schema.safeParse(raw);
    if (r.success) out[field] = r.data;
    else {
      problems.push(`Setting ${SECTION}.${key}: ${r.error.issues.map((i) => i.message).join('; ')}; using the default. Fix it in Settings (JSON).`);
      out[field] = schema.parse(undefined);
    }
  }
  return { settings: out as RuntimeSettings, problems };
}

/**
 * `agentSkills.validation.rules` as rule settings (checked like a configuration file's `rules:`; bad entries are
 * left out), laid by the registry over each writable root's `.agent-skills.yaml`, as the language server does.
 */
export function readValidationRules(): RuleConfig | undefined {
  const section = vscode.workspace.getConfiguration(SECTION);
  const raw = section.get<unknown>('validation.rules');
  const host = section.get<unknown>('validation.host');
  const given = (x: unknown) => x !== undefined && x !== null;
  if (!given(raw) && !given(host)) return undefined;
  return configFromData({ rules: given(raw) ? raw : {}, ...(given(host) ? { host } : {}) }, given(host) ? 'the settings agentSkills.validation.rules and agentSkills.validation.host' : 'the setting agentSkills.validation.rules').config;
}

/** VS Code's own skill support: whether it is on and which folders it reads (absolute paths). */
export interface BuiltinSkills {
  enabled: boolean;
  /** Absolute folders VS Code's chat reads skills from; our tools leave their skills to it. */
  folders: string[];
}

/** Reads `chat.useAgentSkills` and `chat.agentSkillsLocations` (defaults as VS Code ships them). */
export function readBuiltinSkills(workspaceFolders: readonly string[], home = os.homedir()): BuiltinSkills {
  const chat = vscode.workspace.getConfiguration('chat');
  const enabled = chat.get<boolean>('useAgentSkills') === true;
  const raw = chat.get<unknown>('agentSkillsLocations');
  const parsed = z.record(z.string(), z.boolean()).safeParse(raw);
  const locations = parsed.success
    ? Object.entries(parsed.data).filter(([, on]) => on).map(([p]) => p)
    : [...PROJECT_SKILL_DIRS, ...USER_SKILL_DIRS.map((d) => `~/${d}`)];
  const folders: string[] = [];
  for (const loc of locations) {
    if (loc.startsWith('~/')) folders.push(path.join(home, loc.slice(2)));
    else if (path.isAbsolute(loc)) folders.push(loc);
    else for (const w of workspaceFolders) folders.push(path.resolve(w, loc));
  }
  return { enabled, folders };
}
