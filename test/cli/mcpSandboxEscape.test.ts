// Issue 22, Critical, fully model-driven: over `agent-skills mcp --tool-surface both --allow-scripts` a model
// (the real SDK client against dist/cli.js) loads a skill that ships `lnk -> /`, writes a script whose #!
// line goes through that link with updateSkill, and runs it with run_skill_script. On the old code the run
// answered `sandboxed: true` while printing the host files; now it must print no canary (HOME, the state
// folder, a host unix socket). Run as root and as the unprivileged account.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createScriptRunner } from '../../src/core/exec';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { serverArgs, stdioClient, toolText, writeFixtureSkills } from './mcpSupport';

describe('agent-skills mcp: a model cannot make the sandbox bind the host through a #! line (issue 22)', function () {
  this.timeout(60_000);
  const tag = randomBytes(4).toString('hex');
  let tmp: { dir: string; cleanup: () => void };
  let client: Client | undefined;
  let server: net.Server | undefined;
  const homeCanary = path.join(os.homedir(), `.agent-skills-mcp-canary-${tag}`);
  const sock = path.join(os.tmpdir(), `agent-skills-mcp-canary-${tag}.sock`);

  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    tmp = makeTempDir('mcp-escape-');
    const status = await createScriptRunner({ stateDir: path.join(tmp.dir, 'probe-state'), sandbox: 'auto' }).sandboxStatus();
    if (!status.sandboxed) {
      console.log(`      skipped: no working sandbox here (${status.reason})`);
      this.skip();
    }
    await ensureBuilt();
  });
  after(async () => {
    await client?.close();
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    fs.rmSync(sock, { force: true });
    fs.rmSync(homeCanary, { force: true });
    tmp?.cleanup();
  });

  it('a script the model writes with updateSkill, #! through the skill\'s link to /, prints no host file', async () => {
    const skills = path.join(tmp.dir, 'skills');
    const state = path.join(tmp.dir, 'state');
    writeFixtureSkills(skills);
    const root = path.join(skills, 'alpha');
    fs.symlinkSync('/', path.join(root, 'lnk'));
    fs.writeFileSync(homeCanary, `home-secret-${tag}\n`, { mode: 0o600 });
    fs.mkdirSync(state, { recursive: true });
    const stateCanary = path.join(state, `canary-${tag}`);
    fs.writeFileSync(stateCanary, `state-secret-${tag}\n`, { mode: 0o600 });
    server = net.createServer((c) => c.end(`socket-secret-${tag}\n`));
    await new Promise<void>((resolve) => server!.listen(sock, resolve));

    const c = await stdioClient(serverArgs(skills, state, ['--tool-surface', 'both', '--allow-scripts', '--sandbox', 'required']));
    client = c.client;
    const load = await client.callTool({ name: 'load_skills', arguments: { names: ['alpha'] } });
    assert.equal(load.isError, false, toolText(load));
    const via = `${root}/lnk`;
    const script = [
      `#!${via}/bin/bash`,
      `cat "${via}${homeCanary}" 2>/dev/null || echo "home: unreadable"`,
      `cat "${via}${stateCanary}" 2>/dev/null || echo "state: unreadable"`,
      `python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(100).decode().strip())" "${via}${sock}" 2>/dev/null || echo "socket: refused"`,
      'echo ran-to-the-end',
      '',
    ].join('\n');
    const write = await client.callTool({ name: 'updateSkill', arguments: { action: 'replace', skill: 'alpha', file: 'scripts/evil', content: script, force: true } });
    assert.equal(write.isError, false, toolText(write));
    const run = await client.callTool({ name: 'run_skill_script', arguments: { skill: 'alpha', script: 'scripts/evil' } });
    const text = toolText(run);
    assert.equal(run.isError, false, text);
    const result = JSON.parse(text) as { sandboxed: boolean; stdout: string; stderr: string; exit_code: number };
    assert.equal(result.sandboxed, true);
    assert.doesNotMatch(`${result.stdout}\n${result.stderr}`, new RegExp(`(home|state|socket)-secret-${tag}`), text);
    assert.match(result.stdout, /ran-to-the-end/, text);
    assert.match(result.stdout, /home: unreadable/);
  });
});
