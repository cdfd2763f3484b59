// The query likelihood's share in the index's order (IndexWeights.likelihood): it moves skills only within a
// quarter of the best score (BM25F's margins stay), leaves every hit's score BM25F's, and its catalog statistics
// follow puts and removals, so an index after 1,500 edits orders exactly as one built fresh from the same skills.
import * as assert from 'node:assert/strict';
import { DEFAULT_WEIGHTS, FIELDS, indexTerms, SkillIndex, type IndexDoc } from '../../../src/core/index';
import { unpack } from '../../../src/core/index/postingLists';
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

  it('orders by the likelihood computed from the skills themselves (a reference written here), fresh and after 1,500 edits', function () {
    // The index computes the likelihood on its postings in one pass with BM25F, its logarithms cached per term by
    // packed counts and its length part kept per slot: a cache key missing the term, or a length part left stale
    // by an edit, orders some request differently from this plain computation.
    this.timeout(120_000);
    const fresh = build(docs);
    const edited = build(docs);
    // Searched between edits, so what a query computes is in place when later edits (and compactions) come.
    churn.forEach((c, i) => {
      if (typeof c === 'string') edited.remove(c);
      else edited.put(c);
      if (i % 50 === 0) edited.search(queries[i % queries.length], 5);
    });
    const { mu, fusion } = DEFAULT_WEIGHTS.likelihood as { mu: number; fusion: number };
    const fieldWeight = FIELDS.map((f) => DEFAULT_WEIGHTS.fields[f].weight);
    let checked = 0;
    for (const index of [fresh, edited]) {
      const vocab = index.vocabulary;
      // Per skill: its field-weighted count of each word, and its field-weighted length; then the catalog's.
      const counts = new Map<string, Map<string, number>>();
      const length = new Map<string, number>();
      const collection = new Map<string, number>();
      let total = 0;
      for (const id of index.ids()) {
        const doc = index.tokensOf(id);
        if (!doc) continue;
        const own = new Map<string, number>();
        for (let i = 0; i < doc.terms.length; i++) {
          const term = vocab.termOf(doc.terms[i]);
          const w = FIELDS.reduce((sum, _, f) => sum + fieldWeight[f] * unpack(doc.counts[i], f), 0);
          own.set(term, w);
          collection.set(term, (collection.get(term) ?? 0) + w);
        }
        counts.set(id, own);
        const len = doc.lengths.reduce((sum, n, f) => sum + fieldWeight[f] * n, 0);
        length.set(id, len);
        total += len;
      }
      for (const q of queries) {
        const hits = index.search(q);
        if (hits.length < 2) continue;
        const said = new Map<string, number>();
        for (const t of indexTerms(q.replace(/[-_]/g, ' '))) said.set(t, (said.get(t) ?? 0) + 1);
        const words = [...said].filter(([t]) => (collection.get(t) ?? 0) > 0).map(([t, n]) => [t, 1 + Math.log(n)] as const);
        const weightSum = words.reduce((sum, [, w]) => sum + w, 0);
        const likelihood = hits.map((h) => {
          const own = counts.get(h.id) as Map<string, number>;
          let l = weightSum * Math.log(mu / ((length.get(h.id) as number) + mu));
          for (const [t, w] of words) l += w * Math.log(1 + (own.get(t) ?? 0) / ((mu * (collection.get(t) as number)) / total));
          return l;
        });
        const lo = Math.min(...likelihood);
        const span = Math.max(...likelihood) - lo || 1;
        const best = Math.max(...hits.map((h) => h.score));
        const key = hits.map((h, i) => h.score / best + (fusion * (likelihood[i] - lo)) / span);
        for (let i = 1; i < key.length; i++) assert.ok(key[i] <= key[i - 1] + 1e-9, `${q.slice(0, 60)}: ${hits[i].id} (key ${key[i]}) comes after ${hits[i - 1].id} (key ${key[i - 1]})`);
        checked++;
      }
    }
    assert.ok(checked > 60, `requests checked: ${checked}`);
  });
});
