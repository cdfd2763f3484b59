import { invokeUpdateSkill } from '../../core/catalog';
import type { CliCommand } from '../cliCommand';
import { UsageError } from '../usageError';
import { CATALOG_HELP, CATALOG_USAGE, cliAudit, openCliCatalog, parseCatalogArgs, positionals, readInputFile, report } from './catalogCli';

/** `agent-skills create`: a new, validated skill folder, written atomically. */
export const createCommand: CliCommand = {
  name: 'create',
  usage: `create <name> --description <text> [--scope workspace|user] [--body <text> | --body-file <file|->] [--dry-run] [--force] ${CATALOG_USAGE}`,
  summary: 'Create a skill folder with a valid SKILL.md in the first workspace (default) or user skills folder.',
  help: {
    options: [['--description <text>', 'The description: what the skill does and when to use it (required).'], ['--scope workspace|user', 'Create it in the first workspace skills folder (default) or the user skills folder.'], ['--body <text>', 'The Markdown body.'], ['--body-file <file|->', 'Read the body from a file, or from stdin with -.'], ['--dry-run', 'Print what would be created, change nothing.'], ['--force', 'Create even when the name is taken elsewhere (the new skill may shadow it).'], ...CATALOG_HELP],
    exitCodes: [[0, 'created (or, with --dry-run, would be)'], [1, 'refused: the name is invalid or taken, or the folder could not be written']],
  },
  async run(args) {
    const { values, positionals: pos } = parseCatalogArgs(args, {
      description: { type: 'string' },
      scope: { type: 'string', default: 'workspace' },
      body: { type: 'string' },
      'body-file': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    });
    const [name] = positionals(pos, ['name']);
    if (!values.description) throw new UsageError('--description is required: what the skill does and when to use it.');
    if (values.scope !== 'workspace' && values.scope !== 'user') throw new UsageError(`--scope must be workspace or user, got '${values.scope}'.`);
    if (values.body !== undefined && values['body-file'] !== undefined) throw new UsageError('give --body or --body-file, not both.');
    const body = values['body-file'] !== undefined ? await readInputFile(values['body-file']) : (values.body ?? `# ${name}\n`);
    const catalog = await openCliCatalog('create', values);
    const r = await invokeUpdateSkill(catalog, { action: 'create', scope: values.scope, name, description: values.description, body, dryRun: values['dry-run'] || undefined, force: values.force || undefined }, cliAudit(values));
    return report(r, values.json, (ok) => ('dir' in ok ? `${ok.warnings.map((x) => `warning: ${x}\n`).join('')}${ok.dryRun ? 'dry run: would create' : 'created'} ${ok.skillId} at ${ok.dir} (ref ${ok.versionRef})\n` : ''));
  },
};
