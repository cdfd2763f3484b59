import * as assert from 'node:assert/strict';
import type { LoadedSkill } from '../../../src/core/registry/loadedSkill';
import { SkillTable } from '../../../src/core/registry/skillTable';

const skill = (dir: string): LoadedSkill =>
  ({ rootDir: dir, name: dir.slice(dir.lastIndexOf('/') + 1) }) as LoadedSkill; // only identity matters here

const listed = (t: SkillTable) => {
  const out: LoadedSkill[] = [];
  t.pushTo(out);
  return out.map((s) => s.rootDir);
};

describe('SkillTable', () => {
  it('finds a skill at its hinted position, and by folder when the hint is wrong or absent', () => {
    const a = skill('/r/a');
    const c = skill('/r/c');
    const t = new SkillTable(['/r/a', '/r/b', '/r/c'], [a, undefined, c]);
    assert.equal(t.get('/r/a', 0), a);
    assert.equal(t.get('/r/c', 2), c);
    assert.equal(t.get('/r/b', 1), undefined, 'a folder without a skill');
    assert.equal(t.get('/r/c', 0), c, 'wrong hint');
    assert.equal(t.get('/r/c'), c, 'no hint');
    assert.equal(t.get('/r/z', 7), undefined);
    assert.deepEqual(listed(t), ['/r/a', '/r/c']);
  });

  it('keeps scan order through set and delete, new folders last', () => {
    const t = new SkillTable(['/r/a', '/r/b'], [skill('/r/a'), skill('/r/b')]);
    const b2 = skill('/r/b');
    t.set('/r/b', b2);
    t.set('/r/0', skill('/r/0'));
    t.delete('/r/a');
    assert.equal(t.get('/r/b', 1), b2);
    assert.equal(t.get('/r/a', 0), undefined);
    assert.deepEqual(listed(t), ['/r/b', '/r/0']);
    assert.deepEqual(listed(new SkillTable()), []);
  });
});
