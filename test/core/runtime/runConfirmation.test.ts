// VS Code's confirmation before run_skill_script decides as the MCP server does: the runtime's check of the call
// first (the runner's checks before staging, behind the window's trust gate), and a question only about a run that
// can happen. A real core over real files with the window's own trust gate (src/extension/service/trustGate.ts) and
// the confirmation VS Code shows (src/extension/tools/runConfirmation.ts); neither imports VS Code.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createAgentSkills, type AgentSkills } from '../../../src/core/agentSkills';
import { guardedExecutor } from '../../../src/core/runtime/guardedExecutor';
import type { ScriptExecutor } from '../../../src/core/runtime/runtimeTypes';
import { trustGate, UNTRUSTED_RUN } from '../../../src/extension/service/trustGate';
import { runConfirmation, type RunConfirmationContext } from '../../../src/extension/tools/runConfirmation';
import { sourceFiles, withoutComments } from '../../support/sourceFiles';
import { makeTempDir } from '../../support/tempDir';
import { writeSkill } from './runtimeSupport';

const REPO = path.resolve(__dirname, '../../..');

describe("VS Code's run confirmation: the runtime's check first, as over MCP (issue 23.4)", function () {
  this.timeout(120_000);
  let tmp: ReturnType<typeof makeTempDir>;
  let core: AgentSkills;
  let trusted = true;
  /** Runs that passed the trust gate (the runner may still refuse them). */
  let runs = 0;
  const context = (sessionId = 's'): RunConfirmationContext => ({
    targetSkill: (i) => i.skill ?? 'the last loaded skill',
    sandboxStatus: () => core.sandboxStatus(),
    checkRun: (i) => core.tools().checkRun(i, { sessionId }),
  });
  const run = (input: Record<string, unknown>) => core.tools().invoke('run_script', input, { sessionId: 's' });

  before(async () => {
    tmp = makeTempDir('run-confirmation-');
    const skills = path.join(tmp.dir, 'skills');
    writeSkill(skills, 'tool', { files: { 'scripts/ok.sh': '#!/bin/sh\necho ran\n' } });
    core = createAgentSkills({
      stateDir: path.join(tmp.dir, 'state'),
      roots: [{ path: skills, scope: 'workspace' }],
      runner: { sandbox: 'off' },
      // The window's gate, as runtimeWiring.ts puts it in front of the runner, with a counter behind it.
      executor: (runner) =>
        trustGate(() => trusted)(
          guardedExecutor(runner, (req, attempt) => {
            if (attempt === 'run') runs++;
            return req;
          }),
        ),
    });
    await core.refresh();
    await core.tools().openSession('s');
    const loaded = await core.tools().invoke('load', { names: ['tool'] }, { sessionId: 's' });
    assert.ok(loaded.ok, JSON.stringify(loaded));
  });
  beforeEach(() => {
    trusted = true;
    runs = 0;
  });
  after(async () => {
    await core.dispose();
    tmp.cleanup();
  });

  it('asks about a run that can happen, naming the skill the runtime will run and the runner’s sandbox', async () => {
    const c = await runConfirmation({ skill: 'tool', script: 'scripts/ok.sh', args: ['a'] }, context());
    assert.ok(c.confirmation, c.invocationMessage);
    assert.match(c.confirmation.title, /^Run scripts\/ok\.sh of skill tool \(NOT sandboxed\)\?$/);
    assert.ok(c.confirmation.lines.includes('**Arguments:** `a`'), c.confirmation.lines.join('\n'));
    const r = await run({ skill: 'tool', script: 'scripts/ok.sh' });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(runs, 1);
  });

  it('an untrusted workspace: no question (the trust gate refuses the check as it refuses the run), and the call is refused the same way', async () => {
    trusted = false;
    const c = await runConfirmation({ skill: 'tool', script: 'scripts/ok.sh' }, context());
    assert.equal(c.confirmation, undefined, `asked about a run the trust gate refuses: ${JSON.stringify(c)}`);
    assert.equal(c.invocationMessage, `Not running scripts/ok.sh of tool: ${UNTRUSTED_RUN.message}`);
    const r = await run({ skill: 'tool', script: 'scripts/ok.sh' });
    assert.ok(!r.ok && r.error.code === UNTRUSTED_RUN.code && r.error.message === UNTRUSTED_RUN.message, JSON.stringify(r));
    assert.equal(runs, 0, 'nothing reached the runner');
  });

  it('a script that is missing, or outside the skill, or a skill not loaded in the session: no question, and the words of the refusal the call returns', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ skill: 'tool', script: 'scripts/missing.sh' }, 's'],
      [{ skill: 'tool', script: '../outside.sh' }, 's'],
      [{ skill: 'tool', script: 'scripts/ok.sh' }, 'a-session-without-it'],
    ];
    for (const [input, sessionId] of cases) {
      const c = await runConfirmation(input, context(sessionId));
      assert.equal(c.confirmation, undefined, `asked about ${JSON.stringify(input)} in ${sessionId}`);
      const r = await core.tools().invoke('run_script', input, { sessionId });
      assert.ok(!r.ok, JSON.stringify(r));
      assert.equal(c.invocationMessage, `Not running ${input.script} of tool: ${r.error.message}`);
    }
  });

  it("a gate passes the executor's check and idle through (a wrapper cannot drop them: ScriptExecutor requires both)", async () => {
    const seen: string[] = [];
    const inner: ScriptExecutor = {
      run: async () => (seen.push('run'), { exit_code: 0, timed_out: false, duration_ms: 0 }),
      check: async () => void seen.push('check'),
      idle: async () => void seen.push('idle'),
    };
    const gated = trustGate(() => true)(inner);
    const req = { skillName: 'tool', skillRoot: tmp.dir, script: 'scripts/ok.sh' };
    await gated.check(req);
    await gated.run(req);
    await gated.idle();
    assert.deepEqual(seen, ['check', 'run', 'idle']);
  });

  it('the two surfaces that ask before a run take the decision from checkRun, in one place each', () => {
    const places = ['src/extension', 'src/cli']
      .flatMap((d) => sourceFiles(path.join(REPO, d)))
      .filter((f) => /\bcheckRun\(/.test(withoutComments(fs.readFileSync(f, 'utf8'))))
      .map((f) => path.relative(REPO, f))
      .sort();
    assert.deepEqual(places, ['src/cli/mcp/mcpHandlers.ts', 'src/extension/tools/descriptorTool.ts', 'src/extension/tools/runConfirmation.ts']);
    // VS Code's run_skill_script prepare is the confirmation tested above.
    const presentation = withoutComments(fs.readFileSync(path.join(REPO, 'src/extension/tools/toolPresentation.ts'), 'utf8'));
    assert.match(presentation, /async function runScriptPrepare\([^)]*\)[^{]*\{\s*const r = await runConfirmation\(i, c\);/);
  });
});
