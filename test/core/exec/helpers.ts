import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createScriptRunner, type ScriptRunner, type ScriptRunnerOptions } from '../../../src/core/exec';

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
