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

describe('issue 25: command-undeclared classes from fresh GitHub publishers (round 5)', () => {
  const fx = lintFixtures('github-cmd-', { 'command-undeclared': { level: 'info' } });
  const { skill, lint } = fx;
  const runs = (cmd: string) => `## Use\n\n\`\`\`bash\n${cmd} list\n${cmd} show 1 --json\n${cmd} sync --all\n\`\`\`\n`;
  const reported = async (files: Record<string, string>, why: string, line = 8) => assert.deepEqual(await lint(skill(files), undefined, 'command-undeclared'), [`command-undeclared@SKILL.md:${line}`], why);
  const quiet = async (files: Record<string, string>, why: string) => assert.deepEqual(await lint(skill(files), undefined, 'command-undeclared'), [], why);

  it('an assignment pasted in a shell block (`page = fetch(url)`) runs no program; a command with `=` in its arguments does', async () => {
    await quiet({ 'SKILL.md': '```bash\npage = fetch_page("https://a.example")\npage = strip(page)\npage = summarize(page)\n```\n' }, 'assignments');
    await reported({ 'SKILL.md': runs('quillo').replace('quillo show 1 --json', 'quillo show id=1') }, 'quillo id=1');
  });

  it('a requirements table or line in Chinese (必需, 安装, 随本技能提供) introduces the program; a table that only mentions it does not', async () => {
    await quiet({ 'SKILL.md': `| 依赖 | 类型 | 必需 | 说明 |\n|---|---|---|---|\n| quillo CLI | 命令行 | 必需 | 通过包管理器安装 |\n\n${runs('quillo')}` }, 'table');
    await quiet({ 'SKILL.md': `先安装quillo命令行工具。\n\n${runs('quillo')}` }, 'install line');
    await reported({ 'SKILL.md': `| 命令 | 作用 |\n|---|---|\n| quillo list | 列出 |\n\n${runs('quillo')}`.replace('## Use\n\n', '') }, 'a table of commands', 10);
  });

  it('the plugin that provides a command, required by its product name ("Install the Quillink plugin"), introduces `quillink_call`', async () => {
    await quiet({ 'SKILL.md': `Install the Quillink plugin first.\n\n${runs('quillink_call')}` }, 'plugin');
    await reported({ 'SKILL.md': `Quillink is fast.\n\n${runs('quillink_call')}`.replace('## Use\n\n', '') }, 'product named without a requirement');
  });

  it('the daemon or control program of the product the description names (`quillod` of Quillo) is its subject; another program is not', async () => {
    const described = (d: string, cmd: string) => ({ 'SKILL.md': `${fm('q', '', d)}${runs(cmd)}` });
    await quiet(described('Runs a Quillo cluster. Use when deploying Quillo.', 'quillod'), 'daemon');
    await quiet(described('Runs a Quillo cluster. Use when deploying Quillo.', 'quilloctl'), 'control program');
    await reported(described('Runs a Quillo cluster. Use when deploying Quillo.', 'quillomatic'), 'another program');
  });

  it('a tool of the agent written as a command ("your native `quill_search` tool") is not a program; a CLI called a tool is', async () => {
    await quiet({ 'SKILL.md': `Search with your native \`quill_search\` tool.\n\n${runs('quill_search')}` }, 'native tool');
    await quiet({ 'SKILL.md': `通过统一的 \`quillmsg\` 工具调用完成。\n\n${runs('quillmsg')}` }, 'tool call');
    await reported({ 'SKILL.md': `The \`quillo\` tool lists notes.\n\n${runs('quillo')}`.replace('## Use\n\n', '') }, 'a CLI called a tool');
  });
});
