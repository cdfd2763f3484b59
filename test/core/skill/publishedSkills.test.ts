import * as assert from 'node:assert/strict';
import { agentsFor, validateSkillDir } from '../../../src/core/skill';
import { bareScriptRuns, installPaths, personalPaths, printedSecrets } from '../../../src/core/skill/rules/portability';
import { fm, lintFixtures } from '../../support/lintFixtures';

// Each class of issue 25 as a pair of skills written here: the case the rule must report and the case it must
// not (what published skills hold that is not a problem). The skills are made up; none comes from a corpus.

const fx = lintFixtures('published-');
const { skill, lint } = fx;

describe('issue 25: false-positive classes stay quiet, the true case is still reported', () => {
  it('allowed-tools-unknown: current Claude Code tools, MCP tools, VS Code references with spaces; a misspelt tool is reported', async () => {
    const ok = skill({ 'SKILL.md': `${fm('tools-ok', 'allowed-tools:\n  - AskUserQuestion\n  - Agent\n  - Skill\n  - TaskCreate\n  - SendMessage\n  - mcp__tracker__create_issue\n  - Bash(git add:*)\n  - Docs Server/search\n')}\nBody.\n` }, 'tools-ok');
    assert.deepEqual(await lint(ok, undefined, 'allowed-tools-unknown'), []);
    assert.deepEqual(await lint(ok, undefined, 'allowed-tools-invalid'), []);
    const bad = skill({ 'SKILL.md': `${fm('tools-bad', 'allowed-tools: Read Grpe\n')}\nBody.\n` }, 'tools-bad');
    const v = await validateSkillDir(bad, { mode: 'lenient' });
    const d = v.diagnostics.find((x) => x.rule === 'allowed-tools-unknown');
    assert.ok(d, 'a misspelt tool is reported');
    assert.match(d.message, /'Grpe'.*Did you mean `Grep`\?/);
  });

  it('allowed-tools-unknown follows the host: a VS Code reference is unknown to Claude Code, Claude Code tools to VS Code', async () => {
    const dir = skill({ 'SKILL.md': `${fm('tools-host', 'allowed-tools:\n  - AskUserQuestion\n  - Docs Server/search\n')}\nBody.\n` }, 'tools-host');
    assert.deepEqual(await lint(dir, 'any', 'allowed-tools-unknown'), []);
    const cc = await validateSkillDir(dir, { mode: 'lenient', config: { rules: {}, host: 'claude-code' } });
    assert.deepEqual(cc.diagnostics.filter((d) => d.rule === 'allowed-tools-unknown').map((d) => d.data?.unknown), [['Docs Server/search']]);
    const vs = await validateSkillDir(dir, { mode: 'lenient', config: { rules: {}, host: 'vscode' } });
    assert.deepEqual(vs.diagnostics.filter((d) => d.rule === 'allowed-tools-unknown').map((d) => d.data?.unknown), [['AskUserQuestion']]);
  });

  it('file-unreferenced: a file a host reads by convention is not reported, for any host; an orphan file is', async () => {
    const dir = skill({ 'SKILL.md': 'Body.\n', 'agents/openai.yaml': 'interface:\n  display_name: Notes\n', 'notes/orphan.md': '# Orphan\n' });
    for (const host of ['any', 'claude-code', 'codex'] as const) assert.deepEqual(await lint(dir, host, 'file-unreferenced'), ['file-unreferenced@notes/orphan.md:1'], host);
  });

  it('reference-missing: example paths, links in code spans, placeholder names and prose words are not files; a real missing file is', async () => {
    const body = [
      '# Guide',
      '',
      'Never allow project scripts with side effects (e.g., `./scripts/deploy.sh`).',
      'Write findings as `SKILL.md:12` or `scripts/tool.py:40`.',
      'Links are written `[text](docs/page.md)` in Markdown.',
      'Put helpers in `scripts/your_helper.py`.',
      'Inputs and outputs go through references/and.',
      '',
      '```markdown',
      '---',
      'name: example-skill',
      'description: An example.',
      '---',
      'Run `scripts/example_run.py`.',
      '```',
      '',
      'Load `references/api.md` before calling the API.',
      'Create `scripts/validate.py` in the new skill, and save the chart to `assets/chart.png`.',
      '```bash',
      'python scripts/real.py --output assets/result.json > references/log.md',
      '```',
      '',
    ].join('\n');
    const dir = skill({ 'SKILL.md': body, 'scripts/real.py': 'print(1)\n', 'references/other.md': '# Other\n' });
    assert.deepEqual(await lint(dir, undefined, 'reference-missing'), ['reference-missing@SKILL.md:21']);
  });

  it('reference-missing: a path spelt in another case than on disk says so (found on macOS, missing on Linux)', async () => {
    const dir = skill({ 'SKILL.md': 'Read `references/guide.md` first.\n', 'references/Guide.md': '# Guide\n' });
    const v = await validateSkillDir(dir, { mode: 'lenient' });
    const d = v.diagnostics.filter((x) => x.rule === 'reference-missing');
    assert.equal(d.length, 1);
    assert.match(d[0].message, /is `references\/Guide\.md` on disk: the case differs/);
    const right = skill({ 'SKILL.md': 'Read `references/Guide.md` first.\n', 'references/Guide.md': '# Guide\n' });
    assert.deepEqual(await lint(right, undefined, 'reference-missing'), []);
  });

  it('reference-missing: paths through a host variable for the skill folder are checked', async () => {
    const dir = skill({ 'SKILL.md': 'Run `python ${CLAUDE_SKILL_DIR}/scripts/run.py` then `bash {baseDir}/tools/gone.sh`.\n', 'scripts/run.py': 'print(1)\n' });
    assert.deepEqual(await lint(dir, undefined, 'reference-missing'), ['reference-missing@SKILL.md:5']);
    const v = await validateSkillDir(dir, { mode: 'lenient' });
    assert.match(v.diagnostics.find((d) => d.rule === 'reference-missing')!.message, /`tools\/gone\.sh` \(variable\)/);
  });

  it("reference-missing: links of the skill's own reference files are checked (relative to the file, or to the skill folder)", async () => {
    const dir = skill({
      'SKILL.md': 'See [the guide](references/guide.md).\n',
      'references/guide.md': '# Guide\n\nSee [setup](setup.md), [api](references/api.md), [gone](../other/index.md) and [site](https://example.com).\n\n[^1]: A footnote, not a link.\n',
      'references/setup.md': '# Setup\n',
      'references/api.md': '# API\n',
      'assets/template.md': 'Copy to your project: [docs](docs/readme.md)\n',
    });
    assert.deepEqual(await lint(dir, undefined, 'reference-missing'), ['reference-missing@references/guide.md:3']);
  });

  it('reference-outside says whether the file outside exists beside the skill or nowhere', async () => {
    // A folder beside the skill that is not a skill (no SKILL.md): a sibling skill is reference-sibling-skill's (siblingSkills.test.ts).
    skill({ 'references/shared.md': '# Shared\n' }, 'not-a-skill');
    const dir = skill({ 'SKILL.md': 'See [shared](../not-a-skill/references/shared.md) and [gone](../nowhere/x.md).\n' });
    const v = await validateSkillDir(dir, { mode: 'lenient' });
    const d = v.diagnostics.filter((x) => x.rule === 'reference-outside');
    assert.deepEqual(d.map((x) => x.data?.exists), [true, false]);
    assert.match(d[1].message, /to a file that does not exist there either/);
  });

  it('placeholder-text: prose about markers is not a placeholder; a marker left in place is', async () => {
    const talk = skill({ 'SKILL.md': 'Check the plan: any "TBD", "TODO", or vague steps? Fix them.\nThe file has TODO markers left by the generator.\nThis part is a TODO for a later version.\n' });
    assert.deepEqual(await lint(talk, undefined, 'placeholder-text'), []);
    const left = skill({ 'SKILL.md': 'TODO: describe the inputs\n\n| Owner | TBD |\n\nSteps TBD.\n' });
    assert.deepEqual(await lint(left, undefined, 'placeholder-text'), ['placeholder-text@5', 'placeholder-text@7', 'placeholder-text@9'].map((s) => s.replace('@', '@SKILL.md:')));
  });

  it('secret-detected: $VAR references, example patterns and counting fake keys are not secrets; a real-looking key is', async () => {
    const examples = skill({ 'SKILL.md': 'Flag these:\n\n```\npassword = "hardcoded"\napi_key = "$API_KEY"\ntoken = "abcdef1234567890abcdef"\n```\n' });
    assert.deepEqual(await lint(examples, undefined, 'secret-detected'), []);
    const real = skill({ 'SKILL.md': 'Use:\n\n```\npassword = "Zq8-vL2x!pR4"\n```\n' });
    assert.deepEqual(await lint(real, undefined, 'secret-detected'), ['secret-detected@SKILL.md:8']);
  });

  it('argument-hint-mismatch: a hint without $ARGUMENTS is fine where hosts append the arguments; $ARGUMENTS without a hint is reported', async () => {
    const hint = skill({ 'SKILL.md': `${fm('hint-only', 'argument-hint: "[version]"\n')}\nWrite the notes.\n` }, 'hint-only');
    assert.deepEqual(await lint(hint, undefined, 'argument-hint-mismatch'), []);
    assert.deepEqual(await lint(hint, 'claude-code', 'argument-hint-mismatch'), []);
    const args = skill({ 'SKILL.md': 'Write the notes for $ARGUMENTS.\n' });
    assert.deepEqual(await lint(args, undefined, 'argument-hint-mismatch'), ['argument-hint-mismatch@SKILL.md:1']);
  });

  it('description-no-trigger knows "use this before", "use immediately after", "always invoke for"; a description without one is reported', async () => {
    for (const d of ['You MUST use this before any release work.', 'Checks links. Use immediately after editing docs.', 'Always invoke for `.notes` files.', 'Formats notes. Use via /notes.']) {
      const t = `t${fx.next()}`;
      const dir = skill({ 'SKILL.md': `${fm(t, '', d)}\nBody.\n` }, t);
      assert.deepEqual(await lint(dir, undefined, 'description-no-trigger'), [], d);
    }
    const none = skill({ 'SKILL.md': `${fm('no-trigger', '', 'Formats release notes from commits, and can apply to any repository.')}\nBody.\n` }, 'no-trigger');
    assert.deepEqual(await lint(none, undefined, 'description-no-trigger'), ['description-no-trigger@SKILL.md:3']);
  });

  it('description-person: "I/O" is not first person; "I" is', async () => {
    const io = skill({ 'SKILL.md': `${fm('io', '', 'Fast file I/O for tables. Use when reading large tables.')}\nBody.\n` }, 'io');
    assert.deepEqual(await lint(io, undefined, 'description-person'), []);
    const i = skill({ 'SKILL.md': `${fm('first', '', 'I format tables. Use when reading large tables.')}\nBody.\n` }, 'first');
    assert.deepEqual(await lint(i, undefined, 'description-person'), ['description-person@SKILL.md:3']);
  });

  it('a display-style name gets one finding that says all that is wrong and gives the one mended name', async () => {
    const dir = skill({ 'SKILL.md': '---\nname: Git Commit Helper\ndescription: Writes commit messages. Use when asked.\n---\nBody.\n' }, 'git-commit-helper');
    const v = await validateSkillDir(dir, { mode: 'lenient' });
    const form = v.diagnostics.filter((x) => x.rule.startsWith('name-'));
    assert.deepEqual(form.map((x) => x.rule), ['name-invalid-chars'], 'one finding for the name, not one per cause');
    assert.equal(form[0].data?.expected, 'git-commit-helper');
    assert.deepEqual(form[0].data?.problems, ['name-invalid-chars', 'name-uppercase']);
    assert.match(form[0].message, /'Git Commit Helper' contains " " and has uppercase letters; .* Use 'git-commit-helper'/);
    // Uppercase and `--` (no other character): one finding under name-uppercase, mending both.
    const dashes = skill({ 'SKILL.md': '---\nname: Git--Helper\ndescription: Writes commit messages. Use when asked.\n---\nBody.\n' }, 'git-helper');
    const d = (await validateSkillDir(dashes, { mode: 'lenient' })).diagnostics.filter((x) => x.rule.startsWith('name-'));
    assert.deepEqual(d.map((x) => [x.rule, x.data?.expected]), [['name-uppercase', 'git-helper']]);
    // A folder the mended name does not match is a problem of its own, still reported.
    const elsewhere = skill({ 'SKILL.md': '---\nname: Git Commit Helper\ndescription: Writes commit messages. Use when asked.\n---\nBody.\n' }, 'commits');
    const e = (await validateSkillDir(elsewhere, { mode: 'lenient' })).diagnostics.filter((x) => x.rule.startsWith('name-'));
    assert.deepEqual(e.map((x) => [x.rule, x.data?.expected]), [['name-invalid-chars', 'git-commit-helper'], ['name-folder-mismatch', 'commits']]);
    assert.match(d[0].message, /has uppercase letters and contains `--`/);
  });

  it('a name with a single problem keeps its precise rule and wording', async () => {
    const one = async (name: string, folder: string) => {
      const dir = skill({ 'SKILL.md': `---\nname: ${name}\ndescription: Writes commit messages. Use when asked.\n---\nBody.\n` }, folder);
      return (await validateSkillDir(dir, { mode: 'lenient' })).diagnostics.filter((x) => x.rule.startsWith('name-')).map((x) => [x.rule, x.data?.expected, x.message]);
    };
    assert.deepEqual(await one('CommitHelper', 'commithelper'), [
      ['name-uppercase', 'commithelper', "`name` 'CommitHelper' must be lowercase. Use 'commithelper', the folder's name."],
    ]);
    // Only a folder of another name needs renaming, and only then is the user told to.
    assert.equal((await one('CommitHelper', 'helper'))[0][2], "`name` 'CommitHelper' must be lowercase. Use 'commithelper' (and rename the folder to match).");
    const underscore = await one('commit_helper', 'commit-helper');
    assert.deepEqual(underscore[0], ['name-invalid-chars', 'commit-helper', "`name` 'commit_helper' contains \"_\"; only letters, digits and hyphens are allowed. Replace them with `-`."]);
    assert.deepEqual((await one('commit--helper', 'commit-helper2'))[0].slice(0, 2), ['name-consecutive-hyphens', 'commit-helper']);
  });
});

describe('issue 25: the checks that were missing, each with its true and false case', () => {
  it('personal-path: a path in one user home is reported in SKILL.md and in scripts; placeholder users, $HOME and e.g. paths are not', async () => {
    const bad = skill({
      'SKILL.md': 'The data lives at `C:\\Users\\rtanaka\\Data\\sales.csv` and is read by `scripts/load.py`.\n',
      'scripts/load.py': 'PATH = "/mnt/c/Users/rtanaka/Data/sales.csv"\n',
    });
    assert.deepEqual(await lint(bad, undefined, 'personal-path'), ['personal-path@SKILL.md:5', 'personal-path@scripts/load.py:1']);
    const ok = skill({ 'SKILL.md': 'Keep it under `/home/user/data`, `/Users/<you>/data` or `$HOME/data`; never a personal path (e.g. `/Users/jsmith/x`).\nIn the image the app runs from `/home/appuser/app`; CI checks out into `/home/runner/work`.\n' });
    assert.deepEqual(await lint(ok, undefined, 'personal-path'), []);
  });

  it('install-path-hardcoded: the skill reached through .claude/skills/<name>/ is reported; an install instruction is not', async () => {
    const bad = skill({ 'SKILL.md': '```bash\ncd .claude/skills/notes-a/scripts\npython build.py\n```\n', 'scripts/build.py': 'print(1)\n' }, 'notes-a');
    assert.deepEqual(await lint(bad, undefined, 'install-path-hardcoded'), ['install-path-hardcoded@SKILL.md:6']);
    const ok = skill({ 'SKILL.md': 'Install: `cp -r notes-b ~/.claude/skills/`, check with `ls ~/.claude/skills/notes-b/SKILL.md`. Then run `python scripts/build.py`.\n', 'scripts/build.py': 'print(1)\n' }, 'notes-b');
    assert.deepEqual(await lint(ok, undefined, 'install-path-hardcoded'), []);
  });

  it('script-path-incomplete: a bare script name whose file is in a folder is reported; a full path, a cd first, or a project script are not', async () => {
    const bad = skill({ 'SKILL.md': '```bash\npython render.py --out x.pdf\n```\n', 'scripts/render.py': 'print(1)\n' });
    const v = await validateSkillDir(bad, { mode: 'lenient' });
    const d = v.diagnostics.filter((x) => x.rule === 'script-path-incomplete');
    assert.deepEqual(d.map((x) => x.range.start.line + 1), [6]);
    assert.match(d[0].message, /skill has it at scripts\/render\.py/);
    const ok = skill({ 'SKILL.md': '```bash\npython scripts/render.py\n```\n\n```bash\ncd scripts\npython render.py\n```\n\nRun `python manage.py migrate` in your project.\n\nFrom the `scripts/` folder:\n\n```bash\npython render.py\n```\n', 'scripts/render.py': 'print(1)\n' });
    assert.deepEqual(await lint(ok, undefined, 'script-path-incomplete'), []);
  });

  it('secret-printed: echo/printenv of a secret-named variable is reported; a test, a length, a pipe or a counter-example is not', async () => {
    const bad = skill({ 'SKILL.md': 'Check the key:\n\n```bash\necho $NOTES_API_KEY\nprintenv GITHUB_TOKEN\n```\n' });
    assert.deepEqual(await lint(bad, undefined, 'secret-printed'), ['secret-printed@SKILL.md:8', 'secret-printed@SKILL.md:9']);
    const ok = skill({ 'SKILL.md': '```bash\n[ -n "$NOTES_API_KEY" ] && echo set\necho ${#NOTES_API_KEY}\necho "$GITHUB_TOKEN" | gh auth login --with-token\necho $HOME\necho $SSH_KEY_PATH\n# Never do this:\necho $NOTES_API_KEY\n```\n' });
    assert.deepEqual(await lint(ok, undefined, 'secret-printed'), []);
  });

  it('archive-shipped: a .zip or .tar.gz in the skill is reported; a .docx template is not', async () => {
    const dir = skill({ 'SKILL.md': 'Templates: `assets/pack.zip`, `assets/data.tar.gz`, `assets/letter.docx`.\n', 'assets/pack.zip': Buffer.from('PK\x05\x06'), 'assets/data.tar.gz': Buffer.from([0x1f, 0x8b]), 'assets/letter.docx': Buffer.from('PK') });
    assert.deepEqual((await lint(dir, undefined, 'archive-shipped')).sort(), ['archive-shipped@assets/data.tar.gz:1', 'archive-shipped@assets/pack.zip:1']);
  });

  it('license-file-missing and license-unknown: a named file that is not shipped, a misspelt SPDX id; a shipped file, an id, a URL are fine', async () => {
    const missing = skill({ 'SKILL.md': `${fm('lic-a', 'license: LICENSE\n')}\nBody.\n` }, 'lic-a');
    assert.deepEqual(await lint(missing, undefined, 'license-file-missing'), ['license-file-missing@SKILL.md:4']);
    const typo = skill({ 'SKILL.md': `${fm('lic-b', 'license: BSD-3-Clauze license\n')}\nBody.\n` }, 'lic-b');
    const v = await validateSkillDir(typo, { mode: 'lenient' });
    assert.equal(v.diagnostics.find((d) => d.rule === 'license-unknown')?.data?.suggestion, 'BSD-3-Clause');
    for (const [name, value, files] of [['lic-c', 'Complete terms in LICENSE.txt', { 'LICENSE.txt': 'terms\n' }], ['lic-d', 'MIT', {}], ['lic-e', 'https://example.com/LICENSE', {}], ['lic-f', 'Apache-2.0', {}]] as const) {
      const dir = skill({ 'SKILL.md': `${fm(name, `license: ${value}\n`)}\nBody.\n`, ...files }, name);
      assert.deepEqual(await lint(dir, undefined, 'license-'), [], value);
      assert.deepEqual([...(await lint(dir, undefined, 'license-file-missing')), ...(await lint(dir, undefined, 'license-unknown'))], [], value);
    }
  });

  it('description-truncated: a description cut off mid-sentence is reported; a finished one is not', async () => {
    const cut = skill({ 'SKILL.md': `${fm('cut', '', 'Formats release notes. Use when the user asks for notes, changelogs, or')}\nBody.\n` }, 'cut');
    assert.deepEqual(await lint(cut, undefined, 'description-truncated'), ['description-truncated@SKILL.md:3']);
    const done = skill({ 'SKILL.md': `${fm('done', '', 'Formats release notes (Markdown). Use when the user asks for notes...')}\nBody.\n` }, 'done');
    assert.deepEqual(await lint(done, undefined, 'description-truncated'), []);
  });
});

describe('host profiles', () => {
  it('field-nonstandard: a field of the chosen host is its own; under any host it is not portable', async () => {
    const dir = skill({ 'SKILL.md': `${fm('fields', 'when_to_use: When asked.\nuser-invocable: false\n')}\nBody.\n` }, 'fields');
    assert.deepEqual(await lint(dir, 'any', 'field-nonstandard'), ['field-nonstandard@SKILL.md:4', 'field-nonstandard@SKILL.md:5']);
    assert.deepEqual(await lint(dir, 'claude-code', 'field-nonstandard'), []);
    // VS Code defines user-invocable but not when_to_use.
    const vs = await validateSkillDir(dir, { mode: 'lenient', config: { rules: {}, host: 'vscode' } });
    const d = vs.diagnostics.filter((x) => x.rule === 'field-nonstandard');
    assert.deepEqual(d.map((x) => x.data?.field), ['when_to_use']);
    assert.match(d[0].message, /not by VS Code, which ignores it/);
  });

  it('each host id names one profile, and any names them all', () => {
    assert.equal(agentsFor('any').length, 5);
    for (const h of ['claude-code', 'codex', 'vscode', 'copilot-cli', 'agentskills'] as const) assert.deepEqual(agentsFor(h).map((p) => p.id), [h]);
  });
});

describe('issue 25: the new scanners are bounded', () => {
  it('a line of 20,000 options, home paths or echo commands is scanned in one pass (a backtracking pattern would not return)', () => {
    const options = `\`\`\`\npython ${'--flag-a '.repeat(20_000)}x\n\`\`\`\n`;
    assert.deepEqual(bareScriptRuns(options, [[0, options.length]]), []);
    assert.equal(personalPaths(`${'/home/'.repeat(20_000)}x`).length, 0);
    assert.equal(printedSecrets(`echo ${'-n '.repeat(20_000)}"${'a'.repeat(20_000)}`).length, 0);
    assert.equal(installPaths(`${'.claude/skills/'.repeat(20_000)}x`, 'x').length, 0);
  });
});

// Classes found on publishers outside realworld/ (issue 25, second pass; judgments in scripts/lint-judgments/): each
// pair written here, the quiet case first.
describe('issue 25: false-positive classes from publishers not in the development corpus', () => {
  it('invisible-unicode: a joiner inside an emoji sequence is part of the emoji; a joiner or zero-width space elsewhere is reported', async () => {
    const emoji = skill({ 'SKILL.md': '### 1. \u{1F9D1}\u200D\u{1F3EB} Mentor\n\nThe \u{1F469}\u{1F3FD}\u200D\u{1F4BB} role and \u2764\uFE0F\u200D\u{1F525} too.\n' });
    assert.deepEqual(await lint(emoji, undefined, 'invisible-unicode'), []);
    const hidden = skill({ 'SKILL.md': 'Run the\u200Dtests.\n\n\u200B```text\nx\n```\n\n\u{1F9D1}\u200D then words.\n' });
    assert.deepEqual(await lint(hidden, undefined, 'invisible-unicode'), ['invisible-unicode@SKILL.md:5', 'invisible-unicode@SKILL.md:7', 'invisible-unicode@SKILL.md:11']);
  });

  it('secret-detected: the name of a variable written as the value is not a secret; a key is', async () => {
    const named = skill({ 'SKILL.md': '```python\nclient = Client(api_key="ACME_API_KEY")\n```\n' });
    assert.deepEqual(await lint(named, undefined, 'secret-detected'), []);
    const real = skill({ 'SKILL.md': '```python\nclient = Client(api_key="q7Lm2Xv9Rt4Kp8Zw")\n```\n' });
    assert.deepEqual(await lint(real, undefined, 'secret-detected'), ['secret-detected@SKILL.md:6']);
  });

  it('secret-printed: a variable public by design (NEXT_PUBLIC_…, …_PUBLISHABLE_KEY, …_ANON_KEY) is not a secret; a token is', async () => {
    const pub = skill({ 'SKILL.md': '```bash\necho $NEXT_PUBLIC_MAPS_KEY\necho $SHOP_PUBLISHABLE_KEY\necho $DB_ANON_KEY\n```\n' });
    assert.deepEqual(await lint(pub, undefined, 'secret-printed'), []);
    const secret = skill({ 'SKILL.md': '```bash\necho $SHOP_SECRET_KEY\n```\n' });
    assert.deepEqual(await lint(secret, undefined, 'secret-printed'), ['secret-printed@SKILL.md:6']);
  });

  it('description-person: a labelled list of requests ("Triggers: …") is the user\'s words; "you" before it is reported', async () => {
    const listed = skill({ 'SKILL.md': `${fm('buzz', '', "'Sends a push alert to a phone. Use when an alert is asked for. Triggers: ping my phone, buzz me, alert our team.'")}\nBody.\n` }, 'buzz');
    assert.deepEqual(await lint(listed, undefined, 'description-person'), []);
    const dashed = skill({ 'SKILL.md': `${fm('buzz-two', '', "'Sends a push alert to a phone. KEYWORDS - notify me, my phone.'")}\nBody.\n` }, 'buzz-two');
    assert.deepEqual(await lint(dashed, undefined, 'description-person'), []);
    const you = skill({ 'SKILL.md': `${fm('buzz-you', '', "'Sends a push alert when you need it. Triggers: ping my phone.'")}\nBody.\n` }, 'buzz-you');
    assert.deepEqual(await lint(you, undefined, 'description-person'), ['description-person@SKILL.md:3']);
  });

  it('description-no-trigger: "useful for …" and a description in another script say when; an English one without a trigger is reported', async () => {
    for (const [name, d] of [['plan-futures', 'Sketches several futures for a plan, useful for risk reviews.'], ['ru-check', 'Проверяет входные данные формы. Применять для проверки форм.']]) {
      const dir = skill({ 'SKILL.md': `${fm(name, '', d)}\nBody.\n` }, name);
      assert.deepEqual(await lint(dir, undefined, 'description-no-trigger'), [], d);
    }
    const few = skill({ 'SKILL.md': `${fm('form-check', '', 'Checks form input (формы) against a schema.')}\nBody.\n` }, 'form-check');
    assert.deepEqual(await lint(few, undefined, 'description-no-trigger'), ['description-no-trigger@SKILL.md:3']);
  });

  it('placeholder-text: template fields (after a label, in a sentence, in a quote) and "add TODO: …" are not left placeholders; a bracket or note standing alone is', async () => {
    const template = skill({
      'SKILL.md': '## Output\n\n- **Style:** [Describe the style]\n- Input: [Describe]\n\nOpen Settings > [Your Project] > Keys.\n\n> Thanks,\n> [Your name]\n\nIf it is too big, add TODO: `split this later` to the ticket.\n',
    });
    assert.deepEqual(await lint(template, undefined, 'placeholder-text'), []);
    const left = skill({ 'SKILL.md': '## Steps\n\n[Insert the steps here]\n\n- [Add an example]\n\nTODO: write the checks.\n' });
    assert.deepEqual(await lint(left, undefined, 'placeholder-text'), ['placeholder-text@SKILL.md:7', 'placeholder-text@SKILL.md:9', 'placeholder-text@SKILL.md:11']);
  });

  it('placeholder-text: a table cell that qualifies its marker ("TBD — the first quiet week") is data; a bare marker cell, a TODO in a cell or the same words outside a table are placeholders', async () => {
    const data = skill({
      'SKILL.md': '| Step | Release window | Owner |\n|---|---|---|\n| Freeze | TBD — the first quiet week after the audit | platform |\n| Rollout | TBD (after the vote) | TBD, whoever is on call |\n',
    });
    assert.deepEqual(await lint(data, undefined, 'placeholder-text'), []);
    const left = skill({ 'SKILL.md': '| Step | Owner |\n|---|---|\n| Freeze | TBD |\n| Rollout | TODO: ask legal |\n| Notes | TODO – ask legal which regions |\n\nTBD — the first quiet week after the audit.\n' });
    assert.deepEqual(await lint(left, undefined, 'placeholder-text'), [7, 8, 9, 11].map((l) => `placeholder-text@SKILL.md:${l}`));
  });
});
