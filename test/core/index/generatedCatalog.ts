/**
 * A generated catalog for tests that compare rankings: 2,000 skills from a seeded generator (Zipf-like word use,
 * headings, code fences, identifiers, Unicode and CJK words, shared names), plus the requests to rank them for
 * and a churn of edits and removals, so every path of the index (put, replace, remove, compaction) is taken.
 */
import type { IndexDoc } from '../../../src/core/index';
import { seededRandom } from '../../support/seededRandom';

const STEMS = (
  'pdf form table chart deploy cluster helm release commit branch merge review test coverage lint format date ' +
  'invoice budget ledger tax payroll email calendar meeting slide deck image resize crop video audio transcript ' +
  'translate locale currency json yaml csv parquet schema query index search vector embed cache queue worker ' +
  'docker image kubernetes pod secret vault token auth oauth login session cookie browser scrape crawl api rest ' +
  'graphql webhook slack issue ticket sprint backlog roadmap design figma color font layout accessibility audit ' +
  'security scan dependency license sbom backup restore migrate database postgres mysql redis mongo spreadsheet ' +
  'formula pivot macro notebook python rust typescript golang java kotlin swift shell bash terraform aws azure gcp'
).split(' ');
const EXTRA = ['café', 'naïve', 'résumé', 'Ｆｕｌｌwidth', '表格处理', 'データ分析', 'convertPdfToDocx', 'snake_case_name', 'v2.1.0', 'x86_64'];
const GLUE = 'the a with for and to of in from by on when how your this that each'.split(' ');

function pick<T>(rand: () => number, list: readonly T[]): T {
  // Squared uniform: early words are used far more often than late ones, as in real text.
  return list[Math.floor(rand() * rand() * list.length)];
}

function sentence(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(rand() < 0.3 ? pick(rand, GLUE) : rand() < 0.04 ? pick(rand, EXTRA) : pick(rand, STEMS) + (rand() < 0.2 ? 's' : rand() < 0.1 ? 'ing' : ''));
  return out.join(' ');
}

function body(rand: () => number): string {
  const parts: string[] = [];
  const sections = Math.floor(rand() * 6);
  for (let i = 0; i < sections; i++) {
    parts.push(`${'#'.repeat(1 + Math.floor(rand() * 3))} ${sentence(rand, 2 + Math.floor(rand() * 4))}`);
    parts.push(sentence(rand, 5 + Math.floor(rand() * 80)));
    if (rand() < 0.2) parts.push('```bash\n# not a heading\n' + sentence(rand, 6) + '\n```');
  }
  return parts.join('\n');
}

export interface GeneratedCatalog {
  docs: IndexDoc[];
  /** Edits applied after the first put, in order: a doc replaces the one with its id, a string removes that id. */
  churn: (IndexDoc | string)[];
  queries: string[];
}

export function generatedCatalog(size = 2000, seed = 24): GeneratedCatalog {
  const rand = seededRandom(seed);
  const docs: IndexDoc[] = [];
  for (let i = 0; i < size; i++) {
    // Some names repeat (two sources with one name), some are common words.
    const name = rand() < 0.05 ? pick(rand, STEMS) : `${pick(rand, STEMS)}-${pick(rand, STEMS)}${rand() < 0.5 ? '' : `-${i}`}`;
    docs.push({ id: `g:${i}`, name, description: sentence(rand, 4 + Math.floor(rand() * 30)), body: rand() < 0.85 ? body(rand) : undefined });
  }
  const churn: (IndexDoc | string)[] = [];
  for (let i = 0; i < 1500; i++) {
    const target = `g:${Math.floor(rand() * size)}`;
    if (rand() < 0.6) churn.push(target);
    else churn.push({ id: rand() < 0.5 ? target : `g:new-${i}`, name: `${pick(rand, STEMS)}-${pick(rand, STEMS)}`, description: sentence(rand, 10), body: body(rand) });
  }
  const queries: string[] = [];
  for (let i = 0; i < 40; i++) queries.push(sentence(rand, 3 + Math.floor(rand() * (i % 4 === 0 ? 120 : 20))));
  queries.push('', 'the and of', 'pdf', 'PDF forms', '表格', 'convertPdfToDocx', 'deploy-cluster');
  return { docs, churn, queries };
}
