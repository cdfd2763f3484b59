// Issue 23.3: on the run_skill_script path, whether the script is inside the skill and a regular file is decided
// once, by the runner; the runtime does not check it first. A real runner behind a counting executor: every bad
// script reaches the runner exactly once, and its refusal reaches the model in the words read uses for that path.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createAgentSkills } from '../../../src/core/agentSkills';
import type { ToolResult } from '../../../src/core/tools';
import { makeTempDir } from '../../support/tempDir';
import { writeSkill } from './runtimeSupport';

describe('run_script: the runner decides the script once', function () {
  this.timeout(60000);

  it('sends each script to the runner once, and words its refusals as read does', async () => {
    const tmp = makeTempDir('run-decisions-');
    try {
      const skills = path.join(tmp.dir, 'skills');
      writeSkill(skills, 'tool', { files: { 'scripts/ok.sh': '#!/bin/sh\necho ran\n', 'scripts/sub/inner.txt': 'x\n' } });
      fs.writeFileSync(path.join(tmp.dir, 'secret.txt'), 'secret\n');
      let runs = 0;
      const core = createAgentSkills({
        stateDir: path.join(tmp.dir, 'state'),
        roots: [{ path: skills, scope: 'workspace' }],
        runner: { sandbox: 'off' },
        executor: (runner) => ({
          run: (req) => {
            runs++;
            return runner.run(req);
          },
        }),
        runtime: { audit: false },
      });
      await core.refresh();
      await core.tools().openSession('s');
      assert.ok((await core.tools().invoke('load', { names: ['tool'] }, { sessionId: 's' })).ok);
      const run = (script: string) => core.tools().invoke('run_script', { script }, { sessionId: 's' });
      const read = (p: string) => core.tools().invoke('read', { path: p }, { sessionId: 's' });
      const refusal = (r: ToolResult) => (r.ok ? assert.fail(JSON.stringify(r.result)) : r.error);

      const folder = refusal(await run('scripts/sub'));
      assert.equal(folder.code, 'not_found');
      assert.match(folder.message, /'scripts\/sub' of skill 'tool' is a folder, not a script/);
      for (const p of ['scripts/missing.sh', '../secret.txt', '/etc/passwd']) {
        const viaRun = refusal(await run(p));
        const viaRead = refusal(await read(p));
        assert.deepEqual({ code: viaRun.code, message: viaRun.message }, { code: viaRead.code, message: viaRead.message }, p);
      }
      const ok = await run('scripts/ok.sh');
      assert.ok(ok.ok && /ran/.test(String((ok.result as { stdout: string }).stdout)));
      assert.equal(runs, 5, 'every run_script call reached the runner once: the runtime checked nothing before it');
      await core.dispose();
    } finally {
      tmp.cleanup();
    }
  });
});
