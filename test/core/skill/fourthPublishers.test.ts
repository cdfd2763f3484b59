import * as assert from 'node:assert/strict';
import { fm, lintFixtures } from '../../support/lintFixtures';

// Classes of wrong finding met on the fresh GitHub publishers of scripts/lint-judgments/github-fourth.tsv (issue 25,
// fourth pass; judged before these fixes), each as made-up skills: the case the rule must report and the case it
// must not.

describe('issue 25: false-positive classes from the fourth draw of fresh GitHub publishers', () => {
  const fx = lintFixtures('fourth-');
  const { skill, lint } = fx;
  const doc = (text: string) => skill({ 'SKILL.md': 'Read [the guide](references/guide.md).\n', 'references/guide.md': text });
  const paths = async (text: string) => (await lint(doc(text), undefined, 'personal-path')).length;

  it('personal-path: a path after 举个例子 / 举例 / 假设 ("for example", "suppose"), or after 以…为例 on the line before in a wrapped paragraph, is an example', async () => {
    assert.equal(await paths('举个例子，如果将远程目录设置为 "/home/qlin"，文件会同步到那里。\n'), 0, '举个例子');
    assert.equal(await paths('假设数据放在 /home/qlin/data/stock 目录下。\n'), 0, '假设');
    assert.equal(await paths('以数据库 "dfs://quill" 下的表为例，导出前 10\n行数据保存到服务器路径 "/home/qlin/out/a.csv"。\n'), 0, '为例 on the line before');
    // The line before ends its sentence, or is blank: it leads in nothing.
    assert.equal(await paths('以数据库 "dfs://quill" 下的表为例。\n数据保存在 "/home/qlin/out/a.csv"。\n'), 1, 'sentence ended on the line before');
    assert.equal(await paths('以数据库为例\n\n```\nload("/home/qlin/out/a.csv")\n```\n'), 1, 'a code block after a blank line');
  });

  it('personal-path: a path followed by "(change it to your actual path)" is a value to replace; a path on its own is reported', async () => {
    assert.equal(await paths('| 数据路径 | /home/qlin/（根据实际存放路径修改） |\n'), 0, '根据实际…修改');
    assert.equal(await paths('Data lives in /home/qlin/data (change it to your folder).\n'), 0, 'change it to');
    assert.equal(await paths('```\nloadPlugin("/home/qlin/Desktop/plugins/quill.txt")\n```\n'), 1, 'a developer\'s home in code');
  });

  it('personal-path: under /home a name no user can have (capitals, dots: `/home/logPath`, `/home/Quill_V2.0`) is a made-up folder; `/Users/Qlin` on macOS still is reported', async () => {
    assert.equal(await paths('```\nh = open_handle("/home/logPath/log.log")\n```\n'), 0, 'logPath');
    assert.equal(await paths('```\nload("/home/Quill_V2.0/server/plugin.txt")\n```\n'), 0, 'a versioned folder');
    assert.equal(await paths('```\nload("/Users/Qlin/server/plugin.txt")\n```\n'), 1, 'a macOS home');
  });

  it('secret-detected: a word and a count from one (`Quill123`), or `sk-abc123`, is a tutorial\'s demo value; a mixed password is reported', async () => {
    const secrets = async (line: string) => (await lint(doc(`\`\`\`json\n${line}\n\`\`\`\n`), undefined, 'secret-detected')).length;
    assert.equal(await secrets('{ "username": "sa", "password": "Quill123" }'), 0, 'word + 123');
    assert.equal(await secrets('API_KEY = "sk-abc123"'), 0, 'sk-abc123');
    assert.equal(await secrets('{ "password": "qv7Rx2mLp9tz" }'), 1, 'a real-looking password');
    assert.equal(await secrets('{ "password": "Quill2024x" }'), 1, 'a word and a year is a password someone uses');
  });

  it('description-no-trigger: "Invoked automatically by /review", "Run manually with /estimate" name when; "invoked by the build" does not', async () => {
    const trig = async (d: string) => {
      const name = `t${fx.next()}`;
      return (await lint(skill({ 'SKILL.md': `${fm(name, '', JSON.stringify(d))}\nBody.\n` }, name), undefined, 'description-no-trigger')).length;
    };
    assert.equal(await trig('Records a focus-time estimate. Invoked automatically by /discover at exit.'), 0, 'invoked by /command');
    assert.equal(await trig('Records a focus-time estimate. Run manually with /estimate to record or review.'), 0, 'run with /command');
    assert.equal(await trig('Records a focus-time estimate. Invoked by the build system.'), 1, 'no command, no occasion');
  });
});

// Classes of wrong finding met on the publishers drawn after those fixes (scripts/lint-judgments/github-fifth.tsv),
// fixed after that check: no draw after them has measured these two yet.
describe('issue 25: false-positive classes from the fifth draw (after the fourth pass)', () => {
  const fx = lintFixtures('fifth-');
  const { skill, lint } = fx;

  it('secret-printed: a CI workflow step in a YAML block, and `::add-mask::`, print nothing into the conversation; an echo in a shell block does', async () => {
    const printed = async (text: string) => (await lint(skill({ 'SKILL.md': 'See [the reference](references/ci.md).\n', 'references/ci.md': text }), undefined, 'secret-printed')).length;
    assert.equal(await printed('```yaml\nsteps:\n  - run: |\n      echo "Deploying with $DEPLOY_TOKEN"\n```\n'), 0, 'a workflow step');
    assert.equal(await printed('```bash\necho "::add-mask::$DEPLOY_TOKEN"\n```\n'), 0, 'add-mask');
    assert.equal(await printed('```bash\necho "Deploying with $DEPLOY_TOKEN"\n```\n'), 1, 'a shell echo');
  });

  it('reference-missing: a dated name pattern (`drafts/YYYY-MM-DD-slug.md`) and a file read "if it exists" are not files the skill ships; a plain one is reported', async () => {
    // The folders exist (the skill ships other files there), so a missing file in them is reported.
    const missing = async (body: string) => (await lint(skill({ 'SKILL.md': body, 'research/sources.md': '# Sources\n', 'drafts/README.md': '# Drafts\n', 'logs/README.md': '# Logs\n' }), undefined, 'reference-missing')).length;
    assert.equal(await missing('Check the draft with `python3 check.py --file drafts/YYYY-MM-DD-slug.md`.\n'), 0, 'dated pattern');
    assert.equal(await missing('Append to `logs/run-YYYYMMDD.log`.\n'), 0, 'dated pattern, no dashes');
    assert.equal(await missing('Read the notes and, **if it exists**, the tail of `research/.radar.log`.\n'), 0, 'if it exists, before');
    assert.equal(await missing('Read `research/radar.log` if it exists.\n'), 0, 'if it exists, after');
    assert.equal(await missing('Read `research/radar.md` for the sources.\n'), 1, 'a plain reference');
  });
});
