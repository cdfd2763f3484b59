// The query likelihood's share in the index's order (IndexWeights.likelihood): it moves skills only within a
// quarter of the best score (BM25F's margins stay), leaves every hit's score BM25F's, and its catalog statistics
// follow puts and removals, so an index after 1,500 edits orders exactly as one built fresh from the same skills.
import * as assert from 'node:assert/strict';
import { DEFAULT_WEIGHTS, SkillIndex, type IndexDoc } from '../../../src/core/index';
import { generatedCatalog } from './generatedCatalog';

const bm25fOnly = { ...DEFAULT_WEIGHTS, likelihood: undefined };

describe('core/index: the query likelihood share', () => {
  const { docs, churn, queries } = generatedCatalog();
  const build = (list: readonly IndexDoc[], weights = DEFAULT_WEIGHTS) => {
    const index = new SkillIndex(weights);
    for (const d of list) index.put(d);
    return index;
  };

  it('keeps BM25F scores and margins: a skill moves past another only within the fusion weight of the best score', function () {
    this.timeout(60_000);
    const fused = build(docs);
    const plain = build(docs, bm25fOnly);
    const fusion = (DEFAULT_WEIGHTS.likelihood as { fusion: number }).fusion;
    let moved = 0;
    for (const q of queries) {
      const a = fused.search(q, 30);
      const b = plain.search(q, 400);
      const score = new Map(b.map((h) => [h.id, h.score]));
      if (!a.length) continue;
      const best = b[0].score;
      assert.equal(Math.max(...a.map((h) => h.score)), best, `${q}: the best score is BM25F's`);
      for (const h of a) assert.equal(h.score, score.get(h.id), `${q}: ${h.id} keeps its BM25F score`);
      a.forEach((x, i) =>
        a.slice(i + 1).forEach((y) => {
          // y after x: x may be below y by BM25F only within the weight of the likelihood's 0..1 share.
          assert.ok((y.score - x.score) / best <= fusion + 1e-9, `${q}: ${x.id} (${x.score}) before ${y.id} (${y.score}), best ${best}`);
        }),
      );
      if (a.map((h) => h.id).join() !== b.slice(0, a.length).map((h) => h.id).join()) moved++;
    }
    assert.ok(moved > 0, 'the likelihood changes some order');
  });

  it('follows puts and removals: after 1,500 edits the order equals a fresh index of the same skills', function () {
    this.timeout(60_000);
    const edited = build(docs);
    const all = new Map(docs.map((d) => [d.id, d]));
    for (const c of churn) {
      if (typeof c === 'string') {
        edited.remove(c);
        all.delete(c);
      } else {
        edited.put(c);
        all.set(c.id, c);
      }
    }
    const fresh = build([...all.values()]);
    for (const q of queries) {
      const a = edited.search(q, 40).map((h) => h.id);
      const b = fresh.search(q, 40).map((h) => h.id);
      assert.deepEqual(a, b, q);
    }
  });
});
