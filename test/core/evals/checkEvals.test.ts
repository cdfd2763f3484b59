// The eval-set checks of src/core/evals (evals/evals.json) on plain text and on a real skill folder in a temp
// directory (input files resolved with the project's path rule, links followed). The language server's tests run
// the same checks over stdio (test/server/evalsJson.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkEvals, MAX_EVAL_CASES, MAX_JSON_FILE_CHARS, type EvalsFinding } from '../../../src/core/evals';
import { localDisk } from '../../../src/core/host/localDisk';
import { makeTempDir } from '../../support/tempDir';

const rules = (fs: EvalsFinding[]) => fs.map((f) => `${f.rule}/${f.severity}`);

describe('eval sets (evals/evals.json)', () => {
  let dir: string;
  let cleanup: () => void;
  let skillDir: string;
  beforeEach(() => {
    ({ dir, cleanup } = makeTempDir('evals-json-'));
    skillDir = path.join(dir, 'csv-report');
    fs.mkdirSync(path.join(skillDir, 'evals', 'files'), { recursive: true });
    fs.writeFileSync(path.join(skillDir, 'SKILL.md'), '---\nname: csv-report\ndescription: Reports on CSV files.\n---\n');
    fs.writeFileSync(path.join(skillDir, 'evals', 'files', 'sales.csv'), 'a,b\n1,2\n');
  });
  afterEach(() => cleanup());
  const check = (text: string) => checkEvals(text, { skill: 'csv-report', skillDir, host: localDisk });

  it('reads a well-formed set: the cases with their fields, no findings', () => {
    const text = JSON.stringify({
      skill_name: 'csv-report',
      evals: [
        { id: 1, prompt: 'Chart the monthly totals of sales.csv', expected_output: 'A bar chart', files: ['evals/files/sales.csv'], assertions: ['The chart has labelled axes'] },
        { id: 2, prompt: 'Which month sold most?' },
      ],
    });
    const r = check(text);
    assert.deepEqual(r.findings, []);
    assert.deepEqual(r.cases, [
      { id: 1, prompt: 'Chart the monthly totals of sales.csv', expected_output: 'A bar chart', files: ['evals/files/sales.csv'], assertions: ['The chart has labelled axes'] },
      { id: 2, prompt: 'Which month sold most?', files: [], assertions: [] },
    ]);
  });

  it('wrong shape and types, unknown fields, a missing prompt or id, an empty prompt, a fractional id', () => {
    assert.match(check('[]').findings[0].message, /evals\/evals.json must be a JSON object \{ "skill_name".*it is an array/);
    assert.deepEqual(rules(check('{ "skill_name": "csv-report" }').findings), ['evals-field/error']);
    const r = check(
      JSON.stringify({
        skill_name: 'csv-report',
        evals: [
          'a string',
          { id: '1', prompt: 'p', assertions: 'one' },
          { prompt: '  ', expected: 'x' },
          { id: 1.5, prompt: 'p', files: [3] },
        ],
        extra: true,
      }),
    );
    const msgs = r.findings.map((f) => `${f.rule}/${f.severity}: ${f.message}`);
    for (const re of [
      /^evals-shape\/error: Eval 1 of evals\/evals.json must be an object .* it is a string\.$/,
      /^evals-field\/error: Eval 2: "id" must be a number; it is a string\.$/,
      /^evals-field\/error: Eval 2: "assertions" must be an array of strings, e.g. \["..."\]; it is a string\.$/,
      /^evals-field\/warning: Eval 3: unknown field "expected"; an eval has "id", "prompt", "expected_output", "files", "assertions"\. Remove it or fix its name\.$/,
      /^evals-field\/error: Eval 3 has no "id"; add "id": 3/,
      /^evals-field\/error: Eval 3: "prompt" is empty\. Write the task/,
      /^evals-field\/error: Eval 4: "id" is 1\.5; it must be a whole number/,
      /^evals-field\/error: Eval 4: item 1 of "files" must be a string; it is a number\.$/,
      /^evals-field\/warning: evals\/evals.json: unknown field "extra"/,
    ]) {
      assert.ok(msgs.some((m) => re.test(m)), `${re} not in:\n${msgs.join('\n')}`);
    }
    assert.equal(msgs.length, 9, msgs.join('\n'));
    assert.deepEqual(r.cases, []);
  });

  it('a duplicate id is an error naming the first line; skill_name other than the skill is a warning naming the fix', () => {
    const text = '{\n  "skill_name": "csv-reports",\n  "evals": [\n    { "id": 1, "prompt": "a" },\n    { "id": 1, "prompt": "b" }\n  ]\n}';
    const r = check(text);
    assert.deepEqual(rules(r.findings), ['evals-skill-name/warning', 'evals-duplicate/error']);
    assert.match(r.findings[0].message, /"skill_name" is "csv-reports" but this is the skill "csv-report".*Write "skill_name": "csv-report"\./);
    assert.match(r.findings[1].message, /^Eval 2: id 1 is also the id on line 4; .* Give each case its own id\.$/);
    assert.equal(text.slice(r.findings[1].offset, r.findings[1].offset + r.findings[1].length), '1');
    assert.equal(r.findings[1].offset, text.lastIndexOf('"id": 1') + 6);
  });

  it("input files: missing, absolute, climbing out, or linked outside the skill's folder are errors; a link inside is fine", () => {
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'outside\n');
    fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(skillDir, 'evals', 'files', 'leak.txt'));
    fs.symlinkSync(path.join(skillDir, 'evals', 'files', 'sales.csv'), path.join(skillDir, 'evals', 'files', 'alias.csv'));
    const files = ['evals/files/sales.csv', 'evals/files/alias.csv', 'files/sales.csv', '/etc/passwd', '../secret.txt', 'evals/../../secret.txt', 'evals/files/leak.txt', ''];
    const r = check(JSON.stringify({ evals: [{ id: 1, prompt: 'p', files }] }));
    const byFile = r.findings.map((f) => f.message.replace(/^Eval 1: /, ''));
    assert.deepEqual(rules(r.findings), Array(5).fill('evals-file/error').concat(['evals-field/error']));
    assert.match(byFile[0], /^input file "files\/sales.csv" does not exist in the skill's folder; .*relative to the folder, not to evals\/\)\.$/);
    assert.match(byFile[1], /^input file "\/etc\/passwd" is absolute; give a path relative/);
    assert.match(byFile[2], /^input file "..\/secret.txt" leaves the skill's folder/);
    assert.match(byFile[3], /^input file "evals\/..\/..\/secret.txt" leaves the skill's folder/);
    assert.match(byFile[4], new RegExp(`^input file "evals/files/leak.txt" resolves through a symbolic link to ${fs.realpathSync(path.join(dir, 'secret.txt')).replace(/[.]/g, '\\.')} outside`));
    assert.match(byFile[5], /an item of "files" is empty/);
    // Without a folder to look in (the text alone), only the lexical half of the rule applies.
    assert.deepEqual(rules(checkEvals(JSON.stringify({ evals: [{ id: 1, prompt: 'p', files }] })).findings), Array(3).fill('evals-file/error').concat(['evals-field/error']));
  });

  it(`bounded: over ${MAX_JSON_FILE_CHARS} characters or 16 deep it is not parsed; at most ${MAX_EVAL_CASES} cases are read`, () => {
    const huge = `{"evals":[${'{"id":1,"prompt":"p"},'.repeat(Math.ceil(MAX_JSON_FILE_CHARS / 20))}{"id":2,"prompt":"q"}]}`;
    assert.deepEqual(rules(check(huge).findings), ['evals-size/error']);
    const deep = `{"evals":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    const d = check(deep);
    assert.deepEqual(rules(d.findings), ['evals-shape/error']);
    assert.match(d.findings[0].message, /nests arrays or objects more than 16 deep: it is not checked/);
    const many = JSON.stringify({ evals: Array.from({ length: MAX_EVAL_CASES + 3 }, (_, i) => ({ id: i, prompt: `p${i}` })) });
    const m = check(many);
    assert.equal(m.cases.length, MAX_EVAL_CASES);
    assert.deepEqual(rules(m.findings), ['evals-size/error']);
  });

  it('invalid JSON names the problem and the expected shape', () => {
    const r = check('{ "evals": [ { "id": 1, "prompt": "p" }, ] }');
    assert.ok(r.findings.some((f) => f.rule === 'evals-json' && /not valid JSON here \(.*\)\. Fix the JSON: an eval set is \{ "skill_name"/.test(f.message)), JSON.stringify(r.findings));
  });
});
