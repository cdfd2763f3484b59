import { z } from 'zod';
import { configFromData } from '../src/core/skill/config/loadConfig';
import type { RuleConfig } from '../src/core/skill/ruleConfig';
import type { ValidationMode } from '../src/core/skill/skillTypes';

/** The server's effective settings, merged from initialization options and `agentSkills.*` configuration. */
export interface ServerSettings {
  mode: ValidationMode;
  debounceMs: number;
  deferToBuiltin: boolean;
  builtinSkillValidatorActive: boolean;
  scanWorkspace: boolean;
  builtinFieldHover: boolean;
  /** `agentSkills.validation.rules` and `.host`: rule levels, options and the host, laid over the nearest `.agent-skills.yaml`. */
  rules: RuleConfig;
}

export const DEFAULT_SETTINGS: ServerSettings = {
  mode: 'lenient',
  debounceMs: 200,
  deferToBuiltin: true,
  builtinSkillValidatorActive: false,
  scanWorkspace: true,
  builtinFieldHover: false,
  rules: { rules: {} },
};

/** The validation settings, one shape whether they come flat in `initializationOptions` or under `agentSkills.validation`. */
const validationFields = {
  mode: z.enum(['strict', 'lenient']),
  debounceMs: z.number().int().min(0).max(10_000),
  deferToBuiltin: z.boolean(),
  builtinSkillValidatorActive: z.boolean(),
};

/** Flat shape of `initializationOptions`. */
const initSchema = z
  .object({
    ...validationFields,
    scanWorkspace: z.boolean(),
    builtinFieldHover: z.boolean(),
  })
  .partial();

/** Nested shape of the `agentSkills` configuration section. */
const sectionSchema = z
  .object({
    validation: z
      .object({
        ...validationFields,
        rules: z.unknown(),
        host: z.unknown(),
      })
      .partial(),
    builtinSkillValidatorActive: z.boolean(),
  })
  .partial();

/** Result of reading untrusted settings: the merged settings plus what was ignored and why. */
export interface SettingsResult {
  settings: ServerSettings;
  problems: string[];
}

/** Merges `initializationOptions` over the defaults; bad fields are ignored and reported. */
export function settingsFromInitOptions(base: ServerSettings, raw: unknown): SettingsResult {
  if (raw === undefined || raw === null) return { settings: base, problems: [] };
  const r = initSchema.safeParse(raw);
  if (!r.success) return { settings: base, problems: [describe('initializationOptions', r.error)] };
  return { settings: { ...base, ...stripUndefined(r.data) }, problems: [] };
}

/** Merges the `agentSkills` configuration section over the current settings. */
export function settingsFromSection(base: ServerSettings, raw: unknown): SettingsResult {
  if (raw === undefined || raw === null) return { settings: base, problems: [] };
  const r = sectionSchema.safeParse(raw);
  if (!r.success) return { settings: base, problems: [describe('agentSkills settings', r.error)] };
  const v = r.data.validation ?? {};
  const builtin = v.builtinSkillValidatorActive ?? r.data.builtinSkillValidatorActive;
  // The rule settings and the host are checked like a configuration file's `rules:` and `host:`; bad entries are left out and reported.
  const given = (x: unknown) => x !== undefined && x !== null;
  const rules = !given(v.rules) && !given(v.host) ? undefined : configFromData({ rules: given(v.rules) ? v.rules : {}, ...(given(v.host) ? { host: v.host } : {}) }, given(v.host) ? 'the settings agentSkills.validation.rules and agentSkills.validation.host' : 'the setting agentSkills.validation.rules');
  return {
    settings: {
      ...base,
      ...stripUndefined({ mode: v.mode, debounceMs: v.debounceMs, deferToBuiltin: v.deferToBuiltin, builtinSkillValidatorActive: builtin, rules: rules?.config }),
    },
    problems: rules?.problems ?? [],
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function describe(where: string, error: z.ZodError): string {
  const issues = error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  return `Ignored invalid ${where} (${issues}); using the previous values. Fix the value in your settings.`;
}
