import * as assert from 'node:assert/strict';
import { fm, lintFixtures } from '../../support/lintFixtures';

// Classes of wrong finding met on the GitHub publishers of scripts/lint-judgments/github-publishers.tsv (issue 25,
// third pass), each as made-up skills: the case the rule must report and the case it must not.

describe('issue 25: false-positive classes from fresh GitHub publishers', () => {
  const fx = lintFixtures('github-');
  const { skill, lint } = fx;
  const described = (d: string) => {
    const name = `d${fx.next()}`;
    return skill({ 'SKILL.md': `${fm(name, '', JSON.stringify(d))}\nBody.\n` }, name);
  };

  it('file-unreferenced: a package manifest, a lock file and a test suite of the skill\'s code are not for the model; an orphan script still is reported', async () => {
    const dir = skill({
      'SKILL.md': 'Run `uv run scripts/notes.py` to format the notes.\n',
      'scripts/notes.py': 'print("notes")\n',
      'pyproject.toml': '[project]\nname = "notes"\n',
      'uv.lock': 'version = 1\n',
      'package.json': '{"name": "notes"}\n',
      'tests/test_notes.py': 'def test_x(): pass\n',
      'scripts/notes.test.ts': 'it("x", () => {});\n',
      'leftover.py': 'print("old")\n',
      'test-plan.md': 'Scenarios the author ran.\n',
    });
    assert.deepEqual((await lint(dir, undefined, 'file-unreferenced')).sort(), ['file-unreferenced@leftover.py:1', 'file-unreferenced@test-plan.md:1']);
  });

  it('description-no-trigger: "Use skill if …", "ALWAYS use `x` FIRST", "the primary tool for all …" say when; "always uses" does not', async () => {
    for (const d of [
      'Use skill if you are running contract tests against a staging API.',
      'Queue command-line client. ALWAYS use `qctl` FIRST for queue work.',
      'The PRIMARY tool for ALL queue administration tasks.',
    ]) assert.deepEqual(await lint(described(d), undefined, 'description-no-trigger'), [], d);
    for (const d of ['Formats notes; always uses two spaces after a heading.', 'A primary key generator for tables.']) {
      assert.deepEqual(await lint(described(d), undefined, 'description-no-trigger'), ['description-no-trigger@SKILL.md:3'], d);
    }
  });

  it('secret-detected: a config\'s `{env:NAME}` substitution is no secret; a literal key beside it is', async () => {
    const dir = skill({ 'SKILL.md': 'See config.\n\n```json\n{ "apiKey": "{env:QUEUE_API_KEY}" }\n```\n' });
    assert.deepEqual(await lint(dir, undefined, 'secret-detected'), []);
    const leaked = skill({ 'SKILL.md': 'See config.\n\n```json\n{ "apiKey": "q7Zk2Lm9Px4Rt8Wv" }\n```\n' });
    assert.deepEqual(await lint(leaked, undefined, 'secret-detected'), ['secret-detected@SKILL.md:8']);
  });

  it('personal-path: a path after 例如 ("for example") and a /home folder named for what it holds are examples; a person\'s home is reported', async () => {
    const dir = skill({
      'SKILL.md': 'Read `guide.md`.\n',
      'guide.md': '请替换为实际路径，例如/Users/Mingyu/Desktop/a.docx\n\nImage: `file:///home/images/cat.png`\n',
    });
    assert.deepEqual(await lint(dir, undefined, 'personal-path'), []);
    const real = skill({ 'SKILL.md': 'Read `guide.md`.\n', 'guide.md': '数据在 /Users/Mingyu/Desktop/a.docx\n' });
    assert.deepEqual(await lint(real, undefined, 'personal-path'), ['personal-path@guide.md:1']);
  });

  it('reference-missing: a path after 如 ("such as") is an example; one in a routing table is reported; 如果 ("if") is no example', async () => {
    const wiki = { 'wiki/index.md': '# Index\n' };
    const dir = skill({ 'SKILL.md': '引用时附带相对路径（如 `wiki/api/queue.md`），方便验证。先读 `wiki/index.md`。\n', ...wiki });
    assert.deepEqual(await lint(dir, undefined, 'reference-missing'), []);
    const table = skill({ 'SKILL.md': '先读 `wiki/index.md`。\n\n| 主题 | 文件 |\n|---|---|\n| 队列 | `wiki/api/queue.md` |\n', ...wiki });
    assert.deepEqual(await lint(table, undefined, 'reference-missing'), ['reference-missing@SKILL.md:9']);
    const ifWord = skill({ 'SKILL.md': '先读 `wiki/index.md`。如果需要，请读 `wiki/api/queue.md`。\n', ...wiki });
    assert.deepEqual(await lint(ifWord, undefined, 'reference-missing'), ['reference-missing@SKILL.md:5']);
  });
});
