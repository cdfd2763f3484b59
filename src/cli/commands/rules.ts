import { parseArgs } from 'node:util';
import { explainRule, RULE_FAMILIES, RULES, renderRulesTable } from '../../core/skill';
import { closestPath } from '../../core/skill/similarPaths';
import type { CliCommand } from '../cliCommand';
import { UsageError } from '../usageError';

/** `agent-skills rules [--json|--markdown]`: every rule with its level per mode. */
export const rulesCommand: CliCommand = {
  name: 'rules',
  usage: 'rules [--json | --markdown]',
  summary: 'List every validation rule with its level in strict and lenient mode (--markdown: the README table).',
  async run(args) {
    let values;
    try {
      ({ values } = parseArgs({ args, options: { json: { type: 'boolean', default: false }, markdown: { type: 'boolean', default: false } }, strict: true }));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    if (values.json) process.stdout.write(`${JSON.stringify(RULES, null, 2)}\n`);
    else if (values.markdown) process.stdout.write(`${renderRulesTable()}\n`);
    else {
      const width = Math.max(...RULES.map((r) => r.id.length));
      const lines: string[] = [];
      for (const f of RULE_FAMILIES) {
        lines.push(`${f.title}:`);
        for (const r of f.rules) lines.push(`  ${r.id.padEnd(width)}  strict ${r.strict.padEnd(7)}  lenient ${r.lenient.padEnd(7)}  ${r.description}`);
      }
      lines.push('', 'Details: agent-skills explain <rule>. Change a level in .agent-skills.yaml: rules: { <rule>: off|info|warning|error }.');
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    return 0;
  },
};

/** `agent-skills explain <rule>`: what a rule checks, why, and how to fix a finding. */
export const explainCommand: CliCommand = {
  name: 'explain',
  usage: 'explain <rule>',
  summary: 'Print the documentation of a validation rule (the same text the editor hover shows).',
  async run(args) {
    if (args.length !== 1 || args[0].startsWith('-')) throw new UsageError('give one rule id, e.g. `agent-skills explain name-folder-mismatch`.');
    const text = explainRule(args[0]);
    if (!text) {
      const near = closestPath(args[0], RULES.map((r) => r.id));
      throw new UsageError(`'${args[0]}' is not a rule.${near ? ` Did you mean '${near}'?` : ''} Run 'agent-skills rules' for the list.`);
    }
    process.stdout.write(`${text}\n`);
    return 0;
  },
};
