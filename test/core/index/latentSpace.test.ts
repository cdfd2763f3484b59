// The latent space of the re-rank experiment (test/bench/semantic): its arithmetic is checked here so that the
// experiment's negative result is a finding about the method, not a bug in the SVD.
import { strict as assert } from 'node:assert';
import { cosine, LatentSpace, MAX_LATENT_TERMS_PER_DOC, type TermWeights } from '../../bench/semantic/latentSpace';

const doc = (text: string): TermWeights => {
  const m = new Map<string, number>();
  for (const w of text.split(/\s+/).filter(Boolean)) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
};
const one = (w: string): TermWeights => new Map([[w, 1]]);

// Two topics; "automobile" and "car" never appear together, but each appears with the same neighbours.
const CATALOG = [
  'car engine wheels garage repair',
  'automobile engine wheels garage',
  'car brakes wheels tyres',
  'automobile brakes tyres repair',
  'car garage engine oil',
  'automobile oil engine brakes',
  'banana fruit smoothie blender',
  'apple fruit pie oven',
  'banana bread oven flour',
  'apple smoothie blender fruit',
  'flour bread oven yeast',
  'fruit salad apple banana',
].map(doc);

describe('latent space (re-rank experiment)', () => {
  it('puts two words used in the same contexts close, and words of other topics far', () => {
    const space = LatentSpace.learn(CATALOG, { dims: 2, oversample: 4 });
    const car = space.embed(one('car'));
    const automobile = space.embed(one('automobile'));
    const banana = space.embed(one('banana'));
    const near = cosine(car, automobile);
    const far = cosine(car, banana);
    assert.ok(near > 0.8, `car~automobile ${near.toFixed(3)}`);
    assert.ok(far < 0.3, `car~banana ${far.toFixed(3)}`);
  });

  it('keeps every angle of a low-rank catalog exactly (the randomized SVD is right, not only plausible)', () => {
    // Rank-3 documents (mixes of three term profiles): with 3 dims the space holds them without loss, so the
    // cosine of two embedded documents equals the cosine of their term vectors. A wrong basis (not orthonormal,
    // a missing 1/sigma, a wrong eigenvector) changes these angles.
    const terms = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const profiles = [
      [1, 2, 0, 1, 3, 0, 1],
      [0, 1, 2, 1, 0, 2, 0],
      [2, 0, 1, 0, 1, 1, 3],
    ];
    const mixes = [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [2, 1, 1], [1, 3, 0], [3, 2, 1], [0, 1, 4], [1, 0, 2]];
    const vec = (m: number[]) => terms.map((_, i) => m.reduce((s, x, k) => s + x * profiles[k][i], 0));
    const docs = mixes.map((m) => new Map(terms.map((t, i) => [t, vec(m)[i]] as [string, number]).filter(([, w]) => w > 0)));
    const space = LatentSpace.learn(docs, { dims: 3, oversample: 2, power: 1 });
    assert.equal(space.dims, 3);
    const plainCos = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i], 0) / (Math.hypot(...x) * Math.hypot(...y));
    let worst = 0;
    for (let i = 0; i < mixes.length; i++) {
      for (let j = i + 1; j < mixes.length; j++) {
        worst = Math.max(worst, Math.abs(cosine(space.embed(docs[i]), space.embed(docs[j])) - plainCos(vec(mixes[i]), vec(mixes[j]))));
      }
    }
    assert.ok(worst < 1e-4, `largest angle error ${worst}`);
  });

  it('is deterministic, ignores words seen in one document only, and embeds an unknown text as zeros', () => {
    const a = LatentSpace.learn(CATALOG, { dims: 3 });
    const b = LatentSpace.learn(CATALOG, { dims: 3 });
    assert.deepEqual([...a.embed(one('oven'))], [...b.embed(one('oven'))]);
    assert.ok([...a.embed(one('yeast'))].every((x) => x === 0), 'yeast is in one document: not in the space');
    assert.ok([...a.embed(one('zzz'))].every((x) => x === 0));
    assert.equal(LatentSpace.learn([]).terms, 0);
  });

  it('bounds a hostile document: a huge one counts only its heaviest terms and the learn stays small', () => {
    const huge = new Map<string, number>();
    for (let i = 0; i < 200_000; i++) huge.set(`w${i}`, 1 + (i % 7));
    const space = LatentSpace.learn([huge, huge, ...CATALOG], { dims: 4 });
    // Only its heaviest terms enter the vocabulary (the catalog's own words add at most a few dozen).
    assert.ok(space.terms >= MAX_LATENT_TERMS_PER_DOC && space.terms <= MAX_LATENT_TERMS_PER_DOC + 40, `${space.terms} terms`);
    assert.ok(space.embed(one('car')).some((x) => x !== 0));
  });
});
