import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createScriptRunner, type ScriptRunner } from '../../../src/core/exec';
import { artifactReaderOf, createSkillsRuntime, type SkillsRuntime } from '../../../src/core/runtime';
import type { ToolResult as ToolInvocation } from '../../../src/core/tools';
import { toolResultText } from '../../../src/core/toolTable';
import { makeTempDir } from '../../support/tempDir';
import { folderSource, writeSkill } from './runtimeSupport';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00]);

function ok(r: ToolInvocation): Record<string, unknown> {
  if (!r.ok) assert.fail(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.result as Record<string, unknown>;
}
function err(r: ToolInvocation): { code: string; message: string; hint: string } {
  if (r.ok) assert.fail(`expected an error, got ${JSON.stringify(r.result).slice(0, 300)}`);
  assert.ok(r.error.hint.length > 10, 'every error says what to do next');
  return r.error;
}

describe('runtime tools', function () {
  this.timeout(30000);
  let tmp: { dir: string; cleanup: () => void };
  let rt: SkillsRuntime;
  let runner: ScriptRunner;
  let skills: string;
  let demo: string;
  const call = { sessionId: 'chat' };

  beforeEach(async () => {
    tmp = makeTempDir('rt-tools-');
    skills = path.join(tmp.dir, 'skills');
    demo = writeSkill(skills, 'demo', {
      description: 'Demo skill for tests.',
      frontmatter: 'allowed-tools: Read Bash(git status:*)',
      body: [
        '# Demo',
        'See [the forms guide](references/forms.md) and [the web](https://example.com).',
        'Run `scripts/hello.py` or read `references/guide.txt`; `references/missing.md` does not exist.',
        '```bash',
        'python3 scripts/hello.py --name x > out/hello.txt',
        '```',
      ].join('\n'),
      files: {
        'references/forms.md': '# Forms\n\nFill the form.\n',
        'references/guide.txt': 'guide text\n',
        'assets/logo.png': PNG,
        'scripts/hello.py': 'import os, sys\nprint("hello", *sys.argv[1:])\nopen(os.path.join(os.environ["OUTPUT_DIR"], "result.txt"), "w").write("result!")\n',
        'big.txt': 'abcdefghij'.repeat(30000),
        'utf8.txt': 'é'.repeat(10),
      },
    });
    fs.writeFileSync(path.join(tmp.dir, 'secret.txt'), 'TOP SECRET');
    fs.symlinkSync(path.join(tmp.dir, 'secret.txt'), path.join(demo, 'escape.txt'));
    fs.symlinkSync(tmp.dir, path.join(demo, 'escape-dir'));
    fs.symlinkSync(path.join(demo, 'references', 'forms.md'), path.join(demo, 'inner-link.md'));
    for (const n of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) writeSkill(skills, n);
    runner = createScriptRunner({ stateDir: path.join(tmp.dir, 'exec'), sandbox: 'off' });
    rt = createSkillsRuntime({ source: folderSource(skills), stateDir: path.join(tmp.dir, 'state'), executor: runner, artifacts: artifactReaderOf(runner.artifacts) });
    await rt.openSession('chat');
  });
  afterEach(async () => {
    await rt.flush();
    // The runner builds the next run's workspace in the background (read-only folders): let it finish first.
    await runner.idle();
    tmp.cleanup();
  });

  describe('load', () => {
    it("returns seed 000's receipt with the referenced files that exist", async () => {
      const r = ok(await rt.invoke('load', { names: ['demo'] }, call));
      assert.deepEqual(r.loaded, ['demo']);
      const [receipt] = r.active_skills as Record<string, unknown>[];
      assert.equal(receipt.name, 'demo');
      assert.equal(receipt.location, path.join(demo, 'SKILL.md'));
      assert.equal(receipt.root_dir, demo);
      assert.match(receipt.digest as string, /^sha256:[0-9a-f]{64}$/);
      assert.equal((receipt.properties as Record<string, unknown>).name, 'demo');
      assert.deepEqual(receipt.pre_approved_tools, ['Read', 'Bash(git status:*)']);
      const files = (receipt.files as { path: string; via: string }[]).map((f) => `${f.path}<${f.via}`);
      assert.deepEqual(files, ['references/forms.md<link', 'scripts/hello.py<inline-code', 'references/guide.txt<inline-code']);
      const s = rt.sessions.get('chat');
      assert.deepEqual(s?.active_skills.map((a) => a.name), ['demo']);
      assert.equal(s?.lifecycle.demo, 'loaded');
    });

    it('replace swaps the set; add appends, de-dupes and keeps order', async () => {
      ok(await rt.invoke('load', { names: ['alpha', 'beta'] }, call));
      ok(await rt.invoke('load', { names: ['gamma'] }, call));
      assert.deepEqual(rt.sessions.get('chat')?.active_skills.map((a) => a.name), ['gamma']);
      assert.equal(rt.sessions.get('chat')?.lifecycle.alpha, 'discovered');
      ok(await rt.invoke('load', { names: ['alpha', 'gamma'], mode: 'add' }, call));
      assert.deepEqual(rt.sessions.get('chat')?.active_skills.map((a) => a.name), ['gamma', 'alpha']);
    });

    it('enforces the cap with an error that says to load fewer', async () => {
      const e = err(await rt.invoke('load', { names: ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'demo'] }, call));
      assert.equal(e.code, 'too_many_skills');
      assert.match(e.hint, /at most 5/);
      ok(await rt.invoke('load', { names: ['alpha', 'beta', 'gamma', 'delta', 'epsilon'] }, call));
      const e2 = err(await rt.invoke('load', { names: ['demo'], mode: 'add' }, call));
      assert.match(e2.hint, /unload/);
      assert.equal(rt.sessions.get('chat')?.active_skills.length, 5, 'a refused load changes nothing');
      const small = createSkillsRuntime({ source: folderSource(skills), maxLoadedSkills: 1 });
      assert.equal(err(await small.invoke('load', { names: ['alpha', 'beta'] }, call)).code, 'too_many_skills');
    });

    it('names unknown skills with suggestions, and rejects bad input field by field', async () => {
      const e = err(await rt.invoke('load', { names: ['dem'] }, call));
      assert.equal(e.code, 'unknown_skill');
      assert.match(e.message, /Did you mean: demo/);
      const bad = err(await rt.invoke('load', { names: [], mode: 'merge', extra: 1 }, call));
      assert.equal(bad.code, 'invalid_input');
      assert.match(bad.message, /names/);
      assert.match(bad.message, /mode/);
      assert.match(bad.message, /extra/);
      assert.equal(err(await rt.invoke('nope', {}, call)).code, 'unknown_tool');
    });

    it('selects docs at load time and checks they exist', async () => {
      const r = ok(await rt.invoke('load', { names: ['demo'], docs: ['references/forms.md'] }, call));
      assert.deepEqual((r.active_skills as { docs: unknown }[])[0].docs, ['references/forms.md']);
      const e = err(await rt.invoke('load', { names: ['demo'], docs: ['nope.md'] }, call));
      assert.equal(e.code, 'unknown_doc');
      assert.match(e.hint, /references\/forms\.md/);
      const all = ok(await rt.invoke('load', { names: ['demo'], include_all_docs: true }, call));
      assert.equal((all.active_skills as { docs: unknown }[])[0].docs, '*');
    });
  });

  it('unload removes named skills or all, and reports names that were not loaded', async () => {
    ok(await rt.invoke('load', { names: ['alpha', 'beta', 'gamma'] }, call));
    const r = ok(await rt.invoke('unload', { names: ['beta', 'zzz'] }, call));
    assert.deepEqual(r.unloaded, ['beta']);
    assert.deepEqual(r.not_loaded, ['zzz']);
    assert.deepEqual((r.active_skills as { name: string }[]).map((a) => a.name), ['alpha', 'gamma']);
    assert.equal(rt.sessions.get('chat')?.lifecycle.beta, 'discovered');
    ok(await rt.invoke('unload', { all: true }, call));
    assert.equal(rt.sessions.get('chat')?.active_skills.length, 0);
    assert.equal(err(await rt.invoke('unload', { all: true, names: ['a'] }, call)).code, 'invalid_input');
  });

  describe('read', () => {
    it('requires a loaded skill, and defaults to the most recently loaded one', async () => {
      const e = err(await rt.invoke('read', { path: 'references/forms.md' }, call));
      assert.equal(e.code, 'no_skill_loaded');
      assert.match(e.hint, /load/);
      ok(await rt.invoke('load', { names: ['alpha', 'demo'] }, call));
      const r = ok(await rt.invoke('read', { path: 'references/forms.md' }, call));
      assert.equal(r.skill, 'demo');
      assert.equal(r.content, '# Forms\n\nFill the form.\n');
      assert.equal(r.kind, 'text');
      assert.equal(r.mime_type, 'text/markdown');
      assert.equal(r.complete, true);
      assert.equal(err(await rt.invoke('read', { skill: 'beta', path: 'SKILL.md' }, call)).code, 'not_loaded');
    });

    it('returns binary files as base64 with their MIME type, and folders as listings', async () => {
      ok(await rt.invoke('load', { names: ['demo'] }, call));
      const r = ok(await rt.invoke('read', { path: 'assets/logo.png' }, call));
      assert.equal(r.kind, 'binary');
      assert.equal(r.encoding, 'base64');
      assert.equal(r.mime_type, 'image/png');
      assert.deepEqual(Buffer.from(r.content as string, 'base64'), PNG);
      const d = ok(await rt.invoke('read', { path: 'references' }, call));
      assert.deepEqual(d.entries, ['forms.md', 'guide.txt']);
    });

    it('never truncates silently: a partial read gives the total size and the next offset', async () => {
      ok(await rt.invoke('load', { names: ['demo'] }, call));
      const first = ok(await rt.invoke('read', { path: 'big.txt' }, call));
      assert.equal(first.total_bytes, 300000);
      assert.equal(first.complete, false);
      assert.equal(first.length, 256 * 1024);
      assert.equal(first.next_offset, 256 * 1024);
      const rest = ok(await rt.invoke('read', { path: 'big.txt', offset: first.next_offset }, call));
      assert.equal(rest.complete, true);
      assert.equal((first.content as string) + (rest.content as string), 'abcdefghij'.repeat(30000));
      const mid = ok(await rt.invoke('read', { path: 'utf8.txt', offset: 0, length: 5 }, call));
      assert.equal(mid.content, 'éé', 'a slice never splits a UTF-8 character');
      assert.equal(mid.next_offset, 4);
      assert.equal(err(await rt.invoke('read', { path: 'big.txt', offset: 300001 }, call)).code, 'invalid_offset');
    });

    it('refuses every path that leaves the skill root', async () => {
      ok(await rt.invoke('load', { names: ['demo'] }, call));
      const attempts = ['../secret.txt', 'references/../../secret.txt', path.join(tmp.dir, 'secret.txt'), '/etc/passwd', 'escape.txt', 'escape-dir/secret.txt', '%2e%2e/secret.txt', 'references/forms.md\0.png', 'C:\\Windows\\win.ini', '..\\secret.txt'];
      for (const p of attempts) {
        const r = await rt.invoke('read', { path: p }, call);
        const e = err(r);
        assert.equal(e.code === 'path_refused' || e.code === 'not_found', true, `${p}: ${e.code}`);
        assert.doesNotMatch(JSON.stringify(r), /TOP SECRET/);
      }
      assert.equal(err(await rt.invoke('read', { path: 'escape.txt' }, call)).code, 'path_refused');
      assert.match(err(await rt.invoke('read', { path: 'escape.txt' }, call)).message, /symbolic link/);
      // A link that stays inside the skill is fine, and `a/../b` inside the root is too.
      assert.equal(ok(await rt.invoke('read', { path: 'inner-link.md' }, call)).content, '# Forms\n\nFill the form.\n');
      assert.equal(ok(await rt.invoke('read', { path: 'assets/../references/guide.txt' }, call)).content, 'guide text\n');
    });
  });

  it('list_docs lists Markdown and text docs; select_docs adds, replaces and clears', async () => {
    const listed = ok(await rt.invoke('list_docs', { skill: 'demo' }, call));
    assert.equal(listed.loaded, false);
    assert.deepEqual((listed.docs as { path: string }[]).map((d) => d.path), ['big.txt', 'inner-link.md', 'references/forms.md', 'references/guide.txt', 'utf8.txt']);
    assert.equal(err(await rt.invoke('select_docs', { skill: 'demo', docs: ['references/forms.md'] }, call)).code, 'no_skill_loaded');
    ok(await rt.invoke('load', { names: ['demo'] }, call));
    assert.deepEqual(ok(await rt.invoke('select_docs', { docs: ['references/forms.md'] }, call)).selected, ['references/forms.md']);
    assert.deepEqual(ok(await rt.invoke('select_docs', { docs: ['references/guide.txt'], mode: 'add' }, call)).selected, ['references/forms.md', 'references/guide.txt']);
    assert.deepEqual(ok(await rt.invoke('select_docs', { docs: ['utf8.txt'], mode: 'replace' }, call)).selected, ['utf8.txt']);
    const after = ok(await rt.invoke('list_docs', {}, call));
    assert.deepEqual((after.docs as { path: string; selected: boolean }[]).filter((d) => d.selected).map((d) => d.path), ['utf8.txt']);
    assert.equal(ok(await rt.invoke('select_docs', { include_all_docs: true }, call)).selected, '*');
    assert.deepEqual(ok(await rt.invoke('select_docs', { mode: 'clear' }, call)).selected, []);
    assert.equal(err(await rt.invoke('select_docs', { docs: ['../secret.txt'] }, call)).code, 'unknown_doc');
  });

  describe('run_script', () => {
    it('runs through the exec engine, marks the lifecycle, and saved outputs are readable as artifacts', async () => {
      assert.equal(err(await rt.invoke('run_script', { script: 'scripts/hello.py' }, call)).code, 'no_skill_loaded');
      ok(await rt.invoke('load', { names: ['demo'] }, call));
      const states: string[] = [];
      const sub = rt.onDidChange((e) => {
        const st = e.session?.lifecycle.demo;
        if (st && states[states.length - 1] !== st) states.push(st);
      });
      const r = ok(await rt.invoke('run_script', { script: 'scripts/hello.py', args: ['world'], outputs: { globs: ['out/*.txt'], save: true } }, call));
      sub.dispose();
      assert.equal(r.exit_code, 0);
      assert.equal(r.stdout, 'hello world\n');
      assert.equal(r.skill, 'demo');
      assert.deepEqual(states, ['executing', 'completed']);
      assert.equal(rt.sessions.get('chat')?.lifecycle.demo, 'completed');
      const saved = (r.artifact_files as { ref: string }[])[0];
      assert.ok(saved, 'the output was saved');
      const a = ok(await rt.invoke('read', { path: saved.ref }, call));
      assert.equal(a.content, 'result!');
      assert.equal(a.artifact_version, 1);
      assert.equal(err(await rt.invoke('read', { path: 'artifact://nothing' }, call)).code, 'not_found');
    });

    it('refuses scripts outside the skill and reports exec refusals with a hint', async () => {
      ok(await rt.invoke('load', { names: ['demo'] }, call));
      assert.equal(err(await rt.invoke('run_script', { script: '../secret.txt' }, call)).code, 'path_refused');
      assert.equal(err(await rt.invoke('run_script', { script: 'escape.txt' }, call)).code, 'path_refused');
      assert.equal(err(await rt.invoke('run_script', { script: 'scripts/hello.py', command: 'ls' }, call)).code, 'invalid_input');
      assert.equal(err(await rt.invoke('run_script', { script: 'scripts' }, call)).code, 'not_found');
      assert.equal(rt.sessions.get('chat')?.lifecycle.demo, 'loaded', 'a refused run leaves the skill loaded');
      const noExec = createSkillsRuntime({ source: folderSource(skills) });
      ok(await noExec.invoke('load', { names: ['demo'] }, call));
      assert.equal(err(await noExec.invoke('run_script', { script: 'scripts/hello.py' }, call)).code, 'no_executor');
    });
  });
});

describe('runtime toolResultText', () => {
  it('drops host-only run fields and false/empty flags, keeps exit code, streams and sandbox state', () => {
    const text = toolResultText({
      ok: true,
      tool: 'run_script',
      result: { exit_code: 0, stdout: '', stderr: '', timed_out: false, sandboxed: false, sandbox_reason: 'off', phases: { run: 1 }, argv: ['x'], cancelled: false, output_files: [], signal: null },
    });
    assert.deepEqual(JSON.parse(text), { exit_code: 0, stdout: '', stderr: '', timed_out: false, sandboxed: false, sandbox_reason: 'off' });
    assert.equal(toolResultText({ ok: false, tool: 'read', error: { code: 'not_found', message: 'm', hint: 'h' } }), 'Error (not_found): m\nWhat to do: h');
  });
});
