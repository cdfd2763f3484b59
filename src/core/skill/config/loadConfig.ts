import { compileGlob } from '../../paths/globMatch';
import { relativeInside } from '../../paths/resolveInRoot';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { readTextFile, type SkillsHost } from '../../host/skillsHost';
import type { RuleConfig, RuleSetting } from '../ruleConfig';
import { AGENT_IDS } from '../agentProfiles';
import { getRule, RULES } from '../rules';
import { closestPath } from '../similarPaths';
import { CONFIG_FILE_NAMES, CONFIG_LEVELS } from './configSchema';

/** Bounds of a configuration file: it is untrusted input like any other. */
export const CONFIG_MAX_BYTES = 64 * 1024;
export const CONFIG_MAX_DEPTH = 6;
const MAX_FOLDERS_UP = 64;

/** A configuration as loaded: the rule settings, the excludes, and what was wrong with it. */
export interface LoadedConfig {
  /** The file it came from, when any. */
  file?: string;
  config: RuleConfig;
  /** Glob patterns relative to {@link baseDir}. */
  exclude: string[];
  baseDir?: string;
  /** One message per problem, each naming the file, the field and the fix. */
  problems: string[];
}

export const EMPTY_CONFIG: LoadedConfig = { config: { rules: {} }, exclude: [], problems: [] };

const level = z.enum(CONFIG_LEVELS);
const setting = z.union([level, z.object({ level: level.optional(), options: z.record(z.string(), z.number().int().min(0).max(10_000_000)).optional() }).strict()]);
const schema = z
  .object({
    rules: z.record(z.string(), setting).optional(),
    exclude: z.array(z.string().max(500)).max(200).optional(),
    host: z.enum(AGENT_IDS).optional(),
  })
  .strict();

function depthOf(v: unknown, d = 0): number {
  if (d > CONFIG_MAX_DEPTH) return d;
  if (Array.isArray(v)) return Math.max(d, ...v.map((x) => depthOf(x, d + 1)));
  if (v && typeof v === 'object') return Math.max(d, ...Object.values(v).map((x) => depthOf(x, d + 1)));
  return d;
}

/**
 * Reads a configuration from its text (YAML or JSON; JSON is YAML). Bounded: at most 64 KiB, nesting at most
 * 6 levels, no YAML aliases. Never throws; what cannot be used is reported and left out.
 */
export function parseConfigText(text: string, file: string): LoadedConfig {
  const where = file;
  const fail = (msg: string): LoadedConfig => ({ ...EMPTY_CONFIG, file, problems: [msg] });
  if (text.length > CONFIG_MAX_BYTES) return fail(`${where}: the file is ${text.length} characters; a configuration may have at most ${CONFIG_MAX_BYTES}. Shorten it.`);
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 0, uniqueKeys: true, strict: true });
  } catch (e) {
    return fail(`${where}: not valid YAML (${(e as Error).message.split('\n')[0]}). Fix the syntax; the defaults are used meanwhile.`);
  }
  if (raw === null || raw === undefined) return { ...EMPTY_CONFIG, file, baseDir: path.dirname(file) };
  return { ...configFromData(raw, where), file, baseDir: path.dirname(file) };
}

/**
 * A configuration from data already parsed (a YAML file, or the `agentSkills.validation` setting, where
 * `{ rules }` is given): checked against the rule table; `where` names the source in each problem.
 */
export function configFromData(raw: unknown, where: string): LoadedConfig {
  const fail = (msg: string): LoadedConfig => ({ ...EMPTY_CONFIG, problems: [msg] });
  if (depthOf(raw) > CONFIG_MAX_DEPTH) return fail(`${where}: nested deeper than ${CONFIG_MAX_DEPTH} levels. A configuration has \`rules\` (rule: level or { level, options }) and \`exclude\` (a list) only.`);
  const r = schema.safeParse(raw);
  if (!r.success) {
    const problems = r.error.issues.map((i) => `${where}: \`${i.path.join('.') || '(top level)'}\`: ${i.message}. Allowed: \`rules\` (rule: off|info|warning|error, or { level, options }), \`exclude\` (a list of globs) and \`host\` (${AGENT_IDS.join(', ')}).`);
    return { ...EMPTY_CONFIG, problems };
  }
  const problems: string[] = [];
  const rules: Record<string, RuleSetting> = {};
  const ids = RULES.map((x) => x.id);
  for (const [id, s] of Object.entries(r.data.rules ?? {})) {
    const info = getRule(id);
    if (!info) {
      const near = closestPath(id, ids);
      problems.push(`${where}: \`rules.${id}\` is not a rule.${near ? ` Did you mean \`${near}\`?` : ''} Run \`agent-skills rules\` for the list.`);
      continue;
    }
    if (typeof s === 'string') {
      rules[id] = { level: s };
      continue;
    }
    const options: Record<string, number> = {};
    for (const [k, v] of Object.entries(s.options ?? {})) {
      if (!info.options?.[k]) {
        const known = Object.keys(info.options ?? {});
        problems.push(`${where}: \`rules.${id}.options.${k}\` is not an option of ${id}; ${known.length ? `it has ${known.map((o) => `\`${o}\``).join(', ')}` : 'it has no options'}. Remove it.`);
        continue;
      }
      options[k] = v;
    }
    rules[id] = { ...(s.level ? { level: s.level } : {}), ...(Object.keys(options).length ? { options } : {}) };
  }
  return { config: { rules, ...(r.data.host ? { host: r.data.host } : {}) }, exclude: r.data.exclude ?? [], problems };
}

/** The nearest configuration file at or above `dir` (walking up to the file-system root), or undefined. */
export async function findConfigFile(dir: string, host: SkillsHost): Promise<string | undefined> {
  let d = path.resolve(dir);
  for (let i = 0; i < MAX_FOLDERS_UP; i++) {
    for (const n of CONFIG_FILE_NAMES) {
      const p = path.join(d, n);
      if ((await host.kind(p)) === 'file') return p;
    }
    const up = path.dirname(d);
    if (up === d) return undefined;
    d = up;
  }
  return undefined;
}

/** Loads one configuration file; a missing or unreadable file is a problem named with its path. */
export async function loadConfigFile(file: string, host: SkillsHost): Promise<LoadedConfig> {
  // Read a little past the bound, so an oversized file is reported with its size by parseConfigText.
  const text = await readTextFile(host, file, CONFIG_MAX_BYTES * 4);
  if (text === undefined) return { ...EMPTY_CONFIG, file, problems: [`${file}: cannot be read, or is larger than ${CONFIG_MAX_BYTES * 4} bytes (the limit is ${CONFIG_MAX_BYTES}). Check the path and the size.`] };
  return parseConfigText(text, file);
}

/** The configuration that applies to the skill in `skillDir`: the nearest `.agent-skills.yaml` above it. */
export async function loadConfigFor(skillDir: string, host: SkillsHost): Promise<LoadedConfig> {
  const file = await findConfigFile(skillDir, host);
  return file ? loadConfigFile(file, host) : EMPTY_CONFIG;
}

/** Rule settings of `over` laid over `base` (a setting's level and options each replace the base's; its host, when set, the base's). */
export function mergeRuleConfigs(base: RuleConfig, over: RuleConfig): RuleConfig {
  const rules: Record<string, RuleSetting> = { ...base.rules };
  for (const [id, s] of Object.entries(over.rules)) {
    const b = rules[id] ?? {};
    rules[id] = { ...b, ...s, ...(b.options || s.options ? { options: { ...b.options, ...s.options } } : {}) };
  }
  const host = over.host ?? base.host;
  return { rules, ...(host ? { host } : {}) };
}

/**
 * An `exclude` glob (`*`, `**`, `?`, `/` separators; every other character literal) as a test of a whole relative
 * path, which also matches everything under a matched folder. Matched without a regular expression
 * (paths/globMatch.ts): `*a*a*a*...c` from a repository's configuration held `validate` and the language server
 * for as long as its folder names were long.
 */
export function excludeMatcher(glob: string): (rel: string) => boolean {
  const matches = compileGlob(glob.replace(/[\\[\]{}+@!]/g, '\\$&'));
  return (rel) => {
    const names = rel.split('/');
    for (let n = names.length; n > 0; n--) if (matches(names.slice(0, n).join('/'))) return true;
    return false;
  };
}

/** True when `target` (a skill folder or file) matches one of the configuration's excludes. */
export function isExcluded(loaded: LoadedConfig, target: string): boolean {
  if (!loaded.baseDir || loaded.exclude.length === 0) return false;
  const rel = relativeInside(loaded.baseDir, path.resolve(target));
  if (rel === undefined) return false;
  return loaded.exclude.some((g) => excludeMatcher(g.replace(/^\.\//, '').replace(/\/$/, ''))(rel));
}
