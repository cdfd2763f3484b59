import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createScriptRunner } from '../../../src/core/exec';
import { createSkillsRuntime, type SkillsRuntime } from '../../../src/core/runtime';
import { folderSource, writeSkill } from './runtimeSupport';
import { removeTempDir } from '../../support/tempDir';

describe('runtime: path refusals say what is wrong, and only when it is', function () {
  this.timeout(30_000);
  let base: string;
  let rt: SkillsRuntime;
  const s = { sessionId: 'chat' };
  beforeEach(async () => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'rt-paths-'));
    const skills = path.join(base, 'skills');
    writeSkill(skills, 'notes', { files: { '..draft.md': 'two dots, still inside\n', 'scripts/ok.sh': 'echo hi\n' } });
    rt = createSkillsRuntime({ source: folderSource(skills), stateDir: path.join(base, 'state'), executor: createScriptRunner({ stateDir: path.join(base, 'exec'), sandbox: 'off' }) });
    await rt.invoke('load', { names: ['notes'] }, s);
  });
  afterEach(async () => {
    await rt.flush();
    removeTempDir(base);
  });

  it("reads a file whose name starts with two dots ('..draft.md'): it does not leave the skill", async () => {
    const r = await rt.invoke('read', { path: '..draft.md' }, s);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal((r.result as { content: string }).content, 'two dots, still inside\n');
    const out = await rt.invoke('read', { path: '../notes-sibling/SKILL.md' }, s);
    assert.equal(out.ok ? 'ok' : out.error.code, 'path_refused');
  });

  it('read refuses a FIFO inside the skill at once instead of blocking for ever (issue 11, point 7)', async function () {
    if (process.platform === 'win32') {
      console.log('      skipped: no mkfifo on Windows');
      this.skip();
    }
    const skillDir = path.join(base, 'skills', 'notes');
    execFileSync('mkfifo', [path.join(skillDir, 'pipe.md')]);
    // Before the fix this call never settled: opening a FIFO waits for a writer that never comes.
    const r = await rt.invoke('read', { path: 'pipe.md' }, s);
    assert.ok(!r.ok);
    assert.equal(r.error.code, 'path_refused');
    assert.match(r.error.message, /'pipe\.md' of skill 'notes' is refused: it is a named pipe \(FIFO\), not a regular file/);
  });

  it('a cwd or output glob that climbs out is named once, with a hint about that field', async () => {
    const cwd = await rt.invoke('run_script', { command: 'pwd', cwd: '../..' }, s);
    assert.ok(!cwd.ok);
    assert.equal(cwd.error.message, 'cwd "../.." leaves the skill root; give a path inside it.');
    assert.match(cwd.error.hint, /cwd/);
    const glob = await rt.invoke('run_script', { command: 'true', outputs: { globs: ['../**'] } }, s);
    assert.ok(!glob.ok);
    assert.equal(glob.error.message, 'outputs.globs "../**" leaves the workspace; give a path inside it.');
    assert.match(glob.error.hint, /outputs\.globs/);
    const script = await rt.invoke('run_script', { script: 'scripts/missing.sh' }, s);
    assert.ok(!script.ok);
    assert.match(script.error.message, /missing\.sh/);
  });
});
