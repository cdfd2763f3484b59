// <available_skills> does not change when the way it is computed does: a generated 2,000-skill catalog (with
// scopes, recency and shared names) is rendered for 47 requests at budgets around and between the usual ones
// (300, 1,999, 2,000, 2,001, 4,000, 8,000 tokens, and 4,000 tokens with 6,000 characters), plus a small catalog
// at the exact budget where everything fits and one token below it; each block's digest is compared with the
// snapshot test/fixtures/prompt/catalogBlocks.json, taken before the block's ranking was read in stages and its
// counts cached. A deliberate change of the block regenerates it: SKILLS_UPDATE_SNAPSHOT=1 npx mocha <this file>.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SkillIndex } from '../../../src/core/index';
import { memoizeCounter, o200kCounter, renderCatalog, type CatalogSkill } from '../../../src/core/prompt';
import type { CatalogBudget } from '../../../src/core/prompt/promptTypes';
import { generatedCatalog } from '../index/generatedCatalog';

const SNAPSHOT = path.join(__dirname, '../../fixtures/prompt/catalogBlocks.json');
const SCOPES = ['workspace', 'user', 'extension', 'plugin'];
const BUDGETS: CatalogBudget[] = [{ maxTokens: 300 }, { maxTokens: 1999 }, { maxTokens: 2000 }, { maxTokens: 2001 }, { maxTokens: 4000 }, { maxTokens: 8000 }, { maxTokens: 4000, maxChars: 6000 }];

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

function blocks(): Record<string, string> {
  const { docs, queries } = generatedCatalog();
  const index = new SkillIndex();
  for (const d of docs) index.put(d);
  const skills: CatalogSkill[] = docs.map((d, i) => ({
    id: d.id,
    name: d.name,
    description: d.description,
    location: `/skills/${i % 5}/${d.name}/SKILL.md`,
    scope: SCOPES[i % SCOPES.length],
    ...(i % 13 === 0 ? { lastUsed: 1000 + (i % 4) } : {}),
  }));
  const counter = memoizeCounter(o200kCounter, 20000);
  const out: Record<string, string> = {};
  queries.forEach((q, i) => {
    BUDGETS.forEach((b) => {
      const block = renderCatalog(skills, q, b, counter, { loadTool: 'load_skills', findTool: i % 2 ? 'find_skills' : undefined, hideLocations: i % 3 === 0, index });
      out[`request ${i} at ${JSON.stringify(b)}`] = digest(block.text);
    });
  });
  // A small catalog whose whole list fits exactly, and the same one token short (then cut by rank).
  const few = skills.slice(0, 12);
  const whole = renderCatalog(few, queries[1], {}, counter, { loadTool: 'load_skills', index });
  for (const maxTokens of [whole.tokens, whole.tokens - 1]) {
    const block = renderCatalog(few, queries[1], { maxTokens }, counter, { loadTool: 'load_skills', index });
    out[`12 skills at ${maxTokens === whole.tokens ? 'their exact size' : 'one token less'}`] = digest(block.text);
  }
  return out;
}

describe('prompt/catalog: the block is byte-identical to its snapshot', () => {
  it('for 47 requests at 7 budgets on 2,000 generated skills, and at the exact fit of a small catalog', function () {
    this.timeout(120_000);
    const now = blocks();
    if (process.env.SKILLS_UPDATE_SNAPSHOT === '1') {
      fs.writeFileSync(SNAPSHOT, `${JSON.stringify(now, null, 1)}\n`);
      console.log(`      wrote ${SNAPSHOT} (${Object.keys(now).length} blocks)`);
    }
    const before = JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8')) as Record<string, string>;
    assert.equal(Object.keys(now).length, Object.keys(before).length);
    const changed = Object.keys(before).filter((k) => now[k] !== before[k]);
    assert.deepEqual(changed, [], `${changed.length} of ${Object.keys(before).length} blocks differ from the snapshot`);
  });
});
