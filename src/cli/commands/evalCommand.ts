import * as fs from 'node:fs';
import { diffTriggerReports, MAX_REPORT_CHARS, parseTriggerReport, renderTriggerDiff, renderTriggerReport, TRIGGER_QUERIES_FILE, TRIGGER_SPLITS } from '../../core/evals';
import { judgeTriggersOffline } from '../../core/evals/judge/offlineJudge';
import { MIN_MATCH_CONFIDENCE } from '../../core/index/matchConfidence';
import type { CliCommand } from '../cliCommand';
import { printable, printableLines } from '../terminalText';
import { UsageError } from '../usageError';
import { cliVersion } from '../version';
import { discover, DISCOVERY_HELP, DISCOVERY_USAGE, parseDiscoveryArgs } from './discovery';
import { EVAL_SARIF_RULES, evalAsValidateResult } from './evalFormats';
import { EvalInputError, findingLine, readTriggerSet, resolveEvalSkill } from './evalTarget';
import { indexedCatalog, searchable } from './search';
import { formatGithub, formatSarif, outputFormat } from './validateFormats';

const SPLITS = [...TRIGGER_SPLITS, 'all'] as const;

/**
 * `agent-skills eval <skill>`: the offline trigger judge. Each request of the skill's trigger set is ranked by the
 * skill index the runtime uses, against the discovered catalog; a request selects the skill when the skill is its
 * first match with a good confidence (find_skills' threshold). Exit 0 when every request does what it should.
 */
export const evalCommand: CliCommand = {
  name: 'eval',
  usage: `eval <skill> [--file <trigger file>] [--split train|validation|all] [--compare <previous.json>] [--format text|json|sarif|github] [--json] ${DISCOVERY_USAGE}`,
  summary: `Test whether a skill's description makes it the one picked: each request of its trigger set (${TRIGGER_QUERIES_FILE}) is ranked by the skill index the runtime uses against the discovered skills; a request selects the skill when it is the first match with confidence ${MIN_MATCH_CONFIDENCE} or more. Prints per request the result, the skill's rank, the skill first instead and whether it is in the <available_skills> list the model would get; train and validation pass rates. Exit 1 when a request fails.`,
  help: {
    options: [
      ['<skill>', 'A skill name in the discovered catalog, or the path of a skill folder (added to the catalog for this run; it stands in for a skill of the same name).'],
      ['--file <trigger file>', `The trigger set to judge (default: <skill folder>/${TRIGGER_QUERIES_FILE}).`],
      ['--split train|validation|all', 'Judge only the requests of one split (requests without "split" are train); default all.'],
      ['--compare <previous.json>', 'Print how this run differs from a previous `eval --json` run (per request pass → fail, fail → pass, rate change; split rates before → after) instead of the report.'],
      ['--format text|json|sarif|github', 'Output: the Markdown report (default), the report as JSON, SARIF 2.1.0, or GitHub Actions annotations at each failed request\'s line.'],
      ['--json', 'Same as --format json.'],
      ...DISCOVERY_HELP,
    ],
    exitCodes: [[0, 'every request judged did what it should'], [1, 'at least one request failed'], ['2', 'also: no trigger file, an invalid one, or no such skill (the message says where it looked and what to do)']],
  },
  async run(args) {
    const { values, positionals } = parseDiscoveryArgs(args, {
      file: { type: 'string' },
      split: { type: 'string' },
      compare: { type: 'string' },
      format: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (positionals.length !== 1) throw new UsageError(positionals.length ? `give one skill, not ${positionals.length} (${positionals.map(printable).join(', ')}).` : 'give the skill to judge: its name, or the path of its folder.');
    const format = outputFormat(values);
    const split = values.split ?? 'all';
    if (!(SPLITS as readonly string[]).includes(split)) throw new UsageError(`--split must be one of ${SPLITS.join(', ')}, not '${values.split}'.`);
    if (values.compare !== undefined && (format === 'sarif' || format === 'github')) throw new UsageError('--compare prints a comparison as text or JSON; leave out --format sarif|github.');
    try {
      const before = values.compare === undefined ? undefined : readPrevious(values.compare);
      const found = await discover('eval', values);
      let catalogSkills;
      try {
        catalogSkills = searchable(found);
      } finally {
        await found.close();
      }
      const skill = await resolveEvalSkill(positionals[0], catalogSkills, found.snapshot.records);
      if (skill.note) process.stderr.write(`${printable(skill.note)}\n`);
      const set = readTriggerSet(skill, values.file);
      for (const w of set.warnings) process.stderr.write(`${printable(findingLine(set.file, set.text, w))}\n`);
      const queries = split === 'all' ? set.queries : set.queries.filter((q) => (q.split ?? 'train') === split);
      if (!queries.length) throw new EvalInputError(`${set.file} has no request in the ${split} split. Mark requests with "split": "${split}", or run with --split all.`);
      const { index, skills } = await indexedCatalog(catalogSkills.values());
      const report = judgeTriggersOffline({ skill: { id: skill.id, name: skill.name }, catalog: skills, index: index.index, queries, file: set.file });
      const failed = report.results.some((r) => !r.passed);
      if (before) {
        if (before.skill !== report.skill) process.stderr.write(`${printable(values.compare as string)} is a run of "${printable(before.skill)}", not "${printable(report.skill)}": requests are compared by their text.\n`);
        const diff = diffTriggerReports(before, report);
        process.stdout.write(format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : printableLines(renderTriggerDiff(diff)));
      } else if (format === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else if (format === 'sarif') process.stdout.write(`${JSON.stringify(formatSarif([evalAsValidateResult(report, set, set.file)], process.cwd(), cliVersion(), EVAL_SARIF_RULES), null, 2)}\n`);
      else if (format === 'github') process.stdout.write(formatGithub([evalAsValidateResult(report, set, set.file)], process.cwd()));
      else process.stdout.write(printableLines(renderTriggerReport(report)));
      return failed ? 1 : 0;
    } catch (e) {
      if (!(e instanceof EvalInputError)) throw e;
      process.stderr.write(`agent-skills eval: ${printableLines(e.message)}\n`);
      return 2;
    }
  },
};

/** The previous run to compare with (bounded read; its problems are input errors). */
function readPrevious(file: string) {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st?.isFile()) throw new EvalInputError(`--compare ${file}: no such file. Save a run with \`agent-skills eval <skill> --json > ${file}\` first.`);
  if (st.size > MAX_REPORT_CHARS * 4) throw new EvalInputError(`--compare ${file}: ${st.size} bytes, more than a saved report can be. Give a file written by \`agent-skills eval --json\`.`);
  try {
    return parseTriggerReport(fs.readFileSync(file, 'utf8'), file);
  } catch (e) {
    throw new EvalInputError((e as Error).message);
  }
}
