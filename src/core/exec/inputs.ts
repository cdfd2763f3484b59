import * as fs from 'node:fs';
import * as path from 'node:path';
import { localDisk } from '../host/localDisk';
import type { SyncSkillsHost } from '../host/skillsHost';
import { copyOut } from './sourceTree';
import { ArtifactStore, parseArtifactRef } from './artifactStore';
import { ScriptRunError } from './scriptRunError';
import { checkRelativePath, isInside, resolveInside } from './paths';
import type { InputSpec } from './execTypes';
import type { RunWorkspace } from './workspace';

/** What input staging needs from the runner. */
export interface InputContext {
  ws: RunWorkspace;
  artifacts: ArtifactStore;
  /** The host workspace folder behind `workspace://` (the editor's project), if any. */
  workspaceDir?: string;
  /** Host folders from which `host://` inputs are allowed. */
  allowedHostPaths: readonly string[];
  /** The host's own state folders: no workspace:// or host:// input comes from inside one or holds one. */
  privateDirs?: readonly string[];
  resolveSkillRoot?: (name: string) => string | undefined | Promise<string | undefined>;
  /** Where `skill://` inputs are read: the runner's host (the disk by default). */
  files?: SyncSkillsHost;
  /** Receives the source of every input staged as a link (the sandbox binds them read-only). */
  linked?: string[];
}

function refuse(from: string, why: string): never {
  throw new ScriptRunError('input_refused', `inputs: "${from}" ${why}`);
}

/**
 * `real` (a resolved source), unless it lies inside one of the host's state folders or holds one: the sessions,
 * audit log, handles, artifacts and other runs there are never a script's input, whatever folder (a workspace
 * started in HOME, an allowed host folder) happens to contain them.
 */
function notPrivate(from: string, real: string, ctx: InputContext): string {
  for (const dir of ctx.privateDirs ?? []) {
    let own: string;
    try {
      own = fs.realpathSync(dir);
    } catch {
      own = path.resolve(dir);
    }
    if (isInside(own, real)) refuse(from, `lies inside ${dir}, the runtime's own state (sessions, audit log, other runs), which is never staged for a script. Stage the file from where it was made (an artifact:// ref of a run's output), not from the state folder.`);
    if (isInside(real, own)) refuse(from, `is a folder holding ${dir}, the runtime's own state (sessions, audit log, other runs), which is never staged for a script. Name a narrower folder or the files themselves.`);
  }
  return real;
}

/** Where an input comes from: a path on the disk, or a path of a skill read through the runner's host. */
type Source = string | { skillRoot: string; path: string };

async function resolveSource(spec: InputSpec, ctx: InputContext): Promise<Source> {
  const { from } = spec;
  const scheme = /^([a-z]+):\/\//.exec(from)?.[1];
  switch (scheme) {
    case 'workspace': {
      if (!ctx.workspaceDir) refuse(from, 'cannot be staged: this runner has no workspace folder (none is open, or it serves remote clients over HTTP, whose files are not on this machine); use skill://, artifact:// or an allowed host:// path.');
      return notPrivate(from, resolveInside(ctx.workspaceDir, from.slice('workspace://'.length), `inputs "${from}"`, 'input_refused'), ctx);
    }
    case 'skill': {
      const rest = from.slice('skill://'.length);
      const slash = rest.indexOf('/');
      const name = slash < 0 ? rest : rest.slice(0, slash);
      const rel = slash < 0 ? '' : rest.slice(slash + 1);
      const root = ctx.resolveSkillRoot ? await ctx.resolveSkillRoot(name) : undefined;
      if (!root) refuse(from, `names skill "${name}", which is not known; list the skills and use an exact name.`);
      // Through the host the skill was found in: the same path rule, links looked at where the skill lives.
      const files = ctx.files ?? localDisk;
      const realRoot = files.realPath(root);
      if (!realRoot) refuse(from, `names skill "${name}", whose folder ${root} is gone; reload the skill list.`);
      return { skillRoot: realRoot, path: resolveInside(realRoot, rel, `inputs "${from}"`, 'input_refused', true, files) };
    }
    case 'artifact': {
      const ref = parseArtifactRef(from);
      const info = ref && ctx.artifacts.stat(ref);
      if (!info) refuse(from, 'is not a stored artifact; check the name and version returned by an earlier run (artifact_files).');
      return info.path;
    }
    case 'host': {
      const p = from.slice('host://'.length);
      if (!path.isAbsolute(p) || p.includes('\0')) refuse(from, 'must be host:///absolute/path.');
      let real: string;
      try {
        real = fs.realpathSync(p);
      } catch {
        refuse(from, 'does not exist.');
      }
      const allowed = ctx.allowedHostPaths.some((a) => {
        try {
          return isInside(fs.realpathSync(a), real);
        } catch {
          return false;
        }
      });
      if (!allowed) {
        refuse(from, `is outside the host paths the user allowed (${ctx.allowedHostPaths.join(', ') || 'none'}); ask the user to allow its folder, or use workspace://.`);
      }
      return notPrivate(from, real, ctx);
    }
    default:
      refuse(from, 'has no known scheme; use workspace://, skill://<name>/, artifact://name[@version] or host:///abs/path.');
  }
}

/** Copies or links every input into the workspace; returns warnings. */
export async function stageInputs(inputs: InputSpec[], ctx: InputContext): Promise<string[]> {
  const warnings: string[] = [];
  for (const spec of inputs) {
    const resolved = await resolveSource(spec, ctx);
    const source = typeof resolved === 'string' ? resolved : resolved.path;
    const parsed = parseArtifactRef(spec.from);
    const base = parsed ? path.posix.basename(parsed.name) : path.basename(source);
    const toRel = checkRelativePath(spec.to ?? `inputs/${base}`, `inputs "${spec.from}" to`, 'path_outside_workspace', 'the workspace');
    const to = path.join(ctx.ws.root, toRel.replace(/^work\/inputs(\/|$)/, 'inputs$1'));
    // `to` passed the path rule (checkRelativePath) for the run folder; the staged skill inside it stays read-only.
    if (!toRel || isInside(ctx.ws.skillsDir, to)) {
      throw new ScriptRunError('path_outside_workspace', `inputs "${spec.from}": to "${spec.to}" must name a file under out/, work/, inputs/ or run/.`);
    }
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (typeof resolved !== 'string' && spec.mode !== 'link') {
      copyOut(ctx.files ?? localDisk, resolved.skillRoot, source, to, warnings);
    } else if (spec.mode === 'link') {
      // A skill held elsewhere than the disk (in memory, remote) has no path a link could reach; a copy can.
      if (typeof resolved !== 'string' && !(ctx.files ?? localDisk).local) refuse(spec.from, 'is in a skill that is not on the disk, so it cannot be linked; stage it with mode "copy".');
      fs.symlinkSync(source, to);
      ctx.linked?.push(source);
    }
    else fs.cpSync(source, to, { recursive: true, dereference: false, errorOnExist: false });
  }
  return warnings;
}
