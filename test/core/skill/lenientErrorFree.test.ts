import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { lenientErrorFree, LENIENT_ERROR_RULES } from '../../../src/core/skill/lenientErrorFree';
import { parseSkillText } from '../../../src/core/skill/parseSkillText';
import { RULES } from '../../../src/core/skill/rules';
import { validateSkillContentDiagnostics } from '../../../src/core/skill/validateSkill';
import { seededRandom } from '../../support/seededRandom';

const SHARED = path.resolve(__dirname, '../../../../shared');

/** Checks the predicate on one file: when it says error-free, the lenient content rules find no error. Returns its answer. */
function check(text: string, folderName: string, fileName = 'SKILL.md'): boolean {
  const parsed = parseSkillText(text, true);
  if (!lenientErrorFree(parsed)) return false;
  const errors = validateSkillContentDiagnostics(parsed, folderName, fileName, 'lenient').filter((d) => d.severity === 'error');
  assert.deepEqual(errors.map((d) => d.rule), [], `lenientErrorFree accepted a file with a lenient error: ${JSON.stringify(text.slice(0, 300))} in ${folderName}/${fileName}`);
  return true;
}

function skillFiles(dir: string, out: string[] = [], depth = 0): string[] {
  if (depth > 6) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) skillFiles(p, out, depth + 1);
    else if (e.name === 'SKILL.md' || e.name === 'skill.md') out.push(p);
  }
  return out;
}

describe('lenientErrorFree (the registry knows a skill is usable without running the rules)', () => {
  it('names exactly the rules that are errors in lenient mode (a rule that becomes one must be ruled out here too)', () => {
    const table = RULES.filter((r) => r.lenient === 'error').map((r) => r.id).sort();
    assert.deepEqual([...LENIENT_ERROR_RULES].sort(), table);
  });

  it('declines each way a file can have a lenient error', () => {
    const cases = [
      '# no frontmatter\n',
      '---\nname: pdf\ndescription: Reads PDFs.\n', // unclosed
      '---\nname: pdf\ndescription: a: b: c\n---\n', // YAML error
      '---\n- a\n- b\n---\n', // not a mapping
      '---\nname: pdf\n---\n', // description missing
      '---\nname: pdf\ndescription: "   "\n---\n', // empty
      '---\nname: pdf\ndescription:\n---\n', // empty value
      '---\nname: pdf\ndescription:\n  a: b\n---\n', // a mapping
    ];
    for (const text of cases) {
      assert.equal(lenientErrorFree(parseSkillText(text, true)), false, JSON.stringify(text));
      const errors = validateSkillContentDiagnostics(parseSkillText(text, true), 'pdf', 'SKILL.md', 'lenient').filter((d) => d.severity === 'error');
      assert.ok(errors.length > 0, `the validator should fault ${JSON.stringify(text)} in lenient mode`);
    }
  });

  it('never accepts a generated file the lenient rules fault', () => {
    const rnd = seededRandom(20261127);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const names = ['pdf', 'pdf', 'PDF', 'pdf--x', '-pdf', 'claude-x', 'a'.repeat(70), '"pdf"', '', 'ünï'];
    const descriptions = ['Does PDFs. Use for PDFs.', 'Plain words', 'You read PDFs', '<tag>', '"  "', "''", '', 'x'.repeat(1025), '"quoted: yes"', '|\n  block text', '[a, b]', '12', 'a: b', '>\n  folded'];
    const extra = ['license: MIT', 'version: 1.0', 'compatibility: git', 'metadata:\n  a: b', 'allowed-tools: Read', 'x-unknown: 1', 'name: again', 'description: again', 'description:', '&a x: 1', '- item'];
    const bodies = ['', '\n# T\n', `\n${'line\n'.repeat(501)}`, '\n```sh\nopen fence\n', '\nTODO: steps\n', '\nzero\u200bwidth\n', '\nNow: !`date`\n', '\n<!-- agent-skills-disable -->\n'];
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const lines = [`name: ${pick(names)}`, `description: ${pick(descriptions)}`];
      if (rnd() < 0.4) lines.push(pick(extra));
      if (rnd() < 0.1) lines.reverse();
      if (rnd() < 0.1) lines.shift();
      const eol = rnd() < 0.15 ? '\r\n' : '\n';
      const open = rnd() < 0.03 ? '\n---' : rnd() < 0.03 ? '\uFEFF---' : '---';
      const close = rnd() < 0.05 ? '' : `---${eol}`;
      if (check(`${open}${eol}${lines.join(eol)}${eol}${close}${pick(bodies)}`, rnd() < 0.8 ? 'pdf' : 'other', rnd() < 0.05 ? 'skill.md' : 'SKILL.md')) accepted++;
    }
    assert.ok(accepted > 300, `the predicate took only ${accepted} of 3000 generated files`);
  });

  it('never accepts a corpus or real-world skill the lenient rules fault', function () {
    const roots = ['corpus', 'realworld'].map((d) => path.join(SHARED, d)).filter((d) => fs.existsSync(d));
    if (roots.length === 0) {
      console.log(`      skipped: no corpus at ${SHARED}/corpus or ${SHARED}/realworld`);
      this.skip();
    }
    let accepted = 0;
    const files = roots.flatMap((r) => skillFiles(r));
    for (const f of files) if (check(fs.readFileSync(f, 'utf8'), path.basename(path.dirname(f)), path.basename(f))) accepted++;
    assert.ok(accepted > files.length / 2, `accepted ${accepted} of ${files.length}`);
  });
});
