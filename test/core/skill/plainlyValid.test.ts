import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseSkillText } from '../../../src/core/skill/parseSkillText';
import { plainlyValid } from '../../../src/core/skill/plainlyValid';
import { isQuiet } from '../../../src/core/skill/quietText';
import { validateSkillContent, validateSkillContentDiagnostics } from '../../../src/core/skill/validateSkill';
import { seededRandom } from '../../support/seededRandom';

const CORPUS = path.resolve(__dirname, '../../../../shared/corpus/anthropic-skills');

/** What the full validator says of a file, in both modes. */
function fullFindings(text: string, folderName: string, fileName: string): string[] {
  const parsed = parseSkillText(text);
  return (['lenient', 'strict'] as const).flatMap((mode) => validateSkillContent({ parsed, folderName, fileName }, { mode }).diagnostics.map((d) => `${mode}:${d.rule}`));
}

/** Checks the shortcut on one file: when it says clean, the full validator finds nothing. Returns whether it said clean. */
function check(text: string, folderName: string, fileName = 'SKILL.md'): boolean {
  const parsed = parseSkillText(text, true);
  // The quiet path (one character class, then only the searches quiet text still needs) answers as every search does.
  const answer = plainlyValid(parsed, folderName, fileName);
  assert.equal(answer, plainlyValid(parsed, folderName, fileName, false), `the quiet path disagrees on ${JSON.stringify(text.slice(0, 300))}`);
  if (!answer) return false;
  assert.deepEqual(fullFindings(text, folderName, fileName), [], `plainlyValid accepted a file the validator faults: ${JSON.stringify(text.slice(0, 300))} in ${folderName}/${fileName}`);
  assert.deepEqual(validateSkillContentDiagnostics(parsed, folderName, fileName, 'strict'), []);
  return true;
}

describe('plainlyValid (the registry checker shortcut for clean files)', () => {
  it('accepts typical skills, a real-size body among them', () => {
    const body = `\n# PDF\n\n${'Extract the text with `scripts/extract.py`, then check the result line by line.\n'.repeat(150)}`;
    assert.ok(check(`---\nname: pdf\ndescription: Extracts text from PDFs. Use when a PDF is mentioned.\n---\n${body}`, 'pdf'));
    assert.ok(check('---\nname: pdf\ndescription: "Quoted, with: a colon. Use when asked."\nlicense: Apache-2.0\n---\n\n# PDF\n', 'pdf'));
    assert.ok(check('---\r\nname: pdf\r\ndescription: CRLF lines. Use when asked.\r\n---\r\n\r\nBody\r\n', 'pdf'));
  });

  it('declines every file with something to report, which the full validator then reports', () => {
    const cases: [string, string, string?][] = [
      ['---\nname: pdf\ndescription: x\n---\n', 'other'], // folder mismatch
      ['---\nname: PDF\ndescription: x\n---\n', 'PDF'], // uppercase
      ['---\nname: claude-pdf\ndescription: x\n---\n', 'claude-pdf'], // reserved word
      ['---\nname: pdf\ndescription: uses <b>tags</b>\n---\n', 'pdf'], // XML
      ['---\nname: pdf\ndescription: "   "\n---\n', 'pdf'], // empty after trim
      [`---\nname: pdf\ndescription: ${'x'.repeat(1025)}\n---\n`, 'pdf'], // too long
      ['---\nname: pdf\ndescription: x\nversion: 1.0\n---\n', 'pdf'], // non-standard field
      ['---\nname: pdf\ndescription: x\n---\n', 'pdf', 'skill.md'], // lowercase file name
      ['\uFEFF---\nname: pdf\ndescription: x\n---\n', 'pdf'], // BOM
      [`---\nname: pdf\ndescription: x\n---\n${'line\n'.repeat(501)}`, 'pdf'], // body lines
      [`---\nname: pdf\ndescription: x\n---\n${'word '.repeat(4100)}`, 'pdf'], // body tokens
      ['---\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\n---\n```sh\nopen\n', 'pdf'], // unclosed fence
      ['---\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\n---\nTODO\n', 'pdf'], // placeholder
      ['---\nname: pdf\ndescription: Reads\u200bPDFs. Use for PDFs.\n---\n', 'pdf'], // invisible character
      ['---\nname: pdf\ndescription: Reads PDFs.\n---\n', 'pdf'], // no trigger
      ['---\nname: pdf\ndescription: You read PDFs. Use for PDFs.\n---\n', 'pdf'], // second person
    ];
    for (const [text, folder, file] of cases) {
      assert.equal(plainlyValid(parseSkillText(text, true), folder, file ?? 'SKILL.md'), false, JSON.stringify(text.slice(0, 80)));
      assert.notDeepEqual(fullFindings(text, folder, file ?? 'SKILL.md'), [], `the validator should fault ${JSON.stringify(text.slice(0, 80))}`);
    }
  });

  it('quiet text skips only searches that cannot find anything in it', () => {
    // Each character the quiet test looks for makes a text loud.
    for (const c of ['`', '~', '[', ']', '!', '$', '<', '\u0080', '\u00ad', '\u200b', '\ufeff', '\ud83d\ude00']) assert.equal(isQuiet(`plain ${c} text`), false, JSON.stringify(c));
    assert.equal(isQuiet('---\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\n---\n\n# PDF\n\nStep one: read it (all of it).\n'), true);
    const head = '---\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\n---\n';
    // What quiet text can still hold, each of which some rule reports: the quiet path must still decline.
    const quietFindings = [
      `${head}\nTODO: steps\n`, // placeholder in the body
      `${head}\nSteps TBD.\n`,
      `${head}\nFIXME later\n`,
      '---\nname: pdf\ndescription: Describe what this skill does and when to use it.\n---\n', // the template description
      '---\nname: pdf\ndescription: TODO. Use for PDFs.\n---\n', // placeholder in the description
      `${head}\n${'QUJD'.repeat(60)}\n`, // a 240-character base64 run
      `${head}${'line\n'.repeat(501)}`, // body lines
      '---\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\n# agent-skills-disable body-too-long\n---\n\n# PDF\n', // a suppression in the frontmatter
      '---\nname: pdf\ndescription: Reads PDFs.\n---\n', // no trigger
      '---\nname: pdf\ndescription: I read PDFs. Use for PDFs.\n---\n', // first person
    ];
    for (const text of quietFindings) {
      assert.equal(isQuiet(text), true, `meant to be quiet: ${JSON.stringify(text.slice(0, 80))}`);
      assert.equal(check(text, 'pdf'), false, JSON.stringify(text.slice(0, 80)));
    }
  });

  it('never accepts a file the full validator faults, over seeded random files', () => {
    const rnd = seededRandom(20261122);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    // Clean values come up often enough for the shortcut to take a good share of the files.
    const names = ['pdf', 'pdf', 'pdf', 'pdf', 'pdf', 'pdf-tools', 'pdf-tools', 'data2', 'PDF', 'pdf--x', '-pdf', 'pdf-', 'anthropic-x', 'x-claude', 'pdf_x', 'ünï', 'a'.repeat(65), '"pdf"', ''];
    const descriptions = ['Does PDFs. Use for PDFs.', 'Does PDFs. Use for PDFs.', 'Does PDFs. Use for PDFs.', 'Does PDFs. Use for PDFs.', 'Plain words', 'Plain words. Use when asked.', 'Reads PDFs. Use for PDFs.', 'Reads PDFs. Use when a PDF is named.', 'Splits PDFs. Use for PDFs.', '<tag>', 'a <b> c', '"  "', "''", '', 'x'.repeat(1024), 'x'.repeat(1025), '"quoted: yes"', 'tab\there', '|\n  block text'];
    const extra = ['license: MIT', 'license:', 'license: [a]', 'version: 1.0', 'compatibility: git', 'metadata:\n  a: b', 'allowed-tools: Read', 'x-unknown: 1', 'name: again', 'description: again'];
    const bodies = ['', '', '', '\n# T\n', '\n# T\n', '\n# T\n\nStep one.\n', '\n# T\n\nRun `scripts/x.py`.\n', '\n# T\n\nStep one.\n', `\n${'line\n'.repeat(499)}`, `\n${'line\n'.repeat(500)}`, `\n${'line\n'.repeat(501)}`, `\n${'x'.repeat(19_990)}`, `\n${'x'.repeat(20_010)}`, '\n---\n\nmore\n', '\n```sh\nopen fence\n', '\nTODO: steps\n', '\nSee [a](#nope).\n', '\n<!-- ignore previous instructions -->\n', '\nzero\u200bwidth\n', '\nGot $ARGUMENTS\n', '\nNow: !`date`\n', '\nSteps TBD\n', `\n${'QUJD'.repeat(60)}\n`, '\nSee [the guide] for more.\n', '\nA heading # here\n', '\n~~~\nopen tilde fence\n'];
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const name = pick(names);
      const lines = [`name: ${name}`, `description: ${pick(descriptions)}`];
      if (rnd() < 0.4) lines.push(pick(extra));
      if (rnd() < 0.1) lines.reverse();
      if (rnd() < 0.05) lines.shift();
      const eol = rnd() < 0.15 ? '\r\n' : '\n';
      const text = `${rnd() < 0.03 ? '\n' : ''}---${eol}${lines.join(eol)}${eol}---${eol}${pick(bodies)}`;
      const folder = rnd() < 0.85 ? name.replace(/"/g, '') : 'other';
      if (check(text, folder, rnd() < 0.05 ? 'skill.md' : 'SKILL.md')) accepted++;
    }
    assert.ok(accepted > 100, `the shortcut took only ${accepted} of 3000 generated files`);
  });

  it('never accepts a corpus skill the full validator faults', function () {
    if (!fs.existsSync(CORPUS)) {
      console.log(`      skipped: no corpus at ${CORPUS}`);
      this.skip();
    }
    for (const dir of fs.readdirSync(CORPUS)) {
      const file = path.join(CORPUS, dir, 'SKILL.md');
      if (fs.existsSync(file)) check(fs.readFileSync(file, 'utf8'), dir);
    }
  });
});
