import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeTreeAsync } from './skillSnapshot';

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

/** What a run's staged skill folder shows: fixed for one snapshot of one skill. */
export interface SkillView {
  skillName: string;
  /** The read-only snapshot the view links into. */
  snapshotDir: string;
  /** Top-level entry names of the snapshot. */
  entries: readonly string[];
  /** Dependency folder name -> its persistent folder (outside the run). */
  depLinks: Readonly<Record<string, string>>;
}

type WorkspaceOp = { mkdir: string } | { link: string; target: string } | { chmod: string; mode: number };

/**
 * The folders and links of a workspace rooted at `root` (which does not exist yet), in order. The staged
 * skill holds one symlink per top-level entry of the snapshot, the links to the run's `out`, `work` and
 * `inputs` (relative, so the tree can be built elsewhere and renamed into place) and the persistent
 * dependency folders; then it is made read-only. Cost: a handful of folders and links, whatever the size
 * of the skill.
 */
function workspaceOps(root: string, view: SkillView): WorkspaceOp[] {
  const skillsDir = path.join(root, 'skills');
  const skillDir = path.join(skillsDir, view.skillName);
  const ops: WorkspaceOp[] = [root, skillsDir, skillDir, ...['out', 'work', 'inputs', 'run'].map((d) => path.join(root, d))].map((d) => ({ mkdir: d }));
  ops.push({ link: path.join(root, 'work', 'inputs'), target: '../inputs' });
  const reserved = reservedNames(view.depLinks);
  for (const name of view.entries) if (!reserved.has(name)) ops.push({ link: path.join(skillDir, name), target: path.join(view.snapshotDir, name) });
  for (const d of ['out', 'work', 'inputs']) ops.push({ link: path.join(skillDir, d), target: `../../${d}` });
  for (const [name, target] of Object.entries(view.depLinks)) ops.push({ link: path.join(skillDir, name), target });
  ops.push({ chmod: skillDir, mode: 0o555 }, { chmod: skillsDir, mode: 0o555 });
  return ops;
}

function reservedNames(depLinks: Readonly<Record<string, string>>): Set<string> {
  return new Set(['out', 'work', 'inputs', ...Object.keys(depLinks)]);
}

/** Warnings about snapshot entries the view hides behind the runtime's own links. */
export function skillViewWarnings(view: SkillView): string[] {
  const reserved = reservedNames(view.depLinks);
  return view.entries.filter((n) => reserved.has(n)).map((n) => `the skill's own "${n}" is hidden by the runtime's ${n}/ link in the staged copy`);
}

/** Builds a whole workspace at `root` synchronously (the first run of a skill, or when no spare is ready). */
export function buildWorkspace(root: string, view: SkillView): void {
  for (const op of workspaceOps(root, view)) {
    if ('mkdir' in op) fs.mkdirSync(op.mkdir);
    else if ('link' in op) fs.symlinkSync(op.target, op.link);
    else fs.chmodSync(op.chmod, op.mode);
  }
}

/**
 * Builds a whole workspace at `root` on the thread pool, leaving the event loop free (a spare for a later
 * run). Operations that do not depend on each other run in parallel: folders before what goes in them.
 */
export async function buildWorkspaceAsync(root: string, view: SkillView): Promise<void> {
  const p = fs.promises;
  const ops = workspaceOps(root, view);
  const run = (op: WorkspaceOp): Promise<void> =>
    'mkdir' in op ? p.mkdir(op.mkdir).then(() => undefined) : 'link' in op ? p.symlink(op.target, op.link) : p.chmod(op.chmod, op.mode);
  const depth = (op: WorkspaceOp): number => {
    const target = 'mkdir' in op ? op.mkdir : 'link' in op ? op.link : op.chmod;
    return 'chmod' in op ? Number.MAX_SAFE_INTEGER : path.relative(root, target).split(path.sep).filter(Boolean).length;
  };
  // By depth below root: a folder exists before anything is made in it; the locks come last.
  const levels = new Map<number, WorkspaceOp[]>();
  for (const op of ops) levels.set(depth(op), [...(levels.get(depth(op)) ?? []), op]);
  for (const d of [...levels.keys()].sort((a, b) => a - b)) await Promise.all(levels.get(d)!.map(run));
}

/** Random per process, so ids of two processes sharing a state folder never meet. */
const PROCESS_TAG = randomBytes(3).toString('hex');
let runSeq = 0;

/** A new run id: the time first, so run folders sort by age; then this process's tag and a counter. */
export function newRunId(): string {
  return `${Date.now().toString(36)}-${PROCESS_TAG}${(runSeq++).toString(36)}`;
}

/** The paths of the workspace `runsDir/runId` (built by {@link buildWorkspace} or renamed there). */
export function workspaceAt(runsDir: string, runId: string, skillName: string): RunWorkspace {
  const root = path.join(runsDir, runId);
  return {
    runId,
    root,
    skillsDir: path.join(root, 'skills'),
    skillDir: path.join(root, 'skills', skillName),
    outDir: path.join(root, 'out'),
    workDir: path.join(root, 'work'),
    inputsDir: path.join(root, 'inputs'),
    runDir: path.join(root, 'run'),
  };
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
  // Off the result's path and off the event loop (thread pool): removing a tree costs a few ms, which
  // would otherwise delay the next run's process events.
  return Promise.all(doomed.map((d) => removeTreeAsync(d).catch(() => undefined))).then(() => undefined);
}
