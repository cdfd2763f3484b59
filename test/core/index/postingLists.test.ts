// The packed posting counts: the hot loop's written-out unpacking (packedTf) agrees with the field table (CAPS,
// SHIFTS) for every field at its cap, at zero and in between.
import * as assert from 'node:assert/strict';
import { bump, CAPS, packedTf, unpack } from '../../../src/core/index/postingLists';

describe('core/index: packed posting counts', () => {
  it('packedTf is the field-by-field sum of count times norm, for counts from zero to each cap', () => {
    const norms = new Float64Array([0.5, 1.25, 3, 0.07, 9, 9, 9, 9]);
    const samples = [0, 1, 2, 7, 62, 63, 64, 254, 255, 256, 2047, 2048, 4094, 4095, 5000];
    let checked = 0;
    for (const n0 of samples) for (const n3 of samples) for (const n1 of [0, 3, 255, 300]) for (const n2 of [0, 1, 63, 70]) {
      let p = 0;
      const want = [n0, n1, n2, n3];
      want.forEach((n, f) => {
        for (let i = 0; i < n; i++) p = bump(p, f);
      });
      const counts = want.map((n, f) => Math.min(n, CAPS[f]));
      assert.deepEqual([0, 1, 2, 3].map((f) => unpack(p, f)), counts);
      let tf = 0;
      counts.forEach((c, f) => {
        if (c !== 0) tf += c * norms[f];
      });
      assert.equal(packedTf(p, norms, 0), tf);
      checked++;
    }
    assert.equal(checked, samples.length * samples.length * 16);
  });
});
