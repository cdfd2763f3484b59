import { invokeRunSkill, type InspectResult } from '../../core/catalog';
import type { CliCommand } from '../cliCommand';
import { CATALOG_HELP, CATALOG_USAGE, cliAudit, openCliCatalog, parseCatalogArgs, positionals, report } from './catalogCli';

/** `agent-skills history <skill>`: the skill's revisions, oldest first. */
export const historyCommand: CliCommand = {
  name: 'history',
  usage: `history <skill> ${CATALOG_USAGE}`,
  summary: "List a skill's revisions (seq, time, file, ref, reason); restore one with `agent-skills restore <skill> <seq|ref>`.",
  help: {
    options: [...CATALOG_HELP],
    exitCodes: [[0, 'the revisions were printed'], [1, 'the skill is unknown or its history cannot be read']],
  },
  async run(args) {
    const { values, positionals: pos } = parseCatalogArgs(args, {});
    const [skill] = positionals(pos, ['skill']);
    const catalog = await openCliCatalog('history', values);
    const r = await invokeRunSkill(catalog, { action: 'inspect', skill, history: true, view: 'raw' }, { sessionId: 'cli' }, { audit: cliAudit(values).audit });
    if (values.json && r.ok) {
      const res = r.result as InspectResult;
      process.stdout.write(`${JSON.stringify({ skill: res.skill.id, versionRef: res.versionRef, history: res.history }, null, 2)}\n`);
      return 0;
    }
    return report(r, values.json, (ok) => {
      const h = (ok as InspectResult).history ?? [];
      return h.length ? h.map((x) => `${String(x.seq).padStart(4)}  ${x.time}  ${x.file}  ${x.ref ?? '(deleted)'}  ${x.reason}\n`).join('') : 'No revisions recorded yet.\n';
    });
  },
};
