import * as assert from 'node:assert/strict';
import { bm25Scores, findMentions, o200kCounter, rankSkills, renderCatalog, renderCatalogEntry, shortDescription, type CatalogSkill } from '../../../src/core/prompt';

const SKILLS: CatalogSkill[] = [
  { name: 'pdf', description: 'Extract text and tables from PDF files, fill PDF forms, merge documents.', scope: 'user' },
  { name: 'xlsx', description: 'Create and edit spreadsheets with formulas, charts and pivot tables.', scope: 'workspace' },
  { name: 'slack-gif-creator', description: 'Make animated GIFs optimized for Slack.', scope: 'extension' },
  { name: 'brand-guidelines', description: 'Apply brand colors and typography to artifacts.', scope: 'workspace' },
  { name: 'internal-comms', description: 'Write status reports, newsletters and incident updates.', scope: 'user' },
  { name: 'webapp-testing', description: 'Test local web applications with Playwright: screenshots, logs, UI checks.', scope: 'workspace' },
];
const opts = { loadTool: 'load' };
const count = (t: string) => o200kCounter.count(t);

describe('prompt/catalog selection and budget', () => {
  it('shows every skill when they fit, sorted by name, with locations', () => {
    const withLoc = SKILLS.map((s) => ({ ...s, location: `/skills/${s.name}/SKILL.md` }));
    const c = renderCatalog(withLoc, 'anything', {}, o200kCounter, opts);
    assert.equal(c.omitted, 0);
    assert.deepEqual(c.shown, [...SKILLS.map((s) => s.name)].sort());
    assert.match(c.text, /^<available_skills>\n<skill>\n<name>brand-guidelines<\/name>\n<description>Apply brand.*<\/description>\n<location>\/skills\/brand-guidelines\/SKILL.md<\/location>\n<\/skill>/);
    assert.equal(c.tokens, count(c.text));
    assert.doesNotMatch(renderCatalog(withLoc, '', {}, o200kCounter, { ...opts, hideLocations: true }).text, /<location>/);
  });

  it('decides from the byte bound when it settles the budget, counting with the encoder only when it does not, with the same result', () => {
    let counted = 0;
    const spy = { count: (t: string) => (counted++, o200kCounter.count(t)), atMost: (t: string) => Buffer.byteLength(t, 'utf8') };
    const exactOnly = { count: (t: string) => o200kCounter.count(t) };
    const full = renderCatalog(SKILLS, undefined, {}, exactOnly, opts);
    // A budget the bytes already meet: every skill shown, nothing counted until the count is read.
    const roomy = renderCatalog(SKILLS, 'pdf', { maxTokens: Buffer.byteLength(full.text) + 10 }, spy, opts);
    assert.equal(roomy.omitted, 0);
    assert.equal(counted, 0, 'the encoder ran although the byte bound settled the budget');
    assert.equal(roomy.tokens, full.tokens);
    assert.ok(counted > 0);
    // Budgets between the token count and the byte count, and below the token count: the same catalog as counting every time.
    // A tight bound (the count plus 3) puts the bound's edge right at the budgets tried.
    const tight = { count: (t: string) => o200kCounter.count(t), atMost: (t: string) => o200kCounter.count(t) + 3 };
    for (let maxTokens = full.tokens - 60; maxTokens <= full.tokens + 60; maxTokens += 3) {
      const b = renderCatalog(SKILLS, 'merge pdf', { maxTokens }, exactOnly, opts);
      for (const counter of [spy, tight]) assert.equal(renderCatalog(SKILLS, 'merge pdf', { maxTokens }, counter, opts).text, b.text, `budget ${maxTokens}`);
    }
    const mid = Math.floor((full.tokens + Buffer.byteLength(full.text)) / 2);
    assert.equal(renderCatalog(SKILLS, 'merge pdf', { maxTokens: mid }, spy, opts).text, renderCatalog(SKILLS, 'merge pdf', { maxTokens: mid }, exactOnly, opts).text);
  });

  it('escapes XML in names and descriptions: only &, < and > (text content needs no entity for quotes, and each costs tokens)', () => {
    const c = renderCatalog([{ name: 'x', description: `Use <b> & "q", it's fine` }], undefined, {}, o200kCounter, opts);
    assert.match(c.text, /Use &lt;b&gt; &amp; "q", it's fine/);
    assert.doesNotMatch(c.text, /&#39;|&quot;/);
  });

  it('cuts to the token budget by relevance and says how many were left out and how to reach them', () => {
    const full = renderCatalog(SKILLS, undefined, {}, o200kCounter, opts);
    const c = renderCatalog(SKILLS, 'merge these PDF files and fill the form', { maxTokens: Math.floor(full.tokens * 0.6) }, o200kCounter, opts);
    assert.ok(c.tokens <= Math.floor(full.tokens * 0.6), `${c.tokens} tokens within the budget`);
    assert.ok(c.shown.includes('pdf'), 'the most relevant skill is kept');
    assert.ok(c.omitted > 0);
    assert.equal(c.shown.length + c.omitted, SKILLS.length);
    assert.match(c.text, new RegExp(`\\(${c.omitted} more skills are installed but not listed here.*call load with its exact name.*agent-skills list`));
    const chars = renderCatalog(SKILLS, 'spreadsheet pivot charts', { maxChars: 700 }, o200kCounter, opts);
    assert.ok(chars.text.length <= 700);
    assert.ok(chars.shown.includes('xlsx'));
  });

  it('is deterministic and byte-stable: the same inputs give the same bytes, whatever the input order', () => {
    const budget = { maxTokens: 200 };
    const a = renderCatalog(SKILLS, 'slack gif please', budget, o200kCounter, opts);
    const b = renderCatalog([...SKILLS].reverse(), 'slack gif please', budget, o200kCounter, opts);
    assert.equal(a.text, b.text);
    assert.ok(a.shown.includes('slack-gif-creator'));
  });

  it('an explicit mention wins over relevance, then recency, then scope', () => {
    const ranked = (req: string, skills = SKILLS) => rankSkills(req, skills).ranked.map((s) => s.name);
    assert.equal(ranked('merge pdf files, then use $internal-comms')[0], 'internal-comms');
    assert.equal(ranked('use #xlsx to summarize the PDF')[0], 'xlsx');
    assert.equal(ranked('merge PDF files')[0], 'pdf');
    // No lexical signal: the recently used skill first, then project before user before plugin.
    const recent = SKILLS.map((s) => (s.name === 'internal-comms' ? { ...s, lastUsed: 1000 } : s));
    assert.deepEqual(ranked('hello', recent).slice(0, 4), ['internal-comms', 'brand-guidelines', 'webapp-testing', 'xlsx']);
    const cut = renderCatalog(SKILLS, 'please use $slack-gif-creator to merge PDF tables', { maxTokens: 100 }, o200kCounter, opts);
    assert.deepEqual(cut.shown, ['slack-gif-creator']);
  });

  it('finds mentions by $name, #name and the bare name, case-insensitively, not inside other words', () => {
    const names = SKILLS.map((s) => s.name);
    assert.deepEqual(findMentions('Use $PDF and #brand-guidelines; the xlsx too', names), { explicit: ['pdf', 'brand-guidelines'], named: ['xlsx'] });
    assert.deepEqual(findMentions('pdfs and my-xlsx-thing', names), { explicit: [], named: [] });
  });

  it('BM25 scores the relevant skill highest and unrelated ones zero', () => {
    const scores = bm25Scores('animated gif for slack', SKILLS);
    const best = scores.indexOf(Math.max(...scores));
    assert.equal(SKILLS[best].name, 'slack-gif-creator');
    assert.equal(scores[SKILLS.findIndex((s) => s.name === 'xlsx')], 0);
  });

  it('lists the best matches with their whole description and the ones after by a first sentence, so more of the ranking fits', () => {
    // 60 skills about different file kinds, each with a long description; the request is about one of them.
    const kinds = Array.from({ length: 60 }, (_, i) => `kind${i}`);
    const many: CatalogSkill[] = kinds.map((k, i) => ({
      name: `${k}-tool`,
      description: `Converts ${k} files${i % 3 === 0 ? ' and archives' : ''}. ${'It validates every record, reports problems with line numbers, and writes a summary for review. '.repeat(3)}`,
    }));
    const request = 'convert the kind7 files and archives';
    const budget = { maxTokens: 1500 };
    const block = renderCatalog(many, request, budget, o200kCounter, opts);
    assert.ok(block.tokens <= 1500, `${block.tokens} tokens within the budget`);
    // Every shown entry with its whole description would not fit as many skills.
    const wholeTokens = block.shownSkills.reduce((n, s) => n + o200kCounter.count(renderCatalogEntry(s)) + 1, 0);
    assert.ok(wholeTokens > 1500, `the ${block.shown.length} listed skills would take ${wholeTokens} tokens with whole descriptions`);
    // The best match has its whole description; some lower ones only their first sentence.
    assert.ok(block.text.includes(renderCatalogEntry(many[7])), 'the best match is listed in full');
    const described = block.shownSkills.slice(0, block.shownSkills.length - block.namedOnly);
    const shortened = described.filter((s) => !block.text.includes(renderCatalogEntry(s)));
    assert.ok(shortened.length > 0 && shortened.length < described.length, `${shortened.length} of ${described.length} shortened`);
    for (const s of shortened) assert.ok(block.text.includes(renderCatalogEntry(s, false, true)), `${s.name} listed by its first sentence`);
    // Everything fits: nothing is shortened.
    const all = renderCatalog(many, request, {}, o200kCounter, opts);
    assert.equal(all.omitted, 0);
    for (const s of many) assert.ok(all.text.includes(renderCatalogEntry(s)));
  });

  it('past the described share, lists the rest of the ranking by name only, within the budget, saying how to load them', () => {
    const filler = 'It validates every record, reports problems with line numbers, and writes a summary for review. ';
    const many: CatalogSkill[] = Array.from({ length: 400 }, (_, i) => ({ name: `kind${i}-tool`, description: `Converts kind${i} files. ${filler.repeat(2)}` }));
    const request = 'convert the kind7 files';
    for (const budget of [{ maxTokens: 1500 }, { maxTokens: 4000, maxChars: 9000 }]) {
      const block = renderCatalog(many, request, budget, o200kCounter, { loadTool: 'load_skills', findTool: 'find_skills' });
      const described = renderCatalog(many, request, budget, o200kCounter, { loadTool: 'load_skills', findTool: 'find_skills', shares: { described: 1 } });
      assert.ok(block.tokens <= budget.maxTokens && block.text.length <= (budget.maxChars ?? Infinity), `${block.tokens} tokens, ${block.text.length} characters within ${JSON.stringify(budget)}`);
      assert.equal(described.namedOnly, 0);
      assert.ok(block.namedOnly > 0 && block.shown.length > 2 * described.shown.length, `${block.shown.length} listed (${block.namedOnly} by name) against ${described.shown.length} all described`);
      const part = /\n<more_skills>\n([\s\S]*)\n<\/more_skills>\n\(The skills in <more_skills> are listed by name only: load_skills loads one by that name, find_skills shows what it is for\. (\d+) more skills are installed but not listed here\./.exec(block.text);
      assert.ok(part, block.text.slice(-400));
      const names = part[1].split('\n');
      assert.deepEqual(names, block.shown.slice(block.shown.length - block.namedOnly));
      assert.deepEqual(names, [...names].sort(), 'sorted by name');
      assert.equal(Number(part[2]), block.omitted);
      // The named skills come after every described one in the ranking; the best match is described in full.
      const at = new Map(block.ranked.map((n, i) => [n, i]));
      const lastDescribed = Math.max(...block.shown.slice(0, block.shown.length - block.namedOnly).map((n) => at.get(n) as number));
      for (const n of names) assert.ok((at.get(n) as number) > lastDescribed, `${n} listed by name is ranked below every described skill`);
      assert.ok(block.text.includes(renderCatalogEntry(many[7])));
    }
  });

  it('gives skills listed by name their first sentence back when every skill is listed and room is left', () => {
    const many: CatalogSkill[] = Array.from({ length: 60 }, (_, i) => ({ name: `kind${i}-tool`, description: `Converts kind${i} files. It validates every record and writes a summary for review.` }));
    const budget = { maxTokens: 1800 };
    const block = renderCatalog(many, 'convert the kind7 files', budget, o200kCounter, { loadTool: 'load_skills', shares: { described: 0.3 } });
    assert.equal(block.omitted, 0);
    assert.ok(block.namedOnly > 0 && block.namedOnly < 40, `${block.namedOnly} of 60 left by name only`);
    // The best-ranked skill still listed by name would not fit with its first sentence.
    const first = block.ranked.find((n) => block.shown.slice(block.shown.length - block.namedOnly).includes(n)) as string;
    const s = many.find((x) => x.name === first) as CatalogSkill;
    const more = count(renderCatalogEntry(s, false, true)) - count(s.name);
    // (entries are counted one by one, each with its line break: up to a token a line above the block's own count)
    assert.ok(block.tokens + more > budget.maxTokens - block.shown.length, `${first} (+${more}) would have fit in ${block.tokens}`);
    // Without the promotion the described entries would stop at 30% of the budget.
    const described = block.shownSkills.slice(0, block.shownSkills.length - block.namedOnly);
    const describedTokens = described.reduce((n, x) => n + count(renderCatalogEntry(x, false, true)) + 1, 0);
    assert.ok(describedTokens > 0.6 * budget.maxTokens, `${described.length} described entries take ${describedTokens} tokens`);
    // A budget that holds every first sentence lists none by name.
    const roomy = renderCatalog(many, 'convert the kind7 files', { maxTokens: 3000 }, o200kCounter, { loadTool: 'load_skills', shares: { described: 0.3 } });
    assert.equal(roomy.namedOnly + roomy.omitted, 0);
    assert.doesNotMatch(roomy.text, /more_skills/);
  });

  it('shortens a description to its first sentence, cut at a word within the limit', () => {
    assert.equal(shortDescription('Fill PDF forms.  Then merge\nthem. More.'), 'Fill PDF forms.');
    assert.equal(shortDescription('No sentence end here'), 'No sentence end here');
    assert.equal(shortDescription('Version 2.5 of the tool. Rest.'), 'Version 2.5 of the tool.');
    const long = shortDescription(`${'word '.repeat(60)}end.`);
    assert.ok(long.length <= 80 && long.endsWith('…') && !long.includes('wor…'), long);
    const unbroken = shortDescription('x'.repeat(300));
    assert.equal(unbroken.length, 80);
  });
});

