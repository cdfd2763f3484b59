/**
 * The persistent launcher's own program: a small Node.js script, run with `node -e` (no file to find in
 * dist/ or in the sources, so the runner starts it the same way from the bundle, the CLI and the tests).
 * It is started once per runner with an empty environment, so `/proc/$PPID/environ` of every script shows
 * nothing of the editor's and nothing of another run's call env: each run's environment reaches it in a
 * message and goes only to that run's `spawn`.
 *
 * Messages in (runner -> launcher):
 *   {t:'start', id, program, args, cwd, env, caps:[stdout, stderr]}  start a run as a new process group
 *   {t:'release', id}                                                stop reading a run's pipes
 * Messages out (launcher -> runner):
 *   {t:'ready'}, {t:'pid', id, pid}, {t:'out', id, fd:1|2, data}, {t:'exit', id, code, signal},
 *   {t:'close', id}, {t:'error', id, code, message}
 *
 * It relays at most cap + 1 bytes of each stream (the runner keeps `cap` and learns it was cut), so a
 * script that floods its output costs the channel no more than the runner would keep. When the runner
 * goes away (channel closed) it kills every group it started and exits: no run outlives its runner.
 */
export const LAUNCHER_PROGRAM = String.raw`
'use strict';
const { spawn } = require('child_process');
const runs = new Map();
const send = (m) => { try { process.send(m); } catch {} };
const killGroup = (pid, sig) => { try { process.kill(-pid, sig); } catch {} };
process.on('message', (m) => {
  if (m.t === 'release') {
    const r = runs.get(m.id);
    if (r) { r.child.stdout.destroy(); r.child.stderr.destroy(); }
    return;
  }
  if (m.t !== 'start') return;
  let child;
  try {
    child = spawn(m.program, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    send({ t: 'error', id: m.id, code: e.code, message: String(e.message) });
    send({ t: 'close', id: m.id });
    return;
  }
  const r = { child, pid: child.pid };
  runs.set(m.id, r);
  if (child.pid !== undefined) send({ t: 'pid', id: m.id, pid: child.pid });
  const relay = (fd, stream, cap) => {
    let left = cap + 1;
    stream.on('data', (c) => {
      if (left <= 0) return;
      const part = c.length > left ? c.subarray(0, left) : c;
      left -= part.length;
      send({ t: 'out', id: m.id, fd, data: part });
    });
  };
  relay(1, child.stdout, m.caps[0]);
  relay(2, child.stderr, m.caps[1]);
  child.on('error', (e) => send({ t: 'error', id: m.id, code: e.code, message: String(e.message) }));
  child.on('exit', (code, signal) => send({ t: 'exit', id: m.id, code, signal }));
  child.on('close', () => { runs.delete(m.id); send({ t: 'close', id: m.id }); });
});
process.on('disconnect', () => {
  for (const r of runs.values()) if (r.pid !== undefined) killGroup(r.pid, 'SIGKILL');
  process.exit(0);
});
send({ t: 'ready' });
`;
