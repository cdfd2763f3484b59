import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { cliTestTimeout, runCli, type CliResult } from '../support/runCli';

describe('agent-skills inspect|patch|create|history|restore|archive', function () {
  // Each test runs at most 8 commands, each with its own deadline (runCli).
  this.timeout(cliTestTimeout(8));
  let base: string;
  let ws: string;
  let state: string;

  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-catalog-'));
    ws = path.join(base, 'skills');
    state = path.join(base, 'state');
    fs.mkdirSync(path.join(ws, 'notes'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'notes', 'SKILL.md'), '---\nname: notes\ndescription: Takes notes. Use when asked to note things.\n---\n\n# Notes\n\nWrite them down.\nKeep them short.\n');
  });

  function cli(args: string[], input?: string): CliResult {
    return runCli([...args, '--no-defaults', `--root=${ws}`, `--state-dir=${state}`], { cwd: base, env: { ...process.env, HOME: base }, input });
  }

  const file = () => path.join(ws, 'notes', 'SKILL.md');

  it('inspect prints the file; --json gives the ref; unknown skills exit 1, bad args exit 2', () => {
    const r = cli(['inspect', 'notes']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, fs.readFileSync(file(), 'utf8'));
    const j = JSON.parse(cli(['inspect', 'workspace:notes', '--json']).stdout);
    assert.match(j.versionRef, /^sha256:[0-9a-f]{64}$/);
    assert.equal(cli(['inspect', 'nope']).code, 1);
    assert.equal(cli(['inspect']).code, 2);
    assert.equal(cli(['inspect', 'notes', '--offset', 'x']).code, 2);
  });

  it('--json keeps its flat shape: the result\'s fields beside ok: true, or { ok: false, error }', () => {
    const j = JSON.parse(cli(['inspect', 'notes', '--json']).stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(j).sort(), ['action', 'content', 'contentWithLineNumbers', 'encoding', 'file', 'files', 'ok', 'size', 'skill', 'versionRef', 'warnings']);
    assert.equal(j.ok, true);
    const made = JSON.parse(cli(['create', 'drafts', '--scope', 'workspace', '--description', 'Drafts things. Use when a draft is due.', '--dry-run', '--json']).stdout) as Record<string, unknown>;
    assert.equal(made.ok, true);
    assert.equal(made.action, 'create');
    assert.equal(made.skillId, 'workspace:drafts');
    const failure = cli(['inspect', 'nope', '--json']);
    assert.equal(failure.code, 1);
    const f = JSON.parse(failure.stdout) as { ok: boolean; error: Record<string, unknown> };
    assert.deepEqual(Object.keys(f).sort(), ['error', 'ok']);
    assert.equal(f.ok, false);
    assert.equal(f.error.code, 'not_found');
    assert.match(String(f.error.hint), /\w/);
  });

  it('inspect of a large file walks the parts with --offset', () => {
    const big = `---\nname: notes\ndescription: Takes notes. Use when asked to note things.\n---\n\n${'a line of text that repeats\n'.repeat(30_000)}`;
    fs.writeFileSync(file(), big);
    let offset: number | null = 0;
    let out = '';
    while (offset !== null) {
      const r = cli(['inspect', 'notes', '--offset', String(offset)]);
      assert.equal(r.code, 0, r.stderr);
      out += r.stdout;
      const m = /next: --offset (\d+)/.exec(r.stderr);
      offset = m ? Number(m[1]) : null;
    }
    assert.equal(out, big);
  });

  it('patch: dry run, stale --expect (exit 1), write, history and restore', () => {
    const ref = JSON.parse(cli(['inspect', 'notes', '--json']).stdout).versionRef as string;
    const diffFile = path.join(base, 'change.diff');
    fs.writeFileSync(diffFile, '--- a/SKILL.md\n+++ b/SKILL.md\n@@ -8,2 +8,2 @@\n Write them down.\n-Keep them short.\n+Keep them very short.\n');
    const original = fs.readFileSync(file(), 'utf8');
    const dry = cli(['patch', 'notes', '--diff', diffFile, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /\+Keep them very short\./);
    assert.match(dry.stdout, /dry run/);
    assert.equal(fs.readFileSync(file(), 'utf8'), original);
    const stale = cli(['patch', 'notes', '--diff', diffFile, '--expect', `sha256:${'0'.repeat(64)}`]);
    assert.equal(stale.code, 1);
    assert.match(stale.stderr, /changed since version/);
    const done = cli(['patch', 'notes', '--diff', '-', '--expect', ref], fs.readFileSync(diffFile, 'utf8'));
    assert.equal(done.code, 0, done.stderr);
    assert.match(fs.readFileSync(file(), 'utf8'), /Keep them very short\./);
    const hist = cli(['history', 'notes']);
    assert.equal(hist.code, 0);
    assert.match(hist.stdout, /^\s+1 .* seed: /m);
    assert.match(hist.stdout, /^\s+2 .* patch$/m);
    const back = cli(['restore', 'notes', '1']);
    assert.equal(back.code, 0, back.stderr);
    assert.equal(fs.readFileSync(file(), 'utf8'), original);
    assert.equal(cli(['patch', 'notes']).code, 2);
  });

  it('patch that breaks validation exits 1 and leaves the file; --force writes it', () => {
    const diffFile = path.join(base, 'break.diff');
    fs.writeFileSync(diffFile, '@@ -1,4 +1,3 @@\n ---\n name: notes\n-description: Takes notes. Use when asked to note things.\n ---\n');
    const original = fs.readFileSync(file(), 'utf8');
    const r = cli(['patch', 'notes', '--diff', diffFile]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /description-missing/);
    assert.equal(fs.readFileSync(file(), 'utf8'), original);
    const f = cli(['patch', 'notes', '--diff', diffFile, '--force']);
    assert.equal(f.code, 0, f.stderr);
    assert.match(f.stdout, /warning: .*invalid/);
  });

  it('create, archive and restore', () => {
    const c = cli(['create', 'todo', '--description', 'Tracks todos. Use when planning.', '--body', '# Todo\n\nList them.\n']);
    assert.equal(c.code, 0, c.stderr);
    assert.match(fs.readFileSync(path.join(ws, 'todo', 'SKILL.md'), 'utf8'), /^---\nname: todo\n/);
    assert.equal(cli(['create', 'todo', '--description', 'Again. Use never.']).code, 1);
    assert.equal(cli(['create', 'x']).code, 2);
    const a = cli(['archive', 'todo']);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(fs.existsSync(path.join(ws, 'todo')), false);
    assert.equal(cli(['inspect', 'todo']).code, 1);
    const r = cli(['restore', 'todo']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(cli(['inspect', 'todo']).code, 0);
  });

  it('audits every catalog command in <state-dir>/audit.jsonl (refusals too), as session cli', () => {
    const diff = ['--- a/SKILL.md', '+++ b/SKILL.md', '@@ -8,2 +8,2 @@', ' Write them down.', '-Keep them short.', '+Keep them very short.', ''].join('\n');
    assert.equal(cli(['patch', 'notes', '--diff', '-'], diff).code, 0);
    assert.equal(cli(['inspect', 'nope']).code, 1);
    const lines = fs.readFileSync(path.join(state, 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.action, l.session, l.outcome === 'ok' ? 'ok' : 'refused']), [
      ['updateSkill.patch', 'cli', 'ok'],
      ['runSkill.inspect', 'cli', 'refused'],
    ]);
    assert.match(fs.readFileSync(file(), 'utf8'), /Keep them very short\./);
  });
});
