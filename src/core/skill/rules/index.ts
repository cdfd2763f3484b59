import type { ValidationMode } from '../skillTypes';
import { BODY_RULES } from './body';
import { COMMAND_RULES } from './undeclaredPrograms';
import { CATALOG_RULES } from './confusableSkills';
import { DESCRIPTION_RULES } from './description';
import { FIELD_RULES } from './fields';
import { FILE_SHAPE_RULES } from './fileShape';
import { AGENT_FIELD_RULES } from './agentFields';
import { LICENSE_RULES } from './license';
import { NAME_RULES } from './name';
import { PLACEHOLDER_RULES } from './placeholders';
import { PORTABILITY_RULES } from './portability';
import { REFERENCE_RULES } from './references';
import { ROUTING_RULES } from './routing';
import type { RuleInfo, RuleLevel } from './ruleInfo';
import { SECURITY_RULES } from './security';
import { UNICODE_RULES } from './unicode';
import { XML_RULES } from './xmlTags';

export type { RuleId, RuleInfo, RuleLevel, RuleOptionInfo } from './ruleInfo';

/** A rule family: one module's rules, under a heading for tables and `agent-skills rules`. */
export interface RuleFamily {
  title: string;
  rules: readonly RuleInfo[];
}

/** Every rule family, in the order findings are usually reported. */
export const RULE_FAMILIES: readonly RuleFamily[] = [
  { title: 'File shape', rules: FILE_SHAPE_RULES },
  { title: 'Fields', rules: [...FIELD_RULES, ...LICENSE_RULES] },
  { title: 'Name', rules: NAME_RULES },
  { title: 'Description', rules: [...DESCRIPTION_RULES, ...XML_RULES] },
  { title: 'Routing', rules: ROUTING_RULES },
  { title: 'Host fields', rules: AGENT_FIELD_RULES },
  { title: 'Body', rules: [...BODY_RULES, ...PLACEHOLDER_RULES] },
  { title: 'References', rules: REFERENCE_RULES },
  { title: 'Portability', rules: [...PORTABILITY_RULES, ...COMMAND_RULES] },
  { title: 'Security', rules: [...SECURITY_RULES, ...UNICODE_RULES] },
  { title: 'Catalog', rules: CATALOG_RULES },
];

/**
 * Every rule. Checks the reference does not make are never errors in strict mode, so `--strict` validity
 * stays exactly the reference's (a test holds this).
 */
export const RULES: readonly RuleInfo[] = RULE_FAMILIES.flatMap((f) => f.rules);

const BY_ID: ReadonlyMap<string, RuleInfo> = new Map(RULES.map((r) => [r.id, r]));

/** The rule with this id, or undefined. */
export function getRule(id: string): RuleInfo | undefined {
  return BY_ID.get(id);
}

/** The level of a rule in a mode; unknown ids stay errors so nothing is silently dropped. */
export function ruleLevel(id: string, mode: ValidationMode): RuleLevel {
  const r = BY_ID.get(id);
  if (!r) return 'error';
  return mode === 'strict' ? r.strict : r.lenient;
}
