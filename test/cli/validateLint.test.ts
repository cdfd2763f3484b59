import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { explainRule, RULES } from '../../src/core/skill';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { cliTestTimeout, runCli } from '../support/runCli';

const repoRoot = path.resolve(__dirname, '../..');
const fixtures = path.join(repoRoot, 'test/fixtures/skills');

const run = (cwd: string, ...args: string[]) => runCli(args, { cwd });

/** A temp folder holding copies of the named fixtures. */
function copy(...names: string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-lint-'));
  for (const n of names) fs.cpSync(path.join(fixtures, n), path.join(root, n), { recursive: true });
  return root;
}

describe('agent-skills rules / explain / validate --format, --fix, --config (spawned dist/cli.js)', function () {
  // Each test runs at most 4 commands, each with its own deadline (runCli).
  this.timeout(cliTestTimeout(4));
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });

  it('rules lists every rule with both levels; explain prints the hover text; an unknown rule is a usage error naming the closest', () => {
    const r = run(repoRoot, 'rules');
    assert.equal(r.code, 0);
    for (const rule of RULES) assert.match(r.stdout, new RegExp(`\\b${rule.id}\\s+strict ${rule.strict}\\s+lenient ${rule.lenient}\\b`));
    const e = run(repoRoot, 'explain', 'invisible-unicode');
    assert.equal(e.code, 0);
    assert.equal(e.stdout, `${explainRule('invisible-unicode')}\n`);
    const bad = run(repoRoot, 'explain', 'invisible-unicod');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Did you mean 'invisible-unicode'/);
  });

  it('--host lints for one host (over host: in .agent-skills.yaml); a bad host is a usage error naming the hosts', () => {
    const root = copy('nonstandard-fields');
    const rules = (args: string[]) => (JSON.parse(run(root, 'validate', '--json', ...args, 'nonstandard-fields').stdout) as { diagnostics: { rule: string }[] }[])[0].diagnostics.map((d) => d.rule);
    assert.ok(rules([]).includes('field-nonstandard'), 'any host: a host field is not portable');
    assert.ok(!rules(['--host', 'claude-code']).includes('field-nonstandard'), 'Claude Code defines them');
    fs.writeFileSync(path.join(root, '.agent-skills.yaml'), 'host: claude-code\n');
    assert.ok(!rules([]).includes('field-nonstandard'), 'host: in the configuration');
    assert.ok(rules(['--host', 'any']).includes('field-nonstandard'), '--host is laid over host:');
    const bad = run(root, 'validate', '--host', 'emacs', 'nonstandard-fields');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--host must be one of any, claude-code, codex, vscode, copilot-cli, agentskills, not 'emacs'/);
  });

  it('--format sarif is SARIF 2.1.0 with rule metadata, help and regions that point at the finding', () => {
    const root = copy('boolean-quoted', 'description-too-long');
    const r = run(root, 'validate', '--strict', '--format', 'sarif', '.');
    assert.equal(r.code, 1);
    const sarif = JSON.parse(r.stdout);
    assert.equal(sarif.version, '2.1.0');
    assert.equal(sarif.runs.length, 1);
    const run0 = sarif.runs[0];
    const rules = run0.tool.driver.rules as { id: string; help: { text: string }; shortDescription: { text: string } }[];
    assert.deepEqual(rules.map((x) => x.id), RULES.map((x) => x.id));
    for (const x of rules) assert.ok(x.help.text.length > 20 && x.shortDescription.text.length > 10, x.id);
    assert.ok(run0.results.length >= 3);
    for (const res of run0.results) {
      assert.ok(['error', 'warning', 'note'].includes(res.level), res.level);
      assert.equal(rules[res.ruleIndex].id, res.ruleId);
      const loc = res.locations[0].physicalLocation;
      assert.equal(loc.artifactLocation.uriBaseId, '%SRCROOT%');
      const file = path.join(root, decodeURI(loc.artifactLocation.uri));
      assert.ok(fs.existsSync(file), file);
      assert.ok(loc.region.startLine >= 1 && loc.region.startColumn >= 1);
      if (res.ruleId === 'boolean-quoted') {
        const line = fs.readFileSync(file, 'utf8').split('\n')[loc.region.startLine - 1];
        assert.match(line.slice(loc.region.startColumn - 1, loc.region.endColumn - 1), /^"(true|false)"$/);
      }
    }
    assert.ok(run0.results.some((x: { ruleId: string; level: string }) => x.ruleId === 'description-too-long' && x.level === 'error'));
  });

  it('--format github prints one workflow command per finding with file, line and column', () => {
    const root = copy('boolean-quoted');
    const r = run(root, 'validate', '--format', 'github', 'boolean-quoted');
    assert.equal(r.code, 0);
    const lines = r.stdout.trim().split('\n');
    assert.ok(lines.length >= 3);
    for (const l of lines) assert.match(l, /^::(error|warning|notice) file=boolean-quoted\/SKILL\.md,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=agent-skills [a-z-]+::\S/);
    assert.ok(lines.some((l) => l.startsWith('::warning file=boolean-quoted/SKILL.md,line=4,col=17,')));
  });

  it('--fix applies the safe fixes atomically, reports each, and leaves the others', () => {
    const root = copy('invisible-unicode', 'code-fence-unclosed', 'boolean-quoted', 'backslash-path', 'name-missing');
    const r = run(root, 'validate', '--fix', '.');
    assert.equal(r.code, 0, r.stderr);
    for (const rule of ['invisible-unicode', 'code-fence-unclosed', 'boolean-quoted', 'backslash-path', 'name-missing']) assert.match(r.stdout, new RegExp(`Fixed .*\\[${rule}\\]`), rule);
    const again = run(root, 'validate', '--format', 'json', '.');
    const rulesLeft = (JSON.parse(again.stdout) as { diagnostics: { rule: string }[] }[]).flatMap((x) => x.diagnostics.map((d) => d.rule));
    for (const rule of ['invisible-unicode', 'code-fence-unclosed', 'boolean-quoted', 'backslash-path', 'name-missing']) assert.ok(!rulesLeft.includes(rule), `${rule} is still reported`);
    assert.ok(rulesLeft.includes('skill-unreachable'), 'a fix that needs a decision is not applied');
    assert.equal(fs.readFileSync(path.join(root, 'boolean-quoted/SKILL.md'), 'utf8').split('\n')[3], 'user-invocable: false');
    assert.ok(!/[\u200b\u202e\u202c]/.test(fs.readFileSync(path.join(root, 'invisible-unicode/SKILL.md'), 'utf8')));
    assert.match(fs.readFileSync(path.join(root, 'code-fence-unclosed/SKILL.md'), 'utf8'), /Do the thing\.\n```\n$/);
    assert.deepEqual(fs.readdirSync(path.join(root, 'boolean-quoted')), ['SKILL.md'], 'no temp file left behind');
  });

  it('.agent-skills.yaml found walking up: levels, options and excludes; --config overrides; bad entries are named', () => {
    const root = copy('boolean-quoted', 'anchor-missing', 'body-too-long', 'description-person');
    fs.writeFileSync(
      path.join(root, '.agent-skills.yaml'),
      'rules:\n  boolean-quoted: off\n  anchor-missing: error\n  body-too-long:\n    options:\n      maxLines: 1000\n  boolean-quotd: off\nexclude:\n  - description-person\n',
    );
    const r = run(root, 'validate', '--format', 'json', '.');
    assert.equal(r.code, 1, 'anchor-missing raised to error makes its skill invalid');
    const out = JSON.parse(r.stdout) as { path: string; valid: boolean; diagnostics: { rule: string; severity: string }[] }[];
    assert.deepEqual(out.map((x) => path.basename(x.path)), ['anchor-missing', 'body-too-long', 'boolean-quoted']);
    const all = out.flatMap((x) => x.diagnostics.map((d) => `${d.rule}:${d.severity}`));
    assert.ok(!all.some((d) => d.startsWith('boolean-quoted:')), 'off');
    assert.ok(all.includes('anchor-missing:error'));
    assert.ok(!all.some((d) => d.startsWith('body-too-long:')), 'maxLines 1000');
    assert.match(r.stderr, /\.agent-skills\.yaml: `rules\.boolean-quotd` is not a rule\. Did you mean `boolean-quoted`\?/);
    // Strict verdicts stay the reference's: the raised rule is at most a warning there.
    const strict = JSON.parse(run(root, 'validate', '--strict', '--format', 'json', 'anchor-missing').stdout);
    assert.equal(strict[0].valid, true);
    // --config names another file, which replaces the found one.
    const other = path.join(root, 'other.yaml');
    fs.writeFileSync(other, 'rules:\n  anchor-missing: off\n');
    const c = run(root, 'validate', '--config', other, '--format', 'json', 'anchor-missing');
    assert.equal(c.code, 0);
    assert.deepEqual(JSON.parse(c.stdout)[0].diagnostics, []);
    assert.equal(run(root, 'validate', '--config', path.join(root, 'missing.yaml'), 'anchor-missing').code, 2);
  });

  it('a configuration is bounded: too large or too deep is refused with the file named', () => {
    const root = copy('valid-basic');
    fs.writeFileSync(path.join(root, '.agent-skills.yaml'), `rules:\n${'  # pad\n'.repeat(20_000)}`);
    const big = run(root, 'validate', 'valid-basic');
    assert.equal(big.code, 0);
    assert.match(big.stderr, /\.agent-skills\.yaml: the file is \d+ characters; a configuration may have at most 65536/);
    fs.writeFileSync(path.join(root, '.agent-skills.yaml'), `rules: ${'['.repeat(50)}${']'.repeat(50)}\n`);
    assert.match(run(root, 'validate', 'valid-basic').stderr, /nested deeper than 6 levels/);
    fs.writeFileSync(path.join(root, '.agent-skills.yaml'), 'a: &a [x, x]\nb: [*a, *a]\n');
    assert.match(run(root, 'validate', 'valid-basic').stderr, /not valid YAML|alias/i);
  });
});
