import { execInheritedFds } from './descriptors';
import { sweepRunProcesses } from './processTree';
import { pinBinds } from './sandbox/bindFds';
import { CGROUP_REMOVAL_MS, removeCgroupOnce } from './pidsCgroup';
import { countTasks, readCounters } from './taskCount';

/**
 * The persistent launcher's own program: a small Node.js script, run with `node -e` (no file to find in
 * dist/ or in the sources, so the runner starts it the same way from the bundle, the CLI and the tests).
 * It is started once per runner with an empty environment, so `/proc/$PPID/environ` of every script shows
 * nothing of the editor's and nothing of another run's call env: each run's environment reaches it in a
 * message and goes only to that run's `spawn`. It starts every run, sandboxed (it spawns bwrap) or not.
 *
 * Messages in (runner -> launcher):
 *   {t:'start', id, program, args, cwd, env, caps:[stdout, stderr], marker, pins, cgroup, prepared}  start a run as a new process group
 *     (pins: bind options of bwrap's args whose sources it opens and binds as descriptors, sandbox/bindFds.ts;
 *     cgroup: the run's pids cgroup, removed here if the runner goes away first, processLimit.ts;
 *     prepared: {id, go}, a prepared start to give the run, by its line; spawned as without it when that one is gone)
 *   {t:'prepare', id, program, args, cgroup}  spawn a prepared start (launcher.ts PREPARED_LAUNCHER, an empty environment,
 *     its standard input the line's pipe), for the next run; its cgroup is removed here if the runner goes away first
 *   {t:'discard', id}                          kill a prepared start that no run will take
 *   {t:'count', id, uid}                       count uid's tasks for the runner's next run (taskCount.ts), in steps
 *   {t:'release', id}                                                        stop reading a run's pipes
 * Messages out (launcher -> runner):
 *   {t:'ready'}, {t:'pid', id, pid}, {t:'out', id, fd:1|2, data}, {t:'exit', id, code, signal},
 *   {t:'close', id}, {t:'error', id, code, message}, {t:'count', id, count?: {uid, tasks, before}}
 *
 * It relays at most cap + 1 bytes of each stream (the runner keeps `cap` and learns it was cut), so a
 * script that floods its output costs the channel no more than the runner would keep. When the runner
 * goes away (channel closed, whatever ended it: exit, crash, SIGKILL) or the launcher is signalled, it
 * sweeps each run (its group, its descendants that left the group with `setsid`, and whatever carries the
 * run's marker: the same sweep as the runner's, processTree.ts) and exits: no run outlives its runner.
 *
 * Descriptors (why a script starts with only 0, 1 and 2): the runner's process may hold descriptors it
 * inherited without close-on-exec (Node marks only the first contiguous ones at its start; an editor or
 * a shell can pass, say, fd 240). Everything Node and libuv open themselves is close-on-exec (O_CLOEXEC),
 * and `spawn` gives the child exactly its stdio, so the only descriptors that can cross an exec are those
 * inherited without the flag. Before anything else this program closes every descriptor above 2 whose
 * flags lack O_CLOEXEC (descriptors.ts reads them in /proc/self/fdinfo); all it opens afterwards is
 * close-on-exec again, so every child it spawns (the script, or bwrap, which passes what it inherits on
 * into the sandbox) gets 0, 1, 2 and nothing more.
 */
/** Processes a count of the launcher's looks at before it lets a message in. */
const COUNT_STEP = 128;

export const LAUNCHER_PROGRAM = String.raw`
'use strict';
const fs = require('fs');
const { spawn } = require('child_process');
// A test runner (tsx) wraps nested functions in __name(...) for their names; the bundle does not.
const __name = (f) => f;
const inherited = ${execInheritedFds.toString()};
const sweep = ${sweepRunProcesses.toString()};
const pinBinds = ${pinBinds.toString()};
const removeCgroupOnce = ${removeCgroupOnce.toString()};
const countTasks = ${countTasks.toString()};
const readCounters = ${readCounters.toString()};
// First of all: no descriptor the launcher inherited without close-on-exec reaches what it spawns.
for (const fd of inherited(fs, process.platform)) { try { fs.closeSync(fd); } catch {} }
const runs = new Map();
// Once the runner is gone, a send fails after the call (an 'error' event on process, which would end the launcher
// before its sweep and cgroup removal finish): nothing is sent then, and the callback takes any late failure.
const ignore = () => {};
const send = (m) => { if (!process.connected) return; try { process.send(m, ignore); } catch {} };
const killGroup = (pid, sig) => { try { process.kill(-pid, sig); } catch {} };
// Prepared starts (launcher.ts PREPARED_LAUNCHER): a sh spawned ahead of its run, waiting for its line on its standard input.
const prepared = new Map();
// A prepared start no run takes: killed while it has not exited (once reaped its pid, and so its group id, may be
// another process's), and its three pipes closed.
const dropPrepared = (p) => {
  if (!p.exited && p.child.pid !== undefined) killGroup(p.child.pid, 'SIGKILL');
  p.child.stdout.destroy();
  p.child.stderr.destroy();
  p.child.stdin.destroy();
};
process.on('message', (m) => {
  if (m.t === 'release') {
    const r = runs.get(m.id);
    if (r) { r.child.stdout.destroy(); r.child.stderr.destroy(); }
    return;
  }
  if (m.t === 'count') return countInSteps(m);
  if (m.t === 'prepare') {
    let child;
    try {
      child = spawn(m.program, m.args, { cwd: '/', env: {}, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch { return; }
    const p = { child, exited: false, cgroup: m.cgroup };
    child.stdin.on('error', () => {});
    child.on('error', () => { p.exited = true; });
    child.on('exit', () => { p.exited = true; });
    prepared.set(m.id, p);
    return;
  }
  if (m.t === 'discard') {
    const p = prepared.get(m.id);
    prepared.delete(m.id);
    if (p) dropPrepared(p);
    return;
  }
  if (m.t !== 'start') return;
  // A prepared sh still waiting takes the run: it gets its line and execs the script (its output so far, if any, is the run's).
  const p = m.prepared ? prepared.get(m.prepared.id) : undefined;
  if (p) prepared.delete(m.prepared.id);
  if (p && !p.exited && p.child.pid !== undefined) {
    p.child.stdin.end(m.prepared.go + '\n');
    return attach(m, p.child);
  }
  if (p) dropPrepared(p);
  let child;
  let pinned = { args: m.args, fds: [] };
  try {
    // Opened here, right before the spawn: a bind source swapped since it was checked refuses the run.
    if (m.pins && m.pins.length) pinned = pinBinds(fs, m.args, m.pins, 3);
    child = spawn(m.program, pinned.args, { cwd: m.cwd, env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe', ...pinned.fds] });
  } catch (e) {
    send({ t: 'error', id: m.id, code: e.code, message: String(e.message) });
    send({ t: 'close', id: m.id });
    return;
  } finally {
    for (const fd of pinned.fds) { try { fs.closeSync(fd); } catch {} }
  }
  attach(m, child);
});
const attach = (m, child) => {
  const r = { child, pid: child.pid, marker: m.marker, cgroup: m.cgroup };
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
};
// A count of a user's tasks for the runner's next run (taskCount.ts): ${COUNT_STEP} processes a step, so a run's start
// that comes meanwhile waits for one step at most.
const countInSteps = (m) => {
  const before = readCounters(fs, true);
  let names = [];
  try { names = fs.readdirSync('/proc'); } catch {}
  if (!before || names.length === 0) return send({ t: 'count', id: m.id });
  let tasks = 0;
  let i = 0;
  const step = () => {
    tasks += countTasks(fs, m.uid, names.slice(i, (i += ${COUNT_STEP})));
    if (i < names.length) setImmediate(step);
    else send({ t: 'count', id: m.id, count: { uid: m.uid, tasks, before } });
  };
  step();
};
let ending = false;
const end = () => {
  if (ending) return;
  ending = true;
  for (const r of runs.values()) {
    if (r.pid === undefined) continue;
    // The leader still lives here, so its setsid descendants are found by parentage before the group dies.
    if (process.platform === 'linux' && r.marker) sweep(fs, r.pid, r.marker);
    killGroup(r.pid, 'SIGKILL');
  }
  // A prepared sh has started nothing yet: its group is itself.
  for (const p of prepared.values()) if (p.child.pid !== undefined) killGroup(p.child.pid, 'SIGKILL');
  // A root runner's runs (and prepared starts) have pids cgroups the runner would have removed: removed here once their
  // killed tasks are reaped, for at most ${CGROUP_REMOVAL_MS} ms (what is left then, the next run's sweep of gone runners removes).
  const left = [...runs.values(), ...prepared.values()].map((r) => r.cgroup).filter(Boolean);
  const until = Date.now() + ${CGROUP_REMOVAL_MS};
  const tidy = () => {
    for (let i = left.length - 1; i >= 0; i--) if (removeCgroupOnce(fs, (pid) => process.kill(pid, 'SIGKILL'), left[i])) left.splice(i, 1);
    if (left.length === 0 || Date.now() >= until) process.exit(0);
    else setTimeout(tidy, 20);
  };
  tidy();
};
process.on('disconnect', end);
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, end);
send({ t: 'ready' });
`;
