// The skill index on fixtures written here (no benchmark data): relevance, mentions, ties, incremental updates,
// removed skills, hostile text, and a catalog of 100,000 skills.
import * as assert from 'node:assert/strict';
import { findMentions, indexTerms, isDistinctiveName, porterStem, rankCatalog, SkillIndex, type IndexDoc } from '../../../src/core/index';
import type { CatalogSkill } from '../../../src/core/prompt';
import { testSize } from '../../support/testSize';

const DOCS: IndexDoc[] = [
  { id: 'u:pdf-forms', name: 'pdf-forms', description: 'Fill in PDF forms, read form fields and flatten filled PDF documents.', body: '# Filling forms\nUse pypdf to read AcroForm fields.' },
  { id: 'u:spreadsheet', name: 'spreadsheet', description: 'Create and edit Excel spreadsheets with formulas, charts and pivot tables.', body: '# Formulas\nUse openpyxl.' },
  { id: 'u:changelog', name: 'changelog', description: 'Write release notes and a changelog from the commits since the last tag.' },
  { id: 'u:k8s-deploy', name: 'k8s-deploy', description: 'Deploy services to Kubernetes with Helm charts; roll back a failed release.', body: '## Helm\nhelm upgrade --install' },
  { id: 'u:format', name: 'format', description: 'Format source code with the project formatter before a commit.' },
];

/** A catalog where the word "format" is everywhere: 60 skills that format something. */
function formattingCatalog(): IndexDoc[] {
  const things = ['dates', 'tables', 'json', 'yaml', 'markdown', 'currency', 'phone numbers', 'addresses', 'citations', 'logs'];
  const out: IndexDoc[] = [...DOCS];
  for (let i = 0; i < 60; i++) {
    const t = things[i % things.length];
    out.push({ id: `u:fmt-${i}`, name: `fmt-${t.replace(/ /g, '-')}-${i}`, description: `Format ${t} consistently; converts and validates the format of ${t}.` });
  }
  return out;
}

const indexOf = (docs: IndexDoc[]) => {
  const index = new SkillIndex();
  for (const d of docs) index.put(d);
  return index;
};
const top = (index: SkillIndex, q: string, k = 3) => index.search(q, k).map((h) => h.id);

describe('core/index: the skill index', () => {
  it('stems English words the Porter way, and reads identifiers, Unicode and CJK', () => {
    assert.deepEqual(['processing', 'processed', 'processes', 'documents', 'relational', 'hopping', 'flies'].map(porterStem), ['process', 'process', 'process', 'document', 'relat', 'hop', 'fli']);
    assert.deepEqual(indexTerms('convertPdfToDocx the_file'), ['convert', 'pdf', 'docx', 'file']);
    assert.deepEqual(indexTerms('Ｒｅｓｕｍｅ café'), ['resum', 'café']);
    assert.deepEqual(indexTerms('表格处理'), ['表格', '格处', '处理']);
  });

  it('ranks the skill whose name and description match first, across fields and word forms', () => {
    const index = indexOf(DOCS);
    assert.equal(top(index, 'please fill this PDF form for me')[0], 'u:pdf-forms');
    assert.equal(top(index, 'add a pivot chart to my excel workbook')[0], 'u:spreadsheet');
    assert.equal(top(index, 'helm upgrade failed on the cluster, roll it back')[0], 'u:k8s-deploy');
    // A body-only word still finds its skill.
    assert.equal(top(index, 'openpyxl')[0], 'u:spreadsheet');
    assert.deepEqual(index.search('quantum chromodynamics'), []);
  });

  it('scores confidence: a close match is above the threshold, a one-common-word match below', () => {
    const index = indexOf(formattingCatalog());
    const good = index.search('deploy to kubernetes with helm', 1)[0];
    assert.equal(good.id, 'u:k8s-deploy');
    assert.ok(good.confidence >= 0.2, `confidence ${good.confidence}`);
    const weak = index.search('format the quarterly board deck slides', 1)[0];
    assert.ok(weak.confidence < 0.2, `a match on "format" alone has confidence ${weak.confidence}`);
  });

  it('explains a score by term and field, and the shares add up to the score', () => {
    const index = indexOf(DOCS);
    const [hit] = index.search('fill pdf forms', 1);
    const why = index.explain('fill pdf forms', hit.id);
    assert.deepEqual(why.map((m) => m.term).sort(), ['fill', 'fill pdf', 'form', 'pdf', 'pdf form'].sort());
    assert.ok(why.find((m) => m.term === 'pdf')?.fields.name === 1);
    const sum = why.reduce((n, m) => n + m.score, 0);
    assert.ok(Math.abs(sum - hit.score) < 1e-9, `${sum} vs ${hit.score}`);
  });

  it('ranks the skill made for the rarest word of a request above a general one that mentions it beside common words', () => {
    // "terraform" is rare here; "report" and "files" are in many skills. The skill about Terraform (name,
    // description, body) must not lose to a catch-all that lists Terraform once next to the common words (it
    // did while the fields saturated early, k1 2 and name weight 3).
    const docs: IndexDoc[] = [
      { id: 'named', name: 'terraform', description: 'Plan and apply Terraform modules and state.', body: '# Terraform state\nRun terraform plan before terraform apply.\n' },
      { id: 'catch-all', name: 'cloud-helper', description: 'Cloud chores: Terraform, files, reports and other tasks.', body: 'Write the report files to the output folder.\n' },
      ...Array.from({ length: 40 }, (_, i) => ({ id: `f${i}`, name: `tool-${i}`, description: `Helps with task ${i}: ${i % 3 === 0 ? 'writes report files' : 'folders and archives'}.`, body: `Notes ${i} about the output folder and logs.` })),
    ];
    const index = new SkillIndex();
    for (const d of docs) index.put(d);
    for (const q of ['terraform report files', 'fix the terraform state and write a report file']) assert.deepEqual(index.search(q, 2).map((h) => h.id), ['named', 'catch-all'], q);
  });

  it('orders ties by name then id, whatever the insertion order', () => {
    const twins: IndexDoc[] = ['b', 'a', 'c'].map((n) => ({ id: `x:${n}`, name: `${n}-tool`, description: 'Converts audio files to text.' }));
    const a = top(indexOf(twins), 'convert audio', 3);
    const b = top(indexOf([...twins].reverse()), 'convert audio', 3);
    assert.deepEqual(a, ['x:a', 'x:b', 'x:c']);
    assert.deepEqual(a, b);
  });

  it('updates one skill at a time: a change is found by its new words, a removed skill is never returned, and scores equal a fresh build', () => {
    const index = indexOf(formattingCatalog());
    index.put({ id: 'u:changelog', name: 'changelog', description: 'Draft a press release for a product launch.' });
    assert.equal(top(index, 'press release for the launch')[0], 'u:changelog');
    assert.ok(!top(index, 'changelog from commits since the last tag', 20).includes('u:changelog') || index.explain('changelog from commits since the last tag', 'u:changelog').every((m) => m.fields.description === undefined));
    index.remove('u:pdf-forms');
    assert.ok(!index.search('pdf forms').some((h) => h.id === 'u:pdf-forms'));
    assert.equal(index.has('u:pdf-forms'), false);
    // Many removals trigger compaction; the scores are those of an index built from the survivors.
    const survivors = formattingCatalog().filter((d) => d.id !== 'u:pdf-forms').map((d) => (d.id === 'u:changelog' ? { id: d.id, name: d.name, description: 'Draft a press release for a product launch.' } : d));
    for (let round = 0; round < 40; round++) for (const d of survivors.slice(0, 30)) index.put(d);
    const fresh = indexOf(survivors);
    for (const q of ['format json', 'press release', 'kubernetes helm', 'excel pivot charts']) {
      const x = index.search(q, 10);
      const y = fresh.search(q, 10);
      assert.deepEqual(x.map((h) => h.id).sort(), y.map((h) => h.id).sort(), q);
      x.forEach((h) => assert.ok(Math.abs(h.score - (y.find((z) => z.id === h.id)?.score ?? -1)) < 1e-9, `${q}: ${h.id}`));
    }
    assert.equal(index.size, survivors.length);
  });

  it('a query searched again after an edit sees the edit (its reading is kept, its terms are looked up again)', () => {
    const index = indexOf(DOCS);
    const q = 'transcribe podcast episodes';
    assert.deepEqual(top(index, q), []);
    index.put({ id: 'u:podcast', name: 'podcast-notes', description: 'Transcribe podcast episodes and write show notes.' });
    assert.deepEqual(top(index, q), ['u:podcast']);
    index.remove('u:podcast');
    assert.deepEqual(top(index, q), []);
    // The same query string through every entry point, across a compaction that renumbers the terms.
    index.put({ id: 'u:podcast', name: 'podcast-notes', description: 'Transcribe podcast episodes and write show notes.' });
    for (let round = 0; round < 300; round++) for (const d of DOCS) index.put(d);
    assert.deepEqual(top(index, q), ['u:podcast']);
    assert.ok(index.explain(q, 'u:podcast').some((m) => m.term === 'podcast'));
  });

  describe('mentions', () => {
    it('$name and #name always count; a distinctive plain name counts; a common word that is a name does not', () => {
      const index = indexOf(formattingCatalog());
      assert.deepEqual(findMentions('use $changelog and #FORMAT now', index), { explicit: ['u:changelog', 'u:format'], named: [] });
      // "format" is in 60 descriptions: a plain "format" is not a mention; "k8s-deploy" is in one skill only.
      assert.equal(isDistinctiveName(index, 'format'), false);
      assert.equal(isDistinctiveName(index, 'k8s-deploy'), true);
      assert.deepEqual(findMentions('format the notes, then run k8s-deploy.', index), { explicit: [], named: ['u:k8s-deploy'] });
      // Not inside other words or hyphenated runs.
      assert.deepEqual(findMentions('my-k8s-deploy-script and k8s-deployer', index), { explicit: [], named: [] });
    });

    it('in the catalog order: explicit mentions, then distinctive names, then relevance; a common-word name is ranked by relevance only', () => {
      const docs = formattingCatalog();
      const index = indexOf(docs);
      const skills: CatalogSkill[] = docs.map((d) => ({ id: d.id, name: d.name, description: d.description }));
      const order = (req: string) => [...rankCatalog(index, req, skills).order()].slice(0, 3).map((s) => s.name);
      assert.equal(order('format the dates in this report')[0].startsWith('fmt-dates'), true, 'the skill named "format" does not win on a common word');
      assert.equal(order('merge the spreadsheets, then k8s-deploy it')[0], 'k8s-deploy');
      assert.equal(order('merge the spreadsheets with $changelog')[0], 'changelog');
      // Explicit before distinctive, in order of appearance.
      assert.deepEqual(order('#spreadsheet then $pdf-forms and k8s-deploy').slice(0, 3), ['spreadsheet', 'pdf-forms', 'k8s-deploy']);
    });
  });

  describe('hostile text', () => {
    it('reads at most a bounded part of a very long description, body or query, and stays correct', () => {
      const long = 'lorem ipsum dolor '.repeat(200_000);
      const index = indexOf([...DOCS, { id: 'u:long', name: 'long', description: `${long} zebra`, body: long }]);
      assert.ok(!index.search('zebra').some((h) => h.id === 'u:long'), 'a word past the read limit is not indexed');
      assert.equal(index.search(`${'fill pdf form '.repeat(1000)}${'qqq '.repeat(500_000)}`, 1)[0].id, 'u:pdf-forms');
      // Control characters, RTL marks, emoji and lone surrogates do not throw.
      index.put({ id: 'u:odd', name: 'odd', description: '\u0000\u202e\ud800 emoji 🚀 rocket \uffff' });
      assert.equal(index.search('rocket', 1)[0].id, 'u:odd');
    });

    it('handles 100,000 skills: builds, answers and removes', function () {
      this.timeout(120_000);
      const n = testSize('skills in the large index', 100_000, 100_000);
      const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
      const index = new SkillIndex();
      for (let i = 0; i < n; i++) index.put({ id: `g:${i}`, name: `skill-${i}`, description: `${words[i % 12]} ${words[(i * 7) % 12]} tool number ${i}` });
      index.put({ id: 'g:needle', name: 'needle', description: 'Find the haystack anomaly in seismograph traces.' });
      assert.equal(index.size, n + 1);
      assert.equal(index.search('seismograph anomaly', 1)[0].id, 'g:needle');
      assert.equal(index.search('bravo golf', 5).length, 5);
      index.remove('g:needle');
      assert.deepEqual(index.search('seismograph anomaly'), []);
    });
  });
});
