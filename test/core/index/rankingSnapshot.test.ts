// The index's results do not move when its data structures change: a generated 2,000-skill catalog (and the
// same catalog after 1,500 edits and removals, which compacts the postings) is ranked for 47 requests and
// compared with the snapshot test/fixtures/index/rankingSnapshot.json, taken with the index as it was before
// its postings became typed arrays. Ids and order must be equal, scores equal within 1e-9 (relative).
// A deliberate change of the scoring regenerates it: SKILLS_UPDATE_SNAPSHOT=1 npx mocha <this file>.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rankCatalog, SkillIndex, type IndexDoc } from '../../../src/core/index';
import { generatedCatalog } from './generatedCatalog';

const SNAPSHOT = path.join(__dirname, '../../fixtures/index/rankingSnapshot.json');

type Row = [id: string, score: number, confidence: number];
interface Phase {
  size: number;
  matches: number[];
  top: Row[][];
  explained: { id: string; terms: [string, string, number][] }[];
  names: [string, number, string[]][];
  order: string[][];
}

function takePhase(index: SkillIndex, queries: string[], docs: IndexDoc[]): Phase {
  const live = docs.filter((d) => index.has(d.id));
  const skills = live.map((d) => ({ id: d.id, name: d.name, description: d.description }));
  const names = [...new Set(live.slice(0, 60).map((d) => d.name))];
  return {
    size: index.size,
    matches: queries.map((q) => index.search(q).length),
    top: queries.map((q) => index.search(q, 30).map((h): Row => [h.id, h.score, h.confidence])),
    explained: queries.map((q) => {
      const id = index.search(q, 1)[0]?.id ?? 'g:0';
      return { id, terms: index.explain(q, id).map((m): [string, string, number] => [m.term, JSON.stringify(m.fields), m.score]) };
    }),
    names: names.map((n): [string, number, string[]] => [n, index.nameFrequency(n), index.idsNamed(n).sort()]),
    order: queries.slice(0, 12).map((q) => [...rankCatalog(index, q, skills).all()].slice(0, 40).map((s) => s.id as string)),
  };
}

function phases(): Phase[] {
  const { docs, churn, queries } = generatedCatalog();
  const index = new SkillIndex();
  for (const d of docs) index.put(d);
  const first = takePhase(index, queries, docs);
  const all = new Map(docs.map((d) => [d.id, d]));
  for (const c of churn) {
    if (typeof c === 'string') index.remove(c);
    else {
      index.put(c);
      all.set(c.id, c);
    }
  }
  return [first, takePhase(index, queries, [...all.values()])];
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('core/index: rankings equal the snapshot taken before the data-structure changes', () => {
  it('ranks a generated 2,000-skill catalog, before and after 1,500 edits, exactly as the snapshot', function () {
    this.timeout(120_000);
    const got = phases();
    if (process.env.SKILLS_UPDATE_SNAPSHOT === '1') {
      fs.mkdirSync(path.dirname(SNAPSHOT), { recursive: true });
      fs.writeFileSync(SNAPSHOT, `${JSON.stringify(got)}\n`);
      console.log(`    snapshot written: ${SNAPSHOT}`);
    }
    const want = JSON.parse(fs.readFileSync(SNAPSHOT, 'utf8')) as Phase[];
    assert.equal(got.length, want.length);
    got.forEach((g, p) => {
      const w = want[p];
      const where = `phase ${p}`;
      assert.equal(g.size, w.size, `${where}: size`);
      assert.deepEqual(g.matches, w.matches, `${where}: match counts`);
      assert.deepEqual(g.names, w.names, `${where}: name frequencies`);
      assert.deepEqual(g.order, w.order, `${where}: catalog order`);
      g.top.forEach((rows, q) => {
        assert.deepEqual(rows.map((r) => r[0]), w.top[q].map((r) => r[0]), `${where}, query ${q}: ids`);
        rows.forEach((r, i) => {
          assert.ok(close(r[1], w.top[q][i][1]), `${where}, query ${q}, ${r[0]}: score ${r[1]} vs ${w.top[q][i][1]}`);
          assert.ok(close(r[2], w.top[q][i][2]), `${where}, query ${q}, ${r[0]}: confidence ${r[2]} vs ${w.top[q][i][2]}`);
        });
      });
      g.explained.forEach((e, q) => {
        const x = w.explained[q];
        assert.equal(e.id, x.id);
        assert.deepEqual(e.terms.map((t) => [t[0], t[1]]), x.terms.map((t) => [t[0], t[1]]), `${where}, query ${q}: explained terms`);
        e.terms.forEach((t, i) => assert.ok(close(t[2], x.terms[i][2]), `${where}, query ${q}: explained ${t[0]}`));
      });
    });
    // The snapshot holds real rankings, not empty lists.
    assert.ok(want[0].top.filter((r) => r.length === 30).length > 30, 'most requests fill 30 results');
    assert.ok(want[1].size < want[0].size, 'the churn removed skills');
  });
});
