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

  it('lenient notes and warnings are exactly the reviewed ones (no wrong new warnings)', async () => {
    const found: string[] = [];
    for (const d of skills()) {
      const v = await validateSkillDir(path.join(corpus, d), { mode: 'lenient' });
      for (const x of v.diagnostics) found.push(`${d}:${x.rule}`);
    }
    // Each kept on purpose: claude-api is over the description, body and one-read limits and has "claude" in its
    // name; skill-creator's body is ~8k tokens; three descriptions say "you"/"me" (Anthropic's own guidance asks for
    // the third person); two never say when to use the skill.
    assert.deepEqual(found.sort(), [
      'canvas-design:description-person',
      'claude-api:body-too-long',
      'claude-api:body-too-many-tokens',
      'claude-api:description-too-long',
      'claude-api:name-reserved-word',
      'claude-api:reference-too-many-tokens',
      'internal-comms:description-person',
      'skill-creator:body-too-many-tokens',
      'theme-factory:description-no-trigger',
      'theme-factory:description-person',
      'webapp-testing:description-no-trigger',
    ]);
  });
});
