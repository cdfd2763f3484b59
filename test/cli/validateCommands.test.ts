import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { cliTestTimeout, runCli } from '../support/runCli';

const repoRoot = path.resolve(__dirname, '../..');
const fixtures = path.join(repoRoot, 'test/fixtures/skills');
const corpus = path.resolve(repoRoot, '../shared/corpus/anthropic-skills');

const run = (...args: string[]) => runCli(args, { cwd: repoRoot });
const fx = (name: string) => path.join(fixtures, name);

describe('agent-skills validate / read-properties / prompt (spawned dist/cli.js)', function () {
  // Each test runs at most 4 commands, each with its own deadline (runCli).
  this.timeout(cliTestTimeout(4));
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });

  describe('validate', () => {
    it('exit 0 and `Valid skill: <path>` for a valid skill folder', () => {
      const r = run('validate', fx('valid-basic'));
      assert.equal(r.code, 0);
      assert.equal(r.stdout, `Valid skill: ${fx('valid-basic')}\n`);
      assert.equal(r.stderr, '');
    });

    it('accepts a SKILL.md path and reports its folder', () => {
      const r = run('validate', path.join(fx('valid-basic'), 'SKILL.md'));
      assert.equal(r.code, 0);
      assert.equal(r.stdout, `Valid skill: ${fx('valid-basic')}\n`);
    });

    it('exit 1 and the reference shape for an invalid skill; warnings follow separately', () => {
      const r = run('validate', '--strict', fx('description-too-long'), fx('claude-helper'));
      assert.equal(r.code, 1);
      assert.equal(r.stderr.split('\n')[0], `Validation failed for ${fx('description-too-long')}:`);
      assert.match(r.stderr.split('\n')[1], /^ {2}- `description` is 1,025 characters; the limit is 1024\./);
      assert.match(r.stdout, new RegExp(`^Valid skill: ${fx('claude-helper')}\\n  warning: .*reserved word 'claude'.* \\[name-reserved-word SKILL\\.md:2:7\\]$`, 'm'));
      assert.match(r.stdout, /Checked 2 skills \(strict\): 1 valid, 1 invalid\./);
    });

    it('lenient by default: a non-standard field is a note, --strict makes it an error', () => {
      const lenient = run('validate', fx('nonstandard-fields'));
      assert.equal(lenient.code, 0);
      assert.match(lenient.stdout, /info: `argument-hint` is defined by VS Code and Claude Code/);
      const strict = run('validate', '--strict', fx('nonstandard-fields'));
      assert.equal(strict.code, 1);
      assert.equal(strict.stderr.split('\n').filter((l) => l.startsWith('  - ')).length, 4);
    });

    it('--json prints { path, name, valid, diagnostics } per skill', () => {
      const r = run('validate', '--json', fx('folder-mismatch'), fx('valid-basic'));
      assert.equal(r.code, 0);
      const out = JSON.parse(r.stdout) as { path: string; name: string; valid: boolean; diagnostics: { rule: string; severity: string; message: string; range: unknown }[] }[];
      assert.deepEqual(out.map((o) => [o.path, o.name, o.valid]), [[fx('folder-mismatch'), 'other-name', true], [fx('valid-basic'), 'valid-basic', true]]);
      assert.deepEqual(Object.keys(out[0].diagnostics[0]).sort(), ['message', 'range', 'rule', 'severity']);
      assert.equal(out[0].diagnostics[0].rule, 'name-folder-mismatch');
      assert.equal(run('validate', '--json', '--strict', fx('folder-mismatch')).code, 1);
    });

    it('a folder without SKILL.md is invalid (exit 1)', () => {
      const r = run('validate', fx('skill-file-missing'));
      assert.equal(r.code, 1);
      assert.match(r.stderr, /has no SKILL\.md/);
    });

    it('exit 2 on usage errors: no path, unknown option, missing path, an unknown format', () => {
      for (const args of [[], ['--bogus', fx('valid-basic')], [path.join(fixtures, 'no-such-skill')], ['--format', 'xml', fx('valid-basic')]]) {
        const r = run('validate', ...args);
        assert.equal(r.code, 2, args.join(' '));
        assert.match(r.stderr, /usage: agent-skills validate/);
      }
    });

    it('a file that is not SKILL.md fails validation with exit 1, as the reference CLI does', () => {
      const file = path.join(fx('valid-all-fields'), 'scripts/run.py');
      const r = run('validate', file);
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`^Validation failed for ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\n  - Path is not a directory`));
    });

    it('a folder of skills: every child skill is validated', function () {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-folder-'));
      for (const n of ['alpha', 'beta']) {
        fs.mkdirSync(path.join(root, n));
        fs.writeFileSync(path.join(root, n, 'SKILL.md'), `---\nname: ${n}\ndescription: The ${n} skill. Use for ${n}.\n---\nBody\n`);
      }
      const r = run('validate', root);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, `Valid skill: ${path.join(root, 'alpha')}\nValid skill: ${path.join(root, 'beta')}\nChecked 2 skills (lenient): 2 valid, 0 invalid.\n`);
    });

    it('the corpus: --strict finds exactly one invalid skill (claude-api, 1,068 characters); lenient loads all twelve', function () {
      if (!fs.existsSync(corpus)) {
        console.log(`skipped: corpus not found at ${corpus}`);
        this.skip();
      }
      const strict = run('validate', '--strict', corpus);
      assert.equal(strict.code, 1);
      assert.deepEqual(strict.stderr.match(/^Validation failed for .*$/gm), [`Validation failed for ${path.join(corpus, 'claude-api')}:`]);
      assert.match(strict.stderr, /^ {2}- `description` is 1,068 characters; the limit is 1024/m);
      assert.equal((strict.stdout.match(/^Valid skill: /gm) ?? []).length, 11);
      const lenient = run('validate', corpus);
      assert.equal(lenient.code, 0);
      assert.match(lenient.stdout, /Checked 12 skills \(lenient\): 12 valid, 0 invalid\./);
    });
  });

  describe('read-properties', () => {
    it('prints the frontmatter as JSON with keys as written and scalars as strings', () => {
      const r = run('read-properties', fx('valid-all-fields'));
      assert.equal(r.code, 0);
      assert.deepEqual(JSON.parse(r.stdout), {
        name: 'valid-all-fields',
        description: 'Does a thing. Use when the user asks for the thing.',
        license: 'Apache-2.0',
        compatibility: 'Requires git and network access',
        metadata: { author: 'example-org', version: '1.0' },
        'allowed-tools': 'Bash(git:*) Read',
      });
    });

    it('exit 1 when the frontmatter cannot be read, 2 on usage errors', () => {
      const bad = run('read-properties', fx('frontmatter-unclosed'));
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /never closed/);
      assert.equal(run('read-properties').code, 2);
      assert.equal(run('read-properties', fx('valid-basic'), fx('bom')).code, 2);
      assert.equal(run('read-properties', fixtures).code, 2, 'a folder of many skills is not one skill');
    });
  });

  describe('prompt', () => {
    it('prints <available_skills> with name, description and location, XML-escaped (&, < and > only: quotes and apostrophes stay as written)', () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-prompt-'));
      const dir = path.join(root, 'quotes');
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: quotes\ndescription: 'Handles "A & B" <tags> and it''s fine.'\n---\nBody\n`);
      const r = run('prompt', dir, fx('valid-basic'));
      assert.equal(r.code, 0);
      assert.equal(
        r.stdout,
        [
          '<available_skills>',
          '<skill>',
          '<name>quotes</name>',
          '<description>Handles "A &amp; B" &lt;tags&gt; and it\'s fine.</description>',
          `<location>${path.join(dir, 'SKILL.md')}</location>`,
          '</skill>',
          '<skill>',
          '<name>valid-basic</name>',
          '<description>Does a thing. Use when the user asks for the thing.</description>',
          `<location>${path.join(fx('valid-basic'), 'SKILL.md')}</location>`,
          '</skill>',
          '</available_skills>',
          '',
        ].join('\n'),
      );
    });

    it('leaves out skills that cannot load and exits 1; exit 2 with no path and no folder to scan', () => {
      const r = run('prompt', fx('valid-basic'), fx('description-missing'));
      assert.equal(r.code, 1);
      assert.match(r.stdout, /<name>valid-basic<\/name>/);
      assert.doesNotMatch(r.stdout, /description-missing/);
      assert.match(r.stderr, /Skipped .*description-missing:\n {2}- The required field `description` is missing/);
      const none = run('prompt', '--no-defaults');
      assert.equal(none.code, 2);
      assert.match(none.stderr, /--no-defaults leaves no folder to scan/);
    });
  });
});
