import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Hands a run's writable folders to the account its sandbox runs as, when that is not the runner's own (a root
 * runner starts the sandbox as `nobody`: sandboxView.ts SandboxUser.host). Without it the script could not write its
 * own output, work or HOME folders, which the runner made as root. Links are changed, never followed.
 *
 * `top` is the run folder itself (only it: its staged `skills/` stays the runner's, bound read-only anyway).
 * `fresh` are the run's own folders (new for each run, their content staged by the runner): handed over whole.
 * `kept` outlive the run (HOME, dependency folders, plugin data): handed over whole only while their top still has
 * another owner (their first run as this account); what the script adds later is already its own.
 */
export function handOver(top: string, fresh: readonly string[], kept: readonly string[], account: { uid: number; gid: number }): void {
  const own = (p: string) => fs.lchownSync(p, account.uid, account.gid);
  const tree = (top: string) => {
    const st = fs.lstatSync(top, { throwIfNoEntry: false });
    if (!st) return;
    own(top);
    if (!st.isDirectory()) return;
    for (const name of fs.readdirSync(top)) tree(path.join(top, name));
  };
  own(top);
  for (const dir of fresh) tree(dir);
  for (const dir of kept) if (fs.statSync(dir, { throwIfNoEntry: false })?.uid !== account.uid) tree(dir);
}
