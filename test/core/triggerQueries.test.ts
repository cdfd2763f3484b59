// The trigger-set checks of src/core/evals on plain text (the language server's tests run them over stdio).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkTriggerQueries, MAX_TRIGGER_QUERIES, namesSkill } from '../../src/core/evals';
import { validateSkillDir } from '../../src/core/skill/readSkillDir';

describe('trigger sets (evals/trigger-queries.json)', () => {
  it('a request names the skill when it calls it by name, not when it uses its words as words', () => {
    assert.equal(namesSkill('use meeting-notes here', 'meeting-notes'), true);
    assert.equal(namesSkill('run the Meeting Notes skill', 'meeting-notes'), true);
    assert.equal(namesSkill('load $pdf and fill the form', 'pdf'), true);
    assert.equal(namesSkill('use the skill called pdf', 'pdf'), true);
    assert.equal(namesSkill('fill in this PDF form', 'pdf'), false);
    assert.equal(namesSkill('summarise my meeting notes', 'meeting-notes'), false);
    assert.equal(namesSkill('pdfs are everywhere', 'pdf'), false);
  });

  it('reads the well-formed requests with their fields, and the split defaults to none given', () => {
    const r = checkTriggerQueries('[{"query":"a","should_trigger":true,"split":"validation","note":"n"},{"query":"b","should_trigger":false}]');
    assert.deepEqual(r.findings, []);
    assert.deepEqual(r.queries, [
      { query: 'a', should_trigger: true, split: 'validation', note: 'n' },
      { query: 'b', should_trigger: false },
    ]);
  });

  it(`reads at most ${MAX_TRIGGER_QUERIES} requests and says so; a deep nesting costs nothing more`, () => {
    const many = JSON.stringify(Array.from({ length: MAX_TRIGGER_QUERIES + 5 }, (_, i) => ({ query: `q${i}`, should_trigger: i % 2 === 0 })));
    const r = checkTriggerQueries(many);
    assert.equal(r.queries.length, MAX_TRIGGER_QUERIES);
    assert.deepEqual(r.findings.map((f) => f.rule), ['trigger-size']);
    // The parser recurses per level: 100,000 nested arrays overflowed the stack before the depth bound.
    const deep = `[${'['.repeat(100_000)}${']'.repeat(100_000)}]`;
    const d = checkTriggerQueries(deep);
    assert.deepEqual(d.findings.map((f) => f.rule), ['trigger-shape']);
    assert.match(d.findings[0].message, /nests arrays or objects more than 16 deep: it is not checked/);
    // Brackets inside strings are text, not nesting.
    assert.deepEqual(checkTriggerQueries(JSON.stringify([{ query: '['.repeat(1000), should_trigger: true }, { query: 'b', should_trigger: false }])).findings, []);
  });

  it("a skill's evals/ files are not reported as unreferenced (they are for the author and the judge, not the model)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trigger-unref-'));
    try {
      const skill = path.join(dir, 'notes');
      fs.mkdirSync(path.join(skill, 'evals'), { recursive: true });
      fs.mkdirSync(path.join(skill, 'scripts'), { recursive: true });
      fs.writeFileSync(path.join(skill, 'SKILL.md'), '---\nname: notes\ndescription: Summarises notes. Use when the user shares notes.\n---\n# Notes\n');
      fs.writeFileSync(path.join(skill, 'evals', 'trigger-queries.json'), '[]');
      fs.writeFileSync(path.join(skill, 'scripts', 'forgotten.sh'), 'echo hi\n');
      const v = await validateSkillDir(skill);
      const unreferenced = v.diagnostics.filter((d) => d.rule === 'file-unreferenced').map((d) => d.message.split(' ')[0]);
      assert.deepEqual(unreferenced, ['scripts/forgotten.sh']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
