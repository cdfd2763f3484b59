import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'dist/cli.js');
const FIXTURE = path.join(REPO, 'test/fixtures/registry');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function list(args: string[], opts: { cwd: string; home: string }): Run {
  const r = spawnSync(process.execPath, [CLI, 'list', ...args], { cwd: opts.cwd, env: { ...process.env, HOME: opts.home, USERPROFILE: opts.home }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function temp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cli-list-'));
}

function writeSkill(root: string, name: string): void {
  fs.mkdirSync(path.join(root, name), { recursive: true });
  fs.writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Does ${name}.\n---\n# ${name}\n`);
}

describe('agent-skills list', function () {
  this.timeout(60_000);
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });

  const fixture = { cwd: path.join(FIXTURE, 'workspace'), home: path.join(FIXTURE, 'home') };
  const pluginArg = `--root=plugin:acme.pdf-tools:${path.join(FIXTURE, 'plugin/skills')}`;

  it('prints a table of every skill with the shadowed, ambiguous and broken ones, and exits 1 for ambiguous or broken', () => {
    const r = list([pluginArg], fixture);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.split('\n');
    assert.match(lines[0], /^STATUS\s+SCOPE\s+ID\s+LOCATION\s+DIGEST$/);
    assert.match(r.stdout, /^ok\s+project\s+workspace:pdf\s+\.github\/skills\/pdf\/SKILL\.md\s+sha256:[0-9a-f]{12}$/m);
    assert.match(r.stdout, /^ {4}shadows user:pdf, plugin:acme\.pdf-tools:pdf$/m);
    assert.match(r.stdout, /^shadowed\s+user\s+user:pdf\s+.*home\/\.claude\/skills\/pdf\/SKILL\.md/m);
    assert.match(r.stdout, /^ {4}shadowed by workspace:pdf$/m);
    assert.match(r.stdout, /^broken\s+project\s+workspace:broken-one\s/m);
    assert.match(r.stdout, /^ {4}frontmatter-unclosed \(line 1\): The frontmatter opened with `---` is never closed/m);
    assert.equal((r.stdout.match(/^ambiguous\s+project\s+workspace:twin@/gm) ?? []).length, 2);
    assert.match(r.stdout, /^ok\s+project\s+workspace:lower\s+\.claude\/skills\/lower\/skill\.md/m);
    assert.ok(!r.stdout.includes('notes'), 'a folder without SKILL.md is not listed');
    assert.match(r.stdout, /9 skill\(s\) in \d+ folder\(s\): 4 ok, 2 shadowed, 2 ambiguous, 1 broken\./);
  });

  it('--json gives the records with scope, id, location, full digest, shadowing and diagnostics', () => {
    const r = list(['--json', pluginArg], fixture);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout) as { roots: { path: string; scope: string }[]; skills: Record<string, unknown>[] };
    const byId = new Map(out.skills.map((s) => [s.id as string, s]));
    const pdf = byId.get('workspace:pdf')!;
    const file = path.join(FIXTURE, 'workspace/.github/skills/pdf/SKILL.md');
    assert.equal(pdf.location, file);
    assert.equal(pdf.digest, `sha256:${createHash('sha256').update(fs.readFileSync(file)).digest('hex')}`);
    assert.deepEqual(pdf.shadows, ['user:pdf', 'plugin:acme.pdf-tools:pdf']);
    assert.equal(byId.get('plugin:acme.pdf-tools:pdf')!.shadowedBy, 'workspace:pdf');
    assert.equal(byId.get('plugin:acme.pdf-tools:pdf')!.scope, 'plugin');
    const broken = byId.get('workspace:broken-one')!;
    assert.equal(broken.status, 'broken');
    assert.equal((broken.diagnostics as { rule: string }[])[0].rule, 'frontmatter-unclosed');
    assert.deepEqual([...new Set(out.roots.map((x) => x.scope))], ['project', 'user', 'plugin']);
  });

  it('exits 0 when every skill is usable; --root user:<dir> adds a user-scoped root, --no-defaults skips the defaults', () => {
    const cwd = temp();
    const home = temp();
    writeSkill(path.join(cwd, '.claude/skills'), 'from-default');
    const extra = temp();
    writeSkill(extra, 'from-root');
    let r = list(['--json', `--root=user:${extra}`], { cwd, home });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual((JSON.parse(r.stdout).skills as { id: string }[]).map((s) => s.id), ['workspace:from-default', 'user:from-root']);
    r = list(['--no-defaults', '--root', extra, '--json'], { cwd, home });
    assert.equal(r.code, 0);
    assert.deepEqual((JSON.parse(r.stdout).skills as { id: string }[]).map((s) => s.id), ['workspace:from-root']);
  });

  it('says where to put skills when there are none, and exits 0', () => {
    const r = list([], { cwd: temp(), home: temp() });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /No skills found in 6 folder\(s\)\. .*--root <dir>/);
  });

  it('exits 2 with the usage line on bad arguments', () => {
    const cases: [string[], RegExp][] = [
      [['--bogus'], /Unknown option '--bogus'/],
      [['--no-defaults'], /--no-defaults leaves no folder to scan/],
      [['--root', 'plugin:/tmp/x'], /a plugin root needs a source/],
      [['stray'], /positional/i],
    ];
    for (const [args, message] of cases) {
      const r = list(args, { cwd: temp(), home: temp() });
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /usage: agent-skills list \[--root /);
    }
  });

  it('--plugin <dir> lists the skills of an Agent Plugin as plugin:<name>:<skill>, reports a rejected plugin on stderr and exits 1', () => {
    const dir = temp();
    try {
      const good = path.join(dir, 'good');
      fs.mkdirSync(good);
      fs.writeFileSync(path.join(good, 'plugin.json'), JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name: 'report-tools', version: '1.2.0' }));
      writeSkill(path.join(good, 'skills'), 'summarize');
      const ok = list(['--no-defaults', '--plugin', good, '--json'], { cwd: dir, home: dir });
      assert.equal(ok.code, 0, ok.stderr);
      const json = JSON.parse(ok.stdout) as { skills: { id: string; scope: string; status: string }[] };
      assert.deepEqual(json.skills.map((s) => [s.id, s.scope, s.status]), [['plugin:report-tools:summarize', 'agent-plugin', 'ok']]);
      const bad = path.join(dir, 'bad');
      fs.mkdirSync(bad);
      fs.writeFileSync(path.join(bad, 'plugin.json'), JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json', name: 'Bad--Name' }));
      writeSkill(path.join(bad, 'skills'), 'hidden');
      const r = list(['--no-defaults', '--plugin', good, '--plugin', bad], { cwd: dir, home: dir });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /bad\/plugin\.json: "name" "Bad--Name" is not a plugin name.*\(Agent Plugins 1\.0 §5\.5\)/);
      assert.doesNotMatch(r.stdout, /hidden/, 'no skill of a rejected plugin is listed');
      assert.match(r.stdout, /plugin:report-tools:summarize/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
