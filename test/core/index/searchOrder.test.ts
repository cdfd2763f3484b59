// find_skills' search order (src/core/index/searchOrder.ts) on catalogs written here (no benchmark data): a
// two-part request gets both skills in the first 5, near copies of one skill do not crowd out the other part, the
// first result is always the index's best, a removed skill is never returned, and a hostile request is read only
// up to the index's bound.
import * as assert from 'node:assert/strict';
import { MAX_QUERY_CHARS, searchInOrder, searchSkills, SkillIndex, type IndexDoc, type SearchableSkill } from '../../../src/core/index';
import { COPIES_REQUEST, copiesCatalog, fillerSkills, TWO_PART_REQUEST, twoPartCatalog } from './searchOrderFixtures';

const indexOf = (docs: IndexDoc[]) => {
  const index = new SkillIndex();
  for (const d of docs) index.put(d);
  return index;
};
const ids = (hits: { id: string }[]) => hits.map((h) => h.id);

describe('core/index: the search order of find_skills', () => {
  it('a two-part request finds the skill of its short part in the first 5, where the score order has it below', () => {
    const index = indexOf(twoPartCatalog());
    const plain = ids(index.search(TWO_PART_REQUEST, 10));
    // The fixture is one the score order gets wrong: six broad suites outscore the subtitle skill.
    assert.equal(plain[0], 'u:speech-to-text');
    assert.ok(plain.indexOf('u:subtitle-translator') >= 5, `score order: ${plain.join(', ')}`);
    const found = ids(searchInOrder(index, TWO_PART_REQUEST, 5));
    assert.equal(found.length, 5);
    assert.equal(found[0], 'u:speech-to-text');
    assert.ok(found.includes('u:subtitle-translator'), `search order: ${found.join(', ')}`);
  });

  it('near copies of one skill take one place: the skill of the other part comes second, the copies after the distinct skills', () => {
    const index = indexOf(copiesCatalog());
    const plain = ids(index.search(COPIES_REQUEST, 10));
    assert.ok(plain.slice(0, 5).every((id) => id.endsWith(':pdf-merge')), `score order: ${plain.join(', ')}`);
    const found = ids(searchInOrder(index, COPIES_REQUEST, 30));
    assert.equal(found[0], plain[0]);
    assert.equal(found[1], 'u:send-email');
    // Every copy is still returned, after the distinct skills of the re-ordered head.
    const copies = found.filter((id) => id.endsWith(':pdf-merge'));
    assert.equal(copies.length, 6);
    assert.ok(found.indexOf(copies[1]) > found.indexOf('u:send-email'));
  });

  it('skills that only look alike (one word of their own each) are not near copies', () => {
    const base = 'Merge PDF files into one PDF document with page numbers and bookmarks for every merged file and a table of contents';
    const docs: IndexDoc[] = [...fillerSkills(50), { id: 'a', name: 'pdf-merge', description: `${base}; for invoices.` }, { id: 'b', name: 'pdf-join', description: `${base}; for scans.` }, { id: 'c', name: 'email', description: 'Email the merged PDF.' }];
    const index = indexOf(docs);
    const found = ids(searchInOrder(index, 'merge the PDF files into one PDF document with page numbers', 3));
    assert.deepEqual(found.slice(0, 2).sort(), ['a', 'b']);
  });

  it('keeps the index best first for any request, returns at most the limit, and the same order every time', () => {
    const index = indexOf([...twoPartCatalog(), ...copiesCatalog().filter((d) => !d.id.startsWith('f:'))]);
    for (const q of [TWO_PART_REQUEST, COPIES_REQUEST, 'translate', 'pdf', 'audio suite for podcasts', 'nothing matches xyzzy']) {
      const best = index.search(q, 1)[0]?.id;
      const found = searchInOrder(index, q, 7);
      assert.equal(found[0]?.id, best, q);
      assert.ok(found.length <= 7);
      assert.deepEqual(ids(searchInOrder(index, q, 7)), ids(found), q);
      assert.equal(new Set(ids(found)).size, found.length, `no skill twice for ${q}`);
    }
  });

  it('never returns a removed skill, and a copy whose twin was removed is not held back', () => {
    const index = indexOf(copiesCatalog());
    const before = ids(searchInOrder(index, COPIES_REQUEST, 10));
    const copies = copiesCatalog().filter((d) => d.id.endsWith(':pdf-merge')).map((d) => d.id);
    for (const id of copies.filter((x) => x !== before[0])) index.remove(id);
    index.remove('u:send-email');
    const after = ids(searchInOrder(index, COPIES_REQUEST, 10));
    assert.ok(!after.includes('u:send-email'));
    // The one copy left is the best match again, first.
    assert.deepEqual(after.filter((id) => id.endsWith(':pdf-merge')), [before[0]]);
    assert.equal(after[0], before[0]);
    index.remove(before[0]);
    assert.ok(!ids(searchInOrder(index, COPIES_REQUEST, 50)).some((id) => id.endsWith(':pdf-merge') || id === 'u:send-email'));
  });

  it('reads a hostile request only up to the index bound: a 2 MB request orders like its first part', () => {
    const index = indexOf(twoPartCatalog());
    const noise = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    const head = `${TWO_PART_REQUEST} ${'x'.repeat(MAX_QUERY_CHARS)}`.slice(0, MAX_QUERY_CHARS);
    const hostile = `${head}${noise}`;
    assert.ok(hostile.length > 1_000_000);
    assert.deepEqual(ids(searchInOrder(index, hostile, 10)), ids(searchInOrder(index, head, 10)));
  });

  it('is the order find_skills returns (searchSkills), skills not offered passed over', () => {
    const docs = twoPartCatalog();
    const index = indexOf(docs);
    const offered = new Map<string, SearchableSkill>(docs.filter((d) => d.id !== 'u:audio-toolkit').map((d) => [d.id, { id: d.id, name: d.name, description: d.description }]));
    const found = searchSkills(index, offered, TWO_PART_REQUEST, { limit: 5 }).matches.map((m) => m.id);
    assert.deepEqual(found, ids(searchInOrder(index, TWO_PART_REQUEST, 30)).filter((id) => offered.has(id)).slice(0, 5));
    assert.ok(found.includes('u:subtitle-translator'));
  });
});
