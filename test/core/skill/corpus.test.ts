import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateSkillDir } from '../../../src/core/skill';

const repoRoot = path.resolve(__dirname, '../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus/anthropic-skills');

describe('anthropic-skills corpus', function () {
  before(function () {
    if (!fs.existsSync(corpus)) {
      console.log(`skipped: corpus not found at ${corpus} (CI clones shared/ beside the repo)`);
      this.skip();
    }
  });
  const skills = () => fs.readdirSync(corpus).filter((d) => fs.statSync(path.join(corpus, d)).isDirectory()).sort();

  it('strict: exactly one invalid skill, claude-api, for its 1,068-character description', async () => {
    const results = await Promise.all(skills().map(async (d) => ({ d, v: await validateSkillDir(path.join(corpus, d), { mode: 'strict' }) })));
    assert.equal(results.length, 12);
    const invalid = results.filter((r) => !r.v.valid);
    assert.deepEqual(invalid.map((r) => r.d), ['claude-api']);
    const errors = invalid[0].v.diagnostics.filter((d) => d.severity === 'error');
    assert.deepEqual(errors.map((d) => d.rule), ['description-too-long']);
    assert.equal(errors[0].data?.length, 1068);
  });

  it('lenient: all twelve load', async () => {
    for (const d of skills()) {
      const v = await validateSkillDir(path.join(corpus, d), { mode: 'lenient' });
      assert.equal(v.valid, true, `${d}: ${JSON.stringify(v.diagnostics.filter((x) => x.severity === 'error'))}`);
      assert.equal(v.name, d);
    }
  });
});
