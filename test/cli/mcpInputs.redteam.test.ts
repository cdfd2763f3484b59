// Red team (issue 22, third pass): a script's `inputs` as a way around the sandbox. The sandbox shows a script no
// host file, but `inputs: [{ from: 'workspace://…' }]` copies one in before the run. Before the fix:
// - over HTTP, `workspace://` was the server process's working folder: a remote client (any holder of the team's
//   token) staged `workspace://.ssh/id_rsa` of the server's folder and the sandboxed script printed it
//   (`sandboxed: true`); with the server started in `/` (a container's or a service's default) that is every file;
// - on stdio, a client started in HOME (the state folder `~/.agent-skills` inside its workspace) staged the
//   runtime's own audit log, sessions and other runs, which the README lists as never visible to a script.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createScriptRunner } from '../../src/core/exec';
import { writeSkill } from '../core/runtime/runtimeSupport';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { CLI, httpClient, toolText, waitFor } from './mcpSupport';

describe('run_skill_script inputs never reach past the client\'s workspace into the server\'s files or its state (red team)', function () {
  this.timeout(90_000);
  const tag = randomBytes(4).toString('hex');
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  /** The server's working folder, standing for a HOME: a private key, a note, and the state folder inside it. */
  let home: string;
  let state: string;
  const children: ChildProcess[] = [];
  const clients: Client[] = [];

  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    tmp = makeTempDir('mcp-inputs-');
    const status = await createScriptRunner({ stateDir: path.join(tmp.dir, 'probe-state'), sandbox: 'auto' }).sandboxStatus();
    if (!status.sandboxed) {
      // Without a sandbox a script reads any file of its user directly; these inputs would add nothing to attack.
      console.log(`      skipped: no working sandbox here (${status.reason})`);
      this.skip();
    }
    await ensureBuilt();
  });
  beforeEach(() => {
    const run = fs.mkdtempSync(path.join(tmp.dir, 'case-'));
    fs.chmodSync(run, 0o755);
    skills = path.join(run, 'skills');
    home = path.join(run, 'home');
    state = path.join(home, '.agent-skills');
    fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), `KEY-${tag}\n`);
    fs.writeFileSync(path.join(home, 'notes.txt'), `NOTE-${tag}\n`);
    writeSkill(skills, 'cat', { body: 'Prints files.', files: { 'scripts/cat.sh': 'cat "$@" 2>&1; find inputs -type f 2>/dev/null | head -50\n' } });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  });
  after(() => tmp?.cleanup());

  const run = async (client: Client, args: string[], inputs: { from: string; to?: string; mode?: string }[]) => {
    const r = await client.callTool({ name: 'run_skill_script', arguments: { skill: 'cat', script: 'scripts/cat.sh', args, inputs } });
    return { text: toolText(r), isError: r.isError === true };
  };

  it('over HTTP a remote client has no workspace: the server\'s own folder is never staged', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--no-defaults', '--root', skills, '--state-dir', state, '--http', '127.0.0.1:0', '--allow-scripts', '--sandbox', 'required'], { cwd: home, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let err = '';
    const url = await new Promise<URL>((resolve, reject) => {
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(err);
        if (m) resolve(new URL(m[1]));
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${err}`)));
    });
    const { client } = await httpClient(url);
    clients.push(client);
    await client.callTool({ name: 'load_skills', arguments: { names: ['cat'] } });
    for (const inputs of [[{ from: 'workspace://.ssh/id_rsa' }], [{ from: 'workspace://notes.txt' }], [{ from: 'workspace://', to: 'inputs/all', mode: 'link' }]]) {
      const r = await run(client, ['inputs/id_rsa', 'inputs/notes.txt', 'inputs/all/.ssh/id_rsa'], inputs);
      assert.doesNotMatch(r.text, new RegExp(`KEY-${tag}|NOTE-${tag}`), `a file of the server's folder reached the script: ${r.text.slice(0, 600)}`);
      assert.ok(r.isError, r.text.slice(0, 600));
      assert.match(r.text, /Error \(run_refused\): inputs: "workspace:\/\/[^"]*" cannot be staged: this runner has no workspace folder \(none is open, or it serves remote clients over HTTP/);
    }
  });

  it('on stdio the workspace is the client\'s folder, but the state folder inside it is never staged', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--no-defaults', '--root', skills, '--state-dir', state, '--allow-scripts', '--sandbox', 'required'], cwd: home, stderr: 'pipe' });
    const client = new Client({ name: 'mcp-inputs-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    await client.callTool({ name: 'load_skills', arguments: { names: ['cat'] } });
    // A first run leaves what the state folder keeps: the audit log (with this call's arguments) and a run folder.
    const first = await run(client, [`STATE-${tag}`], []);
    assert.equal(first.isError, false, first.text);
    const audit = path.join(state, 'audit.jsonl');
    await waitFor('the first call in the audit log', () => (fs.existsSync(audit) && fs.readFileSync(audit, 'utf8').includes(`STATE-${tag}`) ? true : undefined));

    const note = await run(client, ['inputs/notes.txt'], [{ from: 'workspace://notes.txt' }]);
    assert.match(note.text, new RegExp(`NOTE-${tag}`), `a file of the client's workspace is staged as before: ${note.text.slice(0, 400)}`);
    const inside = await run(client, ['inputs/audit.jsonl'], [{ from: 'workspace://.agent-skills/audit.jsonl' }]);
    assert.doesNotMatch(inside.text, new RegExp(`STATE-${tag}`), `the audit log reached the script: ${inside.text.slice(0, 600)}`);
    assert.match(inside.text, /inputs: "workspace:\/\/\.agent-skills\/audit\.jsonl" lies inside .*\.agent-skills, the runtime's own state/);
    for (const input of [{ from: 'workspace://', to: 'inputs/all' }, { from: 'workspace://', to: 'inputs/all', mode: 'link' }]) {
      const holding = await run(client, ['inputs/all/.agent-skills/audit.jsonl'], [input]);
      assert.doesNotMatch(holding.text, new RegExp(`STATE-${tag}`), `the audit log reached the script: ${holding.text.slice(0, 600)}`);
      assert.match(holding.text, /inputs: "workspace:\/\/" is a folder holding .*\.agent-skills, the runtime's own state/);
    }
  });
});
