import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { commandNames } from '../../src/cli/commands';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { cliTestTimeout, runCli } from '../support/runCli';

const repoRoot = path.resolve(__dirname, '../..');

const run = (...args: string[]) => runCli(args, { cwd: repoRoot });

/** The `--option` words of a usage line. */
function optionsOf(usage: string): string[] {
  return [...new Set(usage.match(/--[a-z][a-z-]*/g) ?? [])];
}

describe('agent-skills <command> --help (issue 25, point 5)', function () {
  // Each test runs at most 3 commands, each with its own deadline (runCli).
  this.timeout(cliTestTimeout(3));
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });

  it('agent-skills --help lists every command of the command table and exits 0', () => {
    const r = run('--help');
    assert.equal(r.code, 0, r.stderr);
    for (const name of commandNames()) assert.match(r.stdout, new RegExp(`^  ${name} `, 'm'), `${name} is listed`);
    assert.match(r.stdout, /--help/);
  });

  for (const name of commandNames()) {
    for (const flag of ['--help', '-h']) {
      it(`${name} ${flag}: usage, every option of the usage line explained, exit codes; exit 0`, () => {
        const r = run(name, flag);
        assert.equal(r.code, 0, `${name} ${flag}: ${r.stderr}`);
        assert.equal(r.stderr, '');
        const usage = /^usage: agent-skills (.*)$/m.exec(r.stdout);
        assert.ok(usage, `a usage line:\n${r.stdout}`);
        assert.ok(usage[1].startsWith(name), usage[1]);
        const options = r.stdout.slice(r.stdout.indexOf('\nOptions:\n'), r.stdout.indexOf('\nExit codes:\n'));
        assert.ok(options.length > 0, `an Options section:\n${r.stdout}`);
        for (const o of optionsOf(usage[1])) assert.match(options, new RegExp(`^  (?:.*[ ,])?${o}\\b`, 'm'), `${name}: ${o} is explained`);
        const codes = r.stdout.slice(r.stdout.indexOf('\nExit codes:\n'));
        assert.match(codes, /^  0 |^  N /m, 'the success code');
        assert.match(codes, /^  2 +usage error/m, 'the usage-error code');
      });
    }
  }

  it('help <command> prints the same help; an unknown command is a usage error', () => {
    assert.equal(run('help', 'validate').stdout, run('validate', '--help').stdout);
    const bad = run('help', 'nope');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown command 'nope'/);
  });

  it('a usage error points at --help', () => {
    const r = run('prompt', '--nope');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Run 'agent-skills prompt --help'/);
  });

  it("run: a --help after the script is the script's, not the command's", () => {
    // No skill named this exists: the command runs (and fails to find it) instead of printing its help.
    const r = run('run', '--no-defaults', '--root', path.join(repoRoot, 'test/fixtures/skills'), 'no-such-skill', 'x.sh', '--help');
    assert.notEqual(r.code, 0);
    assert.doesNotMatch(r.stdout, /^usage: agent-skills run/m);
  });
});
