import * as fs from 'node:fs';

/**
 * Watches skill roots (recursively) and calls `onChange` once per burst of changes, `delayMs` after the last
 * event. Roots that do not exist when the server starts are not watched (a skill folder created later under an
 * existing root is seen). Watch errors (a root removed) stop that root's watcher and trigger one rescan.
 */
export function watchSkillRoots(roots: readonly string[], delayMs: number, onChange: () => void): { close(): void } {
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  const fire = () => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = true;
    Promise.resolve()
      .then(onChange)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          schedule();
        }
      });
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(fire, delayMs);
  };
  const watchers: fs.FSWatcher[] = [];
  for (const root of new Set(roots)) {
    if (!fs.existsSync(root)) continue;
    try {
      const w = fs.watch(root, { recursive: true, persistent: false }, schedule);
      w.on('error', () => {
        w.close();
        schedule();
      });
      watchers.push(w);
    } catch {
      // A root we cannot watch (permissions, too many watches) is still served; it just is not followed.
    }
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
