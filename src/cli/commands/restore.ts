import { invokeUpdateSkill } from '../../core/catalog';
import type { CliCommand } from '../cliCommand';
import { CATALOG_HELP, CATALOG_USAGE, cliAudit, openCliCatalog, parseCatalogArgs, positionals, report } from './catalogCli';

/** `agent-skills restore <skill> [<seq|ref>]`: bring back a revision, or an archived skill when no ref is given. */
export const restoreCommand: CliCommand = {
  name: 'restore',
  usage: `restore <skill> [<seq|ref>] [--file <path>] [--force] ${CATALOG_USAGE}`,
  summary: 'Restore an earlier revision (by seq or version ref from `history`), or with no ref an archived skill.',
  help: {
    options: [['<seq|ref>', 'The revision to restore (from history); without it, an archived skill is restored.'], ['--file <path>', 'The file of the skill to restore (default SKILL.md).'], ['--force', 'Restore even when the current file changed since the revision list was read.'], ...CATALOG_HELP],
    exitCodes: [[0, 'restored'], [1, 'refused or failed (unknown skill or revision, nothing archived)']],
  },
  async run(args) {
    const { values, positionals: pos } = parseCatalogArgs(args, { file: { type: 'string' }, force: { type: 'boolean', default: false } });
    const [skill, ref] = positionals(pos, ['skill', 'ref'], 1);
    const catalog = await openCliCatalog('restore', values);
    const revision = ref === undefined ? undefined : /^\d+$/.test(ref) ? Number(ref) : ref;
    const r = await invokeUpdateSkill(catalog, { action: 'restore', skill, revision, file: values.file, force: values.force || undefined }, cliAudit(values));
    return report(r, values.json, (ok) => {
      if ('how' in ok) return `restored ${ok.skillId}${ok.path ? ` to ${ok.path}` : ''}\n`;
      if ('versionRef' in ok && 'file' in ok) return `${ok.diff}\nrestored ${ok.skillId}/${ok.file}; ref ${ok.versionRef}\n`;
      return '';
    });
  },
};
