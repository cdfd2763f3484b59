import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateSkillDir } from '../../../src/core/skill';
import { makeTempDir } from '../../support/tempDir';

// Skills published together point into each other. Fixtures written here (none from a corpus): the class the
// linter must describe as a dependency on a sibling skill (info), the cases where nothing is wrong (a plugin is
// installed whole; a provenance record of a generated skill), and the true cases that must stay reported.

let tmp: { dir: string; cleanup: () => void };
before(() => {
  tmp = makeTempDir('siblings-');
});
after(() => tmp.cleanup());

let n = 0;
/** Writes a collection folder of skills (skill name -> path -> text) and returns its path. */
function collection(skills: Record<string, Record<string, string>>, extra: Record<string, string> = {}): string {
  const root = path.join(tmp.dir, `c${++n}`);
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  for (const [rel, text] of Object.entries(extra)) write(path.join(root, rel), text);
  for (const [name, files] of Object.entries(skills)) {
    for (const [rel, text] of Object.entries(files)) {
      write(path.join(root, 'skills', name, rel), rel === 'SKILL.md' ? `---\nname: ${name}\ndescription: Tidies ledgers. Use when the user asks to tidy a ledger.\n---\n${text}` : text);
    }
  }
  return path.join(root, 'skills');
}

/** `rule@line` of the reference and unreferenced rules for one skill of a collection (lenient). */
async function refs(dir: string): Promise<string[]> {
  const v = await validateSkillDir(dir, { mode: 'lenient' });
  return v.diagnostics.filter((d) => /^reference-|^file-unreferenced$/.test(d.rule)).map((d) => `${d.rule}@${d.file ?? 'SKILL.md'}:${d.range.start.line + 1}`);
}

describe('issue 25: links into sibling skills', () => {
  it("a link to an existing file of a sibling skill is an info naming the sibling, not 'points outside'", async () => {
    const c = collection({
      'ledger-tidy': { 'SKILL.md': 'Review with [the checklist](../ledger-audit/checklist.md).\n' },
      'ledger-audit': { 'SKILL.md': 'Body.\n', 'checklist.md': '# Checklist\n' },
    });
    assert.deepEqual(await refs(path.join(c, 'ledger-tidy')), ['reference-sibling-skill@SKILL.md:5']);
    const v = await validateSkillDir(path.join(c, 'ledger-tidy'), { mode: 'lenient' });
    const d = v.diagnostics.find((x) => x.rule === 'reference-sibling-skill');
    assert.equal(d?.severity, 'info');
    assert.match(d?.message ?? '', /sibling skill `ledger-audit`.*installed alone/);
  });

  it('inside a plugin (a manifest beside skills/) the same link is not reported: the plugin is installed whole', async () => {
    for (const manifest of ['.claude-plugin/plugin.json', 'plugin.json']) {
      const c = collection(
        {
          'ledger-tidy': { 'SKILL.md': 'Review with [the checklist](../ledger-audit/checklist.md).\n' },
          'ledger-audit': { 'SKILL.md': 'Body.\n', 'checklist.md': '# Checklist\n' },
        },
        { [manifest]: '{"name":"ledgers"}\n' },
      );
      assert.deepEqual(await refs(path.join(c, 'ledger-tidy')), [], manifest);
    }
  });

  it('still reported as outside: a folder beside that is not a skill, a missing file of a sibling skill, a path two levels up', async () => {
    const c = collection({
      'ledger-tidy': { 'SKILL.md': 'See [notes](../shared-notes/a.md), [gone](../ledger-audit/gone.md) and [up](../../README.md).\n' },
      'ledger-audit': { 'SKILL.md': 'Body.\n' },
    }, { 'README.md': '# Collection\n' });
    fs.mkdirSync(path.join(c, 'shared-notes'));
    fs.writeFileSync(path.join(c, 'shared-notes', 'a.md'), '# A\n');
    assert.deepEqual(await refs(path.join(c, 'ledger-tidy')), ['reference-outside@SKILL.md:5', 'reference-outside@SKILL.md:5', 'reference-outside@SKILL.md:5']);
  });

  it("a sibling's own relative path written as if it were this skill's is an info with the path that reaches it", async () => {
    const c = collection({
      'ledger-tidy': { 'SKILL.md': 'Draw it with the ledger-chart skill:\n\n```bash\npython scripts/chart.py ledger.csv\n```\n' },
      'ledger-chart': { 'SKILL.md': 'Run `scripts/chart.py`.\n', 'scripts/chart.py': 'print(1)\n' },
    });
    const v = await validateSkillDir(path.join(c, 'ledger-tidy'), { mode: 'lenient' });
    const d = v.diagnostics.filter((x) => x.rule.startsWith('reference-'));
    assert.deepEqual(d.map((x) => x.rule), ['reference-sibling-skill']);
    assert.equal(d[0].data?.resolved, '../ledger-chart/scripts/chart.py');
  });

  it('a missing path is still reference-missing when no sibling has it, or when two siblings do (no guess)', async () => {
    const c = collection({
      'ledger-tidy': { 'SKILL.md': 'Run `scripts/chart.py`, then read `references/rules.md`.\n' },
      'one': { 'SKILL.md': 'Body.\n', 'references/rules.md': '# Rules\n' },
      'two': { 'SKILL.md': 'Body.\n', 'references/rules.md': '# Rules\n' },
    });
    assert.deepEqual(await refs(path.join(c, 'ledger-tidy')), ['reference-missing@SKILL.md:5', 'reference-missing@SKILL.md:5']);
  });
});

describe('issue 25: provenance records of generated skills', () => {
  const hash = 'a'.repeat(12) + '0123456789abcdef0123456789ab';
  it('a short record with a commit hash and where the skill came from is not unreferenced', async () => {
    const c = collection({ 'ledger-tidy': { 'SKILL.md': 'Body.\n', 'ORIGIN.md': `# Origin\n\n- Upstream: docs/ledger\n- Commit: ${hash}\n- Synced: 2026-01-02\n` } });
    assert.equal(hash.length, 40);
    assert.deepEqual(await refs(path.join(c, 'ledger-tidy')), []);
  });

  it('a notes file without a commit hash, or a long file that happens to hold one, is still unreferenced', async () => {
    const c = collection({
      'ledger-tidy': {
        'SKILL.md': 'Body.\n',
        'HISTORY.md': '# History\n\nGenerated the first version from the old manual; source of the examples is the wiki.\n',
        'guide.md': `# Guide\n\nsource: ${hash}\n${'More guidance for the model. '.repeat(100)}\n`,
      },
    });
    assert.deepEqual((await refs(path.join(c, 'ledger-tidy'))).sort(), ['file-unreferenced@HISTORY.md:1', 'file-unreferenced@guide.md:1']);
  });
});
