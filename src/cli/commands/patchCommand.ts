import { invokeUpdateSkill } from '../../core/catalog';
import type { CliCommand } from '../cliCommand';
import { UsageError } from '../usageError';
import { CATALOG_HELP, CATALOG_USAGE, cliAudit, openCliCatalog, parseCatalogArgs, positionals, readInputFile, report } from './catalogCli';

/** `agent-skills patch <skill> --diff <file|->`: updateSkill patch from the command line. */
export const patchCommand: CliCommand = {
  name: 'patch',
  usage: `patch <skill> --diff <file|-> [--file <path>] [--dry-run] [--expect <ref>] [--force] [--fuzz N] [--reason <text>] ${CATALOG_USAGE}`,
  summary: 'Apply a unified diff to a skill file (validated, atomic, recorded as a revision); prints the line-numbered diff and the new ref. Exit 1 when refused.',
  help: {
    options: [['--diff <file|->', 'The unified diff to apply, from a file or stdin (required).'], ['--file <path>', 'The file of the skill the diff changes, when the diff does not name it.'], ['--dry-run', 'Check and print the result, write nothing.'], ['--expect <ref>', 'Refuse unless the file is still at this version ref (from inspect or history).'], ['--force', 'Apply even when the result does not validate.'], ['--fuzz N', 'Lines of context that may differ when placing a hunk.'], ['--reason <text>', 'Why, recorded with the revision.'], ...CATALOG_HELP],
    exitCodes: [[0, 'applied (or, with --dry-run, would apply)'], [1, 'refused: the diff does not apply, the file changed since --expect, or the result is invalid']],
  },
  async run(args) {
    const { values, positionals: pos } = parseCatalogArgs(args, {
      diff: { type: 'string' },
      file: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      expect: { type: 'string' },
      force: { type: 'boolean', default: false },
      fuzz: { type: 'string' },
      reason: { type: 'string' },
    });
    const [skill] = positionals(pos, ['skill']);
    if (!values.diff) throw new UsageError('--diff <file|-> is required (a unified diff of one file; - reads stdin).');
    const fuzzFactor = values.fuzz === undefined ? undefined : Number(values.fuzz);
    if (fuzzFactor !== undefined && !Number.isInteger(fuzzFactor)) throw new UsageError(`--fuzz must be a whole number, got '${values.fuzz}'.`);
    const diff = await readInputFile(values.diff);
    const catalog = await openCliCatalog('patch', values);
    const r = await invokeUpdateSkill(catalog, {
      action: 'patch',
      skill,
      file: values.file,
      diff,
      fuzzFactor,
      expectedVersionRef: values.expect,
      dryRun: values['dry-run'] || undefined,
      force: values.force || undefined,
      reason: values.reason,
    }, cliAudit(values));
    return report(r, values.json, (ok) => {
      if (!('diff' in ok) || !('versionRef' in ok)) return '';
      const w = ok.warnings.map((x) => `warning: ${x}\n`).join('');
      const status = ok.dryRun ? 'dry run: nothing written' : ok.written ? `written (revision ${'revision' in ok && ok.revision ? ok.revision.seq : '-'})` : 'unchanged';
      return `${ok.diff}\n${w}${status}; ref ${ok.versionRef}\n`;
    });
  },
};
