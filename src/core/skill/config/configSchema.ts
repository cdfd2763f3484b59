import { AGENT_IDS } from '../agentProfiles';
import { RULES } from '../rules';

/** Levels a configuration may give a rule. */
export const CONFIG_LEVELS = ['off', 'info', 'warning', 'error'] as const;

/** Names of the project configuration file, looked for in this order in each folder from the skill upwards. */
export const CONFIG_FILE_NAMES = ['.agent-skills.yaml', '.agent-skills.yml', '.agent-skills.json'] as const;

/**
 * The JSON schema of `.agent-skills.yaml`, built from the rule table (every rule id, its doc, its options),
 * so the editor completes rule ids and options. `schemas/agent-skills.schema.json` is this, written out;
 * a test fails when the file is stale.
 */
export function configJsonSchema(): Record<string, unknown> {
  const ruleProps: Record<string, unknown> = {};
  for (const r of RULES) {
    const level = { type: 'string', enum: [...CONFIG_LEVELS] };
    const options = r.options
      ? Object.fromEntries(Object.entries(r.options).map(([k, o]) => [k, { type: 'integer', minimum: 0, default: o.default, description: o.description }]))
      : undefined;
    ruleProps[r.id] = {
      description: `${r.description} (strict: ${r.strict}, lenient: ${r.lenient})`,
      markdownDescription: `${r.doc}\n\nDefault: strict \`${r.strict}\`, lenient \`${r.lenient}\`.`,
      oneOf: [
        level,
        {
          type: 'object',
          additionalProperties: false,
          properties: { level, ...(options ? { options: { type: 'object', additionalProperties: false, properties: options } } : {}) },
        },
      ],
    };
  }
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Agent Skills lint configuration (.agent-skills.yaml)',
    type: 'object',
    additionalProperties: false,
    properties: {
      rules: {
        type: 'object',
        description: 'Per rule: a level (off, info, warning, error) or { level, options }. In strict mode the reference validator\'s errors stay errors and no other rule becomes one.',
        additionalProperties: false,
        properties: ruleProps,
      },
      host: {
        type: 'string',
        enum: [...AGENT_IDS],
        default: 'any',
        description: 'The host the skills are written for: its fields, tools, variables and files are known (claude-code, codex, vscode, copilot-cli, or agentskills for the specification alone). `any` (the default) accepts what any host accepts and reports what breaks in all of them or is not portable. `--host` on the command line overrides it.',
      },
      exclude: {
        type: 'array',
        description: 'Glob patterns (relative to this file\'s folder; `*`, `**`, `?`) of skill folders or files not to lint.',
        items: { type: 'string', maxLength: 500 },
        maxItems: 200,
      },
    },
  };
}
