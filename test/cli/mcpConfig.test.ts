import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { CLI } from './mcpSupport';

function printed(client: string, extra: string[] = []): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'mcp', '--root', '/srv/skills', '--tool-surface', 'both', ...extra, '--print-config', client], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The JSON object in a printed config (everything from the first `{`). */
const jsonOf = (s: string) => JSON.parse(s.slice(s.indexOf('{')));

describe('agent-skills mcp --print-config', function () {
  this.timeout(60_000);
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });

  const ARGS = ['mcp', '--root', '/srv/skills', '--tool-surface', 'both'];

  it('prints each client\'s own format with the options given (never the token)', () => {
    const claude = printed('claude-code', ['--token', 'not-printed-0123456789']);
    assert.equal(claude.code, 0, claude.stderr);
    assert.match(claude.stdout, /^claude mcp add agent-skills -- agent-skills mcp --root \/srv\/skills --tool-surface both$/m);
    assert.deepEqual(jsonOf(claude.stdout).mcpServers['agent-skills'], { type: 'stdio', command: 'agent-skills', args: ARGS });
    assert.doesNotMatch(claude.stdout, /not-printed/);
    assert.deepEqual(jsonOf(printed('cursor').stdout).mcpServers['agent-skills'], { command: 'agent-skills', args: ARGS });
    assert.deepEqual(jsonOf(printed('vscode').stdout).servers['agent-skills'], { type: 'stdio', command: 'agent-skills', args: ARGS });
    assert.deepEqual(jsonOf(printed('copilot-cli').stdout).mcpServers['agent-skills'], { type: 'local', command: 'agent-skills', args: ARGS, tools: ['*'] });
    const codex = printed('codex').stdout;
    assert.match(codex, /^\[mcp_servers\.agent-skills\]$/m);
    assert.match(codex, /^command = "agent-skills"$/m);
    assert.equal(codex.match(/^args = (.*)$/m)?.[1], JSON.stringify(ARGS).replace(/,/g, ', '));
  });

  it('names the clients it knows when given another', () => {
    const r = printed('emacs');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /claude-code, codex, copilot-cli, cursor, vscode/);
  });
});
