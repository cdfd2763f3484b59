// Cancelling an @skills request while a skill script runs, as a user does with the chat's Stop button
// (workbench.action.chat.cancel): the participant's tool loop stops, the script and the child it forked are
// killed long before the run's own timeout, and the audit log records the run as cancelled.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_NAMES } from '../../../src/extension/ids';
import type { SkillsService } from '../../../src/extension/skillsService';
import { activatedExtension } from '../helpers/extension';
import { alive, processesWith } from '../helpers/processes';
import { recordedRequests, scriptedChatModel, setScript } from '../helpers/scriptedModel';
import { newChat } from '../helpers/skillsUi';
import { waitFor } from '../helpers/waitFor';

interface AuditLine {
  action: string;
  skill?: string;
  arguments?: { args?: string[] };
  outcome: string;
  details?: { cancelled?: boolean; timed_out?: boolean };
}

describe('cancelling an @skills request', function () {
  this.timeout(120_000);
  let service: SkillsService;
  const leftovers: number[] = [];

  before(async () => {
    service = ((await activatedExtension()).exports as { service: SkillsService }).service;
    await scriptedChatModel();
  });
  after(() => {
    // Should the test fail before the kill, no sleeper outlives the session.
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('stops the tool loop and kills the running script and its child well before its timeout; the audit log says cancelled', async () => {
    const marker = `cancel-${process.pid}-${Date.now()}`;
    const timeoutSeconds = 300;
    await setScript([
      { toolCalls: [{ name: TOOL_NAMES.load, input: { names: ['greeting'] } }] },
      { toolCalls: [{ name: TOOL_NAMES.run_script, input: { skill: 'greeting', script: 'scripts/wait.sh', args: [marker], timeout_seconds: timeoutSeconds } }] },
      { text: 'The script finished.' },
    ]);
    await newChat('run the waiting script');
    // The run asks for confirmation in the chat: accept it as the user would, until the script's processes run.
    const running = await waitFor(
      'the script and its sleeping child to run',
      async () => {
        const ps = processesWith(marker);
        if ([...ps.values()].some((c) => c.includes('scripts/wait.sh')) && [...ps.values()].some((c) => c.startsWith(`greeting-wait-${marker}`))) return ps;
        await vscode.commands.executeCommand('workbench.action.chat.acceptTool');
        return undefined;
      },
      60_000,
    );
    leftovers.push(...running.keys());

    const cancelledAt = Date.now();
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    await waitFor(
      `the script's processes to end (${[...running].map(([pid, c]) => `${pid} …${c.slice(-60)}`).join('; ')})`,
      () => [...running.keys()].every((pid) => !alive(pid)) && processesWith(marker).size === 0,
      20_000,
    );
    assert.ok(Date.now() - cancelledAt < (timeoutSeconds * 1000) / 10, 'the processes ended because of the cancel, not the timeout');

    const auditFile = path.join(service.stateDir, 'audit.jsonl');
    const run = await waitFor('the run_script audit line', () => {
      if (!fs.existsSync(auditFile)) return undefined;
      const lines = fs.readFileSync(auditFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditLine);
      return lines.find((l) => l.action === 'run_script' && l.arguments?.args?.includes(marker));
    });
    assert.equal(run.skill, 'greeting');
    assert.equal(run.outcome, 'cancelled', `audit line: ${JSON.stringify(run)}`);
    assert.equal(run.details?.cancelled, true);
    assert.equal(run.details?.timed_out, false);

    // The loop stopped: the model never got the script's result back in a third request. A cancelled loop makes
    // no further request, so there is no event to wait for; give a continuing loop a moment to show itself.
    await new Promise((r) => setTimeout(r, 1500));
    const requests = await recordedRequests();
    assert.equal(requests.length, 2, `the model was asked again after the cancel: ${JSON.stringify(requests.at(-1)?.messages.at(-1))}`);
  });
});
