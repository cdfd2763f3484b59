// Whether a skill script would run sandboxed, told to the user before it runs. A side-effect-free look
// at PATH: the runner itself makes the final decision (and reports it in the result).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SandboxPolicy } from '../../core/exec/types';

let bwrapPath: string | null | undefined;

function findBwrap(): string | null {
  if (bwrapPath !== undefined) return bwrapPath;
  bwrapPath = null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'bwrap');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      bwrapPath = candidate;
      break;
    } catch {
      // not here
    }
  }
  return bwrapPath;
}

/** One sentence: sandboxed or not, and why. */
export function describeSandbox(policy: SandboxPolicy): { sandboxed: boolean; text: string } {
  if (policy === 'off') return { sandboxed: false, text: 'Not sandboxed (setting agentSkills.scripts.sandbox is "off"): the script runs with your user\'s rights, network included.' };
  const bwrap = process.platform === 'linux' ? findBwrap() : null;
  if (bwrap) return { sandboxed: true, text: `Sandboxed with bubblewrap (${bwrap}): read-only system, no network, only its run folder writable.` };
  if (policy === 'required') return { sandboxed: true, text: 'Sandbox required, but bubblewrap was not found: the run will be refused.' };
  return { sandboxed: false, text: 'Not sandboxed (bubblewrap is not available here): the script runs with your user\'s rights, in a fresh run folder.' };
}
