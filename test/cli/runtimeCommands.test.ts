import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readAuditFile } from '../../src/core/audit';
import { createSkillsRuntime } from '../../src/core/runtime';
import { folderSource, writeSkill } from '../core/runtime/runtimeSupport';
import { makeTempDir } from '../support/tempDir';
import { BUILD_TIMEOUT_MS, ensureBuilt } from '../support/ensureBuilt';

const REPO = path.resolve(__dirname, '../..');
const CLI = path.join(REPO, 'dist/cli.js');

function cli(args: string[], cwd: string, home: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, HOME: home, AGENT_SKILLS_STATE_DIR: '' }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('agent-skills run and session', function () {
  this.timeout(60_000);
  let tmp: { dir: string; cleanup: () => void };
  let skills: string;
  let state: string;
  before(function () {
    this.timeout(BUILD_TIMEOUT_MS);
    return ensureBuilt();
  });
  beforeEach(() => {
    tmp = makeTempDir('cli-runtime-');
    skills = path.join(tmp.dir, 'skills');
    state = path.join(tmp.dir, 'state');
    writeSkill(skills, 'echoer', {
      files: {
        'scripts/echo.py': 'import sys\nprint("args:", " ".join(sys.argv[1:]))\nprint("to stderr", file=sys.stderr)\nsys.exit(3)\n',
        'scripts/hang.sh': 'sleep 30\n',
      },
    });
  });
  afterEach(() => tmp.cleanup());

  const base = () => ['--no-defaults', '--root', skills, '--state-dir', state, '--sandbox', 'off'];

  it("runs a skill's script with its arguments and exits with the script's code; the run is audited", async () => {
    const r = cli(['run', ...base(), 'echoer', 'scripts/echo.py', '--flag', 'two words'], tmp.dir, tmp.dir);
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stdout, 'args: --flag two words\n');
    assert.match(r.stderr, /to stderr/);
    const audit = await readAuditFile(path.join(state, 'audit.jsonl'));
    assert.deepEqual(audit.map((a) => `${a.action}:${a.skill}:${a.outcome}`), ['load:echoer:ok', 'run_script:echoer:ok']);
    assert.equal(audit[1].details?.exit_code, 3);
    assert.deepEqual(fs.readdirSync(path.join(state, 'sessions')), [], 'the temporary CLI session is removed');
    const json = cli(['run', ...base(), '--json', 'echoer', 'scripts/echo.py'], tmp.dir, tmp.dir);
    assert.equal(JSON.parse(json.stdout).exit_code, 3);
  });

  it('reports unknown skills and refused paths with a hint, and a timeout as exit 124', () => {
    const unknown = cli(['run', ...base(), 'echo', 'scripts/echo.py'], tmp.dir, tmp.dir);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /echoer/);
    const outside = cli(['run', ...base(), 'echoer', '../x.py'], tmp.dir, tmp.dir);
    assert.equal(outside.code, 1);
    assert.match(outside.stderr, /refused/);
    const hang = cli(['run', ...base(), '--timeout', '1', 'echoer', 'scripts/hang.sh'], tmp.dir, tmp.dir);
    assert.equal(hang.code, 124);
    assert.match(hang.stderr, /timed out/);
    assert.equal(cli(['run', ...base(), 'echoer'], tmp.dir, tmp.dir).code, 2);
  });

  it('runs the script as whoever runs it (root, and the unprivileged pass of npm test)', () => {
    writeSkill(skills, 'hi', { files: { 'scripts/hi.sh': 'echo "hi from $(id -u)"\n' } });
    const r = cli(['run', ...base(), 'hi', 'scripts/hi.sh'], tmp.dir, tmp.dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `hi from ${process.getuid?.()}\n`);
    // Again, on the copy and the spare workspace the first run left: replacing them works for this user too.
    fs.appendFileSync(path.join(skills, 'hi', 'scripts', 'hi.sh'), 'echo again\n');
    const again = cli(['run', ...base(), 'hi', 'scripts/hi.sh'], tmp.dir, tmp.dir);
    assert.equal(again.stdout, `hi from ${process.getuid?.()}\nagain\n`, again.stderr);
  });

  it("an internal failure (the state folder cannot be made) names what failed and what to do, not a field to fix", () => {
    fs.mkdirSync(path.join(state, 'exec'), { recursive: true });
    fs.writeFileSync(path.join(state, 'exec', 'skills'), 'a file where a folder belongs');
    const r = cli(['run', ...base(), 'echoer', 'scripts/echo.py'], tmp.dir, tmp.dir);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^agent-skills run: Making the read-only copy of skill "echoer" in .*exec\/skills failed: /);
    assert.match(r.stderr, /not of your call/);
    assert.doesNotMatch(r.stderr, /fix the named field/i);
  });

  it('session list, show, clear and delete work on the state a runtime persisted', async () => {
    const rt = createSkillsRuntime({ source: folderSource(skills), stateDir: state, loadMode: 'session' });
    await rt.invoke('load', { names: ['echoer'] }, { sessionId: 'chat-a' });
    await rt.openSession('chat-b');
    await rt.flush();
    const list = cli(['session', 'list', '--state-dir', state], tmp.dir, tmp.dir);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^chat-a {2}mode=session .*loaded=echoer\nchat-b /);
    const show = cli(['session', 'show', 'chat-a', '--state-dir', state, '--json'], tmp.dir, tmp.dir);
    assert.deepEqual(JSON.parse(show.stdout).active_skills.map((a: { name: string }) => a.name), ['echoer']);
    assert.equal(cli(['session', 'clear', 'chat-a', '--state-dir', state], tmp.dir, tmp.dir).code, 0);
    assert.equal(createSkillsRuntime({ source: folderSource(skills), stateDir: state }).sessions.get('chat-a')?.active_skills.length, 0);
    assert.equal(cli(['session', 'delete', 'chat-b', '--state-dir', state], tmp.dir, tmp.dir).code, 0);
    assert.equal(fs.existsSync(path.join(state, 'sessions', 'chat-b.json')), false);
    const missing = cli(['session', 'show', 'nope', '--state-dir', state], tmp.dir, tmp.dir);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /session list/);
    assert.equal(cli(['session', 'frobnicate', '--state-dir', state], tmp.dir, tmp.dir).code, 2);
  });
});
