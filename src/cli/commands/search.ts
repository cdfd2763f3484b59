import * as fs from 'node:fs';
import { localDisk } from '../../core/host/localDisk';
import { CatalogIndex, hostBodyReader, type IndexedSkill } from '../../core/index/catalogIndex';
import { DEFAULT_SEARCH_LIMIT, explainLine, MAX_SEARCH_LIMIT, searchSkills } from '../../core/index/skillSearch';
import { MIN_MATCH_CONFIDENCE } from '../../core/index/matchConfidence';
import { MAX_QUERY_CHARS } from '../../core/index/skillIndex';
import { relativeInside } from '../../core/paths/resolveInRoot';
import type { CatalogSkill } from '../../core/index/rankCatalog';
import type { CliCommand } from '../cliCommand';
import { printableLines } from '../terminalText';
import { UsageError } from '../usageError';
import { discover, DISCOVERY_HELP, DISCOVERY_USAGE, parseDiscoveryArgs, type Discovered } from './discovery';

/** Largest --query-file / --request-file read (a longer file is refused, not cut). */
export const MAX_QUERY_FILE_BYTES = 256 * 1024;

/**
 * `agent-skills search <query>`: the skill index's best matches among every discovered skill (what the find_skills
 * tool answers), best first; `--explain` says which words matched in which fields. Exit 0 when the first match is
 * a good one (confidence at or above the threshold), 1 when nothing matches well.
 */
export const searchCommand: CliCommand = {
  name: 'search',
  usage: `search <query> | --query-file <file> [--limit N] [--json] [--explain] ${DISCOVERY_USAGE}`,
  help: {
    options: [
      ['<query>', 'What the task is, in your own words.'],
      ['--query-file <file>', 'Read the query from a file (for a query too long for a command line).'],
      ['--limit N', `How many matches to print (default ${DEFAULT_SEARCH_LIMIT}).`],
      ['--json', 'One JSON object a line, best first: name, id, location, score, confidence.'],
      ['--explain', 'Which words of the query matched in which fields of each skill.'],
      ...DISCOVERY_HELP,
    ],
    exitCodes: [[0, 'a skill matches well'], [1, 'no skill matches well (confidence under the find_skills threshold)']],
  },
  summary: `Search every discovered skill with the skill index (what the find_skills tool answers), best first with scores; --explain shows which words matched where. Exit 1 when no skill matches well (confidence under ${MIN_MATCH_CONFIDENCE}).`,
  async run(args) {
    const { values, positionals } = parseDiscoveryArgs(args, {
      json: { type: 'boolean', default: false },
      explain: { type: 'boolean', default: false },
      limit: { type: 'string' },
      'query-file': { type: 'string' },
    });
    const query = queryText(positionals, values['query-file'], '--query-file', 'a query');
    const limit = values.limit === undefined ? DEFAULT_SEARCH_LIMIT : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) throw new UsageError(`--limit ${values.limit}: give a whole number from 1 to ${MAX_SEARCH_LIMIT}.`);
    const found = await discover('search', values);
    try {
      const skills = searchable(found);
      const { index: catalog } = await indexedCatalog(skills.values());
      const result = searchSkills(catalog.index, skills, query, { limit, explain: values.explain });
      if (values.json) {
        for (const m of result.matches) {
          const line = { name: m.name, id: m.id, location: m.location ?? null, score: m.score, confidence: m.confidence, ...(m.why ? { why: m.why } : {}) };
          process.stdout.write(`${JSON.stringify(line)}\n`);
        }
      } else {
        process.stdout.write(printableLines(formatMatches(result.matches, skills.size)));
      }
      if (!result.good) process.stderr.write(`No good match for this query among ${skills.size} skill(s) (confidence under ${MIN_MATCH_CONFIDENCE}); try other words: a file type, a tool or a service the task involves.\n`);
      return result.good ? 0 : 1;
    } finally {
      await found.close();
    }
  },
};

/** Every usable discovered skill, and the skills MCP servers serve, by id. */
export function searchable(found: Discovered): Map<string, IndexedSkill> {
  const out = new Map<string, IndexedSkill>();
  for (const r of found.snapshot.records) if (r.status === 'ok') out.set(r.id, r);
  for (const c of found.clients) for (const s of c.list()) if (!out.has(s.id)) out.set(s.id, { id: s.id, name: s.name, description: s.description });
  return out;
}

/**
 * The catalog `<available_skills>` is made from (e.g. the `searchable` skills): each as a catalog skill, and the index
 * over them (bodies read from disk), as `prompt` and `eval` use them.
 */
export async function indexedCatalog(skills: Iterable<IndexedSkill>): Promise<{ index: CatalogIndex; skills: CatalogSkill[] }> {
  const list = [...skills];
  const index = new CatalogIndex(hostBodyReader(localDisk));
  await index.sync(list);
  return { index, skills: list.map((s) => ({ id: s.id, name: s.name, description: s.description, location: s.location })) };
}

/**
 * The text of a query or request: the positional words, or the file's text (bounded); exactly one of the two.
 * `flag` and `what` name them in messages.
 */
export function queryText(positionals: readonly string[], file: string | undefined, flag: string, what: string): string {
  if (file !== undefined && positionals.length) throw new UsageError(`give ${what} either as words or with ${flag}, not both.`);
  let text: string;
  if (file !== undefined) {
    let st: fs.Stats;
    try {
      st = fs.statSync(file);
    } catch (e) {
      throw new UsageError(`${flag} ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}). Give the path of a text file.`);
    }
    if (!st.isFile()) throw new UsageError(`${flag} ${file}: not a regular file. Give the path of a text file.`);
    if (st.size > MAX_QUERY_FILE_BYTES) throw new UsageError(`${flag} ${file}: ${st.size} bytes, more than the ${MAX_QUERY_FILE_BYTES} bytes read. Shorten it to what the task needs.`);
    text = fs.readFileSync(file, 'utf8');
  } else {
    text = positionals.join(' ');
  }
  if (!text.trim()) throw new UsageError(`give ${what}: words after the command, or ${flag} <file>.`);
  return text.length > MAX_QUERY_CHARS ? text.slice(0, MAX_QUERY_CHARS) : text;
}

function formatMatches(matches: ReturnType<typeof searchSkills>['matches'], total: number): string {
  if (!matches.length) return `No skill matched among ${total} skill(s).\n`;
  const out: string[] = [];
  matches.forEach((m, i) => {
    out.push(`${i + 1}. ${m.name}  score ${m.score.toFixed(2)}, confidence ${m.confidence.toFixed(2)}  (${m.id})`);
    out.push(`   ${m.description.replace(/\s+/g, ' ').trim()}`);
    if (m.location) out.push(`   ${relativeInside(process.cwd(), m.location) || m.location}`);
    if (m.why) out.push(`   matched: ${explainLine(m.why)}`);
  });
  out.push('', `${matches.length} of ${total} skill(s) shown, best first.`, '');
  return out.join('\n');
}
