import * as assert from 'node:assert/strict';
import { fm, lintFixtures } from '../../support/lintFixtures';

// Classes of wrong finding met on the seventh draw of fresh GitHub publishers (scripts/lint-judgments/github-seventh.tsv,
// judged before these fixes), each as made-up skills: the case the rule must leave alone and the case it must still
// report, so each test fails if its rule goes silent.

describe('issue 25: false-positive classes from the seventh draw of fresh GitHub publishers', () => {
  const fx = lintFixtures('seventh-');
  const { skill, lint } = fx;
  const doc = (text: string, file = 'references/notes.md') => skill({ 'SKILL.md': 'Read [the notes](references/notes.md). Run `scripts/tool.sh`.\n', [file]: text });

  it('secret-detected: a vendor-prefixed key whose tail counts up (`rk_test_abcd1234wxyz`) and a leetspeak "password" are demo values; a random key is reported, in a counter-example too', async () => {
    const secrets = async (body: string) => (await lint(doc(body), undefined, 'secret-detected')).length;
    assert.equal(await secrets('```json\n{ "api_key": "rk_test_abcd1234wxyz" }\n```\n'), 0, 'prefix + abcd1234wxyz');
    assert.equal(await secrets('Wrong:\n\n```json\n{ "apiKey": "pay_live_xyz789" }\n```\n'), 0, 'prefix + xyz789 in a counter-example');
    assert.equal(await secrets('```bash\ncurl -d \'{"login": "olga", "password": "W1nt3rP@ssw0rd"}\' https://api.example.org/session\n```\n'), 0, 'leetspeak password');
    assert.equal(await secrets('```ini\nclient_secret = "Gr8S3cr3t!"\n```\n'), 0, 'leetspeak secret');
    assert.equal(await secrets('```json\n{ "api_key": "rk_live_9fQ2xL7mWb4Tz8Kp" }\n```\n'), 1, 'a random key after a prefix');
    assert.equal(await secrets('Never do this:\n\n```json\n{ "apiKey": "pay_live_Q7d2Lx9vRm4K" }\n```\n'), 1, 'a random key in a counter-example is still a leak');
    assert.equal(await secrets('```ini\npassword = "Hx7!qPz2Lw9e"\n```\n'), 1, 'a password that spells nothing');
  });

  it('file-unreferenced: a per-host variant of SKILL.md and a root manifest naming the skill are for tools; a data file that names something else is reported', async () => {
    const orphans = async (files: Record<string, string>, name?: string) => (await lint(skill({ 'SKILL.md': 'Formats notes.\n', ...files }, name), undefined, 'file-unreferenced')).sort();
    assert.deepEqual(await orphans({ 'SKILL.gemini.yaml': 'model: fast\n' }), [], 'SKILL.<host>.yaml');
    assert.deepEqual(await orphans({ 'bundle.json': '{\n  "skillName": "notes-formatter",\n  "digest": "ab12"\n}\n' }, 'notes-formatter'), [], 'skillName is the folder');
    assert.deepEqual(await orphans({ 'card.yaml': 'title: Notes Formatter\nauthor: Olga\n' }, 'notes-formatter'), [], 'a display title of the name');
    assert.deepEqual(await orphans({ 'settings.json': '{ "name": "weekly-digest", "limit": 3 }\n' }, 'notes-formatter2'), ['file-unreferenced@settings.json:1'], 'a data file naming another thing');
    assert.deepEqual(await orphans({ 'data/card.json': '{ "name": "notes-formatter3" }\n' }, 'notes-formatter3'), ['file-unreferenced@data/card.json:1'], 'not at the root: a data file of the skill');
  });

  it('description-no-trigger: a skill the model never picks, "after every …", and for Claude Code a trigger in `when_to_use` say when; without them it is reported, and for other agents the message names when_to_use', async () => {
    const trig = async (desc: string, extra = '', host?: 'codex' | 'claude-code') => {
      const name = `t${fx.next()}`;
      return (await lint(skill({ 'SKILL.md': `${fm(name, extra, JSON.stringify(desc))}\nBody.\n` }, name), host, 'description-no-trigger')).length;
    };
    assert.equal(await trig('Formats changelog entries.', 'when_to_use: The user asks for a changelog.\n', 'claude-code'), 0, 'when_to_use, linted for Claude Code');
    const anyHost = skill({ 'SKILL.md': `${fm('t-any', 'when_to_use: The user asks for a changelog.\n', 'Formats changelog entries.')}\nBody.\n` }, 't-any');
    const said = await fx.messages(anyHost, 'description-no-trigger');
    assert.equal(said.length, 1, 'when_to_use, linted for any agent: the others see no trigger');
    assert.match(said[0], /the trigger is in `when_to_use`, which only Claude Code reads/);
    assert.equal(await trig('Formats changelog entries.', 'disable-model-invocation: true\n'), 0, 'user-invoked only');
    assert.equal(await trig('Runs the formatters after every edit of a source file.'), 0, 'after every');
    assert.equal(await trig('Regenerates the index before each release.'), 0, 'before each');
    assert.equal(await trig('Formats changelog entries.'), 1, 'no trigger anywhere');
    assert.equal(await trig('Formats changelog entries.', 'when_to_use: ""\n'), 1, 'an empty when_to_use');
    assert.equal(await trig('Formats changelog entries.', 'when_to_use: The user asks for a changelog.\n', 'codex'), 1, 'Codex does not read when_to_use');
    assert.equal(await trig('Runs the formatters for every package.'), 1, '"for every" is the scope, not a moment');
  });

  it("personal-path: a path in a script's comment is read by no one; in the script's code, or in Markdown, it is reported", async () => {
    const paths = async (file: string, text: string) => (await lint(doc(text, file), undefined, 'personal-path')).length;
    assert.equal(await paths('scripts/tool.sh', '#!/bin/sh\n# Under Git Bash C:\\Users\\marta\\proj reaches awk as C:Usersmartaproj.\nROOT="${1:-.}"\n'), 0, 'a shell comment');
    assert.equal(await paths('scripts/tool.py', 'import sys\nroot = sys.argv[1]  # tried on /Users/oskar/dev/x\n'), 0, 'a trailing Python comment');
    assert.equal(await paths('scripts/tool.mjs', '// written against /home/oskar/work/site\nexport const root = process.argv[2];\n'), 0, 'a JavaScript comment');
    assert.equal(await paths('scripts/tool.sh', '#!/bin/sh\nROOT="/Users/oskar/dev/x"  # the data\n'), 1, 'a path the script uses');
    assert.equal(await paths('scripts/tool.mjs', 'const url = "https://x.example/a";\nconst root = "/home/oskar/work/site";\n'), 1, 'after a URL with //');
    assert.equal(await paths('references/notes.md', '```bash\n# cd /Users/oskar/dev/x first\n```\n'), 1, 'Markdown is read by the model, comments too');
  });

  it('placeholder-text: markers named as a list of kinds ("TODO/FIXME notes") are a topic; a marker left alone is reported', async () => {
    const marks = async (text: string) => (await lint(skill({ 'SKILL.md': text }), undefined, 'placeholder-text')).length;
    assert.equal(await marks('Sources to read:\n- the diff\n- TODO/FIXME notes near the change\n'), 0, 'TODO/FIXME');
    assert.equal(await marks('Count:\n- FIXME, XXX and TODO lines per file\n'), 0, 'FIXME, XXX and TODO');
    assert.equal(await marks('Sources to read:\n- the diff\n- TODO: name the second source\n'), 1, 'a note left by the author');
    assert.equal(await marks('Steps:\n- TODO\n'), 1, 'a bare marker');
  });

  it('install-path-hardcoded: a table of the places several hosts install the skill documents them; a command through one place is reported, in such a table too', async () => {
    const installs = async (name: string, text: string) => (await lint(skill({ 'SKILL.md': 'Formats notes.\n', 'README.md': text }, name), undefined, 'install-path-hardcoded')).length;
    const table = (n: string) => `| Host | Where |\n|---|---|\n| Claude Code | \`~/.claude/skills/${n}/SKILL.md\` |\n| Codex | \`~/.codex/skills/${n}/SKILL.md\` |\n| Project | \`.agents/skills/${n}/SKILL.md\` |\n`;
    assert.equal(await installs('notes-a', table('notes-a')), 0, 'install places of three hosts');
    assert.equal(await installs('notes-b', `${table('notes-b')}\nThen run \`python ~/.claude/skills/notes-b/scripts/fmt.py\`.\n`), 1, 'a command through one of them');
    assert.equal(await installs('notes-c', 'Read `~/.claude/skills/notes-c/SKILL.md` for the steps.\n'), 1, 'one place only');
  });

  it("reference-missing: a path the text gives to another skill, plugin or the user is theirs; this skill's own missing file is reported", async () => {
    const missing = async (line: string, name?: string) => (await lint(skill({ 'SKILL.md': `${line}\n` }, name), undefined, 'reference-missing')).length;
    assert.equal(await missing("- `invoice-kit`'s **Totals** section and its `references/rounding.md`: the rounding contract."), 0, "another skill's file");
    assert.equal(await missing("Append to the user's `journal/today.md`."), 0, "the user's file");
    assert.equal(await missing('Follow `references/rounding.md` for the rounding contract.'), 1, 'the skill\'s own file');
    assert.equal(await missing("Follow this skill's `references/rounding.md`."), 1, "this skill's");
    assert.equal(await missing("Follow `ledger-tool`'s `references/rounding.md`.", 'ledger-tool'), 1, 'the skill named by its own name');
    assert.equal(await missing("It's in `references/rounding.md`."), 1, "it's is no owner");
  });
});
