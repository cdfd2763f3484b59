// What the run confirmation says about the sandbox. The runner decides (src/core/exec: the same probe its
// runs use); this only words its answer for the confirmation dialog.
import { describeSandbox, type SandboxStatus } from '../../core/exec/sandboxStatus';

/** The confirmation's title suffix and its "Sandbox:" line for a runner's sandbox status. */
export function sandboxConfirmation(status: SandboxStatus): { title: string; text: string } {
  const title = status.sandboxed ? (status.missing?.length ? ' (sandboxed, with a protection missing)' : ' (sandboxed)') : status.refused ? ' (will be refused: no sandbox)' : ' (NOT sandboxed)';
  return { title, text: describeSandbox(status) };
}
