// The catalog rule skills-confusable: pairs the index finds close, both ways, with what sets each apart; and
// `agent-skills validate <folder of skills>` reporting it on both skills (lenient only: strict stays the reference).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findConfusableSkills, confusableMessage } from '../../../src/core/skill/rules/confusableSkills';
import { ruleLevel } from '../../../src/core/skill';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../../support/ensureBuilt';
import { makeTempDir } from '../../support/tempDir';

const PDF_A = { key: 'a', name: 'pdf-forms', description: 'Fill in PDF forms and flatten them. Use when the user asks to fill a PDF form.' };
const PDF_B = { key: 'b', name: 'pdf-filler', description: 'Fills PDF forms: reads the form fields and fills them in. Use when asked to fill in a PDF.' };
const HELM = { key: 'c', name: 'helm', description: 'Deploy to Kubernetes with Helm charts. Use when deploying a service.' };
const DOCX = { key: 'd', name: 'docx', description: 'Edit Word documents with tracked changes and comments.' };

describe('catalog rule skills-confusable', () => {
  it('finds two skills that read alike, even in a folder of three, and says what sets each apart', () => {
    const pairs = findConfusableSkills([PDF_A, PDF_B, HELM]);
    assert.equal(pairs.length, 1);
    const [p] = pairs;
    assert.deepEqual([p.a.key, p.b.key], ['a', 'b']);
    assert.ok(p.closeness >= 0.5 && p.closeness <= 1, String(p.closeness));
    assert.ok(p.onlyA.includes('flatten'));
    assert.ok(p.onlyB.includes('fields'));
    const m = confusableMessage(p.a, p.b, p.closeness, p.onlyA, p.onlyB, 'skills/pdf-filler');
    assert.match(m, /'pdf-forms' would be confused with 'pdf-filler' \(skills\/pdf-filler\).*only 'pdf-forms' says "flatten".*Say in the description when to use this skill rather than 'pdf-filler'/);
  });

  it('leaves alone two skills that each name what sets them apart and say it (a request naming it routes right); not when only one does', () => {
    const kotlin = { key: 'k', name: 'kotlin-api-scaffold', description: 'Scaffolds a complete REST API project in Kotlin with the official server SDK and tests.' };
    const dart = { key: 'r', name: 'dart-api-scaffold', description: 'Scaffolds a complete REST API project in Dart with the official server SDK and tests.' };
    assert.deepEqual(findConfusableSkills([kotlin, dart, HELM]), []);
    // The same pair where one description does not say its language: a request for it may go to either.
    const unsaid = { ...dart, description: 'Scaffolds a complete REST API project with the official server SDK and tests.' };
    assert.deepEqual(findConfusableSkills([kotlin, unsaid, HELM]).map((p) => [p.a.key, p.b.key]), [['k', 'r']]);
  });

  it('leaves distinct skills alone, and skills without a description', () => {
    assert.deepEqual(findConfusableSkills([PDF_A, HELM, DOCX]), []);
    assert.deepEqual(findConfusableSkills([{ ...PDF_A, description: '' }, { ...PDF_B, description: ' ' }]), []);
    assert.equal(ruleLevel('skills-confusable', 'strict'), 'off');
  });

  it('agent-skills validate <folder of skills> reports it on both SKILL.md files at the description, as a warning', async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    await ensureBuilt();
    const tmp = makeTempDir('confusable-');
    try {
      for (const s of [PDF_A, PDF_B, HELM]) {
        fs.mkdirSync(path.join(tmp.dir, s.name));
        fs.writeFileSync(path.join(tmp.dir, s.name, 'SKILL.md'), `---\nname: ${s.name}\ndescription: ${JSON.stringify(s.description)}\n---\nBody\n`);
      }
      const cli = path.resolve(__dirname, '../../../dist/cli.js');
      const r = spawnSync(process.execPath, [cli, 'validate', tmp.dir, '--json'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      const results = JSON.parse(r.stdout) as { name: string; diagnostics: { rule: string; severity: string; message: string; range: { start: { line: number } } }[] }[];
      const of = (name: string) => results.find((x) => x.name === name)?.diagnostics.filter((d) => d.rule === 'skills-confusable') ?? [];
      assert.equal(of('pdf-forms').length, 1);
      assert.equal(of('pdf-filler').length, 1);
      assert.equal(of('helm').length, 0);
      assert.equal(of('pdf-forms')[0].severity, 'warning');
      assert.equal(of('pdf-forms')[0].range.start.line, 2, 'on the description line');
      assert.match(of('pdf-filler')[0].message, /would be confused with 'pdf-forms'/);
      const strict = spawnSync(process.execPath, [cli, 'validate', tmp.dir, '--strict', '--json'], { encoding: 'utf8' });
      assert.doesNotMatch(strict.stdout, /skills-confusable/);
    } finally {
      tmp.cleanup();
    }
  });
});
