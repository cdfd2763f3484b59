import { invokeRunSkill, type InspectResult } from '../../core/catalog';
import { printable } from '../terminalText';
import type { CliCommand } from '../cliCommand';
import { UsageError } from '../usageError';
import { CATALOG_HELP, CATALOG_USAGE, cliAudit, openCliCatalog, parseCatalogArgs, positionals, report } from './catalogCli';

/** `agent-skills inspect <skill>`: the full content of a skill file (large files in explicit parts), like runSkill inspect. */
export const inspectCommand: CliCommand = {
  name: 'inspect',
  usage: `inspect <skill> [--file <path>] [--offset N] [--numbered] [--history] ${CATALOG_USAGE}`,
  summary: 'Print a skill file in full (past 256 KiB in parts: the next --offset is printed on stderr), or its metadata, refs and history with --json.',
  help: {
    options: [['--file <path>', 'A file of the skill relative to its folder (default SKILL.md).'], ['--offset N', 'Start at this character offset (for files printed in parts).'], ['--numbered', 'Prefix each line with its number.'], ['--history', 'Also list the revisions (with --json).'], ...CATALOG_HELP],
    exitCodes: [[0, 'printed'], [1, 'the skill or file is unknown or cannot be read']],
  },
  async run(args) {
    const { values, positionals: pos } = parseCatalogArgs(args, {
      file: { type: 'string' },
      offset: { type: 'string' },
      numbered: { type: 'boolean', default: false },
      history: { type: 'boolean', default: false },
    });
    const [skill] = positionals(pos, ['skill']);
    let offset: number | undefined;
    if (values.offset !== undefined) {
      offset = Number(values.offset);
      if (!Number.isInteger(offset) || offset < 0) throw new UsageError(`--offset must be a whole number of bytes, got '${values.offset}'.`);
    }
    const catalog = await openCliCatalog('inspect', values);
    const r = await invokeRunSkill(catalog, { action: 'inspect', skill, file: values.file, offset, history: values.history || undefined }, { sessionId: 'cli' }, { audit: cliAudit(values).audit });
    return report(r, values.json, (ok) => {
      const res = ok as InspectResult;
      const out: string[] = [];
      if (res.chunk) {
        out.push(values.numbered ? `${res.chunk.numbered ?? ''}\n` : res.chunk.text);
        process.stderr.write(`${printable(res.file)}: part ${res.chunk.part} of ${res.chunk.parts} (${res.versionRef})${res.chunk.nextOffset === null ? '' : `; next: --offset ${res.chunk.nextOffset}`}\n`);
      } else {
        out.push(values.numbered ? `${res.contentWithLineNumbers ?? ''}\n` : (res.content ?? ''));
        process.stderr.write(`${printable(res.skill.id)} ${printable(res.file)} ${res.versionRef}\n`);
      }
      if (res.history) out.push(...res.history.map((h) => `#${h.seq} ${h.time} ${h.file} ${h.ref ?? '-'} ${h.reason}\n`));
      return out.join('');
    });
  },
};
