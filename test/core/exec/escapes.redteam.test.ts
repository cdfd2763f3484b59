// Red team (issue 11, point 4): ways a hostile skill or hostile tool arguments could carry a host file out of
// the sandbox's view through what the runner does outside it. Each held when tried: outputs globs do not
// follow a symlink the script planted (the collector runs on the host, where the link resolves), and a
// linked input that is a symlink out of its skill or workspace is refused before anything is bound.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ScriptRunError } from '../../../src/core/exec';
import { cleanup, sandboxWorks, setup, type Sandbox } from './helpers';

describe('core/exec escapes through outputs and inputs (red team)', () => {
  let sb: Sandbox;
  let secretDir: string;
  let project: string;
  let bwrap = false;
  before(async () => {
    sb = setup();
    bwrap = await sandboxWorks(sb);
    secretDir = path.join(sb.tmp, 'home-ssh');
    fs.mkdirSync(secretDir);
    fs.writeFileSync(path.join(secretDir, 'id_test'), 'TOP-SECRET-KEY\n');
    fs.symlinkSync(secretDir, path.join(sb.skillRoot, 'keys'));
    project = path.join(sb.tmp, 'project');
    fs.mkdirSync(project);
    fs.symlinkSync(path.join(secretDir, 'id_test'), path.join(project, 'key-link'));
  });
  after(() => cleanup(sb));

  for (const sandbox of ['required', 'off'] as const) {
    it(`collects no file through a symlink the script planted in out/ (sandbox ${sandbox})`, async function () {
      if (sandbox === 'required' && !bwrap) this.skip();
      const r = await sb.runner({ sandbox }).run({
        skillName: 'exec-demo',
        skillRoot: sb.skillRoot,
        timeoutMs: 20000,
        command: `ln -s ${secretDir} "$OUTPUT_DIR/dir"; ln -s ${path.join(secretDir, 'id_test')} "$OUTPUT_DIR/file"; echo planted`,
        outputs: { globs: ['out/dir/id_test', 'out/dir/*', 'out/**', 'out/file', '**/id_test'], save: true },
      });
      assert.equal(r.stdout, 'planted\n', r.stderr);
      assert.deepEqual(r.output_files.map((f) => f.name), []);
      assert.deepEqual(r.artifact_files, []);
      assert.doesNotMatch(JSON.stringify(r), /TOP-SECRET-KEY/);
    });
  }

  it('refuses a linked input that is a symlink out of its skill or out of the workspace', async () => {
    const runner = sb.runner({ sandbox: bwrap ? 'required' : 'off', workspaceDir: project, resolveSkillRoot: (n) => (n === 'exec-demo' ? sb.skillRoot : undefined) });
    for (const from of ['skill://exec-demo/keys', 'skill://exec-demo/keys/id_test', 'workspace://key-link']) {
      for (const mode of ['link', 'copy'] as const) {
        await assert.rejects(
          runner.run({ skillName: 'exec-demo', skillRoot: sb.skillRoot, timeoutMs: 20000, command: 'cat inputs/* 2>/dev/null; echo ran', inputs: [{ from, mode }] }),
          (e: unknown) => e instanceof ScriptRunError && /resolves through a symlink/.test(e.message),
          `${from} (${mode}) was staged`,
        );
      }
    }
  });
});
