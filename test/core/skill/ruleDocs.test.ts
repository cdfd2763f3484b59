import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { configJsonSchema, parseConfigText, parseSkillFile, renderRulesTable, RULES, RULES_TABLE_END, RULES_TABLE_START, validateSkillContent } from '../../../src/core/skill';
import { excludeMatcher } from '../../../src/core/skill/config/loadConfig';

const repoRoot = path.resolve(__dirname, '../../..');

describe('rule documentation generated from the rule modules', () => {
  it("the README's rule table is the generated one (regenerate with `node dist/cli.js rules --markdown`)", () => {
    const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    const a = readme.indexOf(RULES_TABLE_START);
    const b = readme.indexOf(RULES_TABLE_END);
    assert.ok(a >= 0 && b > a, 'README.md lost its rules-table markers');
    assert.equal(readme.slice(a + RULES_TABLE_START.length, b).trim(), renderRulesTable(), 'README.md rule table is stale: replace the lines between the markers with `node dist/cli.js rules --markdown`');
  });

  it('schemas/agent-skills.schema.json is the generated schema, and package.json binds it to the config files', () => {
    const onDisk = JSON.parse(fs.readFileSync(path.join(repoRoot, 'schemas/agent-skills.schema.json'), 'utf8')) as { properties: { rules: { properties: Record<string, unknown> } } };
    assert.deepEqual(onDisk, configJsonSchema(), 'stale schema: regenerate it from configJsonSchema()');
    assert.deepEqual(Object.keys(onDisk.properties.rules.properties), RULES.map((r) => r.id));
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
    assert.equal(pkg.contributes.jsonValidation[0].url, './schemas/agent-skills.schema.json');
    assert.deepEqual(pkg.contributes.yamlValidation[0].fileMatch, ['.agent-skills.yaml', '.agent-skills.yml']);
    assert.match(fs.readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8'), /^!schemas\/\*\*$/m);
  });
});

describe('configuration text', () => {
  it('reads levels and options, and names each bad entry with the file, the field and the fix', () => {
    const c = parseConfigText('rules:\n  anchor-missing: error\n  body-too-long: { options: { maxLines: 9, maxLinez: 3 } }\n  bogus-rule: off\nexclude: [drafts/**]\n', '/p/.agent-skills.yaml');
    assert.deepEqual(c.config.rules, { 'anchor-missing': { level: 'error' }, 'body-too-long': { options: { maxLines: 9 } } });
    assert.deepEqual(c.exclude, ['drafts/**']);
    assert.equal(c.problems.length, 2);
    assert.match(c.problems[0], /^\/p\/\.agent-skills\.yaml: `rules\.body-too-long\.options\.maxLinez` is not an option of body-too-long; it has `maxLines`/);
    assert.match(c.problems[1], /`rules\.bogus-rule` is not a rule/);
    const bad = parseConfigText('rules:\n  anchor-missing: loud\n', '/p/.agent-skills.yaml');
    assert.match(bad.problems[0], /`rules\.anchor-missing`/);
    assert.match(parseConfigText('colour: red\n', 'x.yaml').problems[0], /Allowed: `rules`/);
  });

  it('is bounded: size, depth and aliases (a billion-laughs document is refused, quickly)', () => {
    assert.match(parseConfigText('#'.repeat(70_000), 'x.yaml').problems[0], /at most 65536/);
    assert.match(parseConfigText(`rules: ${'['.repeat(40)}${']'.repeat(40)}`, 'x.yaml').problems[0], /deeper than 6/);
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    const r = parseConfigText(laughs.join('\n'), 'x.yaml');
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0], /not valid YAML/);
  });

  it('globs match whole relative paths', () => {
    assert.ok(excludeMatcher('drafts/**')('drafts/a/b'));
    assert.ok(excludeMatcher('*-wip')('pdf-wip'));
    assert.ok(!excludeMatcher('*-wip')('x/pdf-wip'));
    assert.ok(excludeMatcher('**/legacy')('a/b/legacy'));
    assert.ok(excludeMatcher('legacy')('legacy/sub/SKILL.md'), 'a matched folder holds what is under it');
    assert.ok(excludeMatcher('a{b,c}[d]')('a{b,c}[d]'), 'braces and brackets are literal in an exclude');
  });
});

describe('inline suppression', () => {
  const lint = (text: string, mode: 'strict' | 'lenient' = 'lenient') => validateSkillContent({ parsed: parseSkillFile(text), folderName: 'pdf' }, { mode }).diagnostics.map((d) => `${d.rule}@${d.range.start.line}`);
  const head = '---\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\n---\n';

  it('disable-next-line silences the named rule on the next line only', () => {
    const text = `${head}<!-- agent-skills-disable-next-line placeholder-text -->\nTODO one\nTODO two\n`;
    assert.deepEqual(lint(text), ['placeholder-text@6']);
    assert.deepEqual(lint(`${head}TODO one\nTODO two\n`), ['placeholder-text@4', 'placeholder-text@5']);
  });

  it('disable ... enable silences a part; without a rule it silences every rule', () => {
    const text = `${head}<!-- agent-skills-disable placeholder-text -->\nTODO a\n[x](#nowhere)\n<!-- agent-skills-enable placeholder-text -->\nTODO b\n`;
    assert.deepEqual(lint(text).sort(), ['anchor-missing@6', 'placeholder-text@8']);
    assert.deepEqual(lint(`${head}<!-- agent-skills-disable -->\nTODO a\n[x](#nowhere)\n`), []);
  });

  it('a frontmatter comment silences a rule for the whole file; strict keeps the reference errors', () => {
    const text = '---\n# agent-skills-disable description-person name-folder-mismatch\nname: pdf-x\ndescription: You read PDFs. Use for PDFs.\n---\nBody\n';
    assert.deepEqual(lint(text), []);
    assert.deepEqual(lint(text, 'strict'), ['name-folder-mismatch@2']);
  });

  it('a `#` line of the body is a heading, not a suppression; the mark must open an HTML comment there', () => {
    assert.deepEqual(lint(`${head}# agent-skills-disable placeholder-text\nTODO one\n`), ['placeholder-text@5']);
    assert.deepEqual(lint(`${head}Text <!--agent-skills-disable-next-line placeholder-text-->\nTODO one\n<!-- not agent-skills-disable -->\nTODO two\n`), ['placeholder-text@7']);
    // Both forms together: the frontmatter's covers the file, the body's its next line.
    const both = '---\n# agent-skills-disable anchor-missing\nname: pdf\ndescription: Reads PDFs. Use for PDFs.\n---\n[x](#nowhere)\n<!-- agent-skills-disable-next-line placeholder-text -->\nTODO one\nTODO two\n';
    assert.deepEqual(lint(both), ['placeholder-text@8']);
  });
});
