// Answering the extension's prompts (an InputBox or a QuickPick) as a user pressing Enter or Escape would.
import * as vscode from 'vscode';
import { waitFor } from './waitFor';

/**
 * Presses Enter (or Escape) on whatever prompt is open, until `stop` holds. The key press is not awaited: with
 * no prompt open it may not answer until one opens, and `stop` must still be checked meanwhile.
 */
export async function pressUntil(action: 'accept' | 'dismiss', what: string, stop: () => boolean): Promise<void> {
  let pressing: Thenable<unknown> | undefined;
  await waitFor(what, () => {
    if (stop()) return true;
    pressing ??= vscode.commands.executeCommand(action === 'accept' ? 'workbench.action.acceptSelectedQuickOpenItem' : 'workbench.action.closeQuickOpen').then(
      () => (pressing = undefined),
      () => (pressing = undefined),
    );
    return false;
  }, 60_000);
}

/** Runs a command, answering its prompts, and returns its result. */
export async function answering<T>(command: Thenable<T>, action: 'accept' | 'dismiss'): Promise<T> {
  let settled = false;
  const done = Promise.resolve(command).finally(() => (settled = true));
  await pressUntil(action, `the command to ${action === 'accept' ? 'finish after its prompts were accepted' : 'stop after its prompt was dismissed'}`, () => settled);
  return done;
}
