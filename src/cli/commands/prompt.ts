import type { IndexedSkill } from '../../core/index/catalogIndex';
import { explainLine } from '../../core/index/skillSearch';
import { indexKey } from '../../core/index/rankCatalog';
import { requestCatalogBlock } from '../../core/prompt/requestCatalog';
import { DEFAULT_CATALOG_BUDGET } from '../../core/prompt/catalogBudget';
import type { CatalogBudget, CatalogSkill } from '../../core/prompt/promptTypes';
import { readSkillDir, validateSkillContent } from '../../core/skill';
import type { CliCommand } from '../cliCommand';
import { resolveAllTargets } from '../skillTargets';
import { printable, printableLines } from '../terminalText';
import { UsageError } from '../usageError';
import { discover, DISCOVERY_HELP, DISCOVERY_USAGE, parseDiscoveryArgs } from './discovery';
import { indexedCatalog, queryText, searchable } from './search';

/**
 * `agent-skills prompt [<path>...]`: the `<available_skills>` block for these skills (or, without paths, for every
 * discovered skill). With `--request` (or `--request-file`) and/or `--max-tokens`, exactly the block a model gets
 * for that request: chosen by the skill index within the budget, with the closing line on what was left out.
 */
export const promptCommand: CliCommand = {
  name: 'prompt',
  usage: `prompt [<path>...] [--request <text> | --request-file <file>] [--max-tokens N] [--explain] ${DISCOVERY_USAGE}`,
  help: {
    options: [
      ['<path>...', 'Skill folders, SKILL.md files or folders of skills; without any, every discovered skill.'],
      ['--request <text>', 'The user request the block is chosen for (the skill index ranks for it).'],
      ['--request-file <file>', 'Read the request from a file (for a request too long for a command line).'],
      ['--max-tokens N', 'The budget of the block in o200k tokens (default 4,000).'],
      ['--explain', 'On stderr: why each skill was listed or left out (matched words and fields, score).'],
      ...DISCOVERY_HELP,
    ],
    exitCodes: [[0, 'the block was printed'], [1, 'some skills cannot load: they are left out and each is reported on stderr']],
  },
  summary:
    'Print the <available_skills> block (name, description, location; XML-escaped) for skill folders, SKILL.md files or folders of skills, or without paths for every discovered skill. With --request and/or --max-tokens, the block a model gets for that request within that budget, as the runtime writes it (no locations: skills load by name; the tail of a long ranking by name only) (default 4,000 tokens and 16,000 characters with --request); --explain adds, on stderr, why each skill was listed. Skills that cannot load are left out and reported (exit 1).',
  async run(args) {
    const { values, positionals } = parseDiscoveryArgs(args, {
      request: { type: 'string' },
      'request-file': { type: 'string' },
      'max-tokens': { type: 'string' },
      explain: { type: 'boolean', default: false },
    });
    if (values.request !== undefined && values['request-file'] !== undefined) throw new UsageError('give the request either with --request or with --request-file, not both.');
    const request =
      values.request !== undefined || values['request-file'] !== undefined
        ? queryText(values.request !== undefined ? [values.request] : [], values['request-file'], '--request-file', 'a request (--request <text>)')
        : undefined;
    const maxTokens = values['max-tokens'] === undefined ? undefined : Number(values['max-tokens']);
    if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || maxTokens < 1)) throw new UsageError(`--max-tokens ${values['max-tokens']}: give a whole number of tokens, e.g. --max-tokens 4000.`);
    const budget: CatalogBudget = maxTokens !== undefined ? { maxTokens } : request !== undefined ? DEFAULT_CATALOG_BUDGET : {};

    let items: IndexedSkill[];
    let failed = 0;
    if (positionals.length) {
      const at = await skillsAt(positionals);
      failed = at.failed;
      items = at.skills.map((s) => ({ id: indexKey(s), name: s.name, description: s.description, location: s.location }));
    } else {
      const found = await discover('prompt', values);
      try {
        items = [...searchable(found).values()];
      } finally {
        await found.close();
      }
    }
    const { index: catalog, skills } = await indexedCatalog(items);
    // With a request or a budget, the runtime's block (no locations); without, the specification's plain one.
    const block = requestCatalogBlock(skills, request, catalog.index, budget, undefined, request === undefined && maxTokens === undefined);
    process.stdout.write(`${printableLines(block.text)}\n`);
    if (values.explain) {
      const shown = new Set(block.shownSkills);
      const byName = new Set(block.shownSkills.slice(block.shownSkills.length - block.namedOnly));
      const lines = [`${block.shown.length} of ${skills.length} skill(s) listed${block.namedOnly ? ` (${block.namedOnly} by name only)` : ''}${block.omitted ? `, ${block.omitted} left out` : ''}, ${block.tokens} tokens${request ? '' : ' (no request: ranked by recency, scope and name)'}:`];
      let leftOut = 0;
      for (const s of block.ranking.all()) {
        const listed = shown.has(s);
        if (!listed && ++leftOut > 5) continue;
        const why = request ? explainLine(catalog.index.explain(request, indexKey(s))) : 'no request';
        lines.push(`  ${byName.has(s) ? 'by name' : listed ? 'listed' : 'left out'}  ${s.name}  score ${block.ranking.score(s).toFixed(2)}: ${why}`);
      }
      process.stderr.write(`${printableLines(lines.join('\n'))}\n`);
    }
    return failed > 0 ? 1 : 0;
  },
};

/** The skills at these paths; the ones that cannot load are reported on stderr and counted. */
export async function skillsAt(paths: string[]): Promise<{ skills: CatalogSkill[]; failed: number }> {
  const skills: CatalogSkill[] = [];
  let failed = 0;
  for (const t of await resolveAllTargets(paths)) {
    const read = await readSkillDir(t.dir);
    const errors = read.parsed
      ? validateSkillContent({ parsed: read.parsed, folderName: read.folderName, fileName: read.fileName }).diagnostics.filter((d) => d.severity === 'error')
      : read.diagnostics;
    if (!read.parsed || !read.file || errors.length > 0) {
      failed++;
      process.stderr.write(`Skipped ${printable(t.display)}:\n${errors.map((d) => `  - ${printable(d.message)}`).join('\n')}\n`);
      continue;
    }
    const name = read.parsed.properties.name;
    skills.push({
      name: typeof name === 'string' && name.trim() ? name.trim() : read.folderName,
      description: String(read.parsed.properties.description),
      location: read.file,
    });
  }
  return { skills, failed };
}
