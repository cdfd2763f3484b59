// The lint configuration (`.agent-skills.yaml`) the registry applies to a root's skills, so the Skills view and the
// tools judge a skill as the CLI and the language server do: the nearest configuration file at or above the root
// (one per root, not per skill: a scan of 10,000 skills must not stat three names in every skill folder), read with
// the one loader the CLI and the server use. A configuration inside a single skill's folder is honoured by the CLI
// and the editor only (README).
import { EMPTY_CONFIG, findConfigFile, loadConfigFile, mergeRuleConfigs, type LoadedConfig } from '../skill/config/loadConfig';
import type { RuleConfig } from '../skill/ruleConfig';
import type { SkillsHost } from '../host/skillsHost';

/** A root's configuration and what identifies its file's content (a change means the root's skills are checked again). */
export interface RootConfig {
  loaded?: LoadedConfig;
  stamp: string;
}

/** Finds and loads the configuration of a root; `undefined` when none applies. Never throws. */
export async function rootConfig(host: SkillsHost, rootPath: string, overrides?: RuleConfig): Promise<RootConfig> {
  const over = overrides && Object.keys(overrides.rules).length ? overrides : undefined;
  const withOverrides = (r: RootConfig): RootConfig => {
    if (!over) return r;
    const loaded = r.loaded ?? EMPTY_CONFIG;
    return { loaded: { ...loaded, config: mergeRuleConfigs(loaded.config, over) }, stamp: `${r.stamp}|${JSON.stringify(over)}` };
  };
  try {
    const file = await findConfigFile(rootPath, host);
    if (!file) return withOverrides({ stamp: '' });
    const st = await host.stat(file);
    const loaded = await loadConfigFile(file, host);
    return withOverrides({ loaded, stamp: `${file}|${st?.mtimeMs ?? 0}|${st?.size ?? 0}` });
  } catch {
    return withOverrides({ stamp: '' });
  }
}
