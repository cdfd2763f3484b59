import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SyncSkillsHost } from '../host/skillsHost';
import { checkCallEnv } from './envPolicy';
import { ScriptRunError } from './scriptRunError';
import { resolveInRoot } from '../paths/resolveInRoot';
import { checkRelativePath } from './paths';
import type { RunRequest } from './execTypes';
import type { RunWorkspace } from './workspace';

// Checks of a run request before anything is staged, and where its cwd is.

const CWD_VAR = /^\$\{?(WORK_DIR|OUTPUT_DIR|WORKSPACE_DIR|RUN_DIR|SKILLS_DIR)\}?(?=\/|$)\/?/;
const CWD_DIRS: Record<string, string> = { WORK_DIR: 'work', OUTPUT_DIR: 'out', WORKSPACE_DIR: '', RUN_DIR: 'run', SKILLS_DIR: 'skills' };
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Refuses a malformed request, naming the field. The skill folder is looked for in `files` (the runner's source host).
 * Which of script and command, and a positive timeout, are the run_script input schema's to refuse (RunRequest's type
 * holds the first): the runner does not decide them again.
 */
export function validate(req: RunRequest, files: Pick<SyncSkillsHost, 'kind'>): void {
  const bad = (msg: string): never => {
    throw new ScriptRunError('invalid_request', msg);
  };
  if (!req.skillName || /[/\\\0]/.test(req.skillName) || req.skillName === '.' || req.skillName === '..') bad(`skillName "${req.skillName}" is not a plain skill name.`);
  if (!path.isAbsolute(req.skillRoot)) bad(`skillRoot "${req.skillRoot}" must be an absolute folder path.`);
  if (files.kind(req.skillRoot) !== 'directory') {
    throw new ScriptRunError('not_found', `skillRoot ${req.skillRoot} is not a folder; reload the skill list.`);
  }
  if (req.command !== undefined && !req.command.trim()) bad('command is empty; give a program and its arguments.');
  for (const key of Object.keys(req.env ?? {})) if (!ENV_NAME.test(key)) bad(`env key "${key}" is not a valid variable name (letters, digits, _).`);
  // One answer for every launch: a spawn cannot pass a NUL, and a prepared start's sh (launcher.ts) would drop it silently.
  const words: [string, string][] = [...(req.args ?? []).map((a, i): [string, string] => [`args[${i}]`, a]), ...Object.entries(req.env ?? {}).map(([k, v]): [string, string] => [`env.${k}`, v])];
  if (req.command !== undefined) words.push(['command', req.command]);
  const nul = words.find(([, v]) => typeof v === 'string' && v.includes('\0'));
  if (nul) bad(`${nul[0]} holds a NUL byte, which no program can be given (the system ends the word there); remove it, or pass binary data in a file.`);
  checkCallEnv(req.env);
}

/** The real path of an existing folder of `files`, or undefined (a missing overlay: nothing edited yet). */
export function realFolder(files: Pick<SyncSkillsHost, 'kind' | 'realPath'>, dir: string): string | undefined {
  if (!path.isAbsolute(dir)) throw new ScriptRunError('invalid_request', `overlayRoot "${dir}" must be an absolute folder path.`);
  const real = files.realPath(dir);
  return real !== undefined && files.kind(real) === 'directory' ? real : undefined;
}

/** The run's working folder: relative to the staged skill, or under a workspace variable. */
export function resolveCwd(req: RunRequest, ws: RunWorkspace): string {
  if (req.cwd === undefined || req.cwd === '' || req.cwd === '.') return ws.skillDir;
  const m = CWD_VAR.exec(req.cwd);
  const rel = m ? path.posix.join(CWD_DIRS[m[1]], req.cwd.slice(m[0].length)) : req.cwd;
  const base = m ? ws.root : ws.skillDir;
  const clean = checkRelativePath(rel, 'cwd', m ? 'path_outside_workspace' : 'path_outside_skill', m ? 'the workspace' : 'the skill root');
  const target = path.join(base, clean);
  // The path rule, links followed: a skill-relative cwd stays in the staged skill (its snapshot), a $VAR one in the run.
  const r = resolveInRoot(base, clean, { allowRoot: true });
  if (!r.ok && (r.reason === 'not-found' || r.reason === 'root-missing')) {
    throw new ScriptRunError('not_found', `cwd "${req.cwd}" does not exist in the workspace; create it first or use $WORK_DIR.`);
  }
  if (!r.ok) {
    throw new ScriptRunError('path_outside_skill', `cwd "${req.cwd}" resolves${r.real ? ` to ${r.real},` : ''} outside ${m ? "the run's workspace" : 'the skill'}; give a folder inside it.`);
  }
  const real = r.real ?? target;
  if (!fs.statSync(real).isDirectory()) throw new ScriptRunError('invalid_request', `cwd "${req.cwd}" is a file; give a folder.`);
  return target;
}

/** Linux's limit on one argument or one `NAME=value` string of a program (MAX_ARG_STRLEN, 32 pages). */
const MAX_ARG_STRLEN = 131072;

/**
 * The request's arguments or environment were too big to start a program with (the spawn failed with
 * E2BIG): an argument error naming the field and the limit, not a failure of the runtime.
 */
export function argumentsTooBig(req: RunRequest): ScriptRunError {
  const strings: [string, number][] = [
    ...(req.args ?? []).map((a, i): [string, number] => [`args[${i}]`, Buffer.byteLength(a) + 1]),
    ...(req.command !== undefined ? [['command', Buffer.byteLength(req.command) + 1] as [string, number]] : []),
    ...Object.entries(req.env ?? {}).map(([k, v]): [string, number] => [`env.${k}`, Buffer.byteLength(k) + Buffer.byteLength(v) + 2]),
  ];
  const single = strings.find(([, n]) => n > MAX_ARG_STRLEN);
  if (single) {
    return new ScriptRunError('invalid_request', `${single[0]} is ${single[1] - 1} bytes: the system starts no program with one argument or variable over ${MAX_ARG_STRLEN} bytes (E2BIG). Pass large data in a file instead (an input, or a file the script reads).`);
  }
  const sum = (prefix: string) => strings.filter(([f]) => f.startsWith(prefix)).reduce((t, [, n]) => t + n, 0);
  const args = sum('args') + sum('command');
  const env = sum('env');
  const field = args >= env ? 'args' : 'env';
  return new ScriptRunError(
    'invalid_request',
    `${field} is too big to start the script: args ${args} bytes and env ${env} bytes, with the runtime's own variables, exceed the system's limit on a program's arguments and environment together (E2BIG; ARG_MAX, commonly 2 MiB on Linux). Pass large data in a file instead (an input, or a file the script reads).`,
  );
}
