// The runner's one decision about a run's script: inside the skill (or, for an edited file, its overlay, by the one
// overlay rule) and a regular file. Refusals carry what was wrong as data (`ScriptRunError.path`), so the runtime
// words them as its read tool words the same path, without checking it a second time.
import type { SyncSkillsHost } from '../host/skillsHost';
import { overlayWins } from '../paths/overlayRule';
import type { RunRequest } from './execTypes';
import { checkRelativePath, resolveInside } from './paths';
import { ScriptRunError } from './scriptRunError';

/** The script's path checked inside the skill (or its overlay) and proved a regular file; refusals say it was `script`. */
export function checkScript(req: Pick<RunRequest, 'skillName'>, script: string, files: SyncSkillsHost, realRoot: string, realOverlay: string | undefined): string {
  try {
    const scriptRel = checkRelativePath(script, 'script', 'path_outside_skill', `the root of skill "${req.skillName}"`);
    // An edited script of a read-only skill is in the overlay; every other script in the skill folder.
    const inOverlay = realOverlay !== undefined && overlayWins(files.kind(`${realOverlay}/${scriptRel}`));
    const real = resolveInside(inOverlay ? realOverlay : realRoot, script, `skill "${req.skillName}": script`, 'path_outside_skill', true, files);
    const kind = files.kind(real);
    if (kind !== 'file') {
      throw new ScriptRunError('invalid_request', `script "${script}" is ${kind === 'directory' ? 'a folder' : 'not a regular file (a device, pipe or socket)'}; give a file such as scripts/run.py.`, { field: 'script', kind: kind === 'directory' ? 'directory' : 'other' });
    }
    return scriptRel;
  } catch (e) {
    if (e instanceof ScriptRunError && e.path) e.path = { ...e.path, field: 'script' };
    throw e;
  }
}

