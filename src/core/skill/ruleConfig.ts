import type { AgentId } from './agentProfiles';
import type { RuleLevel } from './rules/ruleInfo';

/** What a configuration says about one rule. */
export interface RuleSetting {
  /** Overrides the rule's level in both modes. */
  level?: RuleLevel;
  /** Numeric options (limits), by the names the rule's metadata lists. */
  options?: Readonly<Record<string, number>>;
}

/**
 * Rule settings from `.agent-skills.yaml`, the `agentSkills.validation.rules` setting or `--config`,
 * already checked against the rule table (see config/loadConfig).
 */
export interface RuleConfig {
  rules: Readonly<Record<string, RuleSetting>>;
  /** The host the skills are written for (`host:` in `.agent-skills.yaml`, `--host`); default `any`. */
  host?: AgentId;
}

/** The configured value of a rule's option, or its default. */
export function ruleOption(config: RuleConfig | undefined, rule: string, option: string, fallback: number): number {
  const v = config?.rules[rule]?.options?.[option];
  return typeof v === 'number' ? v : fallback;
}
