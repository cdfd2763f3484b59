// The offline trigger judge on an in-memory catalog: the runtime's index decides (first match at the find_skills
// threshold), the report carries rank, confidence, the skill first instead, and the <available_skills> membership.
import * as assert from 'node:assert/strict';
import { judgeTriggersOffline, type JudgedQuery } from '../../../src/core/evals/judge/offlineJudge';
import { MIN_MATCH_CONFIDENCE } from '../../../src/core/index/matchConfidence';
import { indexOfCatalog } from '../../../src/core/index/rankCatalog';
import type { CatalogSkill } from '../../../src/core/prompt/promptTypes';

const SKILLS: CatalogSkill[] = [
  { id: 'w:pdf-forms', name: 'pdf-forms', description: 'Fill in PDF forms and flatten them; AcroForm fields, checkboxes and signatures in PDF files.' },
  { id: 'w:pdf-merge', name: 'pdf-merge', description: 'Merge, split and reorder pages of PDF documents; combine several PDF files into one.' },
  { id: 'w:helm-deploy', name: 'helm-deploy', description: 'Deploy services to Kubernetes with Helm charts and roll back failed releases.' },
  { id: 'w:meeting-notes', name: 'meeting-notes', description: 'Summarise meeting transcripts into notes with decisions, owners and action items.' },
];

function judge(queries: JudgedQuery[], catalog = SKILLS, budget?: { maxTokens: number }) {
  return judgeTriggersOffline({ skill: { id: 'w:pdf-forms', name: 'pdf-forms' }, catalog, index: indexOfCatalog(catalog), queries, file: '/x/evals/trigger-queries.json', startedAt: new Date(0), ...(budget ? { budget } : {}) });
}

describe('offline trigger judge (the skill index, no model)', () => {
  it('a request passes when the skill is the first good match; fails when another skill ranks first; a should-not fails when the skill is first', () => {
    const r = judge([
      { query: 'fill in the form fields of this pdf and flatten it', should_trigger: true, line: 2 },
      { query: 'combine these three pdf files into one document', should_trigger: true, split: 'validation' },
      { query: 'merge the pdf files then fill in the acroform checkboxes', should_trigger: false },
      { query: 'turn the transcript of our meeting about pdf signatures into notes with owners and action items', should_trigger: false, split: 'validation' },
    ]);
    assert.equal(r.judge, 'index');
    assert.equal(r.trialsPerRequest, 1);
    assert.equal(r.catalogSize, 4);
    assert.equal(r.startedAt, '1970-01-01T00:00:00.000Z');
    const [pass, other, nearMiss, stayedOut] = r.results;
    assert.deepEqual([pass.passed, pass.rank, pass.first, pass.inList, pass.line, pass.trials], [true, 1, undefined, true, 2, [{ triggered: true }]]);
    assert.ok((pass.confidence as number) >= MIN_MATCH_CONFIDENCE);
    assert.deepEqual([other.passed, other.rank, other.first, other.triggerRate, other.trials[0].chosen], [false, 2, 'pdf-merge', 0, 'pdf-merge']);
    assert.deepEqual([nearMiss.passed, nearMiss.rank, nearMiss.triggerRate, nearMiss.first], [false, 1, 1, undefined]);
    assert.deepEqual([stayedOut.passed, stayedOut.first, stayedOut.split], [true, 'meeting-notes', 'validation']);
    assert.deepEqual([r.train, r.validation], [{ passed: 1, total: 2 }, { passed: 1, total: 2 }]);
  });

  it(`a request where the skill is first but under the confidence threshold (${MIN_MATCH_CONFIDENCE}) does not trigger`, () => {
    const [weak] = judge([{ query: 'write a long essay about gardening, cooking, travel, weather and history that mentions signatures', should_trigger: true }]).results;
    assert.equal(weak.rank, 1);
    assert.ok((weak.confidence as number) < MIN_MATCH_CONFIDENCE, String(weak.confidence));
    assert.equal(weak.trials[0].triggered, false);
    assert.equal(weak.passed, false);
    assert.equal(weak.first, undefined);
  });

  it('in list: false when the <available_skills> budget leaves the skill out for the request, true when it fits', () => {
    const many: CatalogSkill[] = [...SKILLS, ...Array.from({ length: 60 }, (_, i) => ({ id: `w:pdf-tool-${i}`, name: `pdf-tool-${i}`, description: `Merge and fill pdf pages, number ${i}, with forms and fields for the weekly report of team ${i}.` }))];
    const q: JudgedQuery = { query: 'merge pdf pages and fill fields', should_trigger: true };
    const [tight] = judge([q], many, { maxTokens: 200 }).results;
    assert.equal(tight.inList, false);
    const [roomy] = judge([q], many, { maxTokens: 100_000 }).results;
    assert.equal(roomy.inList, true);
  });

  it('refuses a skill that is not in the catalog it is judged against', () => {
    assert.throws(() => judgeTriggersOffline({ skill: { id: 'w:none', name: 'none' }, catalog: SKILLS, index: indexOfCatalog(SKILLS), queries: [], file: 'f' }), /"none" \(w:none\) is not in the catalog/);
  });
});
