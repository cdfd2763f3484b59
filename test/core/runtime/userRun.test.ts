// A user's own run of a skill script (the editor's "Run Script…"), outside any chat session: the runtime's
// runScript goes through run_script's checks, executor and audit line, and touches no session.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readAuditFile } from '../../../src/core/audit';
import { createScriptRunner } from '../../../src/core/exec';
import { createSkillsRuntime, type SessionEvent, type SkillsRuntime } from '../../../src/core/runtime';
import { makeTempDir } from '../../support/tempDir';
import { alive, waitFor } from '../exec/helpers';
import { folderSource, writeSkill } from './runtimeSupport';

const HANG_SH = '#!/bin/sh\nsleep 300 &\necho "$$ $!" > "$PID_FILE.tmp" && mv "$PID_FILE.tmp" "$PID_FILE"\nwait\n';

describe('runtime: a user run of a skill script (no session)', function () {
  this.timeout(120_000); // the waits for the killed processes allow 60 s (they end as soon as the processes are gone)
  let tmp: { dir: string; cleanup: () => void };
  let rt: SkillsRuntime;
  let events: SessionEvent[];
  const pids: number[] = [];

  beforeEach(() => {
    tmp = makeTempDir('rt-userrun-');
    const skills = path.join(tmp.dir, 'skills');
    writeSkill(skills, 'tool', {
      files: {
        'scripts/echo.sh': '#!/bin/sh\necho "args:$*"\necho "env:${SECRET_TOKEN:-unset}"\necho report > "$OUTPUT_DIR/report.txt"\nexit 3\n',
        'scripts/hang.sh': HANG_SH,
        'scripts/sub/.keep': '',
      },
    });
    process.env.SECRET_TOKEN = 'host-secret';
    rt = createSkillsRuntime({
      source: folderSource(skills),
      stateDir: path.join(tmp.dir, 'state'),
      executor: createScriptRunner({ stateDir: path.join(tmp.dir, 'exec'), sandbox: 'off', killGraceMs: 200 }),
    });
    events = [];
    rt.onDidChange((e) => events.push(e));
  });
  afterEach(async () => {
    delete process.env.SECRET_TOKEN;
    for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await rt.flush();
    tmp.cleanup();
  });

  it('runs a script of a skill that no session loaded, in the scrubbed environment, and audits it with the caller as session', async () => {
    const r = await rt.runScript({ skill: 'tool', script: 'scripts/echo.sh', args: ['a b', 'c'], outputs: { globs: ['out/**'], inline: false } }, { caller: 'user' });
    if (!r.ok) assert.fail(JSON.stringify(r.error));
    const result = r.result as { skill: string; exit_code: number; stdout: string; output_files: { name: string }[]; run_id: string };
    assert.equal(result.skill, 'tool');
    assert.equal(result.exit_code, 3);
    assert.match(result.stdout, /^args:a b c$/m);
    assert.match(result.stdout, /^env:unset$/m, 'the host environment reached the script');
    assert.deepEqual(result.output_files.map((f) => f.name), ['out/report.txt']);
    assert.deepEqual(events, [], 'a session changed');
    assert.deepEqual(rt.sessions.list(), [], 'a session was created');
    await rt.flush();
    const lines = await readAuditFile(path.join(tmp.dir, 'state', 'audit.jsonl'));
    assert.equal(lines.length, 1);
    assert.equal(lines[0].session, 'user');
    assert.equal(lines[0].action, 'run_script');
    assert.equal(lines[0].skill, 'tool');
    assert.match(String(lines[0].digest), /^sha256:/);
    assert.equal(lines[0].outcome, 'ok');
    assert.deepEqual(lines[0].details, { exit_code: 3, timed_out: false, cancelled: false, execution_mode: 'local' });
  });

  it('refuses what run_script refuses, with the same errors, and audits the refusal', async () => {
    const folder = await rt.runScript({ skill: 'tool', script: 'scripts/sub' });
    assert.equal(folder.ok, false);
    if (!folder.ok) assert.match(folder.error.message, /is a folder, not a script/);
    const outside = await rt.runScript({ skill: 'tool', script: '../../etc/passwd' });
    assert.equal(outside.ok, false);
    const unknown = await rt.runScript({ skill: 'nope', script: 'scripts/echo.sh' });
    assert.equal(unknown.ok, false);
    if (!unknown.ok) assert.equal(unknown.error.code, 'unknown_skill');
    const bad = await rt.runScript({ skill: 'tool', script: 'scripts/echo.sh', command: 'ls' } as never);
    assert.equal(bad.ok, false);
    if (!bad.ok) assert.match(bad.error.message, /exactly one of 'script' and 'command'/);
    await rt.flush();
    const outcomes = (await readAuditFile(path.join(tmp.dir, 'state', 'audit.jsonl'))).map((l) => `${l.skill}:${l.outcome}`);
    assert.deepEqual(outcomes, ['tool:error:not_found', `tool:${outside.ok ? 'ok' : `error:${outside.error.code}`}`, 'nope:error:unknown_skill', 'tool:error:invalid_input']);
  });

  it('kills the script and its child when the signal fires; the result and the audit line say cancelled', async () => {
    const pidFile = path.join(tmp.dir, 'pids');
    const ac = new AbortController();
    const pending = rt.runScript({ skill: 'tool', script: 'scripts/hang.sh', env: { PID_FILE: pidFile }, timeout_seconds: 120 }, { signal: ac.signal });
    assert.ok(await waitFor(() => fs.existsSync(pidFile), 15_000), 'the script never started');
    const [script, child] = fs.readFileSync(pidFile, 'utf8').trim().split(' ').map(Number);
    pids.push(script, child);
    ac.abort();
    const r = await pending;
    if (!r.ok) assert.fail(JSON.stringify(r.error));
    assert.equal((r.result as { cancelled: boolean }).cancelled, true);
    assert.ok(await waitFor(() => !alive(script) && !alive(child), 60_000), `still running: ${[script, child].filter(alive).join(', ')}`);
    await rt.flush();
    const [line] = await readAuditFile(path.join(tmp.dir, 'state', 'audit.jsonl'));
    assert.equal(line.outcome, 'cancelled');
  });
});
