import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createScriptRunner, type ScriptRunner, type ScriptRunnerOptions } from '../../../src/core/exec';
import { removeTempDir } from '../../support/tempDir';

export const FIXTURE = path.resolve(__dirname, '../../fixtures/exec-demo');

/** A fresh temp folder holding a copy of the fixture skill and a state dir. */
export interface Sandbox {
  tmp: string;
  skillRoot: string;
  stateDir: string;
  runner(extra?: Partial<ScriptRunnerOptions>): ScriptRunner;
}

export function setup(): Sandbox {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'exec-test-'));
  const skillRoot = path.join(tmp, 'exec-demo');
  fs.cpSync(FIXTURE, skillRoot, { recursive: true });
  const stateDir = path.join(tmp, 'state');
  return { tmp, skillRoot, stateDir, runner: (extra) => createScriptRunner({ stateDir, sandbox: 'off', ...extra }) };
}

export function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((d) => {
    try {
      fs.accessSync(path.join(d, cmd), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** True when `pid` runs (a zombie waiting for a non-reaping init counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Polls until `check` is true or the deadline passes; returns the last answer. */
export async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

/** Whether bwrap works here with the runner's isolation; prints why not (for a skip). */
export async function sandboxWorks(sb: Sandbox): Promise<boolean> {
  const status = await sb.runner({ sandbox: 'auto' }).sandboxStatus();
  if (!status.sandboxed) console.log(`      skipped: no working sandbox here (${status.reason})`);
  return status.sandboxed;
}

/** Removes a test's temp folder, read-only run folders included (a non-root user cannot otherwise). */
export function cleanup(sb: Sandbox | undefined): void {
  if (sb) removeTempDir(sb.tmp);
}

/** A script that starts a `sleep "$1"` in a session of its own (`setsid`), escaping the run's process group. */
export const ESCAPING_SCRIPT = 'setsid sleep "$1" &\nwait\n';

/** Skips the suite (saying why) where escaping children cannot be made or found: not Linux, or no `setsid`. */
export function skipWithoutSetsid(ctx: Mocha.Context): void {
  if (process.platform !== 'linux' || !onPath('setsid')) {
    console.log('      skipped: needs Linux /proc and setsid');
    ctx.skip();
  }
}

/** A `sleep` duration no other process uses, to find a test's sleepers by their command line. */
export function uniqueSleep(): string {
  return `300.${process.pid}${Math.floor(Math.random() * 1e6)}`;
}

/** Pids of live processes with `arg` as one of their arguments (found the same with or without a sandbox). */
export function processesWithArg(arg: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(arg) && alive(pid)) out.push(pid);
    } catch {
      // gone
    }
  }
  return out;
}

/** Pids of live `sleep` processes with `arg` as an argument (not the scripts or runners that pass `arg` on). */
export function sleepersWithArg(arg: string): number[] {
  return processesWithArg(arg).filter((pid) => {
    try {
      return path.basename(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]) === 'sleep';
    } catch {
      return false;
    }
  });
}
