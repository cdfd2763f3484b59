// A skill whose frontmatter gives no description is read by the index through its body's lead paragraph, at the
// description's weight (failureAnalysis.ts found such skills ranked by their body alone). Fixtures written here.
import * as assert from 'node:assert/strict';
import { SkillIndex, type IndexDoc } from '../../../src/core/index';
import { leadParagraph, MAX_LEAD_CHARS } from '../../../src/core/index/indexTokens';
import { describedAs } from '../../../src/core/index/skillIndex';

/** Forty skills that each say one of the query's words in a description, and the words of the query in a long body. */
function catalog(): IndexDoc[] {
  const out: IndexDoc[] = [];
  const words = ['ledger', 'totals', 'reconcile', 'spreadsheet'];
  for (let i = 0; i < 40; i++) {
    const w = words[i % words.length];
    out.push({ id: `u:s${i}`, name: `helper-${i}`, description: `Works with ${w} data for task ${i}.`, body: `# Helper ${i}\n\n${'Unrelated notes about task handling. '.repeat(40)}` });
  }
  return out;
}

const BLANK: IndexDoc = {
  id: 'u:recover',
  name: 'recover-cells',
  description: '  ',
  body: '\n# Recover cells\n\n```bash\npip install pandas\n```\n\nReconcile a ledger: recover missing spreadsheet totals from the row sums.\n\n## Steps\n\nRead the sheet.\n',
};

describe('core/index: a skill without a description', () => {
  it('reads the first paragraph of prose: after the title, past fenced code, up to the next blank line', () => {
    assert.equal(leadParagraph(BLANK.body as string), 'Reconcile a ledger: recover missing spreadsheet totals from the row sums.');
    assert.equal(leadParagraph('No heading here,\nsecond line.\n\nLater paragraph.'), 'No heading here, second line.');
    assert.equal(leadParagraph('# Only a title\n\n## And a section\n'), '');
    assert.equal(leadParagraph('```\nunclosed code'), '');
    const long = leadParagraph(`# T\n\n${'word '.repeat(2000)}`);
    assert.ok(long.length <= MAX_LEAD_CHARS, `lead of ${long.length} characters`);
  });

  it('is described by its lead: the words match in the description field, and it ranks first for them', () => {
    const index = new SkillIndex();
    for (const d of catalog()) index.put(d);
    index.put(BLANK);
    const query = 'reconcile the ledger and recover missing spreadsheet totals';
    const matches = index.explain(query, BLANK.id);
    for (const term of ['ledger', 'recov', 'spreadsheet']) {
      const m = matches.find((x) => x.term === term);
      assert.ok(m?.fields.description, `${term} in the description field: ${JSON.stringify(matches)}`);
    }
    assert.equal(index.search(query, 1)[0].id, BLANK.id);
  });

  it('keeps a description it has: the lead is not added to it', () => {
    const described = { ...BLANK, description: 'Fixes broken cells.' };
    assert.equal(describedAs(described), 'Fixes broken cells.');
    const index = new SkillIndex();
    index.put(described);
    const ledger = index.explain('ledger', BLANK.id).find((m) => m.term === 'ledger');
    assert.ok(ledger, 'the lead is still body text');
    assert.equal(ledger.fields.description, undefined);
  });
});
