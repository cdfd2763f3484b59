// Issue 23.3: which folder a path of an edited read-only skill is taken from is decided by one rule, the same for
// reading and running: the overlay's copy when the overlay holds a file there, else the skill folder's. Here the
// overlay holds a folder where the skill has a script (a leftover, or planted): read, the runtime's run and the
// runner's own check must all take the skill's script, not disagree (before: read took the script, the run was
// refused because the runner saw the overlay's folder).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createScriptRunner } from '../../../src/core/exec';
import { createSkillsRuntime } from '../../../src/core/runtime';
import { makeWorld, openCatalog, writeSkill } from './catalogTestUtil';

describe('an overlay holding a folder where the skill has a file', function () {
  this.timeout(60000);

  it('is passed over the same way by read and by run: both take the skill folder\'s script', async () => {
    const w = makeWorld();
    writeSkill(w.plugin, 'deploy', { body: '# Deploy\n\nRun scripts/hello.sh.\n', files: { 'scripts/hello.sh': '#!/bin/sh\necho hello from the skill\n' } });
    const catalog = await openCatalog(w);
    const id = catalog.skillSource().list().find((r) => r.name === 'deploy')!.id;
    const overlay = catalog.overlayDir(id);
    fs.mkdirSync(path.join(overlay, 'scripts', 'hello.sh'), { recursive: true });
    fs.writeFileSync(path.join(overlay, 'scripts', 'hello.sh', 'inner.txt'), 'not a script\n');
    const runner = createScriptRunner({ stateDir: path.join(w.base, 'exec'), sandbox: 'off' });
    const runtime = createSkillsRuntime({ source: catalog.skillSource(), executor: runner });
    await runtime.openSession('s');
    assert.ok((await runtime.invoke('load', { names: ['deploy'] }, { sessionId: 's' })).ok);
    const read = await runtime.invoke('read', { path: 'scripts/hello.sh' }, { sessionId: 's' });
    if (!read.ok) assert.fail(`read: ${JSON.stringify(read.error)}`);
    assert.match(String((read.result as { content?: unknown }).content), /hello from the skill/);
    const run = await runtime.invoke('run_script', { script: 'scripts/hello.sh' }, { sessionId: 's' });
    if (!run.ok) assert.fail(`run: ${JSON.stringify(run.error)}`);
    assert.match(String((run.result as { stdout?: unknown }).stdout), /hello from the skill/, JSON.stringify(run.result));
  });
});
