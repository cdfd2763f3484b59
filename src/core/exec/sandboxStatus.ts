import type { SandboxPolicy } from './execTypes';

/**
 * Whether a run would be sandboxed, from the same probe the runner decides with: what a confirmation
 * shows before the run, and what the run then does.
 */
export interface SandboxStatus {
  policy: SandboxPolicy;
  /** The run will be isolated. */
  sandboxed: boolean;
  /** With `required` and no working sandbox: the run will be refused. */
  refused: boolean;
  /** What isolates the run, when sandboxed. */
  mechanism?: 'bubblewrap';
  /** The sandbox program, when sandboxed. */
  program?: string;
  /** Why the run will not be sandboxed. */
  reason?: string;
}

/** What the sandbox does, in words a user can check (README "Script sandbox" says the same). */
export const SANDBOX_GUARANTEES =
  'no network; sees only system programs and libraries, its run folder, a read-only copy of the skill and the skill\'s own HOME ' +
  '(not your home folder, other projects, /tmp or /run); runs as an unprivileged user without capabilities; killed with its whole process tree at the timeout';

/** What a run without a sandbox can do, in plain words. */
export const NO_SANDBOX_LIMITS =
  'the script runs with your user\'s rights: it can read your files and use the network. It starts in a fresh run folder with a scrubbed ' +
  'environment, and the timeout kills its process tree';

/** One sentence for a confirmation or a terminal: sandboxed or not, and why. */
export function describeSandbox(s: SandboxStatus): string {
  if (s.sandboxed) return `Sandboxed with bubblewrap (${s.program}): ${SANDBOX_GUARANTEES}.`;
  if (s.refused) return `Not run: the sandbox is required but unavailable (${s.reason}). Install bubblewrap or set agentSkills.scripts.sandbox to "auto".`;
  if (s.policy === 'off') return `Not sandboxed (${s.reason}): ${NO_SANDBOX_LIMITS}.`;
  return `Not sandboxed, because ${s.reason}: ${NO_SANDBOX_LIMITS}.`;
}
