import { readSkillDir } from '../../core/skill';
import type { CliCommand } from '../cliCommand';
import { resolveSkillTargets } from '../skillTargets';
import { UsageError } from '../usageError';

const FATAL = new Set(['frontmatter-missing', 'frontmatter-unclosed', 'yaml-syntax', 'frontmatter-not-mapping']);

/** `agent-skills read-properties <path>`: the frontmatter as JSON, keys as written, scalars as strings. */
export const readPropertiesCommand: CliCommand = {
  name: 'read-properties',
  usage: 'read-properties <path>',
  summary: 'Print the frontmatter of one skill (folder or SKILL.md) as JSON, keys as written (exit 1 if it cannot be read).',
  async run(args) {
    if (args.length !== 1 || args[0].startsWith('-')) throw new UsageError('give exactly one skill folder or SKILL.md file.');
    const targets = await resolveSkillTargets(args[0]);
    if (targets.length !== 1) throw new UsageError(`${args[0]} is a folder of ${targets.length} skills; give one skill folder or SKILL.md file.`);
    const read = await readSkillDir(targets[0].dir);
    const fatal = read.diagnostics.filter((d) => d.rule === 'skill-file-missing' || FATAL.has(d.rule));
    if (!read.parsed || fatal.length > 0) {
      process.stderr.write(`Cannot read properties of ${targets[0].display}:\n${fatal.map((d) => `  - ${d.message}`).join('\n')}\n`);
      return 1;
    }
    process.stdout.write(`${JSON.stringify(read.parsed.properties, null, 2)}\n`);
    return 0;
  },
};
