// Red team (issue 22, third pass): what the CLI prints on stderr and in `session` text, written by others. The
// second pass escaped `validate`, `list`, `search` and `inspect`; before this fix `agent-skills run` printed a skill
// folder's ESC/OSC sequence raw in its error (`\e]0;PWNED\a` retitled the terminal), `agent-skills session show` printed
// a loaded skill's folder raw, and `agent-skills mcp` printed another MCP server's error message raw in its log.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';
import { CLI, serverArgs, stdioClient, waitFor } from './mcpSupport';

const OSC = '\u001b]0;PWNED\u0007';
const ESCAPED = '\\e]0;PWNED\\x07';

describe('CLI text never passes another party\'s control characters to the terminal (red team)', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  let state: string;
  before(async function () {
    this.timeout(BUILD_TIMEOUT_MS);
    await ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('cli-escapes-');
    skills = path.join(tmp.dir, 'skills');
    state = path.join(tmp.dir, 'state');
    const dir = path.join(skills, `evil${OSC}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: evil\ndescription: Does evil things. Use for evil.\n---\n\nBody.\n');
  });
  afterEach(() => tmp.cleanup());

  it('agent-skills run: an error naming the skill\'s folder', () => {
    const r = spawnSync(process.execPath, [CLI, 'run', '--no-defaults', '--root', skills, '--state-dir', state, 'evil', 'scripts/none.sh'], { encoding: 'utf8' });
    assert.equal(r.status, 1, r.stderr);
    assert.ok(!r.stderr.includes('\u001b') && !r.stderr.includes('\u0007'), `raw control characters on stderr: ${JSON.stringify(r.stderr)}`);
    assert.ok(r.stderr.includes(ESCAPED), `the folder is shown escaped: ${JSON.stringify(r.stderr)}`);
  });

  it('agent-skills session show: a session that loaded the skill', async () => {
    const { client } = await stdioClient(serverArgs(skills, state));
    try {
      await client.callTool({ name: 'load_skills', arguments: { names: ['evil'] } });
      const list = await waitFor('the stored session', () => {
        const r = spawnSync(process.execPath, [CLI, 'session', 'list', '--state-dir', state], { encoding: 'utf8' });
        return /loaded=evil/.test(r.stdout) ? r.stdout : undefined;
      });
      const id = list.split('\n').find((l) => /loaded=evil/.test(l))!.split(/\s+/)[0];
      const show = spawnSync(process.execPath, [CLI, 'session', 'show', id, '--state-dir', state], { encoding: 'utf8' });
      assert.equal(show.status, 0, show.stderr);
      assert.ok(!show.stdout.includes('\u001b') && !show.stdout.includes('\u0007'), `raw control characters: ${JSON.stringify(show.stdout)}`);
      assert.ok(show.stdout.includes(ESCAPED), `the folder is shown escaped: ${JSON.stringify(show.stdout)}`);
    } finally {
      await client.close();
    }
  });

  it('agent-skills mcp: another MCP server\'s error message in the log', async () => {
    // A stdio server that answers every request with an error whose message carries the sequence.
    const hostile = path.join(tmp.dir, 'hostile.mjs');
    fs.writeFileSync(
      hostile,
      `import * as readline from 'node:readline';\nreadline.createInterface({ input: process.stdin }).on('line', (l) => { const m = JSON.parse(l); if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32000, message: ${JSON.stringify(`nope${OSC}`)} } }) + '\\n'); });\n`,
    );
    const child = spawn(process.execPath, [...serverArgs(skills, state), '--mcp-server', `hostile=${process.execPath} ${hostile}`], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await waitFor('the log line about the hostile server', () => (/hostile/.test(err) && /PWNED/.test(err) ? true : undefined), 40_000);
      assert.ok(!err.includes('\u001b') && !err.includes('\u0007'), `raw control characters in the log: ${JSON.stringify(err)}`);
      assert.ok(err.includes(ESCAPED), JSON.stringify(err));
    } finally {
      child.kill('SIGTERM');
    }
  });
});
