import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeTree } from './skillSnapshot';

/**
 * The folders of one run. Layout under `<stateDir>/runs/<run_id>/`:
 * `skills/<name>/` the staged skill (read-only: symlinks into the snapshot plus the convenience links
 * `out`, `work`, `inputs` and the dependency folders), `out/` (OUTPUT_DIR), `work/` (WORK_DIR, with
 * `work/inputs` linking to `inputs/`), `inputs/` (staged inputs), `run/` (RUN_DIR, also TMPDIR).
 */
export interface RunWorkspace {
  runId: string;
  root: string;
  skillsDir: string;
  skillDir: string;
  outDir: string;
  workDir: string;
  inputsDir: string;
  runDir: string;
}

/** Makes a run's folders. The skill view is filled by `populateSkillView`. */
export function createWorkspace(runsDir: string, skillName: string): RunWorkspace {
  const runId = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const root = path.join(runsDir, runId);
  fs.mkdirSync(root, { recursive: true });
  const ws: RunWorkspace = {
    runId,
    root,
    skillsDir: path.join(root, 'skills'),
    skillDir: path.join(root, 'skills', skillName),
    outDir: path.join(root, 'out'),
    workDir: path.join(root, 'work'),
    inputsDir: path.join(root, 'inputs'),
    runDir: path.join(root, 'run'),
  };
  for (const dir of [ws.skillsDir, ws.skillDir, ws.outDir, ws.workDir, ws.inputsDir, ws.runDir]) fs.mkdirSync(dir);
  fs.symlinkSync('../inputs', path.join(ws.workDir, 'inputs'));
  return ws;
}

/**
 * Fills the staged skill folder with one symlink per top-level entry of the read-only snapshot, the
 * links to the run's `out`, `work`, `inputs`, and the persistent dependency folders; then makes the
 * folder itself read-only. Cost: a handful of symlinks, whatever the size of the skill.
 */
export function populateSkillView(ws: RunWorkspace, snapshotDir: string, entries: string[], depLinks: Record<string, string>): string[] {
  const warnings: string[] = [];
  const reserved = new Set(['out', 'work', 'inputs', ...Object.keys(depLinks)]);
  for (const name of entries) {
    if (reserved.has(name)) {
      warnings.push(`the skill's own "${name}" is hidden by the runtime's ${name}/ link in the staged copy`);
      continue;
    }
    fs.symlinkSync(path.join(snapshotDir, name), path.join(ws.skillDir, name));
  }
  fs.symlinkSync(ws.outDir, path.join(ws.skillDir, 'out'));
  fs.symlinkSync(ws.workDir, path.join(ws.skillDir, 'work'));
  fs.symlinkSync(ws.inputsDir, path.join(ws.skillDir, 'inputs'));
  for (const [name, target] of Object.entries(depLinks)) fs.symlinkSync(target, path.join(ws.skillDir, name));
  fs.chmodSync(ws.skillDir, 0o555);
  fs.chmodSync(ws.skillsDir, 0o555);
  return warnings;
}

/**
 * Keeps the newest `keep` finished run folders (names start with the time, so they sort by age) and
 * removes older ones in the background; folders of runs still going (`active`) are never touched.
 * Returns the removal's promise (it never rejects).
 */
export function pruneRuns(runsDir: string, keep: number, active: ReadonlySet<string>): Promise<void> {
  let names: string[];
  try {
    names = fs.readdirSync(runsDir).filter((n) => !active.has(n)).sort();
  } catch {
    return Promise.resolve();
  }
  const doomed = names.slice(0, Math.max(0, names.length - keep)).map((n) => path.join(runsDir, n));
  if (doomed.length === 0) return Promise.resolve();
  // Off the result's path: removing a tree costs a few ms that the caller need not wait for.
  return new Promise((resolve) => {
    setImmediate(() => {
      for (const d of doomed) {
        try {
          removeTree(d);
        } catch {
          // Another runner on the same state dir removed it first.
        }
      }
      resolve();
    });
  });
}
