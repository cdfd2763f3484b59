// The catalog order read lazily (what <available_skills> takes until its budget is full) is the whole order
// (rankCatalog's all()), item for item: with more matches than the exactly-ordered head (ties at its last score,
// broken by recency and scope), with few matches (the rest from a heap), and with names shared by several skills.
import * as assert from 'node:assert/strict';
import { rankCatalog, SkillIndex } from '../../../src/core/index';
import type { CatalogSkill } from '../../../src/core/prompt';

const WORDS = ['convert', 'pdf', 'table', 'chart', 'deploy', 'audio', 'image', 'resize', 'report', 'invoice', 'email', 'schedule'];
const SCOPES = ['workspace', 'user', 'extension', 'plugin'];

/** 1,500 skills in groups of identical descriptions (equal scores), some named alike, with recency and scopes. */
function catalog(): CatalogSkill[] {
  const out: CatalogSkill[] = [];
  for (let i = 0; i < 1500; i++) {
    const g = i % 30;
    const words = [WORDS[g % WORDS.length], WORDS[(g * 5 + 1) % WORDS.length], WORDS[(g * 7 + 3) % WORDS.length]];
    out.push({
      id: `s:${i}`,
      name: i % 7 === 0 ? `shared-${g}` : `skill-${i}`,
      description: `Helps ${words.join(' and ')} files.`,
      location: `/skills/${i % 3}/${i}/SKILL.md`,
      scope: SCOPES[i % SCOPES.length],
      ...(i % 11 === 0 ? { lastUsed: 1000 + (i % 5) } : {}),
    });
  }
  return out;
}

describe('core/index: the catalog order read lazily equals the whole order', () => {
  const skills = catalog();
  const index = new SkillIndex();
  for (const s of skills) index.put({ id: s.id as string, name: s.name, description: s.description });

  for (const request of ['convert pdf table chart deploy audio image resize report invoice email schedule files', 'helps files', 'resize an image', 'invoice email', '$shared-3 please', 'nothing matches zzz']) {
    it(`same order for ${JSON.stringify(request)}`, () => {
      const ranking = rankCatalog(index, request, skills);
      const lazy = [...ranking.order()].map((s) => s.id);
      const whole = rankCatalog(index, request, skills).all().map((s) => s.id);
      assert.equal(lazy.length, skills.length);
      assert.deepEqual(lazy, whole);
    });
  }

  it('the long request matches more skills than either stage of the head holds, with ties at each last score', () => {
    const hits = index.search('convert pdf table chart deploy audio image resize report invoice email schedule files');
    assert.ok(hits.length > 1024, `${hits.length} matches`);
    assert.equal(hits[255].score, hits[256].score, 'a tie across the first stage (256)');
    assert.equal(hits[1023].score, hits[1024].score, 'a tie across the second (1,024)');
  });

  it('a request whose matches end between the stages (more than 256, fewer than 1,024) gives the same order read in part', () => {
    const request = 'resize an image';
    const matches = index.search(request).length;
    assert.ok(matches > 256 && matches < 1024, `${matches} matches`);
    const whole = rankCatalog(index, request, skills).all().map((s) => s.id);
    const part: (string | undefined)[] = [];
    for (const s of rankCatalog(index, request, skills).order()) if (part.push(s.id) >= 400) break;
    assert.deepEqual(part, whole.slice(0, 400));
  });
});
