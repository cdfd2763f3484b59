import { invokeUpdateSkill } from '../../core/catalog';
import type { CliCommand } from '../cliCommand';
import { CATALOG_HELP, CATALOG_USAGE, cliAudit, openCliCatalog, parseCatalogArgs, positionals, report } from './catalogCli';

/** `agent-skills archive <skill>`: reversibly removes a skill from the catalog. */
export const archiveCommand: CliCommand = {
  name: 'archive',
  usage: `archive <skill> [--reason <text>] ${CATALOG_USAGE}`,
  summary: 'Archive a skill (folder moved into .archived/, or a plugin/pack skill hidden); undo with `agent-skills restore <skill>`.',
  help: {
    options: [['--reason <text>', 'Why, recorded with the archive in the revision history.'], ...CATALOG_HELP],
    exitCodes: [[0, 'archived'], [1, 'refused or failed (unknown skill, read-only source, already archived); the message says why']],
  },
  async run(args) {
    const { values, positionals: pos } = parseCatalogArgs(args, { reason: { type: 'string' } });
    const [skill] = positionals(pos, ['skill']);
    const catalog = await openCliCatalog('archive', values);
    const r = await invokeUpdateSkill(catalog, { action: 'archive', skill, reason: values.reason }, cliAudit(values));
    return report(r, values.json, (ok) => ('how' in ok ? `archived ${ok.skillId}${ok.path ? ` to ${ok.path}` : ' (hidden)'}\n` : ''));
  },
};
